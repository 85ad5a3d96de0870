// Synchronization validation is on wherever validation is: a missing barrier is reported, and so fails the tests.
#include "vulkan_device.h"

#include <gtest/gtest.h>

#include <string>

namespace fftb
{
namespace
{

// A fill and then a copy from the filled buffer with no barrier between them: a read-after-write hazard that only
// synchronization validation reports. Every other GPU test's zero-message check rests on this being reported.
TEST(SyncValidation, AMissingBarrierIsReportedAsAHazard)
{
    VulkanDevice device({-1, true});
    const VkDeviceSize bytes = 4096;
    VulkanDevice::Buffer source =
        device.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, false);
    VulkanDevice::Buffer destination = device.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, false);
    const VkCommandBuffer cb = device.beginCommands();
    vkCmdFillBuffer(cb, source.buffer, 0, bytes, 0x3f800000u);
    const VkBufferCopy region{0, 0, bytes};
    vkCmdCopyBuffer(cb, source.buffer, destination.buffer, 1, &region);
    device.submitAndWait(cb);
    device.destroy(destination);
    device.destroy(source);
    EXPECT_GE(device.validationMessageCount(), 1u);
    const std::string message = device.firstValidationMessage();
    EXPECT_NE(message.find("SYNC-HAZARD-READ-AFTER-WRITE"), std::string::npos) << message;
}

// The same with the barrier: nothing reported.
TEST(SyncValidation, TheBarrierSilencesIt)
{
    VulkanDevice device({-1, true});
    const VkDeviceSize bytes = 4096;
    VulkanDevice::Buffer source =
        device.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, false);
    VulkanDevice::Buffer destination = device.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, false);
    const VkCommandBuffer cb = device.beginCommands();
    vkCmdFillBuffer(cb, source.buffer, 0, bytes, 0x3f800000u);
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &barrier, 0, nullptr,
                         0, nullptr);
    const VkBufferCopy region{0, 0, bytes};
    vkCmdCopyBuffer(cb, source.buffer, destination.buffer, 1, &region);
    device.submitAndWait(cb);
    device.destroy(destination);
    device.destroy(source);
    EXPECT_EQ(device.validationMessageCount(), 0u) << device.firstValidationMessage();
}

} // namespace
} // namespace fftb
