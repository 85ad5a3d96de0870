// SPDX-License-Identifier: MIT
// Texel helpers shared by the host and GPU tests.
#include "texel_test_support.h"

#include <random>

namespace fftb::test
{

Texels randomTexels(int width, int height, int components, uint32_t seed, float lo, float hi)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(lo, hi);
    Texels t(width, height, components);
    for (float& v : t.values)
        v = u(rng);
    return t;
}

Texels randomKernel(int width, int height, uint32_t seed)
{
    return randomTexels(width, height, 3, seed, 0.01f, 1.0f);
}

Texels oneHotKernel(int width, int height, int x, int y)
{
    Texels t(width, height, 3);
    for (int c = 0; c < 3; ++c)
        t.at(x, y, c) = 1.0f;
    return t;
}

bool sameAlpha(const Texels& a, const Texels& b)
{
    for (int y = 0; y < a.height; ++y)
        for (int x = 0; x < a.width; ++x)
            if (a.at(x, y, 3) != b.at(x, y, 3))
                return false;
    return a.width == b.width && a.height == b.height;
}

double channelSum(const Texels& t, int channel)
{
    double sum = 0.0;
    for (int y = 0; y < t.height; ++y)
        for (int x = 0; x < t.width; ++x)
            sum += t.at(x, y, channel);
    return sum;
}

std::vector<double> channelPlane(const Texels& t, int channel)
{
    std::vector<double> plane;
    plane.reserve(std::size_t(t.width) * std::size_t(t.height));
    for (int y = 0; y < t.height; ++y)
        for (int x = 0; x < t.width; ++x)
            plane.push_back(t.at(x, y, channel));
    return plane;
}

} // namespace fftb::test
