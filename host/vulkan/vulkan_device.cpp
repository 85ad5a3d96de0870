// SPDX-License-Identifier: MIT
// The device of the application's own (made by createLogicalDevice), and the buffer, image and submission helpers.
#include "vulkan/vulkan_device.h"

#include "host_error.h"

namespace fftb
{

VulkanDevice::VulkanDevice(const VulkanDeviceOptions& options)
    : instance_(
          {"fftbloom", options.synchronization2 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_1, options.validation, {}}),
      simulatedLoss_(options.loseDeviceAfterWaits)
{
    DeviceRequest request;
    request.deviceIndex = options.deviceIndex;
    request.preferredTypes = {VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, VK_PHYSICAL_DEVICE_TYPE_CPU};
    request.synchronization2 = options.synchronization2;
    request.pipelineStatistics = options.pipelineStatistics;
    request.asyncCompute = options.asyncCompute;
    logical_ = createLogicalDevice(instance_.get(), request);

    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = logical_.queueFamily;
    checkVulkan(vkCreateCommandPool(logical_.device, &pci, nullptr, &pool_), "vkCreateCommandPool");
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    checkVulkan(vkCreateFence(logical_.device, &fci, nullptr, &fence_), "vkCreateFence");
}

VulkanDevice::~VulkanDevice()
{
    if (logical_.device)
    {
        vkDeviceWaitIdle(logical_.device);
        if (fence_)
            vkDestroyFence(logical_.device, fence_, nullptr);
        if (pool_)
            vkDestroyCommandPool(logical_.device, pool_, nullptr);
        destroyLogicalDevice(logical_);
    }
}

VulkanDevice::Buffer VulkanDevice::createBuffer(VkDeviceSize sizeBytes, VkBufferUsageFlags usage, bool hostVisible)
{
    return createVulkanBuffer(logical_.physicalDevice, logical_.device, sizeBytes, usage, hostVisible);
}

VulkanDevice::Image VulkanDevice::createImage(uint32_t width, uint32_t height, VkFormat format, VkImageUsageFlags usage,
                                              uint32_t layers)
{
    return createVulkanImage(logical_.physicalDevice, logical_.device, width, height, format, usage, layers);
}

void VulkanDevice::destroy(Buffer& b)
{
    destroyVulkanBuffer(logical_.device, b);
}

void VulkanDevice::destroy(Image& img)
{
    destroyVulkanImage(logical_.device, img);
}

VkQueryPool VulkanDevice::createTimestampPool(uint32_t count)
{
    VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qpci.queryCount = count;
    VkQueryPool pool = VK_NULL_HANDLE;
    checkVulkan(vkCreateQueryPool(logical_.device, &qpci, nullptr, &pool), "vkCreateQueryPool");
    return pool;
}

VkCommandBuffer VulkanDevice::beginCommands()
{
    VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbai.commandPool = pool_;
    cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbai.commandBufferCount = 1;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    checkVulkan(vkAllocateCommandBuffers(logical_.device, &cbai, &cb), "vkAllocateCommandBuffers");
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if (VkResult r = vkBeginCommandBuffer(cb, &begin); r != VK_SUCCESS)
    {
        vkFreeCommandBuffers(logical_.device, pool_, 1, &cb);
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
        r = vkCreateFence(logical_.device, &fci, nullptr, &submission.fence);
    if (r == VK_SUCCESS)
    {
        VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cb;
        r = vkQueueSubmit(logical_.queue, 1, &si, submission.fence);
    }
    if (r != VK_SUCCESS)
    {
        vkDeviceWaitIdle(logical_.device); // a failed submission must not leave the buffer pending when freed
        vkDestroyFence(logical_.device, submission.fence, nullptr);
        vkFreeCommandBuffers(logical_.device, pool_, 1, &cb);
        checkVulkan(r, "vkQueueSubmit");
    }
    return submission;
}

void VulkanDevice::wait(Submission& submission)
{
    if (!submission.commandBuffer)
        return;
    const VkResult r =
        simulatedLoss_.afterWait(vkWaitForFences(logical_.device, 1, &submission.fence, VK_TRUE, UINT64_MAX));
    if (r != VK_SUCCESS)
        vkDeviceWaitIdle(logical_.device); // a lost device must not leave the buffer pending when freed
    vkDestroyFence(logical_.device, submission.fence, nullptr);
    vkFreeCommandBuffers(logical_.device, pool_, 1, &submission.commandBuffer);
    submission = {};
    checkVulkan(r, "vkWaitForFences");
}

void VulkanDevice::submitAndWait(VkCommandBuffer cb)
{
    Submission submission = submit(cb);
    wait(submission);
}

void VulkanDevice::uploadForCompute(VkCommandBuffer cb, VkBuffer source, VkImage image, uint32_t width, uint32_t height,
                                    VkDeviceSize sourceOffset, uint32_t depth)
{
    const VkBufferImageCopy region{sourceOffset,          0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0},
                                   {width, height, depth}};
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

} // namespace fftb
