// SPDX-License-Identifier: MIT
// Double-precision CPU reference of the bloom convolution (FFTW), independent of the GPU code path.
#pragma once

#include "image/image.h"
#include "plan.h"

#include <array>
#include <cstdint>

namespace fftb
{

/// The bloom's prefilter (FftbBloomInfo::prefilterThreshold, prefilterKnee, prefilterClamp), in the frame's linear
/// values; all 0: off.
struct Prefilter
{
    float threshold = 0.0f; ///< T >= 0; 0: no threshold
    float knee = 0.0f;      ///< soft-knee width k in [0, T]
    float clamp = 0.0f;     ///< cap C on max(r, g, b), hue kept; 0: none
    /// The source mask (FftbBloomInfo::sourceMask): the prefiltered colour times m, m the frame's alpha clamped to
    /// [0, 1] (or 1 minus that); a frame without alpha has m = 1
    FftbSourceMask mask = FFTB_SOURCE_MASK_NONE;
};

/// m of a texel whose alpha is `alpha` (Prefilter::mask): 1, clamp(alpha, 0, 1) or 1 - clamp(alpha, 0, 1).
double referenceMaskWeight(double alpha, FftbSourceMask mask);

/// Linear convolution of an RGB(A) frame with a kernel, computed in double precision with FFTW:
///   out(p) = sum_j kernel(j) * in(p - (j - c)),  c = (K / 2) per axis (0-based, x right, y down),
/// in(q) outside the image being 0 (FFTB_PADDING_ZERO) or GL_MIRRORED_REPEAT of the image (FFTB_PADDING_MIRROR).
/// The kernel is used as given (normalize it first). The transform size is the smallest one with no
/// wrap-around, L + K - 1 per axis (any length FFTW accepts), chosen independently of the GPU's plan.
/// `frame` has 3 or 4 components; the result has the frame's extent and 3 components (R, G, B).
Texels referenceConvolution(const Texels& frame, const Texels& kernel, FftbPadding padding);

/// One channel of width x height values of double, row-major.
struct PlaneView
{
    const double* values = nullptr;
    uint32_t width = 0;
    uint32_t height = 0;
};

/// One texel (x, y) of the convolution that an FFT of paddedWidth x paddedHeight computes, summed directly in double
/// precision (no FFT):
///   out(p) = sum_j kernel(j) * in((p - j + c) mod padded),  c = (K / 2) per axis,
/// in(q) being 0 outside the frame (zero padding). With padded >= L + K - 1 per axis this is the linear convolution;
/// with less it wraps around as the FFT does, which tells layout errors apart from the plan's own choice.
double referenceWrappedConvolutionAt(PlaneView frame, PlaneView kernel, uint32_t paddedWidth, uint32_t paddedHeight,
                                     uint32_t x, uint32_t y);

/// The GPU's resampled-spectrum convolution, recomputed in double precision: the frame padded to the plan's
/// N1 x N2 (the plan's mirror split points), its DFT multiplied by the kernel's centred spectrum of extent
/// S1 x S2 interpolated (bilinear or Keys cubic) at k * S / N (k signed, periodic in S) and blended to the Dirac
/// delta, (1 - sharpen) * K + sharpen, then inverse DFT and crop. With plan.spectrum == Exact, S = N and this is a
/// circular convolution that equals referenceConvolution when the plan's padding is sufficient. S may be any
/// length >= 1, e.g. twice the plan's to measure an oversampled spectrum. A kernel scale sigma = plan.kernelScale
/// (resampled mode only) reads the interpolated spectrum at sigma * k * S / N instead, and 0 where
/// |sigma * k * S / N| > S / 2 along either axis: the spectrum K(sigma f) of the kernel k(x / sigma) / sigma^2,
/// band-limited to one period of the stored spectrum. At the Nyquist bin of an even N, which is both +N/2 and -N/2, the
/// response is the mean of the readings at the two (they differ once sigma != 1), which keeps it Hermitian.
/// FFTB_SPECTRUM_INTERPOLATION_ES is not simulated: the kernel's own spectrum (its DTFT) is read at sigma * k / N
/// cycles per texel instead, the limit that the ES window with deapodization approaches, so comparing against it
/// measures that interpolation's whole error (S only sets the band limit, |sigma * k / N| <= 1 / 2).
Texels referenceSpectralConvolution(const Texels& frame, const Texels& kernel, const Plan& plan, double sharpen,
                                    FftbSpectrumInterpolation interpolation);

/// Normalized convolution (Knutsson & Westin 1993, "Normalized and Differential Convolution"), the bloom that
/// FFTB_PADDING_ZERO_NORMALIZED writes: each channel of `bloom`, a zero-padded convolution, divided by
/// max(w, FFTB_MIN_BORDER_WEIGHT), w = `weights`, the same convolution (kernel, plan and sharpening) of the frame's
/// indicator, a frame of ones. Both have the same extent and 3 or more components; the result has 3.
Texels referenceNormalized(const Texels& bloom, const Texels& weights);

/// The kernel scaled in space by sigma to `width` x `height` texels (exact mode's kernel scale, plugin/plan/plan.h,
/// "Kernel scale in space"), in double precision: per axis, source texel x (K texels, centre c = K / 2) at offset
/// q = sigma (x - c) weights offset d, -c' <= d < P - c' (c' = P / 2), by max(0, 1 - |d - q| / s), s = max(sigma, 1),
/// divided by the sum of those weights over every such d; the axes apply one after the other. `kernel` has 3 or more
/// components; the result has 3, centre texel (width / 2, height / 2).
Texels referenceScaledKernel(const Texels& kernel, double sigma, int width, int height);

/// Reduced resolution's downsampling by f = `reduction` (FFTB_BLOOM_RESOLUTION_HALF 2, QUARTER 4, EIGHTH 8):
/// ceil(W / f) x ceil(H / f) texels, texel (x, y) the mean of R, G, B over frame texels (f x + i, f y + j), 0 <= i, j <
/// f, a position past the frame's last column or row replaced by the last. `frame` has 3 or more components; the result
/// has 3.
Texels referenceDownsample(const Texels& frame, int reduction);

/// Reduced resolution's upsampling by f = `reduction` to `width` x `height`: frame texel x reads the downsampled
/// `bloom` at p = max((x + 1/2) / f - 1/2, 0) (texel centres aligned) by linear interpolation between texels floor(p)
/// and floor(p) + 1, both clamped to the last; the same along y. 3 components.
Texels referenceUpsample(const Texels& bloom, int width, int height, int reduction);

/// The bloom's prefilter of one texel's R, G, B in double precision, written from its documented formula
/// (FftbBloomInfo::prefilterThreshold): with b = max(r, g, b), T > 0 and knee k,
///   q = clamp(b - T + k, 0, 2k)^2 / (4k + 1e-5),  p = rgb * max(q, b - T) / max(b, 1e-5)
/// (Unity PostProcessing v2 QuadraticThreshold; Jimenez 2014); T = 0 leaves rgb as it is. Then, if C > 0 and
/// max(p) > C, p *= C / max(p).
void referencePrefilter(const double rgb[3], const Prefilter& prefilter, double out[3]);

/// referencePrefilter applied to every texel of `frame` (3 or 4 components; alpha, if any, is copied), times the
/// texel's mask weight (referenceMaskWeight).
Texels referencePrefilter(const Texels& frame, const Prefilter& prefilter);

/// What the plugin writes from the input `frame` and `bloom` = the convolution of referencePrefilter(frame), in double
/// precision, with b = tint * bloom per channel: b (Bloom), frame + intensity * (b - p) (Composite),
/// frame + intensity * b (Additive). The result has the frame's extent and 3 components.
Texels referenceOutput(const Texels& frame, const Texels& bloom, const Prefilter& prefilter, FftbOutputMode mode,
                       double intensity, const std::array<double, 3>& tint = {1.0, 1.0, 1.0});

} // namespace fftb
