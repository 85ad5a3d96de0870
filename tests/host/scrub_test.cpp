// SPDX-License-Identifier: MIT
// What the CLI gives back of the values its input scrubbing took from the bloom, in each composite.
#include "image/scrub.h"
#include "reference.h"
#include "runner/restore.h"

#include <gtest/gtest.h>

#include <cmath>

namespace fftb
{
namespace
{

constexpr float kMax = 100.0f;

/// One RGBA texel with R above the scrub maximum and G negative.
Texels original()
{
    Texels t(1, 1, 4);
    t.values = {3000.0f, -2.0f, 40.0f, 0.25f};
    return t;
}

/// What the plugin writes from the scrubbed texel, with `bloom` as the convolution's value there and `m` the source
/// mask's weight of its prefiltered colour.
Texels gpuOutput(FftbOutputMode mode, const Prefilter& prefilter, float intensity, const float bloom[3], float m)
{
    Texels scrubbed = original();
    scrubRgb(scrubbed, kMax);
    float p[3] = {scrubbed.values[0], scrubbed.values[1], scrubbed.values[2]};
    prefilterRgb(p, PrefilterSettings{prefilter.threshold, prefilter.knee, prefilter.clamp});
    Texels out = scrubbed;
    for (int c = 0; c < 3; ++c)
        out.values[size_t(c)] = mode == FFTB_OUTPUT_MODE_ADDITIVE
                                    ? scrubbed.values[size_t(c)] + intensity * bloom[c]
                                    : scrubbed.values[size_t(c)] + intensity * (bloom[c] - m * p[c]);
    return out;
}

// Without a mask, and with the source mask in alpha (0.25) and its inverse: p weighted by m = 1, 0.25 and 0.75.
TEST(RestoreUnbloomed, CompositesSeeTheUnscrubbedValueWhereTheBloomSawTheScrubbedOne)
{
    const float bloom[3] = {7.0f, 3.0f, 5.0f};
    const float intensity = 0.3f;
    const double x[3] = {3000.0, -2.0, 40.0};
    for (const auto& [mask, m] :
         {std::pair{MaskSettings{}, 1.0f}, {MaskSettings{"A", false}, 0.25f}, {MaskSettings{"A", true}, 0.75f}})
        for (const Prefilter& prefilter : {Prefilter{}, Prefilter{10.0f, 5.0f, 0.0f}, Prefilter{1.0f, 0.0f, 50.0f}})
        {
            double p[3];
            referencePrefilter(x, prefilter, p);
            BloomSettings settings;
            settings.frame.intensity = intensity;
            settings.frame.prefilter = {prefilter.threshold, prefilter.knee, prefilter.clamp};
            settings.frame.mask = mask;
            settings.frame.output = FFTB_OUTPUT_MODE_COMPOSITE;
            Texels composite = gpuOutput(settings.frame.output, prefilter, intensity, bloom, m);
            restoreUnbloomed(composite, original(), kMax, settings.frame);
            settings.frame.output = FFTB_OUTPUT_MODE_ADDITIVE;
            Texels additive = gpuOutput(settings.frame.output, prefilter, intensity, bloom, m);
            restoreUnbloomed(additive, original(), kMax, settings.frame);
            for (int c = 0; c < 3; ++c)
            {
                EXPECT_NEAR(composite.values[size_t(c)], x[c] + intensity * (bloom[c] - m * p[c]), 1e-3)
                    << "channel " << c << ", threshold " << prefilter.threshold << ", m " << m;
                EXPECT_NEAR(additive.values[size_t(c)], x[c] + intensity * bloom[c], 1e-3) << "channel " << c;
            }
            EXPECT_EQ(composite.values[3], 0.25f);
        }
}

// The glow alone is clamped at 0 in R, G, B; alpha and the composites are left as they are.
TEST(ClampBloomRoundOff, ClampsTheGlowAloneOnly)
{
    Texels t(2, 1, 4);
    t.values = {-1e-6f, 2.0f, -3.0f, -0.5f, 0.25f, -1e-7f, 0.0f, -1.0f};
    Texels composite = t;
    FrameSettings settings;
    clampBloomRoundOff(composite, settings);
    EXPECT_EQ(composite.values, t.values) << "a composite keeps its values";
    settings.output = FFTB_OUTPUT_MODE_BLOOM;
    clampBloomRoundOff(t, settings);
    EXPECT_EQ(t.values, (std::vector<float>{0.0f, 2.0f, 0.0f, -0.5f, 0.25f, 0.0f, 0.0f, -1.0f}));
}

} // namespace
} // namespace fftb
