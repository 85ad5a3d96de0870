// SPDX-License-Identifier: MIT
// The viewer: it owns the bloom nodes (BloomNodes, bloom_node.h), the panel (Panel, panel.h) and the device-level
// objects and the frame (Display, display.h); its own parts in viewer.cpp (set-up, the frame loop, the scene, B and
// the kernel view, device loss). Reading and writing files: viewer_files.cpp.
// The bloom node uses the plugin exactly as an engine would: fftbloom::Context, fftbloom::Kernel made when the kernel
// changes, fftbloom::BloomPlan made when the frame's extent, a plan-lifetime setting or the kernel changes,
// fftbCmdBloom of the plan into the frame's command buffer with the per-frame values and timestamps chained; a
// replaced plan or kernel is destroyed once the frames in flight that use it have completed.
#pragma once

#include "bloom_node.h"
#include "display.h"
#include "panel.h"
#include "screenshot_script.h"
#include "viewer.h"

#include <cstdint>
#include <optional>
#include <string>

namespace fftb::viewer
{

/// A placeholder scene when no image could be read: point lights of a few colours on a dim gradient.
Texels placeholderScene();
/// A scene file as the viewer blooms it (readScene).
struct SceneFile
{
    Texels rgba;              ///< RGBA texels, scrubbed (scrubRgb); with a mask, its matte in alpha (setMaskAlpha)
    ImageLayout layout;       ///< the file's
    std::string notice;       ///< how many values scrubbing replaced; empty when none
    Texels original;          ///< the texels as read where scrubbing replaced some (Scene::original), else empty
    std::vector<float> alpha; ///< the file's alpha where a mask took its place in `rgba` (Scene::alpha), else empty
    std::vector<std::string> masks; ///< the file's channels and layers a mask can name (Scene::masks)
};

/// The image at `path` (EXR or .hdr; of an EXR the part, layer and view `selection` names, readImage) as RGBA texels,
/// NaN, negative and too-large values replaced (scrubRgb); with `mask` active, its matte in alpha (frameMask: a
/// channel or layer of the image, or a file without a frame placeholder, or with one the frame number of `path`).
/// Throws with the reason when it or its mask cannot be read.
SceneFile readScene(const std::string& path, const ImageSelection& selection, const MaskSettings& mask);
/// The name, without extension, of the `n`-th (1, 2, ...) saved output of the scene file `scene`, keeping a sequence's
/// naming: shot.1001.exr gives shot_bloom.1001, then shot_bloom-2.1001, ... (outputPathFor's {stem} and {frame});
/// photo.exr gives photo_bloom, photo_bloom-2, ...
std::string savedName(const std::string& scene, int n);
/// Writes `saved` as savedName(scene).exr (half floats, R, G, B, A; the scene file's data and display windows,
/// compression and attributes, and `settings` as a settings file in the string attribute kSettingsAttribute; the
/// scene's original values where reading replaced them, restoreUnbloomed) and .png (the tonemapped values) in the
/// working folder (the next n rather than overwriting). Returns the notice naming them; throws with the reason when
/// either cannot be written.
std::string writeOutput(const SavedOutput& saved, const Scene& scene, const Settings& settings);

class Viewer
{
  public:
    Viewer(WindowDevice& wd, const ViewerOptions& options)
        : wd_(wd), options_(options), settings_(options.settings), settingsB_(options.settingsB),
          nodes_(wd, message_, !options.screenshotPath.empty()),
          panel_(wd, settings_, {[this] { save(); }, [this] { return startB(); }}), display_(wd), script_(wd, options)
    {
    }
    /// Creates everything and loads the first image and kernel. Apart from the constructor so that the destructor
    /// releases what was made when this throws.
    void start();
    ~Viewer();
    int run();

  private:
    // ---- The frame loop (viewer.cpp) --------------------------------------------------------------------------------
    /// One pass of the frame loop: events, the screenshot mode's halfway changes, then a frame unless the window is
    /// minimized. False once the screenshot is written.
    bool step();
    /// The screenshot mode's hooks: a file dropped, a setting applied (--later) as the panel would.
    ScriptHooks scriptHooks();
    /// While no control is being dragged: kernels whose settings changed made and handed over, B started for the
    /// comparison views, the kernel view made again when it changed.
    void updateNodes();
    /// Whether the window is minimized: no area, or iconified.
    bool minimized() const;

    /// Dear ImGui's context and GLFW backend (the device-independent part, made once).
    void initImGui();
    /// The state the display reads and records, for one call.
    DisplayFrame displayFrame() { return {settings_, settingsB_, nodes_, scene_, place_, timings_}; }
    /// The state the panel reads and edits, for one call.
    PanelFrame panelFrame() { return {settings_, settingsB_, nodes_, scene_, timings_, place_, message_, notice_}; }

    // ---- The scene and saving (viewer.cpp) --------------------------------------------------------------------------
    /// Uploads `rgba` as the scene (kept on the host too, for a device loss) and grows the bloom contexts to its
    /// extent; false (message set, the previous scene kept) when the plugin cannot bloom a frame that large.
    bool loadScene(Texels rgba, const std::string& name, const ImageLayout& layout = {});
    /// Reads `path` (the part and layer of settings' selection); on failure sets the message, keeps the previous image
    /// and puts back the selection it was read with.
    bool loadImage(const std::string& path);
    /// Writes A's output as the last frame made it (writeOutput) and through the display pass's exposure and
    /// tonemapper; the notice or the message says how it went.
    void save();

    // ---- Device loss (viewer.cpp) ----------------------------------------------------------------------------------
    /// After `loss` (a VulkanError with VK_ERROR_DEVICE_LOST): every device-level object destroyed, a new device made
    /// (WindowDevice::recreateDevice), the scene and the kernels uploaded again from their host copies, and a message
    /// in the panel. Throws ViewerError, one line naming the loss and the reason, when no device can be made.
    void recoverFromDeviceLoss(const VulkanError& loss);
    /// The bloom nodes' contexts and kernels and the scene, made again from the host copies on a new device.
    void uploadHostCopies(bool withB);

    // ---- B and the kernel view (viewer.cpp) -------------------------------------------------------------------------
    /// Starts node B (the comparison views) on first use: its context, kernel and output image.
    bool startB();
    /// The kernel view (kernelViewTexels) of the node the controls edit, uploaded for the display pass.
    void makeKernelView();
    /// vkDeviceWaitIdle: every frame has completed, and everything retired is destroyed.
    void waitIdle() { nodes_.waitIdle(); }
    /// The OpenColorIO display transform of settings_.ocio baked and handed to the display pass; on failure the
    /// reason in the panel and the ACES fitted tonemap (with --screenshot: ViewerError).
    void updateDisplayLut();

    WindowDevice& wd_;
    const ViewerOptions& options_;
    Settings settings_;
    std::string message_;                 // shown in the UI: the last failure
    std::string notice_;                  // shown in the UI: what was done to the scene on loading
    std::string pendingLoad_;             // a dropped file, opened at the start of the next frame
    ImageSelection loaded_;               // the part and layer the scene's file was read with
    std::string loadedMask_;              // the mask source the scene's file was read with
    std::optional<OcioChoice> lutChoice_; // the display, view and look the display pass's LUT was baked for
    Scene scene_;
    Placement place_;
    GpuTimings timings_;

    Settings settingsB_;
    BloomNodes nodes_;
    Panel panel_;
    Display display_;
    ScreenshotScript script_;

    bool kernelViewStale_ = true;
    View kernelViewShows_ = View::Kernel;
    uint64_t kernelViewChanges_ = 0; // kernels installed and A/B switches, as of the kernel view's last check
    bool imguiGlfw_ = false;

    int frameNumber_ = 0; // frames presented
};

} // namespace fftb::viewer
