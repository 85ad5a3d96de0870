// SPDX-License-Identifier: MIT
// The resampled spectrum's math (plugin/plan/resampling.h): settings, tap weights, the ES window's transform and the
// deapodization, checked by a one-dimensional non-uniform DFT in double precision against the kernel's own DTFT.
#include "resampling.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <random>
#include <vector>

namespace fftb
{
namespace
{

SpectrumResampling es(uint32_t width, uint32_t oversampling)
{
    SpectrumResampling r;
    std::string error;
    EXPECT_TRUE(makeSpectrumResampling(FFTB_SPECTRUM_INTERPOLATION_ES, width, oversampling, &r, &error)) << error;
    return r;
}

/// sum over x of k(x) exp(-2 pi i f (x - c)), c = K / 2.
std::complex<double> dtft(const std::vector<double>& kernel, double f)
{
    const auto centre = int64_t(kernel.size() / 2);
    std::complex<double> sum = 0.0;
    for (size_t x = 0; x < kernel.size(); ++x)
        sum += kernel[x] * std::polar(1.0, -2.0 * std::numbers::pi * f * double(int64_t(x) - centre));
    return sum;
}

/// The plugin's resampled reading in one dimension and in double precision: the deapodized kernel's DFT at
/// S = oversampling * pow2Ceil(K) bins, interpolated at f * S with the taps pass 2 uses (first = floor(x - W / 2) + 1).
/// Returns the largest error against the DTFT over `frequencies`, relative to the kernel's sum.
double largestError(const std::vector<double>& kernel, const SpectrumResampling& r,
                    const std::vector<double>& frequencies)
{
    uint32_t s = 1;
    while (s < kernel.size())
        s *= 2;
    s *= r.oversampling;
    const std::vector<double> divisor = deapodization(r, uint32_t(kernel.size()), s);
    std::vector<double> deapodized(kernel.size());
    for (size_t x = 0; x < kernel.size(); ++x)
        deapodized[x] = kernel[x] * divisor[x];
    std::vector<std::complex<double>> stored(s);
    for (uint32_t m = 0; m < s; ++m)
        stored[m] = dtft(deapodized, double(m) / s);
    double sum = 0.0, worst = 0.0;
    for (double v : kernel)
        sum += v;
    for (double f : frequencies)
    {
        const double x = f * s;
        const auto first = int64_t(std::floor(x - 0.5 * r.width)) + 1;
        std::complex<double> value = 0.0;
        for (int64_t m = first; m < first + int64_t(r.width); ++m)
            value += tapWeight(r, x - double(m)) * stored[size_t(((m % s) + s) % s)];
        worst = std::max(worst, std::abs(value - dtft(kernel, f)) / sum);
    }
    return worst;
}

/// A kernel with light out to its border: a narrow peak over a floor, with spikes at the ends.
std::vector<double> borderKernel(uint32_t length)
{
    std::vector<double> k(length);
    std::mt19937 random(7);
    std::uniform_real_distribution<double> floorValue(0.0, 1e-3);
    for (uint32_t x = 0; x < length; ++x)
    {
        const double d = double(x) - double(length / 2);
        k[x] = std::exp(-d * d / 4.0) + floorValue(random);
    }
    k.front() = k.back() = 0.05;
    return k;
}

std::vector<double> frequencies(uint32_t count)
{
    std::vector<double> f;
    for (uint32_t i = 0; i <= count; ++i)
        f.push_back(-0.5 + double(i) / count + 1e-3 * std::sin(double(i)));
    return f;
}

TEST(Resampling, SettingsTakeTheirDefaultsAndRefuseWhatIsOutOfRange)
{
    SpectrumResampling r;
    std::string error;
    ASSERT_TRUE(makeSpectrumResampling(FFTB_SPECTRUM_INTERPOLATION_ES, 0, 0, &r, &error));
    EXPECT_EQ(r.width, kDefaultEsWidth);
    EXPECT_EQ(r.oversampling, kDefaultSpectrumOversampling);
    ASSERT_TRUE(makeSpectrumResampling(FFTB_SPECTRUM_INTERPOLATION_CUBIC, 0, 1, &r, &error));
    EXPECT_EQ(r.width, 4u);
    EXPECT_EQ(r.oversampling, 1u);
    ASSERT_TRUE(makeSpectrumResampling(FFTB_SPECTRUM_INTERPOLATION_LINEAR, 2, 2, &r, &error));
    EXPECT_EQ(r.width, 2u);
    const struct
    {
        FftbSpectrumInterpolation interpolation;
        uint32_t width, oversampling;
        const char* field;
    } refused[] = {{FFTB_SPECTRUM_INTERPOLATION_ES, 1, 2, "interpolationWidth"},
                   {FFTB_SPECTRUM_INTERPOLATION_ES, 9, 2, "interpolationWidth"},
                   {FFTB_SPECTRUM_INTERPOLATION_CUBIC, 8, 2, "interpolationWidth"},
                   {FFTB_SPECTRUM_INTERPOLATION_LINEAR, 4, 2, "interpolationWidth"},
                   {FFTB_SPECTRUM_INTERPOLATION_ES, 8, 3, "spectrumOversampling"}};
    for (const auto& c : refused)
    {
        error.clear();
        EXPECT_FALSE(makeSpectrumResampling(c.interpolation, c.width, c.oversampling, &r, &error));
        EXPECT_NE(error.find(c.field), std::string::npos) << error;
    }
}

TEST(Resampling, CubicAndLinearWeightsAreKeysAndTheTent)
{
    SpectrumResampling cubic, linear;
    std::string error;
    ASSERT_TRUE(makeSpectrumResampling(FFTB_SPECTRUM_INTERPOLATION_CUBIC, 0, 1, &cubic, &error));
    ASSERT_TRUE(makeSpectrumResampling(FFTB_SPECTRUM_INTERPOLATION_LINEAR, 0, 1, &linear, &error));
    // Keys (1981), a = -1/2, at t = 0.5 and 1.5: 0.5625 and -0.0625; both interpolate (1 at 0, 0 at the integers).
    EXPECT_DOUBLE_EQ(tapWeight(cubic, 0.5), 0.5625);
    EXPECT_DOUBLE_EQ(tapWeight(cubic, -1.5), -0.0625);
    EXPECT_DOUBLE_EQ(tapWeight(cubic, 0.0), 1.0);
    EXPECT_DOUBLE_EQ(tapWeight(cubic, 1.0), 0.0);
    EXPECT_DOUBLE_EQ(tapWeight(cubic, 2.5), 0.0);
    EXPECT_DOUBLE_EQ(tapWeight(linear, 0.25), 0.75);
    EXPECT_DOUBLE_EQ(tapWeight(linear, 1.25), 0.0);
}

TEST(Resampling, TheEsTransformMatchesAnotherQuadrature)
{
    // Simpson's rule over theta with 40000 intervals against the plugin's Gauss-Legendre rule: both integrate
    // psi(sin theta) cos(pi W nu sin theta) cos theta (W / 2) over [-pi / 2, pi / 2].
    for (uint32_t width : {2u, 5u, 8u})
        for (double nu : {0.0, 0.1, 0.25, 0.4, 0.75})
        {
            const SpectrumResampling r = es(width, 2);
            const int n = 40000;
            const double h = std::numbers::pi / n;
            double sum = 0.0;
            for (int i = 0; i <= n; ++i)
            {
                const double theta = -0.5 * std::numbers::pi + i * h;
                const double t = 0.5 * width * std::sin(theta);
                const double weight = i == 0 || i == n ? 1.0 : i % 2 == 1 ? 4.0 : 2.0;
                sum += weight * tapWeight(r, std::min(std::abs(t), 0.5 * width * (1.0 - 1e-15))) *
                       std::cos(2.0 * std::numbers::pi * t * nu) * std::cos(theta);
            }
            const double simpson = sum * h / 3.0 * 0.5 * width;
            EXPECT_NEAR(esTransform(width, esBeta(width, 2), nu), simpson,
                        1e-11 * esTransform(width, esBeta(width, 2), 0.0))
                << width << " " << nu;
        }
}

TEST(Resampling, DeapodizationIsOneOverTheTransformAboutTheCentre)
{
    const SpectrumResampling r = es(8, 2);
    const std::vector<double> d = deapodization(r, 5, 16);
    ASSERT_EQ(d.size(), 5u);
    const float beta = esBeta(8, 2);
    EXPECT_DOUBLE_EQ(d[2], 1.0 / esTransform(8, beta, 0.0));
    EXPECT_DOUBLE_EQ(d[0], 1.0 / esTransform(8, beta, -2.0 / 16));
    EXPECT_DOUBLE_EQ(d[0], d[4]); // the transform is even
    SpectrumResampling cubic;
    std::string error;
    ASSERT_TRUE(makeSpectrumResampling(FFTB_SPECTRUM_INTERPOLATION_CUBIC, 0, 2, &cubic, &error));
    EXPECT_EQ(deapodization(cubic, 5, 16), std::vector<double>(5, 1.0));
}

// The ES window with deapodization at oversampling 2 evaluates the spectrum of a kernel with light out to its border
// to the accuracy the non-uniform FFT's analysis gives (Barnett et al. 2019: about 10^(1 - W)), improving with every
// tap, while cubic interpolation of the plain spectrum at S = pow2Ceil(K) is off by percent.
TEST(Resampling, EsWithDeapodizationEvaluatesTheKernelsSpectrum)
{
    for (uint32_t length : {31u, 64u, 100u})
    {
        const std::vector<double> kernel = borderKernel(length);
        const std::vector<double> f = frequencies(997);
        double previous = 1.0;
        for (uint32_t width : {4u, 6u, 8u})
        {
            const double error = largestError(kernel, es(width, 2), f);
            EXPECT_LT(error, 0.5 * previous) << length << " W " << width;
            EXPECT_LT(error, 10.0 * std::pow(10.0, 1.0 - double(width))) << length << " W " << width;
            previous = error;
        }
        EXPECT_LT(largestError(kernel, es(8, 2), f), 1e-7) << length;
        SpectrumResampling cubic;
        std::string error;
        ASSERT_TRUE(makeSpectrumResampling(FFTB_SPECTRUM_INTERPOLATION_CUBIC, 0, 1, &cubic, &error));
        EXPECT_GT(largestError(kernel, cubic, f), 1e-3) << length;
    }
}

} // namespace
} // namespace fftb
