// SPDX-License-Identifier: MIT
// Replaces NaN, negative and overly bright colour values of an RGBA frame.
#include "image/scrub.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace fftb
{

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
