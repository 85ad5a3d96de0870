// SPDX-License-Identifier: MIT
// The benchmark's own shaders (copy, VkFFT pack/unpack), embedded at build time: lookup and pipeline creation.
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

/// The compute pipeline of the embedded shader `name` with these descriptor bindings and push constant bytes; throws
/// HostError (VulkanError on a Vulkan failure).
ComputePipeline createEmbeddedPipeline(VkDevice device, const char* name, std::vector<ComputeBinding> bindings,
                                       uint32_t pushConstantBytes);

} // namespace fftb::bench
