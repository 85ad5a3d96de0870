// SPDX-License-Identifier: MIT
// Reduced-resolution bloom (FFTB_BLOOM_RESOLUTION_HALF, QUARTER, EIGHTH): against the double-precision reference of
// its own definition (downsample, resampled convolution at 1 / f of the kernel's extent, bilinear upsample) in every
// padding and axis order,
// on odd and even extents and in the composite modes; and its error against the full-resolution bloom on a sample
// photograph, the numbers docs/integration.md gives.
#include "gpu_test_support.h"
#include "image/image_io.h"
#include "psf/psf.h"
#include "psf/psf_generator.h"
#include "reference.h"
#include "settings/setting_names.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <string>
#include <tuple>

namespace fftb::test
{
namespace
{

struct HalfCase
{
    int width, height;
    FftbPadding padding;
    FftbAxisOrder axisOrder;
    FftbSpectrumInterpolation interpolation;
    FftbBloomResolution resolution = FFTB_BLOOM_RESOLUTION_HALF;
};

class HalfResolution : public ::testing::TestWithParam<HalfCase>
{
};

std::string halfName(const ::testing::TestParamInfo<HalfCase>& info)
{
    const HalfCase& c = info.param;
    std::string name = std::to_string(c.width) + "x" + std::to_string(c.height) + "_" +
                       settingName(c.padding, kPaddingNames) + "_" + settingName(c.axisOrder, kAxisOrderNames) + "_" +
                       settingName(c.interpolation, kInterpolationNames) + "_1_" +
                       std::to_string(1 << int(c.resolution));
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

// Keeps gtest from printing the parameters as raw bytes in test listings.
void PrintTo(const HalfCase& c, std::ostream* os)
{
    *os << halfName(::testing::TestParamInfo<HalfCase>(c, 0));
}

BloomSettings halfBloom(const HalfCase& c)
{
    BloomSettings s;
    s.plan.padding = c.padding;
    s.plan.axisOrder = c.axisOrder;
    s.kernel.spectrum =
        FFTB_SPECTRUM_MODE_RESAMPLED; // the interpolations at half scale; exact mode: scaled_kernel_test
    s.kernel.interpolation = c.interpolation;
    s.frame.output = FFTB_OUTPUT_MODE_BLOOM;
    s.plan.resolution = c.resolution;
    return s;
}

// The bloom alone: downsampling, the convolution at half scale and the upsampling, against referenceFor's model of
// them. Cubic and linear interpolation are simulated exactly by the reference, so fp32's tolerance holds.
TEST_P(HalfResolution, MatchesTheDownsampledReference)
{
    const HalfCase& c = GetParam();
    const BloomSettings s = halfBloom(c);
    const Texels frame = randomFrame(c.width, c.height, 7);
    Texels kernel = randomKernel(17, 13, 8);
    normalizePsf(kernel);
    const Texels gpu = runner().bloom(frame, kernel, s);
    const double error = relativeError(gpu, referenceFor(frame, kernel, s));
    std::printf("%s: %.2e of the reference's peak\n", describe(c.width, c.height, s).c_str(), error);
    EXPECT_LE(error, Tolerance::kFp32) << describe(c.width, c.height, s);
    // Not the full-resolution bloom: the reference of that is far from it.
    BloomSettings full = s;
    full.plan.resolution = FFTB_BLOOM_RESOLUTION_FULL;
    EXPECT_GT(relativeError(gpu, referenceFor(frame, kernel, full)), 100 * Tolerance::kFp32);
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

// Odd and even extents (the last column or row standing alone), each padding and axis order, and the second axis past
// the first's length.
INSTANTIATE_TEST_SUITE_P(
    Cases, HalfResolution,
    ::testing::Values(
        HalfCase{64, 48, FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_X_FIRST, FFTB_SPECTRUM_INTERPOLATION_CUBIC},
        HalfCase{61, 45, FFTB_PADDING_MIRROR, FFTB_AXIS_ORDER_Y_FIRST, FFTB_SPECTRUM_INTERPOLATION_CUBIC},
        HalfCase{37, 70, FFTB_PADDING_ZERO_NORMALIZED, FFTB_AXIS_ORDER_X_FIRST, FFTB_SPECTRUM_INTERPOLATION_LINEAR},
        HalfCase{50, 33, FFTB_PADDING_ZERO_NORMALIZED, FFTB_AXIS_ORDER_Y_FIRST, FFTB_SPECTRUM_INTERPOLATION_CUBIC},
        HalfCase{1, 9, FFTB_PADDING_MIRROR, FFTB_AXIS_ORDER_AUTO, FFTB_SPECTRUM_INTERPOLATION_CUBIC},
        // A quarter and an eighth: f x f boxes, remainders of 1 .. f - 1 texels.
        HalfCase{61, 46, FFTB_PADDING_MIRROR, FFTB_AXIS_ORDER_Y_FIRST, FFTB_SPECTRUM_INTERPOLATION_CUBIC,
                 FFTB_BLOOM_RESOLUTION_QUARTER},
        HalfCase{77, 70, FFTB_PADDING_ZERO_NORMALIZED, FFTB_AXIS_ORDER_X_FIRST, FFTB_SPECTRUM_INTERPOLATION_LINEAR,
                 FFTB_BLOOM_RESOLUTION_EIGHTH},
        HalfCase{50, 35, FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_AUTO, FFTB_SPECTRUM_INTERPOLATION_CUBIC,
                 FFTB_BLOOM_RESOLUTION_EIGHTH}),
    halfName);

// The composite modes at half resolution: the prefilter runs on the frame's texels before the downsampling, the
// composite on the frame's own texels with the upsampled, tinted bloom; alpha passes through.
TEST(HalfResolutionOutput, CompositesTheUpsampledBloomWithTheFrame)
{
    Texels frame = randomFrame(45, 31, 11);
    for (int y = 0; y < frame.height; ++y)
        for (int x = 0; x < frame.width; ++x)
            frame.at(x, y, 3) = float((x + y) % 5) / 5.0f;
    Texels kernel = randomKernel(11, 9, 12);
    normalizePsf(kernel);
    const Prefilter prefilter{0.6f, 0.3f, 20.0f};
    const std::array<double, 3> tint{1.5, 1.0, 0.5};
    for (const FftbOutputMode mode : {FFTB_OUTPUT_MODE_COMPOSITE, FFTB_OUTPUT_MODE_ADDITIVE})
    {
        BloomSettings s =
            halfBloom({45, 31, FFTB_PADDING_ZERO_NORMALIZED, FFTB_AXIS_ORDER_AUTO, FFTB_SPECTRUM_INTERPOLATION_CUBIC});
        s.frame.output = mode;
        s.frame.intensity = 0.7f;
        s.frame.prefilter = toPublic(prefilter);
        s.frame.tint = {float(tint[0]), float(tint[1]), float(tint[2])};
        const Texels gpu = runner().bloom(frame, kernel, s);
        const Texels bloom = referenceFor(referencePrefilter(frame, prefilter), kernel, s);
        const Texels expected = referenceOutput(frame, bloom, prefilter, mode, s.frame.intensity, tint);
        EXPECT_LE(relativeError(gpu, expected), Tolerance::kFp32) << describe(frame.width, frame.height, s);
        EXPECT_TRUE(sameAlpha(gpu, frame)) << "alpha passes through";
    }
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

/// How far the half-resolution bloom is from the full-resolution one, both from the GPU with the same settings.
struct HalfError
{
    double peak = 0.0;   ///< max |half - full| over texels and R, G, B, relative to the full bloom's peak
    double rms = 0.0;    ///< the RMS of the same
    double dimRms = 0.0; ///< in dim regions (full bloom below 1 % of its peak): RMS of |half - full| / full
    double dimMax = 0.0; ///< there, the largest |half - full| / full
};

HalfError halfError(const Texels& half, const Texels& full)
{
    double peak = 0.0;
    for (int y = 0; y < full.height; ++y)
        for (int x = 0; x < full.width; ++x)
            for (int c = 0; c < 3; ++c)
                peak = std::max(peak, std::fabs(double(full.at(x, y, c))));
    HalfError e;
    double squares = 0.0, dimSquares = 0.0;
    long count = 0, dimCount = 0;
    for (int y = 0; y < full.height; ++y)
        for (int x = 0; x < full.width; ++x)
            for (int c = 0; c < 3; ++c)
            {
                const double f = full.at(x, y, c), d = std::fabs(double(half.at(x, y, c)) - f);
                e.peak = std::max(e.peak, d / peak);
                squares += (d / peak) * (d / peak);
                ++count;
                if (f > 0.0 && f < 0.01 * peak)
                {
                    e.dimMax = std::max(e.dimMax, d / f);
                    dimSquares += (d / f) * (d / f);
                    ++dimCount;
                }
            }
    e.rms = std::sqrt(squares / double(count));
    e.dimRms = dimCount ? std::sqrt(dimSquares / double(dimCount)) : 0.0;
    return e;
}

// Where nothing is finer than 2 frame pixels, half resolution comes close to full resolution: a Gaussian light of
// standard deviation 6 pixels bloomed with a Gaussian kernel of deviation 8 (a bloom of deviation 10) differ by 1 %
// of the peak, what the 2 x 2 box and the bilinear upsampling blur (about f'' h^2 / 8 with h = 2 pixels, 0.5 % at the
// peak, per filter). A misplaced sample (a half-pixel shift in the downsampling, the kernel's scale or the upsampling)
// would add 0.5 max |f'| = 3 % of the peak.
TEST(HalfResolutionError, NoneWithoutDetailFinerThanTwoPixels)
{
    constexpr double kBound = 1.5e-2; // measured 9.9e-3 on lavapipe
    Texels frame(96, 80, 4);
    for (int y = 0; y < frame.height; ++y)
        for (int x = 0; x < frame.width; ++x)
        {
            const double dx = (x - 40.3) / 6.0, dy = (y - 37.8) / 6.0;
            for (int c = 0; c < 3; ++c)
                frame.at(x, y, c) = float(100.0 * std::exp(-0.5 * (dx * dx + dy * dy)) / (c + 1));
            frame.at(x, y, 3) = 1.0f;
        }
    Texels kernel(64, 64, 3);
    for (int y = 0; y < kernel.height; ++y)
        for (int x = 0; x < kernel.width; ++x)
        {
            const double dx = (x - 32) / 8.0, dy = (y - 32) / 8.0;
            for (int c = 0; c < 3; ++c)
                kernel.at(x, y, c) = float(std::exp(-0.5 * (dx * dx + dy * dy)));
        }
    normalizePsf(kernel);
    BloomSettings s;
    s.frame.output = FFTB_OUTPUT_MODE_BLOOM;
    s.plan.padding = FFTB_PADDING_MIRROR;
    const Texels full = runner().bloom(frame, kernel, s);
    s.plan.resolution = FFTB_BLOOM_RESOLUTION_HALF;
    const double error = relativeError(runner().bloom(frame, kernel, s), full);
    std::printf("Gaussian light and kernel: half against full resolution %.2e of the peak\n", error);
    EXPECT_LE(error, kBound);
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

// The measured price of half resolution on a 320 x 240 crop of CandleGlass (its flame and glass highlights) with the
// default PSF of 128 texels, bloom only: the PSF's core and Airy rings (radius 2 texels) are finer than the
// downsampled frame resolves. The bounds are about twice the values measured on lavapipe (printed).
TEST(HalfResolutionError, AgainstFullResolutionOnASamplePhotograph)
{
    constexpr double kPeakBound = 0.2, kRmsBound = 5e-3, kDimRmsBound = 0.25;
    const char* dir = std::getenv("FFTBLOOM_SAMPLES_DIR");
    const std::string path = std::string(dir ? dir : FFTBLOOM_SAMPLES_DIR) + "/CandleGlass.exr";
    ASSERT_TRUE(std::filesystem::exists(path)) << path << " missing: run assets/fetch_samples.sh";
    const Texels frame = cropAroundBrightest(toRgba(readImage(path)), 320, 240);
    Texels kernel = defaultPsf(128);
    normalizePsf(kernel);
    BloomSettings s;
    s.frame.output = FFTB_OUTPUT_MODE_BLOOM;
    const Texels full = runner().bloom(frame, kernel, s);
    s.plan.resolution = FFTB_BLOOM_RESOLUTION_HALF;
    const Texels half = runner().bloom(frame, kernel, s);
    const HalfError e = halfError(half, full);
    std::printf("half against full resolution, CandleGlass 320x240, default PSF 128: max %.3g, RMS %.3g of the peak; "
                "dim regions (< 1 %% of the peak) RMS %.3g, max %.3g of the local value\n",
                e.peak, e.rms, e.dimRms, e.dimMax);
    EXPECT_LE(e.peak, kPeakBound);
    EXPECT_LE(e.rms, kRmsBound);
    EXPECT_LE(e.dimRms, kDimRmsBound);
    EXPECT_GT(e.peak, 0.0) << "the two resolutions cannot agree exactly";
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

} // namespace
} // namespace fftb::test
