// SPDX-License-Identifier: MIT
// A buffer-to-buffer compute copy, timed with timestamps, for the device's practical DRAM bandwidth.
#include "copy_bandwidth.h"

#include "embedded_shaders.h"
#include "vulkan/vulkan_resources.h"

#include <algorithm>
#include <vector>

namespace fftb::bench
{

std::vector<double> timeCopySteps(VulkanDevice& device, const std::vector<CopyStep>& steps, uint64_t bufferBytes,
                                  int repeats)
{
    const VkDevice d = device.device();
    VulkanDevice::Buffer buffer = device.createBuffer(bufferBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);
    ComputePipeline copy;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VkQueryPool queries = VK_NULL_HANDLE;
    struct Release
    {
        VulkanDevice& device;
        VulkanDevice::Buffer& buffer;
        ComputePipeline& copy;
        VkDescriptorPool& pool;
        VkQueryPool& queries;
        ~Release()
        {
            const VkDevice d = device.device();
            vkDestroyQueryPool(d, queries, nullptr);
            vkDestroyDescriptorPool(d, pool, nullptr);
            destroyComputePipeline(d, copy);
            device.destroy(buffer);
        }
    } release{device, buffer, copy, pool, queries};

    const uint32_t pushBytes = 2 * sizeof(uint32_t);
    copy = createEmbeddedPipeline(
        d, "copy", {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, pushBytes);
    const uint32_t stepCount = uint32_t(steps.size());
    // One descriptor set per step: its source and destination ranges of the one buffer.
    std::vector<VkDescriptorSet> sets(stepCount);
    pool = createDescriptorSets(d, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 * stepCount}},
                                std::vector<VkDescriptorSetLayout>(stepCount, copy.setLayout), sets.data());
    for (uint32_t s = 0; s < stepCount; ++s)
    {
        const CopyStep& step = steps[s];
        const VkDescriptorBufferInfo infos[2] = {
            {buffer.buffer, step.readOffset, std::max<uint64_t>(step.readBytes, 16)},
            {buffer.buffer, step.writeOffset, std::max<uint64_t>(step.writeBytes, 16)}};
        VkWriteDescriptorSet writes[2] = {};
        for (uint32_t i = 0; i < 2; ++i)
        {
            writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            writes[i].dstSet = sets[s];
            writes[i].dstBinding = i;
            writes[i].descriptorCount = 1;
            writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
            writes[i].pBufferInfo = &infos[i];
        }
        vkUpdateDescriptorSets(d, 2, writes, 0, nullptr);
    }
    const uint32_t queryCount = 2 * stepCount * uint32_t(repeats + 1);
    queries = device.createTimestampPool(queryCount);

    const VkCommandBuffer cb = device.beginCommands();
    vkCmdResetQueryPool(cb, queries, 0, queryCount);
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    uint32_t query = 0;
    for (int r = 0; r <= repeats; ++r) // the first round warms up
        for (uint32_t s = 0; s < stepCount; ++s)
        {
            const uint32_t counts[2] = {uint32_t(steps[s].readBytes / 16), uint32_t(steps[s].writeBytes / 16)};
            const uint32_t groups = std::min<uint32_t>(65535u, (std::max(counts[0], counts[1]) + 255) / 256);
            bindComputePipeline(cb, copy, sets[s], counts, pushBytes);
            vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                                 &barrier, 0, nullptr, 0, nullptr);
            vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, query++);
            vkCmdDispatch(cb, std::max(groups, 1u), 1, 1);
            vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, query++);
        }
    device.submitAndWait(cb);
    std::vector<uint64_t> t(queryCount);
    checkVulkan(vkGetQueryPoolResults(d, queries, 0, queryCount, t.size() * 8, t.data(), 8,
                                      VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                "vkGetQueryPoolResults");
    std::vector<double> medians;
    for (uint32_t s = 0; s < stepCount; ++s)
    {
        std::vector<double> seconds;
        for (int r = 1; r <= repeats; ++r)
        {
            const size_t at = 2 * (size_t(r) * stepCount + s);
            seconds.push_back(double(t[at + 1] - t[at]) * device.timestampPeriod() * 1e-9);
        }
        std::sort(seconds.begin(), seconds.end());
        medians.push_back(seconds[seconds.size() / 2]);
    }
    return medians;
}

double measureCopyBandwidth(VulkanDevice& device, uint64_t sizeBytes, int repeats)
{
    const uint64_t bytes = sizeBytes / 256 * 256;
    const std::vector<double> seconds = timeCopySteps(device, {{0, bytes, bytes, bytes}}, 2 * bytes, repeats);
    return 2.0 * double(bytes) / seconds[0];
}

} // namespace fftb::bench
