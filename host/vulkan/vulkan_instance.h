// SPDX-License-Identifier: MIT
// A Vulkan instance of the application's own, with, when asked, the Khronos validation layer (synchronization
// validation included) and a messenger that counts its warnings and errors. Shared by VulkanDevice and the viewer.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

namespace fftb
{

struct VulkanInstanceOptions
{
    const char* applicationName = "fftbloom";
    uint32_t apiVersion = VK_API_VERSION_1_1;
    bool validation = false;             ///< VK_LAYER_KHRONOS_validation, synchronization validation on
    std::vector<const char*> extensions; ///< more instance extensions (a window system's surface ones)
};

/// Throws HostError with a one-line reason ("Vulkan: VK_LAYER_KHRONOS_validation not installed ...").
class VulkanInstance
{
  public:
    explicit VulkanInstance(const VulkanInstanceOptions& options);
    ~VulkanInstance();
    VulkanInstance(const VulkanInstance&) = delete; // the messenger holds the object's address
    VulkanInstance& operator=(const VulkanInstance&) = delete;

    VkInstance get() const { return instance_; }
    /// Validation-layer warnings and errors since creation; 0 without validation.
    uint64_t validationMessageCount() const { return validationMessages_; }
    const std::string& firstValidationMessage() const { return firstValidationMessage_; }

  private:
    static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                    VkDebugUtilsMessageTypeFlagsEXT,
                                                    const VkDebugUtilsMessengerCallbackDataEXT* data, void* user);

    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    uint64_t validationMessages_ = 0;
    std::string firstValidationMessage_;
};

} // namespace fftb
