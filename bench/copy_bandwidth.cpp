// SPDX-License-Identifier: MIT
// A buffer-to-buffer compute copy, timed with timestamps, for the device's practical DRAM bandwidth.
#include "copy_bandwidth.h"

#include "embedded_shaders.h"
#include "vulkan/vulkan_resources.h"

#include <algorithm>
#include <vector>

namespace fftb::bench
{

std::vector<double> timeDispatches(VulkanDevice& device, uint32_t steps, int warmupRounds, int repeats,
                                   const std::function<void(VkCommandBuffer cb, uint32_t step)>& record)
{
    const VkDevice d = device.device();
    const uint32_t queryCount = 2 * steps * uint32_t(repeats);
    struct Queries
    {
        VkDevice device;
        VkQueryPool pool;
        ~Queries() { vkDestroyQueryPool(device, pool, nullptr); }
    } queries{d, device.createTimestampPool(queryCount)};

    const VkCommandBuffer cb = device.beginCommands();
    vkCmdResetQueryPool(cb, queries.pool, 0, queryCount);
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    uint32_t query = 0;
    for (int r = 0; r < warmupRounds + repeats; ++r)
        for (uint32_t s = 0; s < steps; ++s)
        {
            const bool timed = r >= warmupRounds;
            vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                                 &barrier, 0, nullptr, 0, nullptr);
            if (timed)
                vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries.pool, query++);
            record(cb, s);
            if (timed)
                vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries.pool, query++);
        }
    device.submitAndWait(cb);
    std::vector<uint64_t> t(queryCount);
    checkVulkan(vkGetQueryPoolResults(d, queries.pool, 0, queryCount, t.size() * 8, t.data(), 8,
                                      VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                "vkGetQueryPoolResults");
    std::vector<double> medians;
    for (uint32_t s = 0; s < steps; ++s)
    {
        std::vector<double> seconds;
        for (int r = 0; r < repeats; ++r)
        {
            const size_t at = 2 * (size_t(r) * steps + s);
            seconds.push_back(double(t[at + 1] - t[at]) * device.timestampPeriod() * 1e-9);
        }
        std::sort(seconds.begin(), seconds.end());
        medians.push_back(seconds[seconds.size() / 2]);
    }
    return medians;
}

std::vector<double> timeCopySteps(VulkanDevice& device, const std::vector<CopyStep>& steps, uint64_t bufferBytes,
                                  int repeats)
{
    const VkDevice d = device.device();
    VulkanDevice::Buffer buffer = device.createBuffer(bufferBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);
    ComputePipeline copy;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    struct Release
    {
        VulkanDevice& device;
        VulkanDevice::Buffer& buffer;
        ComputePipeline& copy;
        VkDescriptorPool& pool;
        ~Release()
        {
            const VkDevice d = device.device();
            vkDestroyDescriptorPool(d, pool, nullptr);
            destroyComputePipeline(d, copy);
            device.destroy(buffer);
        }
    } release{device, buffer, copy, pool};

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
        writeStorageBuffers(d, sets[s],
                            {{0, {buffer.buffer, step.readOffset, std::max<uint64_t>(step.readBytes, 16)}},
                             {1, {buffer.buffer, step.writeOffset, std::max<uint64_t>(step.writeBytes, 16)}}});
    }
    const auto dispatch = [&](VkCommandBuffer cb, uint32_t s)
    {
        const uint32_t counts[2] = {uint32_t(steps[s].readBytes / 16), uint32_t(steps[s].writeBytes / 16)};
        const uint32_t groups = std::min<uint32_t>(65535u, (std::max(counts[0], counts[1]) + 255) / 256);
        bindComputePipeline(cb, copy, sets[s], counts, pushBytes);
        vkCmdDispatch(cb, std::max(groups, 1u), 1, 1);
    };
    return timeDispatches(device, stepCount, 1, repeats, dispatch); // the first round warms up
}

double measureCopyBandwidth(VulkanDevice& device, uint64_t sizeBytes, int repeats)
{
    const uint64_t bytes = sizeBytes / 256 * 256;
    const std::vector<double> seconds = timeCopySteps(device, {{0, bytes, bytes, bytes}}, 2 * bytes, repeats);
    return 2.0 * double(bytes) / seconds[0];
}

} // namespace fftb::bench
