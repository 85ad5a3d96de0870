// SPDX-License-Identifier: MIT
// Physical device and queue family choice, the feature checks and logical device creation.
#include "vulkan/device_setup.h"

#include "host_error.h"
#include "vulkan/vulkan_resources.h"

#include <cstring>

namespace fftb
{

namespace
{

/// The first queue family of `gpu` with all of request.queueFlags (and presenting, if asked); UINT32_MAX if none.
uint32_t queueFamilyFor(VkPhysicalDevice gpu, const DeviceRequest& request)
{
    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(gpu, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(gpu, &count, families.data());
    for (uint32_t i = 0; i < count; ++i)
    {
        if ((families[i].queueFlags & request.queueFlags) != request.queueFlags)
            continue;
        VkBool32 present = VK_TRUE;
        if (request.presentTo)
            vkGetPhysicalDeviceSurfaceSupportKHR(gpu, i, request.presentTo, &present);
        if (present)
            return i;
    }
    return UINT32_MAX;
}

/// The physical device for `request`: the one at deviceIndex, else the first qualifying one by preferred type.
VkPhysicalDevice choosePhysicalDevice(VkInstance instance, const DeviceRequest& request)
{
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(instance, &count, devices.data());
    if (count == 0)
        throw HostError("Vulkan: no physical device (install mesa-vulkan-drivers for lavapipe)");
    const int index = request.deviceIndex;
    if (index >= 0)
    {
        if (uint32_t(index) >= count)
            throw HostError("--device: no device " + std::to_string(index) + " (" + std::to_string(count) +
                            " present, numbered from 0)");
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(devices[size_t(index)], &p);
        if (queueFamilyFor(devices[size_t(index)], request) == UINT32_MAX)
            throw HostError(std::string("Vulkan: ") + p.deviceName + " has no queue that " + request.queueDescription);
        return devices[size_t(index)];
    }
    std::vector<VkPhysicalDevice> qualifying;
    for (VkPhysicalDevice d : devices)
        if (queueFamilyFor(d, request) != UINT32_MAX)
            qualifying.push_back(d);
    if (qualifying.empty())
        throw HostError("Vulkan: no device has a queue that " + request.queueDescription);
    for (VkPhysicalDeviceType wanted : request.preferredTypes)
        for (VkPhysicalDevice d : qualifying)
        {
            VkPhysicalDeviceProperties p;
            vkGetPhysicalDeviceProperties(d, &p);
            if (p.deviceType == wanted)
                return d;
        }
    return qualifying.front();
}

/// The physical device offers the device extension `name`.
bool hasDeviceExtension(VkPhysicalDevice gpu, const char* name)
{
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(gpu, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateDeviceExtensionProperties(gpu, nullptr, &count, extensions.data());
    for (const VkExtensionProperties& e : extensions)
        if (std::strcmp(e.extensionName, name) == 0)
            return true;
    return false;
}

} // namespace

LogicalDevice createLogicalDevice(VkInstance instance, const DeviceRequest& request)
{
    LogicalDevice made;
    made.physicalDevice = choosePhysicalDevice(instance, request);
    const VkPhysicalDevice gpu = made.physicalDevice;
    vkGetPhysicalDeviceProperties(gpu, &made.properties);
    const std::string name = made.properties.deviceName;
    if (made.properties.apiVersion < VK_API_VERSION_1_1)
        throw HostError("Vulkan: " + name + " supports only Vulkan 1.0");
    made.queueFamily = queueFamilyFor(gpu, request);
    uint32_t familyCount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(gpu, &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(gpu, &familyCount, families.data());
    made.timestampValidBits = families[made.queueFamily].timestampValidBits;

    VkPhysicalDeviceFeatures supported;
    vkGetPhysicalDeviceFeatures(gpu, &supported);
    if (!supported.shaderStorageImageWriteWithoutFormat)
        throw HostError("Vulkan: " + name + " lacks shaderStorageImageWriteWithoutFormat");
    VkPhysicalDeviceFeatures features{};
    features.shaderStorageImageWriteWithoutFormat = VK_TRUE; // fftbloom's requirement (fftbloom.h)
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queues[2] = {{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO},
                                         {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO}};
    uint32_t queueCount = 1;
    made.asyncQueueFamily = made.queueFamily;
    for (uint32_t i = 0; request.asyncCompute && i < familyCount && queueCount == 1; ++i)
        if (i != made.queueFamily && (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) &&
            !(families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT))
        {
            made.asyncQueueFamily = i;
            queueCount = 2;
        }
    for (uint32_t i = 0; i < queueCount; ++i)
    {
        queues[i].queueFamilyIndex = i == 0 ? made.queueFamily : made.asyncQueueFamily;
        queues[i].queueCount = 1;
        queues[i].pQueuePriorities = &priority;
    }
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    VkPhysicalDeviceVulkan13Features features13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    if (request.synchronization2)
    {
        VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        query.pNext = &features13;
        if (made.properties.apiVersion >= VK_API_VERSION_1_3)
            vkGetPhysicalDeviceFeatures2(gpu, &query);
        if (!features13.synchronization2)
            throw HostError("Vulkan: " + name + " lacks Vulkan 1.3 synchronization2");
        features13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
        features13.synchronization2 = VK_TRUE;
        dci.pNext = &features13;
    }
    // fftbloom's requirement (fftbloom.h): every pass pushes its descriptors.
    if (!hasDeviceExtension(gpu, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME))
        throw HostError("Vulkan: " + name + " lacks " VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
    std::vector<const char*> extensions = request.extensions;
    extensions.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    if (request.pipelineStatistics && hasDeviceExtension(gpu, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME))
    {
        VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        query.pNext = &executable;
        vkGetPhysicalDeviceFeatures2(gpu, &query);
        made.pipelineStatistics = executable.pipelineExecutableInfo == VK_TRUE;
        if (made.pipelineStatistics)
        {
            executable = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
            executable.pipelineExecutableInfo = VK_TRUE;
            executable.pNext = const_cast<void*>(dci.pNext);
            dci.pNext = &executable;
            extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
        }
    }
    dci.queueCreateInfoCount = queueCount;
    dci.pQueueCreateInfos = queues;
    dci.enabledExtensionCount = uint32_t(extensions.size());
    dci.ppEnabledExtensionNames = extensions.data();
    dci.pEnabledFeatures = &features;
    checkVulkan(vkCreateDevice(gpu, &dci, nullptr, &made.device), "vkCreateDevice");
    vkGetDeviceQueue(made.device, made.queueFamily, 0, &made.queue);
    if (queueCount == 2)
        vkGetDeviceQueue(made.device, made.asyncQueueFamily, 0, &made.asyncQueue);
    return made;
}

void destroyLogicalDevice(LogicalDevice& device)
{
    if (device.device)
        vkDestroyDevice(device.device, nullptr);
    device = LogicalDevice{};
}

} // namespace fftb
