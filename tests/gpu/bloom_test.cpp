// SPDX-License-Identifier: MIT
// The plugin's bloom on the GPU against the double-precision CPU reference, and the identities it must keep.
#include "gpu_test_support.h"
#include "plan.h"
#include "psf/psf.h"
#include "reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <set>
#include <string>
#include <tuple>
#include <utility>

namespace fftb::test
{
namespace
{

struct SweepCase
{
    int width, height, kernelWidth, kernelHeight;
};

/// The spectrum modes the GPU is checked in: exact, and resampled with each interpolation.
enum class Spectrum
{
    Exact,
    Es,
    Linear,
    Cubic,
};

const char* nameOf(Spectrum spectrum)
{
    return spectrum == Spectrum::Exact    ? "exact"
           : spectrum == Spectrum::Es     ? "es"
           : spectrum == Spectrum::Linear ? "linear"
                                          : "cubic";
}

using SweepParam = std::tuple<SweepCase, FftbPadding, FftbAxisOrder, Spectrum>;

class ConvolutionSweep : public ::testing::TestWithParam<SweepParam>
{
};

BloomSettings bloomOnly(FftbPadding padding, FftbAxisOrder axis, FftbSpectrumMode spectrum)
{
    BloomSettings s;
    s.plan.padding = padding;
    s.plan.axisOrder = axis;
    s.kernel.spectrum = spectrum;
    s.frame.output = FFTB_OUTPUT_MODE_BLOOM;
    return s;
}

BloomSettings bloomOnly(FftbPadding padding, FftbAxisOrder axis, Spectrum spectrum)
{
    BloomSettings s =
        bloomOnly(padding, axis, spectrum == Spectrum::Exact ? FFTB_SPECTRUM_MODE_EXACT : FFTB_SPECTRUM_MODE_RESAMPLED);
    s.kernel.interpolation = (spectrum == Spectrum::Linear  ? FFTB_SPECTRUM_INTERPOLATION_LINEAR
                              : spectrum == Spectrum::Cubic ? FFTB_SPECTRUM_INTERPOLATION_CUBIC
                                                            : FFTB_SPECTRUM_INTERPOLATION_ES);
    return s;
}

std::string sweepName(const ::testing::TestParamInfo<SweepParam>& param)
{
    const auto& [c, padding, axis, spectrum] = param.param;
    return std::to_string(c.width) + "x" + std::to_string(c.height) + "_k" + std::to_string(c.kernelWidth) + "x" +
           std::to_string(c.kernelHeight) + (padding != FFTB_PADDING_MIRROR ? "_zero" : "_mirror") +
           (axis == FFTB_AXIS_ORDER_X_FIRST   ? "_x"
            : axis == FFTB_AXIS_ORDER_Y_FIRST ? "_y"
                                              : "_auto") +
           "_" + nameOf(spectrum);
}

// Keeps gtest from printing the parameters as raw bytes in test listings.
void PrintTo(const SweepParam& param, std::ostream* os)
{
    *os << sweepName(::testing::TestParamInfo<SweepParam>(param, 0));
}

TEST_P(ConvolutionSweep, MatchesReference)
{
    const auto& [c, padding, axis, spectrum] = GetParam();
    const BloomSettings s = bloomOnly(padding, axis, spectrum);
    const Texels frame = randomFrame(c.width, c.height, 7);
    Texels kernel = randomKernel(c.kernelWidth, c.kernelHeight, 11);
    normalizePsf(kernel);
    const Texels gpu = runner().bloom(frame, kernel, s);
    const double error = relativeError(gpu, referenceFor(frame, kernel, s));
    EXPECT_LE(error, Tolerance::kFp32) << describe(c.width, c.height, s) << " kernel " << c.kernelWidth << "x"
                                       << c.kernelHeight;
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

// Every combination of padding, axis order and spectrum at the small sizes (linear, which differs from cubic in its
// tap weights only, in the large sweep and below); at 1000x810 with a 256² kernel (half a
// minute each under the sanitizers on lavapipe) six that hold each padding with each axis order and with each
// spectrum.
INSTANTIATE_TEST_SUITE_P(Sizes, ConvolutionSweep,
                         ::testing::Combine(::testing::Values(SweepCase{37, 19, 8, 8}, SweepCase{64, 48, 16, 12},
                                                              SweepCase{30, 20, 64, 64}, SweepCase{640, 360, 64, 64}),
                                            ::testing::Values(FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR),
                                            ::testing::Values(FFTB_AXIS_ORDER_X_FIRST, FFTB_AXIS_ORDER_Y_FIRST,
                                                              FFTB_AXIS_ORDER_AUTO),
                                            ::testing::Values(Spectrum::Exact, Spectrum::Es, Spectrum::Cubic)),
                         sweepName);

constexpr SweepCase kLargeSweep{1000, 810, 256, 256};
INSTANTIATE_TEST_SUITE_P(
    LargeSizes, ConvolutionSweep,
    ::testing::Values(SweepParam{kLargeSweep, FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_X_FIRST, Spectrum::Exact},
                      SweepParam{kLargeSweep, FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_Y_FIRST, Spectrum::Cubic},
                      SweepParam{kLargeSweep, FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_AUTO, Spectrum::Es},
                      SweepParam{kLargeSweep, FFTB_PADDING_MIRROR, FFTB_AXIS_ORDER_X_FIRST, Spectrum::Linear},
                      SweepParam{kLargeSweep, FFTB_PADDING_MIRROR, FFTB_AXIS_ORDER_Y_FIRST, Spectrum::Exact},
                      SweepParam{kLargeSweep, FFTB_PADDING_MIRROR, FFTB_AXIS_ORDER_AUTO, Spectrum::Es}),
    sweepName);

class Identity : public ::testing::TestWithParam<std::tuple<FftbPadding, Spectrum>>
{
};

TEST_P(Identity, CentredOneHotKernelReturnsTheInput)
{
    const auto& [padding, spectrum] = GetParam();
    for (const int k : {8, 33})
    {
        const BloomSettings s = bloomOnly(padding, FFTB_AXIS_ORDER_AUTO, spectrum);
        const Texels frame = randomFrame(37, 19, 3);
        const Texels gpu = runner().bloom(frame, oneHotKernel(k, k, k / 2, k / 2), s);
        EXPECT_LE(relativeError(gpu, frame), Tolerance::kFp32) << describe(37, 19, s) << " kernel " << k;
    }
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

TEST_P(Identity, SharpenOneReturnsTheInput)
{
    const auto& [padding, spectrum] = GetParam();
    BloomSettings s = bloomOnly(padding, FFTB_AXIS_ORDER_AUTO, spectrum);
    s.frame.sharpen = 1.0f;
    const Texels frame = randomFrame(64, 40, 5);
    const Texels gpu = runner().bloom(frame, randomKernel(16, 16, 2), s);
    EXPECT_LE(relativeError(gpu, frame), Tolerance::kFp32) << describe(64, 40, s);
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

INSTANTIATE_TEST_SUITE_P(Modes, Identity,
                         ::testing::Combine(::testing::Values(FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR),
                                            ::testing::Values(Spectrum::Exact, Spectrum::Es, Spectrum::Linear,
                                                              Spectrum::Cubic)));

class Shift : public ::testing::TestWithParam<std::tuple<FftbPadding, FftbAxisOrder>>
{
};

// A one-hot kernel at (c + dx, c + dy) moves the frame by (dx, dy): out(x, y) = in(x - dx, y - dy), with
// texels from outside the frame black (zero padding) or mirrored (mirror padding). Expected values are
// built here, independent of the reference.
TEST_P(Shift, OffCentreOneHotKernelShiftsTheFrame)
{
    const auto& [padding, axis] = GetParam();
    const int k = 16, c = k / 2, dx = 3, dy = -5;
    const BloomSettings s = bloomOnly(padding, axis, FFTB_SPECTRUM_MODE_EXACT);
    const Texels frame = randomFrame(37, 19, 9);
    const Texels gpu = runner().bloom(frame, oneHotKernel(k, k, c + dx, c + dy), s);
    Texels expected(frame.width, frame.height, 3);
    for (int y = 0; y < frame.height; ++y)
        for (int x = 0; x < frame.width; ++x)
        {
            int sx = x - dx, sy = y - dy;
            const bool outside = sx < 0 || sy < 0 || sx >= frame.width || sy >= frame.height;
            if (outside && padding != FFTB_PADDING_MIRROR)
                continue;
            sx = int(mirroredRepeat(sx, uint32_t(frame.width)));
            sy = int(mirroredRepeat(sy, uint32_t(frame.height)));
            for (int ch = 0; ch < 3; ++ch)
                expected.at(x, y, ch) = frame.at(sx, sy, ch);
        }
    EXPECT_LE(relativeError(gpu, expected), Tolerance::kFp32) << describe(37, 19, s);
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

INSTANTIATE_TEST_SUITE_P(Modes, Shift,
                         ::testing::Combine(::testing::Values(FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR),
                                            ::testing::Values(FFTB_AXIS_ORDER_X_FIRST, FFTB_AXIS_ORDER_Y_FIRST)));

// With mirror padding and a kernel symmetric about its centre along each axis, light leaving an edge is matched
// by its mirror image entering: the frame's total is kept, exactly in real arithmetic with the exact spectrum.
// The resampled spectrum's kernel carries faint periodic copies (the interpolator's window in space, sinc^2 for
// the tent), which move about 0.1% of the light across the edges.
TEST(Energy, MirrorPaddingKeepsTheTotalForASymmetricKernel)
{
    const int k = 33;
    Texels kernel(k, k, 3);
    for (int y = 0; y < k; ++y)
        for (int x = 0; x < k; ++x)
            for (int ch = 0; ch < 3; ++ch)
                kernel.at(x, y, ch) = float(std::exp(-((x - 16) * (x - 16) + (y - 16) * (y - 16)) / (50.0 * (ch + 1))));
    const Texels frame = randomFrame(90, 50, 4);
    for (const auto& [spectrum, tolerance] :
         {std::pair{FFTB_SPECTRUM_MODE_EXACT, 1e-5}, std::pair{FFTB_SPECTRUM_MODE_RESAMPLED, 5e-3}})
    {
        const BloomSettings s = bloomOnly(FFTB_PADDING_MIRROR, FFTB_AXIS_ORDER_AUTO, spectrum);
        const Texels gpu = runner().bloom(frame, kernel, s);
        for (int ch = 0; ch < 3; ++ch)
            EXPECT_NEAR(channelSum(gpu, ch) / channelSum(frame, ch), 1.0, tolerance)
                << describe(90, 50, s) << " channel " << ch;
    }
    // Zero padding loses what spreads past the edges: the check above can fail.
    const Texels zero =
        runner().bloom(frame, kernel, bloomOnly(FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_AUTO, FFTB_SPECTRUM_MODE_EXACT));
    EXPECT_LT(channelSum(zero, 0) / channelSum(frame, 0), 0.99);
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

// composite: out = in + intensity * (bloom - in); alpha always passes through unchanged.
TEST(Composite, MixesInputAndBloomAndKeepsAlpha)
{
    Texels frame = randomFrame(48, 30, 12);
    for (int y = 0; y < frame.height; ++y)
        for (int x = 0; x < frame.width; ++x)
            frame.at(x, y, 3) = float(x + y) / 100.0f;
    Texels kernel = randomKernel(16, 16, 13);
    normalizePsf(kernel);
    BloomSettings s = bloomOnly(FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_AUTO, FFTB_SPECTRUM_MODE_EXACT);
    s.frame.output = FFTB_OUTPUT_MODE_COMPOSITE;
    s.frame.intensity = 0.3f;
    const Texels gpu = runner().bloom(frame, kernel, s);
    const Texels bloom = referenceConvolution(frame, kernel, FFTB_PADDING_ZERO);
    Texels expected(frame.width, frame.height, 3);
    for (int y = 0; y < frame.height; ++y)
        for (int x = 0; x < frame.width; ++x)
        {
            for (int ch = 0; ch < 3; ++ch)
                expected.at(x, y, ch) = frame.at(x, y, ch) + 0.3f * (bloom.at(x, y, ch) - frame.at(x, y, ch));
            ASSERT_EQ(gpu.at(x, y, 3), frame.at(x, y, 3)) << "alpha at (" << x << ", " << y << ")";
        }
    EXPECT_LE(relativeError(gpu, expected), Tolerance::kFp32);
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

// Frame extents whose padded lengths (3x3 kernel, zero padding: N >= L + 1) use every radix, alone and mixed, from
// 3 to 4096: the full bloom against the reference, and a centred one-hot kernel as a forward/inverse round trip, one
// test an extent (MixedRadix.ExtentsCoverEveryRadix checks that together they use every radix).
constexpr std::pair<int, int> kMixedRadixExtents[] = {{4, 2},    {8, 4},     {6, 6},    {14, 14},  {40, 34},
                                                      {10, 48},  {112, 104}, {24, 124}, {14, 342}, {10, 624},
                                                      {8, 1214}, {6, 2186},  {4, 3374}, {4, 4095}};

BloomSettings mixedRadixSettings()
{
    return bloomOnly(FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_X_FIRST, FFTB_SPECTRUM_MODE_EXACT);
}

Plan mixedRadixPlan(int w, int h)
{
    const BloomSettings s = mixedRadixSettings();
    Plan plan;
    EXPECT_TRUE(makePlan({uint32_t(w), uint32_t(h), 3, 3, s.plan.padding, s.plan.axisOrder, s.kernel.spectrum}, &plan,
                         nullptr));
    return plan;
}

/// "WxH", the name of a test of one extent.
std::string extentName(const ::testing::TestParamInfo<std::pair<int, int>>& p)
{
    return std::to_string(p.param.first) + "x" + std::to_string(p.param.second);
}

/// A w x h random frame bloomed with `kernel` (3x3) against the reference, and with a centred one-hot kernel as a
/// forward/inverse round trip through every pass; `plan`'s padded lengths are named on failure.
void expectBloomAndRoundTrip(int w, int h, const Texels& kernel, const BloomSettings& s, const Plan& plan)
{
    const Texels frame = randomFrame(w, h, uint32_t(w * h));
    EXPECT_LE(relativeError(runner().bloom(frame, kernel, s), referenceConvolutionFor(frame, kernel, s.plan.padding)),
              Tolerance::kFp32)
        << w << "x" << h << ", padded " << plan.first.paddedLength << "x" << plan.second.paddedLength;
    EXPECT_LE(relativeError(runner().bloom(frame, oneHotKernel(3, 3, 1, 1), s), frame), Tolerance::kFp32)
        << "round trip " << w << "x" << h;
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

TEST(MixedRadix, ExtentsCoverEveryRadix)
{
    std::set<uint32_t> radices;
    for (const auto& [w, h] : kMixedRadixExtents)
    {
        const Plan plan = mixedRadixPlan(w, h);
        for (const uint32_t n : {plan.first.paddedLength, plan.second.paddedLength})
            for (const uint32_t r : radicesOf(n))
                radices.insert(r);
    }
    EXPECT_EQ(radices, (std::set<uint32_t>{2, 3, 4, 5, 7, 8}));
}

class MixedRadixExtent : public ::testing::TestWithParam<std::pair<int, int>>
{
};

TEST_P(MixedRadixExtent, MatchesTheReference)
{
    const auto [w, h] = GetParam();
    const BloomSettings s = mixedRadixSettings();
    const Plan plan = mixedRadixPlan(w, h);
    Texels kernel = randomKernel(3, 3, 31);
    normalizePsf(kernel);
    expectBloomAndRoundTrip(w, h, kernel, s, plan);
}

INSTANTIATE_TEST_SUITE_P(MixedRadix, MixedRadixExtent, ::testing::ValuesIn(kMixedRadixExtents), extentName);

// Production frame sizes against the double-precision linear convolution: 1920x1080 with a 256² kernel everywhere;
// 3840x2160 with 256² and 7680x4320 with a 1024² kernel (lines of 8192 and more) on GPUs only, as lavapipe takes
// minutes over them (Modes/LongLines and Extents/LongestLines hold lines past 4096 there).
TEST(LargeFrames, MatchTheReference)
{
    struct Size
    {
        int width, height, kernel;
    };
    std::vector<Size> sizes = {{1920, 1080, 256}};
    if (!runner().cpuDevice())
        sizes.insert(sizes.end(), {{3840, 2160, 256}, {7680, 4320, 1024}});
    for (const Size& size : sizes)
    {
        const BloomSettings s = bloomOnly(FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_AUTO, FFTB_SPECTRUM_MODE_EXACT);
        const Texels frame = randomFrame(size.width, size.height, 41);
        Texels kernel = randomKernel(size.kernel, size.kernel, 43);
        normalizePsf(kernel);
        EXPECT_LE(
            relativeError(runner().bloom(frame, kernel, s), referenceConvolutionFor(frame, kernel, s.plan.padding)),
            Tolerance::kFp32)
            << size.width << "x" << size.height << " kernel " << size.kernel;
    }
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

// FFTB_LENGTH_POLICY_POWER_OF_TWO ("FFT Bloom Optimized to the Bone"'s padding): same results at lengths the
// mixed-radix planner does not pick, through a runner whose contexts carry the FftbPlannerInfo.
TEST(PowerOfTwoLengths, MatchTheReference)
{
    GpuRunner powerOfTwo(RunnerOptions{-1, true, 1, FFTB_LENGTH_POLICY_POWER_OF_TWO});
    Texels kernel = randomKernel(33, 33, 5);
    normalizePsf(kernel);
    const Texels frame = randomFrame(300, 170, 23);
    for (FftbPadding padding : {FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR})
    {
        const BloomSettings s = bloomOnly(padding, FFTB_AXIS_ORDER_AUTO, FFTB_SPECTRUM_MODE_EXACT);
        PlanRequest request{
            300, 170, 33, 33, padding, s.plan.axisOrder, s.kernel.spectrum, FFTB_LENGTH_POLICY_POWER_OF_TWO};
        Plan pow2, mixed;
        ASSERT_TRUE(makePlan(request, &pow2, nullptr));
        request.lengths = FFTB_LENGTH_POLICY_MIXED_RADIX;
        ASSERT_TRUE(makePlan(request, &mixed, nullptr));
        for (const uint32_t n : {pow2.first.paddedLength, pow2.second.paddedLength})
            EXPECT_EQ(n & (n - 1), 0u) << n << " is not a power of two";
        EXPECT_NE(pow2.first.paddedLength * pow2.second.paddedLength,
                  mixed.first.paddedLength * mixed.second.paddedLength);
        EXPECT_LE(relativeError(powerOfTwo.bloom(frame, kernel, s), referenceConvolution(frame, kernel, padding)),
                  Tolerance::kFp32)
            << (padding != FFTB_PADDING_MIRROR ? "zero" : "mirror");
    }
    EXPECT_EQ(powerOfTwo.validationMessageCount(), 0u) << powerOfTwo.firstValidationMessage();
}

// Lines past 4096 (register stage + sub-FFTs in shared memory, fft.glsl): a frame whose padded width is long, in
// both axis orders (the long axis first: real-packed half spectra and the inverse of pass 3; second: the fused
// pass 2), both paddings and both spectrum modes (exact: the kernel spectrum's passes at the long length too).
class LongLines : public ::testing::TestWithParam<std::tuple<FftbPadding, FftbAxisOrder, Spectrum>>
{
};

TEST_P(LongLines, WideFrameMatchesTheReference)
{
    const auto& [padding, axis, spectrum] = GetParam();
    const BloomSettings s = bloomOnly(padding, axis, spectrum);
    const Texels frame = randomFrame(5000, 40, 17);
    Texels kernel = randomKernel(64, 64, 19);
    normalizePsf(kernel);
    Plan plan;
    ASSERT_TRUE(makePlan({5000, 40, 64, 64, padding, axis, s.kernel.spectrum}, &plan, nullptr));
    const uint32_t paddedWidth = plan.firstAxisIsX ? plan.first.paddedLength : plan.second.paddedLength;
    EXPECT_GT(paddedWidth, FFTB_MAX_SHARED_FFT_LENGTH);
    const Texels gpu = runner().bloom(frame, kernel, s);
    const double error = relativeError(gpu, referenceFor(frame, kernel, s));
    EXPECT_LE(error, Tolerance::kFp32) << describe(5000, 40, s) << ", padded width " << paddedWidth;
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

INSTANTIATE_TEST_SUITE_P(Modes, LongLines,
                         ::testing::Combine(::testing::Values(FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR),
                                            ::testing::Values(FFTB_AXIS_ORDER_X_FIRST, FFTB_AXIS_ORDER_Y_FIRST),
                                            ::testing::Values(Spectrum::Exact, Spectrum::Es, Spectrum::Cubic)));

// The longest lines, 8192 and 16384, along the first axis and along the second: the full bloom against the
// reference, and a centred one-hot kernel as a forward/inverse round trip through every pass.
class LongestLines : public ::testing::TestWithParam<std::pair<int, int>>
{
};

TEST_P(LongestLines, OnEitherAxisMatchTheReferenceAndRoundTrip)
{
    const auto& [w, h] = GetParam();
    Texels kernel = randomKernel(3, 3, 41);
    normalizePsf(kernel);
    const BloomSettings s = bloomOnly(FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_X_FIRST, FFTB_SPECTRUM_MODE_EXACT);
    Plan plan;
    ASSERT_TRUE(makePlan({uint32_t(w), uint32_t(h), 3, 3, s.plan.padding, s.plan.axisOrder, s.kernel.spectrum}, &plan,
                         nullptr));
    EXPECT_EQ(std::max(plan.first.paddedLength, plan.second.paddedLength), pow2Ceil(uint32_t(std::max(w, h))));
    expectBloomAndRoundTrip(w, h, kernel, s, plan);
}

INSTANTIATE_TEST_SUITE_P(Extents, LongestLines,
                         ::testing::Values(std::pair{8191, 4}, std::pair{4, 8191}, std::pair{16383, 2},
                                           std::pair{2, 16383}),
                         extentName);

// The kernel spectrum is cached per extent; a second frame of another extent must not reuse a stale one.
TEST(SpectrumCache, ExactSpectrumFollowsTheFrameExtent)
{
    Texels kernel = randomKernel(16, 16, 21);
    normalizePsf(kernel);
    const BloomSettings s = bloomOnly(FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_X_FIRST, FFTB_SPECTRUM_MODE_EXACT);
    for (const auto& [w, h] : {std::pair{40, 30}, std::pair{100, 30}, std::pair{40, 30}})
    {
        const Texels frame = randomFrame(w, h, uint32_t(w));
        EXPECT_LE(
            relativeError(runner().bloom(frame, kernel, s), referenceConvolutionFor(frame, kernel, s.plan.padding)),
            Tolerance::kFp32)
            << w << "x" << h;
        EXPECT_GT(runner().lastGpuMilliseconds(), 0.0) << "per-pass timestamps (FftbTimestampInfo) were not written";
    }
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

// The bloom node keeps a replaced kernel and plan until the frames submitted with them have completed: a new kernel
// and new plan settings while frames are in flight leave every frame its own bloom, and the validation layer sees
// nothing destroyed in use.
TEST(BloomNodeRetirement, KernelsAndPlansChangeWithFramesInFlight)
{
    GpuRunner& r = runner();
    Texels k1 = randomKernel(9, 9, 31), k2 = randomKernel(9, 9, 32); // one extent: no context growth, no drain
    normalizePsf(k1);
    normalizePsf(k2);
    const BloomSettings zero = bloomOnly(FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_X_FIRST, FFTB_SPECTRUM_MODE_EXACT);
    const BloomSettings mirror = bloomOnly(FFTB_PADDING_MIRROR, FFTB_AXIS_ORDER_Y_FIRST, FFTB_SPECTRUM_MODE_EXACT);
    const Texels f1 = randomFrame(24, 20, 41), f2 = randomFrame(24, 20, 42), f3 = randomFrame(24, 20, 43);
    ASSERT_EQ(r.pending(), 0u);
    r.submit(f1, k1, zero);
    r.submit(f2, k2, zero); // k1 retired while f1 is in flight
    const Texels b1 = r.collect().rgba;
    r.submit(f3, k2, mirror); // a second plan of k2 while f2 is in flight
    const Texels b2 = r.collect().rgba;
    const Texels b3 = r.collect().rgba;
    EXPECT_LE(relativeError(b1, referenceConvolutionFor(f1, k1, FFTB_PADDING_ZERO)), Tolerance::kFp32);
    EXPECT_LE(relativeError(b2, referenceConvolutionFor(f2, k2, FFTB_PADDING_ZERO)), Tolerance::kFp32);
    EXPECT_LE(relativeError(b3, referenceConvolutionFor(f3, k2, FFTB_PADDING_MIRROR)), Tolerance::kFp32);
    EXPECT_EQ(r.validationMessageCount(), 0u) << r.firstValidationMessage();
}

} // namespace
} // namespace fftb::test
