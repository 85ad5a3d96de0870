// The benchmark's own shaders (copy, VkFFT pack/unpack), embedded at build time: lookup and pipeline creation.
#pragma once

#include "fftbloom_spirv.h"

#include <vulkan/vulkan.h>

namespace fftb::bench
{

/// The embedded SPIR-V module called `name` (a NAMES entry of bench/CMakeLists.txt); throws HostError if none.
const SpirvModule& embeddedShader(const char* name);

/// A compute pipeline of the embedded shader `name` with `layout`; throws HostError on a Vulkan failure.
VkPipeline createComputePipeline(VkDevice device, const char* name, VkPipelineLayout layout);

} // namespace fftb::bench
