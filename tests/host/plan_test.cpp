// SPDX-License-Identifier: MIT
// Planning math: padded lengths, mirror split points, the FFT length limit and the axis-order choice.
#include "plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

namespace fftb
{
namespace
{

/// How large the kernel appears: PlanRequest::kernelSpanUnit and kernelSpan.
struct Span
{
    FftbKernelSpanUnit unit = FFTB_KERNEL_SPAN_NATIVE;
    float value = 0.0f;
};

void setSpan(PlanRequest& request, Span span)
{
    request.kernelSpanUnit = span.unit;
    request.kernelSpan = span.value;
}

TEST(Plan, FftLengthsAreTheProductsOfTwoThreeFiveAndSevenUpTo16384)
{
    for (const uint32_t n :
         {2u, 3u, 5u, 7u, 15u, 45u, 105u, 243u, 1215u, 2187u, 2430u, 3375u, 4096u, 4375u, 6144u, 6561u, 8192u, 16384u})
        EXPECT_TRUE(isFftLength(n)) << n;
    // 15625 = 5 * 3125 and 13122 = 2 * 6561 have no split with a workgroup of <= 1024 invocations holding <= 16
    // elements each whose sub-lines fit shared memory.
    for (const uint32_t n : {0u, 1u, 11u, 13u, 22u, 4097u, 8194u, 13122u, 15625u, 16807u, 32768u})
        EXPECT_FALSE(isFftLength(n)) << n;
    for (const uint32_t n : {2u, 6u, 1215u, 2048u, 3375u, 4032u, 4375u, 6125u, 6144u, 6561u, 8192u, 16384u})
    {
        uint32_t product = 1;
        for (const uint32_t r : radicesOf(n))
            product *= r;
        EXPECT_EQ(product, n) << "radices of " << n;
    }
    EXPECT_EQ(radicesOf(4096), (std::vector<uint32_t>{8, 8, 8, 8}));
    EXPECT_EQ(radicesOf(1215), (std::vector<uint32_t>{3, 3, 3, 3, 3, 5}));
    EXPECT_EQ(radicesOf(8192), (std::vector<uint32_t>{2, 8, 8, 8, 8})); // register radix first
    EXPECT_EQ(radicesOf(16384), (std::vector<uint32_t>{4, 8, 8, 8, 8}));
    const TwiddleTables& t = twiddleTables();
    ASSERT_EQ(t.lengths.size(), t.offsets.size());
    EXPECT_EQ(t.offsetOf(2), 0u);
    EXPECT_EQ(t.offsetOf(3), 2u);
    const size_t after4096 = size_t(std::find(t.lengths.begin(), t.lengths.end(), 4096u) - t.lengths.begin()) + 1;
    ASSERT_LT(after4096, t.lengths.size());
    EXPECT_EQ(t.offsets[after4096], t.offsetOf(4096) + 4096);
    // The line tables end with 16384's, where the stage tables of the generated FFT start (fft_codegen_test.cpp).
    ASSERT_FALSE(t.stageOffsets.empty());
    EXPECT_EQ(t.offsetOf(16384) + twiddleTableElements(16384), t.stageOffsets.front());
    EXPECT_EQ(twiddleTableElements(16384), 128u + 128u);
    EXPECT_LT(t.stageOffsets.front(), 400000u); // 3.2 MB: the long lengths' tables are short
}

// Every supported length gets a workgroup the shader can use: at most 1024 invocations holding at most 16 elements
// each; a long line's sub-line length M = N / R is an FFT length <= 4096 that the workgroup size divides.
TEST(Plan, EveryFftLengthHasAWorkgroupAndAnInSharedMemoryLength)
{
    uint32_t longLengths = 0;
    for (uint32_t n = 2; n <= FFTB_MAX_FFT_LENGTH; ++n)
    {
        if (!isFftLength(n))
            continue;
        const uint32_t t = workgroupSizeOf(n), m = sharedLengthOf(n);
        ASSERT_GT(t, 0u) << n;
        EXPECT_LE(t, kMaxWorkgroupSize) << n;
        EXPECT_LE((n + t - 1) / t, FFTB_MAX_ELEMENTS_PER_INVOCATION) << n;
        EXPECT_LE(m, FFTB_MAX_SHARED_FFT_LENGTH) << n;
        EXPECT_EQ(n % m, 0u) << n;
        if (n <= FFTB_MAX_SHARED_FFT_LENGTH)
        {
            EXPECT_EQ(m, n);
            continue;
        }
        ++longLengths;
        EXPECT_TRUE(isFftLength(m)) << n;
        EXPECT_EQ(m % t, 0u) << n;
        const uint32_t radix = n / m;
        EXPECT_TRUE(radix == 2 || radix == 3 || radix == 4 || radix == 5 || radix == 7 || radix == 8) << n;
    }
    EXPECT_GT(longLengths, 100u);
    // Lines in shared memory: 4 elements per invocation up to the smallest radix (every stage one round), rounded up
    // to whole subgroups of 32, whichever keeps the most warps resident; ties keep fewer elements.
    EXPECT_EQ(workgroupSizeOf(4096), 1024u); // 32 warps, as 512 (8 elements)
    EXPECT_EQ(workgroupSizeOf(2240), 448u);  // 8 8 5 7: 5 elements, 2 x 14 warps against 1 x 18 at 560
    EXPECT_EQ(workgroupSizeOf(2744), 480u);  // 8 7 7 7: 6 elements, 2 x 15 warps against 1 x 22 at 704
    EXPECT_EQ(workgroupSizeOf(1225), 256u);  // 5 5 7 7: 5 elements, 4 x 8 warps against 3 x 10 at 320
    EXPECT_EQ(workgroupSizeOf(875), 192u);   // 5 5 5 7: 5 elements, 5 x 6 warps against 4 x 7 at 224
    EXPECT_EQ(workgroupSizeOf(1344), 352u);  // 8 8 3 7: radix 3 leaves 4 elements only
    EXPECT_EQ(workgroupSizeOf(1215), 320u);
    EXPECT_EQ(workgroupSizeOf(100), 25u);
    EXPECT_EQ(workgroupSizeOf(140), 64u);
    EXPECT_EQ(workgroupSizeOf(12), 3u);
    // A device with fewer invocations gets up to 8, then 16 elements per invocation, and 0 past that.
    EXPECT_EQ(workgroupSizeOf(4096, 512), 512u);
    EXPECT_EQ(workgroupSizeOf(4096, 256), 256u);
    EXPECT_EQ(workgroupSizeOf(4096, 255), 0u);
    // Long lines: 8 elements per invocation where a divisor of the sub-line length allows it and the device has the
    // invocations, else up to 16.
    EXPECT_EQ(workgroupSizeOf(4480), 560u);       // 2 * 2240
    EXPECT_EQ(workgroupSizeOf(8192), 1024u);      // 2 * 4096
    EXPECT_EQ(workgroupSizeOf(8192, 1023), 512u); // 16 elements
    EXPECT_EQ(workgroupSizeOf(8192, 511), 0u);
    EXPECT_EQ(workgroupSizeOf(16384), 1024u); // 16 elements: 8 would need 2048 invocations
    EXPECT_EQ(workgroupSizeOf(6561), 729u);   // 3 * 2187: no divisor of 2187 in [821, 1024]
}

// The shaders take every stage's radix as a specialization constant, FFTB_MAX_SHARED_STAGES of them.
TEST(Plan, SpecializationNamesEveryStageOfTheSharedMemoryLength)
{
    for (uint32_t n = 2; n <= FFTB_MAX_FFT_LENGTH; ++n)
    {
        if (isFftLength(n))
        {
            EXPECT_LE(radicesOf(sharedLengthOf(n)).size(), FFTB_MAX_SHARED_STAGES) << n;
        }
    }
    EXPECT_EQ(radicesOf(2187).size(), 7u);
    const TwiddleTables& t = twiddleTables();
    const std::array<uint32_t, FFTB_SPEC_COUNT> shared = specializationOf(1225, 256, false);
    EXPECT_EQ(shared, (std::array<uint32_t, FFTB_SPEC_COUNT>{1225, 256, t.offsetOf(1225), 1225, t.offsetOf(1225), 0, 5,
                                                             5, 7, 7, 1, 1, 1, 1}));
    // 8192: a radix-2 register stage, then 4096 = 8^4 in shared memory.
    const std::array<uint32_t, FFTB_SPEC_COUNT> split = specializationOf(8192, 1024, true);
    EXPECT_EQ(split, (std::array<uint32_t, FFTB_SPEC_COUNT>{8192, 1024, t.offsetOf(8192), 4096, t.offsetOf(4096), 1, 8,
                                                            8, 8, 8, 1, 1, 1, 1}));
    // Several views: the last constant.
    EXPECT_EQ(specializationOf(980, 245, false)[FFTB_SPEC_MULTI_VIEW], 0u);
    EXPECT_EQ(specializationOf(980, 245, false, true)[FFTB_SPEC_MULTI_VIEW], 1u);
}

// Whole workgroups per multiprocessor of the model, limited by registers (64 each of 65536), invocations (2048) or
// workgroups (32), times their warps.
TEST(Plan, ResidentWarpsCountWholeWorkgroups)
{
    EXPECT_EQ(residentWarpsOf(1024), 32u); // registers: 1 workgroup
    EXPECT_EQ(residentWarpsOf(512), 32u);  // 2
    EXPECT_EQ(residentWarpsOf(576), 18u);  // 1: a second needs 73728 registers
    EXPECT_EQ(residentWarpsOf(448), 28u);  // 2
    EXPECT_EQ(residentWarpsOf(256), 32u);  // 4
    EXPECT_EQ(residentWarpsOf(25), 32u);   // 32 workgroups of one warp
    EXPECT_EQ(residentWarpsOf(3), 32u);
}

// A long length's twiddle exp(-2 pi i a / N) is the product of two fp32 table entries (fftb_shared.h), as the shader
// computes it; the error against double precision stays within a few fp32 roundings (2^-24 = 6e-8) at every a.
TEST(Plan, LongTwiddlesFromTwoEntriesStayWithinAFewFp32Roundings)
{
    const TwiddleTables& tables = twiddleTables();
    std::vector<float> buffer(2 * size_t(tables.totalElements));
    tables.write(buffer.data());
    double worstLong = 0.0, worstShared = 0.0;
    for (size_t i = 0; i < tables.lengths.size(); ++i)
    {
        const uint32_t n = tables.lengths[i];
        const float* table = buffer.data() + 2 * size_t(tables.offsets[i]);
        double worst = 0.0;
        for (uint32_t a = 0; a < n; ++a)
        {
            float re, im;
            if (n <= FFTB_MAX_SHARED_FFT_LENGTH)
            {
                re = table[2 * a];
                im = table[2 * a + 1];
            }
            else
            {
                // fft.glsl, anyTableTwiddle: cmul(fine[a % 128], coarse[a / 128]) in fp32.
                const float* f = table + 2 * (a % FFTB_TWIDDLE_FINE_ELEMENTS);
                const float* c = table + 2 * (FFTB_TWIDDLE_FINE_ELEMENTS + a / FFTB_TWIDDLE_FINE_ELEMENTS);
                re = f[0] * c[0] - f[1] * c[1];
                im = f[0] * c[1] + f[1] * c[0];
            }
            const double angle = -2.0 * 3.14159265358979323846 * a / n;
            worst = std::max(worst, std::hypot(re - std::cos(angle), im - std::sin(angle)));
        }
        double& group = n <= FFTB_MAX_SHARED_FFT_LENGTH ? worstShared : worstLong;
        group = std::max(group, worst);
    }
    std::printf("twiddle error vs double: %.3g (one fp32 entry, N <= 4096), %.3g (two entries, N > 4096)\n",
                worstShared, worstLong);
    EXPECT_LT(worstShared, 7e-8);
    EXPECT_LT(worstLong, 2.5e-7);
}

TEST(Plan, PaddedLengthIsTheCheapestFftLengthThatKeepsWrapAroundOut)
{
    // Zero padding needs L + floor(K / 2), mirror L + K - 1 (DESIGN.md section 3, derived in plan.h).
    for (const FftbPadding padding : {FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR})
        for (const uint32_t length :
             {1u, 19u, 37u, 360u, 640u, 720u, 810u, 1000u, 1080u, 1920u, 2160u, 4320u, 5000u, 7680u, 16000u})
            for (const uint32_t kernel : {8u, 64u, 255u, 256u, 512u, 1024u})
                for (const bool even : {false, true})
                {
                    const uint32_t needed = length + (padding != FFTB_PADDING_MIRROR ? kernel / 2 : kernel - 1);
                    const uint32_t n = paddedLength(length, kernel, padding, even);
                    if (needed > FFTB_MAX_FFT_LENGTH)
                    {
                        EXPECT_EQ(n, 0u);
                        continue;
                    }
                    ASSERT_TRUE(isFftLength(n)) << n;
                    EXPECT_GE(n, needed);
                    EXPECT_LE(n, pow2Ceil(needed));
                    if (even)
                    {
                        EXPECT_EQ(n % 2, 0u) << n;
                    }
                    for (uint32_t m = needed; m <= pow2Ceil(needed); ++m) // brute force over the candidates
                    {
                        if (isFftLength(m) && (!even || m % 2 == 0))
                        {
                            EXPECT_LE(fftLengthCost(n), fftLengthCost(m)) << n << " vs " << m;
                        }
                    }
                }
    EXPECT_EQ(paddedLength(1080, 256, FFTB_PADDING_ZERO, true), 1280u); // 1208 needed: 70% less work than 2048
    EXPECT_EQ(paddedLength(1080, 256, FFTB_PADDING_ZERO, false), 1225u);
    EXPECT_EQ(paddedLength(1920, 256, FFTB_PADDING_ZERO, true), 2048u);  // exactly 2048
    EXPECT_EQ(paddedLength(1, 1, FFTB_PADDING_ZERO, true), 2u);          // at least 2
    EXPECT_EQ(paddedLength(4000, 256, FFTB_PADDING_ZERO, true), 4480u);  // 4128 needed: past shared memory
    EXPECT_EQ(paddedLength(7680, 1024, FFTB_PADDING_ZERO, true), 8192u); // 8K frames with 1024^2 kernels
    EXPECT_TRUE(isFftLength(paddedLength(7680, 1024, FFTB_PADDING_MIRROR, true)));
    EXPECT_TRUE(isFftLength(paddedLength(4320, 1024, FFTB_PADDING_MIRROR, false)));
    EXPECT_EQ(paddedLength(16000, 1024, FFTB_PADDING_ZERO, true), 0u); // 16512 > 16384
    // Powers of two only: "FFT Bloom Optimized to the Bone"'s padding.
    EXPECT_EQ(paddedLength(1080, 256, FFTB_PADDING_ZERO, true, FFTB_LENGTH_POLICY_POWER_OF_TWO), 2048u);
    EXPECT_EQ(paddedLength(1920, 256, FFTB_PADDING_ZERO, true, FFTB_LENGTH_POLICY_POWER_OF_TWO), 2048u);
    EXPECT_EQ(paddedLength(2160, 512, FFTB_PADDING_MIRROR, false, FFTB_LENGTH_POLICY_POWER_OF_TWO), 4096u);
    EXPECT_EQ(paddedLength(7680, 1024, FFTB_PADDING_ZERO, true, FFTB_LENGTH_POLICY_POWER_OF_TWO), 8192u);
}

TEST(Plan, MirroredRepeatReflectsWithTheEdgeTexelRepeated)
{
    const uint32_t expected[] = {2, 1, 0, 0, 1, 2, 3, 3, 2, 1, 0, 0};
    for (int p = -3; p < 9; ++p)
        EXPECT_EQ(mirroredRepeat(p, 4), expected[p + 3]) << p;
}

TEST(Plan, PaddedSourceCoversBothMarginsForEveryPosition)
{
    // Every padded position the convolution can read for an output texel must hold the mirrored texel:
    // out(p) reads in(p - j + c) for j in [0, K), i.e. positions p - (K - 1 - c) .. p + c.
    for (const uint32_t length : {1u, 5u, 9u, 13u, 100u})
        for (const uint32_t kernel : {1u, 2u, 3u, 8u, 9u, 64u})
        {
            PlanRequest r{length, 1, kernel, 1, FFTB_PADDING_MIRROR, FFTB_AXIS_ORDER_X_FIRST, FFTB_SPECTRUM_MODE_EXACT};
            Plan plan;
            ASSERT_TRUE(makePlan(r, &plan, nullptr));
            const AxisPlan& a = plan.first;
            const int64_t c = kernel / 2;
            for (int64_t p = 0; p < length; ++p)
                for (int64_t q = p - (kernel - 1 - c); q <= p + c; ++q)
                {
                    const uint32_t wrapped = uint32_t((q % a.paddedLength + a.paddedLength) % a.paddedLength);
                    EXPECT_EQ(paddedSource(wrapped, a, FFTB_PADDING_MIRROR), int64_t(mirroredRepeat(q, length)))
                        << "L " << length << " K " << kernel << " position " << q;
                }
            EXPECT_EQ(paddedSource(length, a, FFTB_PADDING_ZERO), -1);
        }
}

TEST(Plan, SpectrumLengthIsThePaddedLengthInExactModeAndTheKernelsOversampledWhenResampled)
{
    Plan plan;
    ASSERT_TRUE(makePlan({640, 360, 200, 64, FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_X_FIRST, FFTB_SPECTRUM_MODE_RESAMPLED},
                         &plan, nullptr));
    EXPECT_EQ(plan.first.spectrumLength, 512u); // kDefaultSpectrumOversampling * pow2Ceil(K)
    EXPECT_EQ(plan.second.spectrumLength, 128u);
    EXPECT_EQ(plan.first.kernelCentre, 100u);
    ASSERT_TRUE(makePlan({640, 360, 200, 64, FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_X_FIRST, FFTB_SPECTRUM_MODE_EXACT},
                         &plan, nullptr));
    EXPECT_EQ(plan.first.spectrumLength, plan.first.paddedLength);
    EXPECT_EQ(plan.second.spectrumLength, plan.second.paddedLength);
    EXPECT_EQ(plan.halfSpectrumLines(), plan.first.paddedLength / 2 + 1);
}

TEST(Plan, AxisOrderIsForcedOrChosenByCost)
{
    Plan plan;
    for (const auto& [w, h] : {std::pair{1280u, 720u}, std::pair{100u, 2000u}, std::pair{2000u, 100u}})
    {
        ASSERT_TRUE(makePlan({w, h, 256, 256, FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_X_FIRST}, &plan, nullptr));
        EXPECT_TRUE(plan.firstAxisIsX);
        const double xFirst = costOf(plan.first, plan.second);
        ASSERT_TRUE(makePlan({w, h, 256, 256, FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_Y_FIRST}, &plan, nullptr));
        EXPECT_FALSE(plan.firstAxisIsX);
        const double yFirst = costOf(plan.first, plan.second);
        ASSERT_TRUE(makePlan({w, h, 256, 256, FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_AUTO}, &plan, nullptr));
        EXPECT_EQ(plan.firstAxisIsX, xFirst <= yFirst) << w << "x" << h;
    }
}

TEST(Plan, RefusesEmptyExtentsAndFramesTooLargeNamingTheField)
{
    Plan plan;
    std::string error;
    EXPECT_FALSE(makePlan({0, 10, 8, 8}, &plan, &error));
    EXPECT_NE(error.find("image extent"), std::string::npos) << error;
    EXPECT_FALSE(makePlan({10, 10, 0, 8}, &plan, &error));
    EXPECT_NE(error.find("kernel resolution"), std::string::npos) << error;
    EXPECT_FALSE(makePlan({20000, 10, 8, 8}, &plan, &error));
    EXPECT_NE(error.find("image width: 20000"), std::string::npos) << error;
    EXPECT_NE(error.find("16384"), std::string::npos) << error;
    EXPECT_FALSE(makePlan({10, 16000, 8, 1024, FFTB_PADDING_MIRROR}, &plan, &error));
    EXPECT_NE(error.find("image height: 16000"), std::string::npos) << error;
    EXPECT_TRUE(makePlan({7680, 4320, 1024, 1024, FFTB_PADDING_MIRROR}, &plan, &error)) << error;
    EXPECT_FALSE(makePlan({10, 10, 8, 8192}, &plan, &error));
    EXPECT_NE(error.find("kernel resolution"), std::string::npos) << error;
}

TEST(Plan, SeveralViewsHoldTheirFramesSpectraOneAfterAnother)
{
    // Each view's lines follow the previous view's (FftbMultiViewInfo); at half resolution the views' blooms follow
    // them all; the kernel's transform, which the views share, does not multiply.
    for (const bool half : {false, true})
    {
        PlanRequest request{90, 70, 24, 18, FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_X_FIRST, FFTB_SPECTRUM_MODE_RESAMPLED};
        request.reduction = half ? 2 : 1;
        Plan plan;
        std::string error;
        ASSERT_TRUE(makePlan(request, &plan, &error)) << error;
        const uint32_t halfLines = plan.halfSpectrumLines(), lines = plan.second.imageLength;
        const uint64_t frame = intermediateIndex(0, 0, halfLines, 0, lines, 1);
        EXPECT_EQ(frame * 3, intermediateElements(plan, 3));
        EXPECT_EQ(intermediateIndex(2, halfLines - 1, halfLines, lines - 1, lines, 1),
                  frame + intermediateIndex(2, halfLines - 1, halfLines, lines - 1, lines));
        EXPECT_LT(intermediateIndex(2, halfLines - 1, halfLines, lines - 1, lines, 2), intermediateElements(plan, 3));
        EXPECT_EQ(reducedBloomStart(plan, 8, 3), (intermediateElements(plan, 3) * 8 + 15) / 16);
        const uint64_t bloom = half ? uint64_t(plan.first.imageLength) * plan.second.imageLength * 16 : 0;
        EXPECT_EQ(scratchBytes(plan, 8, 3) - reducedBloomStart(plan, 8, 3) * 16,
                  scratchBytes(plan, 8, 1) - reducedBloomStart(plan, 8, 1) * 16 + 2 * bloom);
    }
    ScratchSizes one, two;
    std::string error;
    ASSERT_TRUE(scratchSizes(200, 150, 33, 20, FFTB_LENGTH_POLICY_MIXED_RADIX, &one, &error)) << error;
    ASSERT_TRUE(scratchSizes(200, 150, 33, 20, FFTB_LENGTH_POLICY_MIXED_RADIX, &two, &error, 2)) << error;
    EXPECT_GT(two.scratchBytes, one.scratchBytes + one.scratchBytes / 2);
    EXPECT_EQ(two.spectrumChannelElements, one.spectrumChannelElements);
}

TEST(Plan, ScratchSizesAtTheMaximumExtentsHoldEveryFrameUpToThem)
{
    // The claim the plugin sizes its buffers on: no smaller frame or kernel, in any padding, axis order or spectrum
    // mode, needs more than the maximum extents' worst case.
    ScratchSizes sizes;
    std::string error;
    ASSERT_TRUE(scratchSizes(200, 150, 33, 20, FFTB_LENGTH_POLICY_MIXED_RADIX, &sizes, &error)) << error;
    uint64_t largestScratch = 0, largestSpectrum = 0;
    for (uint32_t w = 1; w <= 200; w += 7)
        for (uint32_t h = 1; h <= 150; h += 11)
            for (uint32_t k : {1u, 8u, 20u})
                for (FftbPadding padding : {FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR})
                    for (FftbAxisOrder order : {FFTB_AXIS_ORDER_X_FIRST, FFTB_AXIS_ORDER_Y_FIRST})
                        for (FftbSpectrumMode mode : {FFTB_SPECTRUM_MODE_RESAMPLED, FFTB_SPECTRUM_MODE_EXACT})
                        {
                            Plan plan;
                            ASSERT_TRUE(makePlan({w, h, k + 13, k, padding, order, mode}, &plan, &error)) << error;
                            // The half spectrum of the frame: one line per first-axis frequency, 3 channels.
                            const uint64_t frame = 3ull * (plan.first.paddedLength / 2 + 1) * plan.second.imageLength;
                            EXPECT_GE(intermediateElements(plan), frame);
                            // Per channel, the stored spectrum (resampled mode), then the spectrum at the frame's
                            // frequencies, in a range of a whole number of 256-byte blocks.
                            const uint64_t stored =
                                mode == FFTB_SPECTRUM_MODE_RESAMPLED
                                    ? 1ull * (plan.first.spectrumLength / 2 + 1) * plan.second.spectrumLength
                                    : 0;
                            EXPECT_EQ(resolvedSpectrumStart(plan), stored);
                            const uint64_t channel =
                                stored + 1ull * (plan.first.paddedLength / 2 + 1) * plan.second.paddedLength;
                            EXPECT_EQ(spectrumChannelElements(plan), (channel + 31) / 32 * 32);
                            EXPECT_EQ(scratchBytes(plan, 8), intermediateElements(plan) * 8);
                            largestScratch = std::max(largestScratch, scratchBytes(plan, 8));
                            if (mode == FFTB_SPECTRUM_MODE_EXACT)
                                largestSpectrum = std::max(largestSpectrum, spectrumChannelElements(plan));
                        }
    EXPECT_LE(largestScratch, sizes.scratchBytes);
    EXPECT_LE(largestSpectrum, sizes.spectrumChannelElements) << "the exact mode's spectrum";
    EXPECT_GT(sizes.scratchBytes, 8ull * 3 * (200 / 2 + 1) * 150) << "at least the largest frame's half spectrum";
    EXPECT_FALSE(scratchSizes(16200, 10, 512, 512, FFTB_LENGTH_POLICY_MIXED_RADIX, &sizes, &error));
    EXPECT_NE(error.find("16384"), std::string::npos) << error;
}

TEST(Plan, ASpectrumSlotHoldsTheKernelsSpectrumAtEveryFrameUpToTheMaximum)
{
    for (FftbSpectrumMode mode : {FFTB_SPECTRUM_MODE_RESAMPLED, FFTB_SPECTRUM_MODE_EXACT})
        for (uint32_t oversampling : {1u, 2u})
            for (FftbAxisOrder order : {FFTB_AXIS_ORDER_X_FIRST, FFTB_AXIS_ORDER_Y_FIRST})
            {
                // A resampled kernel of 31 x 17 texels may cover up to 60 pixels (kernelSpan); an exact one its texels.
                const bool resampled = mode == FFTB_SPECTRUM_MODE_RESAMPLED;
                const uint64_t slot =
                    spectrumSlotChannelElements(300, 200, 31, 17, resampled ? 60 : 0, resampled ? 60 : 0, order, mode,
                                                oversampling, FFTB_LENGTH_POLICY_MIXED_RADIX);
                for (uint32_t w = 1; w <= 300; w += 13)
                    for (uint32_t h = 1; h <= 200; h += 9)
                        for (FftbPadding padding : {FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR})
                            for (const float span : {0.0f, 60.0f})
                            {
                                Plan plan;
                                PlanRequest request{w, h, 31, 17, padding, order, mode};
                                request.spectrumOversampling = oversampling;
                                if (span > 0 && !resampled)
                                    continue;
                                if (span > 0)
                                {
                                    request.kernelSpanUnit = FFTB_KERNEL_SPAN_PIXELS;
                                    request.kernelSpan = span;
                                }
                                ASSERT_TRUE(makePlan(request, &plan, nullptr));
                                EXPECT_LE(spectrumChannelElements(plan), slot) << w << "x" << h << ", span " << span;
                            }
            }
}

TEST(Plan, TheResampledSpectrumIsOversampledPowersOfTwo)
{
    for (uint32_t oversampling : {1u, 2u})
    {
        PlanRequest request{640, 480, 100, 33};
        request.spectrumOversampling = oversampling;
        Plan plan;
        ASSERT_TRUE(makePlan(request, &plan, nullptr));
        const AxisPlan& x = plan.firstAxisIsX ? plan.first : plan.second;
        const AxisPlan& y = plan.firstAxisIsX ? plan.second : plan.first;
        EXPECT_EQ(x.spectrumLength, 128 * oversampling);
        EXPECT_EQ(y.spectrumLength, 64 * oversampling);
    }
    for (uint32_t oversampling : {0u, 3u})
    {
        PlanRequest request{640, 480, 100, 33};
        request.spectrumOversampling = oversampling;
        Plan plan;
        std::string error;
        EXPECT_FALSE(makePlan(request, &plan, &error));
        EXPECT_NE(error.find("oversampling"), std::string::npos) << error;
    }
}

TEST(Plan, KernelScaleIsTheSpanOverTheKernelsLargerExtent)
{
    // The formula of FftbKernelSpanUnit: span in pixels, or a fraction of the diagonal sqrt(W^2 + H^2);
    // sigma = span / max(Kw, Kh); extent ceil(sigma K), ceil(span) along the larger axis, at least 1.
    struct Case
    {
        FftbKernelSpanUnit unit;
        float span;
        uint32_t frameWidth, frameHeight, kernelWidth, kernelHeight;
        double spanPixels, sigma;
        uint32_t extentWidth, extentHeight;
    };
    const float nan = std::nanf("");
    const Case cases[] = {
        {FFTB_KERNEL_SPAN_NATIVE, nan, 200, 150, 64, 32, 64.0, 1.0, 64, 32},                     // span not read
        {FFTB_KERNEL_SPAN_NATIVE, 0.0f, 200, 150, 3, 4095, 4095.0, 1.0, 3, 4095},                // K x K, exactly
        {FFTB_KERNEL_SPAN_PIXELS, 96.5f, 200, 150, 64, 32, 96.5, 96.5 / 64, 97, 49},             // 48.25 up
        {FFTB_KERNEL_SPAN_PIXELS, 256.0f, 200, 150, 100, 100, 256.0, 2.56, 256, 256},            // not 257
        {FFTB_KERNEL_SPAN_FRAME_DIAGONAL, 0.25f, 200, 150, 32, 64, 62.5, 62.5 / 64, 32, 63},     // diagonal 250
        {FFTB_KERNEL_SPAN_FRAME_DIAGONAL, 0.25f, 400, 300, 64, 64, 125.0, 125.0 / 64, 125, 125}, // twice the frame
        {FFTB_KERNEL_SPAN_PIXELS, 0.25f, 200, 150, 8, 4, 0.25, 0.25 / 8, 1, 1},                  // never 0
        {FFTB_KERNEL_SPAN_PIXELS, 3.0e38f, 200, 150, 64, 64, double(3.0e38f), double(3.0e38f) / 64, UINT32_MAX,
         UINT32_MAX},
    };
    for (const Case& c : cases)
    {
        SCOPED_TRACE(std::to_string(c.unit) + " " + std::to_string(c.span));
        KernelScale scale;
        ASSERT_EQ(kernelScaleOf(c.unit, c.span, c.frameWidth, c.frameHeight, c.kernelWidth, c.kernelHeight, &scale),
                  "");
        EXPECT_DOUBLE_EQ(scale.spanPixels, c.spanPixels);
        EXPECT_DOUBLE_EQ(scale.sigma, c.sigma);
        EXPECT_EQ(scale.extentWidth, c.extentWidth);
        EXPECT_EQ(scale.extentHeight, c.extentHeight);
    }
    KernelScale scale;
    ASSERT_EQ(kernelScaleOf(FFTB_KERNEL_SPAN_FRAME_DIAGONAL, 0.1f, 3840, 2160, 256, 256, &scale), "");
    EXPECT_NEAR(scale.spanPixels, 440.58, 0.01); // sqrt(3840^2 + 2160^2) = 4405.8
    EXPECT_EQ(scale.extentWidth, 441u);
    ASSERT_EQ(kernelScaleOf(FFTB_KERNEL_SPAN_NATIVE, 0.0f, 200, 150, 64, 32, &scale), "");
    EXPECT_EQ(scale.sigma, 1.0) << "exactly";
}

TEST(Plan, KernelScaleRefusesAnUnknownUnitAndASpanNotFiniteAndPositive)
{
    const float refused[] = {0.0f,
                             -0.0f,
                             -3.0f,
                             -std::numeric_limits<float>::denorm_min(),
                             std::nanf(""),
                             std::numeric_limits<float>::infinity(),
                             -std::numeric_limits<float>::infinity()};
    for (const FftbKernelSpanUnit unit : {FFTB_KERNEL_SPAN_PIXELS, FFTB_KERNEL_SPAN_FRAME_DIAGONAL})
        for (const float span : refused)
        {
            KernelScale scale{7.0, 7.0, 7, 7};
            EXPECT_EQ(kernelScaleOf(unit, span, 200, 150, 64, 32, &scale), "kernelSpan: must be finite and > 0")
                << unit << " " << span;
            EXPECT_EQ(scale.extentWidth, 7u) << "left as it was";
        }
    for (const int unit : {int(FFTB_KERNEL_SPAN_FRAME_DIAGONAL) + 1, -1, INT32_MIN})
    {
        KernelScale scale;
        EXPECT_EQ(kernelScaleOf(FftbKernelSpanUnit(unit), 10.0f, 200, 150, 64, 32, &scale),
                  "kernelSpanUnit: unknown value")
            << unit;
    }
    // The smallest positive span is a kernel of one pixel.
    KernelScale scale;
    ASSERT_EQ(
        kernelScaleOf(FFTB_KERNEL_SPAN_PIXELS, std::numeric_limits<float>::denorm_min(), 200, 150, 64, 32, &scale), "");
    EXPECT_GT(scale.sigma, 0.0);
    EXPECT_EQ(scale.extentWidth, 1u);
    EXPECT_EQ(scale.extentHeight, 1u);
}

TEST(Plan, ScaledKernelLengthIsTheCeilingOfTheSpanAlongTheLargerAxisAndProportionalAlongTheOther)
{
    EXPECT_EQ(scaledKernelLength(64, 64, 0.0), 64u); // native
    EXPECT_EQ(scaledKernelLength(64, 64, 256.0), 256u);
    EXPECT_EQ(scaledKernelLength(32, 64, 256.0), 128u);
    EXPECT_EQ(scaledKernelLength(33, 64, 100.0), 52u); // 51.5625 up
    EXPECT_EQ(scaledKernelLength(64, 64, 100.2), 101u);
    EXPECT_EQ(scaledKernelLength(1, 64, 10.0), 1u); // never 0
    EXPECT_EQ(scaledKernelLength(64, 64, 0.01), 1u);
    // span / K * K rounds above the span for these; along the larger axis the span is used as it is.
    for (const uint32_t k : {3u, 7u, 100u, 255u, 1000u, 4095u})
        for (const double span : {100.0, 256.0, 4096.0})
            EXPECT_EQ(scaledKernelLength(k, k, span), uint32_t(span)) << k << " " << span;
    EXPECT_EQ(scaledKernelLength(64, 64, 1e300), UINT32_MAX);
}

TEST(Plan, AScaledKernelIsPaddedAsAKernelOfItsScaledExtent)
{
    for (const FftbPadding padding : {FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR})
        for (const FftbAxisOrder order : {FFTB_AXIS_ORDER_X_FIRST, FFTB_AXIS_ORDER_Y_FIRST})
            for (const auto& [unit, value] :
                 {std::pair{FFTB_KERNEL_SPAN_PIXELS, 150.0f}, std::pair{FFTB_KERNEL_SPAN_PIXELS, 17.3f},
                  std::pair{FFTB_KERNEL_SPAN_FRAME_DIAGONAL, 0.4f}})
            {
                PlanRequest request{640, 360, 64, 40, padding, order};
                setSpan(request, {unit, value});
                Plan scaled;
                std::string error;
                ASSERT_TRUE(makePlan(request, &scaled, &error)) << error;
                const double span = unit == FFTB_KERNEL_SPAN_PIXELS ? value : value * std::hypot(640.0, 360.0);
                const uint32_t width = uint32_t(std::ceil(span)), height = uint32_t(std::ceil(span * 40.0 / 64.0));
                EXPECT_DOUBLE_EQ(scaled.kernelScale, span / 64.0);
                Plan unscaled;
                ASSERT_TRUE(makePlan({640, 360, width, height, padding, order}, &unscaled, &error)) << error;
                const AxisPlan* axes[2][2] = {{&scaled.first, &unscaled.first}, {&scaled.second, &unscaled.second}};
                for (const auto& [a, b] : axes)
                {
                    EXPECT_EQ(a->scaledKernelLength, b->kernelLength);
                    EXPECT_EQ(a->paddedLength, b->paddedLength);
                    EXPECT_EQ(a->mirrorSplit, b->mirrorSplit);
                    // The kernel spectrum is the texels' own: the scale only changes where it is read.
                    EXPECT_EQ(a->spectrumLength, kDefaultSpectrumOversampling * pow2Ceil(a->kernelLength));
                    EXPECT_EQ(a->kernelCentre, a->kernelLength / 2);
                }
                EXPECT_EQ(scaled.first.kernelLength, order == FFTB_AXIS_ORDER_X_FIRST ? 64u : 40u);
            }
    Plan native;
    ASSERT_TRUE(makePlan({640, 360, 64, 40}, &native, nullptr));
    EXPECT_EQ(native.kernelScale, 1.0);
    EXPECT_EQ(native.first.scaledKernelLength, native.first.kernelLength);
}

TEST(Plan, MirrorPaddingCoversTheScaledKernelsReach)
{
    // A kernel of K texels scaled to K' pixels reads about K' / 2 pixels past the image and K' - 1 - K' / 2 before.
    for (const uint32_t length : {5u, 13u, 100u})
        for (const float span : {3.5f, 20.0f, 61.0f})
        {
            PlanRequest r{length, 1, 8, 1, FFTB_PADDING_MIRROR, FFTB_AXIS_ORDER_X_FIRST};
            setSpan(r, {FFTB_KERNEL_SPAN_PIXELS, span});
            Plan plan;
            ASSERT_TRUE(makePlan(r, &plan, nullptr));
            const AxisPlan& a = plan.first;
            const int64_t k = a.scaledKernelLength, c = k / 2;
            ASSERT_EQ(k, int64_t(std::ceil(span)));
            for (int64_t p = 0; p < length; ++p)
                for (int64_t q = p - (k - 1 - c); q <= p + c; ++q)
                {
                    const uint32_t wrapped = uint32_t((q % a.paddedLength + a.paddedLength) % a.paddedLength);
                    EXPECT_EQ(paddedSource(wrapped, a, FFTB_PADDING_MIRROR), int64_t(mirroredRepeat(q, length)))
                        << "L " << length << " K' " << k << " position " << q;
                }
        }
}

TEST(Plan, RefusesAKernelSpanThatIsNotFiniteAndPositiveOrTooLargeNamingIt)
{
    const auto refused = [](Span scale, FftbSpectrumMode mode = FFTB_SPECTRUM_MODE_RESAMPLED)
    {
        PlanRequest r{1280, 720, 256, 256, FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_AUTO, mode};
        setSpan(r, scale);
        Plan plan;
        std::string error;
        const bool planned = makePlan(r, &plan, &error);
        if (!planned)
        {
            EXPECT_NE(error.find("kernelSpan"), std::string::npos) << error;
        }
        return !planned;
    };
    EXPECT_TRUE(refused({FFTB_KERNEL_SPAN_PIXELS, 0.0f}));
    EXPECT_TRUE(refused({FFTB_KERNEL_SPAN_PIXELS, -3.0f}));
    EXPECT_TRUE(refused({FFTB_KERNEL_SPAN_PIXELS, std::nanf("")}));
    EXPECT_TRUE(refused({FFTB_KERNEL_SPAN_FRAME_DIAGONAL, INFINITY}));
    EXPECT_TRUE(refused({FFTB_KERNEL_SPAN_PIXELS, 4097.0f}));         // past FFTB_MAX_KERNEL_LENGTH
    EXPECT_TRUE(refused({FFTB_KERNEL_SPAN_FRAME_DIAGONAL, 3.0f}));    // 4406 pixels
    EXPECT_TRUE(refused({FFTB_KERNEL_SPAN_FRAME_DIAGONAL, 3.0e38f})); // overflows to infinity
    EXPECT_FALSE(refused({FFTB_KERNEL_SPAN_PIXELS, 512.0f}, FFTB_SPECTRUM_MODE_EXACT)) << "scaled in space";
    EXPECT_TRUE(refused({FftbKernelSpanUnit(7), 512.0f}));
    Plan plan;
    std::string error;
    PlanRequest r{1280, 720, 256, 256};
    setSpan(r, {FFTB_KERNEL_SPAN_PIXELS, 4096.0f});
    EXPECT_TRUE(makePlan(r, &plan, &error)) << error;
    r = {16000, 8, 64, 64};
    setSpan(r, {FFTB_KERNEL_SPAN_PIXELS, 1024.0f}); // 16000 + 512 > 16384
    EXPECT_FALSE(makePlan(r, &plan, &error));
    EXPECT_NE(error.find("image width: 16000 + scaled kernel/2"), std::string::npos) << error;
}

TEST(Plan, ScaledKernelsWithinTheMaximumKernelExtentNeedNoMoreScratch)
{
    // The plugin's rule: a scaled extent ceil(sigma K) up to the context's maximum kernel extent is planned like a
    // kernel of that extent, so scratchSizes of the maximum extents still bounds it.
    ScratchSizes sizes;
    std::string error;
    ASSERT_TRUE(scratchSizes(200, 150, 48, 40, FFTB_LENGTH_POLICY_MIXED_RADIX, &sizes, &error)) << error;
    for (uint32_t w = 1; w <= 200; w += 9)
        for (uint32_t h = 1; h <= 150; h += 13)
            for (const float span : {0.5f, 7.0f, 39.9f, 48.0f})
                for (FftbPadding padding : {FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR})
                    for (FftbAxisOrder order : {FFTB_AXIS_ORDER_X_FIRST, FFTB_AXIS_ORDER_Y_FIRST})
                    {
                        PlanRequest r{w, h, 16, 13, padding, order};
                        setSpan(r, {FFTB_KERNEL_SPAN_PIXELS, span});
                        Plan plan;
                        ASSERT_TRUE(makePlan(r, &plan, &error)) << error;
                        EXPECT_LE(scratchBytes(plan, 8), sizes.scratchBytes) << w << "x" << h;
                    }
}

TEST(Plan, ReducedResolutionPlansTheDownsampledFrameWithTheKernelAtItsReducedExtent)
{
    std::string error;
    for (const uint32_t f : {2u, 4u, 8u})
        for (const auto& [width, height] : {std::pair{64u, 48u}, std::pair{61u, 45u}, std::pair{1u, 9u}})
            for (const Span scale :
                 {Span{}, Span{FFTB_KERNEL_SPAN_PIXELS, 40.0f}, Span{FFTB_KERNEL_SPAN_FRAME_DIAGONAL, 0.25f}})
            {
                PlanRequest request{width, height, 20, 10, FFTB_PADDING_MIRROR, FFTB_AXIS_ORDER_X_FIRST};
                setSpan(request, scale);
                Plan full, reduced;
                ASSERT_TRUE(makePlan(request, &full, &error)) << error;
                request.reduction = f;
                ASSERT_TRUE(makePlan(request, &reduced, &error)) << error;
                EXPECT_EQ(full.reduction, 1u);
                EXPECT_EQ(reduced.reduction, f);
                EXPECT_EQ(full.first.frameLength, width);
                EXPECT_EQ(full.first.imageLength, width);
                EXPECT_EQ(reduced.first.frameLength, width);
                EXPECT_EQ(reduced.second.frameLength, height);
                EXPECT_EQ(reduced.first.imageLength, (width + f - 1) / f);
                EXPECT_EQ(reduced.second.imageLength, (height + f - 1) / f);
                // The span in frame pixels, as the full plan's, divided by f: so is sigma.
                EXPECT_DOUBLE_EQ(reduced.kernelScale, full.kernelScale / f);
                EXPECT_EQ(reduced.first.scaledKernelLength, scaledKernelLength(20, 20, 20.0 * full.kernelScale / f));
                EXPECT_EQ(reduced.second.scaledKernelLength, scaledKernelLength(10, 20, 20.0 * full.kernelScale / f));
                EXPECT_EQ(reduced.first.spectrumLength, full.first.spectrumLength) << "one spectrum serves both";
                EXPECT_GE(reduced.first.paddedLength, reduced.first.imageLength + reduced.first.scaledKernelLength - 1);
                // The bloom of the downsampled frame follows the intermediate: one 16-byte unit per texel.
                EXPECT_EQ(reducedBloomStart(reduced, 8), (intermediateElements(reduced) * 8 + 15) / 16);
                EXPECT_EQ(scratchBytes(reduced, 8), (reducedBloomStart(reduced, 8) +
                                                     uint64_t(reduced.first.imageLength) * reduced.second.imageLength) *
                                                        16);
            }
    PlanRequest odd{64, 48, 20, 10};
    odd.reduction = 3;
    Plan refused;
    EXPECT_FALSE(makePlan(odd, &refused, &error));
    EXPECT_EQ(error, "reduction: 3 is not 1, 2, 4 or 8");
    // Exact mode: the kernel scaled in space to its extent on the downsampled frame, transformed at its padded extent.
    PlanRequest exact{64, 48, 20, 10, FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_X_FIRST, FFTB_SPECTRUM_MODE_EXACT};
    exact.reduction = 2;
    Plan plan;
    ASSERT_TRUE(makePlan(exact, &plan, &error)) << error;
    EXPECT_DOUBLE_EQ(plan.kernelScale, 0.5);
    EXPECT_EQ(plan.first.spectrumLength, plan.first.paddedLength);
    EXPECT_EQ(placedKernelLength(plan, plan.first), 10u) << "20 texels over 10 pixels of the downsampled frame";
    EXPECT_EQ(placedKernelLength(plan, plan.second), 5u);
    EXPECT_GE(plan.first.paddedLength, 32u + 10 / 2);
}

TEST(Plan, ScratchSizesHoldEveryHalfResolutionFrameUpToTheMaximum)
{
    ScratchSizes sizes;
    std::string error;
    ASSERT_TRUE(scratchSizes(200, 150, 33, 20, FFTB_LENGTH_POLICY_MIXED_RADIX, &sizes, &error)) << error;
    for (uint32_t w = 1; w <= 200; w += 7)
        for (uint32_t h = 1; h <= 150; h += 11)
            for (FftbPadding padding : {FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR})
                for (FftbAxisOrder order : {FFTB_AXIS_ORDER_X_FIRST, FFTB_AXIS_ORDER_Y_FIRST})
                {
                    PlanRequest request{w, h, 33, 20, padding, order};
                    request.reduction = 2;
                    Plan plan;
                    ASSERT_TRUE(makePlan(request, &plan, &error)) << error;
                    EXPECT_LE(scratchBytes(plan, 8), sizes.scratchBytes) << w << "x" << h;
                }
}

} // namespace
} // namespace fftb
