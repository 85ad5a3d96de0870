// SPDX-License-Identifier: MIT
// A Vulkan instance, device and compute queue of the application's own, with the few helpers the CLI, the tests
// and the benchmark need (buffers, images, one-shot command buffers). Engines bring their own device instead.
#pragma once

#include "vulkan/device_loss.h"
#include "vulkan/device_setup.h"
#include "vulkan/vulkan_instance.h"
#include "vulkan/vulkan_resources.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>

namespace fftb
{

struct VulkanDeviceOptions
{
    int deviceIndex = -1;    ///< physical device index; -1: the first discrete GPU, else the first CPU device
    bool validation = false; ///< enable VK_LAYER_KHRONOS_validation and count its warnings and errors
    /// Vulkan 1.3 with the synchronization2 feature enabled (an error when the device lacks it); else Vulkan 1.1.
    bool synchronization2 = false;
    /// Test hook for device faults (SimulatedDeviceLoss): the waits for the first N submissions succeed, every later
    /// one fails with VK_ERROR_DEVICE_LOST as after a device loss (the work itself still ran). -1: off.
    int loseDeviceAfterWaits = -1;
    /// Enable VK_KHR_pipeline_executable_properties (pipelineExecutableInfo) where the device has it, for the plugin's
    /// pass statistics (FftbDeviceFeaturesInfo::pipelineExecutableInfo); pipelineStatistics() says whether it was.
    bool pipelineStatistics = false;
    /// DeviceRequest::asyncCompute: also a queue of a compute-only family where the device has one (logical()).
    bool asyncCompute = false;
};

/// Every method throws HostError with a one-line reason ("Vulkan: vkCreateDevice failed with VkResult -3"), a
/// VulkanError where a Vulkan call failed.
class VulkanDevice
{
  public:
    using Buffer = VulkanBuffer;
    using Image = VulkanImage;

    explicit VulkanDevice(const VulkanDeviceOptions& options);
    ~VulkanDevice();
    VulkanDevice(const VulkanDevice&) = delete;
    VulkanDevice& operator=(const VulkanDevice&) = delete;

    VkInstance instance() const { return instance_.get(); }
    VkPhysicalDevice physicalDevice() const { return logical_.physicalDevice; }
    VkDevice device() const { return logical_.device; }
    /// The device, its queue and the physical device and queue family they were made on.
    const LogicalDevice& logical() const { return logical_; }
    /// The compute queue, its command pool and an unsignaled fence, for libraries (VkFFT) that submit on their own.
    VkQueue queue() const { return logical_.queue; }
    VkCommandPool commandPool() const { return pool_; }
    VkFence fence() const { return fence_; }
    const VkPhysicalDeviceProperties& properties() const { return logical_.properties; }
    /// Whether the compute queue supports timestamps (timestampValidBits > 0).
    bool timestamps() const { return logical_.timestampValidBits > 0; }
    /// VK_KHR_pipeline_executable_properties is enabled (VulkanDeviceOptions::pipelineStatistics).
    bool pipelineStatistics() const { return logical_.pipelineStatistics; }
    /// Nanoseconds per timestamp tick.
    double timestampPeriod() const { return logical_.properties.limits.timestampPeriod; }
    uint64_t validationMessageCount() const { return instance_.validationMessageCount(); }
    const std::string& firstValidationMessage() const { return instance_.firstValidationMessage(); }

    /// A buffer of `sizeBytes`; host-visible and coherent (mapped) or device-local.
    Buffer createBuffer(VkDeviceSize sizeBytes, VkBufferUsageFlags usage, bool hostVisible);
    /// A device-local 2D image with one mip level and `layers` array layers, a 2D colour view of its format per layer.
    Image createImage(uint32_t width, uint32_t height, VkFormat format, VkImageUsageFlags usage, uint32_t layers = 1);
    void destroy(Buffer& buffer);
    void destroy(Image& image);
    VkQueryPool createTimestampPool(uint32_t count);

    /// A submitted command buffer and the fence it signals on completion.
    struct Submission
    {
        VkCommandBuffer commandBuffer = VK_NULL_HANDLE;
        VkFence fence = VK_NULL_HANDLE;
    };

    /// A primary command buffer in the recording state, for one submission.
    VkCommandBuffer beginCommands();
    /// Ends and submits `commandBuffer` with a fence of its own and returns at once; wait() must follow.
    /// On failure the buffer is freed before the throw.
    Submission submit(VkCommandBuffer commandBuffer);
    /// Waits for `submission` to complete, then frees its command buffer and fence (also when the wait fails,
    /// e.g. VK_ERROR_DEVICE_LOST, after which it throws).
    void wait(Submission& submission);
    /// submit() then wait().
    void submitAndWait(VkCommandBuffer commandBuffer);

    /// Records the copy of `source` from byte `sourceOffset` (tightly packed texels) into all of `image` (width x
    /// height, x depth for a 3D image, from UNDEFINED) and leaves it SHADER_READ_ONLY_OPTIMAL, visible to compute
    /// shaders.
    static void uploadForCompute(VkCommandBuffer cb, VkBuffer source, VkImage image, uint32_t width, uint32_t height,
                                 VkDeviceSize sourceOffset = 0, uint32_t depth = 1);
    /// Records the transition of `image` from UNDEFINED to GENERAL, ready for compute-shader writes.
    static void prepareComputeOutput(VkCommandBuffer cb, VkImage image);

    /// Records an image layout transition with a full barrier between the given stages (recordImageTransition).
    static constexpr auto transition = &recordImageTransition;

  private:
    VulkanInstance instance_;
    LogicalDevice logical_;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkFence fence_ = VK_NULL_HANDLE;
    SimulatedDeviceLoss simulatedLoss_; ///< VulkanDeviceOptions::loseDeviceAfterWaits
};

} // namespace fftb
