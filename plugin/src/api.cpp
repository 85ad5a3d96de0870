// The C entry points: argument checks, and every failure turned into a result code and a message.
#include "context.h"

#include <new>

struct FftbContext_T
{
    fftb::Context context;
    explicit FftbContext_T(const FftbContextCreateInfo& info) : context(info) {}
};

namespace
{

void reportTo(PFN_fftbMessageCallback callback, void* userData, const fftb::Failure& f)
{
    if (callback)
        callback(f.result, f.vkResult, f.message.c_str(), userData);
}

/// Runs `body` for a context, reporting a Failure or an allocation failure through its callback.
template <typename Body> FftbResult guarded(FftbContext context, Body&& body)
{
    try
    {
        body();
        return FFTB_SUCCESS;
    }
    catch (const fftb::Failure& f)
    {
        context->context.report(f.result, f.vkResult, f.message);
        return f.result;
    }
    catch (const std::bad_alloc&)
    {
        context->context.report(FFTB_ERROR_OUT_OF_HOST_MEMORY, VK_SUCCESS, "out of host memory");
        return FFTB_ERROR_OUT_OF_HOST_MEMORY;
    }
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
    case FFTB_ERROR_NO_KERNEL:
        return "FFTB_ERROR_NO_KERNEL";
    case FFTB_RESULT_MAX_ENUM:
        break;
    }
    return "FFTB_RESULT_UNKNOWN";
}

FftbResult fftbCreateContext(const FftbContextCreateInfo* info, FftbContext* context)
{
    if (!context)
        return FFTB_ERROR_INVALID_ARGUMENT;
    *context = nullptr;
    if (!info)
        return FFTB_ERROR_INVALID_ARGUMENT;
    const auto fail = [&](FftbResult result, const char* message)
    {
        reportTo(info->messageCallback, info->messageUserData, fftb::Failure{result, VK_SUCCESS, message});
        return result;
    };
    if (info->sType != FFTB_STRUCTURE_TYPE_CONTEXT_CREATE_INFO)
        return fail(FFTB_ERROR_INVALID_ARGUMENT, "sType: not FFTB_STRUCTURE_TYPE_CONTEXT_CREATE_INFO");
    if (!info->instance || !info->physicalDevice || !info->device)
        return fail(FFTB_ERROR_INVALID_ARGUMENT, "instance, physicalDevice, device: VK_NULL_HANDLE");
    if (!info->getInstanceProcAddr || !info->getDeviceProcAddr)
        return fail(FFTB_ERROR_INVALID_ARGUMENT, "getInstanceProcAddr, getDeviceProcAddr: NULL");
    if (info->maxWidth == 0 || info->maxHeight == 0)
        return fail(FFTB_ERROR_INVALID_ARGUMENT, "maxWidth, maxHeight: must be >= 1");
    if (info->maxKernelWidth == 0 || info->maxKernelHeight == 0 || info->maxKernelWidth > FFTB_MAX_KERNEL_LENGTH ||
        info->maxKernelHeight > FFTB_MAX_KERNEL_LENGTH)
        return fail(FFTB_ERROR_INVALID_ARGUMENT, "maxKernelWidth, maxKernelHeight: must lie in 1 .. 4096");
    if (info->maxFramesInFlight > 16)
        return fail(FFTB_ERROR_INVALID_ARGUMENT, "maxFramesInFlight: must lie in 0 .. 16");
    for (auto next = static_cast<const FftbPlannerInfo*>(info->pNext); next;
         next = static_cast<const FftbPlannerInfo*>(next->pNext))
    {
        if (next->sType != FFTB_STRUCTURE_TYPE_PLANNER_INFO)
            return fail(FFTB_ERROR_INVALID_ARGUMENT, "createInfo.pNext: unknown structure type");
        if (next->lengthPolicy > FFTB_LENGTH_POLICY_POWER_OF_TWO)
            return fail(FFTB_ERROR_INVALID_ARGUMENT, "FftbPlannerInfo.lengthPolicy: unknown value");
    }
    try
    {
        *context = new FftbContext_T(*info);
        return FFTB_SUCCESS;
    }
    catch (const fftb::Failure& f)
    {
        reportTo(info->messageCallback, info->messageUserData, f);
        return f.result;
    }
    catch (const std::bad_alloc&)
    {
        return fail(FFTB_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    }
}

void fftbDestroyContext(FftbContext context)
{
    delete context;
}

FftbResult fftbSetKernel(FftbContext context, const FftbKernelInfo* info)
{
    if (!context)
        return FFTB_ERROR_INVALID_ARGUMENT;
    return guarded(context,
                   [&]
                   {
                       if (!info)
                           throw fftb::Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "kernelInfo: NULL"};
                       if (info->sType != FFTB_STRUCTURE_TYPE_KERNEL_INFO)
                           throw fftb::Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                                               "kernelInfo.sType: not FFTB_STRUCTURE_TYPE_KERNEL_INFO"};
                       if (!info->texels)
                           throw fftb::Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "kernelInfo.texels: NULL"};
                       context->context.setKernel(*info);
                   });
}

FftbResult fftbCmdBloom(FftbContext context, VkCommandBuffer commandBuffer, const FftbBloomInfo* info)
{
    if (!context)
        return FFTB_ERROR_INVALID_ARGUMENT;
    return guarded(
        context,
        [&]
        {
            if (!commandBuffer)
                throw fftb::Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "commandBuffer: VK_NULL_HANDLE"};
            if (!info)
                throw fftb::Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "bloomInfo: NULL"};
            if (info->sType != FFTB_STRUCTURE_TYPE_BLOOM_INFO)
                throw fftb::Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                                    "bloomInfo.sType: not FFTB_STRUCTURE_TYPE_BLOOM_INFO"};
            context->context.cmdBloom(commandBuffer, *info);
        });
}

} // extern "C"
