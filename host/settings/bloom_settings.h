// SPDX-License-Identifier: MIT
// The bloom's and the kernel's settings on the host, and the plugin's structs made of them: one spelling for the
// fftbloom CLI, the viewer, the runner and the benchmark.
#pragma once

#include "fftbloom/fftbloom_generator.h"
#include "image/image.h"
#include "psf/psf_generator.h"
#include "settings/kernel_span.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace fftb
{

/// The bloom's prefilter (FftbBloomInfo::prefilterThreshold, prefilterKnee, prefilterClamp), in the frame's linear
/// values; all 0: off.
struct PrefilterSettings
{
    float threshold = 0.0f; ///< T >= 0; 0: no threshold
    float knee = 0.0f;      ///< soft-knee width k in [0, T]
    float clamp = 0.0f;     ///< cap C on max(r, g, b), hue kept; 0: none
    bool active() const { return threshold > 0.0f || clamp > 0.0f; }
};

/// Per-frame, plan and kernel-lifetime settings of one bloom, with both tools' defaults: the fields of FftbBloomInfo
/// (bloomInfoOf), FftbBloomPlanCreateInfo (planInfoOf) and FftbKernelInfo (kernelInfoOf), which the plugin checks.
struct BloomSettings
{
    FftbPadding padding = FFTB_PADDING_ZERO_NORMALIZED;
    FftbAxisOrder axisOrder = FFTB_AXIS_ORDER_AUTO;
    FftbSpectrumMode spectrum = FFTB_SPECTRUM_MODE_EXACT;
    FftbSpectrumInterpolation interpolation = FFTB_SPECTRUM_INTERPOLATION_ES; ///< used in resampled mode only
    uint32_t interpolationWidth = 0;    ///< taps per axis, FftbKernelInfo::interpolationWidth; 0: the interpolation's
    uint32_t spectrumOversampling = 0;  ///< FftbKernelInfo::spectrumOversampling, 1 or 2; 0: 2
    float kernelRotationDegrees = 0.0f; ///< FftbKernelInfo::rotationDegrees
    /// FftbKernelInfo::centreOffsetU, V: the kernel's point on the light, from its centre, in its width and height
    std::array<float, 2> kernelCentreOffset{};
    float sharpen = 0.0f; ///< t in [0, 1]: kernel spectrum (1 - t) * K + t
    /// bloom(p), in + intensity (bloom(p) - p) or in + intensity bloom(p)
    FftbOutputMode output = FFTB_OUTPUT_MODE_COMPOSITE;
    float intensity = 0.25f;
    std::array<float, 3> tint{1.0f, 1.0f, 1.0f}; ///< R, G, B multipliers of the bloom (FftbBloomInfo::tint)
    PrefilterSettings prefilter;                 ///< p = prefilter(in); off by default
    KernelSpan kernelSpan;                       ///< how large the kernel appears on the frame; native by default
    /// how the passes store the frame's spectrum; fp16 is for frames without extreme highlights (FftbStoragePrecision)
    FftbStoragePrecision storage = FFTB_STORAGE_PRECISION_FLOAT32;
    /// the resolution the bloom is convolved at (FftbBloomResolution)
    FftbBloomResolution resolution = FFTB_BLOOM_RESOLUTION_FULL;
    /// When set, each frame's kernel is made on the GPU from this aperture first (fftbCmdGenerateKernel): the kernel
    /// texels given to the runner then fix its size only (K x K, K a power of two in 64..2048).
    std::optional<FftbApertureInfo> generatedKernel;
};

/// What a kernel's texels are made of: a PSF file or the generated PSF, and its resolution. What the plugin makes of
/// the texels (spectrum mode, interpolation, rotation, centre offset) is BloomSettings' (kernelInfoOf).
struct KernelSettings
{
    std::string file;                ///< a PSF image (EXR/HDR), centre texel (W/2, H/2); empty: the generated PSF
    int sizeTexels = 256;            ///< the kernel's resolution: the PSF resampled or generated at N x N texels
    ApertureParams aperture;         ///< the generated PSF's aperture (its corona and seed included)
    double airyRadiusTexels = 2.0;   ///< the generated PSF's scale: its first dark ring's radius, in texels
    double glare = kDefaultPsfGlare; ///< the generated PSF's share of light in the eye's scatter (PsfParams::glare)
    /// The radial fade over the outer part of the kernel's radius, 0..1 (psfFade); unset: the kernel's own,
    /// kDefaultPsfFade for the generated PSF and 0 (none) for a file
    std::optional<double> fade;
    /// The generated PSF made on the GPU for every frame (fftbCmdGenerateKernel), seeded by aperture.seed plus the
    /// frame number: the eye's particles and fibres flicker
    bool animate = false;

    /// Whether the kernel is generated on the GPU every frame: animated, generated, of a size the GPU generator takes
    /// (a power of two in 64..2048).
    bool madeOnGpu() const;
    /// fade's value for this kernel.
    double fadeOf() const;
    /// The generated PSF's parameters: the aperture, Airy radius, fade and glare, sizeTexels x sizeTexels.
    PsfParams psfDesign() const;
    /// Whether the two make the same texels.
    bool operator==(const KernelSettings& o) const;
};

/// The per-frame values of `settings` (FftbBloomInfo), without views.
FftbBloomInfo bloomInfoOf(const BloomSettings& settings);

/// The plan-lifetime values of `settings` for a `width` x `height` frame read in
/// VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL (FftbBloomPlanCreateInfo), without the kernel.
FftbBloomPlanCreateInfo planInfoOf(const BloomSettings& settings, uint32_t width, uint32_t height);

/// The kernel-lifetime values of `settings` (FftbKernelInfo) for `texels` (RGB), which must outlive the result;
/// without pNext (a kernel made on the GPU chains its FftbKernelGeneratorInfo).
FftbKernelInfo kernelInfoOf(const BloomSettings& settings, const Texels& texels);

/// Whether `a` and `b` give the same FftbBloomInfo: what a recorded bloom depends on besides its plan.
bool sameBloomInfo(const BloomSettings& a, const BloomSettings& b);
/// Whether `a` and `b` give the same FftbBloomPlanCreateInfo: what a plan is kept for besides its extent and kernel.
bool samePlanInfo(const BloomSettings& a, const BloomSettings& b);
/// Whether `a` and `b` give the same FftbKernelInfo: what a kernel is kept for besides its texels.
bool sameKernelInfo(const BloomSettings& a, const BloomSettings& b);
/// Sets the kernel-lifetime values of `to` (those of FftbKernelInfo) to those of `from`.
void assignKernelInfo(BloomSettings& to, const BloomSettings& from);

} // namespace fftb
