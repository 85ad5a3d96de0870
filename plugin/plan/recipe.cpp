// SPDX-License-Identifier: MIT
// The resolution of a bloom plan: checks, plan, passes, push constants and sizes, once per plan.
#include "recipe.h"

#include "fft_codegen.h"

#include "psf_model.h"

#include <cmath>

namespace fftb
{

// The push constants carry the public enums' values (fftb_shared.h).
static_assert(FFTB_GPU_PADDING_ZERO_NORMALIZED == FFTB_PADDING_ZERO_NORMALIZED &&
              FFTB_GPU_PADDING_ZERO == FFTB_PADDING_ZERO && FFTB_GPU_PADDING_MIRROR == FFTB_PADDING_MIRROR);
static_assert(FFTB_GPU_OUTPUT_COMPOSITE == FFTB_OUTPUT_MODE_COMPOSITE &&
              FFTB_GPU_OUTPUT_BLOOM == FFTB_OUTPUT_MODE_BLOOM && FFTB_GPU_OUTPUT_ADDITIVE == FFTB_OUTPUT_MODE_ADDITIVE);
static_assert(FFTB_GPU_INTERPOLATION_ES == FFTB_SPECTRUM_INTERPOLATION_ES &&
              FFTB_GPU_INTERPOLATION_CUBIC == FFTB_SPECTRUM_INTERPOLATION_CUBIC &&
              FFTB_GPU_INTERPOLATION_LINEAR == FFTB_SPECTRUM_INTERPOLATION_LINEAR);
static_assert(FFTB_GPU_MAX_VIEWS == FFTB_MAX_VIEWS);
static_assert(sizeof(FftbPushConstants) <= 32 * 4 && sizeof(FftbPushConstants) % 4 == 0,
              "push constants: 4-byte scalars within the 128 bytes every device has");

namespace
{

/// log2 of a reduction of 1, 2, 4 or 8.
uint32_t reductionLog2(uint32_t reduction)
{
    return reduction == 8 ? 3 : reduction == 4 ? 2 : reduction == 2 ? 1 : 0;
}

/// The reduction of a resolution FFTB_BLOOM_RESOLUTION_FULL .. EIGHTH (checked): 1, 2, 4 or 8.
uint32_t reductionOf(FftbBloomResolution resolution)
{
    return 1u << uint32_t(resolution);
}

std::string extentText(uint32_t width, uint32_t height)
{
    return std::to_string(width) + "x" + std::to_string(height);
}

/// Fails `refusal` with `result` and `reason`; returns false.
bool refuse(Refusal* refusal, FftbResult result, std::string reason)
{
    if (refusal)
        *refusal = {result, std::move(reason)};
    return false;
}

/// The checks of the plan's fields that makePlan does not make; "" or the refusal's reason in `refusal`.
bool checkPlanFields(const FftbBloomPlanCreateInfo& info, const Extents& max, const KernelShape& kernel,
                     Refusal* refusal)
{
    constexpr FftbResult invalid = FFTB_ERROR_INVALID_ARGUMENT, limit = FFTB_ERROR_DEVICE_LIMIT;
    if (kernel.width > max.kernelWidth || kernel.height > max.kernelHeight)
        return refuse(refusal, limit,
                      "kernel: " + extentText(kernel.width, kernel.height) +
                          " texels, more than the context's maximum kernel resolution " +
                          extentText(max.kernelWidth, max.kernelHeight) + " (maxKernelResolutionWidth x Height)");
    if (info.inputLayout != VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL && info.inputLayout != VK_IMAGE_LAYOUT_GENERAL)
        return refuse(refusal, invalid,
                      "inputLayout: must be VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL or VK_IMAGE_LAYOUT_GENERAL");
    if (info.width == 0 || info.height == 0)
        return refuse(refusal, invalid, "width, height: " + extentText(info.width, info.height) + " is empty");
    if (info.width > max.width || info.height > max.height)
        return refuse(refusal, limit,
                      "width, height: " + extentText(info.width, info.height) + " outside 1x1 .. " +
                          extentText(max.width, max.height) + " (the context's maximum extent)");
    // The context's maxViews is at most FFTB_MAX_VIEWS: any view count past it is past the context's maximum.
    if (info.viewCount > max.views)
        return refuse(refusal, limit,
                      "viewCount: " + std::to_string(info.viewCount) + " views, more than the context's maxViews " +
                          std::to_string(max.views));
    if (!knownEnum(info.padding, FFTB_PADDING_MIRROR))
        return refuse(refusal, invalid, "padding: unknown value");
    if (!knownEnum(info.axisOrder, FFTB_AXIS_ORDER_Y_FIRST))
        return refuse(refusal, invalid, "axisOrder: unknown value");
    if (!knownEnum(info.storagePrecision, FFTB_STORAGE_PRECISION_FLOAT16))
        return refuse(refusal, invalid, "storagePrecision: unknown value");
    if (!knownEnum(info.resolution, FFTB_BLOOM_RESOLUTION_EIGHTH))
        return refuse(refusal, invalid, "resolution: unknown value");
    return true;
}

/// The checks of a pipeline against the device's limits.
bool checkPipeline(const PipelineKey& key, const DeviceLimits& limits, Refusal* refusal)
{
    if (key.fftLength == 0)
        return true;
    const std::string length = "FFT length " + std::to_string(key.fftLength);
    if (workgroupSizeOf(key, limits) == 0)
        return refuse(refusal, FFTB_ERROR_DEVICE_LIMIT,
                      length + " needs more invocations per workgroup than the device allows (" +
                          std::to_string(limits.maxWorkgroupInvocations) + ")");
    const uint64_t shared = uint64_t(sharedLengthOf(key.fftLength)) * 2 * sizeof(float);
    if (shared > limits.maxSharedMemoryBytes)
        return refuse(refusal, FFTB_ERROR_DEVICE_LIMIT,
                      length + " needs " + std::to_string(shared) +
                          " bytes of shared memory (maxComputeSharedMemorySize " +
                          std::to_string(limits.maxSharedMemoryBytes) + ")");
    return true;
}

/// The plan's share of the push constants: everything but the per-frame values.
FftbPushConstants planPushConstants(const Recipe& r, const KernelShape& kernel, FftbPadding padding)
{
    const Plan& plan = r.plan;
    const AxisPlan& a = plan.first;
    const AxisPlan& b = plan.second;
    FftbPushConstants push{};
    push.imageLength1 = a.imageLength;
    push.imageLength2 = b.imageLength;
    push.paddedLength1 = a.paddedLength;
    push.paddedLength2 = b.paddedLength;
    push.mirrorSplit1 = a.mirrorSplit;
    push.mirrorSplit2 = b.mirrorSplit;
    push.kernelLength1 = a.kernelLength;
    push.kernelLength2 = b.kernelLength;
    push.kernelCentre1 = a.kernelCentre;
    push.kernelCentre2 = b.kernelCentre;
    push.spectrumLength1 = a.spectrumLength;
    push.spectrumLength2 = b.spectrumLength;
    push.flags = (plan.firstAxisIsX ? FFTB_GPU_FLAG_FIRST_AXIS_IS_X : 0u) |
                 (plan.spectrum == FFTB_SPECTRUM_MODE_RESAMPLED ? FFTB_GPU_FLAG_RESAMPLED : 0u);
    const uint32_t f = plan.reduction;
    push.flags |= reductionLog2(f) << FFTB_GPU_FLAG_REDUCTION_SHIFT |
                  (f * a.imageLength - a.frameLength) << FFTB_GPU_FLAG_REMAINDER_1_SHIFT |
                  (f * b.imageLength - b.frameLength) << FFTB_GPU_FLAG_REMAINDER_2_SHIFT;
    push.padding = padding;
    // Half storage: pass 1 has divided by N1 already (common.glsl, storeHalfSpectrum).
    push.inverseScale =
        float(1.0 / (r.halfStorage ? double(b.paddedLength) : double(a.paddedLength) * double(b.paddedLength)));
    push.spectrumTwiddleOffset1 = twiddleTables().offsetOf(a.spectrumLength);
    push.interpolation = kernel.resampling.interpolation;
    push.interpolationWidth = kernel.resampling.width;
    push.esBeta = esBeta(kernel.resampling.width, kernel.resampling.oversampling);
    push.scratchBloomStart = uint32_t(reducedBloomStart(plan, r.halfStorage ? 4 : 8, r.views));
    push.resolvedSpectrumStart = uint32_t(resolvedSpectrumStart(plan));
    push.kernelScale = float(plan.kernelScale);
    push.borderWeights = r.normalized ? FFTB_GPU_BORDER_WEIGHTS_DIVIDE : FFTB_GPU_BORDER_WEIGHTS_NONE;
    return push;
}

/// Passes 1-3 over `views` views, and pass 4 when `upsample`; a timestamp after passes 1, 2 and the last when `stamps`.
std::vector<Dispatch> imagePasses(const Recipe& r, uint32_t views, bool upsample, bool stamps)
{
    const Plan& plan = r.plan;
    const AxisPlan& a = plan.first;
    const AxisPlan& b = plan.second;
    const bool half = r.halfStorage, multi = r.multiView;
    std::vector<Dispatch> passes{
        {{Pass::ImageFftFirst, a.paddedLength, half, multi}, {(b.imageLength + 1) / 2, 1, views}, stamps},
        {{Pass::ImageFftSecondConvolveIfftSecond, b.paddedLength, half, multi},
         {plan.halfSpectrumLines(), 3, views},
         stamps},
        {{Pass::ImageIfftFirstComposite, a.paddedLength, half, multi}, {(b.imageLength + 1) / 2, 1, views}, stamps},
    };
    if (upsample)
    {
        // Reduced resolution: pass 4 upsamples the bloom pass 3 wrote and composites; one timestamp after both.
        passes.back().timestampAfter = false;
        passes.push_back({{Pass::ImageUpsampleComposite, 0, false, multi},
                          {(plan.frameWidth() + 7) / 8, (plan.frameHeight() + 7) / 8, views},
                          stamps});
    }
    return passes;
}

} // namespace

Bindings bindingsOf(Pass pass)
{
    if (pass == Pass::KernelFftFirst || pass == Pass::KernelFftSecond || pass == Pass::KernelResolveSpectrum)
        return Bindings::Kernel;
    return pass >= Pass::PsfApertureFft ? Bindings::Generator : Bindings::Frame;
}

std::string checkExtents(const Extents& e)
{
    if (e.width == 0 || e.height == 0)
        return "maxWidth, maxHeight: must be >= 1";
    if (e.kernelWidth == 0 || e.kernelHeight == 0 || e.kernelWidth > FFTB_MAX_KERNEL_LENGTH ||
        e.kernelHeight > FFTB_MAX_KERNEL_LENGTH)
        return "maxKernelResolutionWidth, maxKernelResolutionHeight: must lie in 1 .. 4096";
    if (e.kernelExtentWidth > FFTB_MAX_KERNEL_LENGTH || e.kernelExtentHeight > FFTB_MAX_KERNEL_LENGTH)
        return "maxKernelExtentWidth, maxKernelExtentHeight: must lie in 0 .. 4096";
    if (e.views > FFTB_MAX_VIEWS)
        return "maxViews: must lie in 0 .. " + std::to_string(FFTB_MAX_VIEWS);
    return "";
}

namespace
{

/// Every pipeline of the recipe's passes, each once, checked against the device's limits.
bool collectPipelines(Recipe& r, const DeviceLimits& limits, Refusal* refusal)
{
    r.pipelines.clear();
    for (const auto* passes : {&r.spectrumPasses, &r.borderWeightPasses, &r.framePasses})
        for (const Dispatch& d : *passes)
            if (std::find(r.pipelines.begin(), r.pipelines.end(), d.pipeline) == r.pipelines.end())
            {
                if (!checkPipeline(d.pipeline, limits, refusal))
                    return false;
                r.pipelines.push_back(d.pipeline);
            }
    return true;
}

/// The recipe of one bloom of `info`, without a far field.
bool resolveOne(const FftbBloomPlanCreateInfo& info, const Extents& max, const KernelShape& kernel,
                FftbLengthPolicy lengths, const DeviceLimits& limits, Recipe* recipe, Refusal* refusal)
{
    if (!checkPlanFields(info, max, kernel, refusal))
        return false;
    // First: it checks kernelSpanUnit before anything reads it.
    KernelScale scale;
    const std::string spanError = kernelScaleOf(info.kernelSpanUnit, info.kernelSpan, info.width, info.height,
                                                kernel.width, kernel.height, &scale);
    if (!spanError.empty())
        return refuse(refusal, FFTB_ERROR_INVALID_ARGUMENT, spanError);
    PlanRequest request{info.width, info.height, kernel.width, kernel.height};
    request.padding = info.padding;
    request.axisOrder = info.axisOrder;
    request.spectrum = kernel.mode;
    request.lengths = lengths;
    if (info.kernelSpanUnit != FFTB_KERNEL_SPAN_NATIVE) // kernelSpan is not read, and may be anything
    {
        request.kernelSpanUnit = info.kernelSpanUnit;
        request.kernelSpan = info.kernelSpan;
    }
    request.spectrumOversampling = kernel.resampling.oversampling;
    request.reduction = reductionOf(info.resolution);
    // The padding (so the scratch) is sized for the maximum kernel extent: no kernel may cover more of the image the
    // passes transform (the downsampled frame at a reduced resolution).
    const uint32_t larger = std::max(kernel.width, kernel.height);
    const uint32_t extentWidth = reducedKernelLength(scale, kernel.width, larger, request.reduction);
    const uint32_t extentHeight = reducedKernelLength(scale, kernel.height, larger, request.reduction);
    if (extentWidth > max.kernelExtentWidth || extentHeight > max.kernelExtentHeight)
        return refuse(
            refusal, FFTB_ERROR_DEVICE_LIMIT,
            std::string(info.kernelSpanUnit == FFTB_KERNEL_SPAN_NATIVE ? "kernel" : "kernelSpan") +
                ": the kernel's extent on the frame" + (request.reduction > 1 ? " downsampled " : " ") +
                extentText(extentWidth, extentHeight) + " is larger than the context's maximum kernel extent " +
                extentText(max.kernelExtentWidth, max.kernelExtentHeight) + " (maxKernelExtentWidth x Height)");

    Recipe r;
    std::string reason;
    if (!makePlan(request, &r.plan, &reason))
        return refuse(refusal, FFTB_ERROR_DEVICE_LIMIT, reason);
    r.views = std::max(info.viewCount, 1u);
    r.multiView = r.views > 1;
    r.halfStorage = info.storagePrecision == FFTB_STORAGE_PRECISION_FLOAT16;
    r.normalized = info.padding == FFTB_PADDING_ZERO_NORMALIZED;
    r.inputLayout = uint32_t(info.inputLayout);
    r.push = planPushConstants(r, kernel, info.padding);
    const AxisPlan& a = r.plan.first;
    const AxisPlan& b = r.plan.second;
    r.spectrumPasses = {
        {{Pass::KernelFftFirst, a.spectrumLength},
         {(std::min(placedKernelLength(r.plan, b), b.spectrumLength) + 1) / 2, 1, 1}},
        {{Pass::KernelFftSecond, b.spectrumLength}, {a.spectrumLength / 2 + 1, 3, 1}},
    };
    if (r.plan.spectrum == FFTB_SPECTRUM_MODE_RESAMPLED)
        r.spectrumPasses.push_back({{Pass::KernelResolveSpectrum, 0}, {a.paddedLength / 2 + 1, 3, 1}});
    // Every view has the same weights: view 0's lines compute them.
    if (r.normalized)
        r.borderWeightPasses = imagePasses(r, 1, false, false);
    r.framePasses = imagePasses(r, r.views, r.plan.reduction > 1, true);
    if (!collectPipelines(r, limits, refusal))
        return false;
    r.scratchBytes = scratchBytes(r.plan, r.halfStorage ? 4 : 8, r.views);
    r.spectrumChannelElements = fftb::spectrumChannelElements(r.plan);
    r.borderWeightBytes = r.normalized ? borderWeightBytes(info.width, info.height) : 0;
    *recipe = std::move(r);
    return true;
}

/// A refusal of the far field's own fields, named as FftbFarFieldInfo's; false.
bool refuseFarField(Refusal* refusal, const Refusal& far)
{
    return refuse(refusal, far.result, "FftbFarFieldInfo: " + far.reason);
}

} // namespace

bool resolveRecipe(const FftbBloomPlanCreateInfo& info, const Extents& max, const KernelShape& kernel,
                   FftbLengthPolicy lengths, const DeviceLimits& limits, Recipe* recipe, Refusal* refusal,
                   const FarFieldRequest* far, Recipe* farRecipe)
{
    if (!far)
        return resolveOne(info, max, kernel, lengths, limits, recipe, refusal);
    constexpr FftbResult invalid = FFTB_ERROR_INVALID_ARGUMENT;
    const FftbFarFieldInfo& field = *far->info;
    if (!knownEnum(field.resolution, FFTB_BLOOM_RESOLUTION_EIGHTH) || field.resolution < FFTB_BLOOM_RESOLUTION_QUARTER)
        return refuse(
            refusal, invalid,
            "FftbFarFieldInfo.resolution: must be FFTB_BLOOM_RESOLUTION_QUARTER or FFTB_BLOOM_RESOLUTION_EIGHTH");
    if (!(field.weight >= 0.0f && field.weight <= 1.0f))
        return refuse(refusal, invalid, "FftbFarFieldInfo.weight: must lie in [0, 1]");
    Recipe r, f;
    if (!resolveOne(info, max, kernel, lengths, limits, &r, refusal))
        return false;
    if (r.plan.reduction != 1)
        return refuse(refusal, invalid,
                      "resolution: a plan with a far field (FftbFarFieldInfo) must be FFTB_BLOOM_RESOLUTION_FULL");
    FftbBloomPlanCreateInfo farInfo = info;
    farInfo.pNext = nullptr;
    farInfo.resolution = field.resolution;
    farInfo.kernelSpanUnit = field.kernelSpanUnit;
    farInfo.kernelSpan = field.kernelSpan;
    Refusal farRefusal;
    if (!resolveOne(farInfo, max, far->kernel, lengths, limits, &f, &farRefusal))
        return refuseFarField(refusal, farRefusal);
    // The far field's passes use their own window of the scratch after the plan's; the plan's pass 3 reads its bloom
    // there, in 16-byte units from the plan's start.
    f.scratchOffset = farFieldWindow(r.scratchBytes);
    r.scratchBytes = f.scratchBytes = f.scratchOffset + f.scratchBytes;
    r.push.scratchBloomStart = uint32_t(f.scratchOffset / 16 + f.push.scratchBloomStart);
    r.push.flags |= reductionLog2(f.plan.reduction) << FFTB_GPU_FLAG_FAR_FIELD_SHIFT;
    r.farWeight = f.farWeight = field.weight;
    f.farField = true;
    f.framePasses = imagePasses(f, f.views, false, false);
    if (!collectPipelines(f, limits, refusal))
        return false;
    *recipe = std::move(r);
    *farRecipe = std::move(f);
    return true;
}

std::string checkBloomValues(const FftbBloomInfo& info)
{
    if (!knownEnum(info.outputMode, FFTB_OUTPUT_MODE_ADDITIVE))
        return "outputMode: unknown value";
    if (!(info.sharpen >= 0.0f && info.sharpen <= 1.0f))
        return "sharpen: must lie in [0, 1]";
    if (info.outputMode != FFTB_OUTPUT_MODE_BLOOM && (!(info.intensity >= 0.0f) || !std::isfinite(info.intensity)))
        return "intensity: must be finite and >= 0 in the composite output modes";
    if (!(info.prefilterThreshold >= 0.0f) || !std::isfinite(info.prefilterThreshold))
        return "prefilterThreshold: must be finite and >= 0";
    if (!(info.prefilterKnee >= 0.0f && info.prefilterKnee <= info.prefilterThreshold))
        return "prefilterKnee: must lie in [0, prefilterThreshold]";
    if (!(info.prefilterClamp >= 0.0f) || !std::isfinite(info.prefilterClamp))
        return "prefilterClamp: must be finite and >= 0";
    if (info.tintEnabled != VK_FALSE && info.tintEnabled != VK_TRUE)
        return "tintEnabled: must be VK_TRUE or VK_FALSE";
    for (float t : info.tint)
        if (info.tintEnabled && (!(t >= 0.0f) || !std::isfinite(t)))
            return "tint: each must be finite and >= 0";
    if (!knownEnum(info.sourceMask, FFTB_SOURCE_MASK_ONE_MINUS_ALPHA))
        return "sourceMask: unknown value";
    return "";
}

std::string checkViewExtents(const FftbBloomInfo& info, const Recipe& recipe)
{
    const uint32_t width = recipe.plan.frameWidth(), height = recipe.plan.frameHeight();
    for (const auto& [extent, field] :
         {std::pair{info.inputExtent, "inputExtent"}, {info.outputExtent, "outputExtent"}})
        if (extent.width < width || extent.height < height)
            return std::string(field) + ": " + std::to_string(extent.width) + " x " + std::to_string(extent.height) +
                   ", smaller than the plan's " + std::to_string(width) + " x " + std::to_string(height) +
                   " (give the view's extent)";
    return "";
}

FftbPushConstants bloomPushConstants(const Recipe& recipe, const FftbBloomInfo& info)
{
    FftbPushConstants push = recipe.push;
    push.outputMode = info.outputMode;
    push.sharpen = info.sharpen;
    // With a far field of weight w, the bloom (1 - t) ((1 - w) core + w far) * p + t p is the plan's bloom scaled by
    // s = (1 - t)(1 - w) + t at sharpening t / s, plus the far field's unsharpened, scaled by (1 - t) w.
    float scale = 1.0f;
    if (recipe.farField)
    {
        scale = (1.0f - info.sharpen) * recipe.farWeight;
        push.sharpen = 0.0f;
    }
    else if (recipe.farWeight > 0.0f)
    {
        scale = (1.0f - info.sharpen) * (1.0f - recipe.farWeight) + info.sharpen;
        push.sharpen = scale > 0.0f ? info.sharpen / scale : 0.0f;
    }
    push.intensity = info.intensity;
    push.threshold = info.prefilterThreshold;
    push.knee = info.prefilterKnee;
    push.clampValue = info.prefilterClamp;
    push.tintRed = scale * (info.tintEnabled ? info.tint[0] : 1.0f);
    push.tintGreen = scale * (info.tintEnabled ? info.tint[1] : 1.0f);
    push.tintBlue = scale * (info.tintEnabled ? info.tint[2] : 1.0f);
    if (info.sourceMask != FFTB_SOURCE_MASK_NONE)
        push.flags |= FFTB_GPU_FLAG_MASK_ALPHA |
                      (info.sourceMask == FFTB_SOURCE_MASK_ONE_MINUS_ALPHA ? FFTB_GPU_FLAG_MASK_INVERT : 0u);
    return push;
}

FftbPushConstants spectrumPushConstants(const Recipe& recipe)
{
    // The spectrum passes transform the kernel: its texels are their image, the placed kernel (scaled in space in
    // exact mode) their kernel, centred at its middle texel.
    const Plan& plan = recipe.plan;
    FftbPushConstants push = recipe.push;
    push.imageLength1 = plan.first.kernelLength;
    push.imageLength2 = plan.second.kernelLength;
    push.kernelLength1 = placedKernelLength(plan, plan.first);
    push.kernelLength2 = placedKernelLength(plan, plan.second);
    push.kernelCentre1 = push.kernelLength1 / 2;
    push.kernelCentre2 = push.kernelLength2 / 2;
    return push;
}

FftbPushConstants borderWeightPushConstants(const Recipe& recipe)
{
    // The same passes over the frame's indicator with the unsharpened kernel: pass 3 of each bloom sharpens.
    FftbPushConstants push = recipe.push;
    push.borderWeights = FFTB_GPU_BORDER_WEIGHTS_WRITE;
    return push;
}

uint32_t workgroupSizeOf(const PipelineKey& key, const DeviceLimits& limits)
{
    return key.fftLength == 0 ? 0 : workgroupSizeOf(key.fftLength, limits.maxWorkgroupInvocations);
}

uint32_t generatedFftWorkgroupSize(const PipelineKey& key, const DeviceLimits& limits)
{
    if (key.pass != Pass::ImageFftSecondConvolveIfftSecond || key.fftLength > FFTB_MAX_SHARED_FFT_LENGTH)
        return 0;
    return lineFftWorkgroupSize(key.fftLength, limits.maxWorkgroupInvocations);
}

std::vector<std::array<uint32_t, 2>> specializationOf(const PipelineKey& key, const DeviceLimits& limits)
{
    if (key.fftLength == 0)
        return {{FFTB_SPEC_MULTI_VIEW, key.multiView ? 1u : 0u}};
    const std::array<uint32_t, FFTB_SPEC_COUNT> values =
        specializationOf(key.fftLength, workgroupSizeOf(key, limits), key.halfStorage, key.multiView);
    std::vector<std::array<uint32_t, 2>> entries;
    for (uint32_t id = 0; id < FFTB_SPEC_COUNT; ++id)
        entries.push_back({id, values[id]});
    return entries;
}

uint32_t generatorPatternStart(uint32_t n, uint32_t rows)
{
    return 2 * intermediateBlocks(n / 2 + 1) * FFTB_INTERMEDIATE_BLOCK_LINES * rows;
}

uint64_t generatorBufferBytes(uint32_t k)
{
    const uint32_t bound = uint32_t(psfFftSizeBound(int(k)));
    const uint64_t words = uint64_t(generatorPatternStart(bound, bound / 2 + 8)) + uint64_t(bound) * bound +
                           uint64_t(psfOccluderBound(int(k))) * FFTB_PSF_OCCLUDER_WORDS +
                           256 * FFTB_PSF_WAVELENGTH_WORDS + k;
    return words * 4;
}

} // namespace fftb
