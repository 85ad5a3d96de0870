// SPDX-License-Identifier: MIT
// What the viewer shows and how the bloom is set up, and their key=value spelling (--settings, the tests).
#pragma once

#include "fftbloom/fftbloom.h"
#include "image/image_io.h"
#include "image/ocio_display.h"
#include "settings/bloom_settings.h"
#include "settings/setting_table.h"

#include <string>
#include <vector>

namespace fftb::viewer
{

/// What the window shows.
enum class View
{
    Composite,  ///< the plugin's composite of Settings::composite
    Bloom,      ///< the plugin's bloom alone: the frame convolved with the kernel
    Input,      ///< the frame as loaded
    Split,      ///< A left of a draggable divider, B right of it (A and B: two sets of bloom settings)
    Difference, ///< |A - B| amplified by 2^differenceGain, to see e.g. the resampled spectrum's ringing
    Kernel,     ///< the kernel's texels, log scale (6 decades below its peak)
    Spectrum,   ///< the kernel spectrum's magnitude, log scale, DC at the centre
};

/// Display transforms after exposure, applied per channel to linear Rec.709.
enum class Tonemapper
{
    AcesFitted, ///< Narkowicz 2015, "ACES Filmic Tone Mapping Curve": a rational fit of the ACES RRT + ODT
    AcesHill,   ///< Stephen Hill's fit of the ACES RRT + ODT with its input and output matrices (BakingLab)
    Reinhard,   ///< x / (1 + x) (Reinhard et al. 2002): neutral, no contrast added
    Clamp,      ///< none: values above 1 clipped
    Ocio,       ///< the OpenColorIO config $OCIO names: Settings::ocio's display, view and look (OcioDisplay::lut)
};

/// When the bloom is recorded.
enum class Rerun
{
    Auto,       ///< every frame on a GPU; on a CPU device (lavapipe) only when its inputs change
    EveryFrame, ///< as an engine does, and what the per-pass GPU times need
    OnChange,   ///< only when the frame, the kernel or a bloom setting changes
};

/// Every setting the UI and --settings can change: the display's here, the bloom's and the kernel's in the host's
/// settings (settings/bloom_settings.h), spelled as the settings table spells them: bloom.frame goes to FftbBloomInfo
/// every frame (bloomInfoOf), bloom.plan to fftbCreateBloomPlan when it changes (planInfoOf), bloom.kernel to
/// fftbCreateKernel (kernelInfoOf).
struct Settings
{
    View view = View::Composite;
    /// AcesFitted, as the CLI's preview without $OCIO; the viewer starts with Ocio when $OCIO is set.
    Tonemapper tonemapper = Tonemapper::AcesFitted;
    OcioChoice ocio;       ///< tonemap=ocio's display, view and look (empty: the config's defaults)
    float exposure = 0.0f; ///< stops
    /// The bloom: its output is composite or additive (the CLI's bloom output is show=bloom; an intensity of 0 shows
    /// the input, as the CLI writes it), its knee no wider than its threshold (checkViewerSettings). Its kernel made
    /// on the GPU (madeOnGpu) has the Airy radius of the pupil adapted to 100 * 2^-exposure cd/m^2 (pupilAiryRadius;
    /// a new kernel, made for that radius, when the exposure changes): the "eye" mode.
    BloomSettings bloom;
    bool ui = true;        ///< draw the controls
    bool advanced = false; ///< the panel's "Advanced" fold (axis order, spectrum, storage, resolution, plan) is open
    /// The OpenEXR part and layer shown (part=, layer=; ImageSelection): empty, the first part holding R, G, B
    ImageSelection selection;
    // Comparison views (split, difference): display settings, shared by A and B.
    float split = 0.5f;            ///< divider position: a fraction of the window's width beside the panel
    float differenceGain = 4.0f;   ///< stops
    bool compareBloomOnly = false; ///< compare the bloom alone instead of the composite
    Rerun rerun = Rerun::Auto;
};

/// Applies one "key=value" to `settings`: the display's keys (show, view, tonemap, exposure, ui, advanced, split,
/// difference-gain, compare, rerun, part, layer) here, every other one through the settings table
/// (settings/setting_table.h), with the viewer's own rule after it: output=bloom is show=bloom. Returns false and a
/// one-line reason naming the key and the value otherwise, the settings as they were.
bool applySetting(Settings& settings, const std::string& keyValue, std::string* error);

/// The rules between settings (checkSettings, settings/check_settings.h), which the CLI and the Python module apply
/// too, on `settings` once its keys are applied: false and "--settings: PREFIXkey value: reason" otherwise (prefix
/// "b." for B's settings).
bool checkViewerSettings(const Settings& settings, std::string* error, const std::string& prefix = "");

/// The keys applySetting knows, for --help: the display's, every setting of the settings table (settingHelpLine),
/// then b.KEY.
const std::vector<std::string>& settingKeys();

/// Why b.mask= is refused: the mask's matte is the scene's, A's and B's alike (B may invert it: b.mask-invert=).
inline constexpr const char* kMaskOfB =
    "--settings: b.mask: the mask is the scene's, A's and B's alike: give mask= (b.mask-invert= inverts it for B)";

/// The EXR header attribute (type string) in which the viewer's saved outputs record their bloom's and kernel's
/// settings as option=value lines (settingLines, settings/setting_table.h), one a line.
inline constexpr const char* kSettingsAttribute = "fftbloom.settings";

/// The fftbloom command that blooms `input` into `output` as `settings` do: "fftbloom INPUT -o OUTPUT" and an option
/// for every settings line that differs from the defaults (both tools' defaults are the same), paths quoted for a
/// POSIX shell.
std::string cliCommand(const Settings& settings, const std::string& input, const std::string& output);

/// Applies every option=value line of the settings file `path` (blank lines and lines starting with # skipped), then
/// the rules between settings (checkViewerSettings). False and a reason naming the file, and the line at fault,
/// otherwise; the settings before that line stay applied.
bool applySettingsFile(Settings& settings, const std::string& path, std::string* error);

/// Writes the bloom's and kernel's settings as option=value lines (settingLines, which both tools read: the CLI's
/// --settings FILE, the viewer's --settings) to `path`, under a comment naming the tools, through a temporary file
/// renamed over it: on failure the previous file stays. Refuses a path that is one of `reads` (the image, the kernel
/// file: never overwritten). False and a reason naming the path otherwise.
bool writeSettingsFile(const Settings& settings, const std::string& path, const std::vector<std::string>& reads,
                       std::string* error);

} // namespace fftb::viewer
