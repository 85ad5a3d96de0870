// SPDX-License-Identifier: MIT
// The frame's borders: normalized convolution (FFTB_PADDING_ZERO_NORMALIZED, the default) keeps a flat frame flat to
// its edges, as mirror padding does and zero padding does not, and matches the double-precision reference of
// Knutsson & Westin's normalized convolution wherever it is used.
#include "gpu_test_support.h"
#include "psf/psf.h"
#include "reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace fftb::test
{
namespace
{

constexpr float kFlat = 0.7f;

Texels flatFrame(int width, int height)
{
    Texels frame(width, height, 4);
    for (std::size_t i = 0; i < frame.values.size(); ++i)
        frame.values[i] = i % 4 == 3 ? 1.0f : kFlat;
    return frame;
}

/// The composite of a flat frame through the whole kernel (intensity 1, no threshold): the bloom itself.
BloomSettings flatComposite(FftbPadding padding, FftbSpectrumMode spectrum)
{
    BloomSettings s;
    s.plan.padding = padding;
    s.kernel.spectrum = spectrum;
    s.frame.output = FFTB_OUTPUT_MODE_COMPOSITE;
    s.frame.intensity = 1.0f;
    return s;
}

/// The least and the largest of out / in over every texel and channel.
std::pair<double, double> ratioRange(const Texels& out)
{
    double least = INFINITY, largest = 0.0;
    for (int y = 0; y < out.height; ++y)
        for (int x = 0; x < out.width; ++x)
            for (int c = 0; c < 3; ++c)
            {
                least = std::min(least, double(out.at(x, y, c)) / kFlat);
                largest = std::max(largest, double(out.at(x, y, c)) / kFlat);
            }
    return {least, largest};
}

// The measure: a flat frame's border against its centre, within 1 %. An asymmetric kernel (more of it on
// one side) and a scaled one, in both spectrum modes.
TEST(Borders, FlatFrameKeepsItsBrightnessToTheEdges)
{
    Texels kernel = randomKernel(15, 11, 71);
    normalizePsf(kernel);
    for (FftbSpectrumMode spectrum : {FFTB_SPECTRUM_MODE_EXACT, FFTB_SPECTRUM_MODE_RESAMPLED})
        for (FftbPadding padding : {FFTB_PADDING_ZERO_NORMALIZED, FFTB_PADDING_MIRROR, FFTB_PADDING_ZERO})
        {
            BloomSettings s = flatComposite(padding, spectrum);
            const Texels out = runner().bloom(flatFrame(61, 37), kernel, s);
            const auto [least, largest] = ratioRange(out);
            const std::string what = describe(61, 37, s);
            if (padding == FFTB_PADDING_ZERO)
            {
                // The darkening normalization removes: about half the kernel outside at an edge, 3/4 at a corner.
                EXPECT_LT(least, 0.5) << what << ": zero padding darkens the corners";
                continue;
            }
            EXPECT_GE(least, 0.99) << what;
            EXPECT_LE(largest, 1.01) << what;
            // fp32 reaches far better than the 1 % asked.
            EXPECT_NEAR(least, 1.0, 2e-5) << what;
            EXPECT_NEAR(largest, 1.0, 2e-5) << what;
        }
    BloomSettings scaled = flatComposite(FFTB_PADDING_ZERO_NORMALIZED, FFTB_SPECTRUM_MODE_RESAMPLED);
    scaled.plan.kernelSpan = {FFTB_KERNEL_SPAN_PIXELS, 23.0f};
    const auto [least, largest] = ratioRange(runner().bloom(flatFrame(61, 37), kernel, scaled));
    EXPECT_NEAR(least, 1.0, 2e-5) << describe(61, 37, scaled);
    EXPECT_NEAR(largest, 1.0, 2e-5) << describe(61, 37, scaled);
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

// Random frames with lights at the edges and corners, where normalization divides most, against the reference:
// the zero-padded convolution divided by the indicator's, both in double precision. Sharpening blends the weights as
// it blends the kernel ((1 - t) w + t): the reference convolves the indicator with the sharpened kernel itself.
TEST(Borders, NormalizedConvolutionMatchesTheReference)
{
    Texels kernel = randomKernel(13, 9, 72);
    normalizePsf(kernel);
    Texels frame = randomFrame(47, 29, 73);
    for (const auto& [x, y] :
         {std::pair{0, 0}, std::pair{46, 0}, std::pair{0, 28}, std::pair{46, 28}, std::pair{23, 0}, std::pair{0, 14}})
        for (int c = 0; c < 3; ++c)
            frame.at(x, y, c) = 80.0f;
    for (FftbSpectrumMode spectrum : {FFTB_SPECTRUM_MODE_EXACT, FFTB_SPECTRUM_MODE_RESAMPLED})
        for (FftbAxisOrder axis : {FFTB_AXIS_ORDER_X_FIRST, FFTB_AXIS_ORDER_Y_FIRST})
            for (float sharpen : {0.0f, 0.3f})
            {
                BloomSettings s;
                s.kernel.spectrum = spectrum;
                s.plan.axisOrder = axis;
                s.frame.sharpen = sharpen;
                s.frame.output = FFTB_OUTPUT_MODE_BLOOM;
                ASSERT_EQ(s.plan.padding, FFTB_PADDING_ZERO_NORMALIZED) << "the default";
                // Resampled: the ES window against the kernel's own spectrum (referenceFor), as in the sweeps.
                EXPECT_LE(relativeError(runner().bloom(frame, kernel, s), referenceFor(frame, kernel, s)),
                          Tolerance::kFp32)
                    << describe(frame.width, frame.height, s) << ", sharpen " << sharpen;
            }
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

// The weights are kept per extent, kernel and kernel scale; returning to an earlier extent or scale must not reuse
// the weights of the last one.
TEST(Borders, WeightsFollowTheExtentAndTheKernelScale)
{
    Texels kernel = randomKernel(16, 12, 74);
    normalizePsf(kernel);
    const struct
    {
        int width, height;
        float pixels; // 0: native
    } steps[] = {{40, 30, 0.0f}, {100, 30, 0.0f}, {40, 30, 0.0f}, {40, 30, 11.0f}, {40, 30, 0.0f}};
    for (const auto& step : steps)
    {
        BloomSettings s;
        s.frame.output = FFTB_OUTPUT_MODE_BLOOM;
        if (step.pixels > 0.0f)
            s.plan.kernelSpan = {FFTB_KERNEL_SPAN_PIXELS, step.pixels};
        const Texels frame = randomFrame(step.width, step.height, uint32_t(step.width) + uint32_t(step.pixels));
        EXPECT_LE(relativeError(runner().bloom(frame, kernel, s), referenceFor(frame, kernel, s)), Tolerance::kFp32)
            << describe(step.width, step.height, s);
    }
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

} // namespace
} // namespace fftb::test
