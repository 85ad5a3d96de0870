// SPDX-License-Identifier: MIT
// fftbloom-viewer: a frame graph of scene input -> bloom (the plugin) -> display pass -> Dear ImGui -> present.
#pragma once

#include "settings.h"
#include "window_device.h"

#include <string>
#include <vector>

namespace fftb::viewer
{

struct ViewerOptions
{
    std::string imagePath;      ///< EXR or .hdr; empty: the bundled sample photograph
    Settings settings;          ///< initial settings (--settings)
    Settings settingsB;         ///< B's initial bloom and kernel settings, for the comparison views
    std::string screenshotPath; ///< non-empty: render `frames` frames, write the last presented one as PNG, exit
    int frames = 8;
    int resizeWidth = 0; ///< with a screenshot and > 0: the window is resized to this after half the frames
    int resizeHeight = 0;
    std::vector<std::string> laterSettings; ///< with a screenshot: key=value applied after half the frames, as the
                                            ///< panel would
    std::string dropPath; ///< with a screenshot: opened after half the frames as if dropped on the window
    /// With a screenshot and > 0: after half the frames the window is minimized for this many seconds, then restored
    /// (see Viewer::startMinimizing); the frame loop's passes in that time are reported on stdout.
    double minimizeSeconds = 0.0;
    bool save = false; ///< with a screenshot: also save the output (EXR and PNG) as the S key does, then exit
    /// With a screenshot: the panel's text in that frame (its labels and values, a line a row, as Dear ImGui's log
    /// writes them; folds left as they are) is printed on stdout.
    bool printPanel = false;
    WindowOptions window;
};

/// Runs the viewer until its window closes (or the screenshot is written). Returns the process exit code; throws
/// ViewerError (or HostError) with a one-line reason on failures that stop it.
int runViewer(const ViewerOptions& options);

} // namespace fftb::viewer
