// SPDX-License-Identifier: MIT
// What the viewer shows and how the bloom is set up, and their key=value spelling (--settings, the tests).
#pragma once

#include "fftbloom/fftbloom.h"
#include "psf/psf_generator.h"
#include "runner/kernel_span.h"

#include <array>
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
};

/// Which composite the Composite view shows (FftbOutputMode).
enum class CompositeMode
{
    Conserving, ///< in + intensity * (bloom(p) - p): the prefiltered light is spread, none added
    Additive,   ///< in + intensity * bloom(p)
};

/// When the bloom is recorded.
enum class Rerun
{
    Auto,       ///< every frame on a GPU; on a CPU device (lavapipe) only when its inputs change
    EveryFrame, ///< as an engine does, and what the per-pass GPU times need
    OnChange,   ///< only when the frame, the kernel or a bloom setting changes
};

/// The smallest bloom intensity: the plugin refuses 0 in its composite modes (it would show the input; view=input
/// does).
constexpr float kMinimumIntensity = 0.001f;

/// Every setting the UI and --settings can change. Frame-lifetime ones (intensity, tint, sharpen, the composite, the
/// prefilter) go to FftbBloomInfo every frame; plan-lifetime ones (padding, axis, precision, resolution, the kernel
/// extent) to fftbCreateBloomPlan when they change; kernel-lifetime ones (the kernel, its resolution, the spectrum
/// mode, its placement) to fftbCreateKernel.
struct Settings
{
    View view = View::Composite;
    Tonemapper tonemapper = Tonemapper::AcesFitted;
    float exposure = 0.0f;                       ///< stops
    float intensity = 0.25f;                     ///< >= kMinimumIntensity, above 1 allowed
    std::array<float, 3> tint{1.0f, 1.0f, 1.0f}; ///< R, G, B multipliers of the bloom (FftbBloomInfo::tint)
    float sharpen = 0.0f;
    CompositeMode composite = CompositeMode::Conserving;
    float threshold = 0.0f; ///< prefilter threshold T (FftbBloomInfo::prefilterThreshold); 0: off
    float knee = 0.0f;      ///< prefilter soft-knee width k (FftbBloomInfo::prefilterKnee), used as min(k, T)
    float clamp = 0.0f;     ///< prefilter clamp C on max(r, g, b); 0: none
    FftbPadding padding = FFTB_PADDING_ZERO_NORMALIZED;
    FftbAxisOrder axisOrder = FFTB_AXIS_ORDER_AUTO;
    FftbSpectrumMode spectrum = FFTB_SPECTRUM_MODE_RESAMPLED;
    /// how the spectra are stored between the passes (FftbBloomPlanCreateInfo::storagePrecision)
    FftbStoragePrecision storage = FFTB_STORAGE_PRECISION_FLOAT32;
    /// the resolution the bloom is convolved at (FftbBloomPlanCreateInfo::resolution): half needs the resampled
    /// spectrum
    FftbBloomResolution resolution = FFTB_BLOOM_RESOLUTION_FULL;
    int kernelSize = 256;    ///< the kernel's resolution: the PSF's texels per side
    KernelSpan kernelSpan;   ///< how large the kernel appears (FftbBloomPlanCreateInfo::kernelSpan); native
    std::string kernelFile;  ///< empty: the generated PSF of `aperture`
    ApertureParams aperture; ///< the generated PSF's aperture (its corona and seed included)
    double airyRadiusTexels = 2.0;
    /// The generated PSF made on the GPU every frame (fftbCmdGenerateKernel), seeded by aperture.seed plus the frame
    /// number (the eye's particles flicker), its Airy radius following the pupil adapted to 100 * 2^-exposure cd/m^2
    /// (pupilAiryRadius; a new kernel, made for that radius, when the exposure changes): the "eye" mode. Kernel sizes
    /// 64..2048 only.
    bool animate = false;
    float kernelRotationDegrees = 0.0f;        ///< FftbKernelInfo::rotationDegrees, counter-clockwise
    std::array<float, 2> kernelCentreOffset{}; ///< FftbKernelInfo::centreOffsetU, V: [-1, 1] of the kernel's size
    bool ui = true;                            ///< draw the controls
    // Comparison views (split, difference): display settings, shared by A and B.
    float split = 0.5f;            ///< divider position: a fraction of the window's width beside the panel
    float differenceGain = 4.0f;   ///< stops
    bool compareBloomOnly = false; ///< compare the bloom alone instead of the composite
    Rerun rerun = Rerun::Auto;
};

/// Applies one "key=value" to `settings`. Returns false and a one-line reason naming the key otherwise.
/// Keys: view (composite|bloom|input), tonemap (aces|aces-hill|reinhard|clamp), exposure, intensity, tint (R,G,B),
/// sharpen, composite (conserving|additive), threshold, knee, bloom-clamp, padding (zero-normalized|zero|mirror), axis
/// (auto|x|y), spectrum
/// (resampled|exact), precision (fp32|fp16), kernel-size, kernel-span (native|<n>px|<f>diag), kernel
/// (generated|PATH), blades, curvature, obstruction, vanes, airy-radius, corona, seed, animate (true|false), ui
/// (on|off), split, difference-gain, compare
/// (composite|bloom), rerun (auto|always|changes).
bool applySetting(Settings& settings, const std::string& keyValue, std::string* error);

/// The keys applySetting knows, for --help.
const std::vector<std::string>& settingKeys();

/// The EXR header attribute (type string) in which the viewer's saved outputs record presetLines, one a line.
inline constexpr const char* kSettingsAttribute = "fftbloom.settings";

/// The bloom's and the kernel's settings (not the view's) as option=value lines in the fftbloom CLI's option names,
/// which both tools read (its --settings FILE, the viewer's --settings): intensity, tint, sharpen, output, threshold,
/// knee, bloom-clamp, padding, axis, spectrum, precision, kernel-size, kernel-span, kernel-rotation,
/// kernel-centre-offset, then kernel=PATH or the generated PSF's blades, blade-curvature, obstruction, vanes and
/// airy-radius. Numbers round-trip exactly.
std::vector<std::string> presetLines(const Settings& settings);

/// The fftbloom command that blooms `input` into `output` as `settings` do: "fftbloom INPUT -o OUTPUT" and an option
/// for every preset line that differs from the defaults (both tools' defaults are the same), paths quoted for a
/// POSIX shell.
std::string cliCommand(const Settings& settings, const std::string& input, const std::string& output);

/// Applies every option=value line of the preset file `path` (blank lines and lines starting with # skipped). False
/// and a reason naming the file, and the line at fault, otherwise; the settings before that line stay applied.
bool applyPresetFile(Settings& settings, const std::string& path, std::string* error);

/// Writes presetLines(settings) to `path`, under a comment naming the tools, through a temporary file renamed over
/// it: on failure the previous file stays. Refuses a path that is one of `reads` (the image, the kernel file: never
/// overwritten). False and a reason naming the path otherwise.
bool writePresetFile(const Settings& settings, const std::string& path, const std::vector<std::string>& reads,
                     std::string* error);

} // namespace fftb::viewer
