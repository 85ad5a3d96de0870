// SPDX-License-Identifier: MIT
// A compute pipeline with its one descriptor set layout and its pipeline layout, made from embedded SPIR-V: shared by
// the viewer's display pass, the benchmark's own passes and the FFT pass tests (the plugin keeps its own).
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace fftb
{

/// One binding of the pipeline's descriptor set (one descriptor, compute stage).
struct ComputeBinding
{
    uint32_t binding = 0;
    VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
};

/// What createComputePipeline makes a pipeline of.
struct ComputePipelineInfo
{
    const uint32_t* code = nullptr; ///< SPIR-V, entry point "main"
    std::size_t codeBytes = 0;
    std::vector<ComputeBinding> bindings;                 ///< descriptor set 0
    uint32_t pushConstantBytes = 0;                       ///< compute-stage push constants from offset 0; 0: none
    const VkSpecializationInfo* specialization = nullptr; ///< optional
    VkPipelineCreateFlags flags = 0; ///< e.g. VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR
};

/// A compute pipeline, its pipeline layout and its descriptor set layout, destroyed together.
struct ComputePipeline
{
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
};

/// The pipeline of `info` on `device`; throws VulkanError where a Vulkan call fails, leaving nothing behind.
ComputePipeline createComputePipeline(VkDevice device, const ComputePipelineInfo& info);

/// Destroys what `pipeline` holds (any part may be null) and empties it.
void destroyComputePipeline(VkDevice device, ComputePipeline& pipeline);

/// A descriptor pool of `sizes` and from it one set per entry of `layouts`, written to `sets`; throws VulkanError,
/// leaving nothing behind. Destroying the pool frees the sets.
VkDescriptorPool createDescriptorSets(VkDevice device, const std::vector<VkDescriptorPoolSize>& sizes,
                                      const std::vector<VkDescriptorSetLayout>& layouts, VkDescriptorSet* sets);

/// Records the binding of `pipeline` with descriptor set `set` and `pushBytes` of push constants from `push`.
void bindComputePipeline(VkCommandBuffer cb, const ComputePipeline& pipeline, VkDescriptorSet set, const void* push,
                         uint32_t pushBytes);

} // namespace fftb
