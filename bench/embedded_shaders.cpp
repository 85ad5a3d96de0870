// SPDX-License-Identifier: MIT
// Lookup of the benchmark's embedded shaders, their compute pipelines and descriptor writes.
#include "embedded_shaders.h"

#include "host_error.h"

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
                                       uint32_t pushConstantBytes, const VkSpecializationInfo* specialization)
{
    const SpirvModule& spirv = embeddedShader(name);
    ComputePipelineInfo info;
    info.code = spirv.code;
    info.codeBytes = spirv.sizeBytes;
    info.bindings = std::move(bindings);
    info.pushConstantBytes = pushConstantBytes;
    info.specialization = specialization;
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

} // namespace fftb::bench
