// SPDX-License-Identifier: MIT
// Recording a plan: the per-frame checks, then the recipe's passes replayed with the frame's push constants and views.
#include "bloom_plan.h"

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

PassResources BloomPlan::resources(const Kernel::Binding& kernel) const
{
    const Scratch& scratch = context_->scratch();
    PassResources r;
    r.intermediate = scratch.buffer;
    r.intermediateOffset = scratch.offset;
    r.intermediateSize = scratch.size;
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
    writeTimestamp();
    record(cb, framePasses_, r, bloomPushConstants(recipe_, info), writeTimestamp);
    if (images)
        cmdImageBarriers(device, cb, *images, readLayout, false);
    device.cmdEndLabel(cb);
}

} // namespace fftb
