// SPDX-License-Identifier: MIT
// Kernel scale (FftbBloomPlanCreateInfo::kernelSpanUnit, kernelSpan): the scaled resampled bloom against the
// double-precision reference, a scaled Gaussian against a wider one transformed exactly, and the frame-diagonal unit's
// footprint across resolutions.
#include "gpu_test_support.h"
#include "plan.h"
#include "psf/psf.h"
#include "reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>
#include <tuple>

namespace fftb::test
{
namespace
{

/// A unit-sum Gaussian of `width` x `height` texels, standard deviations `sx`, `sy` texels, centred on texel
/// (width / 2, height / 2), the same in R, G and B.
Texels gaussianKernel(int width, int height, double sx, double sy)
{
    Texels kernel(width, height, 3);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
        {
            const double dx = (x - width / 2) / sx, dy = (y - height / 2) / sy;
            for (int c = 0; c < 3; ++c)
                kernel.at(x, y, c) = float(std::exp(-0.5 * (dx * dx + dy * dy)));
        }
    normalizePsf(kernel);
    return kernel;
}

BloomSettings scaledBloom(FftbPadding padding, KernelSpan scale, FftbSpectrumInterpolation interpolation)
{
    BloomSettings s;
    s.plan.padding = padding;
    s.frame.output = FFTB_OUTPUT_MODE_BLOOM;
    s.kernel.spectrum = FFTB_SPECTRUM_MODE_RESAMPLED;
    s.kernel.interpolation = interpolation;
    s.plan.kernelSpan = scale;
    return s;
}

/// sigma = span / max(Kw, Kh), written out from FftbBloomPlanCreateInfo::kernelSpan's documentation.
double expectedSigma(const KernelSpan& scale, int width, int height, int kernelWidth, int kernelHeight)
{
    const double span = scale.unit == FFTB_KERNEL_SPAN_PIXELS
                            ? double(scale.value)
                            : double(scale.value) * std::sqrt(double(width) * width + double(height) * height);
    return span / std::max(kernelWidth, kernelHeight);
}

// A 64 x 48 frame (diagonal 80) with a 16 x 12 random kernel: the scales below give sigma < 1 and sigma > 1 in both
// units. Sigma > 1 reads past the stored spectrum's Nyquist, where the scaled spectrum must be zero.
constexpr int kWidth = 64, kHeight = 48, kKernelWidth = 16, kKernelHeight = 12;

/// A kernel scale as a test parameter (a type of this file, so that gtest finds PrintTo below).
struct ScaleCase
{
    KernelSpan scale;
};

using ScaleParam = std::tuple<ScaleCase, FftbPadding, FftbSpectrumInterpolation>;

class ScaledResampledBloom : public ::testing::TestWithParam<ScaleParam>
{
};

std::string scaleName(const ::testing::TestParamInfo<ScaleParam>& param)
{
    const auto& [c, padding, interpolation] = param.param;
    const KernelSpan& scale = c.scale;
    const double sigma = expectedSigma(scale, kWidth, kHeight, kKernelWidth, kKernelHeight);
    return std::string(scale.unit == FFTB_KERNEL_SPAN_PIXELS ? "pixels" : "diagonal") +
           (sigma < 1.0 ? "_shrunk" : "_enlarged") + (padding != FFTB_PADDING_MIRROR ? "_zero" : "_mirror") +
           (interpolation == FFTB_SPECTRUM_INTERPOLATION_CUBIC ? "_cubic" : "_linear");
}

// Keeps gtest from printing the parameters as raw bytes in test listings.
void PrintTo(const ScaleParam& param, std::ostream* os)
{
    *os << scaleName(::testing::TestParamInfo<ScaleParam>(param, 0));
}

TEST_P(ScaledResampledBloom, MatchesReference)
{
    const auto& [c, padding, interpolation] = GetParam();
    const KernelSpan& scale = c.scale;
    const BloomSettings s = scaledBloom(padding, scale, interpolation);
    const Texels frame = randomFrame(kWidth, kHeight, 5);
    Texels kernel = randomKernel(kKernelWidth, kKernelHeight, 13);
    normalizePsf(kernel);

    PlanRequest request{kWidth, kHeight, kKernelWidth, kKernelHeight, padding};
    request.kernelSpanUnit = scale.unit;
    request.kernelSpan = scale.value;
    Plan plan;
    std::string error;
    ASSERT_TRUE(makePlan(request, &plan, &error)) << error;
    const double sigma = expectedSigma(scale, kWidth, kHeight, kKernelWidth, kKernelHeight);
    EXPECT_DOUBLE_EQ(plan.kernelScale, sigma);

    const Texels gpu = runner().bloom(frame, kernel, s);
    const Texels reference = referenceSpectralConvolution(frame, kernel, plan, 0.0, interpolation);
    const double measured = relativeError(gpu, reference);
    std::printf("%s (sigma %.4f): %.2e of the reference's peak\n", describe(kWidth, kHeight, s).c_str(), sigma,
                measured);
    EXPECT_LE(measured, Tolerance::kFp32) << describe(kWidth, kHeight, s) << " (sigma " << sigma << ")";
    // The scale must change the result: against the unscaled bloom the difference is far above the tolerance.
    const Texels native = referenceFor(frame, kernel, scaledBloom(padding, {}, interpolation));
    EXPECT_GT(relativeError(gpu, native), 100 * Tolerance::kFp32);
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

INSTANTIATE_TEST_SUITE_P(Scales, ScaledResampledBloom,
                         ::testing::Combine(::testing::Values(ScaleCase{{FFTB_KERNEL_SPAN_PIXELS, 10.0f}},
                                                              ScaleCase{{FFTB_KERNEL_SPAN_PIXELS, 37.0f}},
                                                              ScaleCase{{FFTB_KERNEL_SPAN_FRAME_DIAGONAL, 0.1f}},
                                                              ScaleCase{{FFTB_KERNEL_SPAN_FRAME_DIAGONAL, 0.45f}}),
                                            ::testing::Values(FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR),
                                            ::testing::Values(FFTB_SPECTRUM_INTERPOLATION_CUBIC,
                                                              FFTB_SPECTRUM_INTERPOLATION_LINEAR)),
                         scaleName);

// The physical meaning, checked without the reference's spectral math: a Gaussian of standard deviation s texels,
// scaled by sigma, is the Gaussian of standard deviation sigma * s (its spectrum exp(-2 pi^2 s^2 f^2) at sigma f).
// The wider one is sampled directly and convolved in exact mode. What separates the two is the resampled spectrum's
// interpolation (docs/kernels.md, "Spectrum resampling"): the Gaussian keeps nearly all its light within S / 8 of its
// centre, where cubic interpolation dims it by under 0.4 %; the measured difference is about 1e-4 of the peak.
TEST(KernelScale, ScaledGaussianIsTheWiderGaussian)
{
    constexpr double kTolerance = 5e-4; // of the exact bloom's peak
    constexpr int kSize = 128;
    constexpr double kDeviation = 4.0;
    const Texels frame = randomFrame(120, 90, 21);
    const Texels kernel = gaussianKernel(kSize, kSize, kDeviation, kDeviation);
    for (const double sigma : {0.5, 1.5, 2.0})
    {
        BloomSettings s = scaledBloom(FFTB_PADDING_MIRROR, {FFTB_KERNEL_SPAN_PIXELS, float(sigma * kSize)},
                                      FFTB_SPECTRUM_INTERPOLATION_CUBIC);
        const Texels scaled = runner().bloom(frame, kernel, s);
        // +-6 deviations of the wider Gaussian hold all but 1e-8 of it.
        const int wide = 2 * int(std::ceil(6.0 * sigma * kDeviation)) + 1;
        BloomSettings exact = scaledBloom(FFTB_PADDING_MIRROR, {}, FFTB_SPECTRUM_INTERPOLATION_CUBIC);
        exact.kernel.spectrum = FFTB_SPECTRUM_MODE_EXACT;
        const Texels wider =
            runner().bloom(frame, gaussianKernel(wide, wide, sigma * kDeviation, sigma * kDeviation), exact);
        const double measured = relativeError(scaled, wider);
        std::printf("sigma %.2f: Gaussian of %.0f texels scaled against %.0f texels exact: %.2e of the peak\n", sigma,
                    kDeviation, sigma * kDeviation, measured);
        EXPECT_LE(measured, kTolerance) << "sigma " << sigma;
    }
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

/// The width of the light in channel 0 within `halfWidth` x `halfHeight` pixels of (cx, cy): the square root of the
/// second moment about its centroid, along x and along y.
struct Spread
{
    double x = 0.0, y = 0.0;
};

Spread spreadOf(const Texels& t, int cx, int cy, int halfWidth, int halfHeight)
{
    double total = 0.0, mx = 0.0, my = 0.0, xx = 0.0, yy = 0.0;
    for (int pass = 0; pass < 2; ++pass)
        for (int y = cy - halfHeight; y <= cy + halfHeight; ++y)
            for (int x = cx - halfWidth; x <= cx + halfWidth; ++x)
            {
                const double v = t.at(x, y, 0);
                if (pass == 0)
                {
                    total += v;
                    mx += v * x;
                    my += v * y;
                }
                else
                {
                    xx += v * (x - mx / total) * (x - mx / total);
                    yy += v * (y - my / total) * (y - my / total);
                }
            }
    return {std::sqrt(xx / total), std::sqrt(yy / total)};
}

// Resolution independence: the same fraction of the diagonal at 200 x 150 and at 400 x 300 spreads a point over twice
// the width, along both axes; an anisotropic kernel shows that the scale is one factor for both. The moments are taken
// over the scaled kernel's own extent: the resampled spectrum's faint copies of the kernel, sigma S pixels away
// (docs/kernels.md, "Spectrum resampling"), would weigh in with the square of that distance.
TEST(KernelScale, FrameDiagonalKeepsTheRelativeFootprintAcrossResolutions)
{
    constexpr double kTolerance = 1e-3; // relative, on the ratio of the widths
    constexpr int kPsfWidth = 64, kPsfHeight = 48;
    constexpr double kDeviationX = 6.0, kDeviationY = 3.0;
    const Texels kernel = gaussianKernel(kPsfWidth, kPsfHeight, kDeviationX, kDeviationY);
    const KernelSpan scale{FFTB_KERNEL_SPAN_FRAME_DIAGONAL, 0.2f}; // 50 and 100 pixels across
    Spread spread[2];
    double sigma[2];
    for (int i = 0; i < 2; ++i)
    {
        const int w = 200 << i, h = 150 << i;
        Texels point(w, h, 4);
        for (int c = 0; c < 3; ++c)
            point.at(w / 2, h / 2, c) = 1.0f;
        const Texels bloom =
            runner().bloom(point, kernel, scaledBloom(FFTB_PADDING_ZERO, scale, FFTB_SPECTRUM_INTERPOLATION_CUBIC));
        sigma[i] = expectedSigma(scale, w, h, kPsfWidth, kPsfHeight);
        spread[i] = spreadOf(bloom, w / 2, h / 2, int(sigma[i] * kPsfWidth / 2), int(sigma[i] * kPsfHeight / 2));
    }
    std::printf("point at 200x150: %.4f x %.4f px, at 400x300: %.4f x %.4f px: ratios %.6f, %.6f\n", spread[0].x,
                spread[0].y, spread[1].x, spread[1].y, spread[1].x / spread[0].x, spread[1].y / spread[0].y);
    EXPECT_NEAR(spread[1].x / spread[0].x, 2.0, 2.0 * kTolerance);
    EXPECT_NEAR(spread[1].y / spread[0].y, 2.0, 2.0 * kTolerance);
    // The kernel's deviations of 6 x 3 texels become sigma times as many pixels, sigma = 50 / 64 at 200 x 150, less
    // what the cubic interpolation's window dims of its outer part (0.7 % along x, measured).
    EXPECT_NEAR(spread[0].x / (sigma[0] * kDeviationX), 1.0, 0.015);
    EXPECT_NEAR(spread[0].y / (sigma[0] * kDeviationY), 1.0, 0.015);
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

} // namespace
} // namespace fftb::test
