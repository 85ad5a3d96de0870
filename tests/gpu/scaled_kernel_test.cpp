// SPDX-License-Identifier: MIT
// A scaled kernel and half resolution keep the native bloom's cleanliness (plugin/plan/plan.h, "Kernel scale in
// space"): with the default settings a point light's bloom at kernel scales 0.5, 1.7 and 4 and at half resolution is
// the same PSF resampled in space and convolved in double precision, within 1e-5 of the peak, with no texel below
// -1e-5 of the peak and no ripple above 1e-5 of the peak along the light's row and column past the kernel's reach.
#include "gpu_test_support.h"
#include "image/image_io.h"
#include "plan.h"
#include "psf/psf.h"
#include "psf/psf_generator.h"
#include "reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace fftb::test
{
namespace
{

constexpr double kBound = 1e-5; ///< of the peak: the error, the most negative texel, the ripple past the reach

/// The default PSF at 32 texels: diffraction spikes and rings with hard edges, what ringing shows on.
Texels spikyKernel()
{
    Texels kernel = defaultPsf(32);
    normalizePsf(kernel);
    return kernel;
}

/// A black frame with one texel of 1000 at (x, y).
Texels pointLight(int width, int height, int x, int y)
{
    Texels frame(width, height, 4);
    for (int i = 3; i < int(frame.values.size()); i += 4)
        frame.values[size_t(i)] = 1.0f;
    for (int c = 0; c < 3; ++c)
        frame.at(x, y, c) = 1000.0f;
    return frame;
}

struct Cleanliness
{
    double lowest = 0.0; ///< min(0, the smallest value) / peak
    double ripple = 0.0; ///< max |value| / peak along the light's row and column, farther than `reach` from it
};

Cleanliness cleanlinessOf(const Texels& bloom, int lightX, int lightY, int reach)
{
    double peak = 0.0;
    for (int i = 0; i < int(bloom.values.size()); ++i)
        if (i % bloom.components < 3)
            peak = std::max(peak, double(bloom.values[size_t(i)]));
    Cleanliness c;
    for (int y = 0; y < bloom.height; ++y)
        for (int x = 0; x < bloom.width; ++x)
            for (int ch = 0; ch < 3; ++ch)
            {
                const double v = bloom.at(x, y, ch) / peak;
                c.lowest = std::min(c.lowest, v);
                const bool onCross = x == lightX || y == lightY;
                if (onCross && std::max(std::abs(x - lightX), std::abs(y - lightY)) > reach)
                    c.ripple = std::max(c.ripple, std::abs(v));
            }
    return c;
}

struct ScaleCase
{
    const char* name;
    float spanPixels; ///< 0: native
    FftbBloomResolution resolution;
};

const ScaleCase kCases[] = {
    {"sigma 0.5", 16.0f, FFTB_BLOOM_RESOLUTION_FULL},
    {"sigma 1.7", 54.4f, FFTB_BLOOM_RESOLUTION_FULL},
    {"sigma 4", 128.0f, FFTB_BLOOM_RESOLUTION_FULL},
    {"half resolution", 0.0f, FFTB_BLOOM_RESOLUTION_HALF},
    {"half resolution, sigma 1.7", 54.4f, FFTB_BLOOM_RESOLUTION_HALF},
};

BloomSettings scaledDefaults(const ScaleCase& c)
{
    BloomSettings s; // the tools' defaults
    s.frame.output = FFTB_OUTPUT_MODE_BLOOM;
    s.plan.resolution = c.resolution;
    if (c.spanPixels > 0.0f)
        s.plan.kernelSpan = {FFTB_KERNEL_SPAN_PIXELS, c.spanPixels};
    return s;
}

TEST(ScaledKernel, APointLightsBloomIsThePsfResampledInSpaceWithoutRinging)
{
    const Texels kernel = spikyKernel();
    constexpr int kWidth = 150, kHeight = 140, kLightX = 73, kLightY = 68;
    const Texels frame = pointLight(kWidth, kHeight, kLightX, kLightY);
    for (const ScaleCase& c : kCases)
    {
        const BloomSettings s = scaledDefaults(c);
        const Texels bloom = runner().bloom(frame, kernel, s);
        const double error = relativeError(bloom, referenceFor(frame, kernel, s));
        // The kernel's extent on the frame, and at half resolution the upsampling's texel more.
        const float span = c.spanPixels > 0.0f ? c.spanPixels : float(kernel.width);
        const int reach = int(std::ceil(span / 2.0f)) + (c.resolution == FFTB_BLOOM_RESOLUTION_HALF ? 2 : 0);
        const Cleanliness clean = cleanlinessOf(bloom, kLightX, kLightY, reach);
        std::printf("%s: error %.2e of the peak against the PSF resampled in space, lowest %.2e, ripple past %d "
                    "texels %.2e\n",
                    c.name, error, clean.lowest, reach, clean.ripple);
        const std::string what = std::string(c.name) + ", " + describe(kWidth, kHeight, s);
        EXPECT_LE(error, kBound) << what;
        EXPECT_GE(clean.lowest, -kBound) << what;
        EXPECT_LE(clean.ripple, kBound) << what;
    }
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

// A 128 x 96 crop of CandleGlass around its brightest texel: the same bound on a photograph.
TEST(ScaledKernel, APhotographsBloomIsThePsfResampledInSpace)
{
    const char* dir = std::getenv("FFTBLOOM_SAMPLES_DIR");
    const std::string path = std::string(dir ? dir : FFTBLOOM_SAMPLES_DIR) + "/CandleGlass.exr";
    ASSERT_TRUE(std::filesystem::exists(path)) << path << " missing: run assets/fetch_samples.sh";
    constexpr int kWidth = 128, kHeight = 96;
    const Texels frame = cropAroundBrightest(toRgba(readImage(path)), kWidth, kHeight);
    const Texels kernel = spikyKernel();
    for (const ScaleCase& c : {kCases[1], kCases[3]})
    {
        const BloomSettings s = scaledDefaults(c);
        const double error = relativeError(runner().bloom(frame, kernel, s), referenceFor(frame, kernel, s));
        std::printf("CandleGlass %dx%d, %s: error %.2e of the peak against the PSF resampled in space\n", kWidth,
                    kHeight, c.name, error);
        EXPECT_LE(error, kBound) << c.name << ", " << describe(kWidth, kHeight, s);
    }
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

} // namespace
} // namespace fftb::test
