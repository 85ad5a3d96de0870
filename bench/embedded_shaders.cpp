// Lookup of the benchmark's embedded shaders and their compute pipelines.
#include "embedded_shaders.h"

#include "host_error.h"

#include <cstring>
#include <string>

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

VkPipeline createComputePipeline(VkDevice device, const char* name, VkPipelineLayout layout)
{
    const SpirvModule& spirv = embeddedShader(name);
    VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smci.codeSize = spirv.sizeBytes;
    smci.pCode = spirv.code;
    VkShaderModule module = VK_NULL_HANDLE;
    if (VkResult r = vkCreateShaderModule(device, &smci, nullptr, &module); r != VK_SUCCESS)
        throw HostError("Vulkan: vkCreateShaderModule failed with VkResult " + std::to_string(int(r)));
    VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpci.stage.module = module;
    cpci.stage.pName = "main";
    cpci.layout = layout;
    VkPipeline pipeline = VK_NULL_HANDLE;
    const VkResult r = vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline);
    vkDestroyShaderModule(device, module, nullptr);
    if (r != VK_SUCCESS)
        throw HostError("Vulkan: vkCreateComputePipelines failed with VkResult " + std::to_string(int(r)));
    return pipeline;
}

} // namespace fftb::bench
