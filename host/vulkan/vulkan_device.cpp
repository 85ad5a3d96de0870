// Instance, device and queue creation, device choice, and the buffer, image and submission helpers.
#include "vulkan/vulkan_device.h"

#include "host_error.h"

#include <cstring>
#include <iterator>
#include <vector>

namespace fftb
{

bool VulkanDevice::hasDeviceExtension(const char* name) const
{
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(gpu_, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateDeviceExtensionProperties(gpu_, nullptr, &count, extensions.data());
    for (const VkExtensionProperties& e : extensions)
        if (std::strcmp(e.extensionName, name) == 0)
            return true;
    return false;
}

VulkanDevice::VulkanDevice(const VulkanDeviceOptions& options)
    : instance_(
          {"fftbloom", options.synchronization2 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_1, options.validation, {}}),
      simulatedLoss_(options.loseDeviceAfterWaits)
{
    selectDevice(options.deviceIndex);

    uint32_t familyCount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(gpu_, &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(gpu_, &familyCount, families.data());
    queueFamily_ = UINT32_MAX;
    for (uint32_t i = 0; i < familyCount && queueFamily_ == UINT32_MAX; ++i)
        if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            queueFamily_ = i;
    if (queueFamily_ == UINT32_MAX)
        throw HostError(std::string("Vulkan: ") + properties_.deviceName + " has no compute queue");
    timestamps_ = families[queueFamily_].timestampValidBits > 0;

    VkPhysicalDeviceFeatures supported;
    vkGetPhysicalDeviceFeatures(gpu_, &supported);
    if (!supported.shaderStorageImageWriteWithoutFormat)
        throw HostError(std::string("Vulkan: ") + properties_.deviceName +
                        " lacks shaderStorageImageWriteWithoutFormat");
    VkPhysicalDeviceFeatures features{};
    features.shaderStorageImageWriteWithoutFormat = VK_TRUE;
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = queueFamily_;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    VkPhysicalDeviceVulkan13Features features13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    if (options.synchronization2)
    {
        VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        query.pNext = &features13;
        if (properties_.apiVersion >= VK_API_VERSION_1_3)
            vkGetPhysicalDeviceFeatures2(gpu_, &query);
        if (!features13.synchronization2)
            throw HostError(std::string("Vulkan: ") + properties_.deviceName + " lacks Vulkan 1.3 synchronization2");
        features13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
        features13.synchronization2 = VK_TRUE;
        dci.pNext = &features13;
    }
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executableFeatures{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    const char* executableExtension = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
    if (options.pipelineStatistics && hasDeviceExtension(executableExtension))
    {
        VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        query.pNext = &executableFeatures;
        vkGetPhysicalDeviceFeatures2(gpu_, &query);
        pipelineStatistics_ = executableFeatures.pipelineExecutableInfo == VK_TRUE;
        executableFeatures = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
        executableFeatures.pipelineExecutableInfo = VK_TRUE;
        if (pipelineStatistics_)
        {
            executableFeatures.pNext = const_cast<void*>(dci.pNext);
            dci.pNext = &executableFeatures;
            dci.enabledExtensionCount = 1;
            dci.ppEnabledExtensionNames = &executableExtension;
        }
    }
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.pEnabledFeatures = &features;
    checkVulkan(vkCreateDevice(gpu_, &dci, nullptr, &device_), "vkCreateDevice");
    vkGetDeviceQueue(device_, queueFamily_, 0, &queue_);

    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = queueFamily_;
    checkVulkan(vkCreateCommandPool(device_, &pci, nullptr, &pool_), "vkCreateCommandPool");
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    checkVulkan(vkCreateFence(device_, &fci, nullptr, &fence_), "vkCreateFence");
}

VulkanDevice::~VulkanDevice()
{
    if (device_)
    {
        vkDeviceWaitIdle(device_);
        if (fence_)
            vkDestroyFence(device_, fence_, nullptr);
        if (pool_)
            vkDestroyCommandPool(device_, pool_, nullptr);
        vkDestroyDevice(device_, nullptr);
    }
}

void VulkanDevice::selectDevice(int index)
{
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance_.get(), &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(instance_.get(), &count, devices.data());
    if (count == 0)
        throw HostError("Vulkan: no physical device (install mesa-vulkan-drivers for lavapipe)");
    if (index >= 0)
    {
        if (uint32_t(index) >= count)
            throw HostError("--device: no device " + std::to_string(index) + " (" + std::to_string(count) +
                            " present, numbered from 0)");
        gpu_ = devices[size_t(index)];
    }
    else
    {
        for (VkPhysicalDeviceType wanted : {VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, VK_PHYSICAL_DEVICE_TYPE_CPU})
            for (VkPhysicalDevice d : devices)
            {
                VkPhysicalDeviceProperties p;
                vkGetPhysicalDeviceProperties(d, &p);
                if (!gpu_ && p.deviceType == wanted)
                    gpu_ = d;
            }
        if (!gpu_)
            gpu_ = devices[0];
    }
    vkGetPhysicalDeviceProperties(gpu_, &properties_);
    if (properties_.apiVersion < VK_API_VERSION_1_1)
        throw HostError(std::string("Vulkan: ") + properties_.deviceName + " supports only Vulkan 1.0");
}

VulkanDevice::Buffer VulkanDevice::createBuffer(VkDeviceSize sizeBytes, VkBufferUsageFlags usage, bool hostVisible)
{
    return createVulkanBuffer(gpu_, device_, sizeBytes, usage, hostVisible);
}

VulkanDevice::Image VulkanDevice::createImage(uint32_t width, uint32_t height, VkFormat format, VkImageUsageFlags usage)
{
    return createVulkanImage(gpu_, device_, width, height, format, usage);
}

void VulkanDevice::destroy(Buffer& b)
{
    destroyVulkanBuffer(device_, b);
}

void VulkanDevice::destroy(Image& img)
{
    destroyVulkanImage(device_, img);
}

VkQueryPool VulkanDevice::createTimestampPool(uint32_t count)
{
    VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qpci.queryCount = count;
    VkQueryPool pool = VK_NULL_HANDLE;
    checkVulkan(vkCreateQueryPool(device_, &qpci, nullptr, &pool), "vkCreateQueryPool");
    return pool;
}

VkCommandBuffer VulkanDevice::beginCommands()
{
    VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbai.commandPool = pool_;
    cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbai.commandBufferCount = 1;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    checkVulkan(vkAllocateCommandBuffers(device_, &cbai, &cb), "vkAllocateCommandBuffers");
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if (VkResult r = vkBeginCommandBuffer(cb, &begin); r != VK_SUCCESS)
    {
        vkFreeCommandBuffers(device_, pool_, 1, &cb);
        checkVulkan(r, "vkBeginCommandBuffer");
    }
    return cb;
}

VulkanDevice::Submission VulkanDevice::submit(VkCommandBuffer cb)
{
    Submission submission{cb, VK_NULL_HANDLE};
    const VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkResult r = vkEndCommandBuffer(cb);
    if (r == VK_SUCCESS)
        r = vkCreateFence(device_, &fci, nullptr, &submission.fence);
    if (r == VK_SUCCESS)
    {
        VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cb;
        r = vkQueueSubmit(queue_, 1, &si, submission.fence);
    }
    if (r != VK_SUCCESS)
    {
        vkDeviceWaitIdle(device_); // a failed submission must not leave the buffer pending when freed
        vkDestroyFence(device_, submission.fence, nullptr);
        vkFreeCommandBuffers(device_, pool_, 1, &cb);
        checkVulkan(r, "vkQueueSubmit");
    }
    return submission;
}

void VulkanDevice::wait(Submission& submission)
{
    if (!submission.commandBuffer)
        return;
    const VkResult r = simulatedLoss_.afterWait(vkWaitForFences(device_, 1, &submission.fence, VK_TRUE, UINT64_MAX));
    if (r != VK_SUCCESS)
        vkDeviceWaitIdle(device_); // a lost device must not leave the buffer pending when freed
    vkDestroyFence(device_, submission.fence, nullptr);
    vkFreeCommandBuffers(device_, pool_, 1, &submission.commandBuffer);
    submission = {};
    checkVulkan(r, "vkWaitForFences");
}

void VulkanDevice::submitAndWait(VkCommandBuffer cb)
{
    Submission submission = submit(cb);
    wait(submission);
}

void VulkanDevice::uploadForCompute(VkCommandBuffer cb, VkBuffer source, VkImage image, uint32_t width, uint32_t height)
{
    const VkBufferImageCopy region{0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {width, height, 1}};
    transition(cb, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
               VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    vkCmdCopyBufferToImage(cb, source, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    transition(cb, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
               VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
               VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
}

void VulkanDevice::prepareComputeOutput(VkCommandBuffer cb, VkImage image)
{
    transition(cb, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, 0, VK_ACCESS_SHADER_WRITE_BIT,
               VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
}

void VulkanDevice::transition(VkCommandBuffer cb, VkImage image, VkImageLayout from, VkImageLayout to,
                              VkAccessFlags srcAccess, VkAccessFlags dstAccess, VkPipelineStageFlags srcStage,
                              VkPipelineStageFlags dstStage)
{
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcAccessMask = srcAccess;
    b.dstAccessMask = dstAccess;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(cb, srcStage, dstStage, 0, 0, nullptr, 0, nullptr, 1, &b);
}

} // namespace fftb
