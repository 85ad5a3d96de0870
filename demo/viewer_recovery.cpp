// SPDX-License-Identifier: MIT
// Device loss: every object made on the device destroyed, a new device made, and what the viewer keeps on the host
// (the scene, the kernels, the settings) uploaded again, so that the image stays and the panel says what happened.
#include "viewer_internal.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <string>

namespace fftb::viewer
{

void Viewer::recoverFromDeviceLoss(const VulkanError& loss)
{
    // A loss found while the panel was being built: its frame is closed so that the next one starts cleanly.
    if (ImGui::GetCurrentContext()->WithinFrameScope)
    {
        ImGui::ErrorCheckEndFrameRecover(nullptr);
        ImGui::EndFrame();
    }
    const bool withB = bool(nodes_[1].context);
    vkDeviceWaitIdle(wd_.device()); // VK_ERROR_DEVICE_LOST at once on a lost device: nothing more is pending
    destroyDeviceObjects();
    try
    {
        wd_.recreateDevice();
        checkScreenshotSupport();
        createDeviceObjects();
        uploadHostCopies(withB);
    }
    catch (const std::exception& e)
    {
        throw ViewerError(std::string("the GPU device was lost (") + loss.what() +
                          ") and could not be re-created: " + e.what());
    }
    message_ = std::string("The GPU device was lost and has been re-created; the image and the kernels were "
                           "uploaded again (") +
               loss.what() + ")";
}

void Viewer::uploadHostCopies(bool withB)
{
    const uint32_t w = uint32_t(scene_.width), h = uint32_t(scene_.height);
    for (size_t i = 0; i < (withB ? 2u : 1u); ++i)
    {
        BloomNode& node = nodes_[i];
        if (!growContext(node, w, h, 0, i == 0 ? "A" : "B") ||
            (!node.kernel.values.empty() && !createKernel(node, node.kernel, node.applied, node.psf)))
            throw ViewerError(message_);
    }
    uploadScene(scene_);
}

} // namespace fftb::viewer
