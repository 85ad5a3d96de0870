// SPDX-License-Identifier: MIT
// The VkResult check, memory type choice, buffer and image creation, and the barriers of transitions and readbacks.
#include "vulkan/vulkan_resources.h"

#include <string>

namespace fftb
{

VulkanError::VulkanError(const char* call, VkResult result)
    : HostError(std::string("Vulkan: ") + call + " failed with VkResult " + std::to_string(int(result))),
      result_(result)
{
}

void checkVulkan(VkResult result, const char* call)
{
    if (result != VK_SUCCESS)
        throw VulkanError(call, result);
}

uint32_t findMemoryType(VkPhysicalDevice gpu, uint32_t bits, VkMemoryPropertyFlags wanted)
{
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(gpu, &props);
    for (uint32_t i = 0; i < props.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (props.memoryTypes[i].propertyFlags & wanted) == wanted)
            return i;
    throw HostError("Vulkan: no suitable memory type");
}

namespace
{

/// Memory for `req` of the first type with `wanted`.
VkDeviceMemory allocateMemory(VkPhysicalDevice gpu, VkDevice device, const VkMemoryRequirements& req,
                              VkMemoryPropertyFlags wanted)
{
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = findMemoryType(gpu, req.memoryTypeBits, wanted);
    VkDeviceMemory memory = VK_NULL_HANDLE;
    checkVulkan(vkAllocateMemory(device, &mai, nullptr, &memory), "vkAllocateMemory");
    return memory;
}

} // namespace

VulkanBuffer createVulkanBuffer(VkPhysicalDevice gpu, VkDevice device, VkDeviceSize sizeBytes, VkBufferUsageFlags usage,
                                bool hostVisible)
{
    VulkanBuffer b;
    try
    {
        VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        bci.size = sizeBytes;
        bci.usage = usage;
        checkVulkan(vkCreateBuffer(device, &bci, nullptr, &b.buffer), "vkCreateBuffer");
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(device, b.buffer, &req);
        b.memory =
            allocateMemory(gpu, device, req,
                           hostVisible ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                                       : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
        checkVulkan(vkBindBufferMemory(device, b.buffer, b.memory, 0), "vkBindBufferMemory");
        if (hostVisible)
            checkVulkan(vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory");
    }
    catch (const HostError&)
    {
        destroyVulkanBuffer(device, b);
        throw;
    }
    return b;
}

VulkanImage createVulkanImage(VkPhysicalDevice gpu, VkDevice device, uint32_t width, uint32_t height, VkFormat format,
                              VkImageUsageFlags usage, uint32_t layers, uint32_t depth)
{
    VulkanImage img;
    img.width = width;
    img.height = height;
    try
    {
        VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
        ici.imageType = depth > 1 ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D;
        ici.format = format;
        ici.extent = {width, height, depth};
        ici.mipLevels = 1;
        ici.arrayLayers = layers;
        ici.samples = VK_SAMPLE_COUNT_1_BIT;
        ici.tiling = VK_IMAGE_TILING_OPTIMAL;
        ici.usage = usage;
        ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        checkVulkan(vkCreateImage(device, &ici, nullptr, &img.image), "vkCreateImage");
        VkMemoryRequirements req;
        vkGetImageMemoryRequirements(device, img.image, &req);
        img.memory = allocateMemory(gpu, device, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
        checkVulkan(vkBindImageMemory(device, img.image, img.memory, 0), "vkBindImageMemory");
        for (uint32_t layer = 0; layer < layers; ++layer)
        {
            VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
            vci.image = img.image;
            vci.viewType = depth > 1 ? VK_IMAGE_VIEW_TYPE_3D : VK_IMAGE_VIEW_TYPE_2D;
            vci.format = format;
            vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, layer, 1};
            VkImageView view = VK_NULL_HANDLE;
            checkVulkan(vkCreateImageView(device, &vci, nullptr, &view), "vkCreateImageView");
            img.layerViews.push_back(view);
        }
        img.view = img.layerViews[0];
    }
    catch (const HostError&)
    {
        destroyVulkanImage(device, img);
        throw;
    }
    return img;
}

void destroyVulkanBuffer(VkDevice device, VulkanBuffer& b)
{
    if (b.buffer)
        vkDestroyBuffer(device, b.buffer, nullptr);
    if (b.memory)
        vkFreeMemory(device, b.memory, nullptr);
    b = VulkanBuffer{};
}

void destroyVulkanImage(VkDevice device, VulkanImage& img)
{
    for (VkImageView view : img.layerViews)
        vkDestroyImageView(device, view, nullptr);
    if (img.image)
        vkDestroyImage(device, img.image, nullptr);
    if (img.memory)
        vkFreeMemory(device, img.memory, nullptr);
    img = VulkanImage{};
}

void recordQueueFamilyTransfer(VkCommandBuffer cb, VkImage image, VkImageLayout from, VkImageLayout to,
                               VkAccessFlags srcAccess, VkAccessFlags dstAccess, VkPipelineStageFlags srcStage,
                               VkPipelineStageFlags dstStage, uint32_t srcFamily, uint32_t dstFamily)
{
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcAccessMask = srcAccess;
    b.dstAccessMask = dstAccess;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = srcFamily;
    b.dstQueueFamilyIndex = dstFamily;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(cb, srcStage, dstStage, 0, 0, nullptr, 0, nullptr, 1, &b);
}

void recordImageTransition(VkCommandBuffer cb, VkImage image, VkImageLayout from, VkImageLayout to,
                           VkAccessFlags srcAccess, VkAccessFlags dstAccess, VkPipelineStageFlags srcStage,
                           VkPipelineStageFlags dstStage)
{
    recordQueueFamilyTransfer(cb, image, from, to, srcAccess, dstAccess, srcStage, dstStage, VK_QUEUE_FAMILY_IGNORED,
                              VK_QUEUE_FAMILY_IGNORED);
}

void recordHostReadBarrier(VkCommandBuffer cb, VkPipelineStageFlags srcStage, VkAccessFlags srcAccess)
{
    VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    toHost.srcAccessMask = srcAccess;
    toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cb, srcStage, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0, nullptr, 0, nullptr);
}

void recordImageReadback(VkCommandBuffer cb, VkImage image, uint32_t width, uint32_t height, VkBuffer buffer,
                         const ReadbackImageUse& use)
{
    recordImageTransition(cb, image, use.layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, use.writeAccess,
                          VK_ACCESS_TRANSFER_READ_BIT, use.writeStage, VK_PIPELINE_STAGE_TRANSFER_BIT);
    const VkBufferImageCopy region{0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {width, height, 1}};
    vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1, &region);
    recordImageTransition(cb, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, use.layout, VK_ACCESS_TRANSFER_READ_BIT,
                          use.nextAccess, VK_PIPELINE_STAGE_TRANSFER_BIT, use.nextStage);
    recordHostReadBarrier(cb);
}

} // namespace fftb
