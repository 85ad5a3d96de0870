// Planning math: padded lengths, mirror split points, the FFT length limit and the axis-order choice.
#include "plan.h"

#include <gtest/gtest.h>

namespace fftb
{
namespace
{

TEST(Plan, PaddedLengthIsTheSmallestPowerOfTwoThatKeepsWrapAroundOut)
{
    // Zero padding: L + floor(K / 2); mirror: L + K - 1 (DESIGN.md section 3, derived in plan.h).
    EXPECT_EQ(paddedLength(1280, 256, Padding::Zero), 2048u);   // 1408
    EXPECT_EQ(paddedLength(1920, 256, Padding::Zero), 2048u);   // 2048 exactly
    EXPECT_EQ(paddedLength(1792, 256, Padding::Zero), 2048u);   // exactly 1920
    EXPECT_EQ(paddedLength(1920, 256, Padding::Mirror), 4096u); // 2175
    EXPECT_EQ(paddedLength(1793, 511, Padding::Mirror), 4096u); // 2303
    EXPECT_EQ(paddedLength(1538, 511, Padding::Mirror), 2048u); // 2048 exactly
    EXPECT_EQ(paddedLength(1, 1, Padding::Zero), 2u);           // at least 2: the real-packed pass needs pairs
    EXPECT_EQ(paddedLength(4000, 256, Padding::Zero), 0u);      // 4128 > 4096
    EXPECT_EQ(paddedLength(3968, 256, Padding::Zero), 4096u);   // 4096 exactly
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
    // 720p with a 256 kernel: y first is the cheaper order, as measured in seeds/000 (0.57 vs 0.73 ms).
    ASSERT_TRUE(makePlan({1280, 720, 256, 256}, &plan, nullptr));
    EXPECT_FALSE(plan.firstAxisIsX);
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
