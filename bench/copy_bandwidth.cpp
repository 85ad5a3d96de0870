// A buffer-to-buffer compute copy, timed with timestamps, for the device's practical DRAM bandwidth.
#include "copy_bandwidth.h"

#include "embedded_shaders.h"
#include "host_error.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace fftb::bench
{

namespace
{

void check(VkResult result, const char* call)
{
    if (result != VK_SUCCESS)
        throw HostError(std::string("Vulkan: ") + call + " failed with VkResult " + std::to_string(int(result)));
}

} // namespace

double measureCopyBandwidth(VulkanDevice& device, uint64_t sizeBytes, int repeats)
{
    const VkDevice d = device.device();
    VulkanDevice::Buffer source = device.createBuffer(sizeBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);
    VulkanDevice::Buffer destination = device.createBuffer(sizeBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VkPipelineLayout pipelineLayout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VkQueryPool queries = VK_NULL_HANDLE;
    struct Release
    {
        VulkanDevice& device;
        VulkanDevice::Buffer &source, &destination;
        VkDescriptorSetLayout& setLayout;
        VkPipelineLayout& pipelineLayout;
        VkPipeline& pipeline;
        VkDescriptorPool& pool;
        VkQueryPool& queries;
        ~Release()
        {
            const VkDevice d = device.device();
            vkDestroyQueryPool(d, queries, nullptr);
            vkDestroyDescriptorPool(d, pool, nullptr);
            vkDestroyPipeline(d, pipeline, nullptr);
            vkDestroyPipelineLayout(d, pipelineLayout, nullptr);
            vkDestroyDescriptorSetLayout(d, setLayout, nullptr);
            device.destroy(source);
            device.destroy(destination);
        }
    } release{device, source, destination, setLayout, pipelineLayout, pipeline, pool, queries};

    VkDescriptorSetLayoutBinding bindings[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
    };
    VkDescriptorSetLayoutCreateInfo dlci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dlci.bindingCount = 2;
    dlci.pBindings = bindings;
    check(vkCreateDescriptorSetLayout(d, &dlci, nullptr, &setLayout), "vkCreateDescriptorSetLayout");
    const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(uint32_t)};
    VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plci.setLayoutCount = 1;
    plci.pSetLayouts = &setLayout;
    plci.pushConstantRangeCount = 1;
    plci.pPushConstantRanges = &range;
    check(vkCreatePipelineLayout(d, &plci, nullptr, &pipelineLayout), "vkCreatePipelineLayout");
    pipeline = createComputePipeline(d, "copy", pipelineLayout);
    const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.maxSets = 1;
    dpci.poolSizeCount = 1;
    dpci.pPoolSizes = &size;
    check(vkCreateDescriptorPool(d, &dpci, nullptr, &pool), "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dsai.descriptorPool = pool;
    dsai.descriptorSetCount = 1;
    dsai.pSetLayouts = &setLayout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    check(vkAllocateDescriptorSets(d, &dsai, &set), "vkAllocateDescriptorSets");
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
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipelineLayout, 0, 1, &set, 0, nullptr);
    vkCmdPushConstants(cb, pipelineLayout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(count), &count);
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
    check(vkGetQueryPoolResults(d, queries, 0, uint32_t(t.size()), t.size() * 8, t.data(), 8,
                                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
          "vkGetQueryPoolResults");
    std::vector<double> seconds;
    for (int r = 1; r <= repeats; ++r)
        seconds.push_back(double(t[2 * size_t(r) + 1] - t[2 * size_t(r)]) * device.timestampPeriod() * 1e-9);
    std::sort(seconds.begin(), seconds.end());
    return 2.0 * double(count) * 16.0 / seconds[seconds.size() / 2];
}

} // namespace fftb::bench
