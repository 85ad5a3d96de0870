// Planning math: padded lengths, mirror split points, the FFT length limit and the axis-order choice.
#include "plan.h"

#include <gtest/gtest.h>

#include <vector>

namespace fftb
{
namespace
{

TEST(Plan, FftLengthsAreTheProductsOfTwoThreeFiveAndSevenUpTo4096)
{
    for (const uint32_t n : {2u, 3u, 5u, 7u, 15u, 45u, 105u, 243u, 1215u, 2187u, 2430u, 3375u, 4096u})
        EXPECT_TRUE(isFftLength(n)) << n;
    for (const uint32_t n : {0u, 1u, 11u, 13u, 22u, 4097u, 6144u})
        EXPECT_FALSE(isFftLength(n)) << n;
    for (const uint32_t n : {2u, 6u, 1215u, 2048u, 3375u, 4032u})
    {
        uint32_t product = 1;
        for (const uint32_t r : radicesOf(n))
            product *= r;
        EXPECT_EQ(product, n) << "radices of " << n;
    }
    EXPECT_EQ(radicesOf(4096), (std::vector<uint32_t>{8, 8, 8, 8}));
    EXPECT_EQ(radicesOf(1215), (std::vector<uint32_t>{3, 3, 3, 3, 3, 5}));
    const TwiddleTables& t = twiddleTables();
    ASSERT_EQ(t.lengths.size(), t.offsets.size());
    EXPECT_EQ(t.offsetOf(2), 0u);
    EXPECT_EQ(t.offsetOf(3), 2u);
    EXPECT_EQ(t.offsetOf(4096) + 4096, t.totalElements);
}

TEST(Plan, PaddedLengthIsTheCheapestFftLengthThatKeepsWrapAroundOut)
{
    // Zero padding needs L + floor(K / 2), mirror L + K - 1 (DESIGN.md section 3, derived in plan.h).
    for (const Padding padding : {Padding::Zero, Padding::Mirror})
        for (const uint32_t length : {1u, 19u, 37u, 360u, 640u, 720u, 810u, 1000u, 1080u, 1920u, 2160u})
            for (const uint32_t kernel : {8u, 64u, 255u, 256u, 512u})
                for (const bool even : {false, true})
                {
                    const uint32_t needed = length + (padding == Padding::Zero ? kernel / 2 : kernel - 1);
                    const uint32_t n = paddedLength(length, kernel, padding, even);
                    if (needed > kMaxFftLength)
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
    EXPECT_EQ(paddedLength(1080, 256, Padding::Zero, true), 1280u); // 1208 needed: 70% less work than 2048
    EXPECT_EQ(paddedLength(1080, 256, Padding::Zero, false), 1225u);
    EXPECT_EQ(paddedLength(1920, 256, Padding::Zero, true), 2048u); // exactly 2048
    EXPECT_EQ(paddedLength(1, 1, Padding::Zero, true), 2u);         // at least 2
    EXPECT_EQ(paddedLength(4000, 256, Padding::Zero, true), 0u);    // 4128 > 4096
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
            PlanRequest r{length, 1, kernel, 1, Padding::Mirror, AxisOrder::XFirst, SpectrumMode::Exact};
            Plan plan;
            ASSERT_TRUE(makePlan(r, &plan, nullptr));
            const AxisPlan& a = plan.first;
            const int64_t c = kernel / 2;
            for (int64_t p = 0; p < length; ++p)
                for (int64_t q = p - (kernel - 1 - c); q <= p + c; ++q)
                {
                    const uint32_t wrapped = uint32_t((q % a.paddedLength + a.paddedLength) % a.paddedLength);
                    EXPECT_EQ(paddedSource(wrapped, a, Padding::Mirror), int64_t(mirroredRepeat(q, length)))
                        << "L " << length << " K " << kernel << " position " << q;
                }
            EXPECT_EQ(paddedSource(length, a, Padding::Zero), -1);
        }
}

TEST(Plan, SpectrumLengthIsThePaddedLengthInExactModeAndTheKernelsOwnWhenResampled)
{
    Plan plan;
    ASSERT_TRUE(
        makePlan({640, 360, 200, 64, Padding::Zero, AxisOrder::XFirst, SpectrumMode::Resampled}, &plan, nullptr));
    EXPECT_EQ(plan.first.spectrumLength, 256u);
    EXPECT_EQ(plan.second.spectrumLength, 64u);
    EXPECT_EQ(plan.first.kernelCentre, 100u);
    ASSERT_TRUE(makePlan({640, 360, 200, 64, Padding::Zero, AxisOrder::XFirst, SpectrumMode::Exact}, &plan, nullptr));
    EXPECT_EQ(plan.first.spectrumLength, plan.first.paddedLength);
    EXPECT_EQ(plan.second.spectrumLength, plan.second.paddedLength);
    EXPECT_EQ(plan.halfSpectrumLines(), plan.first.paddedLength / 2 + 1);
}

TEST(Plan, AxisOrderIsForcedOrChosenByCost)
{
    Plan plan;
    for (const auto& [w, h] : {std::pair{1280u, 720u}, std::pair{100u, 2000u}, std::pair{2000u, 100u}})
    {
        ASSERT_TRUE(makePlan({w, h, 256, 256, Padding::Zero, AxisOrder::XFirst}, &plan, nullptr));
        EXPECT_TRUE(plan.firstAxisIsX);
        const double xFirst = costOf(plan.first, plan.second);
        ASSERT_TRUE(makePlan({w, h, 256, 256, Padding::Zero, AxisOrder::YFirst}, &plan, nullptr));
        EXPECT_FALSE(plan.firstAxisIsX);
        const double yFirst = costOf(plan.first, plan.second);
        ASSERT_TRUE(makePlan({w, h, 256, 256, Padding::Zero, AxisOrder::Auto}, &plan, nullptr));
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
    EXPECT_NE(error.find("kernel extent"), std::string::npos) << error;
    EXPECT_FALSE(makePlan({5000, 10, 8, 8}, &plan, &error));
    EXPECT_NE(error.find("image width: 5000"), std::string::npos) << error;
    EXPECT_NE(error.find("4096"), std::string::npos) << error;
    EXPECT_FALSE(makePlan({10, 3900, 8, 512, Padding::Mirror}, &plan, &error));
    EXPECT_NE(error.find("image height: 3900"), std::string::npos) << error;
    EXPECT_FALSE(makePlan({10, 10, 8, 8192}, &plan, &error));
    EXPECT_NE(error.find("kernel extent"), std::string::npos) << error;
}

} // namespace
} // namespace fftb
