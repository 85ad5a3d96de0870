// SPDX-License-Identifier: MIT
// The resolution of a bloom plan without Vulkan (plugin/plan/recipe.h): its passes, pipelines, workgroup grids,
// timestamps, push constants and sizes against the rules the plan documents, every refusal with its result code and
// the field it names, the per-frame values' checks and the maximum extents' checks.
#include "recipe.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numbers>
#include <ostream>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace fftb
{
namespace
{

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInfinity = std::numeric_limits<float>::infinity();

/// A context's maximum extents generous enough for every case here: 8 views, kernels up to 64 x 64 texels.
Extents roomyExtents()
{
    return {2048, 2048, 64, 64, 64, 64, FFTB_MAX_VIEWS};
}

/// A kernel of `width` x `height` texels in `mode`, resampled (in resampled mode) as FftbKernelInfo's defaults say.
KernelShape kernelShape(uint32_t width, uint32_t height, FftbSpectrumMode mode)
{
    KernelShape k{width, height, mode, {}};
    std::string error;
    EXPECT_TRUE(makeSpectrumResampling(FFTB_SPECTRUM_INTERPOLATION_ES, 0, 0, &k.resampling, &error)) << error;
    return k;
}

FftbBloomPlanCreateInfo planInfo(uint32_t width, uint32_t height)
{
    FftbBloomPlanCreateInfo info{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_CREATE_INFO};
    info.width = width;
    info.height = height;
    info.inputLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    return info;
}

/// The plan resolveRecipe must make for `info` and `kernel`: makePlan of the request the public fields describe.
Plan expectedPlan(const FftbBloomPlanCreateInfo& info, const KernelShape& kernel, FftbLengthPolicy lengths)
{
    PlanRequest request{info.width,   info.height,    kernel.width, kernel.height,
                        info.padding, info.axisOrder, kernel.mode,  lengths};
    if (info.kernelSpanUnit != FFTB_KERNEL_SPAN_NATIVE)
    {
        request.kernelSpanUnit = info.kernelSpanUnit;
        request.kernelSpan = info.kernelSpan;
    }
    request.spectrumOversampling = kernel.resampling.oversampling;
    request.reduction = 1u << uint32_t(info.resolution);
    Plan plan;
    std::string error;
    EXPECT_TRUE(makePlan(request, &plan, &error)) << error;
    return plan;
}

uint32_t ceilDiv(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

/// The shaders' value of a padding (fftb_shared.h).
uint32_t gpuPadding(FftbPadding padding)
{
    return padding == FFTB_PADDING_ZERO_NORMALIZED ? FFTB_GPU_PADDING_ZERO_NORMALIZED
           : padding == FFTB_PADDING_ZERO          ? FFTB_GPU_PADDING_ZERO
                                                   : FFTB_GPU_PADDING_MIRROR;
}

/// The shaders' value of an interpolation (fftb_shared.h).
uint32_t gpuInterpolation(FftbSpectrumInterpolation interpolation)
{
    return interpolation == FFTB_SPECTRUM_INTERPOLATION_ES      ? FFTB_GPU_INTERPOLATION_ES
           : interpolation == FFTB_SPECTRUM_INTERPOLATION_CUBIC ? FFTB_GPU_INTERPOLATION_CUBIC
                                                                : FFTB_GPU_INTERPOLATION_LINEAR;
}

/// Whether `reason` names `field` first ("field: ...").
::testing::AssertionResult namesField(const std::string& reason, const std::string& field)
{
    if (reason.rfind(field + ":", 0) == 0)
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "the reason \"" << reason << "\" does not begin with \"" << field << ":\"";
}

/// Expects resolveRecipe to refuse with `result` and a reason beginning with `field`, leaving `recipe` alone.
void expectRefusal(const FftbBloomPlanCreateInfo& info, const Extents& max, const KernelShape& kernel,
                   FftbResult result, const std::string& field, const DeviceLimits& limits = {})
{
    Recipe recipe;
    recipe.views = 77; // a value resolveRecipe never writes: the recipe is left alone on a refusal
    Refusal refusal;
    EXPECT_FALSE(resolveRecipe(info, max, kernel, FFTB_LENGTH_POLICY_MIXED_RADIX, limits, &recipe, &refusal))
        << "expected a refusal naming " << field;
    EXPECT_EQ(refusal.result, result) << refusal.reason;
    EXPECT_TRUE(namesField(refusal.reason, field));
    EXPECT_EQ(recipe.views, 77u);
}

} // namespace

// In the namespace of the recipe's types, where gtest looks: failures print the keys and grids.
static void PrintTo(const PipelineKey& key, std::ostream* os)
{
    *os << "{pass " << uint32_t(key.pass) << ", FFT length " << key.fftLength << (key.halfStorage ? ", fp16" : "")
        << (key.multiView ? ", multi-view}" : "}");
}

static void PrintTo(const Dispatch& d, std::ostream* os)
{
    PrintTo(d.pipeline, os);
    *os << " x {" << d.groups[0] << ", " << d.groups[1] << ", " << d.groups[2] << "}"
        << (d.timestampAfter ? " + timestamp" : "");
}

namespace
{

// ---- The passes of every kind of plan ----

enum class KernelMode
{
    Exact,
    Resampled,
};

/// full or half resolution (with its kernel), padding, views (FftbBloomPlanCreateInfo::viewCount), storage precision.
using RecipeParam =
    std::tuple<std::tuple<FftbBloomResolution, KernelMode>, FftbPadding, uint32_t, FftbStoragePrecision>;

std::string recipeName(const ::testing::TestParamInfo<RecipeParam>& info)
{
    const auto& [resolutionKernel, padding, views, storage] = info.param;
    const auto& [resolution, kernel] = resolutionKernel;
    return std::string(resolution == FFTB_BLOOM_RESOLUTION_HALF ? "half" : "full") +
           (kernel == KernelMode::Exact ? "_exact" : "_resampled") +
           (padding == FFTB_PADDING_ZERO_NORMALIZED ? "_normalized"
            : padding == FFTB_PADDING_ZERO          ? "_zero"
                                                    : "_mirror") +
           "_" + std::to_string(views) + "views" + (storage == FFTB_STORAGE_PRECISION_FLOAT16 ? "_fp16" : "_fp32");
}

class RecipePasses : public ::testing::TestWithParam<RecipeParam>
{
};

// Each pass list against the plan's rules, for frames of odd and even extents, kernels smaller and larger than the
// frame (pass 2's row length; in exact mode at zero padding more kernel lines than spectrum lines), both axis orders
// and AUTO.
TEST_P(RecipePasses, FollowThePlansRules)
{
    const auto& [resolutionKernel, padding, viewCount, storage] = GetParam();
    const auto& [resolution, kernelKind] = resolutionKernel;
    const bool half = resolution == FFTB_BLOOM_RESOLUTION_HALF;
    const bool fp16 = storage == FFTB_STORAGE_PRECISION_FLOAT16;
    const bool normalized = padding == FFTB_PADDING_ZERO_NORMALIZED;
    const uint32_t views = std::max(viewCount, 1u);
    const bool multiView = views >= 2;
    const FftbSpectrumMode mode =
        kernelKind == KernelMode::Exact ? FFTB_SPECTRUM_MODE_EXACT : FFTB_SPECTRUM_MODE_RESAMPLED;
    struct Case
    {
        uint32_t width, height, kernelWidth, kernelHeight;
        FftbAxisOrder axisOrder;
    };
    for (const Case& c : {Case{37, 19, 8, 6, FFTB_AXIS_ORDER_AUTO}, Case{37, 19, 33, 33, FFTB_AXIS_ORDER_X_FIRST},
                          Case{640, 360, 64, 48, FFTB_AXIS_ORDER_Y_FIRST}, Case{99, 200, 16, 16, FFTB_AXIS_ORDER_AUTO},
                          Case{5, 3, 33, 33, FFTB_AXIS_ORDER_X_FIRST}})
    {
        SCOPED_TRACE(std::to_string(c.width) + "x" + std::to_string(c.height) + " kernel " +
                     std::to_string(c.kernelWidth) + "x" + std::to_string(c.kernelHeight) + " axis order " +
                     std::to_string(c.axisOrder));
        FftbBloomPlanCreateInfo info = planInfo(c.width, c.height);
        info.viewCount = viewCount;
        info.padding = padding;
        info.axisOrder = c.axisOrder;
        info.storagePrecision = storage;
        info.resolution = resolution;
        info.inputLayout = VK_IMAGE_LAYOUT_GENERAL;
        const KernelShape kernel = kernelShape(c.kernelWidth, c.kernelHeight, mode);
        Recipe r;
        Refusal refusal;
        ASSERT_TRUE(
            resolveRecipe(info, roomyExtents(), kernel, FFTB_LENGTH_POLICY_MIXED_RADIX, DeviceLimits{}, &r, &refusal))
            << refusal.reason;

        // The plan, and what it says of the frame.
        ASSERT_EQ(r.plan, expectedPlan(info, kernel, FFTB_LENGTH_POLICY_MIXED_RADIX));
        const Plan& plan = r.plan;
        const AxisPlan &a = plan.first, &b = plan.second;
        const uint32_t planWidth = half ? ceilDiv(c.width, 2) : c.width;
        const uint32_t planHeight = half ? ceilDiv(c.height, 2) : c.height;
        EXPECT_EQ(plan.firstAxisIsX ? a.imageLength : b.imageLength, planWidth);
        EXPECT_EQ(plan.firstAxisIsX ? b.imageLength : a.imageLength, planHeight);
        EXPECT_EQ(plan.firstAxisIsX ? a.frameLength : b.frameLength, c.width);
        EXPECT_EQ(plan.firstAxisIsX ? b.frameLength : a.frameLength, c.height);
        if (c.axisOrder != FFTB_AXIS_ORDER_AUTO)
        {
            EXPECT_EQ(plan.firstAxisIsX, c.axisOrder == FFTB_AXIS_ORDER_X_FIRST);
        }
        EXPECT_EQ(r.views, views);
        EXPECT_EQ(r.multiView, multiView);
        EXPECT_EQ(r.halfStorage, fp16);
        EXPECT_EQ(r.normalized, normalized);
        EXPECT_EQ(r.inputLayout, uint32_t(VK_IMAGE_LAYOUT_GENERAL));

        // The kernel spectrum: its first axis over the kernel's lines (pairs of them), then the second axis over the
        // half spectrum's lines and the three channels, then in resampled mode its resolution at the frame's
        // frequencies over the frame's first-axis half spectrum and the channels; one layer, no timestamps, never fp16
        // or multi-view.
        const bool resampled = mode == FFTB_SPECTRUM_MODE_RESAMPLED;
        ASSERT_EQ(r.spectrumPasses.size(), resampled ? 3u : 2u);
        EXPECT_EQ(r.spectrumPasses[0], (Dispatch{{Pass::KernelFftFirst, a.spectrumLength, false, false},
                                                 {(std::min(b.kernelLength, b.spectrumLength) + 1) / 2, 1, 1},
                                                 false}));
        EXPECT_EQ(r.spectrumPasses[1], (Dispatch{{Pass::KernelFftSecond, b.spectrumLength, false, false},
                                                 {a.spectrumLength / 2 + 1, 3, 1},
                                                 false}));
        if (resampled)
        {
            EXPECT_EQ(
                r.spectrumPasses[2],
                (Dispatch{{Pass::KernelResolveSpectrum, 0, false, false}, {a.paddedLength / 2 + 1, 3, 1}, false}));
        }
        // Per channel: the stored spectrum (resampled mode), then the one at the frame's frequencies, then up to 256
        // bytes.
        const uint32_t stored = resampled ? (a.spectrumLength / 2 + 1) * b.spectrumLength : 0u;
        EXPECT_EQ(r.push.resolvedSpectrumStart, stored);
        const uint64_t channel = stored + uint64_t(a.paddedLength / 2 + 1) * b.paddedLength;
        EXPECT_GE(r.spectrumChannelElements, channel);
        EXPECT_LT(r.spectrumChannelElements, channel + 32);
        EXPECT_EQ(r.spectrumChannelElements % 32, 0u);

        // The frame: pass 1 over pairs of the second axis's image lines, pass 2 over the first axis's half spectrum
        // and the three channels, pass 3 as pass 1, each view a layer; pass 4 at half resolution over 8 x 8 tiles of
        // the frame. A timestamp after passes 1, 2 and the last.
        const PipelineKey first{Pass::ImageFftFirst, a.paddedLength, fp16, multiView};
        const PipelineKey second{Pass::ImageFftSecondConvolveIfftSecond, b.paddedLength, fp16, multiView};
        const PipelineKey third{Pass::ImageIfftFirstComposite, a.paddedLength, fp16, multiView};
        const std::array<uint32_t, 3> pairs{ceilDiv(b.imageLength, 2), 1, views};
        std::vector<Dispatch> frame{
            {first, pairs, true}, {second, {a.paddedLength / 2 + 1, 3, views}, true}, {third, pairs, !half}};
        if (half)
            frame.push_back({{Pass::ImageUpsampleComposite, 0, false, multiView},
                             {ceilDiv(c.width, 8), ceilDiv(c.height, 8), views},
                             true});
        EXPECT_EQ(r.framePasses, frame);
        uint32_t stamps = 0;
        for (const Dispatch& d : r.framePasses)
            stamps += d.timestampAfter ? 1 : 0;
        EXPECT_EQ(stamps + 2, FFTB_TIMESTAMP_COUNT) << "the first two timestamps are before the frame passes";

        // Normalized convolution: passes 1-3 over view 0 alone, no pass 4 and no timestamps; none otherwise.
        std::vector<Dispatch> weights;
        if (normalized)
            weights = {{first, {pairs[0], 1, 1}, false},
                       {second, {a.paddedLength / 2 + 1, 3, 1}, false},
                       {third, {pairs[0], 1, 1}, false}};
        EXPECT_EQ(r.borderWeightPasses, weights);

        // Every pipeline of the three lists, each once.
        std::set<PipelineKey> used;
        for (const auto* passes : {&r.spectrumPasses, &r.borderWeightPasses, &r.framePasses})
            for (const Dispatch& d : *passes)
                used.insert(d.pipeline);
        EXPECT_EQ(std::set<PipelineKey>(r.pipelines.begin(), r.pipelines.end()), used);
        EXPECT_EQ(r.pipelines.size(), used.size()) << "a pipeline listed twice";

        // Sizes: the scratch of plan.h's layout (the kernel spectrum's above), 3 fp32 planes of the frame for the
        // border weights.
        EXPECT_EQ(r.scratchBytes, scratchBytes(plan, fp16 ? 4 : 8, views));
        EXPECT_EQ(r.borderWeightBytes, normalized ? uint64_t(3) * c.width * c.height * sizeof(float) : 0u);
        // Each view's half spectrum along the first axis has its place: 3 channels of (N1 / 2 + 1) lines, in blocks of
        // FFTB_INTERMEDIATE_BLOCK_LINES, of L2 elements.
        const uint64_t viewBytes = uint64_t(3) * ceilDiv(a.paddedLength / 2 + 1, FFTB_INTERMEDIATE_BLOCK_LINES) *
                                   FFTB_INTERMEDIATE_BLOCK_LINES * b.imageLength * (fp16 ? 4 : 8);
        EXPECT_GE(r.scratchBytes, views * viewBytes);

        // The plan's push constants; the per-frame ones zero.
        const FftbPushConstants& p = r.push;
        EXPECT_EQ(p.imageLength1, a.imageLength);
        EXPECT_EQ(p.imageLength2, b.imageLength);
        EXPECT_EQ(p.paddedLength1, a.paddedLength);
        EXPECT_EQ(p.paddedLength2, b.paddedLength);
        EXPECT_EQ(p.mirrorSplit1, a.mirrorSplit);
        EXPECT_EQ(p.mirrorSplit2, b.mirrorSplit);
        EXPECT_EQ(p.kernelLength1, a.kernelLength);
        EXPECT_EQ(p.kernelLength2, b.kernelLength);
        EXPECT_EQ(p.kernelCentre1, a.kernelLength / 2);
        EXPECT_EQ(p.kernelCentre2, b.kernelLength / 2);
        EXPECT_EQ(p.spectrumLength1, a.spectrumLength);
        EXPECT_EQ(p.spectrumLength2, b.spectrumLength);
        uint32_t flags =
            (plan.firstAxisIsX ? FFTB_GPU_FLAG_FIRST_AXIS_IS_X : 0u) | (resampled ? FFTB_GPU_FLAG_RESAMPLED : 0u);
        if (half) // 2 = 1 << 1, and 2 L - r texels: r = 1 for an odd frame length
            flags |= 1u << FFTB_GPU_FLAG_REDUCTION_SHIFT | (a.frameLength % 2) << FFTB_GPU_FLAG_REMAINDER_1_SHIFT |
                     (b.frameLength % 2) << FFTB_GPU_FLAG_REMAINDER_2_SHIFT;
        EXPECT_EQ(p.flags, flags);
        EXPECT_EQ(p.padding, uint32_t(padding));
        EXPECT_EQ(p.padding, gpuPadding(padding));
        EXPECT_FLOAT_EQ(p.inverseScale,
                        float(1.0 / (fp16 ? double(b.paddedLength) : double(a.paddedLength) * b.paddedLength)));
        EXPECT_EQ(p.spectrumTwiddleOffset1, twiddleTables().offsetOf(a.spectrumLength));
        EXPECT_EQ(p.interpolation, uint32_t(FFTB_SPECTRUM_INTERPOLATION_ES));
        EXPECT_EQ(p.interpolationWidth, kDefaultEsWidth);
        EXPECT_FLOAT_EQ(p.kernelScale, half ? 0.5f : 1.0f);
        // After the intermediate of every view, in 16-byte units (read at full resolution only with a far field).
        EXPECT_EQ(p.scratchBloomStart, (intermediateElements(plan, views) * (fp16 ? 4 : 8) + 15) / 16);
        EXPECT_EQ(p.borderWeights,
                  normalized ? uint32_t(FFTB_GPU_BORDER_WEIGHTS_DIVIDE) : FFTB_GPU_BORDER_WEIGHTS_NONE);
        EXPECT_EQ(p.outputMode, 0u);
        for (const float perFrame :
             {p.sharpen, p.intensity, p.threshold, p.knee, p.clampValue, p.tintRed, p.tintGreen, p.tintBlue})
            EXPECT_EQ(perFrame, 0.0f);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Plans, RecipePasses,
    ::testing::Combine(::testing::Values(std::tuple{FFTB_BLOOM_RESOLUTION_FULL, KernelMode::Exact},
                                         std::tuple{FFTB_BLOOM_RESOLUTION_FULL, KernelMode::Resampled},
                                         std::tuple{FFTB_BLOOM_RESOLUTION_HALF, KernelMode::Resampled}),
                       ::testing::Values(FFTB_PADDING_ZERO_NORMALIZED, FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR),
                       ::testing::Values(0u, 1u, 2u, FFTB_MAX_VIEWS),
                       ::testing::Values(FFTB_STORAGE_PRECISION_FLOAT32, FFTB_STORAGE_PRECISION_FLOAT16)),
    recipeName);

// The push constants of the interpolation (the public enum's value, which the shaders compare with theirs), its taps
// and the ES window's beta = 0.97 pi (1 - 1 / (2 oversampling)) W, rounded to float.
TEST(Recipe, PushesTheKernelsInterpolation)
{
    for (const FftbSpectrumInterpolation interpolation :
         {FFTB_SPECTRUM_INTERPOLATION_ES, FFTB_SPECTRUM_INTERPOLATION_CUBIC, FFTB_SPECTRUM_INTERPOLATION_LINEAR})
        for (const uint32_t oversampling : {1u, 2u})
        {
            KernelShape kernel{16, 16, FFTB_SPECTRUM_MODE_RESAMPLED, {}};
            std::string error;
            ASSERT_TRUE(makeSpectrumResampling(interpolation, 0, oversampling, &kernel.resampling, &error)) << error;
            Recipe r;
            Refusal refusal;
            ASSERT_TRUE(resolveRecipe(planInfo(100, 60), roomyExtents(), kernel, FFTB_LENGTH_POLICY_MIXED_RADIX,
                                      DeviceLimits{}, &r, &refusal))
                << refusal.reason;
            const uint32_t taps = interpolation == FFTB_SPECTRUM_INTERPOLATION_ES      ? 8
                                  : interpolation == FFTB_SPECTRUM_INTERPOLATION_CUBIC ? 4
                                                                                       : 2;
            EXPECT_EQ(r.push.interpolation, uint32_t(interpolation));
            EXPECT_EQ(r.push.interpolation, gpuInterpolation(interpolation));
            EXPECT_EQ(r.push.interpolationWidth, taps);
            if (interpolation == FFTB_SPECTRUM_INTERPOLATION_ES)
            {
                EXPECT_FLOAT_EQ(r.push.esBeta, float(0.97 * std::numbers::pi * (1.0 - 0.5 / oversampling) * taps));
            }
            EXPECT_EQ(r.plan.first.spectrumLength, oversampling * 16) << "S = oversampling * pow2ceil(K)";
        }
}

// The kernel spectrum's first pass writes the kernel's first-axis transform as complex fp32 into the scratch: per
// channel blocks of 4 of the S1 / 2 + 1 lines, min(K2, S2) elements each, whatever the plan's storage precision. An
// fp16 plan's scratch holds it too (a 37 x 19 frame with a 33 x 33 kernel needs more for the kernel than its frame).
TEST(Recipe, ScratchHoldsTheKernelsFp32TransformAtEitherPrecision)
{
    const KernelShape kernel = kernelShape(33, 33, FFTB_SPECTRUM_MODE_RESAMPLED);
    for (const FftbStoragePrecision precision : {FFTB_STORAGE_PRECISION_FLOAT32, FFTB_STORAGE_PRECISION_FLOAT16})
        for (const FftbBloomResolution resolution : {FFTB_BLOOM_RESOLUTION_FULL, FFTB_BLOOM_RESOLUTION_HALF})
        {
            FftbBloomPlanCreateInfo info = planInfo(37, 19);
            info.padding = FFTB_PADDING_ZERO;
            info.storagePrecision = precision;
            info.resolution = resolution;
            Recipe r;
            Refusal refusal;
            ASSERT_TRUE(resolveRecipe(info, roomyExtents(), kernel, FFTB_LENGTH_POLICY_MIXED_RADIX, DeviceLimits{}, &r,
                                      &refusal))
                << refusal.reason;
            const uint64_t s1 = r.plan.first.spectrumLength, s2 = r.plan.second.spectrumLength;
            const uint64_t lines = std::min<uint64_t>(r.plan.second.kernelLength, s2);
            const uint64_t kernelBytes = 3 * ((s1 / 2 + 1 + 3) / 4) * 4 * lines * 8;
            EXPECT_GE(r.scratchBytes, kernelBytes) << "precision " << precision << ", resolution " << resolution;
        }
}

// sigma = span / max(Kw, Kh), the kernel's extent on the frame ceil(sigma K) per axis; at half resolution sigma / 2.
TEST(Recipe, PushesTheKernelScale)
{
    const KernelShape kernel = kernelShape(16, 12, FFTB_SPECTRUM_MODE_RESAMPLED);
    for (const FftbBloomResolution resolution : {FFTB_BLOOM_RESOLUTION_FULL, FFTB_BLOOM_RESOLUTION_HALF})
    {
        FftbBloomPlanCreateInfo info = planInfo(300, 200);
        info.resolution = resolution;
        info.kernelSpanUnit = FFTB_KERNEL_SPAN_PIXELS;
        info.kernelSpan = 40.0f;
        Recipe r;
        Refusal refusal;
        ASSERT_TRUE(
            resolveRecipe(info, roomyExtents(), kernel, FFTB_LENGTH_POLICY_MIXED_RADIX, DeviceLimits{}, &r, &refusal))
            << refusal.reason;
        const double sigma = 40.0 / 16 / (resolution == FFTB_BLOOM_RESOLUTION_HALF ? 2 : 1);
        EXPECT_DOUBLE_EQ(r.plan.kernelScale, sigma);
        EXPECT_FLOAT_EQ(r.push.kernelScale, float(sigma));
        EXPECT_EQ(r.plan, expectedPlan(info, kernel, FFTB_LENGTH_POLICY_MIXED_RADIX));

        info.kernelSpanUnit = FFTB_KERNEL_SPAN_FRAME_DIAGONAL;
        info.kernelSpan = 0.1f;
        ASSERT_TRUE(
            resolveRecipe(info, roomyExtents(), kernel, FFTB_LENGTH_POLICY_MIXED_RADIX, DeviceLimits{}, &r, &refusal))
            << refusal.reason;
        const double span = double(0.1f) * std::hypot(300.0, 200.0);
        EXPECT_NEAR(r.plan.kernelScale, span / 16 / (resolution == FFTB_BLOOM_RESOLUTION_HALF ? 2 : 1), 1e-12);
    }
}

// The planner's length policy reaches the plan.
TEST(Recipe, PlansWithTheContextsLengthPolicy)
{
    const KernelShape kernel = kernelShape(33, 33, FFTB_SPECTRUM_MODE_EXACT);
    const FftbBloomPlanCreateInfo info = planInfo(300, 170);
    Recipe r;
    Refusal refusal;
    ASSERT_TRUE(
        resolveRecipe(info, roomyExtents(), kernel, FFTB_LENGTH_POLICY_POWER_OF_TWO, DeviceLimits{}, &r, &refusal))
        << refusal.reason;
    EXPECT_EQ(r.plan, expectedPlan(info, kernel, FFTB_LENGTH_POLICY_POWER_OF_TWO));
    for (const uint32_t n : {r.plan.first.paddedLength, r.plan.second.paddedLength})
        EXPECT_EQ(n & (n - 1), 0u) << n << " is not a power of two";
}

// ---- Per-frame push constants ----

TEST(Recipe, BloomPushConstantsAddTheFramesValues)
{
    Recipe r;
    Refusal refusal;
    FftbBloomPlanCreateInfo planCreate = planInfo(64, 48);
    planCreate.padding = FFTB_PADDING_ZERO_NORMALIZED;
    ASSERT_TRUE(resolveRecipe(planCreate, roomyExtents(), kernelShape(9, 7, FFTB_SPECTRUM_MODE_RESAMPLED),
                              FFTB_LENGTH_POLICY_MIXED_RADIX, DeviceLimits{}, &r, &refusal))
        << refusal.reason;
    FftbBloomInfo info{FFTB_STRUCTURE_TYPE_BLOOM_INFO};
    info.outputMode = FFTB_OUTPUT_MODE_ADDITIVE;
    info.intensity = 0.75f;
    info.sharpen = 0.25f;
    info.prefilterThreshold = 2.0f;
    info.prefilterKnee = 0.5f;
    info.prefilterClamp = 30.0f;
    info.tint[0] = 0.5f;
    info.tint[1] = 1.5f;
    info.tint[2] = 2.0f;
    info.tintEnabled = VK_TRUE;
    const FftbPushConstants p = bloomPushConstants(r, info);
    EXPECT_EQ(p.outputMode, uint32_t(FFTB_OUTPUT_MODE_ADDITIVE));
    EXPECT_EQ(p.outputMode, uint32_t(FFTB_GPU_OUTPUT_ADDITIVE));
    EXPECT_EQ(p.intensity, 0.75f);
    EXPECT_EQ(p.sharpen, 0.25f);
    EXPECT_EQ(p.threshold, 2.0f);
    EXPECT_EQ(p.knee, 0.5f);
    EXPECT_EQ(p.clampValue, 30.0f);
    EXPECT_EQ(p.tintRed, 0.5f);
    EXPECT_EQ(p.tintGreen, 1.5f);
    EXPECT_EQ(p.tintBlue, 2.0f);
    // Everything else is the plan's.
    FftbPushConstants planPart = p;
    planPart.outputMode = 0;
    planPart.intensity = planPart.sharpen = planPart.threshold = planPart.knee = planPart.clampValue = 0.0f;
    planPart.tintRed = planPart.tintGreen = planPart.tintBlue = 0.0f;
    EXPECT_EQ(std::memcmp(&planPart, &r.push, sizeof planPart), 0);

    // A zero-initialized FftbBloomInfo has no tint: white, whatever tint holds.
    FftbBloomInfo plain{FFTB_STRUCTURE_TYPE_BLOOM_INFO};
    plain.outputMode = FFTB_OUTPUT_MODE_COMPOSITE;
    plain.intensity = 0.25f;
    const FftbPushConstants white = bloomPushConstants(r, plain);
    EXPECT_EQ(white.outputMode, uint32_t(FFTB_GPU_OUTPUT_COMPOSITE));
    EXPECT_EQ(white.tintRed, 1.0f);
    EXPECT_EQ(white.tintGreen, 1.0f);
    EXPECT_EQ(white.tintBlue, 1.0f);
    EXPECT_EQ(white.borderWeights, uint32_t(FFTB_GPU_BORDER_WEIGHTS_DIVIDE));
    FftbBloomInfo unread = plain;
    unread.tint[0] = 3.0f;
    EXPECT_EQ(bloomPushConstants(r, unread).tintRed, 1.0f) << "tintEnabled VK_FALSE: not read";
    // Enabled, every tint is itself: black ({0, 0, 0}, which used to read as white), or one channel alone.
    FftbBloomInfo black = plain;
    black.tintEnabled = VK_TRUE;
    const FftbPushConstants blackPush = bloomPushConstants(r, black);
    EXPECT_EQ(blackPush.tintRed + blackPush.tintGreen + blackPush.tintBlue, 0.0f);
    for (int channel = 0; channel < 3; ++channel)
    {
        FftbBloomInfo one = black;
        one.tint[channel] = 3.0f;
        const FftbPushConstants tinted = bloomPushConstants(r, one);
        const float rgb[3] = {tinted.tintRed, tinted.tintGreen, tinted.tintBlue};
        for (int c = 0; c < 3; ++c)
            EXPECT_EQ(rgb[c], c == channel ? 3.0f : 0.0f) << "tint channel " << channel;
    }
}

TEST(Recipe, BorderWeightPushConstantsWriteTheWeights)
{
    Recipe r;
    Refusal refusal;
    FftbBloomPlanCreateInfo info = planInfo(64, 48);
    info.padding = FFTB_PADDING_ZERO_NORMALIZED;
    ASSERT_TRUE(resolveRecipe(info, roomyExtents(), kernelShape(9, 7, FFTB_SPECTRUM_MODE_EXACT),
                              FFTB_LENGTH_POLICY_MIXED_RADIX, DeviceLimits{}, &r, &refusal))
        << refusal.reason;
    const FftbPushConstants p = borderWeightPushConstants(r);
    EXPECT_EQ(p.borderWeights, uint32_t(FFTB_GPU_BORDER_WEIGHTS_WRITE));
    EXPECT_EQ(p.sharpen, 0.0f) << "the weights are of the unsharpened kernel";
    FftbPushConstants rest = p;
    rest.borderWeights = r.push.borderWeights;
    EXPECT_EQ(std::memcmp(&rest, &r.push, sizeof rest), 0);
}

// ---- Refusals ----

TEST(RecipeRefusal, NamesAnUnknownEnum)
{
    const KernelShape kernel = kernelShape(8, 8, FFTB_SPECTRUM_MODE_RESAMPLED);
    const Extents max = roomyExtents();
    // Past the last value, and negative: a C enum holds any int.
    for (const int value : {int(FFTB_PADDING_MIRROR) + 1, -1, INT32_MIN})
    {
        SCOPED_TRACE(value);
        FftbBloomPlanCreateInfo info = planInfo(64, 48);
        info.padding = FftbPadding(value);
        expectRefusal(info, max, kernel, FFTB_ERROR_INVALID_ARGUMENT, "padding");
    }
    for (const int value : {-1, INT32_MIN})
    {
        SCOPED_TRACE(value);
        FftbBloomPlanCreateInfo info = planInfo(64, 48);
        info.axisOrder = FftbAxisOrder(value);
        expectRefusal(info, max, kernel, FFTB_ERROR_INVALID_ARGUMENT, "axisOrder");
        info = planInfo(64, 48);
        info.storagePrecision = FftbStoragePrecision(value);
        expectRefusal(info, max, kernel, FFTB_ERROR_INVALID_ARGUMENT, "storagePrecision");
        info = planInfo(64, 48);
        info.resolution = FftbBloomResolution(value);
        expectRefusal(info, max, kernel, FFTB_ERROR_INVALID_ARGUMENT, "resolution");
        info = planInfo(64, 48);
        info.kernelSpanUnit = FftbKernelSpanUnit(value);
        info.kernelSpan = 10.0f;
        expectRefusal(info, max, kernel, FFTB_ERROR_INVALID_ARGUMENT, "kernelSpanUnit");
        FftbBloomInfo bloom{FFTB_STRUCTURE_TYPE_BLOOM_INFO};
        bloom.intensity = 0.25f;
        bloom.outputMode = FftbOutputMode(value);
        EXPECT_EQ(checkBloomValues(bloom), "outputMode: unknown value");
        bloom.outputMode = FFTB_OUTPUT_MODE_COMPOSITE;
        bloom.sourceMask = FftbSourceMask(value);
        EXPECT_EQ(checkBloomValues(bloom), "sourceMask: unknown value");
    }
    FftbBloomInfo masked{FFTB_STRUCTURE_TYPE_BLOOM_INFO};
    masked.sourceMask = FftbSourceMask(FFTB_SOURCE_MASK_ONE_MINUS_ALPHA + 1);
    EXPECT_EQ(checkBloomValues(masked), "sourceMask: unknown value");
    FftbBloomPlanCreateInfo info = planInfo(64, 48);
    info.axisOrder = FftbAxisOrder(FFTB_AXIS_ORDER_Y_FIRST + 1);
    expectRefusal(info, max, kernel, FFTB_ERROR_INVALID_ARGUMENT, "axisOrder");
    info = planInfo(64, 48);
    info.storagePrecision = FftbStoragePrecision(FFTB_STORAGE_PRECISION_FLOAT16 + 1);
    expectRefusal(info, max, kernel, FFTB_ERROR_INVALID_ARGUMENT, "storagePrecision");
    info = planInfo(64, 48);
    info.resolution = FftbBloomResolution(FFTB_BLOOM_RESOLUTION_EIGHTH + 1);
    expectRefusal(info, max, kernel, FFTB_ERROR_INVALID_ARGUMENT, "resolution");
    info = planInfo(64, 48);
    info.kernelSpanUnit = FftbKernelSpanUnit(FFTB_KERNEL_SPAN_FRAME_DIAGONAL + 1);
    info.kernelSpan = 10.0f;
    expectRefusal(info, max, kernel, FFTB_ERROR_INVALID_ARGUMENT, "kernelSpanUnit");
    info = planInfo(64, 48);
    for (const VkImageLayout layout : {VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL})
    {
        info.inputLayout = layout;
        expectRefusal(info, max, kernel, FFTB_ERROR_INVALID_ARGUMENT, "inputLayout");
    }
}

TEST(RecipeRefusal, NamesAnExtentOutsideTheContexts)
{
    const KernelShape kernel = kernelShape(8, 8, FFTB_SPECTRUM_MODE_RESAMPLED);
    const Extents max{100, 80, 16, 16, 16, 16, 2};
    for (const auto& [w, h] : {std::pair{0u, 48u}, std::pair{64u, 0u}})
        expectRefusal(planInfo(w, h), max, kernel, FFTB_ERROR_INVALID_ARGUMENT, "width, height");
    for (const auto& [w, h] : {std::pair{101u, 48u}, std::pair{64u, 81u}})
        expectRefusal(planInfo(w, h), max, kernel, FFTB_ERROR_DEVICE_LIMIT, "width, height");
    Recipe r;
    Refusal refusal;
    EXPECT_TRUE(
        resolveRecipe(planInfo(100, 80), max, kernel, FFTB_LENGTH_POLICY_MIXED_RADIX, DeviceLimits{}, &r, &refusal))
        << "the maximum extent itself: " << refusal.reason;
}

TEST(RecipeRefusal, NamesTooManyViews)
{
    const KernelShape kernel = kernelShape(8, 8, FFTB_SPECTRUM_MODE_RESAMPLED);
    FftbBloomPlanCreateInfo info = planInfo(64, 48);
    info.viewCount = FFTB_MAX_VIEWS + 1; // past every context's maxViews, as the header says
    expectRefusal(info, roomyExtents(), kernel, FFTB_ERROR_DEVICE_LIMIT, "viewCount");
    Extents two = roomyExtents();
    two.views = 2;
    info.viewCount = 3;
    expectRefusal(info, two, kernel, FFTB_ERROR_DEVICE_LIMIT, "viewCount");
    info.viewCount = 2;
    Recipe r;
    Refusal refusal;
    EXPECT_TRUE(resolveRecipe(info, two, kernel, FFTB_LENGTH_POLICY_MIXED_RADIX, DeviceLimits{}, &r, &refusal))
        << refusal.reason;
}

TEST(RecipeRefusal, NamesAKernelLargerThanTheContextsMaximum)
{
    Extents max = roomyExtents();
    max.kernelWidth = 15;
    max.kernelHeight = 64;
    expectRefusal(planInfo(64, 48), max, kernelShape(16, 8, FFTB_SPECTRUM_MODE_RESAMPLED), FFTB_ERROR_DEVICE_LIMIT,
                  "kernel");
    max = roomyExtents();
    max.kernelHeight = 7;
    expectRefusal(planInfo(64, 48), max, kernelShape(4, 8, FFTB_SPECTRUM_MODE_EXACT), FFTB_ERROR_DEVICE_LIMIT,
                  "kernel");
}

// An exact-mode kernel is scaled in space: its two spectrum passes place the kernel at its extent on the frame, the
// push constants carrying the kernel's resolution as the image lengths and the placed lengths and centres as the
// kernel's; the first pass transforms the placed kernel's lines in pairs.
TEST(Recipe, AnExactKernelIsPlacedAtItsExtentOnTheFrame)
{
    const KernelShape exact = kernelShape(8, 4, FFTB_SPECTRUM_MODE_EXACT);
    const struct
    {
        float pixels; // 0: native
        FftbBloomResolution resolution;
        uint32_t placedX, placedY;
    } cases[] = {{0.0f, FFTB_BLOOM_RESOLUTION_FULL, 8, 4},
                 {12.0f, FFTB_BLOOM_RESOLUTION_FULL, 12, 6},
                 {0.0f, FFTB_BLOOM_RESOLUTION_HALF, 4, 2},
                 {12.0f, FFTB_BLOOM_RESOLUTION_HALF, 6, 3}};
    for (const auto& c : cases)
    {
        FftbBloomPlanCreateInfo info = planInfo(64, 48);
        info.axisOrder = FFTB_AXIS_ORDER_Y_FIRST;
        info.resolution = c.resolution;
        if (c.pixels > 0.0f)
        {
            info.kernelSpanUnit = FFTB_KERNEL_SPAN_PIXELS;
            info.kernelSpan = c.pixels;
        }
        Recipe r;
        Refusal refusal;
        ASSERT_TRUE(
            resolveRecipe(info, roomyExtents(), exact, FFTB_LENGTH_POLICY_MIXED_RADIX, DeviceLimits{}, &r, &refusal))
            << refusal.reason;
        ASSERT_EQ(r.spectrumPasses.size(), 2u);
        const FftbPushConstants push = spectrumPushConstants(r);
        // y first: axis 1 is y.
        EXPECT_EQ(push.imageLength1, 4u);
        EXPECT_EQ(push.imageLength2, 8u);
        EXPECT_EQ(push.kernelLength1, c.placedY);
        EXPECT_EQ(push.kernelLength2, c.placedX);
        EXPECT_EQ(push.kernelCentre1, c.placedY / 2);
        EXPECT_EQ(push.kernelCentre2, c.placedX / 2);
        EXPECT_EQ(r.spectrumPasses[0].groups[0], (std::min(c.placedX, r.plan.second.spectrumLength) + 1) / 2);
        EXPECT_EQ(r.plan.first.spectrumLength, r.plan.first.paddedLength) << "exact: S = N";
    }
}

TEST(RecipeRefusal, NamesAKernelScaleNotFiniteAndPositive)
{
    const KernelShape kernel = kernelShape(8, 8, FFTB_SPECTRUM_MODE_RESAMPLED);
    for (const FftbKernelSpanUnit unit : {FFTB_KERNEL_SPAN_PIXELS, FFTB_KERNEL_SPAN_FRAME_DIAGONAL})
        for (const float scale : {0.0f, -1.0f, kNaN, kInfinity})
        {
            FftbBloomPlanCreateInfo info = planInfo(64, 48);
            info.kernelSpanUnit = unit;
            info.kernelSpan = scale;
            expectRefusal(info, roomyExtents(), kernel, FFTB_ERROR_INVALID_ARGUMENT, "kernelSpan");
        }
    // Native scale does not read it.
    FftbBloomPlanCreateInfo native = planInfo(64, 48);
    native.kernelSpan = kNaN;
    Recipe r;
    Refusal refusal;
    EXPECT_TRUE(
        resolveRecipe(native, roomyExtents(), kernel, FFTB_LENGTH_POLICY_MIXED_RADIX, DeviceLimits{}, &r, &refusal))
        << refusal.reason;
}

// The kernel's extent on the frame, ceil(span) along its larger axis and ceil(span Kh / Kw) along the other, may not
// exceed the context's maximum kernel extent: at native scale the kernel's resolution.
TEST(RecipeRefusal, NamesAKernelExtentPastTheContextsMaximum)
{
    const KernelShape kernel = kernelShape(16, 12, FFTB_SPECTRUM_MODE_RESAMPLED);
    Extents max = roomyExtents();
    max.kernelExtentWidth = 15;
    expectRefusal(planInfo(64, 48), max, kernel, FFTB_ERROR_DEVICE_LIMIT, "kernel");

    FftbBloomPlanCreateInfo info = planInfo(64, 48);
    info.kernelSpanUnit = FFTB_KERNEL_SPAN_PIXELS;
    info.kernelSpan = 40.0f; // 40 x 30 pixels
    for (const auto& [w, h] : {std::pair{39u, 30u}, std::pair{40u, 29u}})
    {
        max = roomyExtents();
        max.kernelExtentWidth = w;
        max.kernelExtentHeight = h;
        expectRefusal(info, max, kernel, FFTB_ERROR_DEVICE_LIMIT, "kernelSpan");
    }
    max.kernelExtentWidth = 40;
    max.kernelExtentHeight = 30;
    Recipe r;
    Refusal refusal;
    EXPECT_TRUE(resolveRecipe(info, max, kernel, FFTB_LENGTH_POLICY_MIXED_RADIX, DeviceLimits{}, &r, &refusal))
        << refusal.reason;
}

// A frame whose padding needs an FFT longer than FFTB_MAX_FFT_LENGTH: refused as the planner words it.
TEST(RecipeRefusal, NamesAnFftPastTheLongestLength)
{
    const Extents max{20000, 100, 64, 64, 64, 64, 1};
    const KernelShape kernel = kernelShape(64, 64, FFTB_SPECTRUM_MODE_RESAMPLED);
    const uint32_t width = FFTB_MAX_FFT_LENGTH - 64 / 2 + 1; // one texel more than zero padding fits
    FftbBloomPlanCreateInfo info = planInfo(width, 50);
    info.padding = FFTB_PADDING_ZERO;
    expectRefusal(info, max, kernel, FFTB_ERROR_DEVICE_LIMIT, "image width");
    info.width = width - 1;
    Recipe r;
    Refusal refusal;
    EXPECT_TRUE(resolveRecipe(info, max, kernel, FFTB_LENGTH_POLICY_MIXED_RADIX, DeviceLimits{}, &r, &refusal))
        << "a padded width of exactly FFTB_MAX_FFT_LENGTH: " << refusal.reason;
}

// The device's limits: every pipeline's workgroup (at most FFTB_MAX_ELEMENTS_PER_INVOCATION elements an invocation)
// and shared memory (its FFT's shared-memory length of complex fp32).
TEST(RecipeRefusal, NamesADeviceLimitTooSmallForAPipeline)
{
    const KernelShape kernel = kernelShape(33, 33, FFTB_SPECTRUM_MODE_RESAMPLED);
    const FftbBloomPlanCreateInfo info = planInfo(37, 19);
    Recipe r;
    Refusal refusal;
    ASSERT_TRUE(
        resolveRecipe(info, roomyExtents(), kernel, FFTB_LENGTH_POLICY_MIXED_RADIX, DeviceLimits{}, &r, &refusal))
        << refusal.reason;
    uint32_t sharedBytes = 0;
    for (const PipelineKey& key : r.pipelines)
    {
        if (key.fftLength == 0)
            continue;
        ASSERT_LE(key.fftLength, FFTB_MAX_SHARED_FFT_LENGTH) << "lines held whole in shared memory";
        EXPECT_GT(key.fftLength, FFTB_MAX_ELEMENTS_PER_INVOCATION) << "more than one invocation's elements";
        sharedBytes = std::max(sharedBytes, key.fftLength * 2 * uint32_t(sizeof(float)));
    }

    Recipe refused;
    EXPECT_FALSE(resolveRecipe(info, roomyExtents(), kernel, FFTB_LENGTH_POLICY_MIXED_RADIX, DeviceLimits{1, 32768},
                               &refused, &refusal));
    EXPECT_EQ(refusal.result, FFTB_ERROR_DEVICE_LIMIT);
    // The first pipeline checked: the kernel spectrum's first pass.
    const std::string length = "FFT length " + std::to_string(r.spectrumPasses[0].pipeline.fftLength) + " needs ";
    EXPECT_EQ(refusal.reason.rfind(length, 0), 0u) << refusal.reason;
    EXPECT_NE(refusal.reason.find("invocations per workgroup"), std::string::npos) << refusal.reason;
    DeviceLimits limits{1024, sharedBytes - 1};
    EXPECT_FALSE(
        resolveRecipe(info, roomyExtents(), kernel, FFTB_LENGTH_POLICY_MIXED_RADIX, limits, &refused, &refusal));
    EXPECT_EQ(refusal.result, FFTB_ERROR_DEVICE_LIMIT);
    EXPECT_EQ(refusal.reason.rfind("FFT length ", 0), 0u) << refusal.reason;
    EXPECT_NE(refusal.reason.find(std::to_string(sharedBytes) + " bytes of shared memory"), std::string::npos)
        << refusal.reason;
    EXPECT_NE(refusal.reason.find("maxComputeSharedMemorySize"), std::string::npos) << refusal.reason;
    limits.maxSharedMemoryBytes = sharedBytes;
    EXPECT_TRUE(resolveRecipe(info, roomyExtents(), kernel, FFTB_LENGTH_POLICY_MIXED_RADIX, limits, &r, &refusal))
        << "exactly the shared memory needed: " << refusal.reason;
}

// ---- Per-frame values ----

TEST(BloomValues, AcceptTheDefaultsAndNameEachValueOutOfRange)
{
    FftbBloomInfo valid{FFTB_STRUCTURE_TYPE_BLOOM_INFO};
    valid.intensity = 0.25f;
    EXPECT_EQ(checkBloomValues(valid), "");
    FftbBloomInfo bloomOnly{FFTB_STRUCTURE_TYPE_BLOOM_INFO};
    bloomOnly.outputMode = FFTB_OUTPUT_MODE_BLOOM;
    EXPECT_EQ(checkBloomValues(bloomOnly), "") << "intensity is not read in FFTB_OUTPUT_MODE_BLOOM";
    for (const FftbOutputMode mode : {FFTB_OUTPUT_MODE_COMPOSITE, FFTB_OUTPUT_MODE_ADDITIVE})
    {
        FftbBloomInfo faded{FFTB_STRUCTURE_TYPE_BLOOM_INFO}; // intensity 0: the input unchanged
        faded.outputMode = mode;
        EXPECT_EQ(checkBloomValues(faded), "") << mode;
    }
    FftbBloomInfo edges = valid;
    edges.sharpen = 1.0f;
    edges.prefilterThreshold = edges.prefilterKnee = 3.0f;
    edges.tint[0] = edges.tint[1] = edges.tint[2] = 4.0f;
    edges.tintEnabled = VK_TRUE;
    EXPECT_EQ(checkBloomValues(edges), "");

    const auto refused = [&](const std::string& field, auto&& change)
    {
        FftbBloomInfo info = valid;
        change(info);
        EXPECT_TRUE(namesField(checkBloomValues(info), field));
    };
    refused("outputMode", [](FftbBloomInfo& i) { i.outputMode = FftbOutputMode(FFTB_OUTPUT_MODE_ADDITIVE + 1); });
    for (const float sharpen : {-0.01f, 1.01f, kNaN})
        refused("sharpen", [&](FftbBloomInfo& i) { i.sharpen = sharpen; });
    for (const FftbOutputMode mode : {FFTB_OUTPUT_MODE_COMPOSITE, FFTB_OUTPUT_MODE_ADDITIVE})
        for (const float intensity : {-1.0f, -1e-30f, kNaN, kInfinity})
            refused("intensity",
                    [&](FftbBloomInfo& i)
                    {
                        i.outputMode = mode;
                        i.intensity = intensity;
                    });
    for (const float threshold : {-1.0f, kNaN, kInfinity})
        refused("prefilterThreshold", [&](FftbBloomInfo& i) { i.prefilterThreshold = threshold; });
    for (const float knee : {-0.5f, 1.5f, kNaN})
        refused("prefilterKnee",
                [&](FftbBloomInfo& i)
                {
                    i.prefilterThreshold = 1.0f;
                    i.prefilterKnee = knee;
                });
    for (const float clampValue : {-1.0f, kNaN, kInfinity})
        refused("prefilterClamp", [&](FftbBloomInfo& i) { i.prefilterClamp = clampValue; });
    for (int channel = 0; channel < 3; ++channel)
        for (const float tint : {-0.5f, kNaN, kInfinity})
            refused("tint",
                    [&](FftbBloomInfo& i)
                    {
                        i.tintEnabled = VK_TRUE;
                        i.tint[channel] = tint;
                    });
    refused("tintEnabled", [&](FftbBloomInfo& i) { i.tintEnabled = 2; });
}

// ---- Maximum extents ----

TEST(Extents, FromACreateInfoTakeTheirDefaults)
{
    FftbContextCreateInfo ci{FFTB_STRUCTURE_TYPE_CONTEXT_CREATE_INFO};
    ci.maxWidth = 1920;
    ci.maxHeight = 1080;
    ci.maxKernelResolutionWidth = 256;
    ci.maxKernelResolutionHeight = 128;
    Extents e = extentsOf(ci);
    EXPECT_EQ(e.width, 1920u);
    EXPECT_EQ(e.height, 1080u);
    EXPECT_EQ(e.kernelWidth, 256u);
    EXPECT_EQ(e.kernelHeight, 128u);
    EXPECT_EQ(e.kernelExtentWidth, 256u) << "0: the maximum resolution's";
    EXPECT_EQ(e.kernelExtentHeight, 128u);
    EXPECT_EQ(e.views, 1u) << "0 means 1";
    EXPECT_EQ(checkExtents(e), "");
    ci.maxKernelExtentWidth = 1000;
    ci.maxKernelExtentHeight = 50;
    ci.maxViews = 6;
    e = extentsOf(ci);
    EXPECT_EQ(e.kernelExtentWidth, 1000u);
    EXPECT_EQ(e.kernelExtentHeight, 50u);
    EXPECT_EQ(e.views, 6u);
    EXPECT_EQ(e.scratchKernelWidth(), 1000u) << "the larger of resolution and extent";
    EXPECT_EQ(e.scratchKernelHeight(), 128u);
}

TEST(Extents, CheckNamesEachFieldOutOfRange)
{
    const Extents valid{64, 48, 16, 16, 0, 0, FFTB_MAX_VIEWS};
    EXPECT_EQ(checkExtents(valid), "");
    Extents largest = valid;
    largest.kernelWidth = largest.kernelHeight = FFTB_MAX_KERNEL_LENGTH;
    largest.kernelExtentWidth = largest.kernelExtentHeight = FFTB_MAX_KERNEL_LENGTH;
    EXPECT_EQ(checkExtents(largest), "");
    const auto refused = [&](const std::string& field, auto&& change)
    {
        Extents e = valid;
        change(e);
        EXPECT_TRUE(namesField(checkExtents(e), field));
    };
    refused("maxWidth, maxHeight", [](Extents& e) { e.width = 0; });
    refused("maxWidth, maxHeight", [](Extents& e) { e.height = 0; });
    const std::string resolution = "maxKernelResolutionWidth, maxKernelResolutionHeight";
    refused(resolution, [](Extents& e) { e.kernelWidth = 0; });
    refused(resolution, [](Extents& e) { e.kernelHeight = 0; });
    refused(resolution, [](Extents& e) { e.kernelWidth = FFTB_MAX_KERNEL_LENGTH + 1; });
    refused(resolution, [](Extents& e) { e.kernelHeight = FFTB_MAX_KERNEL_LENGTH + 1; });
    const std::string extent = "maxKernelExtentWidth, maxKernelExtentHeight";
    refused(extent, [](Extents& e) { e.kernelExtentWidth = FFTB_MAX_KERNEL_LENGTH + 1; });
    refused(extent, [](Extents& e) { e.kernelExtentHeight = FFTB_MAX_KERNEL_LENGTH + 1; });
    refused("maxViews", [](Extents& e) { e.views = FFTB_MAX_VIEWS + 1; });
}

// ---- Pipelines ----

TEST(Pipelines, SpecializationAndBindingsFollowTheKey)
{
    const DeviceLimits limits{256, 32768};
    const PipelineKey second{Pass::ImageFftSecondConvolveIfftSecond, 980, true, true};
    const std::vector<std::array<uint32_t, 2>> values = specializationOf(second, limits);
    ASSERT_EQ(values.size(), size_t(FFTB_SPEC_COUNT));
    for (uint32_t id = 0; id < FFTB_SPEC_COUNT; ++id)
        EXPECT_EQ(values[id][0], id);
    EXPECT_EQ(values[FFTB_SPEC_FFT_LENGTH][1], 980u);
    EXPECT_EQ(values[FFTB_SPEC_WORKGROUP_SIZE][1], workgroupSizeOf(980, 256));
    EXPECT_LE(values[FFTB_SPEC_WORKGROUP_SIZE][1], 256u) << "within the device's invocations";
    EXPECT_EQ(workgroupSizeOf(second, limits), values[FFTB_SPEC_WORKGROUP_SIZE][1]);
    EXPECT_EQ(values[FFTB_SPEC_TWIDDLE_OFFSET][1], twiddleTables().offsetOf(980));
    EXPECT_EQ(values[FFTB_SPEC_SHARED_LENGTH][1], 980u);
    EXPECT_EQ(values[FFTB_SPEC_HALF_STORAGE][1], 1u);
    EXPECT_EQ(values[FFTB_SPEC_MULTI_VIEW][1], 1u);
    // 980 = 4 5 7 7: the radices in the shared-memory stages, 1 past them.
    uint32_t product = 1;
    for (uint32_t id = FFTB_SPEC_RADIX_0; id <= FFTB_SPEC_RADIX_7; ++id)
        product *= values[id][1];
    EXPECT_EQ(product, 980u);

    const PipelineKey first{Pass::ImageFftFirst, 64, false, false};
    const auto one = specializationOf(first, limits);
    EXPECT_EQ(one[FFTB_SPEC_HALF_STORAGE][1], 0u);
    EXPECT_EQ(one[FFTB_SPEC_MULTI_VIEW][1], 0u);

    // A pass without an FFT: its workgroup is the shader's, only the views are specialized.
    for (const bool multiView : {false, true})
    {
        const PipelineKey upsample{Pass::ImageUpsampleComposite, 0, false, multiView};
        EXPECT_EQ(workgroupSizeOf(upsample, limits), 0u);
        EXPECT_EQ(specializationOf(upsample, limits),
                  (std::vector<std::array<uint32_t, 2>>{{FFTB_SPEC_MULTI_VIEW, multiView ? 1u : 0u}}));
    }

    for (const Pass pass : {Pass::KernelFftFirst, Pass::KernelFftSecond, Pass::KernelResolveSpectrum})
        EXPECT_EQ(bindingsOf(pass), Bindings::Kernel);
    for (const Pass pass : {Pass::ImageFftFirst, Pass::ImageFftSecondConvolveIfftSecond, Pass::ImageIfftFirstComposite,
                            Pass::ImageUpsampleComposite})
        EXPECT_EQ(bindingsOf(pass), Bindings::Frame);
    for (const Pass pass : {Pass::PsfApertureFft, Pass::PsfPatternFft, Pass::PsfSpectralRgb, Pass::PsfNormalize})
        EXPECT_EQ(bindingsOf(pass), Bindings::Generator);
}

} // namespace
} // namespace fftb
