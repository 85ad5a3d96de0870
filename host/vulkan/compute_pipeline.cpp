// SPDX-License-Identifier: MIT
// Compute pipeline creation from SPIR-V: shader module, descriptor set layout, pipeline layout, pipeline.
#include "vulkan/compute_pipeline.h"

#include "vulkan/vulkan_resources.h"

namespace fftb
{

ComputePipeline createComputePipeline(VkDevice device, const ComputePipelineInfo& info)
{
    ComputePipeline made;
    VkShaderModule module = VK_NULL_HANDLE;
    try
    {
        std::vector<VkDescriptorSetLayoutBinding> bindings;
        for (const ComputeBinding& b : info.bindings)
            bindings.push_back({b.binding, b.type, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
        VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
        dslci.bindingCount = uint32_t(bindings.size());
        dslci.pBindings = bindings.data();
        checkVulkan(vkCreateDescriptorSetLayout(device, &dslci, nullptr, &made.setLayout),
                    "vkCreateDescriptorSetLayout");
        const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, info.pushConstantBytes};
        VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
        plci.setLayoutCount = 1;
        plci.pSetLayouts = &made.setLayout;
        plci.pushConstantRangeCount = info.pushConstantBytes > 0 ? 1 : 0;
        plci.pPushConstantRanges = &range;
        checkVulkan(vkCreatePipelineLayout(device, &plci, nullptr, &made.layout), "vkCreatePipelineLayout");

        VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        smci.codeSize = info.codeBytes;
        smci.pCode = info.code;
        checkVulkan(vkCreateShaderModule(device, &smci, nullptr, &module), "vkCreateShaderModule");
        VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
        cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
        cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        cpci.stage.module = module;
        cpci.stage.pName = "main";
        cpci.stage.pSpecializationInfo = info.specialization;
        cpci.layout = made.layout;
        cpci.flags = info.flags;
        checkVulkan(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpci, nullptr, &made.pipeline),
                    "vkCreateComputePipelines");
    }
    catch (const VulkanError&)
    {
        vkDestroyShaderModule(device, module, nullptr);
        destroyComputePipeline(device, made);
        throw;
    }
    vkDestroyShaderModule(device, module, nullptr); // the pipeline keeps what it needs
    return made;
}

void destroyComputePipeline(VkDevice device, ComputePipeline& pipeline)
{
    vkDestroyPipeline(device, pipeline.pipeline, nullptr);
    vkDestroyPipelineLayout(device, pipeline.layout, nullptr);
    vkDestroyDescriptorSetLayout(device, pipeline.setLayout, nullptr);
    pipeline = ComputePipeline{};
}

VkDescriptorPool createDescriptorSets(VkDevice device, const std::vector<VkDescriptorPoolSize>& sizes,
                                      const std::vector<VkDescriptorSetLayout>& layouts, VkDescriptorSet* sets)
{
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.maxSets = uint32_t(layouts.size());
    dpci.poolSizeCount = uint32_t(sizes.size());
    dpci.pPoolSizes = sizes.data();
    VkDescriptorPool pool = VK_NULL_HANDLE;
    checkVulkan(vkCreateDescriptorPool(device, &dpci, nullptr, &pool), "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dsai.descriptorPool = pool;
    dsai.descriptorSetCount = uint32_t(layouts.size());
    dsai.pSetLayouts = layouts.data();
    if (const VkResult r = vkAllocateDescriptorSets(device, &dsai, sets); r != VK_SUCCESS)
    {
        vkDestroyDescriptorPool(device, pool, nullptr);
        checkVulkan(r, "vkAllocateDescriptorSets");
    }
    return pool;
}

void bindComputePipeline(VkCommandBuffer cb, const ComputePipeline& pipeline, VkDescriptorSet set, const void* push,
                         uint32_t pushBytes)
{
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &set, 0, nullptr);
    if (pushBytes > 0)
        vkCmdPushConstants(cb, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes, push);
}

} // namespace fftb
