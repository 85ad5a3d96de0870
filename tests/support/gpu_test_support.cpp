// SPDX-License-Identifier: MIT
// Shared pieces of the GPU tests.
#include "gpu_test_support.h"

#include "reference.h"
#include "settings/setting_names.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace fftb::test
{

Prefilter toPlan(const PrefilterSettings& prefilter)
{
    return {prefilter.threshold, prefilter.knee, prefilter.clamp};
}

PrefilterSettings toPublic(const Prefilter& prefilter)
{
    return {prefilter.threshold, prefilter.knee, prefilter.clamp};
}

GpuRunner& runner()
{
    static GpuRunner instance(RunnerOptions{-1, true});
    return instance;
}

Texels randomFrame(int width, int height, uint32_t seed, float peak)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    Texels t(width, height, 4);
    for (float& v : t.values)
        v = u(rng);
    for (int i = 0; i < std::max(1, width * height / 200); ++i)
    {
        const int x = int(rng() % uint32_t(width)), y = int(rng() % uint32_t(height));
        for (int c = 0; c < 3; ++c)
            t.at(x, y, c) = peak;
    }
    return t;
}

double relativeError(const Texels& gpu, const Texels& reference)
{
    double worst = 0.0;
    for (int c = 0; c < 3; ++c)
    {
        double peak = 0.0, error = 0.0;
        for (int y = 0; y < reference.height; ++y)
            for (int x = 0; x < reference.width; ++x)
            {
                peak = std::max(peak, std::fabs(double(reference.at(x, y, c))));
                error = std::max(error, std::fabs(double(gpu.at(x, y, c)) - double(reference.at(x, y, c))));
            }
        worst = std::max(worst, peak > 0.0 ? error / peak : error);
    }
    return worst;
}

std::string describe(int width, int height, const BloomSettings& s)
{
    const char* axis = s.plan.axisOrder == FFTB_AXIS_ORDER_X_FIRST   ? "x-first"
                       : s.plan.axisOrder == FFTB_AXIS_ORDER_Y_FIRST ? "y-first"
                                                                     : "auto";
    return std::to_string(width) + "x" + std::to_string(height) + " " + settingName(s.plan.padding, kPaddingNames) +
           " " + axis +
           (s.kernel.spectrum == FFTB_SPECTRUM_MODE_EXACT                  ? " exact"
            : s.kernel.interpolation == FFTB_SPECTRUM_INTERPOLATION_LINEAR ? " resampled linear"
            : s.kernel.interpolation == FFTB_SPECTRUM_INTERPOLATION_CUBIC  ? " resampled cubic"
                                                                           : " resampled es") +
           (s.plan.kernelSpan.native() ? std::string() : " kernel extent " + kernelSpanText(s.plan.kernelSpan)) +
           (s.plan.resolution != FFTB_BLOOM_RESOLUTION_FULL
                ? " at 1/" + std::to_string(1 << int(s.plan.resolution)) + " resolution"
                : "");
}

Texels onesFrame(int width, int height)
{
    Texels ones(width, height, 3);
    std::fill(ones.values.begin(), ones.values.end(), 1.0f);
    return ones;
}

namespace
{

/// Delta sharpening in the image domain: the spectrum (1 - t) K + t convolves to (1 - t) bloom + t frame, per R, G, B.
Texels sharpened(Texels bloom, const Texels& frame, double t)
{
    if (t == 0.0)
        return bloom;
    for (int y = 0; y < bloom.height; ++y)
        for (int x = 0; x < bloom.width; ++x)
            for (int c = 0; c < 3; ++c)
                bloom.at(x, y, c) = float((1.0 - t) * bloom.at(x, y, c) + t * frame.at(x, y, c));
    return bloom;
}

} // namespace

Texels referenceConvolutionFor(const Texels& frame, const Texels& kernel, FftbPadding padding, double sharpen)
{
    const Texels bloom = sharpened(referenceConvolution(frame, kernel, padding), frame, sharpen);
    if (padding != FFTB_PADDING_ZERO_NORMALIZED)
        return bloom;
    const Texels ones = onesFrame(frame.width, frame.height);
    return referenceNormalized(bloom, sharpened(referenceConvolution(ones, kernel, FFTB_PADDING_ZERO), ones, sharpen));
}

Texels cropAroundBrightest(const Texels& image, int width, int height)
{
    int bx = 0, by = 0;
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x)
            if (image.at(x, y, 1) > image.at(bx, by, 1))
                bx = x, by = y;
    const int x0 = std::clamp(bx - width / 2, 0, image.width - width);
    const int y0 = std::clamp(by - height / 2, 0, image.height - height);
    Texels crop(width, height, image.components);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            for (int c = 0; c < image.components; ++c)
                crop.at(x, y, c) = image.at(x0 + x, y0 + y, c);
    return crop;
}

Texels referenceFor(const Texels& frame, const Texels& kernel, const BloomSettings& s)
{
    if (s.kernel.spectrum == FFTB_SPECTRUM_MODE_EXACT && s.plan.kernelSpan.unit == FFTB_KERNEL_SPAN_NATIVE &&
        s.plan.resolution == FFTB_BLOOM_RESOLUTION_FULL)
        return referenceConvolutionFor(frame, kernel, s.plan.padding, s.frame.sharpen);
    Plan plan;
    std::string error;
    PlanRequest request{uint32_t(frame.width), uint32_t(frame.height), uint32_t(kernel.width), uint32_t(kernel.height),
                        s.plan.padding,        s.plan.axisOrder,       s.kernel.spectrum};
    request.kernelSpanUnit = s.plan.kernelSpan.unit;
    request.kernelSpan = s.plan.kernelSpan.value;
    // The plugin's spectrum length: cubic and linear are simulated on it; for ES it only sets the band limit.
    request.spectrumOversampling = kDefaultSpectrumOversampling;
    request.reduction = 1u << uint32_t(s.plan.resolution);
    EXPECT_TRUE(makePlan(request, &plan, &error)) << error;
    // At reduced resolution the plan's image is the downsampled frame, and its bloom is upsampled to the frame.
    const int f = int(plan.reduction);
    const Texels image = f > 1 ? referenceDownsample(frame, f) : frame;
    if (s.kernel.spectrum == FFTB_SPECTRUM_MODE_EXACT)
    {
        // The kernel scaled in space to its extent on the plan's image, then convolved linearly.
        const AxisPlan& x = plan.firstAxisIsX ? plan.first : plan.second;
        const AxisPlan& y = plan.firstAxisIsX ? plan.second : plan.first;
        const Texels scaled =
            referenceScaledKernel(kernel, plan.kernelScale, int(x.scaledKernelLength), int(y.scaledKernelLength));
        const Texels bloom = referenceConvolutionFor(image, scaled, s.plan.padding, s.frame.sharpen);
        return f > 1 ? referenceUpsample(bloom, frame.width, frame.height, f) : bloom;
    }
    Texels bloom = referenceSpectralConvolution(image, kernel, plan, s.frame.sharpen, s.kernel.interpolation);
    if (s.plan.padding == FFTB_PADDING_ZERO_NORMALIZED)
        bloom = referenceNormalized(bloom, referenceSpectralConvolution(onesFrame(image.width, image.height), kernel,
                                                                        plan, s.frame.sharpen, s.kernel.interpolation));
    return f > 1 ? referenceUpsample(bloom, frame.width, frame.height, f) : bloom;
}

} // namespace fftb::test
