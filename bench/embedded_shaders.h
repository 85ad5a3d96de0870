// SPDX-License-Identifier: MIT
// The benchmark's own shaders (copy, VkFFT pack/unpack, the FFT lines), embedded at build time: lookup, pipeline
// creation and descriptor writes.
#pragma once

#include "fftbloom_spirv.h"
#include "vulkan/compute_pipeline.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace fftb::bench
{

/// The embedded SPIR-V module called `name` (a NAMES entry of bench/CMakeLists.txt); throws HostError if none.
const SpirvModule& embeddedShader(const char* name);

/// The compute pipeline of the embedded shader `name` with these descriptor bindings, push constant bytes and
/// specialization (optional); throws HostError (VulkanError on a Vulkan failure).
ComputePipeline createEmbeddedPipeline(VkDevice device, const char* name, std::vector<ComputeBinding> bindings,
                                       uint32_t pushConstantBytes,
                                       const VkSpecializationInfo* specialization = nullptr);

/// A storage-buffer descriptor of a set: its binding number and the buffer range bound there.
struct StorageBufferBinding
{
    uint32_t binding = 0;
    VkDescriptorBufferInfo range{};
};

/// Writes `buffers` into descriptor set `set`.
void writeStorageBuffers(VkDevice device, VkDescriptorSet set, const std::vector<StorageBufferBinding>& buffers);

} // namespace fftb::bench
