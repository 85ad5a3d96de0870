// SPDX-License-Identifier: MIT
// One frame: bloom nodes A and B (fftbCmdBloom), the display pass into the display image, its blit to the
// swapchain image, Dear ImGui over it, the screenshot's copy; submission, presentation and the GPU timings.
#include "display.h"

#include "runner/aperture_info.h"
#include "vulkan/vulkan_device.h"

#include <backends/imgui_impl_vulkan.h>
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

namespace fftb::viewer
{

bool Display::drawFrame(bool screenshot, int frameNumber)
{
    frameNumber_ = frameNumber;
    VkDevice d = wd_.device();
    Frame& f = frames_[frameIndex_];
    checkVulkan(wd_.waitForFence(f.fence), "vkWaitForFences");
    nodes_.frameCompleted(f.submission);
    if (nodes_.kernelsInstalled(0) != spectrumTimeInstalls_)
    {
        timings_.spectrumMs = 0.0; // A's kernel changed since
        spectrumTimeInstalls_ = nodes_.kernelsInstalled(0);
    }
    readTimestamps(f);

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
    recordFrame(cb, f, imageIndex, screenshot);
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
    f.submission = nodes_.frameSubmitted();
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

void Display::recordFrame(VkCommandBuffer cb, Frame& f, uint32_t imageIndex, bool screenshot)
{
    const VkExtent2D extent = wd_.swapchainExtent();
    const VkImage swapchainImage = wd_.swapchainImages()[imageIndex];
    if (f.queries)
        vkCmdResetQueryPool(cb, f.queries, 0, kQueriesPerFrame);

    // Bloom nodes: A, and B for the comparison views.
    bloomRecorded_ = recordBloom(cb, nodes_[0], settings_, f.queries);
    const bool compare = comparing();
    if (compare)
        recordBloom(cb, nodes_[1], settingsB_, VK_NULL_HANDLE);

    // Display pass into the display image, which the previous frame's blit read.
    VulkanDevice::transition(cb, display_.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, 0,
                             VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
    const bool kernelView = settings_.view == View::Kernel || settings_.view == View::Spectrum;
    DisplayConstants pc = displayConstants(extent, kernelView ? VkExtent2D{kernelView_.width, kernelView_.height}
                                                              : VkExtent2D{input_.width, input_.height});
    placeImage(extent, pc, !kernelView);
    pc.mode = kernelView                                      ? DISPLAY_MODE_VALUES
              : settings_.view == View::Split && compare      ? DISPLAY_MODE_SPLIT
              : settings_.view == View::Difference && compare ? DISPLAY_MODE_DIFFERENCE
                                                              : DISPLAY_MODE_SHOWN;
    pc.splitX = place_.dividerX(extent, settings_.split);
    pc.differenceScale = std::exp2(settings_.differenceGain);
    const DisplaySet set = kernelView ? kSetKernel : settings_.view == View::Input ? kSetInput : kSetBloom;
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

bool Display::recordBloom(VkCommandBuffer cb, BloomNode& node, const Settings& settings, VkQueryPool queries)
{
    // The settings as the plugin is given them: the bloom alone in its view, the knee no wider than the threshold
    // (whichever was set last), a kernel file's own extent at native (MadeKernel).
    BloomSettings bloom = settings.bloom;
    if (comparing() ? settings_.compareBloomOnly : settings_.view == View::Bloom)
        bloom.output = FFTB_OUTPUT_MODE_BLOOM;
    bloom.prefilter.knee = std::min(bloom.prefilter.knee, bloom.prefilter.threshold);
    if (bloom.kernelSpan.native())
        bloom.kernelSpan = node.nativeSpan;
    const PlanKey planKey{input_.width, input_.height, bloom};
    const BloomNode::Recorded state{scene_.generation, node.applied, planKey, bloom};
    const bool animated = node.applied.animated();
    if (!bloomEveryFrame(settings_, wd_) && !animated && node.recorded == state)
        return false;
    if (!nodes_.growForSpan(node, planKey) || !nodes_.makePlan(node, planKey))
        return false;
    node.recorded = state;
    if (animated)
    {
        // The eye mode: the kernel made on the GPU, its particles placed anew each frame, the pupil the kernel was made
        // for (KernelKey::generatorAiryRadius).
        const KernelKey& k = node.applied;
        PsfParams design = k.kernel.psfDesign();
        design.airyRadiusTexels = k.generatorAiryRadius;
        FftbApertureInfo eye = apertureInfoOf(design);
        eye.seed = k.kernel.aperture.seed + uint32_t(frameNumber_);
        if (const FftbResult r = node.context.cmdGenerateKernel(cb, eye, node.psf.get(), std::nothrow);
            r != FFTB_SUCCESS)
        {
            throwIfDeviceLost(node, r, "fftbCmdGenerateKernel");
            throw ViewerError(std::string("fftbCmdGenerateKernel: ") + fftbResultToString(r) + " (" +
                              node.pluginMessage + ")");
        }
    }
    // The output image was read by the previous frame's display pass.
    VulkanDevice::transition(cb, node.output.image, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL,
                             VK_ACCESS_SHADER_READ_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
    FftbTimestampInfo ti{FFTB_STRUCTURE_TYPE_TIMESTAMP_INFO};
    ti.queryPool = queries;
    ti.firstQuery = 0;
    FftbBloomInfo bi = bloomInfoOf(bloom);
    bi.pNext = queries ? &ti : nullptr;
    bi.inputView = input_.view;
    bi.outputView = node.output.view;
    bi.inputExtent = {input_.width, input_.height};
    bi.outputExtent = {node.output.width, node.output.height};
    if (const FftbResult r = node.plan.cmdBloom(cb, bi, std::nothrow); r != FFTB_SUCCESS)
    {
        throwIfDeviceLost(node, r, "fftbCmdBloom");
        throw ViewerError(std::string("fftbCmdBloom: ") + fftbResultToString(r) + " (" + node.pluginMessage + ")");
    }
    VulkanDevice::transition(cb, node.output.image, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL,
                             VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT,
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
    return true;
}

DisplayConstants Display::displayConstants(VkExtent2D target, VkExtent2D image) const
{
    DisplayConstants pc{};
    pc.texelsPerPixel = 1.0f;
    pc.exposureScale = std::exp2(settings_.exposure);
    pc.imageExtent.x = int32_t(image.width);
    pc.imageExtent.y = int32_t(image.height);
    pc.targetExtent.x = int32_t(target.width);
    pc.targetExtent.y = int32_t(target.height);
    static_assert(int(Tonemapper::AcesFitted) == DISPLAY_TONEMAP_ACES_FITTED &&
                  int(Tonemapper::AcesHill) == DISPLAY_TONEMAP_ACES_HILL &&
                  int(Tonemapper::Reinhard) == DISPLAY_TONEMAP_REINHARD &&
                  int(Tonemapper::Clamp) == DISPLAY_TONEMAP_CLAMP && int(Tonemapper::Ocio) == DISPLAY_TONEMAP_OCIO);
    pc.tonemapper = int32_t(settings_.tonemapper);
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

void Display::placeImage(VkExtent2D extent, DisplayConstants& pc, bool scene)
{
    const float w = float(pc.imageExtent.x), h = float(pc.imageExtent.y);
    if (place_.fit)
    {
        // The scene fitted with its display window: the frame as composed, and whatever data lies outside it.
        float x0 = 0.0f, y0 = 0.0f, x1 = w, y1 = h;
        if (scene)
        {
            const Box2i display = sceneWindows(scene_).second;
            x0 = std::min(x0, float(display.minX));
            y0 = std::min(y0, float(display.minY));
            x1 = std::max(x1, float(display.maxX + 1));
            y1 = std::max(y1, float(display.maxY + 1));
        }
        place_.texelsPerPixel =
            std::max((x1 - x0) / (float(extent.width) - place_.viewLeft), (y1 - y0) / float(extent.height));
        place_.centre[0] = (x0 + x1) * 0.5f;
        place_.centre[1] = (y0 + y1) * 0.5f;
    }
    pc.texelsPerPixel = place_.texelsPerPixel;
    pc.imageOrigin.x = place_.viewCentreX(extent) - place_.centre[0] / place_.texelsPerPixel;
    pc.imageOrigin.y = float(extent.height) * 0.5f - place_.centre[1] / place_.texelsPerPixel;
    place_.imageOrigin[0] = scene ? pc.imageOrigin.x : NAN;
    place_.imageOrigin[1] = pc.imageOrigin.y;
}

void Display::readTimestamps(Frame& f)
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
        timings_.spectrumMs = ms(0, 1);
    timings_.blooms.push_back({ms(1, 2), ms(2, 3), ms(3, 4), ms(1, 4), ms(4, 5)});
    if (timings_.blooms.size() > kTimingWindow)
        timings_.blooms.pop_front();
}

SavedOutput Display::readBackOutput()
{
    const uint32_t w = input_.width, h = input_.height;
    checkVulkan(vkDeviceWaitIdle(wd_.device()), "vkDeviceWaitIdle");
    if (saveTarget_.width != w || saveTarget_.height != h)
    {
        destroy(saveTarget_);
        saveTarget_ =
            createImage(w, h, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
        updateDisplaySets();
    }
    VulkanBuffer hdr = createHostBuffer(VkDeviceSize(w) * h * 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VulkanBuffer ldr = createHostBuffer(VkDeviceSize(w) * h * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    const VulkanImage& out = nodes_[0].output;
    submitNow(
        [&](VkCommandBuffer cb)
        {
            VulkanDevice::transition(cb, saveTarget_.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, 0,
                                     VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
            DisplayConstants pc = displayConstants({w, h}, {w, h});
            pc.encodeSrgb = 1; // a PNG holds sRGB-encoded values whatever the swapchain does
            recordDisplay(cb, kSetSave, pc);
            recordImageReadback(cb, saveTarget_.image, w, h, ldr.buffer);
            recordImageReadback(cb, out.image, w, h, hdr.buffer);
        });
    SavedOutput saved{w, h, std::vector<float>(size_t(w) * h * 4), std::vector<unsigned char>(size_t(w) * h * 4)};
    std::memcpy(saved.rgba.data(), hdr.mapped, saved.rgba.size() * sizeof(float));
    std::memcpy(saved.srgb.data(), ldr.mapped, saved.srgb.size());
    destroy(hdr);
    destroy(ldr);
    return saved;
}

} // namespace fftb::viewer
