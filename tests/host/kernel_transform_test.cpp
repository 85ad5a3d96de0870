// SPDX-License-Identifier: MIT
// The kernel's placement (plugin/plan/kernel_transform.h): turns and centre offsets against hand-computed texels and
// an analytic Gaussian.
#include "kernel_transform.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

namespace fftb
{
namespace
{

/// W x H RGB texels, channel c of texel (x, y) = f(x, y, c).
template <typename F> std::vector<float> texelsOf(uint32_t w, uint32_t h, F f)
{
    std::vector<float> t(size_t(w) * h * 3);
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x)
            for (int c = 0; c < 3; ++c)
                t[(size_t(y) * w + x) * 3 + size_t(c)] = f(double(x), double(y), c);
    return t;
}

float at(const std::vector<float>& t, uint32_t w, uint32_t x, uint32_t y, int c = 0)
{
    return t[(size_t(y) * w + x) * 3 + size_t(c)];
}

TEST(KernelPlacement, TheIdentityKeepsTheTexels)
{
    const std::vector<float> in = texelsOf(5, 4, [](double x, double y, int c) { return float(x + 10 * y + 100 * c); });
    EXPECT_EQ(placeKernel(in.data(), 5, 4, {}), in);
    // Whole turns and whole-texel offsets only move texels: 360 degrees is the identity again.
    EXPECT_EQ(placeKernel(in.data(), 5, 4, {360.0, 0.0, 0.0}), in);
}

// A quarter turn counter-clockwise on the frame (y down): what was right of the centre is above it.
TEST(KernelPlacement, AQuarterTurnIsCounterClockwiseOnTheFrame)
{
    std::vector<float> in(5 * 5 * 3, 0.0f);
    in[(2 * 5 + 4) * 3] = 1.0f; // (4, 2): right of the centre (2, 2)
    const std::vector<float> out = placeKernel(in.data(), 5, 5, {90.0, 0.0, 0.0});
    EXPECT_EQ(at(out, 5, 2, 0), 1.0f) << "moved above the centre";
    float total = 0.0f;
    for (size_t i = 0; i < out.size(); i += 3)
        total += out[i];
    EXPECT_EQ(total, 1.0f) << "nothing else lit";
    const std::vector<float> back = placeKernel(out.data(), 5, 5, {-90.0, 0.0, 0.0});
    EXPECT_EQ(back, in);
}

// The point c + (u W, v H) lands on the light (the centre texel), texels shifted by whole steps exactly, and zeros
// come in from outside.
TEST(KernelPlacement, TheCentreOffsetPutsThatPointOnTheLight)
{
    const std::vector<float> in = texelsOf(8, 4, [](double x, double y, int) { return float(1 + x + 10 * y); });
    const std::vector<float> out = placeKernel(in.data(), 8, 4, {0.0, 0.25, -0.25}); // (2, -1) texels
    EXPECT_EQ(at(out, 8, 4, 2), at(in, 8, 6, 1)) << "the centre (4, 2) holds (4 + 2, 2 - 1)";
    EXPECT_EQ(at(out, 8, 0, 1), at(in, 8, 2, 0));
    EXPECT_EQ(at(out, 8, 6, 2), 0.0f) << "past the right edge";
    EXPECT_EQ(at(out, 8, 3, 0), 0.0f) << "above the top edge";
    // Half a texel: on texels linear in x, the mean of the two neighbours (Keys' cubic reproduces quadratics).
    const std::vector<float> half = placeKernel(in.data(), 8, 4, {0.0, 1.0 / 16.0, 0.0});
    EXPECT_FLOAT_EQ(at(half, 8, 4, 2), 0.5f * (at(in, 8, 4, 2) + at(in, 8, 5, 2)));
}

// An anisotropic Gaussian turned by 30 degrees against the same Gaussian evaluated at turned coordinates: Keys' cubic
// resampling's error is third order in the texel spacing.
TEST(KernelPlacement, ATurnedGaussianMatchesTheAnalyticOne)
{
    const uint32_t n = 65;
    const double sx = 9.0, sy = 3.0, c = 32.0;
    const auto gaussian = [&](double x, double y) { return std::exp(-0.5 * (x * x / (sx * sx) + y * y / (sy * sy))); };
    const std::vector<float> in =
        texelsOf(n, n, [&](double x, double y, int) { return float(gaussian(x - c, y - c)); });
    const double theta = 30.0 * std::numbers::pi / 180.0;
    const std::vector<float> out = placeKernel(in.data(), n, n, {30.0, 0.0, 0.0});
    double worst = 0.0;
    for (uint32_t y = 0; y < n; ++y)
        for (uint32_t x = 0; x < n; ++x)
        {
            // out(q) = in(R(-theta) (q - c)): the Gaussian's long axis turned counter-clockwise on the frame.
            const double dx = double(x) - c, dy = double(y) - c;
            const double expected =
                gaussian(dx * std::cos(theta) - dy * std::sin(theta), dx * std::sin(theta) + dy * std::cos(theta));
            worst = std::max(worst, std::fabs(double(at(out, n, x, y)) - expected));
        }
    EXPECT_LT(worst, 0.02) << "bilinear resampling of a Gaussian 3 texels wide";
    // The long axis now points up and to the right on the frame (y down): (cos 30, -sin 30).
    EXPECT_GT(at(out, n, 32 + 9, 32 - 5), at(out, n, 32 + 9, 32 + 5));
}

TEST(KernelPlacement, OutOfRangeValuesAreNamed)
{
    std::string error;
    EXPECT_TRUE(checkKernelPlacement({1e5, -1.0, 1.0}, &error)) << error;
    EXPECT_FALSE(checkKernelPlacement({std::numeric_limits<double>::infinity(), 0.0, 0.0}, &error));
    EXPECT_NE(error.find("rotationDegrees"), std::string::npos) << error;
    EXPECT_FALSE(checkKernelPlacement({0.0, 1.5, 0.0}, &error));
    EXPECT_NE(error.find("centreOffsetU"), std::string::npos) << error;
    EXPECT_FALSE(checkKernelPlacement({0.0, 0.0, std::numeric_limits<double>::quiet_NaN()}, &error));
    EXPECT_NE(error.find("centreOffsetV"), std::string::npos) << error;
}

} // namespace
} // namespace fftb
