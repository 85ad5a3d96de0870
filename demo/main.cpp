// SPDX-License-Identifier: MIT
// fftbloom-viewer: command line, then the window; one line and a non-zero exit on any failure.
#include "message.h"
#include "viewer.h"
#include "vulkan/device_loss.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>

namespace
{

/// Parses "WIDTHxHEIGHT" of `option`, each in 64..16384; false after printing a line naming the option otherwise.
bool parseSize(const std::string& text, const char* option, int* width, int* height)
{
    char end = 0;
    if (std::sscanf(text.c_str(), "%dx%d%c", width, height, &end) != 2 || *width < 64 || *height < 64 ||
        *width > 16384 || *height > 16384)
    {
        fftb::printMessage("fftbloom-viewer",
                           std::string(option) + ": '" + text + "' is not WIDTHxHEIGHT in 64..16384");
        return false;
    }
    return true;
}

/// Applies --settings (`settings`: key=value or files) to A and, through their "b." keys, to B; checks --later's;
/// writes --save-settings (`saveSettings`). False after printing a line naming the setting at fault.
bool applyStartSettings(const std::vector<std::string>& settings, const std::string& saveSettings,
                        fftb::viewer::ViewerOptions& options)
{
    using namespace fftb::viewer;
    // A's settings first; B starts as A with the other spectrum mode (the comparison that shows the resampled
    // spectrum's ringing), then takes its own "b." keys.
    std::vector<std::string> keysOfB;
    // The studio's display transform when there is one, as the CLI's preview takes it.
    if (const char* ocio = std::getenv("OCIO"); ocio && *ocio)
        options.settings.tonemapper = Tonemapper::Ocio;
    for (const std::string& s : settings)
    {
        std::string error;
        if (s.compare(0, 2, "b.") == 0)
            keysOfB.push_back(s.substr(2));
        else if (s.find('=') == std::string::npos ? !applySettingsFile(options.settings, s, &error)
                                                  : !applySetting(options.settings, s, &error))
        {
            fftb::printMessage("fftbloom-viewer", error);
            return false;
        }
    }
    if (std::string error; !checkViewerSettings(options.settings, &error))
    {
        fftb::printMessage("fftbloom-viewer", error);
        return false;
    }
    for (const std::string& s : options.laterSettings)
    {
        Settings scratch;
        std::string error;
        if (!applySetting(scratch, s.compare(0, 2, "b.") == 0 ? s.substr(2) : s, &error))
        {
            fftb::printMessage("fftbloom-viewer", "--later: " + error.substr(std::string("--settings: ").size()));
            return false;
        }
    }
    if (!saveSettings.empty())
    {
        std::string error;
        if (!writeSettingsFile(options.settings, saveSettings, {options.imagePath, options.settings.bloom.kernel.file},
                               &error))
        {
            fftb::printMessage("fftbloom-viewer", "--save-settings " + error);
            return false;
        }
    }
    options.settingsB = options.settings;
    options.settingsB.bloom.kernel.spectrum = options.settings.bloom.kernel.spectrum == FFTB_SPECTRUM_MODE_EXACT
                                                  ? FFTB_SPECTRUM_MODE_RESAMPLED
                                                  : FFTB_SPECTRUM_MODE_EXACT;
    for (const std::string& s : keysOfB)
    {
        std::string error;
        if (s.compare(0, 5, "mask=") == 0)
        {
            fftb::printMessage("fftbloom-viewer", kMaskOfB);
            return false;
        }
        if (!applySetting(options.settingsB, s, &error))
        {
            if (const size_t quote = error.find('\''); quote != std::string::npos)
                error.insert(quote + 1, "b."); // name the key as given
            fftb::printMessage("fftbloom-viewer", error);
            return false;
        }
    }
    if (std::string error; !checkViewerSettings(options.settingsB, &error, "b."))
    {
        fftb::printMessage("fftbloom-viewer", error);
        return false;
    }
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    using namespace fftb::viewer;
    ViewerOptions options;
    std::vector<std::string> settings;
    std::string size = "1280x800";
    CLI::App app("fftbloom-viewer: FFT-convolution bloom on HDR images, interactively");
    app.add_option("image", options.imagePath, "EXR or Radiance .hdr file (default: the bundled CandleGlass.exr)");
    app.add_option("--screenshot", options.screenshotPath,
                   "render --frames frames, write the last presented one (UI included) as PNG, exit");
    app.add_option("--frames", options.frames, "frames rendered before the screenshot")->check(CLI::Range(1, 100000));
    app.add_flag("--save", options.save,
                 "with --screenshot: also save the output as <image>_bloom.exr and .png in the working folder");
    app.add_flag("--print-panel", options.printPanel,
                 "with --screenshot: print the panel's text in that frame (labels and values) on stdout");
    std::string keys;
    for (const std::string& k : settingKeys())
        keys += "\n  " + k;
    app.add_option("--settings", settings,
                   "initial settings: key=value, or a settings FILE of such lines (as the panel saves them and "
                   "fftbloom --settings reads them), applied in order:" +
                       keys)
        ->expected(1, -1);
    std::string saveSettings;
    app.add_option("--save-settings", saveSettings,
                   "write A's bloom and kernel settings, after --settings, to this FILE (fftbloom --settings FILE)");
    app.add_option("--size", size, "window size WIDTHxHEIGHT in pixels");
    app.add_option("--drop", options.dropPath,
                   "with --screenshot: open this file after half the frames, as if dropped on the window");
    app.add_option("--later", options.laterSettings,
                   "with --screenshot: settings (as --settings) changed after half the frames, as in the panel")
        ->expected(1, -1);
    app.add_option("--minimize", options.minimizeSeconds,
                   "with --screenshot: minimize the window for SECONDS after half the frames, then restore it; "
                   "prints how often the frame loop woke meanwhile")
        ->check(CLI::Range(0.0, 60.0));
    std::string resize;
    app.add_option("--resize", resize, "with --screenshot: resize the window to WIDTHxHEIGHT after half the frames");
    app.add_flag("--validate", options.window.validation,
                 "enable the Khronos validation layer (synchronization validation included); any message fails "
                 "the run");
    app.add_option("--device", options.window.deviceIndex, "Vulkan physical device index (default: a discrete GPU)");
    try
    {
        app.parse(argc, argv);
    }
    catch (const CLI::CallForHelp& e)
    {
        return app.exit(e);
    }
    catch (const CLI::ParseError& e)
    {
        fftb::printMessage("fftbloom-viewer", e.what());
        return 2;
    }
    if (!parseSize(size, "--size", &options.window.width, &options.window.height) ||
        (!resize.empty() && !parseSize(resize, "--resize", &options.resizeWidth, &options.resizeHeight)))
        return 2;
    if (!applyStartSettings(settings, saveSettings, options))
        return 2;
    // Test hooks (docs/reliability.md): a simulated device loss after this many frames, and whether it is for good.
    options.window.loseDeviceAfterWaits = fftb::loseDeviceAfterFromEnvironment();
    options.window.deviceStaysLost = fftb::deviceStaysLostFromEnvironment();
    try
    {
        return runViewer(options);
    }
    catch (const std::exception& e)
    {
        fftb::printMessage("fftbloom-viewer", e.what());
        return 1;
    }
}
