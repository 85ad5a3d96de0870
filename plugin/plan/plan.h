// SPDX-License-Identifier: MIT
// Vulkan-free planning of one bloom: padded FFT lengths, mirror split points, axis order, spectrum extents.
#pragma once

#include "fft_lengths.h"
#include "resampling.h"
#include "scratch_layout.h"

#include <fftbloom/fftbloom.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace fftb
{

/// Whether `value` is one of an enum's values 0 .. `last`: a C enum holds any int, so negative values are outside too.
/// Its bits are read as an int32_t: loading an enum holding a value outside its range is undefined in C++.
template <typename Enum> bool knownEnum(const Enum& value, Enum last)
{
    static_assert(sizeof(Enum) == sizeof(int32_t));
    int32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    return bits >= 0 && bits <= int32_t(last);
}

/// The kernel's scale on the frame (FftbKernelSpanUnit), the one derivation of FftbBloomPlanCreateInfo's
/// kernelSpanUnit and kernelSpan that fftbGetKernelExtent, the recipe and the planner read.
struct KernelScale
{
    /// Frame pixels the kernel's larger extent max(Kw, Kh) spans: kernelSpan (FFTB_KERNEL_SPAN_PIXELS),
    /// kernelSpan * sqrt(W^2 + H^2) (FFTB_KERNEL_SPAN_FRAME_DIAGONAL), max(Kw, Kh) (native), in double precision.
    double spanPixels = 0.0;
    /// sigma = spanPixels / max(Kw, Kh), frame pixels per kernel texel: exactly 1 at native scale. The kernel becomes
    /// k_sigma(x) = k(x / sigma) / sigma^2, whose spectrum is K(sigma f).
    double sigma = 1.0;
    /// The kernel's extent on the frame in pixels, scaledKernelLength of Kw and Kh: Kw x Kh at native scale.
    uint32_t extentWidth = 0;
    uint32_t extentHeight = 0;
};

/// The scale of a kernel of `kernelWidth` x `kernelHeight` texels (>= 1) on a `frameWidth` x `frameHeight` frame.
/// Returns "" and sets `scale`, or the reason naming the field at fault: "kernelSpanUnit: unknown value", or, with a
/// unit other than native, "kernelSpan: must be finite and > 0". The extents are not bounded here (they saturate at
/// UINT32_MAX): FFTB_MAX_KERNEL_LENGTH is makePlan's limit, the context's maximum kernel extent the recipe's. `unit`
/// is taken by reference and checked before it is read (knownEnum): it may hold any bits.
std::string kernelScaleOf(const FftbKernelSpanUnit& unit, float span, uint32_t frameWidth, uint32_t frameHeight,
                          uint32_t kernelWidth, uint32_t kernelHeight, KernelScale* scale);

/// The kernel's extent on the frame in pixels along an axis of `kernelLength` texels when its larger side
/// `largerKernelLength` = max(Kw, Kh) spans `span` pixels: ceil(span * K / max(Kw, Kh)), at least 1, and exactly
/// ceil(span) along the larger axis; K itself for any span not > 0. Saturates at UINT32_MAX.
uint32_t scaledKernelLength(uint32_t kernelLength, uint32_t largerKernelLength, double span);

/// The kernel's extent in pixels along an axis of `kernelLength` texels on the frame downsampled by `reduction` (1, 2,
/// 4 or 8), at `scale` (kernelScaleOf; `largerKernelLength` = max(Kw, Kh)): scaledKernelLength of the span / reduction,
/// scale.extentWidth or Height at 1. The padding is planned for it.
uint32_t reducedKernelLength(const KernelScale& scale, uint32_t kernelLength, uint32_t largerKernelLength,
                             uint32_t reduction);

/// Kernel scale in space (exact mode): the kernel of K texels per axis, centre c = K / 2, scaled by sigma to P = K'
/// texels, centre c' = P / 2. Source texel x sits at frame offset q = sigma (x - c) and spreads over the offsets
/// -c' <= d < P - c' by the tent max(0, 1 - |d - q| / s), s = max(sigma, 1), normalized to unit sum over those d:
/// linear interpolation when magnified, linear splatting when minified, the identity at sigma = 1; non-negative, so
/// a scaled kernel has no ringing, and mass-preserving (shaders/kernel_fft_first.comp, tentWeight;
/// reference/reference.h, referenceScaledKernel).

/// What one bloom needs to be planned. Extents in texels.
struct PlanRequest
{
    uint32_t imageWidth = 0;
    uint32_t imageHeight = 0;
    uint32_t kernelWidth = 0;
    uint32_t kernelHeight = 0;
    FftbPadding padding = FFTB_PADDING_ZERO;
    FftbAxisOrder axisOrder = FFTB_AXIS_ORDER_AUTO;
    FftbSpectrumMode spectrum = FFTB_SPECTRUM_MODE_RESAMPLED;
    FftbLengthPolicy lengths = FFTB_LENGTH_POLICY_MIXED_RADIX;
    /// How large the kernel appears (FftbBloomPlanCreateInfo's fields): native by default. Resampled mode scales
    /// the kernel's spectrum, exact mode the kernel itself, in space (see "Kernel scale in space" above)
    FftbKernelSpanUnit kernelSpanUnit = FFTB_KERNEL_SPAN_NATIVE;
    float kernelSpan = 0.0f;
    /// Resampled mode: the stored spectrum is oversampling * pow2Ceil(K) long per axis, 1 .. kMaxSpectrumOversampling.
    uint32_t spectrumOversampling = kDefaultSpectrumOversampling;
    /// Reduced-resolution bloom (FFTB_BLOOM_RESOLUTION_HALF, QUARTER, EIGHTH): the passes convolve the frame
    /// downsampled by this factor f per axis, 1 (full resolution), 2, 4 or 8: ceil(W / f) x ceil(H / f) texels, with
    /// the kernel at 1 / f of its extent (span / f).
    uint32_t reduction = 1;
    bool operator==(const PlanRequest&) const = default;
};

/// The plan along one axis.
struct AxisPlan
{
    /// The frame's texels along the axis: L, or at reduction f (PlanRequest::reduction) f L - r, 0 <= r < f.
    uint32_t frameLength = 0;
    uint32_t imageLength = 0;  ///< L: texels along the axis of the image the passes transform
    uint32_t paddedLength = 0; ///< N: FFT length (isFftLength), >= L + K'/2 (zero) or >= L + K' - 1 (mirror)
    uint32_t mirrorSplit = 0;  ///< mirror padding: padded positions [L, split) reflect past the far edge,
                               ///< [split, N) before the near edge; equals N for zero padding
    uint32_t kernelLength = 0; ///< K: the kernel's resolution in texels along the axis
    uint32_t kernelCentre = 0; ///< c = K / 2 (integer division): the kernel texel at the origin
    /// S: length of the stored kernel spectrum: N in exact mode, oversampling * pow2Ceil(K) resampled.
    uint32_t spectrumLength = 0;
    /// K': the kernel's extent on the frame in pixels, scaledKernelLength(K, max(Kw, Kh), span); K at native scale.
    /// The padding is planned for it (FftbBloomPlanDescription::kernelExtentWidth, Height).
    uint32_t scaledKernelLength = 0;
    bool operator==(const AxisPlan&) const = default;
};

/// A complete plan. "First" is the axis the real-packed forward FFT (pass 1) and the last inverse (pass 3)
/// run along; "second" is the axis of the fused pass 2.
struct Plan
{
    bool firstAxisIsX = true;
    AxisPlan first;
    AxisPlan second;
    FftbPadding padding = FFTB_PADDING_ZERO;
    FftbSpectrumMode spectrum = FFTB_SPECTRUM_MODE_RESAMPLED;
    /// sigma = span / max(Kw, Kh), 1 at native scale: the stored spectrum is read at sigma * k * S / N.
    double kernelScale = 1.0;
    /// The passes transform the frame downsampled by f = reduction per axis (PlanRequest::reduction): the image lengths
    /// are ceil(frameLength / f), the kernel scale is divided by f, pass 3 writes the bloom into the scratch
    /// (reducedBloomStart) and a fourth pass upsamples it and composites. 1: full resolution.
    uint32_t reduction = 1;

    /// Lines of the half spectrum along the first axis: N1 / 2 + 1 (DC to Nyquist).
    uint32_t halfSpectrumLines() const { return first.paddedLength / 2 + 1; }
    /// The frame's width and height in texels (at reduced resolution the full frame's, not the downsampled one's).
    uint32_t frameWidth() const { return firstAxisIsX ? first.frameLength : second.frameLength; }
    uint32_t frameHeight() const { return firstAxisIsX ? second.frameLength : first.frameLength; }
    bool operator==(const Plan&) const = default;
};

/// The kernel texels along `axis` of `plan` that the spectrum passes place in the spectrum extent: the kernel's
/// extent on the frame K' in exact mode (the kernel scaled in space), its resolution K in resampled mode (its
/// spectrum is scaled instead).
uint32_t placedKernelLength(const Plan& plan, const AxisPlan& axis);

/// The cheapest padded length N (by fftLengthCost) that keeps circular wrap-around out of the image:
/// zero padding needs N >= L + max(c, K - 1 - c) = L + floor(K / 2), the padding serving as both margins;
/// mirror padding needs N >= L + K - 1 (c reflected texels after the image, K - 1 - c before it).
/// Candidates are the FFT lengths from that minimum up to the next power of two; `even` keeps only even ones (the
/// real-packed first axis needs an even length: DC and Nyquist bins); FFTB_LENGTH_POLICY_POWER_OF_TWO keeps only the
/// power of two. Returns 0 when none is <= FFTB_MAX_FFT_LENGTH.
uint32_t paddedLength(uint32_t imageLength, uint32_t kernelLength, FftbPadding padding, bool even,
                      FftbLengthPolicy lengths = FFTB_LENGTH_POLICY_MIXED_RADIX);

/// Relative cost of the passes for a first axis of (L1, N1) and second axis of (L2, N2): FFTs (lines *
/// fftLengthCost) of passes 1-3, plus texels moved through the intermediate buffer.
double costOf(const AxisPlan& first, const AxisPlan& second);

/// Plans one bloom. Returns false and a one-line reason naming the field at fault when the request is
/// invalid (zero extents, a reduction other than 1, 2, 4 or 8, a kernel resolution past FFTB_MAX_KERNEL_LENGTH, a
/// kernel span kernelScaleOf refuses or whose kernel extent on the frame is past FFTB_MAX_KERNEL_LENGTH, a spectrum
/// oversampling outside 1 .. kMaxSpectrumOversampling) or needs an FFT longer than FFTB_MAX_FFT_LENGTH.
bool makePlan(const PlanRequest& request, Plan* plan, std::string* error);

/// GL_MIRRORED_REPEAT: reflects any integer position into [0, length), the edge texel repeated.
uint32_t mirroredRepeat(int64_t position, uint32_t length);

/// The image position a padded position p in [0, N) reads along an axis, or -1 for a zero texel.
int64_t paddedSource(uint32_t p, const AxisPlan& axis, FftbPadding padding);

} // namespace fftb
