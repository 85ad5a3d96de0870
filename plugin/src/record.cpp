// SPDX-License-Identifier: MIT
// Setting the kernel and recording the passes of one bloom.
#include "context.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <vector>

namespace fftb
{

namespace
{

/// Whether the image passes store the intermediate as fp16 (FftbBloomInfo::storagePrecision, checked by plan()).
bool halfStorage(const FftbBloomInfo& info)
{
    return info.storagePrecision == FFTB_STORAGE_PRECISION_FLOAT16;
}

/// The FftbMultiViewInfo chained to `info`, or nullptr.
const FftbMultiViewInfo* multiViewOf(const FftbBloomInfo& info)
{
    return findInChain<FftbMultiViewInfo>(info.pNext, FFTB_STRUCTURE_TYPE_MULTI_VIEW_INFO);
}

} // namespace

uint32_t Context::viewCountOf(const FftbBloomInfo& info) const
{
    const FftbMultiViewInfo* views = multiViewOf(info);
    if (!views)
        return 1;
    if (views->viewCount == 0 || views->viewCount > FFTB_MAX_VIEWS)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                      "FftbMultiViewInfo.viewCount: " + std::to_string(views->viewCount) + " outside 1 .. " +
                          std::to_string(FFTB_MAX_VIEWS)};
    if (views->viewCount > max_.views)
        throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS,
                      "FftbMultiViewInfo.viewCount: " + std::to_string(views->viewCount) +
                          " views, more than the context's maxViews " + std::to_string(max_.views)};
    return views->viewCount;
}

void Context::barrier(VkCommandBuffer cb) const
{
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vk_.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb,
                             0, nullptr, 0, nullptr);
}

void Context::dispatch(VkCommandBuffer cb, const PipelineKey& key, uint32_t groupsX, uint32_t groupsY, uint32_t groupsZ,
                       const void* push, uint32_t pushBytes)
{
    const Pass pass = std::get<0>(key);
    static constexpr const char* labels[] = {
        "fftbloom: kernel spectrum, first-axis FFT",
        "fftbloom: kernel spectrum, second-axis FFT",
        "fftbloom: pass 1, first-axis FFT",
        "fftbloom: pass 2, second-axis FFT, Hadamard product, inverse FFT",
        "fftbloom: pass 3, first-axis inverse FFT, composite",
        "fftbloom: pass 4, upsample, composite",
        "fftbloom: PSF, aperture and row FFT",
        "fftbloom: PSF, column FFT and diffraction pattern",
        "fftbloom: PSF, spectral integration to RGB",
        "fftbloom: PSF, normalization",
    };
    static_assert(std::size(labels) == size_t(Pass::Count));
    device_->cmdBeginLabel(cb, labels[uint32_t(pass)]);
    vk_.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline(key));
    vk_.vkCmdPushConstants(cb, layoutOf(pass), VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes, push);
    vk_.vkCmdDispatch(cb, groupsX, groupsY, groupsZ);
    device_->cmdEndLabel(cb);
}

Plan Context::plan(const FftbBloomInfo& info)
{
    if (!info.kernel)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "bloomInfo.kernel: VK_NULL_HANDLE (fftbCreateKernel)"};
    const Kernel& kernel = *kernelOf(info.kernel);
    if (kernel.device().device != device_->device)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "bloomInfo.kernel: created on another VkDevice"};
    if (kernel.width() > max_.kernelWidth || kernel.height() > max_.kernelHeight)
        throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS,
                      "bloomInfo.kernel: " + std::to_string(kernel.width()) + "x" + std::to_string(kernel.height()) +
                          " texels, more than the context's maximum kernel resolution " +
                          std::to_string(max_.kernelWidth) + "x" + std::to_string(max_.kernelHeight) +
                          " (maxKernelResolutionWidth x Height)"};
    if (info.inputLayout != VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL && info.inputLayout != VK_IMAGE_LAYOUT_GENERAL)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                      "inputLayout: must be VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL or VK_IMAGE_LAYOUT_GENERAL"};
    if (info.width == 0 || info.height == 0 || info.width > max_.width || info.height > max_.height)
        throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS,
                      "width, height: " + std::to_string(info.width) + "x" + std::to_string(info.height) +
                          " outside 1x1 .. " + std::to_string(max_.width) + "x" + std::to_string(max_.height) +
                          " (the context's maximum extent)"};
    if (info.padding > FFTB_PADDING_MIRROR)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "padding: unknown value"};
    if (info.axisOrder > FFTB_AXIS_ORDER_Y_FIRST)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "axisOrder: unknown value"};
    if (info.outputMode > FFTB_OUTPUT_MODE_ADDITIVE)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "outputMode: unknown value"};
    if (!(info.sharpen >= 0.0f && info.sharpen <= 1.0f))
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "sharpen: must lie in [0, 1]"};
    if (info.outputMode != FFTB_OUTPUT_MODE_BLOOM && (!(info.intensity > 0.0f) || !std::isfinite(info.intensity)))
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                      "intensity: must be finite and > 0 in the composite output modes (0, a zero-initialized "
                      "FftbBloomInfo's, would return the input: to show no bloom, skip fftbCmdBloom)"};
    if (!(info.prefilterThreshold >= 0.0f) || !std::isfinite(info.prefilterThreshold))
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "prefilterThreshold: must be finite and >= 0"};
    if (!(info.prefilterKnee >= 0.0f && info.prefilterKnee <= info.prefilterThreshold))
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "prefilterKnee: must lie in [0, prefilterThreshold]"};
    if (!(info.prefilterClamp >= 0.0f) || !std::isfinite(info.prefilterClamp))
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "prefilterClamp: must be finite and >= 0"};
    for (float t : info.tint)
        if (!(t >= 0.0f) || !std::isfinite(t))
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "tint: each must be finite and >= 0"};
    if (info.storagePrecision > FFTB_STORAGE_PRECISION_FLOAT16)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "storagePrecision: unknown value"};
    if (info.resolution > FFTB_BLOOM_RESOLUTION_HALF)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "resolution: unknown value"};
    if (info.resolution == FFTB_BLOOM_RESOLUTION_HALF && kernel.mode() != SpectrumMode::Resampled)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                      "resolution: FFTB_BLOOM_RESOLUTION_HALF needs a kernel in FFTB_SPECTRUM_MODE_RESAMPLED; this "
                      "one is exact"};
    if (info.kernelScaleUnit > FFTB_KERNEL_SCALE_FRAME_DIAGONAL)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "kernelScaleUnit: unknown value"};
    KernelScale scale;
    uint32_t extentWidth = kernel.width(), extentHeight = kernel.height(); // at native scale, its resolution
    if (info.kernelScaleUnit != FFTB_KERNEL_SCALE_NATIVE)
    {
        if (!(info.kernelScale > 0.0f) || !std::isfinite(info.kernelScale))
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "kernelScale: must be finite and > 0"};
        if (kernel.mode() != SpectrumMode::Resampled)
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                          "kernelScaleUnit: a kernel scale needs a kernel in FFTB_SPECTRUM_MODE_RESAMPLED; this one "
                          "is exact"};
        scale.unit =
            info.kernelScaleUnit == FFTB_KERNEL_SCALE_PIXELS ? KernelScaleUnit::Pixels : KernelScaleUnit::FrameDiagonal;
        scale.value = info.kernelScale;
        const double span = kernelSpan(scale, info.width, info.height);
        const uint32_t larger = std::max(kernel.width(), kernel.height());
        extentWidth = scaledKernelLength(kernel.width(), larger, span);
        extentHeight = scaledKernelLength(kernel.height(), larger, span);
    }
    // The padding (so the scratch) is sized for the maximum kernel extent: no kernel may cover more of the frame.
    if (extentWidth > max_.kernelExtentWidth || extentHeight > max_.kernelExtentHeight)
        throw Failure{
            FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS,
            std::string(info.kernelScaleUnit == FFTB_KERNEL_SCALE_NATIVE ? "bloomInfo.kernel" : "kernelScale") +
                ": the kernel's extent on the frame " + std::to_string(extentWidth) + "x" +
                std::to_string(extentHeight) + " is larger than the context's maximum kernel extent " +
                std::to_string(max_.kernelExtentWidth) + "x" + std::to_string(max_.kernelExtentHeight) +
                " (maxKernelExtentWidth x Height)"};
    checkChain(info.pNext,
               {FFTB_STRUCTURE_TYPE_TIMESTAMP_INFO, FFTB_STRUCTURE_TYPE_IMAGE_BARRIER_INFO,
                FFTB_STRUCTURE_TYPE_MULTI_VIEW_INFO},
               "bloomInfo.pNext");
    viewCountOf(info);

    PlanRequest request{info.width, info.height, kernel.width(), kernel.height()};
    request.padding = info.padding == FFTB_PADDING_MIRROR ? Padding::Mirror : Padding::Zero;
    request.axisOrder = info.axisOrder == FFTB_AXIS_ORDER_X_FIRST   ? AxisOrder::XFirst
                        : info.axisOrder == FFTB_AXIS_ORDER_Y_FIRST ? AxisOrder::YFirst
                                                                    : AxisOrder::Auto;
    request.spectrum = kernel.mode();
    request.lengths = lengths_;
    request.kernelScale = scale;
    request.spectrumOversampling = kernel.resampling().oversampling;
    request.halfResolution = info.resolution == FFTB_BLOOM_RESOLUTION_HALF;
    std::string reason;
    const std::lock_guard lock(planMutex_);
    const Plan* planned = plans_.get(request, &reason);
    if (!planned)
        throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS, reason};
    return *planned;
}

bool Context::needsBorderWeights(const FftbBloomInfo& info, const Plan& plan) const
{
    return info.padding == FFTB_PADDING_ZERO_NORMALIZED &&
           !borderWeights_.holds(kernelOf(info.kernel)->serial(), plan, halfStorage(info));
}

void Context::describe(const FftbBloomInfo& info, FftbNodeDescription* d)
{
    const Plan& plan = this->plan(info);
    const bool computeSpectrum = kernelOf(info.kernel)->needsSpectrum(plan);
    void* pNext = d->pNext;
    *d = FftbNodeDescription{FFTB_STRUCTURE_TYPE_NODE_DESCRIPTION, pNext};
    d->input = {info.inputLayout, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT};
    d->output = {VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT};
    d->scratch = {VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT};
    d->scratchBytes = scratchBytes(plan, halfStorage(info) ? 4 : 8, viewCountOf(info));
    d->spectrumBytes = spectrumElements(plan) * 8;
    d->spectrumPassCount = computeSpectrum ? 2 : 0;
    d->borderWeightPassCount = needsBorderWeights(info, plan) ? 3 : 0;
    d->passCount = (plan.halfResolution ? 4 : 3) + d->spectrumPassCount + d->borderWeightPassCount;
    d->paddedWidth = plan.firstAxisIsX ? plan.first.paddedLength : plan.second.paddedLength;
    d->paddedHeight = plan.firstAxisIsX ? plan.second.paddedLength : plan.first.paddedLength;
    d->axisOrder = plan.firstAxisIsX ? FFTB_AXIS_ORDER_X_FIRST : FFTB_AXIS_ORDER_Y_FIRST;
    d->kernelExtentWidth = plan.firstAxisIsX ? plan.first.scaledKernelLength : plan.second.scaledKernelLength;
    d->kernelExtentHeight = plan.firstAxisIsX ? plan.second.scaledKernelLength : plan.first.scaledKernelLength;
    d->kernelScale = plan.kernelScale;
    d->modelledCost = costOf(plan.first, plan.second);
}

FftbResult Context::passStatistics(const FftbBloomInfo& info, uint32_t* count, FftbPassStatistic* statistics)
{
    if (!device_->getPipelineExecutableStatistics)
        throw Failure{FFTB_ERROR_UNSUPPORTED, VK_SUCCESS,
                      "fftbGetPassStatistics: the context was created without "
                      "FftbDeviceFeaturesInfo::pipelineExecutableInfo"};
    const Plan& plan = this->plan(info);
    const std::pair<Pass, uint32_t> passes[3] = {{Pass::ImageFftFirst, plan.first.paddedLength},
                                                 {Pass::ImageFftSecondConvolveIfftSecond, plan.second.paddedLength},
                                                 {Pass::ImageIfftFirstComposite, plan.first.paddedLength}};
    uint32_t total = 0;
    for (uint32_t number = 1; number <= 3; ++number)
    {
        const auto [pass, length] = passes[number - 1];
        VkPipelineInfoKHR pipelineInfo{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
        const uint32_t rowLength = pass == Pass::ImageFftSecondConvolveIfftSecond ? rowLengthOf(plan) : 0;
        pipelineInfo.pipeline =
            pipeline(PipelineKey{pass, length, halfStorage(info), rowLength, multiViewOf(info) != nullptr});
        uint32_t executables = 0;
        device_->check(device_->getPipelineExecutableProperties(device_->device, &pipelineInfo, &executables, nullptr),
                       "vkGetPipelineExecutablePropertiesKHR");
        for (uint32_t e = 0; e < executables; ++e)
        {
            VkPipelineExecutableInfoKHR executable{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
            executable.pipeline = pipelineInfo.pipeline;
            executable.executableIndex = e;
            uint32_t n = 0;
            device_->check(device_->getPipelineExecutableStatistics(device_->device, &executable, &n, nullptr),
                           "vkGetPipelineExecutableStatisticsKHR");
            std::vector<VkPipelineExecutableStatisticKHR> values(n,
                                                                 {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
            device_->check(device_->getPipelineExecutableStatistics(device_->device, &executable, &n, values.data()),
                           "vkGetPipelineExecutableStatisticsKHR");
            for (uint32_t i = 0; i < n; ++i, ++total)
            {
                if (!statistics || total >= *count)
                    continue;
                const VkPipelineExecutableStatisticKHR& v = values[i];
                FftbPassStatistic& out = statistics[total];
                out = FftbPassStatistic{FFTB_STRUCTURE_TYPE_PASS_STATISTIC, nullptr, number, length,
                                        workgroupSizeFor(length)};
                std::memcpy(out.name, v.name, sizeof out.name);
                std::memcpy(out.description, v.description, sizeof out.description);
                switch (v.format)
                {
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
                    out.value = v.value.b32 ? 1.0 : 0.0;
                    break;
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
                    out.value = double(v.value.i64);
                    break;
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
                    out.value = double(v.value.u64);
                    break;
                default:
                    out.value = v.value.f64;
                    break;
                }
            }
        }
    }
    if (!statistics)
    {
        *count = total;
        return FFTB_SUCCESS;
    }
    const bool complete = total <= *count;
    *count = std::min(*count, total);
    return complete ? FFTB_SUCCESS : FFTB_INCOMPLETE;
}

template <typename Stamp>
void Context::imagePasses(VkCommandBuffer cb, const Plan& plan, bool half, bool multiView, uint32_t views,
                          const FftbPushConstants& push, Stamp stamp)
{
    const AxisPlan& a = plan.first;
    const AxisPlan& b = plan.second;
    dispatch(cb, PipelineKey{Pass::ImageFftFirst, a.paddedLength, half, 0, multiView}, (b.imageLength + 1) / 2, 1,
             views, push);
    stamp();
    barrier(cb);
    dispatch(cb,
             PipelineKey{Pass::ImageFftSecondConvolveIfftSecond, b.paddedLength, half, rowLengthOf(plan), multiView},
             plan.halfSpectrumLines(), 3, views, push);
    stamp();
    barrier(cb);
    dispatch(cb, PipelineKey{Pass::ImageIfftFirstComposite, a.paddedLength, half, 0, multiView},
             (b.imageLength + 1) / 2, 1, views, push);
    // Half resolution: pass 4 upsamples the bloom pass 3 wrote and composites; one timestamp after both.
    if (plan.halfResolution && push.borderWeights != FFTB_GPU_BORDER_WEIGHTS_WRITE)
    {
        barrier(cb);
        const uint32_t width = plan.firstAxisIsX ? a.frameLength : b.frameLength;
        const uint32_t height = plan.firstAxisIsX ? b.frameLength : a.frameLength;
        dispatch(cb, PipelineKey{Pass::ImageUpsampleComposite, 0, false, 0, multiView}, (width + 7) / 8,
                 (height + 7) / 8, views, push);
    }
    stamp();
}

FftbPushConstants Context::pushConstantsOf(const FftbBloomInfo& info, const Plan& plan) const
{
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
                 (plan.spectrum == SpectrumMode::Resampled ? FFTB_GPU_FLAG_RESAMPLED : 0u);
    if (plan.halfResolution)
        push.flags |= FFTB_GPU_FLAG_HALF_RESOLUTION | (a.frameLength % 2 != 0 ? FFTB_GPU_FLAG_ODD_FRAME_LENGTH_1 : 0u) |
                      (b.frameLength % 2 != 0 ? FFTB_GPU_FLAG_ODD_FRAME_LENGTH_2 : 0u);
    push.padding = plan.padding == Padding::Mirror ? FFTB_GPU_PADDING_MIRROR : FFTB_GPU_PADDING_ZERO;
    push.outputMode = info.outputMode == FFTB_OUTPUT_MODE_COMPOSITE  ? FFTB_GPU_OUTPUT_COMPOSITE
                      : info.outputMode == FFTB_OUTPUT_MODE_ADDITIVE ? FFTB_GPU_OUTPUT_ADDITIVE
                                                                     : FFTB_GPU_OUTPUT_BLOOM;
    push.sharpen = info.sharpen;
    push.intensity = info.intensity;
    const bool half = halfStorage(info);
    // Half storage: pass 1 has divided by N1 already (common.glsl, storeHalfSpectrum).
    push.inverseScale = float(1.0 / (half ? double(b.paddedLength) : double(a.paddedLength) * double(b.paddedLength)));
    push.spectrumTwiddleOffset1 = twiddleTables().offsetOf(a.spectrumLength);
    const SpectrumResampling& resampling = kernelOf(info.kernel)->resampling();
    push.interpolation = resampling.interpolation == SpectrumInterpolation::Cubic    ? FFTB_GPU_INTERPOLATION_CUBIC
                         : resampling.interpolation == SpectrumInterpolation::Linear ? FFTB_GPU_INTERPOLATION_LINEAR
                                                                                     : FFTB_GPU_INTERPOLATION_ES;
    push.interpolationWidth = resampling.width;
    push.esBeta = esBeta(resampling.width, resampling.oversampling);
    push.tapTableStart = uint32_t(tapTableStart(plan, half ? 4 : 8, viewCountOf(info)));
    push.threshold = info.prefilterThreshold;
    push.knee = info.prefilterKnee;
    push.clampValue = info.prefilterClamp;
    push.kernelScale = float(plan.kernelScale);
    const bool white = info.tint[0] == 0.0f && info.tint[1] == 0.0f && info.tint[2] == 0.0f;
    push.tintRed = white ? 1.0f : info.tint[0];
    push.tintGreen = white ? 1.0f : info.tint[1];
    push.tintBlue = white ? 1.0f : info.tint[2];
    push.borderWeights =
        info.padding == FFTB_PADDING_ZERO_NORMALIZED ? FFTB_GPU_BORDER_WEIGHTS_DIVIDE : FFTB_GPU_BORDER_WEIGHTS_NONE;
    return push;
}

std::vector<Context::PipelineKey> Context::pipelinesOf(const Plan& plan, bool half, bool multiView)
{
    std::vector<PipelineKey> keys{
        PipelineKey{Pass::KernelFftFirst, plan.first.spectrumLength, false, 0, false},
        PipelineKey{Pass::KernelFftSecond, plan.second.spectrumLength, false, 0, false},
        PipelineKey{Pass::ImageFftFirst, plan.first.paddedLength, half, 0, multiView},
        PipelineKey{Pass::ImageFftSecondConvolveIfftSecond, plan.second.paddedLength, half, rowLengthOf(plan),
                    multiView},
        PipelineKey{Pass::ImageIfftFirstComposite, plan.first.paddedLength, half, 0, multiView}};
    if (plan.halfResolution)
        keys.push_back(PipelineKey{Pass::ImageUpsampleComposite, 0, false, 0, multiView});
    return keys;
}

bool Context::pipelinesReady(const Plan& plan, bool half, bool multiView, const char* call)
{
    std::vector<PipelineKey> missing;
    {
        const std::lock_guard lock(pipelineMutex_);
        for (const PipelineKey& key : pipelinesOf(plan, half, multiView))
            if (pipelines_.count(key) == 0 && std::find(missing.begin(), missing.end(), key) == missing.end())
                missing.push_back(key);
    }
    if (missing.empty())
        return true;
    std::string lengths;
    for (const PipelineKey& key : missing)
        lengths += (lengths.empty() ? "" : ", ") +
                   (std::get<1>(key) ? std::to_string(std::get<1>(key)) : std::string("none: pass 4"));
    const std::string what = std::to_string(missing.size()) + " pipelines (FFT lengths " + lengths + ")";
    if (flags_ & FFTB_CONTEXT_CREATE_NO_COMPILE_WHILE_RECORDING_BIT)
    {
        device_->report(FFTB_NOT_READY, VK_SUCCESS,
                        std::string(call) + ": " + what +
                            " are not compiled (FFTB_CONTEXT_CREATE_NO_COMPILE_WHILE_RECORDING_BIT): nothing recorded; "
                            "fftbPreparePipelines compiles them");
        return false;
    }
    const auto start = std::chrono::steady_clock::now();
    for (const PipelineKey& key : missing)
        pipeline(key);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    char elapsed[32];
    std::snprintf(elapsed, sizeof elapsed, "%.1f", ms);
    device_->report(FFTB_SUCCESS, VK_SUCCESS,
                    std::string(call) + ": compiled " + what + " while recording in " + elapsed +
                        " ms; fftbPreparePipelines compiles them ahead");
    return true;
}

void Context::preparePipelines(const FftbBloomInfo& info)
{
    const Plan plan = this->plan(info);
    for (const PipelineKey& key : pipelinesOf(plan, halfStorage(info), multiViewOf(info) != nullptr))
        pipeline(key);
}

void Context::kernelPasses(VkCommandBuffer cb, const Plan& plan, const FftbPushConstants& push)
{
    const AxisPlan& a = plan.first;
    const AxisPlan& b = plan.second;
    const uint32_t kernelLines = std::min(b.kernelLength, b.spectrumLength);
    dispatch(cb, PipelineKey{Pass::KernelFftFirst, a.spectrumLength, false, 0, false}, (kernelLines + 1) / 2, 1, 1,
             push);
    barrier(cb);
    dispatch(cb, PipelineKey{Pass::KernelFftSecond, b.spectrumLength, false, 0, false}, a.spectrumLength / 2 + 1, 3, 1,
             push);
    barrier(cb);
}

FftbResult Context::cmdPrepareKernel(VkCommandBuffer cb, const FftbBloomInfo& info)
{
    const Plan plan = this->plan(info);
    const bool half = halfStorage(info);
    Kernel& kernel = *kernelOf(info.kernel);
    if (!kernel.needsSpectrum(plan))
        return FFTB_SUCCESS;
    if (!pipelinesReady(plan, half, multiViewOf(info) != nullptr, "fftbCmdPrepareKernel"))
        return FFTB_NOT_READY;
    const FftbPushConstants push = pushConstantsOf(info, plan);
    const Kernel::Binding binding = kernel.bind(plan);
    const VkDescriptorSet set = nextDescriptorSet(info, binding, false);
    device_->cmdBeginLabel(cb, "fftbloom: kernel spectrum");
    vk_.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipelineLayout_, 0, 1, &set, 0, nullptr);
    barrier(cb); // after earlier compute use of the scratch and the kernel
    kernelPasses(cb, plan, push);
    device_->cmdEndLabel(cb);
    return FFTB_SUCCESS;
}

FftbResult Context::cmdBloom(VkCommandBuffer cb, const FftbBloomInfo& info)
{
    const Plan plan = this->plan(info);
    const FftbMultiViewInfo* multiView = multiViewOf(info);
    if (!multiView && (!info.inputView || !info.outputView))
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "inputView, outputView: VK_NULL_HANDLE"};
    if (multiView)
    {
        if (info.inputView || info.outputView)
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                          "inputView, outputView: must be VK_NULL_HANDLE with an FftbMultiViewInfo, which gives the "
                          "views"};
        if (!multiView->pInputViews || !multiView->pOutputViews)
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "FftbMultiViewInfo.pInputViews, pOutputViews: NULL"};
        for (uint32_t i = 0; i < multiView->viewCount; ++i)
            if (!multiView->pInputViews[i] || !multiView->pOutputViews[i])
                throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                              "FftbMultiViewInfo.pInputViews[" + std::to_string(i) + "], pOutputViews[" +
                                  std::to_string(i) + "]: VK_NULL_HANDLE"};
    }
    const uint32_t views = multiView ? multiView->viewCount : 1;
    const auto* timestamps = findInChain<FftbTimestampInfo>(info.pNext, FFTB_STRUCTURE_TYPE_TIMESTAMP_INFO);
    if (timestamps && !timestamps->queryPool)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "FftbTimestampInfo.queryPool: VK_NULL_HANDLE"};
    const auto* images = findInChain<FftbImageBarrierInfo>(info.pNext, FFTB_STRUCTURE_TYPE_IMAGE_BARRIER_INFO);
    if (images)
        checkImageBarriers(*images);

    const FftbPushConstants push = pushConstantsOf(info, plan);
    const bool half = halfStorage(info);

    uint32_t stamp = 0;
    const auto writeTimestamp = [&]
    {
        if (timestamps)
            vk_.vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps->queryPool,
                                    timestamps->firstQuery + stamp++);
    };

    // Everything that can fail comes before the kernel is bound (which marks its spectrum as computed) and before
    // anything is recorded: pipelines report a device limit (workgroup size, shared memory) here.
    if (!pipelinesReady(plan, half, multiView != nullptr, "fftbCmdBloom"))
        return FFTB_NOT_READY;
    const bool computeBorderWeights = needsBorderWeights(info, plan);
    // 3 W H fp32 is less than the scratch's 3 (N1 / 2 + 1) L2 complex fp32 (N1 >= L1), which makeScratch checked
    // against maxStorageBufferRange.
    if (push.borderWeights == FFTB_GPU_BORDER_WEIGHTS_DIVIDE && !borderWeights_.buffer.buffer)
        borderWeights_.buffer = device_->createBuffer(borderWeightBytes(max_.width, max_.height), false);
    const Kernel::Binding kernel = kernelOf(info.kernel)->bind(plan);
    if (computeBorderWeights)
    {
        borderWeights_.kernelSerial = kernelOf(info.kernel)->serial();
        borderWeights_.plan = plan;
        borderWeights_.halfStorage = half;
    }

    const VkDescriptorSet set = nextDescriptorSet(info, kernel, true);
    device_->cmdBeginLabel(cb, "fftbloom");
    vk_.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipelineLayout_, 0, 1, &set, 0, nullptr);
    // Orders this bloom after earlier compute use of the scratch and the kernel (the previous frame's passes).
    barrier(cb);
    if (images)
        cmdImageBarriers(cb, *images, info.inputLayout, true);
    writeTimestamp();
    if (kernel.computeSpectrum)
        kernelPasses(cb, plan, push);
    if (computeBorderWeights)
    {
        // The same passes over the frame's indicator with the unsharpened kernel: pass 3 applies the sharpening.
        FftbPushConstants indicator = push;
        indicator.borderWeights = FFTB_GPU_BORDER_WEIGHTS_WRITE;
        indicator.sharpen = 0.0f;
        // Every view has the same weights: view 0's lines compute them.
        imagePasses(cb, plan, half, multiView != nullptr, 1, indicator, [] {});
        barrier(cb);
    }
    writeTimestamp();
    imagePasses(cb, plan, half, multiView != nullptr, views, push, writeTimestamp);
    if (images)
        cmdImageBarriers(cb, *images, info.inputLayout, false);
    device_->cmdEndLabel(cb);
    return FFTB_SUCCESS;
}

void Context::checkImageBarriers(const FftbImageBarrierInfo& images) const
{
    if (!images.inputImage || !images.outputImage)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                      "FftbImageBarrierInfo.inputImage, outputImage: VK_NULL_HANDLE"};
    for (const auto& [layout, field] :
         {std::pair{images.inputLayout, "inputLayout"}, std::pair{images.outputNewLayout, "outputNewLayout"}})
        if (layout == VK_IMAGE_LAYOUT_UNDEFINED || layout == VK_IMAGE_LAYOUT_PREINITIALIZED)
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                          std::string("FftbImageBarrierInfo.") + field + ": UNDEFINED or PREINITIALIZED"};
}

void Context::cmdImageBarriers(VkCommandBuffer cb, const FftbImageBarrierInfo& images, VkImageLayout readLayout,
                               bool before) const
{
    constexpr VkPipelineStageFlags2 compute = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    const uint32_t owner = images.ownerQueueFamilyIndex, bloom = images.bloomQueueFamilyIndex;
    const bool transfer = owner != bloom && owner != VK_QUEUE_FAMILY_IGNORED && bloom != VK_QUEUE_FAMILY_IGNORED;
    Device::ImageBarrier barriers[2];
    if (before)
    {
        barriers[0] = {images.inputImage,
                       images.inputRange,
                       images.inputLayout,
                       readLayout,
                       images.inputStageMask,
                       images.inputAccessMask,
                       compute,
                       VK_ACCESS_2_SHADER_SAMPLED_READ_BIT};
        barriers[1] = {images.outputImage,
                       images.outputRange,
                       images.outputOldLayout,
                       VK_IMAGE_LAYOUT_GENERAL,
                       images.outputSrcStageMask,
                       images.outputSrcAccessMask,
                       compute,
                       VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT};
        // The acquire half: the owner's stages are not this queue's; the semaphore wait orders them.
        for (Device::ImageBarrier& b : barriers)
            if (transfer && !(&b == &barriers[1] && images.outputOldLayout == VK_IMAGE_LAYOUT_UNDEFINED))
                b.srcStages = VK_PIPELINE_STAGE_2_NONE, b.srcAccess = VK_ACCESS_2_NONE, b.srcFamily = owner,
                b.dstFamily = bloom;
    }
    else
    {
        // The input's reads need no access mask, only their stage: the next user waits on COMPUTE_SHADER.
        barriers[0] = {images.inputImage, images.inputRange, readLayout, images.inputLayout, compute, 0, compute, 0};
        barriers[1] = {images.outputImage,
                       images.outputRange,
                       VK_IMAGE_LAYOUT_GENERAL,
                       images.outputNewLayout,
                       compute,
                       VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                       images.outputDstStageMask,
                       images.outputDstAccessMask};
        // The release half: the owner's queue acquires, after a semaphore.
        for (Device::ImageBarrier& b : barriers)
            if (transfer)
                b.dstStages = VK_PIPELINE_STAGE_2_NONE, b.dstAccess = VK_ACCESS_2_NONE, b.srcFamily = bloom,
                b.dstFamily = owner;
    }
    device_->cmdImageBarriers(cb, barriers);
}

} // namespace fftb
