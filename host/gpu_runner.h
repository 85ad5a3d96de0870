// Runs the plugin on a Vulkan device the runner creates itself: used by the CLI, the GPU tests and bench/.
#pragma once

#include "image.h"
#include "plan.h"

#include <cstdint>
#include <memory>
#include <string>

namespace fftb
{

/// Per-frame and kernel settings of one bloom, with the CLI's defaults.
struct BloomSettings
{
    Padding padding = Padding::Zero;
    AxisOrder axisOrder = AxisOrder::Auto;
    SpectrumMode spectrum = SpectrumMode::Resampled;
    float sharpen = 0.0f;  ///< t in [0, 1]: kernel spectrum (1 - t) * K + t
    bool composite = true; ///< false: bloom only; true: out = in + intensity * (bloom - in)
    float intensity = 0.25f;
};

/// Device choice and checks for a GpuRunner.
struct RunnerOptions
{
    int deviceIndex = -1;    ///< physical device index; -1: the first discrete GPU, else the first CPU device
    bool validation = false; ///< enable VK_LAYER_KHRONOS_validation and count its messages
};

/// Owns a Vulkan instance, device and queue, and one plugin context per frame extent.
/// Every method throws HostError with a one-line reason ("Vulkan: no device 3 (2 present)", ...).
class GpuRunner
{
  public:
    explicit GpuRunner(const RunnerOptions& options);
    ~GpuRunner();
    GpuRunner(const GpuRunner&) = delete;
    GpuRunner& operator=(const GpuRunner&) = delete;

    /// Name of the physical device in use.
    std::string deviceName() const;

    /// Blooms `frame` (RGBA, interleaved, any extent the plugin accepts) with `kernel` (RGB, normalized by
    /// the plugin to unit sum per channel). Returns RGBA of the frame's extent: R, G, B bloomed or composited,
    /// A copied from the input.
    Texels bloom(const Texels& frame, const Texels& kernel, const BloomSettings& settings);

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
