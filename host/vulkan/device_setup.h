// SPDX-License-Identifier: MIT
// The choice of a physical device and queue family and the creation of a logical device with one queue and the
// features fftbloom requires: shared by VulkanDevice (the CLI, tests and bench) and the viewer's WindowDevice.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

namespace fftb
{

/// What the device and its one queue are chosen and made for.
struct DeviceRequest
{
    int deviceIndex = -1; ///< physical device index; -1: the first qualifying device of preferredTypes, in order
    /// Device types tried in order when deviceIndex is -1; then the first qualifying device of any type.
    std::vector<VkPhysicalDeviceType> preferredTypes{VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU};
    VkQueueFlags queueFlags = VK_QUEUE_COMPUTE_BIT; ///< all of them on one queue family
    VkSurfaceKHR presentTo = VK_NULL_HANDLE;        ///< if set, that family must also present to this surface
    std::string queueDescription = "computes";      ///< the queue's needs in messages: "no device has a queue that …"
    std::vector<const char*> extensions;            ///< device extensions to enable
    /// Vulkan 1.3 with the synchronization2 feature enabled (an error when the device lacks it).
    bool synchronization2 = false;
    /// VK_KHR_pipeline_executable_properties with pipelineExecutableInfo, where the device has it
    /// (LogicalDevice::pipelineStatistics says whether it was enabled).
    bool pipelineStatistics = false;
    /// Also a queue of a compute family without graphics other than the queue's, where the device has one (async
    /// compute: LogicalDevice::asyncQueue).
    bool asyncCompute = false;
};

/// A logical device with one queue, and the physical device and queue family it was made on.
struct LogicalDevice
{
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    VkPhysicalDeviceProperties properties{};
    uint32_t queueFamily = 0;
    uint32_t timestampValidBits = 0; ///< of the queue family; 0: no timestamps
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    bool pipelineStatistics = false; ///< VK_KHR_pipeline_executable_properties is enabled
    /// DeviceRequest::asyncCompute: a queue of a compute family without graphics, and its family; VK_NULL_HANDLE and
    /// the queue's own family when the device has none (one queue family, as lavapipe).
    VkQueue asyncQueue = VK_NULL_HANDLE;
    uint32_t asyncQueueFamily = 0;
};

/// Chooses the physical device and queue family for `request` and creates the device with one queue of that family
/// and shaderStorageImageWriteWithoutFormat (fftbloom's requirement) enabled. Throws HostError naming the device and
/// what it lacks, or VulkanError where a Vulkan call failed.
LogicalDevice createLogicalDevice(VkInstance instance, const DeviceRequest& request);

/// Destroys `device`'s VkDevice (if any) and empties it.
void destroyLogicalDevice(LogicalDevice& device);

} // namespace fftb
