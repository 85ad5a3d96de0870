// SPDX-License-Identifier: MIT
// The C entry points: argument checks, and every failure turned into a result code and a message.
#include "bloom_plan.h"

#include <algorithm>
#include <cmath>
#include <new>
#include <utility>

struct FftbContext_T
{
    fftb::Context context;
    explicit FftbContext_T(const FftbContextCreateInfo& info) : context(info) {}
};

namespace
{

/// Runs `body`, turning a Failure or an allocation failure into its result code, passed to `report` first.
template <typename Report, typename Body> FftbResult guardedBy(Report&& report, Body&& body)
{
    try
    {
        body();
        return FFTB_SUCCESS;
    }
    catch (const fftb::Failure& f)
    {
        report(f);
        return f.result;
    }
    catch (const std::bad_alloc&)
    {
        report(fftb::Failure{FFTB_ERROR_OUT_OF_HOST_MEMORY, VK_SUCCESS, "out of host memory"});
        return FFTB_ERROR_OUT_OF_HOST_MEMORY;
    }
}

/// guardedBy for a device: failures go to its message callback.
template <typename Body> FftbResult guarded(const fftb::Device& device, Body&& body)
{
    return guardedBy([&](const fftb::Failure& f) { device.report(f.result, f.vkResult, f.message); },
                     std::forward<Body>(body));
}

/// guarded for a context's device.
template <typename Body> FftbResult guarded(const fftb::Context& context, Body&& body)
{
    return guarded(*context.device(), std::forward<Body>(body));
}

/// guarded for a plan's device; a plan whose context was destroyed is refused before `body` runs.
template <typename Body> FftbResult guarded(FftbBloomPlan handle, Body&& body)
{
    const fftb::BloomPlan& plan = *fftb::bloomPlanOf(handle);
    return guarded(plan.device(),
                   [&]
                   {
                       plan.checkContext();
                       body();
                   });
}

/// Checks the maximum extents of a create or resize info; throws naming the field.
template <typename Info> void checkExtents(const Info& info)
{
    // extentsOf reads 0 views as 1.
    if (info.maxViews > FFTB_MAX_VIEWS)
        throw fftb::Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                            "maxViews: must lie in 0 .. " + std::to_string(FFTB_MAX_VIEWS)};
    if (const std::string reason = fftb::checkExtents(fftb::extentsOf(info)); !reason.empty())
        throw fftb::Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, reason};
}

/// The checks of a create info that need no device.
void checkCreateInfo(const FftbContextCreateInfo& info)
{
    fftb::checkStructureType(info.sType, FFTB_STRUCTURE_TYPE_CONTEXT_CREATE_INFO, "sType",
                             "FFTB_STRUCTURE_TYPE_CONTEXT_CREATE_INFO");
    checkExtents(info);
    fftb::checkChain(info.pNext,
                     {FFTB_STRUCTURE_TYPE_PLANNER_INFO, FFTB_STRUCTURE_TYPE_DEVICE_FEATURES_INFO,
                      FFTB_STRUCTURE_TYPE_SCRATCH_INFO, FFTB_STRUCTURE_TYPE_BUFFER_ALLOCATOR_INFO},
                     "createInfo.pNext");
    const auto* planner = fftb::findInChain<FftbPlannerInfo>(info.pNext, FFTB_STRUCTURE_TYPE_PLANNER_INFO);
    if (planner && !fftb::knownEnum(planner->lengthPolicy, FFTB_LENGTH_POLICY_POWER_OF_TWO))
        throw fftb::Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "FftbPlannerInfo.lengthPolicy: unknown value"};
}

/// guardedBy for a call without a context: failures go to the create info's message callback.
template <typename Body> FftbResult guardedCreate(const FftbContextCreateInfo& info, Body&& body)
{
    return guardedBy(
        [&](const fftb::Failure& f)
        {
            if (info.messageCallback)
                info.messageCallback(f.result, f.vkResult, f.message.c_str(), info.messageUserData);
        },
        std::forward<Body>(body));
}

/// Throws naming the field when `info` is NULL or not an FftbBloomInfo.
void checkBloomInfo(const FftbBloomInfo* info)
{
    if (!info)
        throw fftb::Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "bloomInfo: NULL"};
    fftb::checkStructureType(info->sType, FFTB_STRUCTURE_TYPE_BLOOM_INFO, "bloomInfo.sType",
                             "FFTB_STRUCTURE_TYPE_BLOOM_INFO");
}

/// Throws when `commandBuffer` is VK_NULL_HANDLE.
void checkCommandBuffer(VkCommandBuffer commandBuffer)
{
    if (!commandBuffer)
        throw fftb::Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "commandBuffer: VK_NULL_HANDLE"};
}

} // namespace

extern "C" {

uint32_t fftbGetVersion(void)
{
    return FFTB_VERSION;
}

const char* fftbResultToString(FftbResult result)
{
    switch (result)
    {
    case FFTB_SUCCESS:
        return "FFTB_SUCCESS";
    case FFTB_ERROR_INVALID_ARGUMENT:
        return "FFTB_ERROR_INVALID_ARGUMENT";
    case FFTB_ERROR_UNSUPPORTED:
        return "FFTB_ERROR_UNSUPPORTED";
    case FFTB_ERROR_DEVICE_LIMIT:
        return "FFTB_ERROR_DEVICE_LIMIT";
    case FFTB_ERROR_OUT_OF_HOST_MEMORY:
        return "FFTB_ERROR_OUT_OF_HOST_MEMORY";
    case FFTB_ERROR_OUT_OF_DEVICE_MEMORY:
        return "FFTB_ERROR_OUT_OF_DEVICE_MEMORY";
    case FFTB_ERROR_VULKAN:
        return "FFTB_ERROR_VULKAN";
    case FFTB_INCOMPLETE:
        return "FFTB_INCOMPLETE";
    case FFTB_RESULT_MAX_ENUM:
        break;
    }
    return "FFTB_RESULT_UNKNOWN";
}

FftbResult fftbGetMemoryRequirements(const FftbContextCreateInfo* info, FftbMemoryRequirements* requirements)
{
    if (!info || !requirements)
        return FFTB_ERROR_INVALID_ARGUMENT;
    return guardedCreate(
        *info,
        [&]
        {
            fftb::checkStructureType(requirements->sType, FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS, "requirements.sType",
                                     "FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS");
            checkCreateInfo(*info);
            const auto* planner = fftb::findInChain<FftbPlannerInfo>(info->pNext, FFTB_STRUCTURE_TYPE_PLANNER_INFO);
            const FftbLengthPolicy lengths = planner ? planner->lengthPolicy : FFTB_LENGTH_POLICY_MIXED_RADIX;
            fftb::ScratchSizes sizes;
            std::string reason;
            const fftb::Extents extents = fftb::extentsOf(*info);
            if (!fftb::scratchSizes(extents.width, extents.height, extents.scratchKernelWidth(),
                                    extents.scratchKernelHeight(), lengths, &sizes, &reason, extents.views))
                throw fftb::Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS, "maxWidth, maxHeight: " + reason};
            uint64_t resampled = 0;
            for (FftbAxisOrder order : {FFTB_AXIS_ORDER_X_FIRST, FFTB_AXIS_ORDER_Y_FIRST})
                resampled =
                    std::max(resampled, fftb::spectrumSlotChannelElements(
                                            extents.width, extents.height, extents.kernelWidth, extents.kernelHeight,
                                            extents.kernelExtentWidth, extents.kernelExtentHeight, order,
                                            FFTB_SPECTRUM_MODE_RESAMPLED, fftb::kMaxSpectrumOversampling, lengths));
            requirements->scratchBytes = sizes.scratchBytes;
            requirements->exactSpectrumBytes = fftb::spectrumBufferBytes(sizes.spectrumChannelElements);
            requirements->resampledSpectrumBytes = fftb::spectrumBufferBytes(resampled);
            requirements->kernelTexelBytes =
                VkDeviceSize(3) * info->maxKernelResolutionWidth * info->maxKernelResolutionHeight * 4;
            requirements->twiddleBytes = VkDeviceSize(fftb::twiddleTables().totalElements) * 8;
            requirements->borderWeightBytes = fftb::borderWeightBytes(info->maxWidth, info->maxHeight);
            uint32_t generated = 2048; // the largest generated kernel size the maximum resolution holds
            while (generated >= 64 &&
                   (generated > info->maxKernelResolutionWidth || generated > info->maxKernelResolutionHeight))
                generated /= 2;
            requirements->generatorBytes =
                generated < 64 ? 0
                               : fftb::generatorBufferBytes(generated) + VkDeviceSize(3) * generated * generated * 4;
        });
}

FftbResult fftbCreateContext(const FftbContextCreateInfo* info, FftbContext* context)
{
    if (!context)
        return FFTB_ERROR_INVALID_ARGUMENT;
    *context = nullptr;
    if (!info)
        return FFTB_ERROR_INVALID_ARGUMENT;
    return guardedCreate(*info,
                         [&]
                         {
                             checkCreateInfo(*info);
                             if (!info->instance || !info->physicalDevice || !info->device)
                                 throw fftb::Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                                                     "instance, physicalDevice, device: VK_NULL_HANDLE"};
                             if (!info->getInstanceProcAddr || !info->getDeviceProcAddr)
                                 throw fftb::Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                                                     "getInstanceProcAddr, getDeviceProcAddr: NULL"};
                             *context = new FftbContext_T(*info);
                         });
}

void fftbDestroyContext(FftbContext context)
{
    delete context;
}

FftbResult fftbResizeContext(FftbContext context, const FftbResizeInfo* info)
{
    if (!context)
        return FFTB_ERROR_INVALID_ARGUMENT;
    return guarded(context->context,
                   [&]
                   {
                       if (!info)
                           throw fftb::Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "resizeInfo: NULL"};
                       fftb::checkStructureType(info->sType, FFTB_STRUCTURE_TYPE_RESIZE_INFO, "resizeInfo.sType",
                                                "FFTB_STRUCTURE_TYPE_RESIZE_INFO");
                       checkExtents(*info);
                       fftb::checkChain(info->pNext, {FFTB_STRUCTURE_TYPE_SCRATCH_INFO}, "resizeInfo.pNext");
                       context->context.resize(*info);
                   });
}

FftbResult fftbCreateKernel(FftbContext context, const FftbKernelInfo* info, FftbKernel* kernel)
{
    if (!context || !kernel)
        return FFTB_ERROR_INVALID_ARGUMENT;
    *kernel = nullptr;
    return guarded(
        context->context,
        [&]
        {
            if (!info)
                throw fftb::Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "kernelInfo: NULL"};
            fftb::checkStructureType(info->sType, FFTB_STRUCTURE_TYPE_KERNEL_INFO, "kernelInfo.sType",
                                     "FFTB_STRUCTURE_TYPE_KERNEL_INFO");
            fftb::checkChain(info->pNext, {FFTB_STRUCTURE_TYPE_KERNEL_GENERATOR_INFO}, "kernelInfo.pNext");
            if (!info->texels &&
                !fftb::findInChain<FftbKernelGeneratorInfo>(info->pNext, FFTB_STRUCTURE_TYPE_KERNEL_GENERATOR_INFO))
                throw fftb::Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                                    "kernelInfo.texels: NULL (allowed only with an FftbKernelGeneratorInfo)"};
            *kernel = reinterpret_cast<FftbKernel>(context->context.createKernel(*info));
        });
}

void fftbDestroyKernel(FftbKernel kernel)
{
    delete fftb::kernelOf(kernel);
}

FftbResult fftbCreateBloomPlan(FftbContext context, const FftbBloomPlanCreateInfo* info, FftbBloomPlan* plan)
{
    if (!context || !plan)
        return FFTB_ERROR_INVALID_ARGUMENT;
    *plan = nullptr;
    return guarded(context->context,
                   [&]
                   {
                       if (!info)
                           throw fftb::Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "createInfo: NULL"};
                       fftb::checkStructureType(info->sType, FFTB_STRUCTURE_TYPE_BLOOM_PLAN_CREATE_INFO,
                                                "createInfo.sType", "FFTB_STRUCTURE_TYPE_BLOOM_PLAN_CREATE_INFO");
                       fftb::checkChain(info->pNext, {FFTB_STRUCTURE_TYPE_FAR_FIELD_INFO}, "createInfo.pNext");
                       if (!info->kernel)
                           throw fftb::Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                                               "createInfo.kernel: VK_NULL_HANDLE (fftbCreateKernel)"};
                       *plan = reinterpret_cast<FftbBloomPlan>(new fftb::BloomPlan(context->context, *info));
                   });
}

void fftbDestroyBloomPlan(FftbBloomPlan plan)
{
    delete fftb::bloomPlanOf(plan);
}

FftbResult fftbDescribeBloomPlan(FftbBloomPlan plan, FftbBloomPlanDescription* description)
{
    if (!plan)
        return FFTB_ERROR_INVALID_ARGUMENT;
    return guarded(plan,
                   [&]
                   {
                       if (!description)
                           throw fftb::Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "description: NULL"};
                       fftb::checkStructureType(description->sType, FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION,
                                                "description.sType", "FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION");
                       fftb::bloomPlanOf(plan)->describe(description);
                   });
}

FftbResult fftbGetPassStatistics(FftbBloomPlan plan, uint32_t* count, FftbPassStatistic* statistics)
{
    if (!plan)
        return FFTB_ERROR_INVALID_ARGUMENT;
    FftbResult status = FFTB_SUCCESS;
    const FftbResult failure =
        guarded(plan,
                [&]
                {
                    if (!count)
                        throw fftb::Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "count: NULL"};
                    status = fftb::bloomPlanOf(plan)->passStatistics(count, statistics);
                });
    return failure != FFTB_SUCCESS ? failure : status;
}

FftbResult fftbGetKernelExtent(const FftbBloomPlanCreateInfo* info, uint32_t kernelWidth, uint32_t kernelHeight,
                               uint32_t* extentWidth, uint32_t* extentHeight)
{
    if (!info || !extentWidth || !extentHeight || info->sType != FFTB_STRUCTURE_TYPE_BLOOM_PLAN_CREATE_INFO ||
        info->width == 0 || info->height == 0 || kernelWidth == 0 || kernelHeight == 0)
        return FFTB_ERROR_INVALID_ARGUMENT;
    fftb::KernelScale scale;
    if (!fftb::kernelScaleOf(info->kernelSpanUnit, info->kernelSpan, info->width, info->height, kernelWidth,
                             kernelHeight, &scale)
             .empty())
        return FFTB_ERROR_INVALID_ARGUMENT;
    *extentWidth = scale.extentWidth;
    *extentHeight = scale.extentHeight;
    return FFTB_SUCCESS;
}

FftbResult fftbCmdBloom(FftbBloomPlan plan, VkCommandBuffer commandBuffer, const FftbBloomInfo* info)
{
    if (!plan)
        return FFTB_ERROR_INVALID_ARGUMENT;
    return guarded(plan,
                   [&]
                   {
                       checkCommandBuffer(commandBuffer);
                       checkBloomInfo(info);
                       fftb::bloomPlanOf(plan)->cmdBloom(commandBuffer, *info);
                   });
}

FftbResult fftbCmdPrepareKernel(FftbBloomPlan plan, VkCommandBuffer commandBuffer)
{
    if (!plan)
        return FFTB_ERROR_INVALID_ARGUMENT;
    return guarded(plan,
                   [&]
                   {
                       checkCommandBuffer(commandBuffer);
                       fftb::bloomPlanOf(plan)->cmdPrepareKernel(commandBuffer);
                   });
}

FftbResult fftbCmdGenerateKernel(FftbContext context, VkCommandBuffer commandBuffer, const FftbApertureInfo* info,
                                 FftbKernel kernel)
{
    if (!context)
        return FFTB_ERROR_INVALID_ARGUMENT;
    return guarded(context->context,
                   [&]
                   {
                       checkCommandBuffer(commandBuffer);
                       if (!info)
                           throw fftb::Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "apertureInfo: NULL"};
                       fftb::checkStructureType(info->sType, FFTB_STRUCTURE_TYPE_APERTURE_INFO, "apertureInfo.sType",
                                                "FFTB_STRUCTURE_TYPE_APERTURE_INFO");
                       if (!kernel)
                           throw fftb::Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                                               "kernel: VK_NULL_HANDLE (fftbCreateKernel)"};
                       fftb::cmdGenerateKernel(context->context, commandBuffer, *info, *fftb::kernelOf(kernel));
                   });
}

} // extern "C"
