// SPDX-License-Identifier: MIT
// The viewer's window and Vulkan objects an engine would own: instance, surface, device, graphics queue, swapchain.
#pragma once

#include "vulkan/device_loss.h"
#include "vulkan/device_setup.h"
#include "vulkan/vulkan_instance.h"
#include "vulkan/vulkan_resources.h"

#include <vulkan/vulkan.h>
// After Vulkan's header: GLFW declares glfwCreateWindowSurface only when it has seen it.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace fftb::viewer
{

/// Thrown for failures other than a failed Vulkan call (VulkanError): one line naming the missing feature, the file
/// or the setting.
class ViewerError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

struct WindowOptions
{
    int width = 1280;
    int height = 800;
    bool validation = false; ///< VK_LAYER_KHRONOS_validation on; every warning or error is counted
    int deviceIndex = -1;    ///< -1: the first discrete GPU with a presenting queue, else the first such device
    /// Test hook (SimulatedDeviceLoss, FFTBLOOM_TEST_LOSE_DEVICE_AFTER): the frame fence waits (waitForFence) after
    /// the first N report VK_ERROR_DEVICE_LOST; the device made by recreateDevice is not lost. -1: off.
    int loseDeviceAfterWaits = -1;
    /// Test hook (FFTBLOOM_TEST_DEVICE_STAYS_LOST): after the simulated loss, recreateDevice fails as vkCreateDevice
    /// does when the GPU itself is gone (VK_ERROR_DEVICE_LOST).
    bool deviceStaysLost = false;
};

/// A GLFW window with a Vulkan swapchain. The swapchain images allow colour attachment and transfer destination
/// use, and transfer source use where the surface supports it (for screenshots).
class WindowDevice
{
  public:
    explicit WindowDevice(const WindowOptions& options);
    ~WindowDevice();
    WindowDevice(const WindowDevice&) = delete;
    WindowDevice& operator=(const WindowDevice&) = delete;

    GLFWwindow* window() const { return window_; }
    VkInstance instance() const { return instance_->get(); }
    VkPhysicalDevice physicalDevice() const { return logical_.physicalDevice; }
    VkDevice device() const { return logical_.device; }
    /// The device, its queue and the physical device and queue family they were made on.
    const LogicalDevice& logical() const { return logical_; }
    VkQueue queue() const { return logical_.queue; }
    uint32_t queueFamily() const { return logical_.queueFamily; }
    const VkPhysicalDeviceProperties& properties() const { return logical_.properties; }
    bool timestamps() const { return logical_.timestampValidBits > 0; }

    VkSwapchainKHR swapchain() const { return swapchain_; }
    VkFormat swapchainFormat() const { return format_; }
    VkExtent2D swapchainExtent() const { return extent_; }
    const std::vector<VkImage>& swapchainImages() const { return images_; }
    const std::vector<VkImageView>& swapchainViews() const { return views_; }
    uint32_t minImageCount() const { return minImageCount_; }
    /// Whether swapchain images can be copied from (VK_IMAGE_USAGE_TRANSFER_SRC_BIT).
    bool swapchainReadable() const { return readable_; }
    /// Whether the swapchain format stores sRGB-encoded values itself (a *_SRGB format).
    bool swapchainSrgb() const { return srgb_; }

    /// Recreates the swapchain at the window's framebuffer size; returns false while that size is 0 (minimized).
    /// The caller waits for the device to be idle first.
    bool recreateSwapchain();

    /// After a device loss: destroys the swapchain and the device, then makes a new device (the physical device
    /// chosen again) and swapchain (none while the window has no area). Every object made on the old device must be
    /// destroyed first. Throws VulkanError or ViewerError when no device can be made.
    void recreateDevice();

    /// vkWaitForFences on `fence` without a timeout, through the test hook (WindowOptions::loseDeviceAfterWaits).
    VkResult waitForFence(VkFence fence);

    uint64_t validationMessageCount() const { return instance_->validationMessageCount(); }
    const std::string& firstValidationMessage() const { return instance_->firstValidationMessage(); }

  private:
    void createDevice();
    void destroySwapchain(VkSwapchainKHR swapchain);

    int deviceIndex_ = -1;
    SimulatedDeviceLoss simulatedLoss_;
    bool lossIsForGood_ = false;
    GLFWwindow* window_ = nullptr;
    std::unique_ptr<VulkanInstance> instance_; ///< made after GLFW, which names the surface extensions
    VkSurfaceKHR surface_ = VK_NULL_HANDLE;
    LogicalDevice logical_;

    VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
    VkFormat format_ = VK_FORMAT_UNDEFINED;
    VkColorSpaceKHR colorSpace_ = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
    VkExtent2D extent_{};
    std::vector<VkImage> images_;
    std::vector<VkImageView> views_;
    uint32_t minImageCount_ = 2;
    bool readable_ = false;
    bool srgb_ = false;
};

} // namespace fftb::viewer
