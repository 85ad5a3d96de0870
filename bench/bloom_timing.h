// SPDX-License-Identifier: MIT
// fftbloom's own timing: per-pass GPU time of repeated blooms of one case, from the plugin's timestamps.
#pragma once

#include "fftbloom/fftbloom_generator.h"
#include "vulkan/vulkan_device.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fftb::bench
{

struct BloomCase
{
    uint32_t width = 0, height = 0, kernelSize = 0;
    FftbPadding padding = FFTB_PADDING_ZERO_NORMALIZED;
    FftbSpectrumMode spectrum = FFTB_SPECTRUM_MODE_RESAMPLED;
    FftbSpectrumInterpolation interpolation = FFTB_SPECTRUM_INTERPOLATION_ES; ///< resampled mode only
    uint32_t interpolationWidth = 0;   ///< FftbKernelInfo::interpolationWidth; 0: the interpolation's default
    uint32_t spectrumOversampling = 0; ///< FftbKernelInfo::spectrumOversampling; 0: 2
    FftbLengthPolicy lengths = FFTB_LENGTH_POLICY_MIXED_RADIX; ///< FftbPlannerInfo of the context
    FftbStoragePrecision storage = FFTB_STORAGE_PRECISION_FLOAT32;
    /// Half: pass 3's time includes pass 4 (upsampling), as FFTB_TIMESTAMP_COUNT documents.
    FftbBloomResolution resolution = FFTB_BLOOM_RESOLUTION_FULL;
    /// Each frame first makes the kernel on the GPU (fftbCmdGenerateKernel): an eye whose lens particles flicker (a
    /// new seed every frame), as animated glare does; its pupil (Airy radius, 2 texels) stays, as the kernel's
    /// FftbKernelGeneratorInfo requires.
    bool generatedKernel = false;
    /// The default PSF's glare far field (host/psf/far_field.h: reach one frame diagonal, convolved at 1/8) added by
    /// an FftbFarFieldInfo: the two-scale bloom.
    bool farField = false;
    /// Views of the frame's extent bloomed each frame (different frames, one kernel): by one fftbCmdBloom with an
    /// FftbMultiViewInfo, or by a call each when `separateViews`.
    uint32_t views = 1;
    bool separateViews = false;
    int warmupFrames = 5;
    int frames = 50;

    /// "1920x1080/256 zero resampled" for the default ES interpolation, with " es6" for another width, " cubic 1x"
    /// or " linear 1x" for those at oversampling 1; " pow2" appended for power-of-two lengths, " fp16" for fp16
    /// storage, " half" for half resolution, " generated" for a kernel generated every frame, " far field" for the
    /// two-scale bloom, " 2 views" or
    /// " 2 views separate" for several views
    std::string name() const;
    /// The interpolation's part of name(): "" for the default.
    std::string interpolationName() const;
};

/// Bytes each pass must move through memory by the plan (the model behind the bandwidth floor, DESIGN.md section 4),
/// for an RGBA16F frame in and out and complex intermediates of the case's storage precision (8 or 4 bytes).
struct Traffic
{
    double frame = 0, intermediate = 0, spectrum = 0; ///< bytes of the RGBA16F frame, the intermediate, the spectrum
    double pass1 = 0, pass2 = 0, pass3 = 0;
    /// The floor's bytes: frame in and out once, the intermediate written, read, written and read once, the kernel
    /// spectrum read once (DESIGN.md section 4).
    double floor = 0;
};
/// The traffic of a `width` x `height` frame bloomed as `plan` says (fftbDescribeBloomPlan).
/// FFTB_PADDING_ZERO_NORMALIZED adds the border weights to pass 3's reads; the floor is the same for every padding.
Traffic trafficOf(const FftbBloomPlanDescription& plan, uint32_t width, uint32_t height, FftbStoragePrecision storage,
                  FftbPadding padding);

/// The copy skeleton of `traffic`: median milliseconds of plain copies that move each pass's bytes (pass 1 the frame
/// into the intermediate, pass 2 the spectrum and intermediate into the intermediate, pass 3 the intermediate and
/// frame into an output frame), dispatched one after another with the passes' barriers between them: the practical
/// floor of this pass structure.
struct Skeleton
{
    double pass1Ms = 0, pass2Ms = 0, pass3Ms = 0;
    double totalMs() const { return pass1Ms + pass2Ms + pass3Ms; }
};
Skeleton measureSkeleton(VulkanDevice& device, const Traffic& traffic, int repeats);

/// Whether the plugin can bloom case `c` at all: fftbGetMemoryRequirements for a context of its extents. False and
/// the plugin's reason (e.g. an FFT longer than FFTB_MAX_FFT_LENGTH) otherwise.
bool supported(const BloomCase& c, std::string* reason);

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
    FftbBloomPlanDescription plan{};              ///< fftbDescribeBloomPlan of the timed bloom's plan
    Traffic traffic;                              ///< of every view
    double kernelSpectrumMs = 0;                  ///< the two kernel passes, measured once (first frame)
    double pass1Ms = 0, pass2Ms = 0, pass3Ms = 0; ///< summed over the views' calls when separate
    /// median of the per-frame sums of the three passes: from the first call's pass 1 to the last call's pass 3
    double totalMs = 0;
    /// BloomCase::generatedKernel: medians per frame of the generation, of the kernel spectrum it makes stale, and of
    /// the whole frame (generation, spectrum and the three passes)
    double generationMs = 0, frameSpectrumMs = 0, frameMs = 0;
    /// The generation's passes: the upload with the aperture and row FFT, the column FFT and pattern, the spectral
    /// integration, the normalization (FFTB_TIMESTAMP_COUNT)
    double generationPassMs[4] = {};
};

/// Blooms an RGBA16F frame of random HDR values (per view) into an RGBA16F storage image, warmupFrames + frames
/// times, 8 calls to a command buffer with the next one queued behind, with the default PSF of kernelSize^2. Throws
/// HostError on failure.
BloomTiming measureBloom(VulkanDevice& device, const BloomCase& c);

} // namespace fftb::bench
