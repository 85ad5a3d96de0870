// SPDX-License-Identifier: MIT
// The viewer's control panel and its keyboard and mouse input, with what they share with the frame: the scene, the
// image's placement in the window and the GPU timings.
#pragma once

#include "bloom_node.h"
#include "image/image.h"
#include "settings.h"
#include "window_device.h"

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <utility>

namespace fftb::viewer
{

/// Scene::name of the placeholder scene (no file).
inline constexpr const char* kPlaceholderScene = "placeholder scene";

/// The scene as uploaded, kept on the host to upload it again after a device loss.
struct Scene
{
    std::string name;   ///< the file's path, or kPlaceholderScene
    Texels texels;      ///< RGBA32F
    ImageLayout layout; ///< the file's windows, compression and attributes: kept when the output is saved
    /// The file's RGBA as read, where reading replaced values (NaN, negative, past 65504) in `texels`: a saved output
    /// keeps the input's finite values there, as the CLI's outputs do (restoreUnbloomed); else empty
    Texels original;
    /// The file's alpha where a mask's matte took its place in `texels` (MaskSettings): a saved output keeps it; else
    /// empty
    std::vector<float> alpha;
    /// The file's channels and layers (R, G, B, A, matte.A, matte): what the mask setting can name
    std::vector<std::string> masks;
    uint64_t generation = 0; ///< counts loaded scenes
};

/// The scene's data and display windows relative to the data window's first texel (its texels at 0 .. w - 1).
std::pair<Box2i, Box2i> sceneWindows(const Scene& scene);

/// Where the shown image lies in the window: fitted, or the user's zoom and pan.
struct Placement
{
    bool fit = true; ///< fitted and centred in the part of the window the panel leaves free
    float texelsPerPixel = 1.0f;
    float centre[2] = {0.0f, 0.0f};      ///< the image's texel shown at the free part's centre
    float viewLeft = 0.0f;               ///< window x where the free part of the window starts (right of the panel)
    float imageOrigin[2] = {0.0f, 0.0f}; ///< where the shown image's texel (0, 0) lay in the window, last frame
    /// Window x of the A/B divider: `split` of the way across the free part of the window.
    float dividerX(VkExtent2D extent, float split) const { return viewLeft + split * (float(extent.width) - viewLeft); }
    /// The centre of the free part of the window.
    float viewCentreX(VkExtent2D extent) const { return (viewLeft + float(extent.width)) * 0.5f; }
};

constexpr int kTimingWindow = 60;

/// A's GPU times read back from the frames' timestamps (milliseconds).
struct GpuTimings
{
    /// the last kTimingWindow blooms: the three FFT passes, the bloom's total and the display pass
    std::deque<std::array<double, 5>> blooms;
    double spectrumMs = 0.0; ///< the kernel spectrum, when it was last computed (0 since A's kernel changed)
};

/// Whether A's bloom is recorded every frame, or only when what it depends on changed (Settings::rerun).
bool bloomEveryFrame(const Settings& settings, const WindowDevice& wd);

/// The viewer's state that the panel reads and edits, by reference for one call (the viewer makes it each frame).
struct PanelFrame
{
    Settings& settings;  ///< A's, and the display's
    Settings& settingsB; ///< B's bloom and kernel
    const BloomNodes& nodes;
    const Scene& scene;
    const GpuTimings& timings;
    Placement& place;
    std::string& message; ///< shown: the last failure
    std::string& notice;  ///< shown: what was done
};

/// The control panel (Dear ImGui) and the keyboard and mouse: they edit the settings of A and B and the image's
/// placement, and ask the viewer to save the output and to start B. It keeps only its own state (which node it edits,
/// what is being typed); the viewer's comes with each call.
class Panel
{
  public:
    struct Actions
    {
        std::function<void()> save;   ///< saves A's output (EXR and PNG); the message or notice says how it went
        std::function<bool()> startB; ///< starts node B; false (the message set) when it cannot
    };
    /// `settings`: A's at the start (the kernel file shown).
    Panel(WindowDevice& wd, const Settings& settings, Actions actions)
        : wd_(wd), actions_(std::move(actions)), kernelFromFile_(!settings.bloom.kernel.file.empty()),
          kernelPath_(settings.bloom.kernel.file)
    {
    }

    /// The keys and the mouse (zoom, pan, the A/B divider), within Dear ImGui's frame.
    void handleInput(const PanelFrame& f);
    /// The control panel: the scene's name and windows, then one collapsing header per section.
    void draw(const PanelFrame& f);
    /// Outlines the display window over the image (ImGui's background list) when it differs from the data window.
    void drawDisplayWindow(const PanelFrame& f);
    /// Shift + drop: `path` becomes the kernel of the node the controls edit.
    void useKernelFile(const PanelFrame& f, const std::string& path);
    /// Whether the controls edit B.
    bool editB() const { return editB_; }
    /// Counts the switches between editing A and B (the kernel view follows).
    uint64_t editSwitches() const { return editSwitches_; }

  private:
    /// The keys (see drawKeysPanel), when the panel does not take them.
    void handleKeys(const PanelFrame& f);
    /// Zoom and pan, the A/B divider dragged and drawn.
    void handleMouse(const PanelFrame& f);
    void toggleEditB(const PanelFrame& f);
    void drawSceneHeader(const PanelFrame& f);
    void drawViewPanel(const PanelFrame& f);
    /// Which of A and B the controls edit.
    void drawABPanel(const PanelFrame& f);
    /// The edited node's bloom settings and its plan.
    void drawBloomPanel(const PanelFrame& f, Settings& e);
    /// The edited node's kernel: size, span, placement, and the generated PSF's aperture or a file.
    void drawKernelPanel(const PanelFrame& f, Settings& e);
    void drawGeneratedPsf(const PanelFrame& f, Settings& e);
    /// The edited node's settings as a file both tools read, and the equivalent fftbloom command.
    void drawSettingsFilePanel(const PanelFrame& f, Settings& e);
    void drawTimingPanel(const PanelFrame& f);
    void drawKeysPanel();
    /// Copies the bloom and kernel settings (not the display ones) from `from` to `to`.
    static void copySettings(const Settings& from, Settings& to);
    /// How large the kernel appears: native, pixels across, or a fraction of the frame's diagonal.
    void drawMask(const PanelFrame& f, Settings& e);
    void drawKernelSpan(const PanelFrame& f, Settings& e);
    void drawPlan(const PanelFrame& f);
    void drawTimings(const PanelFrame& f);
    Settings& edited(const PanelFrame& f) const { return editB_ ? f.settingsB : f.settings; }

    WindowDevice& wd_;
    Actions actions_;

    bool editB_ = false; // the bloom and kernel controls edit B
    uint64_t editSwitches_ = 0;
    bool showDisplayWindow_ = true; // outline the scene's display window when it differs from its data window
    bool draggingDivider_ = false;
    bool kernelFromFile_ = false; // the panel shows the kernel file's path rather than the PSF's parameters
    std::string kernelPath_;      // the path being typed
    std::string partText_;        // the part, layer and view as typed, applied on Enter
    std::string layerText_;
    std::string viewText_;
    OcioChoice ocioText_; // the OpenColorIO display, view and look as typed, applied on Enter
    std::string settingsPath_ = "fftbloom-settings.txt"; // where the panel saves the settings
};

} // namespace fftb::viewer
