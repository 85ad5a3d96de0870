// SPDX-License-Identifier: MIT
// The rules between settings (checkSettings), each at its boundary, and the one text every front-end gives.
#include "settings/check_settings.h"

#include <gtest/gtest.h>

namespace fftb
{
namespace
{

/// The text of the breach of `settings` with the CLI's prefix, or "" when they keep every rule.
std::string breachOf(const BloomSettings& settings, bool kernelFile = false)
{
    const std::optional<SettingBreach> breach = checkSettings(settings, kernelFile);
    return breach ? breachText(*breach, "--") : "";
}

TEST(CheckSettings, TheDefaultsKeepEveryRule)
{
    EXPECT_EQ(breachOf(BloomSettings{}), "");
}

TEST(CheckSettings, TheKneeIsNoWiderThanTheThreshold)
{
    BloomSettings b;
    b.frame.prefilter.threshold = 0.5f;
    b.frame.prefilter.knee = 0.5f;
    EXPECT_EQ(breachOf(b), "");
    b.frame.prefilter.knee = 1.0f;
    EXPECT_EQ(breachOf(b), "--knee 1: the soft knee must not be wider than threshold (0.5)");
    const std::optional<SettingBreach> breach = checkSettings(b, false);
    ASSERT_TRUE(breach);
    EXPECT_EQ(breachText(*breach), "knee 1: the soft knee must not be wider than threshold (0.5)");
}

TEST(CheckSettings, AFixedInterpolationTakesItsOwnTapsOnly)
{
    BloomSettings b;
    b.kernel.interpolation = FFTB_SPECTRUM_INTERPOLATION_CUBIC;
    for (const uint32_t width : {0u, 4u})
    {
        b.kernel.interpolationWidth = width;
        EXPECT_EQ(breachOf(b), "") << width;
    }
    b.kernel.interpolationWidth = 8;
    EXPECT_EQ(breachOf(b), "--interpolation-width 8: cubic interpolation has 4 taps");
    b.kernel.interpolation = FFTB_SPECTRUM_INTERPOLATION_LINEAR;
    EXPECT_EQ(breachOf(b), "--interpolation-width 8: linear interpolation has 2 taps");
    b.kernel.interpolation = FFTB_SPECTRUM_INTERPOLATION_ES;
    EXPECT_EQ(breachOf(b), "") << "the ES window takes any width the plugin accepts";
}

TEST(CheckSettings, AnAnimatedKernelIsAPowerOfTwoIn64To2048)
{
    BloomSettings s;
    s.kernel.animate = true;
    s.kernel.airyRadius = 2.0;
    for (const int size : {128, 256, 1024})
    {
        s.kernel.sizeTexels = size;
        EXPECT_EQ(breachOf(s), "") << size;
    }
    for (const int size : {32, 96, 4096})
    {
        s.kernel.sizeTexels = size;
        EXPECT_EQ(breachOf(s), "--animate: the kernel is made on the GPU at kernel-size, a power of two in "
                               "64..2048, not " +
                                   std::to_string(size))
            << size;
    }
}

TEST(CheckSettings, AKernelMadeOnTheGpuHasItsFirstDarkRing1To16OfItsTexels)
{
    // airy-radius is in 256ths of the kernel's width: at kernel-size 64 a radius of 4 is 1 texel, at 2048 one of 2 is
    // 16; the GPU generator takes 1..16 texels.
    BloomSettings s;
    s.kernel.animate = true;
    s.kernel.sizeTexels = 64;
    s.kernel.airyRadius = 4.0;
    EXPECT_EQ(breachOf(s), "");
    s.kernel.airyRadius = 2.0;
    EXPECT_EQ(breachOf(s), "--airy-radius 2: made on the GPU at kernel-size 64, the first dark ring is 0.5 of its "
                           "texels; the GPU generator takes 1..16");
    s.kernel.sizeTexels = 2048;
    EXPECT_EQ(breachOf(s), "");
    s.kernel.airyRadius = 2.5;
    EXPECT_EQ(breachOf(s), "--airy-radius 2.5: made on the GPU at kernel-size 2048, the first dark ring is 20 of its "
                           "texels; the GPU generator takes 1..16");
    EXPECT_EQ(breachOf(s, true), "") << "a kernel file or array has no Airy radius";
    // Not animated, the CPU generates any radius: finer, then resampled (defaultPsf).
    s.kernel.animate = false;
    s.kernel.sizeTexels = 16;
    s.kernel.airyRadius = 1.0;
    EXPECT_EQ(breachOf(s), "");
}

} // namespace
} // namespace fftb
