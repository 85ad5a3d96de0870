// SPDX-License-Identifier: MIT
// Buffers and images with their memory, and the check of a VkResult, shared by VulkanDevice (the CLI, tests and
// bench) and the viewer, whose device WindowDevice makes.
#pragma once

#include "host_error.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace fftb
{

/// A failed Vulkan call. what() is one line, "Vulkan: vkQueueSubmit failed with VkResult -4"; result() tells a lost
/// device (VK_ERROR_DEVICE_LOST) from other failures.
class VulkanError : public HostError
{
  public:
    VulkanError(const char* call, VkResult result);
    VkResult result() const { return result_; }

  private:
    VkResult result_;
};

/// Throws VulkanError unless `result` is VK_SUCCESS.
void checkVulkan(VkResult result, const char* call);

struct VulkanBuffer
{
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void* mapped = nullptr; ///< host-visible buffers stay mapped
};

/// A 2D image with one mip level and one or more array layers, its memory and a 2D colour view of its format per layer.
struct VulkanImage
{
    VkImage image = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;   ///< layer 0's view, layerViews[0]
    std::vector<VkImageView> layerViews; ///< a VK_IMAGE_VIEW_TYPE_2D view of each layer
    uint32_t width = 0;
    uint32_t height = 0;
};

/// The first memory type of `gpu` among `bits` with all of `wanted`; throws HostError when there is none.
uint32_t findMemoryType(VkPhysicalDevice gpu, uint32_t bits, VkMemoryPropertyFlags wanted);

/// A buffer of `sizeBytes`: host-visible and coherent (mapped), or device-local. Nothing is left on failure.
VulkanBuffer createVulkanBuffer(VkPhysicalDevice gpu, VkDevice device, VkDeviceSize sizeBytes, VkBufferUsageFlags usage,
                                bool hostVisible);
/// A device-local 2D image with one mip level and `layers` array layers, and a 2D colour view of the same format per
/// layer; with `depth` > 1, a 3D image of that depth (one layer) and its 3D view. Nothing is left on failure.
VulkanImage createVulkanImage(VkPhysicalDevice gpu, VkDevice device, uint32_t width, uint32_t height, VkFormat format,
                              VkImageUsageFlags usage, uint32_t layers = 1, uint32_t depth = 1);
/// Destroys what `buffer` holds (any part may be null) and empties it.
void destroyVulkanBuffer(VkDevice device, VulkanBuffer& buffer);
/// Destroys what `image` holds (any part may be null) and empties it.
void destroyVulkanImage(VkDevice device, VulkanImage& image);

/// Records a layout transition of `image` (one colour mip level and layer) with a barrier between the given stages.
void recordImageTransition(VkCommandBuffer cb, VkImage image, VkImageLayout from, VkImageLayout to,
                           VkAccessFlags srcAccess, VkAccessFlags dstAccess, VkPipelineStageFlags srcStage,
                           VkPipelineStageFlags dstStage);

/// recordImageTransition as one half of a queue family ownership transfer from `srcFamily` to `dstFamily`.
void recordQueueFamilyTransfer(VkCommandBuffer cb, VkImage image, VkImageLayout from, VkImageLayout to,
                               VkAccessFlags srcAccess, VkAccessFlags dstAccess, VkPipelineStageFlags srcStage,
                               VkPipelineStageFlags dstStage, uint32_t srcFamily, uint32_t dstFamily);

/// Records the barrier that makes `srcAccess` writes of `srcStage` (by default copies) visible to host reads once the
/// submission has completed.
void recordHostReadBarrier(VkCommandBuffer cb, VkPipelineStageFlags srcStage = VK_PIPELINE_STAGE_TRANSFER_BIT,
                           VkAccessFlags srcAccess = VK_ACCESS_TRANSFER_WRITE_BIT);

/// An image's layout around a readback, the writes that come before it and the use that follows; by default an image
/// that compute shaders write in GENERAL layout.
struct ReadbackImageUse
{
    VkImageLayout layout = VK_IMAGE_LAYOUT_GENERAL; ///< the image's layout before and after the copy
    VkAccessFlags writeAccess = VK_ACCESS_SHADER_WRITE_BIT;
    VkPipelineStageFlags writeStage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    VkAccessFlags nextAccess = VK_ACCESS_SHADER_WRITE_BIT;
    VkPipelineStageFlags nextStage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
};

/// Records the copy of all of `image` (width x height, one colour layer) into `buffer`, texels tightly packed: the
/// image goes to TRANSFER_SRC_OPTIMAL and back to use.layout; then recordHostReadBarrier, so that the buffer can be
/// read once the submission has completed.
void recordImageReadback(VkCommandBuffer cb, VkImage image, uint32_t width, uint32_t height, VkBuffer buffer,
                         const ReadbackImageUse& use = {});

} // namespace fftb
