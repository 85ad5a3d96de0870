// SPDX-License-Identifier: MIT
// Vulkan-free planning of one bloom: padded FFT lengths, mirror split points, axis order, spectrum extents.
#pragma once

#include "resampling.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fftb
{

/// Longest FFT held whole in one workgroup's shared memory: 4096 complex fp32, 32 KiB (FFTB_MAX_SHARED_FFT_LENGTH).
constexpr uint32_t kMaxSharedFftLength = 4096;
/// Longest FFT along one axis (FFTB_MAX_FFT_LENGTH). Lines past kMaxSharedFftLength run one radix-R stage in registers,
/// then R FFTs of length N / R in shared memory (fft.glsl).
constexpr uint32_t kMaxFftLength = 16384;
/// Longest kernel along one axis: its resolution in texels, and its extent on the frame in pixels when scaled (the
/// resampled spectrum's extent, at most kMaxSpectrumOversampling * 4096 = 8192, is an FFT length).
/// FFTB_MAX_KERNEL_LENGTH (static_assert in plugin/src/context.cpp).
constexpr uint32_t kMaxKernelLength = 4096;
/// Most invocations per workgroup any FFT length asks for (the Vulkan limits of NVIDIA and lavapipe).
constexpr uint32_t kMaxWorkgroupSize = 1024;
/// Most complex elements of a line one invocation holds (FFTB_MAX_ELEMENTS_PER_INVOCATION).
constexpr uint32_t kMaxElementsPerInvocation = 16;

/// Whether the FFT supports `length`: length = 2^a 3^b 5^c 7^d (radix 2, 4, 8, 3, 5, 7 butterflies) and either
/// 2 <= length <= kMaxSharedFftLength, or length <= kMaxFftLength and length = R M for a register radix R in
/// {2, 3, 4, 5, 7, 8}, an FFT length M <= kMaxSharedFftLength and a workgroup size T <= kMaxWorkgroupSize that
/// divides M with length / T <= kMaxElementsPerInvocation (see sharedLengthOf).
bool isFftLength(uint32_t length);

/// Length M of the FFTs that run in shared memory for an FFT of `length`: the length itself up to
/// kMaxSharedFftLength; past it length / R for the first R of 2, 3, 4, 5, 7, 8 that gives a supported split.
/// 0 when `length` is no FFT length.
uint32_t sharedLengthOf(uint32_t length);

/// Fewest elements of a line one invocation holds (lines in shared memory): fewer elements mean more invocations to
/// hide shared-memory latency. 4 measured fastest of 4, 8 and 16 on the H200 (bench/results).
constexpr uint32_t kPreferredElementsPerInvocation = 4;

/// Most elements per invocation the occupancy model of workgroupSizeOf weighs (pass 2 holds up to this many slots in
/// registers while it interpolates the resampled spectrum's row).
constexpr uint32_t kMaxHeldElementsPerInvocation = 8;
/// The occupancy model of workgroupSizeOf: a multiprocessor of an NVIDIA GPU since Volta (65536 32-bit registers,
/// 2048 resident invocations, 32 resident workgroups) and the registers the passes take per invocation on the H200
/// (48 to 64: VK_KHR_pipeline_executable_properties, bench/results).
constexpr uint32_t kModelRegistersPerSm = 65536;
constexpr uint32_t kModelInvocationsPerSm = 2048;
constexpr uint32_t kModelWorkgroupsPerSm = 32;
constexpr uint32_t kModelRegistersPerInvocation = 64;

/// Warps (32 invocations) of workgroups of `workgroupSize` invocations resident on one multiprocessor of the model
/// above: whole workgroups only, limited by registers, invocations and workgroups.
uint32_t residentWarpsOf(uint32_t workgroupSize);

/// Elements of a line longer than kMaxSharedFftLength one invocation holds when the device allows the invocations:
/// 16 took a 4480-point line to 168 registers in pass 3 (one 280-invocation workgroup per SM on the H200).
constexpr uint32_t kPreferredLongElementsPerInvocation = 8;

/// Invocations per workgroup T for an FFT of `length` on a device allowing `maxInvocations` per workgroup
/// (maxComputeWorkGroupInvocations and maxComputeWorkGroupSize[0], whichever is smaller). Up to
/// kMaxSharedFftLength each holds E elements, E from kPreferredElementsPerInvocation up to the smallest of the
/// line's radices (so every stage's butterflies take one round) and kMaxHeldElementsPerInvocation: the E whose
/// workgroups keep the most warps resident (residentWarpsOf), the smallest such E on a tie; when none fits the device,
/// the next E that does, up to kMaxElementsPerInvocation. Past one subgroup's worth T is a multiple of 32 so no
/// subgroup runs part-empty. 2240 (radices 8 8 5 7) gets 448 invocations instead of 560 (bench/results).
/// Longer lines: the smallest divisor T of sharedLengthOf(length) with length / T <=
/// kPreferredLongElementsPerInvocation, or failing that <= kMaxElementsPerInvocation, so each invocation holds the
/// same positions of every sub-line. 0 for no FFT length, or when the device allows too few.
uint32_t workgroupSizeOf(uint32_t length, uint32_t maxInvocations = kMaxWorkgroupSize);

/// The radices of the FFT stages for `length` (an FFT length), in the order the shader runs them: for lines past
/// kMaxSharedFftLength first the register radix length / sharedLengthOf(length); then the Stockham stages in
/// shared memory, 8 while the remaining factor is divisible by 8, then 4, 2, 3, 5, 7. The shader repeats this rule
/// (fft.glsl).
std::vector<uint32_t> radicesOf(uint32_t length);

/// Relative cost of one FFT of `length`: length * the sum over its stages of (1 + radix / 10) — every stage is a
/// shared-memory round trip, and the butterflies' arithmetic per element grows with the radix.
double fftLengthCost(uint32_t length);

/// Most Stockham stages of a line in shared memory (FFTB_MAX_SHARED_STAGES): 3^7 = 2187 takes 7.
constexpr uint32_t kMaxSharedStages = 8;
/// Specialization constants of every pass (FFTB_SPEC_FFT_LENGTH .. FFTB_SPEC_MULTI_VIEW: ids 0 .. 15, in order).
constexpr uint32_t kSpecializationConstantCount = 16;
/// The id of FFTB_SPEC_MULTI_VIEW, the last.
constexpr uint32_t kSpecializationMultiView = 15;
/// The id of FFTB_SPEC_RADIX_0; the kMaxSharedStages radices follow it.
constexpr uint32_t kSpecializationFirstRadix = 6;

/// The specialization constants of a pass transforming lines of `length` (an FFT length) with `workgroupSize`
/// invocations (workgroupSizeOf), indexed by id (shaders/shared/fftb_shared.h): the length, the workgroup size, the
/// twiddle table offsets of the length and of its shared-memory length, `halfStorage` as a VkBool32 (1 or 0), the
/// radices of the shared-memory stages (radicesOf of sharedLengthOf(length)), 1 past the last, then `rowLength`
/// (pass 2's rowLengthOf; 0 for the other passes), then `multiView` as a VkBool32 (the frame passes of a bloom of
/// several views, FftbMultiViewInfo).
std::array<uint32_t, kSpecializationConstantCount> specializationOf(uint32_t length, uint32_t workgroupSize,
                                                                    bool halfStorage, uint32_t rowLength = 0,
                                                                    bool multiView = false);

/// Fine entries of the twiddle table of a length past kMaxSharedFftLength (FFTB_TWIDDLE_FINE_ELEMENTS).
constexpr uint32_t kTwiddleFineElements = 128;

/// Elements of the twiddle table of `length`, complex: up to kMaxSharedFftLength, exp(-2 pi i m / length) for
/// m < length; past it kTwiddleFineElements fine entries exp(-2 pi i a0 / length), a0 < kTwiddleFineElements, then
/// ceil(length / kTwiddleFineElements) coarse ones exp(-2 pi i a1 kTwiddleFineElements / length), so that
/// exp(-2 pi i a / length) = fine[a % kTwiddleFineElements] * coarse[a / kTwiddleFineElements].
uint32_t twiddleTableElements(uint32_t length);

/// Entry `index` (< twiddleTableElements(length)) of the twiddle table of `length`, in double precision.
void twiddleEntry(uint32_t length, uint32_t index, double* re, double* im);

/// Every FFT length in ascending order, and where its twiddle table starts in the concatenation of all of them (the
/// plugin's twiddle buffer).
struct TwiddleTables
{
    std::vector<uint32_t> lengths;
    std::vector<uint32_t> offsets;
    uint32_t totalElements = 0;
    uint32_t offsetOf(uint32_t length) const; ///< length must be an FFT length
    /// Writes every table as interleaved fp32 (re, im) pairs: 2 * totalElements floats.
    void write(float* destination) const;
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
    Resampled, ///< one spectrum of the kernel's extent, oversampled, interpolated at frequency * S / N (resampling.h)
    Exact,     ///< the kernel padded to the frame's padded extent and transformed at that extent
};

/// What the bloom writes (FftbOutputMode); p is the prefiltered frame (Prefilter).
enum class OutputMode
{
    Bloom,     ///< bloom(p)
    Composite, ///< in + intensity * (bloom(p) - p): energy-conserving
    Additive,  ///< in + intensity * bloom(p)
};

/// The bloom's prefilter (FftbBloomInfo::prefilterThreshold, prefilterKnee, prefilterClamp), in the frame's linear
/// values; all 0: off.
struct Prefilter
{
    float threshold = 0.0f; ///< T >= 0; 0: no threshold
    float knee = 0.0f;      ///< soft-knee width k in [0, T]
    float clamp = 0.0f;     ///< cap C on max(r, g, b), hue kept; 0: none
    bool active() const { return threshold > 0.0f || clamp > 0.0f; }
};

/// The unit of a kernel scale (FftbKernelScaleUnit).
enum class KernelScaleUnit
{
    Native,        ///< one kernel texel per frame pixel
    Pixels,        ///< the kernel's larger extent spans `value` frame pixels
    FrameDiagonal, ///< it spans `value` * sqrt(W^2 + H^2) frame pixels, W x H the frame
};

/// How large the kernel appears on the frame (FftbBloomInfo::kernelScaleUnit, kernelScale): the kernel k of Kw x Kh
/// texels becomes k_sigma(x) = k(x / sigma) / sigma^2, sigma = span / max(Kw, Kh), whose spectrum is K(sigma f).
struct KernelScale
{
    KernelScaleUnit unit = KernelScaleUnit::Native;
    float value = 0.0f; ///< Pixels: the span in frame pixels; FrameDiagonal: a fraction of the diagonal; Native: unused
    bool native() const { return unit == KernelScaleUnit::Native; }
    bool operator==(const KernelScale&) const = default;
};

/// Frame pixels the kernel's larger extent spans on a `imageWidth` x `imageHeight` frame: `value` (Pixels),
/// `value` * sqrt(W^2 + H^2) (FrameDiagonal), in double precision; 0 for Native.
double kernelSpan(const KernelScale& scale, uint32_t imageWidth, uint32_t imageHeight);

/// The kernel's extent on the frame in pixels along an axis of `kernelLength` texels when its larger side
/// `largerKernelLength` = max(Kw, Kh) spans `span` pixels: ceil(span * K / max(Kw, Kh)), at least 1, and exactly
/// ceil(span) along the larger axis; K itself for span 0 (native) or any span not > 0. Saturates at UINT32_MAX.
uint32_t scaledKernelLength(uint32_t kernelLength, uint32_t largerKernelLength, double span);

/// Which FFT lengths the planner may pad to.
enum class LengthPolicy
{
    MixedRadix, ///< 2^a 3^b 5^c 7^d (isFftLength), the cheapest by fftLengthCost
    PowerOfTwo, ///< powers of two only (radix 8, 4, 2), as seeds/000 pads: more padding, kept for comparison
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
    LengthPolicy lengths = LengthPolicy::MixedRadix;
    KernelScale kernelScale; ///< native by default; any other needs SpectrumMode::Resampled
    /// Resampled mode: the stored spectrum is oversampling * pow2Ceil(K) long per axis, 1 .. kMaxSpectrumOversampling.
    uint32_t spectrumOversampling = kDefaultSpectrumOversampling;
    /// Half-resolution bloom (FFTB_BLOOM_RESOLUTION_HALF): the passes convolve the frame downsampled 2x per axis,
    /// ceil(W / 2) x ceil(H / 2) texels, with the kernel at half its extent (span / 2); needs SpectrumMode::Resampled.
    bool halfResolution = false;
    bool operator==(const PlanRequest&) const = default;
};

/// The plan along one axis.
struct AxisPlan
{
    /// The frame's texels along the axis: L, or at half resolution 2 L or 2 L - 1.
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
    /// The padding is planned for it (FftbNodeDescription::kernelExtentWidth, Height).
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
    Padding padding = Padding::Zero;
    SpectrumMode spectrum = SpectrumMode::Resampled;
    /// sigma = span / max(Kw, Kh), 1 at native scale: the stored spectrum is read at sigma * k * S / N.
    double kernelScale = 1.0;
    /// The passes transform the frame downsampled 2x per axis (PlanRequest::halfResolution): the image lengths are
    /// ceil(frameLength / 2), the kernel scale is halved, pass 3 writes the bloom into the scratch
    /// (halfResolutionBloomStart) and a fourth pass upsamples it and composites.
    bool halfResolution = false;

    /// Lines of the half spectrum along the first axis: N1 / 2 + 1 (DC to Nyquist).
    uint32_t halfSpectrumLines() const { return first.paddedLength / 2 + 1; }
    bool operator==(const Plan&) const = default;
};

/// The cheapest padded length N (by fftLengthCost) that keeps circular wrap-around out of the image:
/// zero padding needs N >= L + max(c, K - 1 - c) = L + floor(K / 2), the padding serving as both margins;
/// mirror padding needs N >= L + K - 1 (c reflected texels after the image, K - 1 - c before it).
/// Candidates are the FFT lengths from that minimum up to the next power of two; `even` keeps only even ones (the
/// real-packed first axis needs an even length: DC and Nyquist bins); LengthPolicy::PowerOfTwo keeps only the power
/// of two. Returns 0 when none is <= kMaxFftLength.
uint32_t paddedLength(uint32_t imageLength, uint32_t kernelLength, Padding padding, bool even,
                      LengthPolicy lengths = LengthPolicy::MixedRadix);

/// Smallest power of two >= n (n >= 1), at least 2.
uint32_t pow2Ceil(uint32_t n);

/// Relative cost of the passes for a first axis of (L1, N1) and second axis of (L2, N2): FFTs (lines *
/// fftLengthCost) of passes 1-3, plus texels moved through the intermediate buffer.
double costOf(const AxisPlan& first, const AxisPlan& second);

/// Plans one bloom. Returns false and a one-line reason naming the field at fault when the request is
/// invalid (zero extents, a kernel resolution past kMaxKernelLength; a kernel scale that is not finite and > 0, whose
/// kernel extent on the frame is past kMaxKernelLength, or with SpectrumMode::Exact; half resolution with
/// SpectrumMode::Exact; a spectrum oversampling outside
/// 1 .. kMaxSpectrumOversampling) or needs an FFT longer than kMaxFftLength.
bool makePlan(const PlanRequest& request, Plan* plan, std::string* error);

/// The plans of the requests seen last, so that recording a frame plans only when its extents or settings change
/// (dynamic resolution alternates between a few extents). Holds at most kCapacity plans, dropping the oldest.
class PlanCache
{
  public:
    static constexpr size_t kCapacity = 16;
    /// The plan of `request`, from makePlan on the first request equal to it; nullptr and makePlan's reason in
    /// `error` when it cannot be planned (failures are not kept). The pointer is valid until the next call.
    const Plan* get(const PlanRequest& request, std::string* error);
    /// How many times makePlan ran: for the tests.
    uint64_t plansMade() const { return plansMade_; }

  private:
    std::vector<std::pair<PlanRequest, Plan>> entries_; ///< oldest first
    uint64_t plansMade_ = 0;
};

/// Adjacent half-spectrum lines stored together in the intermediate buffer (FFTB_INTERMEDIATE_BLOCK_LINES): it holds
/// [channel][k1 / B][v][k1 % B], so pass 1 writes whole 32-byte sectors, pass 3 reads whole sectors again, and the
/// neighbouring workgroups of pass 2 (one line each) share each sector in L2.
constexpr uint32_t kIntermediateBlockLines = 4;

/// Blocks of kIntermediateBlockLines lines that hold `halfLines` half-spectrum lines (the last one possibly partly).
uint32_t intermediateBlocks(uint32_t halfLines);

/// Where element v of half-spectrum line k1 < halfLines of `channel` lies in the intermediate, for lines of
/// `lineCount` elements: [channel][k1 / B][v][k1 % B], B = kIntermediateBlockLines (common.glsl, intermediateIndex);
/// the lines of view `view` of a multi-view bloom follow those of the views before it, [view][channel]...
uint64_t intermediateIndex(uint32_t channel, uint32_t k1, uint32_t halfLines, uint32_t v, uint32_t lineCount,
                           uint32_t view = 0);

/// Complex fp32 elements of the intermediate buffer `plan` uses, over its three colour channels: the frame's half
/// spectrum along the first axis, 3 B ceil((N1 / 2 + 1) / B) L2 (only image lines along the second axis are stored;
/// B = kIntermediateBlockLines), or, when the kernel spectrum is computed, the kernel's first-axis transform,
/// 3 B ceil((S1 / 2 + 1) / B) min(K2, S2), if larger. `views` frames (FftbMultiViewInfo) hold `views` times the
/// frame's.
uint64_t intermediateElements(const Plan& plan, uint32_t views = 1);

/// Pass 2's shared memory holds, besides its FFT, one row of the resampled spectrum per line (S2 complex values): its
/// shared arrays are sized for max(sharedLengthOf(N2), rowLengthOf(plan)). The row length S2 when it is longer than
/// the FFT's shared-memory length and at most kMaxSharedFftLength (a kernel longer than the padded frame's line); else
/// 0 (exact mode, or the row fits, or it is too long and pass 2 reads the spectrum per tap).
uint32_t rowLengthOf(const Plan& plan);

/// Bytes of one entry of pass 2's tap table (FFTB_TAP_TABLE_ENTRY_WORDS 32-bit words): the interpolation's weights
/// of kMaxInterpolationWidth taps (fp32, 0 past the width and outside the kernel's band), then the first tap's bin
/// (int32), padded to 16-byte alignment.
constexpr uint64_t kTapTableEntryBytes = 48;

/// Entries of pass 2's tap table in resampled mode, 0 in exact mode: the second-axis frequencies k2 < N2, then the
/// reading at -y of the second-axis Nyquist bin, then the first-axis lines k1 <= N1 / 2: N2 + 1 + N1 / 2 + 1. Pass 1
/// writes it for pass 2, which reads its taps instead of evaluating the interpolation per frequency bin.
uint64_t tapTableEntries(const Plan& plan);

/// Where the tap table starts in the scratch, in 16-byte units: after the intermediate's intermediateElements(plan)
/// elements of `elementBytes` bytes (8 fp32, 4 fp16) for `views` views, rounded up.
uint64_t tapTableStart(const Plan& plan, uint32_t elementBytes, uint32_t views = 1);

/// Half resolution: where pass 3 writes the bloom of the downsampled frame in the scratch, in 16-byte units, after the
/// tap table (the shaders compute it the same way: common.glsl, halfResolutionBloomIndex). One 16-byte unit per
/// texel, fp32 R, G, B and 0, [view][y][x] over the downsampled frame's width and height.
uint64_t halfResolutionBloomStart(const Plan& plan, uint32_t elementBytes, uint32_t views = 1);

/// Bytes of the scratch `plan` uses with intermediate elements of `elementBytes` bytes: the intermediate, then the tap
/// table, then at half resolution the downsampled frame's bloom; of `views` views (FftbMultiViewInfo).
uint64_t scratchBytes(const Plan& plan, uint32_t elementBytes, uint32_t views = 1);

/// Complex fp32 elements of the kernel spectrum `plan` reads: 3 (S1 / 2 + 1) S2, the centred half spectrum.
uint64_t spectrumElements(const Plan& plan);

/// Worst cases, over padding, axis order, spectrum mode (resampled at kMaxSpectrumOversampling) and resolution (full,
/// and half in resampled mode), of every frame up to `maxWidth` x `maxHeight` with every kernel up to
/// `maxKernelWidth` x `maxKernelHeight`. Padded lengths grow with
/// the extents they pad (the cheapest length is chosen over candidates that only move up), so the maximum extents give
/// the worst case.
struct ScratchSizes
{
    uint64_t scratchBytes = 0;     ///< scratchBytes(plan, 8, maxViews), worst case
    uint64_t spectrumElements = 0; ///< spectrumElements(plan), worst case (exact mode at the maximum extents)
};

/// Fills `sizes` for a context's maximum extents and views; false and a reason when no frame of those extents can be
/// planned.
bool scratchSizes(uint32_t maxWidth, uint32_t maxHeight, uint32_t maxKernelWidth, uint32_t maxKernelHeight,
                  LengthPolicy lengths, ScratchSizes* sizes, std::string* error, uint32_t maxViews = 1);

/// The worst spectrumElements over padding, for one axis order, spectrum mode and oversampling (resampled mode), of a
/// kernel of `kernelWidth` x `kernelHeight` with frames up to `maxWidth` x `maxHeight`: what one kernel spectrum slot
/// holds. 0 when no such frame can be planned.
uint64_t spectrumSlotElements(uint32_t maxWidth, uint32_t maxHeight, uint32_t kernelWidth, uint32_t kernelHeight,
                              AxisOrder axisOrder, SpectrumMode mode, uint32_t oversampling, LengthPolicy lengths);

/// Normalized convolution's least divisor (FftbPadding, FFTB_PADDING_ZERO_NORMALIZED; FFTB_MIN_BORDER_WEIGHT): the
/// bloom is amplified at most 1 / kMinBorderWeight times where little of the kernel lies inside the frame.
constexpr double kMinBorderWeight = 1.0 / 16.0;

/// Bytes of normalized convolution's border weights for frames up to `width` x `height`: 3 planes of fp32.
constexpr uint64_t borderWeightBytes(uint32_t width, uint32_t height)
{
    return uint64_t(3) * width * height * sizeof(float);
}

/// GL_MIRRORED_REPEAT: reflects any integer position into [0, length), the edge texel repeated.
uint32_t mirroredRepeat(int64_t position, uint32_t length);

/// The image position a padded position p in [0, N) reads along an axis, or -1 for a zero texel.
int64_t paddedSource(uint32_t p, const AxisPlan& axis, Padding padding);

} // namespace fftb
