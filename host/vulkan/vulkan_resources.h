// Buffers and images with their memory, and the check of a VkResult, shared by VulkanDevice (the CLI, tests and
// bench) and the viewer, whose device WindowDevice makes.
#pragma once

#include "host_error.h"

#include <vulkan/vulkan.h>

#include <cstdint>

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

/// A 2D image with one mip level, its memory and a colour view of its format.
struct VulkanImage
{
    VkImage image = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    uint32_t width = 0;
    uint32_t height = 0;
};

/// The first memory type of `gpu` among `bits` with all of `wanted`; throws HostError when there is none.
uint32_t findMemoryType(VkPhysicalDevice gpu, uint32_t bits, VkMemoryPropertyFlags wanted);

/// A buffer of `sizeBytes`: host-visible and coherent (mapped), or device-local. Nothing is left on failure.
VulkanBuffer createVulkanBuffer(VkPhysicalDevice gpu, VkDevice device, VkDeviceSize sizeBytes, VkBufferUsageFlags usage,
                                bool hostVisible);
/// A device-local 2D image with one mip level and a colour view of the same format. Nothing is left on failure.
VulkanImage createVulkanImage(VkPhysicalDevice gpu, VkDevice device, uint32_t width, uint32_t height, VkFormat format,
                              VkImageUsageFlags usage);
/// Destroys what `buffer` holds (any part may be null) and empties it.
void destroyVulkanBuffer(VkDevice device, VulkanBuffer& buffer);
/// Destroys what `image` holds (any part may be null) and empties it.
void destroyVulkanImage(VkDevice device, VulkanImage& image);

} // namespace fftb
