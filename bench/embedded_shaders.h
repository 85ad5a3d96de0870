// SPDX-License-Identifier: MIT
// The benchmark's own shaders (copy, VkFFT pack/unpack, the FFT lines), embedded at build time: lookup, pipeline
// creation and descriptor writes.
#pragma once

#include "fftbloom_spirv.h"
#include "vulkan/compute_pipeline.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fftb::bench
{

/// The embedded SPIR-V module called `name` (a NAMES entry of bench/CMakeLists.txt); throws HostError if none.
const SpirvModule& embeddedShader(const char* name);

/// The compute pipeline of the embedded shader `name` with these descriptor bindings, push constant bytes,
/// specialization (optional) and creation flags; throws HostError (VulkanError on a Vulkan failure).
ComputePipeline createEmbeddedPipeline(VkDevice device, const char* name, std::vector<ComputeBinding> bindings,
                                       uint32_t pushConstantBytes, const VkSpecializationInfo* specialization = nullptr,
                                       VkPipelineCreateFlags flags = 0);

/// The driver's statistics of `pipeline`'s compute shader (VK_KHR_pipeline_executable_properties, which `device` must
/// have enabled and `pipeline` been created with VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR): name to value, e.g.
/// "Register Count", "Shared Memory Size" (bytes), "Local Memory Size" (bytes); throws VulkanError.
std::vector<std::pair<std::string, double>> pipelineStatistics(VkDevice device, VkPipeline pipeline);

/// A storage-buffer descriptor of a set: its binding number and the buffer range bound there.
struct StorageBufferBinding
{
    uint32_t binding = 0;
    VkDescriptorBufferInfo range{};
};

/// Writes `buffers` into descriptor set `set`.
void writeStorageBuffers(VkDevice device, VkDescriptorSet set, const std::vector<StorageBufferBinding>& buffers);

} // namespace fftb::bench
