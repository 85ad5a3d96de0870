// SPDX-License-Identifier: MIT
// Window, instance, device and swapchain creation for the viewer; the device is chosen for presentation support.
#include "window_device.h"

#include "host_error.h"

#include <algorithm>

namespace fftb::viewer
{

WindowDevice::WindowDevice(const WindowOptions& options)
    : deviceIndex_(options.deviceIndex), simulatedLoss_(options.loseDeviceAfterWaits),
      lossIsForGood_(options.deviceStaysLost)
{
    if (!glfwInit())
        throw ViewerError("GLFW: no display (set DISPLAY, or run under xvfb-run)");
    if (!glfwVulkanSupported())
        throw ViewerError("GLFW: no Vulkan loader or no surface extension (install libvulkan1)");
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    window_ = glfwCreateWindow(options.width, options.height, "fftbloom-viewer", nullptr, nullptr);
    if (!window_)
        throw ViewerError("GLFW: glfwCreateWindow failed");

    uint32_t glfwCount = 0;
    const char** glfwExtensions = glfwGetRequiredInstanceExtensions(&glfwCount);
    try
    {
        instance_ = std::make_unique<VulkanInstance>(
            VulkanInstanceOptions{"fftbloom-viewer", VK_API_VERSION_1_1, options.validation,
                                  std::vector<const char*>(glfwExtensions, glfwExtensions + glfwCount)});
    }
    catch (const HostError& e)
    {
        throw ViewerError(e.what());
    }
    checkVulkan(glfwCreateWindowSurface(instance_->get(), window_, nullptr, &surface_), "glfwCreateWindowSurface");
    createDevice();
    if (!recreateSwapchain())
        throw ViewerError("GLFW: the window has no area");
}

WindowDevice::~WindowDevice()
{
    if (logical_.device)
    {
        vkDeviceWaitIdle(logical_.device);
        destroySwapchain(swapchain_);
        destroyLogicalDevice(logical_);
    }
    if (surface_)
        vkDestroySurfaceKHR(instance_->get(), surface_, nullptr);
    instance_.reset();
    if (window_)
        glfwDestroyWindow(window_);
    glfwTerminate();
}

void WindowDevice::createDevice()
{
    // One queue family that draws, computes and presents to this window: the whole frame runs on one queue.
    DeviceRequest request;
    request.deviceIndex = deviceIndex_;
    request.queueFlags = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    request.presentTo = surface_;
    request.queueDescription = "draws, computes and presents to the window";
    // createLogicalDevice adds VK_KHR_push_descriptor, which fftbloom requires.
    request.extensions = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
    try
    {
        logical_ = createLogicalDevice(instance_->get(), request);
    }
    catch (const VulkanError&)
    {
        throw;
    }
    catch (const HostError& e)
    {
        throw ViewerError(e.what());
    }
    uint32_t formatCount = 0;
    vkGetPhysicalDeviceSurfaceFormatsKHR(logical_.physicalDevice, surface_, &formatCount, nullptr);
    std::vector<VkSurfaceFormatKHR> formats(formatCount);
    vkGetPhysicalDeviceSurfaceFormatsKHR(logical_.physicalDevice, surface_, &formatCount, formats.data());
    if (formats.empty())
        throw ViewerError("Vulkan: the surface offers no format");
    // A UNORM format: the display pass encodes sRGB itself, and the UI's colours are authored for such targets.
    auto chosen = std::find_if(formats.begin(), formats.end(),
                               [](const VkSurfaceFormatKHR& f) {
                                   return f.format == VK_FORMAT_B8G8R8A8_UNORM || f.format == VK_FORMAT_R8G8B8A8_UNORM;
                               });
    const VkSurfaceFormatKHR surfaceFormat = chosen != formats.end() ? *chosen : formats.front();
    format_ = surfaceFormat.format;
    colorSpace_ = surfaceFormat.colorSpace;
    srgb_ = format_ == VK_FORMAT_B8G8R8A8_SRGB || format_ == VK_FORMAT_R8G8B8A8_SRGB;
}

void WindowDevice::recreateDevice()
{
    if (logical_.device)
    {
        vkDeviceWaitIdle(logical_.device); // VK_ERROR_DEVICE_LOST at once on a lost device
        destroySwapchain(swapchain_);
        swapchain_ = VK_NULL_HANDLE;
        destroyLogicalDevice(logical_);
    }
    if (simulatedLoss_.lost() && lossIsForGood_)
        throw VulkanError("vkCreateDevice", VK_ERROR_DEVICE_LOST);
    simulatedLoss_ = SimulatedDeviceLoss(); // the test hook loses one device
    createDevice();
    recreateSwapchain(); // false while the window has no area: the frame loop makes the swapchain once it has
}

VkResult WindowDevice::waitForFence(VkFence fence)
{
    return simulatedLoss_.afterWait(vkWaitForFences(logical_.device, 1, &fence, VK_TRUE, UINT64_MAX));
}

void WindowDevice::destroySwapchain(VkSwapchainKHR swapchain)
{
    for (VkImageView view : views_)
        vkDestroyImageView(logical_.device, view, nullptr);
    views_.clear();
    images_.clear();
    if (swapchain)
        vkDestroySwapchainKHR(logical_.device, swapchain, nullptr);
}

bool WindowDevice::recreateSwapchain()
{
    int width = 0, height = 0;
    glfwGetFramebufferSize(window_, &width, &height);
    if (width <= 0 || height <= 0)
        return false;
    VkSurfaceCapabilitiesKHR caps;
    checkVulkan(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(logical_.physicalDevice, surface_, &caps),
                "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
    if (caps.currentExtent.width != UINT32_MAX)
        extent_ = caps.currentExtent;
    else
        extent_ = {std::clamp(uint32_t(width), caps.minImageExtent.width, caps.maxImageExtent.width),
                   std::clamp(uint32_t(height), caps.minImageExtent.height, caps.maxImageExtent.height)};
    if (extent_.width == 0 || extent_.height == 0)
        return false;
    if (!(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT))
        throw ViewerError("Vulkan: the surface's images cannot be transfer destinations");
    readable_ = (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0;
    minImageCount_ = std::max(caps.minImageCount + 1, 2u);
    if (caps.maxImageCount > 0)
        minImageCount_ = std::min(minImageCount_, caps.maxImageCount);

    VkSwapchainCreateInfoKHR sci{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    sci.surface = surface_;
    sci.minImageCount = minImageCount_;
    sci.imageFormat = format_;
    sci.imageColorSpace = colorSpace_;
    sci.imageExtent = extent_;
    sci.imageArrayLayers = 1;
    sci.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                     (readable_ ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT : 0);
    sci.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    sci.preTransform = caps.currentTransform;
    sci.compositeAlpha =
        (caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR)
            ? VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
            : VkCompositeAlphaFlagBitsKHR(caps.supportedCompositeAlpha & ~(caps.supportedCompositeAlpha - 1));
    sci.presentMode = VK_PRESENT_MODE_FIFO_KHR; // always supported
    sci.clipped = VK_TRUE;
    sci.oldSwapchain = swapchain_;
    VkSwapchainKHR created = VK_NULL_HANDLE;
    checkVulkan(vkCreateSwapchainKHR(logical_.device, &sci, nullptr, &created), "vkCreateSwapchainKHR");
    destroySwapchain(swapchain_);
    swapchain_ = created;

    uint32_t count = 0;
    vkGetSwapchainImagesKHR(logical_.device, swapchain_, &count, nullptr);
    images_.resize(count);
    vkGetSwapchainImagesKHR(logical_.device, swapchain_, &count, images_.data());
    for (VkImage image : images_)
    {
        VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        vci.image = image;
        vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
        vci.format = format_;
        vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        VkImageView view = VK_NULL_HANDLE;
        checkVulkan(vkCreateImageView(logical_.device, &vci, nullptr, &view), "vkCreateImageView");
        views_.push_back(view);
    }
    return true;
}

} // namespace fftb::viewer
