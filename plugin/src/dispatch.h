// SPDX-License-Identifier: MIT
// The Vulkan entry points the plugin calls, loaded through the caller's vkGet*ProcAddr (never the loader).
#pragma once

#include <vulkan/vulkan.h>

namespace fftb
{

#define FFTB_INSTANCE_FUNCTIONS(X)                                                                                     \
    X(vkGetPhysicalDeviceFeatures)                                                                                     \
    X(vkGetPhysicalDeviceMemoryProperties)                                                                             \
    X(vkGetPhysicalDeviceProperties)

#define FFTB_DEVICE_FUNCTIONS(X)                                                                                       \
    X(vkAllocateMemory)                                                                                                \
    X(vkBindBufferMemory)                                                                                              \
    X(vkCmdBindPipeline)                                                                                               \
    X(vkCmdCopyBuffer)                                                                                                 \
    X(vkCmdDispatch)                                                                                                   \
    X(vkCmdPipelineBarrier)                                                                                            \
    X(vkCmdPushConstants)                                                                                              \
    X(vkCmdUpdateBuffer)                                                                                               \
    X(vkCmdWriteTimestamp)                                                                                             \
    X(vkCreateBuffer)                                                                                                  \
    X(vkCreateComputePipelines)                                                                                        \
    X(vkCreateDescriptorSetLayout)                                                                                     \
    X(vkCreatePipelineLayout)                                                                                          \
    X(vkCreateSampler)                                                                                                 \
    X(vkCreateShaderModule)                                                                                            \
    X(vkDestroyBuffer)                                                                                                 \
    X(vkDestroyDescriptorSetLayout)                                                                                    \
    X(vkDestroyPipeline)                                                                                               \
    X(vkDestroyPipelineLayout)                                                                                         \
    X(vkDestroySampler)                                                                                                \
    X(vkDestroyShaderModule)                                                                                           \
    X(vkFreeMemory)                                                                                                    \
    X(vkGetBufferMemoryRequirements)                                                                                   \
    X(vkMapMemory)                                                                                                     \
    X(vkUnmapMemory)

struct VulkanFunctions
{
#define FFTB_DECLARE(name) PFN_##name name = nullptr;
    FFTB_INSTANCE_FUNCTIONS(FFTB_DECLARE)
    FFTB_DEVICE_FUNCTIONS(FFTB_DECLARE)
#undef FFTB_DECLARE

    /// Loads every entry point; returns the name of the first one missing, or nullptr.
    const char* load(VkInstance instance, VkDevice device, PFN_vkGetInstanceProcAddr getInstanceProcAddr,
                     PFN_vkGetDeviceProcAddr getDeviceProcAddr)
    {
#define FFTB_LOAD_INSTANCE(name)                                                                                       \
    name = reinterpret_cast<PFN_##name>(getInstanceProcAddr(instance, #name));                                         \
    if (!name)                                                                                                         \
        return #name;
#define FFTB_LOAD_DEVICE(name)                                                                                         \
    name = reinterpret_cast<PFN_##name>(getDeviceProcAddr(device, #name));                                             \
    if (!name)                                                                                                         \
        return #name;
        FFTB_INSTANCE_FUNCTIONS(FFTB_LOAD_INSTANCE)
        FFTB_DEVICE_FUNCTIONS(FFTB_LOAD_DEVICE)
#undef FFTB_LOAD_INSTANCE
#undef FFTB_LOAD_DEVICE
        return nullptr;
    }
};

} // namespace fftb
