// SPDX-License-Identifier: MIT
#include "kernel_transform.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace fftb
{

namespace
{

/// Keys' cubic convolution kernel, a = -1/2 (Keys 1981, "Cubic Convolution Interpolation for Digital Image
/// Processing"): 1 at 0 and 0 at the other integers, so texels at whole positions are copied exactly.
double keys(double t)
{
    const double a = std::fabs(t);
    if (a <= 1.0)
        return (1.5 * a - 2.5) * a * a + 1.0;
    if (a < 2.0)
        return ((-0.5 * a + 2.5) * a - 4.0) * a + 2.0;
    return 0.0;
}

} // namespace

bool checkKernelPlacement(const KernelPlacement& placement, std::string* error)
{
    if (!std::isfinite(placement.rotationDegrees))
    {
        *error = "rotationDegrees: must be finite";
        return false;
    }
    for (const auto& [value, name] :
         {std::pair{placement.centreOffsetU, "centreOffsetU"}, std::pair{placement.centreOffsetV, "centreOffsetV"}})
        if (!(value >= -1.0 && value <= 1.0))
        {
            *error = std::string(name) + ": must lie in [-1, 1]";
            return false;
        }
    return true;
}

std::vector<float> placeKernel(const float* texels, uint32_t width, uint32_t height, const KernelPlacement& placement)
{
    const size_t count = size_t(width) * height * 3;
    if (placement.identity())
        return std::vector<float>(texels, texels + count);
    // Exact quarter turns, so that 90-degree steps move texels without interpolating them.
    const double turns = placement.rotationDegrees / 90.0;
    double c = 0.0, s = 0.0;
    if (turns == std::round(turns))
    {
        static constexpr double quarterCos[4] = {1.0, 0.0, -1.0, 0.0};
        const int quarter = int(std::fmod(std::fmod(turns, 4.0) + 4.0, 4.0));
        c = quarterCos[quarter];
        s = quarterCos[(quarter + 3) % 4];
    }
    else
    {
        const double theta = placement.rotationDegrees * std::numbers::pi / 180.0;
        c = std::cos(theta);
        s = std::sin(theta);
    }
    const double cx = double(width / 2), cy = double(height / 2);
    const double ox = placement.centreOffsetU * width, oy = placement.centreOffsetV * height;
    const auto texel = [&](int64_t x, int64_t y, int ch) -> double
    {
        if (x < 0 || y < 0 || x >= int64_t(width) || y >= int64_t(height))
            return 0.0;
        return texels[(size_t(y) * width + size_t(x)) * 3 + size_t(ch)];
    };
    std::vector<float> out(count, 0.0f);
    for (uint32_t qy = 0; qy < height; ++qy)
        for (uint32_t qx = 0; qx < width; ++qx)
        {
            // p = c + o + R(-theta) (q - c), R(-theta)(x, y) = (x cos - y sin, x sin + y cos).
            const double dx = double(qx) - cx, dy = double(qy) - cy;
            const double px = cx + ox + dx * c - dy * s, py = cy + oy + dx * s + dy * c;
            const double fx = std::floor(px), fy = std::floor(py);
            double wx[4], wy[4];
            for (int t = 0; t < 4; ++t)
            {
                wx[t] = keys(px - (fx + t - 1));
                wy[t] = keys(py - (fy + t - 1));
            }
            const int64_t x0 = int64_t(fx) - 1, y0 = int64_t(fy) - 1;
            for (int ch = 0; ch < 3; ++ch)
            {
                double v = 0.0;
                for (int j = 0; j < 4; ++j)
                    for (int i = 0; i < 4; ++i)
                        v += wy[j] * wx[i] * texel(x0 + i, y0 + j, ch);
                // Keys' negative lobes can undershoot beside a sharp edge; a kernel is never negative.
                out[(size_t(qy) * width + qx) * 3 + size_t(ch)] = float(std::max(v, 0.0));
            }
        }
    return out;
}

} // namespace fftb
