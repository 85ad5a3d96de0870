// A buffer-to-buffer compute copy, timed with timestamps, for the device's practical DRAM bandwidth.
#include "copy_bandwidth.h"

#include "embedded_shaders.h"
#include "vulkan/vulkan_resources.h"

#include <algorithm>
#include <vector>

namespace fftb::bench
{

double measureCopyBandwidth(VulkanDevice& device, uint64_t sizeBytes, int repeats)
{
    const VkDevice d = device.device();
    VulkanDevice::Buffer source = device.createBuffer(sizeBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);
    VulkanDevice::Buffer destination = device.createBuffer(sizeBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);
    ComputePipeline copy;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VkQueryPool queries = VK_NULL_HANDLE;
    struct Release
    {
        VulkanDevice& device;
        VulkanDevice::Buffer &source, &destination;
        ComputePipeline& copy;
        VkDescriptorPool& pool;
        VkQueryPool& queries;
        ~Release()
        {
            const VkDevice d = device.device();
            vkDestroyQueryPool(d, queries, nullptr);
            vkDestroyDescriptorPool(d, pool, nullptr);
            destroyComputePipeline(d, copy);
            device.destroy(source);
            device.destroy(destination);
        }
    } release{device, source, destination, copy, pool, queries};

    copy = createEmbeddedPipeline(
        d, "copy", {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, sizeof(uint32_t));
    VkDescriptorSet set = VK_NULL_HANDLE;
    pool = createDescriptorSets(d, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2}}, {copy.setLayout}, &set);
    const VkDescriptorBufferInfo infos[2] = {{source.buffer, 0, VK_WHOLE_SIZE}, {destination.buffer, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet writes[2] = {};
    for (uint32_t i = 0; i < 2; ++i)
    {
        writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        writes[i].dstSet = set;
        writes[i].dstBinding = i;
        writes[i].descriptorCount = 1;
        writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[i].pBufferInfo = &infos[i];
    }
    vkUpdateDescriptorSets(d, 2, writes, 0, nullptr);
    queries = device.createTimestampPool(2 * uint32_t(repeats + 1));

    const uint32_t count = uint32_t(sizeBytes / 16);
    const uint32_t groups = std::min<uint32_t>(65535u, (count + 255) / 256);
    const VkCommandBuffer cb = device.beginCommands();
    vkCmdResetQueryPool(cb, queries, 0, 2 * uint32_t(repeats + 1));
    bindComputePipeline(cb, copy, set, &count, sizeof(count));
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    for (int r = 0; r <= repeats; ++r) // the first copy warms up
    {
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                             &barrier, 0, nullptr, 0, nullptr);
        vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, 2 * uint32_t(r));
        vkCmdDispatch(cb, groups, 1, 1);
        vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, 2 * uint32_t(r) + 1);
    }
    device.submitAndWait(cb);
    std::vector<uint64_t> t(2 * size_t(repeats + 1));
    checkVulkan(vkGetQueryPoolResults(d, queries, 0, uint32_t(t.size()), t.size() * 8, t.data(), 8,
                                      VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                "vkGetQueryPoolResults");
    std::vector<double> seconds;
    for (int r = 1; r <= repeats; ++r)
        seconds.push_back(double(t[2 * size_t(r) + 1] - t[2 * size_t(r)]) * device.timestampPeriod() * 1e-9);
    std::sort(seconds.begin(), seconds.end());
    return 2.0 * double(count) * 16.0 / seconds[seconds.size() / 2];
}

} // namespace fftb::bench
