// Vulkan-free planning of one bloom: padded FFT lengths, mirror split points, axis order, spectrum extents.
#pragma once

#include <cstdint>
#include <string>

namespace fftb
{

/// Largest FFT length along one axis (one workgroup's shared memory holds one line of 4096 complex fp32).
constexpr uint32_t kMaxFftLength = 4096;

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
    uint32_t paddedLength = 0;   ///< N: FFT length, a power of two, >= L + K/2 (zero) or >= L + K - 1 (mirror)
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

/// Smallest padded length N (a power of two, at least 2) that keeps circular wrap-around out of the image:
/// zero padding needs N >= L + max(c, K - 1 - c) = L + floor(K / 2), the padding serving as both margins;
/// mirror padding needs N >= L + K - 1 (c reflected texels after the image, K - 1 - c before it).
/// Returns 0 when that length exceeds kMaxFftLength.
uint32_t paddedLength(uint32_t imageLength, uint32_t kernelLength, Padding padding);

/// Smallest power of two >= n (n >= 1), at least 2.
uint32_t pow2Ceil(uint32_t n);

/// Relative cost of the passes for a first axis of (L1, N1) and second axis of (L2, N2): FFT butterflies
/// (lines * N log2 N) of passes 1-3, plus texels moved through the intermediate buffer.
double costOf(const AxisPlan& first, const AxisPlan& second);

/// Plans one bloom. Returns false and a one-line reason naming the field at fault when the request is
/// invalid (zero extents) or needs an FFT longer than kMaxFftLength.
bool makePlan(const PlanRequest& request, Plan* plan, std::string* error);

/// GL_MIRRORED_REPEAT: reflects any integer position into [0, length), the edge texel repeated.
uint32_t mirroredRepeat(int64_t position, uint32_t length);

/// The image position a padded position p in [0, N) reads along an axis, or -1 for a zero texel.
int64_t paddedSource(uint32_t p, const AxisPlan& axis, Padding padding);

} // namespace fftb
