// SPDX-License-Identifier: MIT
// A far field (FftbFarFieldInfo): a second kernel convolved at a quarter or an eighth of the frame's resolution and
// added with its weight, against the double-precision reference of its definition, (1 - w) core + w far, each scale
// normalized by its own padding and the far one downsampled, convolved and upsampled (referenceFor at its resolution);
// sharpening and the composites as of one kernel.
#include "gpu_test_support.h"
#include "psf/psf.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>

namespace fftb::test
{
namespace
{

/// A far field of `size` x `size` random texels summing to 1, at `reduction`, spanning one texel per downsampled pixel.
FarField randomFarField(int size, int reduction, double weight, uint32_t seed)
{
    const Texels random = randomKernel(size, size, seed);
    FarField far{size, double(size) * reduction, reduction, weight, {}};
    double sum = 0.0;
    for (int i = 0; i < size * size; ++i)
        sum += random.values[std::size_t(3 * i)];
    for (int i = 0; i < size * size; ++i)
        far.texels.push_back(float(random.values[std::size_t(3 * i)] / sum));
    return far;
}

/// The reference of the two-scale bloom alone of `frame` (unsharpened): (1 - w) core + w far.
Texels twoScaleReference(const Texels& frame, const Texels& kernel, const FarField& far, const BloomSettings& s)
{
    const Texels core = referenceFor(frame, kernel, s);
    BloomSettings f = s;
    f.plan.resolution = far.reduction == 8 ? FFTB_BLOOM_RESOLUTION_EIGHTH : FFTB_BLOOM_RESOLUTION_QUARTER;
    f.plan.kernelSpan = {FFTB_KERNEL_SPAN_PIXELS, far.spanPixels};
    f.kernel.spectrum = FFTB_SPECTRUM_MODE_EXACT;
    const Texels wide = referenceFor(frame, farFieldTexels(far), f);
    Texels sum(frame.width, frame.height, 3);
    for (std::size_t i = 0; i < sum.values.size(); ++i)
        sum.values[i] = float((1.0 - far.weight) * core.values[i] + far.weight * wide.values[i]);
    return sum;
}

struct FarCase
{
    int width, height;
    FftbPadding padding;
    FftbAxisOrder axisOrder;
    int reduction;
};

class FarFieldBloom : public ::testing::TestWithParam<FarCase>
{
};

// The bloom alone in each padding, axis order and reduction, odd and even extents: within fp32's tolerance of the
// reference, and far from the core alone (the far field is there).
TEST_P(FarFieldBloom, IsTheWeightedSumOfTheCoreAndTheDownsampledFarBloom)
{
    const FarCase& c = GetParam();
    BloomSettings s;
    s.plan.padding = c.padding;
    s.plan.axisOrder = c.axisOrder;
    s.kernel.spectrum = FFTB_SPECTRUM_MODE_EXACT;
    s.frame.output = FFTB_OUTPUT_MODE_BLOOM;
    const Texels frame = randomFrame(c.width, c.height, 21);
    Texels kernel = randomKernel(9, 7, 22);
    normalizePsf(kernel);
    const FarField far = randomFarField(20, c.reduction, 0.3, 23);
    const Texels gpu = runner().bloom(frame, kernel, s, nullptr, far);
    const double error = relativeError(gpu, twoScaleReference(frame, kernel, far, s));
    std::printf("%s far field 1/%d: %.2e of the reference's peak\n", describe(c.width, c.height, s).c_str(),
                c.reduction, error);
    EXPECT_LE(error, Tolerance::kFp32) << describe(c.width, c.height, s);
    EXPECT_GT(relativeError(gpu, referenceFor(frame, kernel, s)), 100 * Tolerance::kFp32) << "no far field";
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

INSTANTIATE_TEST_SUITE_P(Cases, FarFieldBloom,
                         ::testing::Values(FarCase{70, 45, FFTB_PADDING_ZERO_NORMALIZED, FFTB_AXIS_ORDER_X_FIRST, 8},
                                           FarCase{61, 52, FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_Y_FIRST, 4},
                                           FarCase{45, 77, FFTB_PADDING_MIRROR, FFTB_AXIS_ORDER_AUTO, 8}),
                         [](const ::testing::TestParamInfo<FarCase>& info)
                         { return "case" + std::to_string(info.index); });

// Sharpening t blends the two-scale kernel toward the delta, (1 - t)((1 - w) core + w far) * p + t p, and the
// composites take that bloom with the prefilter and tint as one kernel's; alpha passes through.
TEST(FarFieldOutput, SharpensAndCompositesAsOneKernel)
{
    Texels frame = randomFrame(53, 40, 31);
    for (int y = 0; y < frame.height; ++y)
        for (int x = 0; x < frame.width; ++x)
            frame.at(x, y, 3) = float((x + 2 * y) % 7) / 7.0f;
    Texels kernel = randomKernel(11, 9, 32);
    normalizePsf(kernel);
    const FarField far = randomFarField(16, 4, 0.4, 33);
    const Prefilter prefilter{0.6f, 0.3f, 20.0f};
    const std::array<double, 3> tint{1.5, 1.0, 0.5};
    constexpr double t = 0.25;
    for (const FftbOutputMode mode : {FFTB_OUTPUT_MODE_COMPOSITE, FFTB_OUTPUT_MODE_ADDITIVE})
    {
        BloomSettings s;
        s.plan.padding = FFTB_PADDING_ZERO;
        s.kernel.spectrum = FFTB_SPECTRUM_MODE_EXACT;
        s.frame.output = mode;
        s.frame.intensity = 0.7f;
        s.frame.sharpen = float(t);
        s.frame.prefilter = toPublic(prefilter);
        s.frame.tint = {float(tint[0]), float(tint[1]), float(tint[2])};
        const Texels gpu = runner().bloom(frame, kernel, s, nullptr, far);
        const Texels p = referencePrefilter(frame, prefilter);
        BloomSettings unsharpened = s;
        unsharpened.frame.sharpen = 0.0f;
        Texels bloom = twoScaleReference(p, kernel, far, unsharpened);
        for (int y = 0; y < p.height; ++y)
            for (int x = 0; x < p.width; ++x)
                for (int ch = 0; ch < 3; ++ch)
                    bloom.at(x, y, ch) = float((1.0 - t) * bloom.at(x, y, ch) + t * p.at(x, y, ch));
        const Texels expected = referenceOutput(frame, bloom, prefilter, mode, s.frame.intensity, tint);
        EXPECT_LE(relativeError(gpu, expected), Tolerance::kFp32) << describe(frame.width, frame.height, s);
        EXPECT_TRUE(sameAlpha(gpu, frame)) << "alpha passes through";
    }
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

} // namespace
} // namespace fftb::test
