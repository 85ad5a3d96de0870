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
    display_.destroyDeviceObjects();
    kernelViewStale_ = true;
    try
    {
        wd_.recreateDevice();
        checkScreenshotSupport();
        display_.createDeviceObjects();
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
    const uint32_t w = uint32_t(scene_.texels.width), h = uint32_t(scene_.texels.height);
    for (size_t i = 0; i < (withB ? 2u : 1u); ++i)
    {
        BloomNode& node = nodes_[i];
        if (!nodes_.growContext(node, w, h, 0, nodes_.name(node)) ||
            (!node.kernel.values.empty() && !nodes_.createKernel(node, node.kernel, node.applied, node.psf)))
            throw ViewerError(message_);
    }
    display_.uploadScene(scene_.texels);
}

} // namespace fftb::viewer
