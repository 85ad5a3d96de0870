// SPDX-License-Identifier: MIT
// Lookup of the benchmark's embedded shaders and their compute pipelines.
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
                                       uint32_t pushConstantBytes)
{
    const SpirvModule& spirv = embeddedShader(name);
    ComputePipelineInfo info;
    info.code = spirv.code;
    info.codeBytes = spirv.sizeBytes;
    info.bindings = std::move(bindings);
    info.pushConstantBytes = pushConstantBytes;
    return createComputePipeline(device, info);
}

} // namespace fftb::bench
