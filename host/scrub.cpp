// Replaces NaN, negative and overly bright colour values of an RGBA frame.
#include "scrub.h"

#include <cmath>
#include <cstddef>

namespace fftb
{

void restoreUnbloomed(Texels& composite, const Texels& original, float maxValue, float intensity)
{
    for (std::size_t i = 0; i < original.values.size(); ++i)
    {
        const float x = original.values[i];
        if (i % 4 != 3 && std::isfinite(x) && (x < 0.0f || x > maxValue))
            composite.values[i] += (1.0f - intensity) * (x - (x < 0.0f ? 0.0f : maxValue));
    }
}

ScrubCounts scrubRgb(Texels& rgba, float maxValue)
{
    ScrubCounts counts;
    for (std::size_t i = 0; i < rgba.values.size(); ++i)
    {
        if (i % 4 == 3)
            continue;
        float& x = rgba.values[i];
        if (std::isnan(x))
        {
            x = 0.0f;
            ++counts.nan;
        }
        else if (x < 0.0f)
        {
            x = 0.0f;
            ++counts.negative;
        }
        else if (x > maxValue)
        {
            x = maxValue;
            ++counts.clamped;
        }
    }
    return counts;
}

} // namespace fftb
