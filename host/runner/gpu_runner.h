// SPDX-License-Identifier: MIT
// Runs the plugin on a Vulkan device the runner creates itself: used by the CLI, the GPU tests and bench/.
#pragma once

#include "fftbloom/fftbloom.h"
#include "fftbloom/fftbloom_generator.h"
#include "host_error.h"
#include "image/image.h"
#include "node/bloom_node.h"
#include "settings/bloom_settings.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace fftb
{

/// Device choice and checks for a GpuRunner.
struct RunnerOptions
{
    int deviceIndex = -1;        ///< physical device index; -1: the first discrete GPU, else the first CPU device
    bool validation = false;     ///< enable VK_LAYER_KHRONOS_validation and count its messages
    uint32_t framesInFlight = 2; ///< frames submitted and not yet collected, at most, 1 .. 8
    /// the FFT lengths its contexts pad to (FftbPlannerInfo)
    FftbLengthPolicy lengths = FFTB_LENGTH_POLICY_MIXED_RADIX;
    int loseDeviceAfterWaits = -1; ///< test hook, VulkanDeviceOptions::loseDeviceAfterWaits
};

/// Owns a Vulkan instance, device and queue, one BloomNode (the plugin's context, kernel and plans) and per frame in
/// flight its staging buffers and images, reused while the extent stays the same.
/// Frames are submitted and collected in order, so uploads, passes and readbacks of different frames overlap.
/// Every method throws HostError with a one-line reason ("Vulkan: no device 3 (2 present)", ...); after a Vulkan
/// failure (e.g. VK_ERROR_DEVICE_LOST) the runner must be destroyed.
class GpuRunner
{
  public:
    explicit GpuRunner(const RunnerOptions& options);
    ~GpuRunner();
    GpuRunner(const GpuRunner&) = delete;
    GpuRunner& operator=(const GpuRunner&) = delete;

    /// Name of the physical device in use.
    std::string deviceName() const;

    /// Whether the device is a CPU implementation (lavapipe): hundreds of times slower than a GPU.
    bool cpuDevice() const;

    /// One frame back from the GPU.
    struct Result
    {
        Texels rgba;                  ///< the frame's extent: R, G, B bloomed or composited, A copied from the input
        double gpuMilliseconds = 0.0; ///< GPU time of the recorded passes, from timestamps; 0 without them
        /// fftbDescribeBloomPlan of the frame's plan: padded extents, axis order, the kernel's extent on the frame
        FftbBloomPlanDescription plan{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    };

    /// Starts blooming `frame` (RGBA, interleaved, any extent the plugin accepts) with `kernel` (RGB, normalized by
    /// the plugin to unit sum per channel): uploads it and submits the passes and the readback, and returns. A
    /// composite with intensity 0 is the frame itself: nothing is submitted (the plugin refuses intensity 0) and its
    /// Result's plan is zero.
    /// With `generated`, the kernel's texels are made on the GPU from that aperture first (fftbCmdGenerateKernel):
    /// `kernel` then fixes their size only (K x K, K a power of two in 64..2048). With `farField` (size > 0), the
    /// kernel's far field is added (BloomNode::setKernel).
    /// Requires pending() < framesInFlight. A new kernel or spectrum mode, or a context too small, first waits for
    /// the frames in flight (their results stay queued for collect()). Throws FrameRefused, naming the plugin's reason,
    /// when the plugin refuses this frame with these settings.
    void submit(const Texels& frame, const Texels& kernel, const BloomSettings& settings,
                const FftbApertureInfo* generated = nullptr, const FarField& farField = {});

    /// Checks `kernel` and `settings` with a 1x1 frame, before any frame is read: the plugin's needs only grow with the
    /// frame, so settings refused here (a kernel spectrum past the device's maxStorageBufferRange, a kernel extent past
    /// FFTB_MAX_KERNEL_LENGTH) would be refused for every frame. Throws FrameRefused naming the plugin's reason (and
    /// the device limit), HostError for other failures. The context and kernel made for it are kept for submit(); no
    /// plan is made, so nothing is compiled.
    void check(const Texels& kernel, const BloomSettings& settings);

    /// Frames submitted and not yet collected.
    std::size_t pending() const;

    /// Waits for the oldest pending frame and returns it. Requires pending() > 0.
    Result collect();

    /// submit() then collect() of one frame; nothing else may be pending.
    Texels bloom(const Texels& frame, const Texels& kernel, const BloomSettings& settings,
                 const FftbApertureInfo* generated = nullptr, const FarField& farField = {});

    /// GPU time of the last bloom() in milliseconds, from timestamps around the recorded passes.
    double lastGpuMilliseconds() const;

    /// Validation-layer messages (warnings and errors) seen since construction; 0 when validation is off.
    uint64_t validationMessageCount() const;

    /// The text of the first validation message seen, or "".
    std::string firstValidationMessage() const;

  private:
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace fftb
