// SPDX-License-Identifier: MIT
// The bloom's settings on the host by lifetime (kernel, plan, frame), and the plugin's structs made of them: one
// spelling for the fftbloom CLI, the viewer, the Python module, the runner and the benchmark.
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
    bool operator==(const PrefilterSettings&) const = default;
};

/// The matte that weights what blooms, p = m prefilter(in) (FftbBloomInfo::sourceMask): each front-end loads it into
/// the frame's alpha (maskChannel) and the plugin reads it there, clamped to [0, 1].
struct MaskSettings
{
    /// Empty: none, everything blooms. Else a channel or layer of the input ("A", "matte.A", "matte"; maskChannel), or
    /// an image file (isFile()), one per frame with a frame placeholder (masks/shot.####.exr)
    std::string source;
    bool invert = false; ///< m is 1 minus the matte: its 0 blooms, its 1 does not
    bool active() const { return !source.empty(); }
    /// Whether `source` names a file rather than a channel: it ends in .exr or .hdr, in any case.
    bool isFile() const;
    bool operator==(const MaskSettings&) const = default;
};

/// KernelSettings::glareReach's default: a light's glare reaches every corner of the frame from anywhere in it.
inline constexpr double kDefaultGlareReach = 1.0;

/// The kernel width KernelSettings::airyRadius is given in texels of: 256, the default kernel size.
inline constexpr double kAiryReferenceSize = 256.0;

/// The kernel's lifetime: what its texels are made of (a PSF file or the generated PSF, and its resolution) and what
/// the plugin makes of them (FftbKernelInfo, kernelInfoOf): a change is a new kernel.
struct KernelSettings
{
    std::string file;        ///< a PSF image (EXR/HDR), centre texel (W/2, H/2); empty: the generated PSF
    int sizeTexels = 256;    ///< the kernel's resolution: the PSF resampled or generated at N x N texels
    ApertureParams aperture; ///< the generated PSF's aperture (its corona and seed included)
    /// The generated PSF's scale: its first dark ring's radius in 256ths of the kernel's width (texels of a kernel of
    /// kAiryReferenceSize), so that sizeTexels changes the PSF's sampling only, not its look on the frame
    double airyRadius = 2.0;
    double glare = kDefaultPsfGlare; ///< the generated PSF's share of light in the eye's scatter (PsfParams::glare)
    /// The radial fade over the outer part of the kernel's radius, 0..1 (psfFade); unset: the kernel's own,
    /// kDefaultPsfFade for the generated PSF and 0 (none) for a file
    std::optional<double> fade;
    /// The generated PSF made on the GPU for every frame (fftbCmdGenerateKernel), seeded by aperture.seed plus the
    /// frame number: the eye's particles and fibres flicker
    bool animate = false;
    /// The generated PSF's glare continued past its kernel by a far field (farFieldOn, docs/kernels.md "Glare") out to
    /// this fraction of the frame's diagonal from a light, 0..4; 0: the glare stops at the kernel's border
    double glareReach = kDefaultGlareReach;

    FftbSpectrumMode spectrum = FFTB_SPECTRUM_MODE_EXACT;                     ///< FftbKernelInfo::spectrumMode
    FftbSpectrumInterpolation interpolation = FFTB_SPECTRUM_INTERPOLATION_ES; ///< used in resampled mode only
    uint32_t interpolationWidth = 0;   ///< taps per axis, FftbKernelInfo::interpolationWidth; 0: the interpolation's
    uint32_t spectrumOversampling = 0; ///< FftbKernelInfo::spectrumOversampling, 1 or 2; 0: 2
    float rotationDegrees = 0.0f;      ///< FftbKernelInfo::rotationDegrees
    /// FftbKernelInfo::centreOffsetU, V: the kernel's point on the light, from its centre, in its width and height
    std::array<float, 2> centreOffset{};

    /// Whether the kernel is generated on the GPU every frame: animated, generated, of a size the GPU generator takes
    /// (a power of two in 64..2048).
    bool madeOnGpu() const;
    /// fade's value for this kernel.
    double fadeOf() const;
    /// The generated PSF's parameters at sizeTexels x sizeTexels: the aperture, fade, glare and the Airy radius in its
    /// texels, airyRadius sizeTexels / kAiryReferenceSize (below 1 texel, defaultPsf generates it finer).
    PsfParams psfDesign() const;
    /// Whether the two make the same texels (the fields before `spectrum`).
    bool sameTexels(const KernelSettings& o) const;
    bool operator==(const KernelSettings&) const = default;
};

/// The plan's lifetime (FftbBloomPlanCreateInfo, planInfoOf): a change is a new plan.
struct PlanSettings
{
    FftbPadding padding = FFTB_PADDING_ZERO_NORMALIZED;
    FftbAxisOrder axisOrder = FFTB_AXIS_ORDER_AUTO;
    /// how the passes store the frame's spectrum; fp16 is for frames without extreme highlights (FftbStoragePrecision)
    FftbStoragePrecision storage = FFTB_STORAGE_PRECISION_FLOAT32;
    /// the resolution the bloom is convolved at (FftbBloomResolution)
    FftbBloomResolution resolution = FFTB_BLOOM_RESOLUTION_FULL;
    /// how large the kernel appears on the frame; auto by default: the generated PSF the same fraction of every
    /// frame's diagonal, a file its own extent (KernelTexels::spanOn)
    KernelSpan kernelSpan = autoKernelSpan();
    bool operator==(const PlanSettings&) const = default;
};

/// One frame's values (FftbBloomInfo, bloomInfoOf): push constants, free to change every frame.
struct FrameSettings
{
    /// bloom(p), in + intensity (bloom(p) - p) or in + intensity bloom(p)
    FftbOutputMode output = FFTB_OUTPUT_MODE_COMPOSITE;
    float intensity = 0.25f;
    std::array<float, 3> tint{1.0f, 1.0f, 1.0f}; ///< R, G, B multipliers of the bloom (FftbBloomInfo::tint)
    float sharpen = 0.0f;                        ///< t in [0, 1]: kernel spectrum (1 - t) * K + t
    PrefilterSettings prefilter;                 ///< p = m prefilter(in); off by default
    MaskSettings mask;                           ///< m; none by default
    bool operator==(const FrameSettings&) const = default;
};

/// Every setting of one bloom, with both tools' defaults, by the lifetime of the plugin's object it goes to; the
/// plugin checks each struct made of them.
struct BloomSettings
{
    KernelSettings kernel;
    PlanSettings plan;
    FrameSettings frame;
    bool operator==(const BloomSettings&) const = default;
};

/// The per-frame values of `frame` (FftbBloomInfo), without views.
FftbBloomInfo bloomInfoOf(const FrameSettings& frame);

/// The plan-lifetime values of `plan` for a `width` x `height` frame read in VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL
/// (FftbBloomPlanCreateInfo), without the kernel.
FftbBloomPlanCreateInfo planInfoOf(const PlanSettings& plan, uint32_t width, uint32_t height);

/// The kernel-lifetime values of `kernel` (FftbKernelInfo) for `texels` (RGB), which must outlive the result;
/// without pNext (a kernel made on the GPU chains its FftbKernelGeneratorInfo).
FftbKernelInfo kernelInfoOf(const KernelSettings& kernel, const Texels& texels);

} // namespace fftb
