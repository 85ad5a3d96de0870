// SPDX-License-Identifier: MIT
#include "psf/far_field.h"

#include "host_error.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

namespace fftb
{
namespace
{

/// C: the sum of G t over the core's K x K texels, as generatePsf's envelope sums it.
double coreGlareSum(int k, double degreesPerTexel)
{
    const int reach = (k - 1) / 2;
    double sum = 0.0;
    for (int y = 0; y < k; ++y)
        for (int x = 0; x < k; ++x)
        {
            const double dx = x - k / 2, dy = y - k / 2;
            sum += psfFade(psfRadius(dx, dy, reach, reach), kGlareTaperFade) *
                   glareScatter(std::hypot(dx, dy) * degreesPerTexel);
        }
    return sum;
}

/// Throws HostError "<field>: <value><what>" unless `ok`.
void require(bool ok, const std::string& field, double value, const std::string& what)
{
    if (!ok)
        throw HostError(field + psfValueText(value) + what);
}

} // namespace

FarField farFieldOf(const PsfParams& core, double coreSpanPixels, double reachPixels, int reduction)
{
    require(reduction == 2 || reduction == 4 || reduction == 8, "far-field reduction: ", reduction,
            " is not 2, 4 or 8");
    require(std::isfinite(coreSpanPixels) && coreSpanPixels > 0.0, "core span: ", coreSpanPixels,
            " pixels is not a finite number > 0");
    require(std::isfinite(reachPixels) && reachPixels > 0.0, "glare reach: ", reachPixels,
            " pixels is not a finite number > 0");
    require(core.sizeTexels >= 2, "psf: sizeTexels = ", core.sizeTexels, " is below 2");
    require(std::isfinite(core.airyRadiusTexels) && core.airyRadiusTexels > 0.0,
            "psf: airyRadiusTexels = ", core.airyRadiusTexels, " is not a finite number > 0");
    require(std::isfinite(core.glare) && core.glare >= 0.0 && core.glare <= 1.0, "psf: glare = ", core.glare,
            " is outside 0..1");

    const int k = core.sizeTexels;
    const double sigma = coreSpanPixels / k;
    const double f = reduction;
    const double half = std::ceil(reachPixels / f);
    if (2.0 * half > kFarFieldMaxTexels)
        throw HostError("glare reach: " + psfValueText(reachPixels) + " pixels at reduction " +
                        std::to_string(reduction) + " needs a far-field kernel of " + psfValueText(2.0 * half) +
                        " texels, more than " + std::to_string(kFarFieldMaxTexels));
    if (core.glare == 0.0 || reachPixels <= sigma * k / 2.0)
        return {};

    const int size = 2 * int(half);
    const int reach = (k - 1) / 2;
    const double degrees = glareDegreesPerTexel(core.airyRadiusTexels);
    // The far texel's value before normalization: G (1 - t) T at its offset from the light.
    const auto value = [&](int i, int j)
    {
        const double dx = (i - size / 2) * f, dy = (j - size / 2) * f;
        const double r = std::hypot(dx, dy);
        const double t = psfFade(psfRadius(dx / sigma, dy / sigma, reach, reach), kGlareTaperFade);
        return glareScatter(r / sigma * degrees) * (1.0 - t) * psfFade(r / reachPixels, kFarFieldFade);
    };
    double sum = 0.0;
    for (int j = 0; j < size; ++j)
        for (int i = 0; i < size; ++i)
            sum += value(i, j);
    if (!(sum > 0.0))
        return {};

    FarField far;
    far.size = size;
    far.spanPixels = size * f;
    far.reduction = reduction;
    const double q = core.glare * sum * f * f / (coreGlareSum(k, degrees) * sigma * sigma);
    far.weight = q / (1.0 + q);
    far.texels.resize(std::size_t(size) * std::size_t(size));
    for (int j = 0; j < size; ++j)
        for (int i = 0; i < size; ++i)
            far.texels[std::size_t(j) * std::size_t(size) + std::size_t(i)] = float(value(i, j) / sum);
    return far;
}

Texels farFieldTexels(const FarField& far)
{
    Texels rgb(far.size, far.size, 3);
    for (std::size_t i = 0; i < far.texels.size(); ++i)
        std::fill_n(rgb.values.begin() + std::ptrdiff_t(3 * i), 3, far.texels[i]);
    return rgb;
}

} // namespace fftb
