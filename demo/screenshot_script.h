// SPDX-License-Identifier: MIT
// The viewer's screenshot mode (--screenshot: the tests' and the documentation's way to run it): a number of frames,
// the changes made after half of them, the last presented image written as a PNG.
#pragma once

#include "viewer.h"
#include "vulkan/vulkan_resources.h"
#include "window_device.h"

#include <atomic>
#include <functional>
#include <string>
#include <thread>

namespace fftb::viewer
{

/// What the script asks of the viewer after half the frames.
struct ScriptHooks
{
    std::function<void(const std::string&)> drop; ///< opens the file as if dropped on the window (--drop)
    /// applies key=value, b.KEY for B, as the panel would (--later); throws ViewerError when it is refused
    std::function<void(const std::string&)> setting;
};

/// The screenshot mode of ViewerOptions: inactive without --screenshot. After half of `frames` it resizes the window
/// (--resize), drops a file (--drop), minimizes the window for a time (--minimize) and applies settings (--later);
/// the last frame is read back and written as a PNG.
class ScreenshotScript
{
  public:
    ScreenshotScript(WindowDevice& wd, const ViewerOptions& options) : wd_(wd), options_(options) {}

    /// Whether --screenshot was given.
    bool active() const { return !options_.screenshotPath.empty(); }
    /// Throws ViewerError when active and the window's swapchain images cannot be copied from.
    void checkSupport() const;
    /// At the start of each pass of the frame loop: once `frameNumber` frames (half of them) were presented, the
    /// changes.
    void beforePass(int frameNumber, const ScriptHooks& hooks);
    /// Whether this pass of the frame loop counts the window as minimized by --minimize (it draws nothing); once the
    /// time is over, the window is restored and the passes meanwhile are reported on stdout.
    bool minimizedPass();
    /// Whether frame `frameNumber` (counting from 0) is the last: it is read back, the panel's text printed with
    /// --print-panel.
    bool lastFrame(int frameNumber) const { return active() && frameNumber + 1 >= options_.frames; }
    /// Writes the last presented image, read back into `readback` (the swapchain's extent and format), as the PNG.
    void writeScreenshot(const VulkanBuffer& readback) const;

  private:
    /// --minimize: iconifies the window and counts it as minimized for ViewerOptions::minimizeSeconds.
    void startMinimizing();
    /// Resizes the window and waits (up to 5 s) until the window system has applied it, so that a screenshot taken
    /// a few frames later has the new size.
    void resizeWindow(int width, int height);

    WindowDevice& wd_;
    const ViewerOptions& options_;
    bool halfwayDone_ = false;              // the changes after half the frames were made
    bool simulatedMinimize_ = false;        // within --minimize
    std::atomic<bool> minimizeOver_{false}; // set by minimizeTimer_ when --minimize's time is over
    std::jthread minimizeTimer_;
    int minimizedPasses_ = 0; // passes of the frame loop while minimized
};

} // namespace fftb::viewer
