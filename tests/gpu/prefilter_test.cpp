// SPDX-License-Identifier: MIT
// The prefilter (threshold, soft knee, clamp) and the three output modes on the GPU against the double-precision
// reference, and the energy the composite keeps.
#include "gpu_test_support.h"
#include "plan.h"
#include "psf/psf.h"
#include "reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <ostream>
#include <string>
#include <tuple>

namespace fftb::test
{
namespace
{

const char* nameOf(FftbOutputMode mode)
{
    return mode == FFTB_OUTPUT_MODE_BLOOM ? "bloom" : mode == FFTB_OUTPUT_MODE_COMPOSITE ? "composite" : "additive";
}

std::string prefilterText(const Prefilter& p)
{
    return "threshold " + std::to_string(p.threshold) + ", knee " + std::to_string(p.knee) + ", clamp " +
           std::to_string(p.clamp);
}

/// A symmetric Gaussian per channel, unit sum: with mirror padding its bloom keeps each channel's total.
Texels symmetricKernel(int k)
{
    Texels kernel(k, k, 3);
    const int c = k / 2;
    for (int y = 0; y < k; ++y)
        for (int x = 0; x < k; ++x)
            for (int ch = 0; ch < 3; ++ch)
                kernel.at(x, y, ch) = float(std::exp(-((x - c) * (x - c) + (y - c) * (y - c)) / (30.0 * (ch + 1))));
    normalizePsf(kernel);
    return kernel;
}

using PrefilterParam = std::tuple<FftbOutputMode, FftbPadding>;

class PrefilterModes : public ::testing::TestWithParam<PrefilterParam>
{
};

// Random HDR frame (values in [0, 1], a few texels at 50): thresholds below, inside and above most values, with and
// without a knee and a clamp, against reference(prefilter(frame)) and the output mode's formula.
TEST_P(PrefilterModes, MatchReferenceOfThePrefilteredFrame)
{
    const auto& [mode, padding] = GetParam();
    Texels frame = randomFrame(61, 37, 21);
    for (int y = 0; y < frame.height; ++y)
        for (int x = 0; x < frame.width; ++x)
            frame.at(x, y, 3) = float(x * y % 7) / 7.0f;
    Texels kernel = randomKernel(15, 11, 22);
    normalizePsf(kernel);
    for (const Prefilter& prefilter : {Prefilter{0.5f, 0.0f, 0.0f}, Prefilter{0.6f, 0.3f, 0.0f},
                                       Prefilter{0.8f, 0.8f, 20.0f}, Prefilter{0.0f, 0.0f, 0.7f}})
    {
        BloomSettings s;
        s.plan.padding = padding;
        s.kernel.spectrum = FFTB_SPECTRUM_MODE_EXACT;
        s.frame.output = mode;
        s.frame.intensity = 0.4f;
        s.frame.prefilter = toPublic(prefilter);
        const Texels gpu = runner().bloom(frame, kernel, s);
        const Texels bloom = referenceConvolution(referencePrefilter(frame, prefilter), kernel, padding);
        const Texels expected = referenceOutput(frame, bloom, prefilter, mode, s.frame.intensity);
        EXPECT_LE(relativeError(gpu, expected), Tolerance::kFp32)
            << describe(frame.width, frame.height, s) << ", " << nameOf(mode) << ", " << prefilterText(prefilter);
        EXPECT_TRUE(sameAlpha(gpu, frame)) << "alpha passes through";
    }
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

// The tint multiplies the bloom in every output mode, intensity above 1 included, with the default padding
// (normalized convolution) and a prefilter: against referenceOutput's formula with the tint.
TEST(Tint, MultipliesTheBloomInEveryOutputMode)
{
    const Texels frame = randomFrame(45, 31, 31);
    Texels kernel = randomKernel(11, 9, 32);
    normalizePsf(kernel);
    const Prefilter prefilter{0.4f, 0.2f, 0.0f};
    const Texels bloom =
        referenceConvolutionFor(referencePrefilter(frame, prefilter), kernel, FFTB_PADDING_ZERO_NORMALIZED);
    for (FftbOutputMode mode : {FFTB_OUTPUT_MODE_BLOOM, FFTB_OUTPUT_MODE_COMPOSITE, FFTB_OUTPUT_MODE_ADDITIVE})
    {
        BloomSettings s;
        s.kernel.spectrum = FFTB_SPECTRUM_MODE_EXACT;
        s.frame.output = mode;
        s.frame.intensity = 1.5f;
        s.frame.tint = {2.0f, 0.5f, 0.0f};
        s.frame.prefilter = toPublic(prefilter);
        const Texels expected = referenceOutput(frame, bloom, prefilter, mode, s.frame.intensity, {2.0, 0.5, 0.0});
        EXPECT_LE(relativeError(runner().bloom(frame, kernel, s), expected), Tolerance::kFp32) << nameOf(mode);
    }
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

std::string prefilterName(const ::testing::TestParamInfo<PrefilterParam>& param)
{
    const auto& [mode, padding] = param.param;
    return std::string(nameOf(mode)) + (padding != FFTB_PADDING_MIRROR ? "_zero" : "_mirror");
}

} // namespace
} // namespace fftb::test

// In the namespace of the parameters' types (the public enums: the global one), where gtest looks: test listings print
// bloom_zero and the like.
static void PrintTo(const std::tuple<FftbOutputMode, FftbPadding>& param, std::ostream* os)
{
    *os << fftb::test::prefilterName(::testing::TestParamInfo<fftb::test::PrefilterParam>(param, 0));
}

namespace fftb::test
{
namespace
{

INSTANTIATE_TEST_SUITE_P(Modes, PrefilterModes,
                         ::testing::Combine(::testing::Values(FFTB_OUTPUT_MODE_BLOOM, FFTB_OUTPUT_MODE_COMPOSITE,
                                                              FFTB_OUTPUT_MODE_ADDITIVE),
                                            ::testing::Values(FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR)),
                         prefilterName);

// The energy-conserving composite: out = in + intensity * (bloom(p) - p) takes out exactly the light it spreads, so
// with mirror padding (no light lost past the edges) and a symmetric unit-sum kernel each channel's total is the
// input's, whatever the prefilter and the intensity. The additive composite adds intensity * sum(p).
TEST(Composite, EnergyConservingCompositeKeepsEachChannelsTotal)
{
    const Texels frame = randomFrame(72, 45, 31);
    const Texels kernel = symmetricKernel(17);
    for (const Prefilter& prefilter :
         {Prefilter{}, Prefilter{0.3f, 0.0f, 0.0f}, Prefilter{0.7f, 0.5f, 0.0f}, Prefilter{0.2f, 0.1f, 5.0f}})
        for (float intensity : {0.25f, 1.0f})
        {
            BloomSettings s;
            s.plan.padding = FFTB_PADDING_MIRROR;
            s.kernel.spectrum = FFTB_SPECTRUM_MODE_EXACT;
            s.frame.output = FFTB_OUTPUT_MODE_COMPOSITE;
            s.frame.intensity = intensity;
            s.frame.prefilter = toPublic(prefilter);
            const Texels composite = runner().bloom(frame, kernel, s);
            s.frame.output = FFTB_OUTPUT_MODE_ADDITIVE;
            const Texels additive = runner().bloom(frame, kernel, s);
            const Texels p = referencePrefilter(frame, prefilter);
            for (int ch = 0; ch < 3; ++ch)
            {
                const double in = channelSum(frame, ch);
                EXPECT_NEAR(channelSum(composite, ch) / in, 1.0, 1e-5)
                    << prefilterText(prefilter) << ", intensity " << intensity << ", channel " << ch;
                EXPECT_NEAR(channelSum(additive, ch) / (in + intensity * channelSum(p, ch)), 1.0, 1e-5)
                    << prefilterText(prefilter) << ", intensity " << intensity << ", channel " << ch;
            }
        }
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

// With no prefilter the composite is the plugin's former in + intensity * (bloom - in), bit for bit the same as
// with the prefilter's fields at zero, and a clamp above every value changes nothing.
TEST(Prefilter, ZeroAndInactiveSettingsLeaveTheBloomUnchanged)
{
    const Texels frame = randomFrame(40, 33, 41);
    Texels kernel = randomKernel(9, 9, 42);
    normalizePsf(kernel);
    BloomSettings s;
    s.kernel.spectrum = FFTB_SPECTRUM_MODE_EXACT;
    s.frame.intensity = 0.5f;
    const Texels plain = runner().bloom(frame, kernel, s);
    s.frame.prefilter.clamp = 1000.0f;
    const Texels clamped = runner().bloom(frame, kernel, s);
    EXPECT_EQ(plain.values, clamped.values);
    const Texels bloom = referenceConvolutionFor(frame, kernel, s.plan.padding);
    Texels expected(frame.width, frame.height, 3);
    for (int y = 0; y < frame.height; ++y)
        for (int x = 0; x < frame.width; ++x)
            for (int ch = 0; ch < 3; ++ch)
                expected.at(x, y, ch) = frame.at(x, y, ch) + 0.5f * (bloom.at(x, y, ch) - frame.at(x, y, ch));
    EXPECT_LE(relativeError(plain, expected), Tolerance::kFp32);
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

} // namespace
} // namespace fftb::test
