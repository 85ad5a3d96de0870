// fftbloom's own timing: per-pass GPU time of repeated blooms of one case, from the plugin's timestamps.
#pragma once

#include "plan.h"
#include "vulkan/vulkan_device.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fftb::bench
{

struct BloomCase
{
    uint32_t width = 0, height = 0, kernelSize = 0;
    Padding padding = Padding::Zero;
    SpectrumMode spectrum = SpectrumMode::Resampled;
    SpectrumInterpolation interpolation = SpectrumInterpolation::Cubic; ///< resampled mode only
    LengthPolicy lengths = LengthPolicy::MixedRadix;                    ///< FftbPlannerInfo of the context
    int warmupFrames = 5;
    int frames = 50;

    /// "1920x1080/256 zero resampled", " linear" appended for bilinear interpolation, " pow2" for power-of-two lengths
    std::string name() const;
};

/// Bytes each pass must move through memory by the plan (the model behind the bandwidth floor, DESIGN.md section 4),
/// for an RGBA16F frame in and out and fp32 complex intermediates.
struct Traffic
{
    double pass1 = 0, pass2 = 0, pass3 = 0;
    /// The floor's bytes: frame in and out once, the intermediate written, read, written and read once, the kernel
    /// spectrum read once (DESIGN.md section 4).
    double floor = 0;
};
Traffic trafficOf(const Plan& plan);

/// One statistic the driver reports for a pass's pipeline (fftbGetPassStatistics).
struct PassStatistic
{
    uint32_t pass = 0, fftLength = 0, workgroupSize = 0;
    std::string name;
    double value = 0;
};

/// Medians over the timed frames, milliseconds.
struct BloomTiming
{
    /// The passes' pipeline statistics, where the device has VK_KHR_pipeline_executable_properties.
    std::vector<PassStatistic> statistics;
    Plan plan;
    Traffic traffic;
    double kernelSpectrumMs = 0; ///< the two kernel passes, measured once (first frame)
    double pass1Ms = 0, pass2Ms = 0, pass3Ms = 0;
    double totalMs = 0; ///< median of the per-frame sums of the three passes
};

/// Blooms an RGBA16F frame of random HDR values into an RGBA16F storage image, warmupFrames + frames times, 8 to a
/// command buffer with the next one queued behind, with the default PSF of kernelSize^2. Throws HostError on
/// failure.
BloomTiming measureBloom(VulkanDevice& device, const BloomCase& c);

} // namespace fftb::bench
