// Vulkan-free planning of one bloom: padded FFT lengths, mirror split points, axis order, spectrum extents.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fftb
{

/// Largest FFT length along one axis (one workgroup's shared memory holds one line of 4096 complex fp32).
constexpr uint32_t kMaxFftLength = 4096;

/// Whether the FFT supports `length`: 2 <= length <= kMaxFftLength and length = 2^a 3^b 5^c 7^d (radix 2, 4, 8, 3,
/// 5, 7 butterflies).
bool isFftLength(uint32_t length);

/// The radices of the Stockham stages for `length` (an FFT length), in the order the shader runs them: 8 while
/// the remaining factor is divisible by 8, then 4, 2, 3, 5, 7. The shader repeats this rule (fft.glsl).
std::vector<uint32_t> radicesOf(uint32_t length);

/// Relative cost of one FFT of `length`: length * the sum over its stages of (1 + radix / 10) — every stage is a
/// shared-memory round trip, and the butterflies' arithmetic per element grows with the radix.
double fftLengthCost(uint32_t length);

/// Every FFT length in ascending order, and where its twiddle table, exp(-2 pi i m / length) for m < length, starts
/// in the concatenation of all of them (the plugin's twiddle buffer).
struct TwiddleTables
{
    std::vector<uint32_t> lengths;
    std::vector<uint32_t> offsets;
    uint32_t totalElements = 0;
    uint32_t offsetOf(uint32_t length) const; ///< length must be an FFT length
};
const TwiddleTables& twiddleTables();

enum class Padding
{
    Zero,   ///< pixels outside the image are black
    Mirror, ///< pixels outside the image reflect it, the edge pixel repeated (GL_MIRRORED_REPEAT)
};

enum class AxisOrder
{
    Auto, ///< the cheaper order by costOf()
    XFirst,
    YFirst,
};

enum class SpectrumMode
{
    Resampled, ///< one spectrum of the kernel's own extent, sampled bilinearly at frequency * S / N (seeds/000)
    Exact,     ///< the kernel padded to the frame's padded extent and transformed at that extent
};

/// What one bloom needs to be planned. Extents in texels.
struct PlanRequest
{
    uint32_t imageWidth = 0;
    uint32_t imageHeight = 0;
    uint32_t kernelWidth = 0;
    uint32_t kernelHeight = 0;
    Padding padding = Padding::Zero;
    AxisOrder axisOrder = AxisOrder::Auto;
    SpectrumMode spectrum = SpectrumMode::Resampled;
};

/// The plan along one axis.
struct AxisPlan
{
    uint32_t imageLength = 0;    ///< L: image texels along the axis
    uint32_t paddedLength = 0;   ///< N: FFT length (isFftLength), >= L + K/2 (zero) or >= L + K - 1 (mirror)
    uint32_t mirrorSplit = 0;    ///< mirror padding: padded positions [L, split) reflect past the far edge,
                                 ///< [split, N) before the near edge; equals N for zero padding
    uint32_t kernelLength = 0;   ///< K: kernel texels along the axis
    uint32_t kernelCentre = 0;   ///< c = K / 2 (integer division): the kernel texel at the origin
    uint32_t spectrumLength = 0; ///< S: length of the stored kernel spectrum (N in exact mode, pow2ceil(K) resampled)
};

/// A complete plan. "First" is the axis the real-packed forward FFT (pass 1) and the last inverse (pass 3)
/// run along; "second" is the axis of the fused pass 2.
struct Plan
{
    bool firstAxisIsX = true;
    AxisPlan first;
    AxisPlan second;
    Padding padding = Padding::Zero;
    SpectrumMode spectrum = SpectrumMode::Resampled;

    /// Lines of the half spectrum along the first axis: N1 / 2 + 1 (DC to Nyquist).
    uint32_t halfSpectrumLines() const { return first.paddedLength / 2 + 1; }
};

/// The cheapest padded length N (by fftLengthCost) that keeps circular wrap-around out of the image:
/// zero padding needs N >= L + max(c, K - 1 - c) = L + floor(K / 2), the padding serving as both margins;
/// mirror padding needs N >= L + K - 1 (c reflected texels after the image, K - 1 - c before it).
/// Candidates are the FFT lengths from that minimum up to the next power of two; `even` keeps only even ones (the
/// real-packed first axis needs an even length: DC and Nyquist bins). Returns 0 when none is <= kMaxFftLength.
uint32_t paddedLength(uint32_t imageLength, uint32_t kernelLength, Padding padding, bool even);

/// Smallest power of two >= n (n >= 1), at least 2.
uint32_t pow2Ceil(uint32_t n);

/// Relative cost of the passes for a first axis of (L1, N1) and second axis of (L2, N2): FFTs (lines *
/// fftLengthCost) of passes 1-3, plus texels moved through the intermediate buffer.
double costOf(const AxisPlan& first, const AxisPlan& second);

/// Plans one bloom. Returns false and a one-line reason naming the field at fault when the request is
/// invalid (zero extents) or needs an FFT longer than kMaxFftLength.
bool makePlan(const PlanRequest& request, Plan* plan, std::string* error);

/// GL_MIRRORED_REPEAT: reflects any integer position into [0, length), the edge texel repeated.
uint32_t mirroredRepeat(int64_t position, uint32_t length);

/// The image position a padded position p in [0, N) reads along an axis, or -1 for a zero texel.
int64_t paddedSource(uint32_t p, const AxisPlan& axis, Padding padding);

} // namespace fftb
