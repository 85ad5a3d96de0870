// SPDX-License-Identifier: MIT
// Restores the unscrubbed colour values in a composite, with the prefilter on the CPU.
#include "runner/restore.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace fftb
{

// A single-precision copy of the passes' prefilter (shaders/common.glsl), the only one on the host: the values to
// restore were never uploaded (the GPU saw their scrubbed form), so p(x) of the unscrubbed x is only known here, and
// only for the few texels scrubbing changed. Computing it on the GPU would take a second upload and a pass for them.
void prefilterRgb(float rgb[3], const PrefilterSettings& prefilter)
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

void restoreUnbloomed(Texels& composite, const Texels& original, float maxValue, const FrameSettings& settings)
{
    const FftbOutputMode mode = settings.output;
    if (mode != FFTB_OUTPUT_MODE_COMPOSITE && mode != FFTB_OUTPUT_MODE_ADDITIVE)
        return;
    const PrefilterSettings& prefilter = settings.prefilter;
    const float intensity = settings.intensity;
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
        // The source mask the plugin weighted p with: the alpha it passed through (setMaskAlpha's, in [0, 1]).
        const float alpha = std::clamp(composite.values[i + 3], 0.0f, 1.0f);
        const float m = !settings.mask.active() ? 1.0f : settings.mask.invert ? 1.0f - alpha : alpha;
        if (mode == FFTB_OUTPUT_MODE_ADDITIVE)
        {
            for (int c = 0; c < 3; ++c)
                composite.values[i + c] += kept[c] - scrubbed[c];
        }
        else if (prefilter.active())
        {
            float pKept[3] = {kept[0], kept[1], kept[2]}, pScrubbed[3] = {scrubbed[0], scrubbed[1], scrubbed[2]};
            prefilterRgb(pKept, prefilter);
            prefilterRgb(pScrubbed, prefilter);
            for (int c = 0; c < 3; ++c)
                composite.values[i + c] += (kept[c] - scrubbed[c]) - intensity * m * (pKept[c] - pScrubbed[c]);
        }
        else
        {
            for (int c = 0; c < 3; ++c)
                composite.values[i + c] += (1.0f - intensity * m) * (kept[c] - scrubbed[c]);
        }
    }
}

void clampBloomRoundOff(Texels& output, const FrameSettings& settings)
{
    if (settings.output != FFTB_OUTPUT_MODE_BLOOM)
        return;
    for (std::size_t i = 0; i + 3 < output.values.size(); i += 4)
        for (std::size_t c = 0; c < 3; ++c)
            output.values[i + c] = std::max(output.values[i + c], 0.0f);
}

} // namespace fftb
