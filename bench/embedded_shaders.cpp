// SPDX-License-Identifier: MIT
// Lookup of the benchmark's embedded shaders, their compute pipelines and descriptor writes.
#include "embedded_shaders.h"

#include "host_error.h"
#include "vulkan/vulkan_resources.h"

#include <cstring>
#include <string>
#include <utility>

namespace fftb::bench
{

const SpirvModule& embeddedShader(const char* name)
{
    for (std::size_t i = 0; i < kSpirvModuleCount; ++i)
        if (std::strcmp(kSpirvModules[i].name, name) == 0)
            return kSpirvModules[i];
    throw HostError(std::string("bench: shader ") + name +
                    " is not embedded (list it in the bench's fftbloom_embed_shaders NAMES)");
}

ComputePipeline createEmbeddedPipeline(VkDevice device, const char* name, std::vector<ComputeBinding> bindings,
                                       uint32_t pushConstantBytes, const VkSpecializationInfo* specialization,
                                       VkPipelineCreateFlags flags)
{
    const SpirvModule& spirv = embeddedShader(name);
    ComputePipelineInfo info;
    info.code = spirv.code;
    info.codeBytes = spirv.sizeBytes;
    info.bindings = std::move(bindings);
    info.pushConstantBytes = pushConstantBytes;
    info.specialization = specialization;
    info.flags = flags;
    return createComputePipeline(device, info);
}

void writeStorageBuffers(VkDevice device, VkDescriptorSet set, const std::vector<StorageBufferBinding>& buffers)
{
    std::vector<VkWriteDescriptorSet> writes;
    for (const StorageBufferBinding& b : buffers)
    {
        VkWriteDescriptorSet& w = writes.emplace_back(VkWriteDescriptorSet{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET});
        w.dstSet = set;
        w.dstBinding = b.binding;
        w.descriptorCount = 1;
        w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w.pBufferInfo = &b.range;
    }
    vkUpdateDescriptorSets(device, uint32_t(writes.size()), writes.data(), 0, nullptr);
}

std::vector<std::pair<std::string, double>> pipelineStatistics(VkDevice device, VkPipeline pipeline)
{
    const auto getStatistics = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
        vkGetDeviceProcAddr(device, "vkGetPipelineExecutableStatisticsKHR"));
    if (!getStatistics)
        throw HostError("bench: vkGetPipelineExecutableStatisticsKHR is not available");
    const VkPipelineExecutableInfoKHR executable{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, nullptr, pipeline, 0};
    uint32_t count = 0;
    checkVulkan(getStatistics(device, &executable, &count, nullptr), "vkGetPipelineExecutableStatisticsKHR");
    std::vector<VkPipelineExecutableStatisticKHR> statistics(count,
                                                             {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    checkVulkan(getStatistics(device, &executable, &count, statistics.data()), "vkGetPipelineExecutableStatisticsKHR");
    std::vector<std::pair<std::string, double>> values;
    for (const VkPipelineExecutableStatisticKHR& s : statistics)
    {
        double value = 0;
        switch (s.format)
        {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
            value = s.value.b32;
            break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
            value = double(s.value.i64);
            break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
            value = double(s.value.u64);
            break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR:
            value = s.value.f64;
            break;
        default:
            continue;
        }
        values.emplace_back(s.name, value);
    }
    return values;
}

} // namespace fftb::bench
