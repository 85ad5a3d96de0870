// SPDX-License-Identifier: MIT
// The context create info filled from the host's device.
#include "node/context_info.h"

namespace fftb
{

FftbContextCreateInfo contextCreateInfo(VkInstance instance, const LogicalDevice& device, uint32_t maxWidth,
                                        uint32_t maxHeight, uint32_t maxKernelResolutionWidth,
                                        uint32_t maxKernelResolutionHeight, std::string* message)
{
    FftbContextCreateInfo ci{FFTB_STRUCTURE_TYPE_CONTEXT_CREATE_INFO};
    ci.instance = instance;
    ci.physicalDevice = device.physicalDevice;
    ci.device = device.device;
    ci.getInstanceProcAddr = vkGetInstanceProcAddr;
    ci.getDeviceProcAddr = vkGetDeviceProcAddr;
    ci.maxWidth = maxWidth;
    ci.maxHeight = maxHeight;
    ci.maxKernelResolutionWidth = maxKernelResolutionWidth;
    ci.maxKernelResolutionHeight = maxKernelResolutionHeight;
    if (message)
    {
        ci.messageCallback = [](FftbResult, VkResult, const char* text, void* user)
        { static_cast<std::string*>(user)->assign(text); };
        ci.messageUserData = message;
    }
    return ci;
}

} // namespace fftb
