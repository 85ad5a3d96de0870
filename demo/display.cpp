// SPDX-License-Identifier: MIT
// The viewer's display (display.h). Its device-level objects: frames in flight, the scene's images, the display pass's
// pipeline and descriptor sets, the UI's render pass, the swapchain's framebuffers, and Dear ImGui's Vulkan backend.
// Then one frame: bloom nodes A and B (fftbCmdBloom), the display pass into the display image, its blit to the
// swapchain image, Dear ImGui over it, the screenshot's copy; submission, presentation and the GPU timings.
#include "display.h"

#include "fftbloom_spirv.h"
#include "node/aperture_info.h"
#include "vulkan/vulkan_device.h"

#include <algorithm>
#include <array>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_vulkan.h>
#include <cmath>
#include <cstring>
#include <imgui.h>
#include <utility>

namespace fftb::viewer
{

void Display::createDeviceObjects(const DisplayFrame& state)
{
    createFrames();
    createDisplayPipeline();
    createRenderPass();
    if (wd_.swapchain())
        createSwapchainTargets(state);
    else
        swapchainStale_ = true; // made by the frame loop once the window has an area
    initImGuiVulkan();
}

void Display::destroyDeviceObjects(const DisplayFrame& state)
{
    VkDevice d = wd_.device();
    if (imguiVulkan_)
        ImGui_ImplVulkan_Shutdown();
    imguiVulkan_ = false;
    state.nodes.releaseDevice();
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

void Display::setDisplayLut(const DisplayFrame& state, std::vector<float> rgba, uint32_t size)
{
    lutTexels_ = std::move(rgba);
    lutSize_ = size;
    uploadLut();
    updateDisplaySets(state);
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

void Display::createSwapchainTargets(const DisplayFrame& state)
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
    updateDisplaySets(state);
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

bool Display::recreateSwapchain(const DisplayFrame& state)
{
    checkVulkan(vkDeviceWaitIdle(wd_.device()), "vkDeviceWaitIdle");
    destroySwapchainTargets();
    if (!wd_.recreateSwapchain())
        return false;
    createSwapchainTargets(state);
    ImGui_ImplVulkan_SetMinImageCount(wd_.minImageCount());
    swapchainStale_ = false;
    return true;
}

void Display::updateDisplaySets(const DisplayFrame& state)
{
    const VulkanImage& a = state.nodes[0].output;
    const VulkanImage& b = state.nodes[1].output.view ? state.nodes[1].output : a;
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

void Display::uploadScene(const DisplayFrame& state, const Texels& rgba)
{
    destroy(input_);
    input_ = uploadTexels(rgba);
    for (BloomNode& node : state.nodes)
        if (node.glue)
            createOutput(node);
    updateDisplaySets(state);
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

void Display::setKernelView(const DisplayFrame& state, const Texels& texels)
{
    destroy(kernelView_);
    kernelView_ = uploadTexels(texels);
    updateDisplaySets(state);
}

bool Display::drawFrame(const DisplayFrame& state, bool screenshot, int frameNumber)
{
    frameNumber_ = frameNumber;
    VkDevice d = wd_.device();
    Frame& f = frames_[frameIndex_];
    checkVulkan(wd_.waitForFence(f.fence), "vkWaitForFences");
    state.nodes.frameCompleted(f.submission);
    if (state.nodes.kernelsInstalled(0) != spectrumTimeInstalls_)
    {
        state.timings.spectrumMs = 0.0; // A's kernel changed since
        spectrumTimeInstalls_ = state.nodes.kernelsInstalled(0);
    }
    readTimestamps(state, f);

    uint32_t imageIndex = 0;
    VkResult r = vkAcquireNextImageKHR(d, wd_.swapchain(), UINT64_MAX, f.imageAvailable, VK_NULL_HANDLE, &imageIndex);
    if (r == VK_ERROR_OUT_OF_DATE_KHR)
    {
        swapchainStale_ = true;
        return false;
    }
    if (r != VK_SUBOPTIMAL_KHR)
        checkVulkan(r, "vkAcquireNextImageKHR");
    checkVulkan(vkResetFences(d, 1, &f.fence), "vkResetFences");

    VkCommandBuffer cb = f.commandBuffer;
    checkVulkan(vkResetCommandPool(d, f.pool, 0), "vkResetCommandPool");
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    checkVulkan(vkBeginCommandBuffer(cb, &bi), "vkBeginCommandBuffer");
    recordFrame(state, cb, f, imageIndex, screenshot);
    checkVulkan(vkEndCommandBuffer(cb), "vkEndCommandBuffer");

    const VkPipelineStageFlags waitStage = VK_PIPELINE_STAGE_TRANSFER_BIT; // the blit is the image's first use
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.waitSemaphoreCount = 1;
    si.pWaitSemaphores = &f.imageAvailable;
    si.pWaitDstStageMask = &waitStage;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cb;
    si.signalSemaphoreCount = 1;
    si.pSignalSemaphores = &renderFinished_[imageIndex];
    checkVulkan(vkQueueSubmit(wd_.queue(), 1, &si, f.fence), "vkQueueSubmit");
    f.submission = state.nodes.frameSubmitted();
    f.queriesWritten = f.queries != VK_NULL_HANDLE && bloomRecorded_;

    VkSwapchainKHR swapchain = wd_.swapchain();
    VkPresentInfoKHR pi{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    pi.waitSemaphoreCount = 1;
    pi.pWaitSemaphores = &renderFinished_[imageIndex];
    pi.swapchainCount = 1;
    pi.pSwapchains = &swapchain;
    pi.pImageIndices = &imageIndex;
    r = vkQueuePresentKHR(wd_.queue(), &pi);
    if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR)
        swapchainStale_ = true;
    else
        checkVulkan(r, "vkQueuePresentKHR");
    frameIndex_ = (frameIndex_ + 1) % kFramesInFlight;
    return true;
}

void Display::recordFrame(const DisplayFrame& state, VkCommandBuffer cb, Frame& f, uint32_t imageIndex, bool screenshot)
{
    const VkExtent2D extent = wd_.swapchainExtent();
    const VkImage swapchainImage = wd_.swapchainImages()[imageIndex];
    if (f.queries)
        vkCmdResetQueryPool(cb, f.queries, 0, kQueriesPerFrame);

    // Bloom nodes: A, and B for the comparison views.
    bloomRecorded_ = recordBloom(state, cb, state.nodes[0], state.settings, f.queries);
    const bool compare = comparing(state);
    if (compare)
        recordBloom(state, cb, state.nodes[1], state.settingsB, VK_NULL_HANDLE);

    // Display pass into the display image, which the previous frame's blit read.
    VulkanDevice::transition(cb, display_.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, 0,
                             VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
    const bool kernelView = state.settings.view == View::Kernel || state.settings.view == View::Spectrum;
    DisplayConstants pc = displayConstants(state, extent,
                                           kernelView ? VkExtent2D{kernelView_.width, kernelView_.height}
                                                      : VkExtent2D{input_.width, input_.height});
    placeImage(state, extent, pc, !kernelView);
    pc.mode = kernelView                                           ? DISPLAY_MODE_VALUES
              : state.settings.view == View::Split && compare      ? DISPLAY_MODE_SPLIT
              : state.settings.view == View::Difference && compare ? DISPLAY_MODE_DIFFERENCE
                                                                   : DISPLAY_MODE_SHOWN;
    pc.splitX = state.place.dividerX(extent, state.settings.split);
    pc.differenceScale = std::exp2(state.settings.differenceGain);
    const DisplaySet set = kernelView ? kSetKernel : state.settings.view == View::Input ? kSetInput : kSetBloom;
    recordDisplay(cb, set, pc);
    if (f.queries)
        vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, f.queries, FFTB_TIMESTAMP_COUNT);

    VulkanDevice::transition(cb, display_.image, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                             VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT,
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    VulkanDevice::transition(cb, swapchainImage, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                             VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_PIPELINE_STAGE_TRANSFER_BIT);
    VkImageBlit blit{};
    blit.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    blit.srcOffsets[1] = {int32_t(extent.width), int32_t(extent.height), 1};
    blit.dstSubresource = blit.srcSubresource;
    blit.dstOffsets[1] = blit.srcOffsets[1];
    vkCmdBlitImage(cb, display_.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, swapchainImage,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_NEAREST);

    // UI.
    VkRenderPassBeginInfo rbi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    rbi.renderPass = renderPass_;
    rbi.framebuffer = framebuffers_[imageIndex];
    rbi.renderArea.extent = extent;
    vkCmdBeginRenderPass(cb, &rbi, VK_SUBPASS_CONTENTS_INLINE);
    ImGui_ImplVulkan_RenderDrawData(ImGui::GetDrawData(), cb);
    vkCmdEndRenderPass(cb);

    if (screenshot)
    {
        // The presented image exactly: copied after the UI, before presentation.
        const ReadbackImageUse presented{VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, 0, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                                         VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT};
        recordImageReadback(cb, swapchainImage, extent.width, extent.height, readback_.buffer, presented);
    }
}

bool Display::recordBloom(const DisplayFrame& state, VkCommandBuffer cb, BloomNode& node, const Settings& settings,
                          VkQueryPool queries)
{
    // The settings as the plugin is given them: the bloom alone in its view, a kernel file's own extent at native
    // (KernelTexels).
    BloomSettings bloom = settings.bloom;
    if (comparing(state) ? state.settings.compareBloomOnly : state.settings.view == View::Bloom)
        bloom.frame.output = FFTB_OUTPUT_MODE_BLOOM;
    bloom.plan.kernelSpan = node.kernel.spanOn(bloom.plan.kernelSpan);
    const PlanKey planKey{input_.width, input_.height, bloom.plan};
    const BloomNode::Recorded recorded{state.scene.generation, node.applied, planKey, bloom.frame};
    const bool animated = node.applied.animated();
    if (!bloomEveryFrame(state.settings, wd_) && !animated && node.recorded == recorded)
        return false;
    if (!state.nodes.makePlan(node, planKey))
        return false;
    node.recorded = recorded;
    if (animated)
    {
        // The eye mode: the kernel made on the GPU, its particles placed anew each frame, the pupil the kernel was made
        // for (KernelKey::generatorAiryRadius).
        const KernelKey& k = node.applied;
        PsfParams design = k.kernel.psfDesign();
        design.airyRadiusTexels = k.generatorAiryRadius;
        FftbApertureInfo eye = apertureInfoOf(design);
        eye.seed = k.kernel.aperture.seed + uint32_t(frameNumber_);
        node.glue->clearMessage();
        if (const FftbResult r = fftbCmdGenerateKernel(node.glue->context(), cb, &eye, node.glue->kernel());
            r != FFTB_SUCCESS)
            failRecording(node, r, "fftbCmdGenerateKernel");
    }
    // The output image was read by the previous frame's display pass.
    VulkanDevice::transition(cb, node.output.image, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL,
                             VK_ACCESS_SHADER_READ_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
    FftbTimestampInfo ti{FFTB_STRUCTURE_TYPE_TIMESTAMP_INFO};
    ti.queryPool = queries;
    ti.firstQuery = 0;
    FftbBloomInfo bi = bloomInfoOf(bloom.frame);
    bi.pNext = queries ? &ti : nullptr;
    bi.inputView = input_.view;
    bi.outputView = node.output.view;
    bi.inputExtent = {input_.width, input_.height};
    bi.outputExtent = {node.output.width, node.output.height};
    node.glue->clearMessage();
    if (const FftbResult r = fftbCmdBloom(node.plan, cb, &bi); r != FFTB_SUCCESS)
        failRecording(node, r, "fftbCmdBloom");
    VulkanDevice::transition(cb, node.output.image, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL,
                             VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT,
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
    return true;
}

DisplayConstants Display::displayConstants(const DisplayFrame& state, VkExtent2D target, VkExtent2D image) const
{
    DisplayConstants pc{};
    pc.texelsPerPixel = 1.0f;
    pc.exposureScale = std::exp2(state.settings.exposure);
    pc.imageExtent.x = int32_t(image.width);
    pc.imageExtent.y = int32_t(image.height);
    pc.targetExtent.x = int32_t(target.width);
    pc.targetExtent.y = int32_t(target.height);
    static_assert(int(Tonemapper::AcesFitted) == DISPLAY_TONEMAP_ACES_FITTED &&
                  int(Tonemapper::AcesHill) == DISPLAY_TONEMAP_ACES_HILL &&
                  int(Tonemapper::Reinhard) == DISPLAY_TONEMAP_REINHARD &&
                  int(Tonemapper::Clamp) == DISPLAY_TONEMAP_CLAMP && int(Tonemapper::Ocio) == DISPLAY_TONEMAP_OCIO);
    pc.tonemapper = int32_t(state.settings.tonemapper);
    pc.encodeSrgb = wd_.swapchainSrgb() ? 0 : 1;
    return pc;
}

void Display::recordDisplay(VkCommandBuffer cb, DisplaySet set, const DisplayConstants& pc)
{
    bindComputePipeline(cb, displayPass_, displaySets_[set], &pc, sizeof(pc));
    const uint32_t size = DISPLAY_WORKGROUP_SIZE;
    vkCmdDispatch(cb, (uint32_t(pc.targetExtent.x) + size - 1) / size, (uint32_t(pc.targetExtent.y) + size - 1) / size,
                  1);
}

void Display::placeImage(const DisplayFrame& state, VkExtent2D extent, DisplayConstants& pc, bool scene)
{
    const float w = float(pc.imageExtent.x), h = float(pc.imageExtent.y);
    if (state.place.fit)
    {
        // The scene fitted with its display window: the frame as composed, and whatever data lies outside it.
        float x0 = 0.0f, y0 = 0.0f, x1 = w, y1 = h;
        if (scene)
        {
            const Box2i display = sceneWindows(state.scene).second;
            x0 = std::min(x0, float(display.minX));
            y0 = std::min(y0, float(display.minY));
            x1 = std::max(x1, float(display.maxX + 1));
            y1 = std::max(y1, float(display.maxY + 1));
        }
        state.place.texelsPerPixel =
            std::max((x1 - x0) / (float(extent.width) - state.place.viewLeft), (y1 - y0) / float(extent.height));
        state.place.centre[0] = (x0 + x1) * 0.5f;
        state.place.centre[1] = (y0 + y1) * 0.5f;
    }
    pc.texelsPerPixel = state.place.texelsPerPixel;
    pc.imageOrigin.x = state.place.viewCentreX(extent) - state.place.centre[0] / state.place.texelsPerPixel;
    pc.imageOrigin.y = float(extent.height) * 0.5f - state.place.centre[1] / state.place.texelsPerPixel;
    state.place.imageOrigin[0] = scene ? pc.imageOrigin.x : NAN;
    state.place.imageOrigin[1] = pc.imageOrigin.y;
}

void Display::readTimestamps(const DisplayFrame& state, Frame& f)
{
    if (!f.queriesWritten)
        return;
    f.queriesWritten = false;
    std::array<uint64_t, kQueriesPerFrame> t{};
    if (vkGetQueryPoolResults(wd_.device(), f.queries, 0, kQueriesPerFrame, sizeof(t), t.data(), sizeof(uint64_t),
                              VK_QUERY_RESULT_64_BIT) != VK_SUCCESS)
        return;
    const double msPerTick = double(wd_.properties().limits.timestampPeriod) * 1e-6;
    auto ms = [&](int a, int b) { return double(t[size_t(b)] - t[size_t(a)]) * msPerTick; };
    if (t[1] != t[0])
        state.timings.spectrumMs = ms(0, 1);
    state.timings.blooms.push_back({ms(1, 2), ms(2, 3), ms(3, 4), ms(1, 4), ms(4, 5)});
    if (state.timings.blooms.size() > kTimingWindow)
        state.timings.blooms.pop_front();
}

SavedOutput Display::readBackOutput(const DisplayFrame& state)
{
    const uint32_t w = input_.width, h = input_.height;
    checkVulkan(vkDeviceWaitIdle(wd_.device()), "vkDeviceWaitIdle");
    if (saveTarget_.width != w || saveTarget_.height != h)
    {
        destroy(saveTarget_);
        saveTarget_ =
            createImage(w, h, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
        updateDisplaySets(state);
    }
    VulkanBuffer hdr = createHostBuffer(VkDeviceSize(w) * h * 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VulkanBuffer ldr = createHostBuffer(VkDeviceSize(w) * h * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    const VulkanImage& out = state.nodes[0].output;
    submitNow(
        [&](VkCommandBuffer cb)
        {
            VulkanDevice::transition(cb, saveTarget_.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, 0,
                                     VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
            DisplayConstants pc = displayConstants(state, {w, h}, {w, h});
            pc.encodeSrgb = 1; // a PNG holds sRGB-encoded values whatever the swapchain does
            recordDisplay(cb, kSetSave, pc);
            recordImageReadback(cb, saveTarget_.image, w, h, ldr.buffer);
            recordImageReadback(cb, out.image, w, h, hdr.buffer);
        });
    SavedOutput saved{w, h, std::vector<float>(size_t(w) * h * 4), std::vector<unsigned char>(size_t(w) * h * 4),
                      state.nodes[0].recorded ? state.nodes[0].recorded->frame : state.settings.bloom.frame};
    std::memcpy(saved.rgba.data(), hdr.mapped, saved.rgba.size() * sizeof(float));
    std::memcpy(saved.srgb.data(), ldr.mapped, saved.srgb.size());
    destroy(hdr);
    destroy(ldr);
    return saved;
}

} // namespace fftb::viewer
