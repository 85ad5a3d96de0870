// SPDX-License-Identifier: MIT
// The screenshot mode: the changes after half the frames, the simulated minimize, the PNG of the last frame.
#include "screenshot_script.h"

#include "message.h"

#include <GLFW/glfw3.h>
#include <stb_image_write.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

namespace fftb::viewer
{

void ScreenshotScript::checkSupport() const
{
    if (active() && !wd_.swapchainReadable())
        throw ViewerError("--screenshot: the window's swapchain images cannot be copied from "
                          "(no VK_IMAGE_USAGE_TRANSFER_SRC_BIT)");
}

void ScreenshotScript::beforePass(int frameNumber, const ScriptHooks& hooks)
{
    if (!active() || halfwayDone_ || frameNumber != options_.frames / 2)
        return;
    halfwayDone_ = true;
    if (options_.resizeWidth > 0)
        resizeWindow(options_.resizeWidth, options_.resizeHeight);
    if (!options_.dropPath.empty())
        hooks.drop(options_.dropPath);
    if (options_.minimizeSeconds > 0.0)
        startMinimizing();
    for (const std::string& keyValue : options_.laterSettings)
        hooks.setting(keyValue);
}

void ScreenshotScript::startMinimizing()
{
    // A window system with a window manager iconifies the window; Xvfb alone (the tests) has none to do it and
    // leaves the window as it is. Either way the frame loop counts the window as minimized until the time is over:
    // what runs is its minimized branch (no acquire, no submission, no present, a blocking wait for events) and the
    // return to drawing with the swapchain it had. Not exercised: a surface whose extent drops to 0 x 0, and the
    // window system's own iconify and restore events.
    glfwIconifyWindow(wd_.window());
    simulatedMinimize_ = true;
    minimizedPasses_ = 0;
    minimizeTimer_ = std::jthread(
        [this, seconds = options_.minimizeSeconds]
        {
            std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
            minimizeOver_ = true;
            glfwPostEmptyEvent(); // wakes the frame loop's wait, as the restore's events would
        });
}

bool ScreenshotScript::minimizedPass()
{
    if (!simulatedMinimize_)
        return false;
    if (!minimizeOver_)
    {
        ++minimizedPasses_;
        return true;
    }
    simulatedMinimize_ = false;
    glfwRestoreWindow(wd_.window());
    std::printf("fftbloom-viewer: --minimize: %d pass(es) of the frame loop in %.2f s minimized\n", minimizedPasses_,
                options_.minimizeSeconds);
    std::fflush(stdout);
    return false;
}

void ScreenshotScript::resizeWindow(int width, int height)
{
    glfwSetWindowSize(wd_.window(), width, height);
    const double start = glfwGetTime();
    int w = 0, h = 0;
    do
    {
        glfwWaitEventsTimeout(0.05);
        glfwGetFramebufferSize(wd_.window(), &w, &h);
    } while ((w != width || h != height) && glfwGetTime() - start < 5.0);
    if (w != width || h != height)
        throw ViewerError("--resize: the window system kept the window at " + std::to_string(w) + "x" +
                          std::to_string(h));
}

void ScreenshotScript::writeScreenshot(const VulkanBuffer& readback) const
{
    const VkExtent2D e = wd_.swapchainExtent();
    const VkFormat format = wd_.swapchainFormat();
    std::vector<unsigned char> rgba(size_t(e.width) * e.height * 4);
    std::memcpy(rgba.data(), readback.mapped, rgba.size());
    const bool bgra = format == VK_FORMAT_B8G8R8A8_UNORM || format == VK_FORMAT_B8G8R8A8_SRGB;
    for (size_t i = 0; i < rgba.size(); i += 4)
    {
        if (bgra)
            std::swap(rgba[i], rgba[i + 2]);
        rgba[i + 3] = 255; // the window is opaque
    }
    const std::string& path = options_.screenshotPath;
    if (!stbi_write_png(path.c_str(), int(e.width), int(e.height), 4, rgba.data(), int(e.width) * 4))
        throw ViewerError(path + ": cannot write the PNG");
}

} // namespace fftb::viewer
