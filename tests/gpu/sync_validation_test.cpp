// SPDX-License-Identifier: MIT
// Synchronization validation is on wherever validation is: a missing barrier is reported, and so fails the tests.
#include "vulkan/vulkan_device.h"

#include <gtest/gtest.h>

#include <string>

namespace fftb
{
namespace
{

/// On a device of its own with validation on: fills a buffer, then copies it to another, with or without the
/// barrier between the two; the validation messages seen.
struct Messages
{
    uint64_t count = 0;
    std::string first;
};

Messages fillThenCopy(bool barrier)
{
    VulkanDevice device({-1, true});
    const VkDeviceSize bytes = 4096;
    VulkanDevice::Buffer source =
        device.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, false);
    VulkanDevice::Buffer destination = device.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, false);
    const VkCommandBuffer cb = device.beginCommands();
    vkCmdFillBuffer(cb, source.buffer, 0, bytes, 0x3f800000u);
    if (barrier)
    {
        VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, nullptr,
                             0, nullptr);
    }
    const VkBufferCopy region{0, 0, bytes};
    vkCmdCopyBuffer(cb, source.buffer, destination.buffer, 1, &region);
    device.submitAndWait(cb);
    device.destroy(destination);
    device.destroy(source);
    return {device.validationMessageCount(), device.firstValidationMessage()};
}

// A read-after-write hazard that only synchronization validation reports: every other GPU test's zero-message check
// covers synchronization because this is reported.
TEST(SyncValidation, AMissingBarrierIsReportedAsAHazard)
{
    const Messages m = fillThenCopy(false);
    EXPECT_GE(m.count, 1u);
    EXPECT_NE(m.first.find("SYNC-HAZARD-READ-AFTER-WRITE"), std::string::npos) << m.first;
}

TEST(SyncValidation, TheBarrierSilencesIt)
{
    const Messages m = fillThenCopy(true);
    EXPECT_EQ(m.count, 0u) << m.first;
}

} // namespace
} // namespace fftb
