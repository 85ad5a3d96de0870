// SPDX-License-Identifier: MIT
// The viewer's device-level objects: frames in flight, the scene's images, the display pass's pipeline and descriptor
// sets, the UI's render pass, the swapchain's framebuffers, and Dear ImGui's Vulkan backend.
#include "display.h"

#include "fftbloom_spirv.h"
#include "vulkan/vulkan_device.h"

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_vulkan.h>
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

namespace fftb::viewer
{

void Display::createDeviceObjects()
{
    createFrames();
    createDisplayPipeline();
    createRenderPass();
    if (wd_.swapchain())
        createSwapchainTargets();
    else
        swapchainStale_ = true; // made by the frame loop once the window has an area
    initImGuiVulkan();
}

void Display::destroyDeviceObjects()
{
    VkDevice d = wd_.device();
    if (imguiVulkan_)
        ImGui_ImplVulkan_Shutdown();
    imguiVulkan_ = false;
    nodes_.releaseDevice();
    destroySwapchainTargets();
    destroy(input_);
    destroy(kernelView_);
    destroy(lut_);
    destroy(saveTarget_);
    destroy(readback_);
    vkDestroyRenderPass(d, std::exchange(renderPass_, VK_NULL_HANDLE), nullptr);
    vkDestroyDescriptorPool(d, std::exchange(imguiPool_, VK_NULL_HANDLE), nullptr);
    vkDestroyDescriptorPool(d, std::exchange(displayPool_, VK_NULL_HANDLE), nullptr);
    displaySets_ = {};
    destroyComputePipeline(d, displayPass_);
    vkDestroySampler(d, std::exchange(sampler_, VK_NULL_HANDLE), nullptr);
    vkDestroySampler(d, std::exchange(lutSampler_, VK_NULL_HANDLE), nullptr);
    for (Frame& f : frames_)
    {
        vkDestroyQueryPool(d, f.queries, nullptr);
        vkDestroySemaphore(d, f.imageAvailable, nullptr);
        vkDestroyFence(d, f.fence, nullptr);
        vkDestroyCommandPool(d, f.pool, nullptr);
        f = Frame{};
    }
    frameIndex_ = 0;
    vkDestroyCommandPool(d, std::exchange(oneShotPool_, VK_NULL_HANDLE), nullptr);
}

void Display::createFrames()
{
    VkDevice d = wd_.device();
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.queueFamilyIndex = wd_.queueFamily();
    pci.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    checkVulkan(vkCreateCommandPool(d, &pci, nullptr, &oneShotPool_), "vkCreateCommandPool");
    for (Frame& f : frames_)
    {
        checkVulkan(vkCreateCommandPool(d, &pci, nullptr, &f.pool), "vkCreateCommandPool");
        VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        cai.commandPool = f.pool;
        cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        cai.commandBufferCount = 1;
        checkVulkan(vkAllocateCommandBuffers(d, &cai, &f.commandBuffer), "vkAllocateCommandBuffers");
        VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        fci.flags = VK_FENCE_CREATE_SIGNALED_BIT;
        checkVulkan(vkCreateFence(d, &fci, nullptr, &f.fence), "vkCreateFence");
        VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        checkVulkan(vkCreateSemaphore(d, &sci, nullptr, &f.imageAvailable), "vkCreateSemaphore");
        if (wd_.timestamps())
        {
            VkQueryPoolCreateInfo qci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
            qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
            qci.queryCount = kQueriesPerFrame;
            checkVulkan(vkCreateQueryPool(d, &qci, nullptr, &f.queries), "vkCreateQueryPool");
        }
    }
}

void Display::createDisplayPipeline()
{
    VkDevice d = wd_.device();
    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sci.magFilter = sci.minFilter = VK_FILTER_NEAREST;
    sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    checkVulkan(vkCreateSampler(d, &sci, nullptr, &sampler_), "vkCreateSampler");
    sci.magFilter = sci.minFilter = VK_FILTER_LINEAR; // the LUT: trilinear between its nodes
    checkVulkan(vkCreateSampler(d, &sci, nullptr, &lutSampler_), "vkCreateSampler");

    const SpirvModule& spirv = kSpirvModules[0];
    ComputePipelineInfo info;
    info.code = spirv.code;
    info.codeBytes = spirv.sizeBytes;
    info.bindings = {{DISPLAY_BINDING_SHOWN, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER},
                     {DISPLAY_BINDING_TARGET, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE},
                     {DISPLAY_BINDING_COMPARED, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER},
                     {DISPLAY_BINDING_LUT, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER}};
    info.pushConstantBytes = sizeof(DisplayConstants);
    displayPass_ = createComputePipeline(d, info);

    displayPool_ = createDescriptorSets(
        d, {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 3 * kSetCount}, {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, kSetCount}},
        std::vector<VkDescriptorSetLayout>(kSetCount, displayPass_.setLayout), displaySets_.data());
    uploadLut();
}

void Display::setDisplayLut(std::vector<float> rgba, uint32_t size)
{
    lutTexels_ = std::move(rgba);
    lutSize_ = size;
    uploadLut();
    updateDisplaySets();
}

void Display::uploadLut()
{
    // Without a config, two black nodes an axis: the binding needs an image, and no tonemapper reads it.
    const uint32_t size = lutTexels_.empty() ? 2 : lutSize_;
    const std::vector<float> black(size_t(size) * size * size * 4, 0.0f);
    const std::vector<float>& texels = lutTexels_.empty() ? black : lutTexels_;
    destroy(lut_);
    lut_ = createVulkanImage(wd_.physicalDevice(), wd_.device(), size, size, VK_FORMAT_R32G32B32A32_SFLOAT,
                             VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, 1, size);
    VulkanBuffer staging =
        createHostBuffer(VkDeviceSize(texels.size() * sizeof(float)), VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    std::memcpy(staging.mapped, texels.data(), texels.size() * sizeof(float));
    submitNow([&](VkCommandBuffer cb)
              { VulkanDevice::uploadForCompute(cb, staging.buffer, lut_.image, size, size, 0, size); });
    destroy(staging);
}

void Display::createRenderPass()
{
    // The UI is drawn over the display pass's blit: loaded, then left for presentation.
    VkAttachmentDescription colour{};
    colour.format = wd_.swapchainFormat();
    colour.samples = VK_SAMPLE_COUNT_1_BIT;
    colour.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    colour.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    colour.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    colour.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    colour.initialLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    colour.finalLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass{};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &ref;
    VkSubpassDependency deps[2] = {};
    deps[0].srcSubpass = VK_SUBPASS_EXTERNAL;
    deps[0].dstSubpass = 0;
    deps[0].srcStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
    deps[0].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    deps[0].srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    deps[0].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    deps[1].srcSubpass = 0;
    deps[1].dstSubpass = VK_SUBPASS_EXTERNAL;
    deps[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    deps[1].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
    deps[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    deps[1].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    VkRenderPassCreateInfo rci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    rci.attachmentCount = 1;
    rci.pAttachments = &colour;
    rci.subpassCount = 1;
    rci.pSubpasses = &subpass;
    rci.dependencyCount = 2;
    rci.pDependencies = deps;
    checkVulkan(vkCreateRenderPass(wd_.device(), &rci, nullptr, &renderPass_), "vkCreateRenderPass");
}

void Display::createSwapchainTargets()
{
    VkDevice d = wd_.device();
    const VkExtent2D e = wd_.swapchainExtent();
    for (VkImageView view : wd_.swapchainViews())
    {
        VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
        fci.renderPass = renderPass_;
        fci.attachmentCount = 1;
        fci.pAttachments = &view;
        fci.width = e.width;
        fci.height = e.height;
        fci.layers = 1;
        VkFramebuffer fb = VK_NULL_HANDLE;
        checkVulkan(vkCreateFramebuffer(d, &fci, nullptr, &fb), "vkCreateFramebuffer");
        framebuffers_.push_back(fb);
        VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        VkSemaphore s = VK_NULL_HANDLE;
        checkVulkan(vkCreateSemaphore(d, &sci, nullptr, &s), "vkCreateSemaphore");
        renderFinished_.push_back(s);
    }
    display_ = createImage(e.width, e.height, VK_FORMAT_R8G8B8A8_UNORM,
                           VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    destroy(readback_);
    readback_ = createHostBuffer(VkDeviceSize(e.width) * e.height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    updateDisplaySets();
}

void Display::destroySwapchainTargets()
{
    for (VkFramebuffer fb : framebuffers_)
        vkDestroyFramebuffer(wd_.device(), fb, nullptr);
    for (VkSemaphore s : renderFinished_)
        vkDestroySemaphore(wd_.device(), s, nullptr);
    framebuffers_.clear();
    renderFinished_.clear();
    destroy(display_);
}

bool Display::recreateSwapchain()
{
    checkVulkan(vkDeviceWaitIdle(wd_.device()), "vkDeviceWaitIdle");
    destroySwapchainTargets();
    if (!wd_.recreateSwapchain())
        return false;
    createSwapchainTargets();
    ImGui_ImplVulkan_SetMinImageCount(wd_.minImageCount());
    swapchainStale_ = false;
    return true;
}

void Display::updateDisplaySets()
{
    const VulkanImage& a = nodes_[0].output;
    const VulkanImage& b = nodes_[1].output.view ? nodes_[1].output : a;
    if (!display_.view || !input_.view || !a.view)
        return;
    const VulkanImage& kernel = kernelView_.view ? kernelView_ : input_;
    const VkImageLayout kernelLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL; // as uploaded
    const VulkanImage& saveTarget = saveTarget_.view ? saveTarget_ : display_;
    struct Images
    {
        VkDescriptorImageInfo shown, target, compared;
    };
    const VkDescriptorImageInfo lut{lutSampler_, lut_.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    const std::array<Images, kSetCount> images = {{
        {{sampler_, a.view, VK_IMAGE_LAYOUT_GENERAL},
         {VK_NULL_HANDLE, display_.view, VK_IMAGE_LAYOUT_GENERAL},
         {sampler_, b.view, VK_IMAGE_LAYOUT_GENERAL}},
        {{sampler_, input_.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
         {VK_NULL_HANDLE, display_.view, VK_IMAGE_LAYOUT_GENERAL},
         {sampler_, input_.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}},
        {{sampler_, kernel.view, kernelLayout},
         {VK_NULL_HANDLE, display_.view, VK_IMAGE_LAYOUT_GENERAL},
         {sampler_, kernel.view, kernelLayout}},
        {{sampler_, a.view, VK_IMAGE_LAYOUT_GENERAL},
         {VK_NULL_HANDLE, saveTarget.view, VK_IMAGE_LAYOUT_GENERAL},
         {sampler_, a.view, VK_IMAGE_LAYOUT_GENERAL}},
    }};
    std::vector<VkWriteDescriptorSet> writes;
    for (size_t set = 0; set < kSetCount; ++set)
    {
        const VkDescriptorImageInfo* infos[4] = {};
        infos[DISPLAY_BINDING_SHOWN] = &images[set].shown;
        infos[DISPLAY_BINDING_TARGET] = &images[set].target;
        infos[DISPLAY_BINDING_COMPARED] = &images[set].compared;
        infos[DISPLAY_BINDING_LUT] = &lut;
        for (uint32_t binding = 0; binding < 4; ++binding)
        {
            VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            w.dstSet = displaySets_[set];
            w.dstBinding = binding;
            w.descriptorCount = 1;
            w.descriptorType = binding == DISPLAY_BINDING_TARGET ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE
                                                                 : VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
            w.pImageInfo = infos[binding];
            writes.push_back(w);
        }
    }
    vkUpdateDescriptorSets(wd_.device(), uint32_t(writes.size()), writes.data(), 0, nullptr);
}

void Display::initImGuiVulkan()
{
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 8};
    VkDescriptorPoolCreateInfo dpi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpi.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
    dpi.maxSets = 8;
    dpi.poolSizeCount = 1;
    dpi.pPoolSizes = &size;
    checkVulkan(vkCreateDescriptorPool(wd_.device(), &dpi, nullptr, &imguiPool_), "vkCreateDescriptorPool");

    ImGui_ImplVulkan_InitInfo ii{};
    ii.Instance = wd_.instance();
    ii.PhysicalDevice = wd_.physicalDevice();
    ii.Device = wd_.device();
    ii.QueueFamily = wd_.queueFamily();
    ii.Queue = wd_.queue();
    ii.DescriptorPool = imguiPool_;
    ii.Subpass = 0;
    ii.MinImageCount = wd_.minImageCount();
    ii.ImageCount = std::max(uint32_t(wd_.swapchainImages().size()), kFramesInFlight);
    ii.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
    imguiVulkan_ = ImGui_ImplVulkan_Init(&ii, renderPass_);
    if (!imguiVulkan_)
        throw ViewerError("Dear ImGui: ImGui_ImplVulkan_Init failed");
    submitNow([](VkCommandBuffer cb) { ImGui_ImplVulkan_CreateFontsTexture(cb); });
    ImGui_ImplVulkan_DestroyFontUploadObjects();
}

void Display::uploadScene(const Texels& rgba)
{
    destroy(input_);
    input_ = uploadTexels(rgba);
    for (BloomNode& node : nodes_)
        if (node.context)
            createOutput(node);
    updateDisplaySets();
}

void Display::createOutput(BloomNode& node)
{
    destroy(node.output);
    node.output =
        createImage(input_.width, input_.height, VK_FORMAT_R32G32B32A32_SFLOAT,
                    VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    submitNow([&](VkCommandBuffer cb) { VulkanDevice::prepareComputeOutput(cb, node.output.image); });
}

VulkanImage Display::uploadTexels(const Texels& rgba)
{
    VulkanImage image = createImage(uint32_t(rgba.width), uint32_t(rgba.height), VK_FORMAT_R32G32B32A32_SFLOAT,
                                    VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    VulkanBuffer staging =
        createHostBuffer(VkDeviceSize(rgba.values.size() * sizeof(float)), VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    std::memcpy(staging.mapped, rgba.values.data(), rgba.values.size() * sizeof(float));
    submitNow([&](VkCommandBuffer cb)
              { VulkanDevice::uploadForCompute(cb, staging.buffer, image.image, image.width, image.height); });
    destroy(staging);
    return image;
}

void Display::setKernelView(const Texels& texels)
{
    destroy(kernelView_);
    kernelView_ = uploadTexels(texels);
    updateDisplaySets();
}

} // namespace fftb::viewer
