// SPDX-License-Identifier: MIT
#include "resampling.h"

#include <cmath>
#include <numbers>

namespace fftb
{

bool makeSpectrumResampling(FftbSpectrumInterpolation interpolation, uint32_t width, uint32_t oversampling,
                            SpectrumResampling* resampling, std::string* error)
{
    SpectrumResampling r;
    r.interpolation = interpolation;
    const uint32_t fixedWidth = interpolation == FFTB_SPECTRUM_INTERPOLATION_CUBIC    ? 4
                                : interpolation == FFTB_SPECTRUM_INTERPOLATION_LINEAR ? 2
                                                                                      : 0;
    r.width = width != 0 ? width : fixedWidth != 0 ? fixedWidth : kDefaultEsWidth;
    r.oversampling = oversampling != 0 ? oversampling : kDefaultSpectrumOversampling;
    if (fixedWidth != 0 && r.width != fixedWidth)
    {
        *error = "interpolationWidth: " + std::to_string(width) + " taps; " +
                 (interpolation == FFTB_SPECTRUM_INTERPOLATION_CUBIC ? "cubic" : "linear") + " interpolation has " +
                 std::to_string(fixedWidth) + " (or 0)";
        return false;
    }
    if (r.width < kMinEsWidth || r.width > FFTB_MAX_INTERPOLATION_WIDTH)
    {
        *error = "interpolationWidth: " + std::to_string(width) + " taps, outside [" + std::to_string(kMinEsWidth) +
                 ", " + std::to_string(FFTB_MAX_INTERPOLATION_WIDTH) + "]";
        return false;
    }
    if (r.oversampling > kMaxSpectrumOversampling)
    {
        *error = "spectrumOversampling: " + std::to_string(oversampling) + ", not 1 or 2 (or 0)";
        return false;
    }
    *resampling = r;
    return true;
}

float esBeta(uint32_t width, uint32_t oversampling)
{
    return float(0.97 * std::numbers::pi * (1.0 - 1.0 / (2.0 * double(oversampling))) * double(width));
}

double tapWeight(const SpectrumResampling& resampling, double t)
{
    t = std::abs(t);
    switch (resampling.interpolation)
    {
    case FFTB_SPECTRUM_INTERPOLATION_ES:
    {
        const double z = 2.0 * t / double(resampling.width);
        if (z >= 1.0)
            return 0.0;
        return std::exp(double(esBeta(resampling.width, resampling.oversampling)) * (std::sqrt(1.0 - z * z) - 1.0));
    }
    case FFTB_SPECTRUM_INTERPOLATION_CUBIC:
        if (t <= 1.0)
            return (1.5 * t - 2.5) * t * t + 1.0;
        return t < 2.0 ? ((-0.5 * t + 2.5) * t - 4.0) * t + 2.0 : 0.0;
    default: // FFTB_SPECTRUM_INTERPOLATION_LINEAR
        return t < 1.0 ? 1.0 - t : 0.0;
    }
}

namespace
{

/// Nodes and weights of the n-point Gauss-Legendre rule on [-1, 1]: Newton's iteration on the Legendre polynomial
/// P_n from the Chebyshev guesses cos(pi (i + 3/4) / (n + 1/2)) (Numerical Recipes, section 4.6, gauleg).
struct GaussLegendre
{
    std::vector<double> nodes, weights;
    explicit GaussLegendre(int n) : nodes(size_t(n)), weights(size_t(n))
    {
        for (int i = 0; i < n; ++i)
        {
            double x = std::cos(std::numbers::pi * (double(i) + 0.75) / (double(n) + 0.5));
            double derivative = 1.0;
            for (int iteration = 0; iteration < 100; ++iteration)
            {
                double p0 = 1.0, p1 = x; // P_0, P_1, then P_{k-1}, P_k
                for (int k = 2; k <= n; ++k)
                {
                    const double p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
                    p0 = p1;
                    p1 = p2;
                }
                derivative = n * (x * p1 - p0) / (x * x - 1.0);
                const double step = p1 / derivative;
                x -= step;
                if (std::abs(step) < 1e-16)
                    break;
            }
            nodes[size_t(i)] = x;
            weights[size_t(i)] = 2.0 / ((1.0 - x * x) * derivative * derivative);
        }
    }
};

} // namespace

double esTransform(uint32_t width, float beta, double nu)
{
    // t = (W / 2) sin(theta): dt = (W / 2) cos(theta) dtheta and sqrt(1 - z^2) = cos(theta), which leaves an entire
    // function of theta on [-pi / 2, pi / 2], where Gauss-Legendre converges exponentially.
    static const GaussLegendre rule(96);
    const double halfWidth = 0.5 * double(width);
    double sum = 0.0;
    for (size_t n = 0; n < rule.nodes.size(); ++n)
    {
        const double theta = 0.5 * std::numbers::pi * rule.nodes[n];
        const double c = std::cos(theta);
        sum += rule.weights[n] * std::exp(double(beta) * (c - 1.0)) *
               std::cos(2.0 * std::numbers::pi * nu * halfWidth * std::sin(theta)) * c;
    }
    return sum * halfWidth * 0.5 * std::numbers::pi;
}

std::vector<double> deapodization(const SpectrumResampling& resampling, uint32_t kernelLength, uint32_t spectrumLength)
{
    std::vector<double> factors(kernelLength, 1.0);
    if (resampling.interpolation != FFTB_SPECTRUM_INTERPOLATION_ES)
        return factors;
    const float beta = esBeta(resampling.width, resampling.oversampling);
    const int64_t centre = kernelLength / 2;
    for (uint32_t x = 0; x < kernelLength; ++x)
        factors[x] = 1.0 / esTransform(resampling.width, beta, double(int64_t(x) - centre) / double(spectrumLength));
    return factors;
}

} // namespace fftb
