// Replaces NaN, negative and overly bright colour values of an RGBA frame.
#include "image/scrub.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace fftb
{

void prefilterRgb(float rgb[3], const Prefilter& prefilter)
{
    if (prefilter.threshold > 0.0f)
    {
        const float brightness = std::max({rgb[0], rgb[1], rgb[2]});
        float knee = std::clamp(brightness - prefilter.threshold + prefilter.knee, 0.0f, 2.0f * prefilter.knee);
        knee = knee * knee / (4.0f * prefilter.knee + 1e-5f);
        const float weight = std::max(knee, brightness - prefilter.threshold) / std::max(brightness, 1e-5f);
        for (int c = 0; c < 3; ++c)
            rgb[c] *= weight;
    }
    const float peak = std::max({rgb[0], rgb[1], rgb[2]});
    if (prefilter.clamp > 0.0f && peak > prefilter.clamp)
        for (int c = 0; c < 3; ++c)
            rgb[c] *= prefilter.clamp / peak;
}

void restoreUnbloomed(Texels& composite, const Texels& original, float maxValue, float intensity, OutputMode mode,
                      const Prefilter& prefilter)
{
    if (mode == OutputMode::Bloom)
        return;
    for (std::size_t i = 0; i + 3 < original.values.size(); i += 4)
    {
        float kept[3], scrubbed[3];
        bool changed = false;
        for (int c = 0; c < 3; ++c)
        {
            const float x = original.values[i + c];
            scrubbed[c] = std::isnan(x) || x < 0.0f ? 0.0f : std::min(x, maxValue);
            kept[c] = std::isfinite(x) ? x : scrubbed[c];
            changed = changed || kept[c] != scrubbed[c];
        }
        if (!changed)
            continue;
        if (mode == OutputMode::Additive || prefilter.active())
        {
            float pKept[3] = {kept[0], kept[1], kept[2]}, pScrubbed[3] = {scrubbed[0], scrubbed[1], scrubbed[2]};
            prefilterRgb(pKept, prefilter);
            prefilterRgb(pScrubbed, prefilter);
            const float taken = mode == OutputMode::Additive ? 0.0f : intensity;
            for (int c = 0; c < 3; ++c)
                composite.values[i + c] += (kept[c] - scrubbed[c]) - taken * (pKept[c] - pScrubbed[c]);
        }
        else
        {
            for (int c = 0; c < 3; ++c)
                composite.values[i + c] += (1.0f - intensity) * (kept[c] - scrubbed[c]);
        }
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
