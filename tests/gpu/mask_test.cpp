// SPDX-License-Identifier: MIT
// The source mask (FftbBloomInfo::sourceMask): the frame's alpha weighting what blooms, against the double-precision
// reference, and a masked light that blooms not at all.
#include "gpu_test_support.h"
#include "psf/psf.h"
#include "reference.h"

#include <gtest/gtest.h>

#include <string>

namespace fftb::test
{
namespace
{

// A random HDR frame whose alpha runs from -0.5 to 1.5 (clamped to [0, 1] as m): p = m prefilter(in) in every output
// mode, the mask and its inverse, against the reference's formula; alpha passes through.
TEST(Mask, WeightsWhatBloomsByAlphaInEveryOutputMode)
{
    Texels frame = randomFrame(53, 38, 61);
    for (int y = 0; y < frame.height; ++y)
        for (int x = 0; x < frame.width; ++x)
            frame.at(x, y, 3) = -0.5f + 2.0f * float((x * 7 + y * 3) % 11) / 10.0f;
    Texels kernel = randomKernel(13, 11, 62);
    normalizePsf(kernel);
    for (const bool invert : {false, true})
        for (const FftbOutputMode mode :
             {FFTB_OUTPUT_MODE_BLOOM, FFTB_OUTPUT_MODE_COMPOSITE, FFTB_OUTPUT_MODE_ADDITIVE})
        {
            BloomSettings s;
            s.kernel.spectrum = FFTB_SPECTRUM_MODE_EXACT;
            s.frame.output = mode;
            s.frame.intensity = 0.6f;
            s.frame.prefilter.threshold = 0.3f;
            s.frame.mask = {"A", invert};
            Prefilter prefilter{0.3f, 0.0f, 0.0f};
            prefilter.mask = invert ? FFTB_SOURCE_MASK_ONE_MINUS_ALPHA : FFTB_SOURCE_MASK_ALPHA;
            const Texels gpu = runner().bloom(frame, kernel, s);
            const Texels bloom = referenceConvolutionFor(referencePrefilter(frame, prefilter), kernel, s.plan.padding);
            const Texels expected = referenceOutput(frame, bloom, prefilter, mode, s.frame.intensity);
            EXPECT_LE(relativeError(gpu, expected), Tolerance::kFp32)
                << describe(frame.width, frame.height, s) << (invert ? ", inverted" : "");
            EXPECT_TRUE(sameAlpha(gpu, frame)) << "alpha passes through";
        }
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

// Two lights, one under alpha 0: the output is the one of the frame with the other light alone, the masked light
// added back where it lies, at full and half resolution, in the composite and the bloom alone. Without the mask both
// bloom (the masked light's glow is then far above the tolerance).
TEST(Mask, AMaskedLightBloomsNotAtAllAndAnUnmaskedOneAsBefore)
{
    Texels frame(48, 40, 4), unmaskedOnly(48, 40, 4);
    for (Texels* t : {&frame, &unmaskedOnly})
        for (int y = 0; y < t->height; ++y)
            for (int x = 0; x < t->width; ++x)
                t->at(x, y, 3) = x < 24 ? 1.0f : 0.0f; // the right half masked out
    for (int c = 0; c < 3; ++c)
    {
        frame.at(10, 20, c) = unmaskedOnly.at(10, 20, c) = 100.0f;
        frame.at(36, 20, c) = 100.0f;
    }
    Texels kernel = randomKernel(15, 15, 63);
    normalizePsf(kernel);
    for (const FftbBloomResolution resolution : {FFTB_BLOOM_RESOLUTION_FULL, FFTB_BLOOM_RESOLUTION_HALF})
        for (const FftbOutputMode mode : {FFTB_OUTPUT_MODE_BLOOM, FFTB_OUTPUT_MODE_COMPOSITE})
        {
            BloomSettings s;
            s.plan.resolution = resolution;
            s.frame.output = mode;
            s.frame.intensity = 0.5f;
            s.frame.mask.source = "A";
            const std::string what = std::string(resolution == FFTB_BLOOM_RESOLUTION_HALF ? "half" : "full") +
                                     " resolution, " + (mode == FFTB_OUTPUT_MODE_BLOOM ? "bloom" : "composite");
            const Texels masked = runner().bloom(frame, kernel, s);
            Texels expected = runner().bloom(unmaskedOnly, kernel, s);
            if (mode == FFTB_OUTPUT_MODE_COMPOSITE)
                for (int c = 0; c < 3; ++c)
                    expected.at(36, 20, c) += 100.0f; // the masked light keeps its value
            EXPECT_LE(relativeError(masked, expected), Tolerance::kFp32) << what;
            s.frame.mask = {};
            EXPECT_GT(relativeError(runner().bloom(frame, kernel, s), expected), 0.1) << what << ", unmasked";
        }
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

} // namespace
} // namespace fftb::test
