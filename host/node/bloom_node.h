// SPDX-License-Identifier: MIT
// The host's bloom node: the engine glue every front-end needs between its device and the plugin.
#pragma once

#include "fftbloom/fftbloom.hpp"
#include "host_error.h"
#include "image/image.h"
#include "psf/far_field.h"
#include "settings/bloom_settings.h"
#include "vulkan/device_setup.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fftb
{

/// Thrown when the plugin refuses a frame, kernel or plan with its settings (FFTB_ERROR_INVALID_ARGUMENT or
/// FFTB_ERROR_DEVICE_LIMIT: e.g. a frame that needs an FFT longer than FFTB_MAX_FFT_LENGTH) before anything was
/// submitted: the node stays usable for other frames and settings.
class FrameRefused : public HostError
{
  public:
    FrameRefused(FftbResult result, const std::string& reason) : HostError(reason), result_(result) {}
    /// FFTB_ERROR_INVALID_ARGUMENT or FFTB_ERROR_DEVICE_LIMIT
    FftbResult result() const { return result_; }

  private:
    FftbResult result_;
};

/// The extent {width, height} in pixels a kernel of `kernelWidth` x `kernelHeight` texels takes on a `width` x `height`
/// frame bloomed with `plan` (fftbGetKernelExtent), never less than the kernel's own; the kernel's own when the
/// plugin does not compute it (settings it refuses, named when the plan is made). Throws FrameRefused
/// (FFTB_ERROR_DEVICE_LIMIT) naming the kernel span when the extent is past FFTB_MAX_KERNEL_LENGTH.
std::pair<uint32_t, uint32_t> kernelExtentOnFrame(const PlanSettings& plan, uint32_t width, uint32_t height,
                                                  uint32_t kernelWidth, uint32_t kernelHeight);

/// The FftbFarFieldInfo of `far` (size > 0, reduction 4 or 8) made as `kernel` (fftbCreateKernel of
/// farFieldTexels(far)): its resolution, its span in pixels and its weight.
FftbFarFieldInfo farFieldInfoOf(const FarField& far, FftbKernel kernel);

/// What a BloomNode is made on.
struct BloomNodeInfo
{
    VkInstance instance = VK_NULL_HANDLE;
    LogicalDevice device; ///< the device and queue family the plugin records for
    /// the FFT lengths its context pads to (FftbPlannerInfo)
    FftbLengthPolicy lengths = FFTB_LENGTH_POLICY_MIXED_RADIX;
    /// the plugin's device entry points (e.g. a memory tracker's); null: the loader's vkGetDeviceProcAddr
    PFN_vkGetDeviceProcAddr getDeviceProcAddr = nullptr;
    /// The kernel resolution and extent on the frame (both axes) the context is made for at least, so that kernels
    /// up to it do not resize it; 0: only what the kernels given need. At most FFTB_MAX_KERNEL_LENGTH.
    uint32_t minKernelExtent = 0;
    /// Returns once no frame submitted with the node's objects is pending (before fftbResizeContext); required.
    std::function<void()> waitIdle;
};

/// One bloom node as an engine holds it: the plugin's context, grown to the frames and kernels it is given (to the
/// largest extents seen, or to the frame's own when the plugin refuses those together), the kernel made of the texels
/// and kernel-lifetime settings last given, the plans made with it for the extents and plan-lifetime settings seen
/// last (up to 8: dynamic resolution alternates between a few), and what they replace destroyed once the frames
/// submitted before have completed. The front-end owns the device, the queue and the images.
///
/// Every method but the accessors throws FrameRefused when the plugin refuses the settings (naming its reason),
/// VulkanError with VK_ERROR_DEVICE_LOST when the plugin reports a lost device, HostError otherwise. Not thread-safe;
/// the node must outlive no object of the device it was given.
class BloomNode
{
  public:
    explicit BloomNode(BloomNodeInfo info);
    ~BloomNode(); ///< destroys every plan, the kernel and the context; nothing may be pending
    BloomNode(const BloomNode&) = delete;
    BloomNode& operator=(const BloomNode&) = delete;

    /// The kernel of `texels` (RGB, any extent the plugin accepts) made with `settings` (kernelInfoOf: spectrum mode,
    /// interpolation, rotation, centre offset, ...) and, for a kernel generated on the GPU every frame, the Airy
    /// radius in texels it is created for (FftbKernelGeneratorInfo). A kernel unlike the one made last is made by the
    /// next fit() or plan(); the one it replaces and its plans are retired.
    /// With `farField` (its size > 0), the plans bloom with it too (FftbFarFieldInfo): its kernel is made with the
    /// kernel, exact mode, and the context holds its texels.
    void setKernel(const Texels& texels, const KernelSettings& settings, std::optional<float> generatorAiryRadius = {},
                   const FarField& farField = {});

    /// Whether a kernel was given; the texels last given.
    bool hasKernel() const { return !texels_.values.empty(); }
    const Texels& kernelTexels() const { return texels_; }

    /// The context grown to a `width` x `height` frame and the kernel's extent on it with `plan`, and the kernel
    /// made on it. A context grown or re-created means a new kernel (an exact-mode spectrum is sized for the
    /// context's frames): what was made before is destroyed after waitIdle. Requires hasKernel().
    void fit(uint32_t width, uint32_t height, const PlanSettings& plan);

    /// The plan of a `width` x `height` frame with `settings` (planInfoOf) and the kernel (fit()), made unless made
    /// before; past 8 plans the oldest is retired.
    FftbBloomPlan plan(uint32_t width, uint32_t height, const PlanSettings& settings);

    /// The context and kernel (null before the first fit()); kernelsMade counts the kernels made so far, so that a
    /// front-end can tell a new kernel from the one it generated texels into.
    FftbContext context() const { return context_.get(); }
    FftbKernel kernel() const { return kernel_.get(); }
    uint64_t kernelsMade() const { return kernelsMade_; }

    /// A frame recorded with the node's objects was submitted: the number of its submission, which completed() is
    /// later given.
    uint64_t submitted() { return ++submitted_; }
    /// The frame of `submission` (and every one before it) has completed: what was retired before it is destroyed.
    void completed(uint64_t submission);

    /// Throws for `result`, the plugin's answer to `call` on the node's objects, as the node's own methods do, with
    /// the plugin's message since clearMessage() (a front-end's fftbCmdBloom, fftbCmdGenerateKernel, ...).
    [[noreturn]] void fail(FftbResult result, const char* call) const;
    void clearMessage()
    {
        message_.clear();
        messageVkResult_ = VK_SUCCESS;
    }

    /// Before the device is destroyed (nothing pending): every plan, the kernel and the context destroyed; the texels
    /// and settings stay, so that the next fit() on a new device makes them again.
    void release();

  private:
    struct Plan
    {
        uint32_t width = 0, height = 0;
        PlanSettings settings;
        fftbloom::BloomPlan plan;
    };
    struct Retired
    {
        uint64_t afterSubmission = 0;
        fftbloom::Kernel kernel; ///< declared before its plans: destroyed after them
        fftbloom::Kernel farKernel;
        std::vector<Plan> plans;
    };

    /// Creates the context for these maximum extents (frame width, height, kernel width, height), or resizes it.
    FftbResult grow(const uint32_t extent[4]);
    /// The kernel made on the context; `extent` is what the context must hold at least.
    void makeKernel(const uint32_t extent[4]);
    /// The kernel and every plan retired until the frames submitted so far have completed.
    void retireKernel();
    /// info_.waitIdle, then everything retired destroyed.
    void waitIdle();
    void releaseRetired();

    BloomNodeInfo info_;
    std::string message_;                   ///< the plugin's last message
    VkResult messageVkResult_ = VK_SUCCESS; ///< and the VkResult it named
    fftbloom::Context context_;
    uint32_t contextExtent_[4] = {};
    Texels texels_;
    KernelSettings kernelSettings_;
    std::optional<float> generatorAiryRadius_;
    fftbloom::Kernel kernel_;
    FarField farField_;          ///< size 0: none
    fftbloom::Kernel farKernel_; ///< made with kernel_ when farField_ has texels
    uint64_t kernelsMade_ = 0;
    std::vector<Plan> plans_; ///< of kernel_, oldest first
    uint64_t submitted_ = 0;
    uint64_t completed_ = 0;
    std::deque<Retired> retired_; ///< oldest first
};

} // namespace fftb
