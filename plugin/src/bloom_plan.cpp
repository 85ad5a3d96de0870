// SPDX-License-Identifier: MIT
// A bloom plan: making it, what it tells without recording (its description and its passes' statistics), and recording
// it: the per-frame checks, then the recipe's passes replayed with the frame's push constants and views.
#include "bloom_plan.h"

#include <cstring>

namespace fftb
{

namespace
{

/// Throws FFTB_ERROR_INVALID_ARGUMENT naming the field of an FftbImageBarrierInfo out of its range.
void checkImageBarriers(const FftbImageBarrierInfo& images)
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

/// The FftbImageBarrierInfo barriers before the first pass (`before`) or after the last.
void cmdImageBarriers(const Device& device, VkCommandBuffer cb, const FftbImageBarrierInfo& images,
                      VkImageLayout readLayout, bool before)
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
    device.cmdImageBarriers(cb, barriers);
}

/// The views of one bloom: `info`'s, or its FftbMultiViewInfo's for a plan of several views; checked.
struct Views
{
    const VkImageView* inputs;
    const VkImageView* outputs;
};
Views viewsOf(const FftbBloomInfo& info, const Recipe& recipe)
{
    const auto* multiView = findInChain<FftbMultiViewInfo>(info.pNext, FFTB_STRUCTURE_TYPE_MULTI_VIEW_INFO);
    if (!recipe.multiView)
    {
        if (multiView)
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                          "bloomInfo.pNext: an FftbMultiViewInfo, for a plan of one view (viewCount 0 or 1)"};
        if (!info.inputView || !info.outputView)
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "inputView, outputView: VK_NULL_HANDLE"};
        if (info.inputView == info.outputView)
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "outputView: the same view as inputView"};
        return {&info.inputView, &info.outputView};
    }
    if (!multiView)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                      "bloomInfo.pNext: no FftbMultiViewInfo, for a plan of " + std::to_string(recipe.views) +
                          " views"};
    if (multiView->viewCount != recipe.views)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                      "FftbMultiViewInfo.viewCount: " + std::to_string(multiView->viewCount) + ", the plan's is " +
                          std::to_string(recipe.views)};
    if (info.inputView || info.outputView)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                      "inputView, outputView: must be VK_NULL_HANDLE with an FftbMultiViewInfo, which gives the views"};
    if (!multiView->pInputViews || !multiView->pOutputViews)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "FftbMultiViewInfo.pInputViews, pOutputViews: NULL"};
    for (uint32_t i = 0; i < multiView->viewCount; ++i)
        if (!multiView->pInputViews[i] || !multiView->pOutputViews[i])
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                          "FftbMultiViewInfo.pInputViews[" + std::to_string(i) + "], pOutputViews[" +
                              std::to_string(i) + "]: VK_NULL_HANDLE"};
    // The same handle twice among the outputs, or an output that is an input: the passes would write what they read.
    for (uint32_t i = 0; i < multiView->viewCount; ++i)
        for (uint32_t j = 0; j < multiView->viewCount; ++j)
        {
            const bool asInput = multiView->pInputViews[j] == multiView->pOutputViews[i];
            if (asInput || (j < i && multiView->pOutputViews[j] == multiView->pOutputViews[i]))
                throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                              "FftbMultiViewInfo.pOutputViews[" + std::to_string(i) + "]: the same view as " +
                                  (asInput ? "pInputViews[" : "pOutputViews[") + std::to_string(j) + "]"};
        }
    return {multiView->pInputViews, multiView->pOutputViews};
}

} // namespace

BloomPlan::BloomPlan(Context& context, const FftbBloomPlanCreateInfo& info)
    : context_(&context), device_(context.device()), kernel_(kernelOf(info.kernel))
{
    const Device& device = *context.device();
    if (kernel_->device().device != device.device)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "createInfo.kernel: created on another VkDevice"};
    const KernelShape shape{kernel_->width(), kernel_->height(), kernel_->mode(), kernel_->resampling()};
    const auto* farInfo = findInChain<FftbFarFieldInfo>(info.pNext, FFTB_STRUCTURE_TYPE_FAR_FIELD_INFO);
    Kernel* farKernel = nullptr;
    FarFieldRequest far;
    if (farInfo)
    {
        checkChain(farInfo->pNext, {}, "FftbFarFieldInfo.pNext");
        if (!farInfo->kernel)
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                          "FftbFarFieldInfo.kernel: VK_NULL_HANDLE (fftbCreateKernel)"};
        farKernel = kernelOf(farInfo->kernel);
        if (farKernel->device().device != device.device)
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                          "FftbFarFieldInfo.kernel: created on another VkDevice"};
        far = {farInfo, {farKernel->width(), farKernel->height(), farKernel->mode(), farKernel->resampling()}};
    }
    Recipe farRecipe;
    Refusal refusal;
    if (!resolveRecipe(info, context.maxExtents(), shape, context.lengthPolicy(), context.pipelines().limits(),
                       &recipe_, &refusal, farInfo ? &far : nullptr, &farRecipe))
        throw Failure{refusal.result, VK_SUCCESS, refusal.reason};
    const std::string name = "fftbloom: plan " + std::to_string(info.width) + "x" + std::to_string(info.height);
    if (farKernel)
        farField_.reset(new BloomPlan(context, farKernel, std::move(farRecipe), name + " far field"));
    make(context, name);
}

BloomPlan::BloomPlan(Context& context, Kernel* kernel, Recipe recipe, const std::string& name)
    : context_(&context), device_(context.device()), kernel_(kernel), recipe_(std::move(recipe))
{
    make(context, name);
}

void BloomPlan::make(Context& context, const std::string& name)
{
    const Device& device = *context.device();
    checkScratch();
    context.pipelines().compile(recipe_.pipelines);
    spectrumPasses_ = context.pipelines().compiled(recipe_.spectrumPasses);
    borderWeightPasses_ = context.pipelines().compiled(recipe_.borderWeightPasses);
    framePasses_ = context.pipelines().compiled(recipe_.framePasses);
    kernel_->reserve(recipe_.plan, this);
    try
    {
        // 3 W H fp32 is less than the scratch's 3 (N1 / 2 + 1) L2 complex fp32 (N1 >= L1), within
        // maxStorageBufferRange.
        if (recipe_.normalized)
        {
            borderWeights_ = device.createBuffer(recipe_.borderWeightBytes, false, name + " border weights");
            weightsWord_ = device.createCompletionWord(name + " border weights computed");
        }
        context.addPlan(this);
    }
    catch (...)
    {
        // No destructor runs for a constructor that throws.
        device.destroyBuffer(borderWeights_);
        device.destroyBuffer(weightsWord_);
        kernel_->release(recipe_.plan, this);
        throw;
    }
}

BloomPlan::~BloomPlan()
{
    if (context_)
        context_->removePlan(this);
    if (kernel_)
        kernel_->release(recipe_.plan, this);
    device_->destroyBuffer(borderWeights_);
    device_->destroyBuffer(weightsWord_);
}

Kernel& BloomPlan::kernel() const
{
    if (!kernel_)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                      "plan: its kernel was destroyed (fftbDestroyKernel); only fftbDestroyBloomPlan takes it"};
    return *kernel_;
}

void BloomPlan::orphan()
{
    device_->destroyBuffer(borderWeights_);
    device_->destroyBuffer(weightsWord_);
    spectrumPasses_.clear();
    borderWeightPasses_.clear();
    framePasses_.clear();
    context_ = nullptr;
}

void BloomPlan::checkContext() const
{
    if (!context_)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                      "plan: its context was destroyed (fftbDestroyContext); only fftbDestroyBloomPlan takes it"};
}

void BloomPlan::checkScratch() const
{
    const Scratch& scratch = context_->scratch();
    if (recipe_.scratchBytes > scratch.size)
        throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS,
                      "plan: needs " + std::to_string(recipe_.scratchBytes) +
                          " bytes of scratch, the context's holds " + std::to_string(scratch.size) +
                          " (fftbResizeContext made it smaller: make the plan again)"};
}

void BloomPlan::describe(FftbBloomPlanDescription* d) const
{
    const Plan& plan = recipe_.plan;
    void* pNext = d->pNext;
    *d = FftbBloomPlanDescription{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION, pNext};
    d->input = {VkImageLayout(recipe_.inputLayout), VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                VK_ACCESS_2_SHADER_SAMPLED_READ_BIT};
    d->output = {VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT};
    d->scratch = {VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT};
    d->scratchBytes = recipe_.scratchBytes;
    d->spectrumBytes = spectrumBufferBytes(recipe_.spectrumChannelElements);
    d->borderWeightBytes = recipe_.borderWeightBytes;
    const Kernel::Binding kernel = this->kernel().bind(plan);
    d->spectrumPassCount = kernel.computeSpectrum ? uint32_t(recipe_.spectrumPasses.size()) : 0;
    d->borderWeightPassCount = needsBorderWeights(kernel) ? uint32_t(recipe_.borderWeightPasses.size()) : 0;
    d->passCount = uint32_t(recipe_.framePasses.size()) + d->spectrumPassCount + d->borderWeightPassCount;
    d->paddedWidth = plan.firstAxisIsX ? plan.first.paddedLength : plan.second.paddedLength;
    d->paddedHeight = plan.firstAxisIsX ? plan.second.paddedLength : plan.first.paddedLength;
    d->axisOrder = plan.firstAxisIsX ? FFTB_AXIS_ORDER_X_FIRST : FFTB_AXIS_ORDER_Y_FIRST;
    d->kernelExtentWidth = plan.firstAxisIsX ? plan.first.scaledKernelLength : plan.second.scaledKernelLength;
    d->kernelExtentHeight = plan.firstAxisIsX ? plan.second.scaledKernelLength : plan.first.scaledKernelLength;
    d->kernelScale = plan.kernelScale;
    d->modelledCost = costOf(plan.first, plan.second);
    if (farField_)
    {
        FftbBloomPlanDescription far{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
        farField_->describe(&far);
        d->spectrumBytes += far.spectrumBytes;
        d->borderWeightBytes += far.borderWeightBytes;
        d->spectrumPassCount += far.spectrumPassCount;
        d->borderWeightPassCount += far.borderWeightPassCount;
        d->passCount += far.passCount;
    }
}

FftbResult BloomPlan::passStatistics(uint32_t* count, FftbPassStatistic* statistics) const
{
    const Device& device = *device_;
    if (!device.getPipelineExecutableStatistics)
        throw Failure{FFTB_ERROR_UNSUPPORTED, VK_SUCCESS,
                      "fftbGetPassStatistics: the context was created without "
                      "FftbDeviceFeaturesInfo::pipelineExecutableInfo"};
    uint32_t total = 0;
    for (uint32_t number = 1; number <= 3; ++number)
    {
        const PipelineKey& key = recipe_.framePasses[number - 1].pipeline;
        VkPipelineInfoKHR pipelineInfo{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
        pipelineInfo.pipeline = context_->pipelines().get(key);
        uint32_t executables = 0;
        device.check(device.getPipelineExecutableProperties(device.device, &pipelineInfo, &executables, nullptr),
                     "vkGetPipelineExecutablePropertiesKHR");
        for (uint32_t e = 0; e < executables; ++e)
        {
            VkPipelineExecutableInfoKHR executable{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
            executable.pipeline = pipelineInfo.pipeline;
            executable.executableIndex = e;
            uint32_t n = 0;
            device.check(device.getPipelineExecutableStatistics(device.device, &executable, &n, nullptr),
                         "vkGetPipelineExecutableStatisticsKHR");
            std::vector<VkPipelineExecutableStatisticKHR> values(n,
                                                                 {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
            device.check(device.getPipelineExecutableStatistics(device.device, &executable, &n, values.data()),
                         "vkGetPipelineExecutableStatisticsKHR");
            for (uint32_t i = 0; i < n; ++i, ++total)
            {
                if (!statistics || total >= *count)
                    continue;
                const VkPipelineExecutableStatisticKHR& v = values[i];
                FftbPassStatistic& out = statistics[total];
                out = FftbPassStatistic{FFTB_STRUCTURE_TYPE_PASS_STATISTIC, nullptr, number, key.fftLength,
                                        context_->pipelines().workgroupSizeOf(key)};
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

PassResources BloomPlan::resources(const Kernel::Binding& kernel) const
{
    const Scratch& scratch = context_->scratch();
    PassResources r;
    r.intermediate = scratch.buffer;
    r.intermediateOffset = scratch.offset + recipe_.scratchOffset;
    r.intermediateSize = scratch.size - recipe_.scratchOffset;
    r.kernelTexels = kernel.texels;
    r.kernelSpectrum = kernel.spectrum;
    r.kernelSpectrumChannelBytes = kernel.spectrumChannelBytes;
    // Without border weights, any buffer: pass 3 does not read them.
    r.borderWeights = borderWeights_.buffer ? borderWeights_.buffer : kernel.texels;
    r.inputLayout = VkImageLayout(recipe_.inputLayout);
    return r;
}

template <typename Stamp>
void BloomPlan::record(VkCommandBuffer cb, const std::vector<CompiledDispatch>& passes, const PassResources& resources,
                       const FftbPushConstants& push, Stamp stamp) const
{
    const Device& device = *device_;
    for (size_t i = 0; i < passes.size(); ++i)
    {
        context_->pipelines().dispatch(cb, passes[i], resources, &push, sizeof push);
        if (passes[i].timestampAfter)
            stamp();
        if (i + 1 < passes.size())
            device.cmdComputeBarrier(cb);
    }
}

template <typename Stamp>
void BloomPlan::recordWithFarField(VkCommandBuffer cb, const PassResources& resources, const PassResources& far,
                                   const FftbBloomInfo& info, Stamp stamp) const
{
    const Device& device = *device_;
    const FftbPushConstants push = bloomPushConstants(recipe_, info);
    const FftbPushConstants farPush = bloomPushConstants(farField_->recipe_, info);
    // Passes 1 and 2 bind the scratch before the far field's window, so that the far field's pass beside each shares
    // no byte with it; pass 3 reads the far field's bloom there.
    PassResources own = resources;
    own.intermediateSize = farField_->recipe_.scratchOffset;
    const auto farPass = [&](size_t i)
    { context_->pipelines().dispatch(cb, farField_->framePasses_[i], far, &farPush, sizeof farPush); };
    const auto pass = [&](size_t i)
    {
        context_->pipelines().dispatch(cb, framePasses_[i], i + 1 == framePasses_.size() ? resources : own, &push,
                                       sizeof push);
        if (framePasses_[i].timestampAfter)
            stamp();
    };
    // The far field's pass 1 beside pass 1, its pass 2 alone, its pass 3 beside pass 2, then pass 3: its small
    // latency-bound passes hidden where they fit (on an H200 0.218 ms against 0.226 with its pass 3 alone before
    // pass 3: bench/results/README.md, "Two-scale glare").
    farPass(0);
    pass(0);
    device.cmdComputeBarrier(cb);
    farPass(1);
    device.cmdComputeBarrier(cb);
    farPass(2);
    pass(1);
    device.cmdComputeBarrier(cb);
    pass(2);
}

void BloomPlan::recordOnce(VkCommandBuffer cb, const PassResources& resources, const Kernel::Binding& kernel,
                           bool borderWeights)
{
    const Device& device = *device_;
    if (kernel.computeSpectrum)
    {
        record(cb, spectrumPasses_, resources, spectrumPushConstants(recipe_), [] {});
        device.cmdComputeBarrier(cb);
        device.cmdComplete(cb, kernel.word, kernel.value, kernel.tagSource);
    }
    if (!borderWeights || !needsBorderWeights(kernel))
        return;
    if (weightsSerial_ != kernel.serial) // new texels: the border weights computed for them get a new value
    {
        weightsSerial_ = kernel.serial;
        weightsValue_ = nextCompletionValue();
    }
    record(cb, borderWeightPasses_, resources, borderWeightPushConstants(recipe_), [] {});
    device.cmdComputeBarrier(cb);
    // Tagged with the spectrum they read: its word's tag when they execute.
    device.cmdComplete(cb, weightsWord_, weightsValue_, kernel.word, sizeof(uint32_t));
}

void BloomPlan::cmdPrepareKernel(VkCommandBuffer cb)
{
    checkScratch();
    const Kernel::Binding kernel = this->kernel().bind(recipe_.plan);
    if (!kernel.computeSpectrum)
        return;
    const Device& device = *device_;
    device.cmdBeginLabel(cb, "fftbloom: kernel spectrum");
    device.cmdComputeBarrier(cb); // after earlier compute use of the scratch and the kernel
    recordOnce(cb, resources(kernel), kernel, false);
    device.cmdEndLabel(cb);
    if (farField_)
        farField_->cmdPrepareKernel(cb);
}

void BloomPlan::cmdBloom(VkCommandBuffer cb, const FftbBloomInfo& info)
{
    checkChain(info.pNext,
               {FFTB_STRUCTURE_TYPE_TIMESTAMP_INFO, FFTB_STRUCTURE_TYPE_IMAGE_BARRIER_INFO,
                FFTB_STRUCTURE_TYPE_MULTI_VIEW_INFO},
               "bloomInfo.pNext");
    for (const std::string& reason : {checkBloomValues(info), checkViewExtents(info, recipe_)})
        if (!reason.empty())
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, reason};
    const Views views = viewsOf(info, recipe_);
    const auto* timestamps = findInChain<FftbTimestampInfo>(info.pNext, FFTB_STRUCTURE_TYPE_TIMESTAMP_INFO);
    if (timestamps && !timestamps->queryPool)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "FftbTimestampInfo.queryPool: VK_NULL_HANDLE"};
    const auto* images = findInChain<FftbImageBarrierInfo>(info.pNext, FFTB_STRUCTURE_TYPE_IMAGE_BARRIER_INFO);
    if (images)
        checkImageBarriers(*images);
    checkScratch();
    const Kernel::Binding kernel = this->kernel().bind(recipe_.plan);
    if (farField_ && !farField_->kernel_)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                      "plan: its far field's kernel was destroyed (fftbDestroyKernel); only fftbDestroyBloomPlan takes "
                      "it"};
    const Kernel::Binding farKernel = farField_ ? farField_->kernel_->bind(farField_->recipe_.plan) : kernel;

    // Nothing fails from here on.
    const Device& device = *device_;
    const VkImageLayout readLayout = VkImageLayout(recipe_.inputLayout);
    uint32_t stamp = 0;
    const auto writeTimestamp = [&]
    {
        if (timestamps)
            device.vk.vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps->queryPool,
                                          timestamps->firstQuery + stamp++);
    };
    PassResources r = resources(kernel);
    r.inputViews = views.inputs;
    r.outputViews = views.outputs;
    r.views = recipe_.views;
    device.cmdBeginLabel(cb, "fftbloom");
    // Orders this bloom after earlier compute use of the scratch and the kernel (the previous frame's passes).
    device.cmdComputeBarrier(cb);
    if (images)
        cmdImageBarriers(device, cb, *images, readLayout, true);
    writeTimestamp();
    recordOnce(cb, r, kernel, true);
    PassResources far = r;
    if (farField_)
    {
        far = farField_->resources(farKernel);
        far.inputViews = views.inputs;
        far.outputViews = views.outputs;
        far.views = recipe_.views;
        farField_->recordOnce(cb, far, farKernel, true);
    }
    writeTimestamp();
    if (farField_)
        recordWithFarField(cb, r, far, info, writeTimestamp);
    else
        record(cb, framePasses_, r, bloomPushConstants(recipe_, info), writeTimestamp);
    if (images)
        cmdImageBarriers(device, cb, *images, readLayout, false);
    device.cmdEndLabel(cb);
}

} // namespace fftb
