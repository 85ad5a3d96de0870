// SPDX-License-Identifier: MIT
// Parsing the fftbloom command line with CLI11.
#include "options.h"

#include "fftbloom/fftbloom.h"
#include "host_error.h"
#include "runner/kernel_span.h"
#include "runner/setting_names.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

namespace fftb
{

namespace
{

/// The largest value an option in the frame's units (intensity, tint, threshold, knee, clamps) takes. The bloom sums
/// at most 16384 x 16384 texels (FFTB_MAX_FFT_LENGTH squared), so with every value at most 1e9 every sum and square
/// of the prefilter stays below 3e18, far inside fp32's 3.4e38: nothing later overflows to Inf.
constexpr double kMaxLinearValue = 1.0e9;
// The derivation: the kernel is normalized (every weight in [0, 1]), so a bloomed value is at most the sum of every
// texel of the largest plan at the largest value, and the output multiplies it by at most the largest intensity and
// tint; all of that stays below fp32's largest finite value.
static_assert(kMaxLinearValue * double(FFTB_MAX_FFT_LENGTH) * double(FFTB_MAX_FFT_LENGTH) * kMaxLinearValue *
                  kMaxLinearValue <
              double(FLT_MAX));

/// A bound in plain digits: 1000000000, 0.9, -1.
std::string boundText(double bound)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.15g", bound);
    return text;
}

/// Accepts a finite number in [low, high], or (low, high] when `lowOpen` (CLI11's Range lets NaN through).
CLI::Validator finiteIn(double low, double high, bool lowOpen = false)
{
    return CLI::Validator(
        [low, high, lowOpen](std::string& s) -> std::string
        {
            char* end = nullptr;
            const double v = std::strtod(s.c_str(), &end);
            if (!s.empty() && *end == '\0' && std::isfinite(v) && (lowOpen ? v > low : v >= low) && v <= high)
                return "";
            return s + " is not a finite number in " + (lowOpen ? "(" : "[") + boundText(low) + ", " + boundText(high) +
                   "]";
        },
        "FINITE");
}

/// Appends the paths of list file `path`, each ended by `separator` (a CR before an LF dropped, empty ones skipped).
/// False and the reason when it is not a regular file, cannot be read, has a path longer than 4096 bytes (PATH_MAX
/// with its terminating zero: not a list) or, with LF separators, a line holding a NUL byte (named by its number).
bool readList(const std::string& path, char separator, std::vector<std::string>* paths, std::string* error)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
    {
        *error = std::filesystem::exists(path, ec) ? "not a regular file" : "cannot be read";
        return false;
    }
    std::ifstream list(path, std::ios::binary);
    if (!list)
    {
        *error = "cannot be read";
        return false;
    }
    char line[4097];
    for (size_t number = 1; list.getline(line, sizeof line, separator); ++number)
    {
        // gcount() counts the separator too, when there was one.
        const size_t length = size_t(list.gcount()) - (list.eof() ? 0 : 1);
        std::string entry(line, length);
        if (separator == '\n' && entry.find('\0') != std::string::npos)
        {
            *error = "line " + std::to_string(number) + " holds a NUL byte (a NUL-separated list is --list0)";
            return false;
        }
        if (separator == '\n' && !entry.empty() && entry.back() == '\r')
            entry.pop_back();
        if (!entry.empty())
            paths->push_back(entry);
    }
    if (list.fail() && !list.eof())
    {
        *error = list.bad() ? std::string("read error") : "a path longer than 4096 bytes: not a list of paths";
        return false;
    }
    return true;
}

/// Environment variable `name` as a number of digits only, below 2^31; false and a reason naming it otherwise.
bool environmentNumber(const char* name, uint32_t* value, std::string* error)
{
    const char* text = std::getenv(name);
    if (!text || !*text)
    {
        *error = std::string(name) + " is not set (not a task of a Slurm job array)";
        return false;
    }
    const std::string s = text;
    if (s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
    {
        *error = std::string(name) + "=" + s + " is not a number";
        return false;
    }
    *value = uint32_t(std::stoul(s));
    return true;
}

/// This task's shard of a Slurm job array (sbatch --array=MIN-MAX:STEP, any MIN and STEP): I = (ID - MIN) / STEP of
/// N = SLURM_ARRAY_TASK_COUNT tasks. False and a reason naming the variable when one is missing or inconsistent.
bool slurmShard(uint32_t* index, uint32_t* count, std::string* error)
{
    uint32_t id = 0, min = 0, step = 1, n = 0;
    if (!environmentNumber("SLURM_ARRAY_TASK_ID", &id, error) ||
        !environmentNumber("SLURM_ARRAY_TASK_MIN", &min, error) ||
        !environmentNumber("SLURM_ARRAY_TASK_COUNT", &n, error) ||
        (std::getenv("SLURM_ARRAY_TASK_STEP") && !environmentNumber("SLURM_ARRAY_TASK_STEP", &step, error)))
        return false;
    if (step == 0 || n == 0 || id < min || (id - min) % step != 0 || (id - min) / step >= n)
    {
        *error = "SLURM_ARRAY_TASK_ID " + std::to_string(id) + " is not a task of MIN " + std::to_string(min) +
                 ", STEP " + std::to_string(step) + ", COUNT " + std::to_string(n);
        return false;
    }
    *index = (id - min) / step;
    *count = n;
    return true;
}

/// The options that shape an output, as JSON: {"option": "value", ...} in --help's order, each given one or, if none
/// was given, its default; the options naming files, frames, shards and the run's own behaviour left out. Every
/// output records it (provenance.h).
std::string outputSettingsJson(const CLI::App& app)
{
    static const std::set<std::string> kLeftOut = {
        "help",    "version",        "settings", "inputs",  "list",      "list0", "o",      "out-dir",
        "suffix",  "output-pattern", "frames",   "dry-run", "overwrite", "shard", "chunk",  "report",
        "threads", "preview",        "exposure", "device",  "validate",  "quiet", "verbose"};
    nlohmann::ordered_json settings = nlohmann::ordered_json::object();
    for (const CLI::Option* option : app.get_options())
    {
        const std::string name = option->get_single_name();
        if (kLeftOut.count(name))
            continue;
        std::string value = option->get_default_str();
        if (option->count() > 0)
        {
            value.clear();
            for (const std::string& result : option->results())
                value += (value.empty() ? "" : ",") + result;
        }
        if (!value.empty())
            settings[name] = value;
    }
    return settings.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace

std::optional<int> parseOptions(int argc, char** argv, CliOptions& o)
{
    CLI::App app{"fftbloom: FFT-convolution bloom of OpenEXR / Radiance HDR frames with a point spread function.\n"
                 "Writes an OpenEXR per frame whose R, G, B are bloomed and every other channel, the pixel types,\n"
                 "the data and display windows and the compression kept (docs/exr.md). Many frames at once:\n"
                 "  fftbloom shot/*.exr --out-dir bloomed/ [--shard I/N] [--report report.json]\n"
                 "  fftbloom 'shot/shot.####.exr' --frames 1001-1100 --output-pattern 'bloomed/{stem}.{frame}.exr'\n"
                 "The bloom sees NaN as 0, negative values as 0 and values above --clamp as the clamp (the composite\n"
                 "keeps finite input values); the report counts them.\n"
                 "Checked before any frame is read (else exit 2, nothing done): option values, that no file\n"
                 "written is one read or written twice, that output folders exist, that the device takes the\n"
                 "kernel and settings. Outputs appear whole or not at all; inputs are never overwritten.\n"
                 "Exit codes: 0 all frames written (or skipped: output exists), 1 some frames failed,\n"
                 "2 usage error (nothing done), 3 GPU failure (the batch stopped; frames not written failed).",
                 "fftbloom"};
    app.set_version_flag("--version", std::to_string(FFTB_VERSION_MAJOR) + "." + std::to_string(FFTB_VERSION_MINOR) +
                                          "." + std::to_string(FFTB_VERSION_PATCH));
    app.add_option("inputs", o.inputs, "input frames: OpenEXR (.exr) or Radiance (.hdr)");
    // A preset: option=value lines (e.g. "intensity=0.5", "tint=1,0.9,0.8"; # starts a comment), as the viewer
    // saves them. Options on the command line override it.
    app.set_config("--settings", "",
                   "read options from FILE: one option=value a line, the long option's name without --, as "
                   "fftbloom-viewer saves them (README.md); the command line overrides them")
        ->check(CLI::ExistingFile);
    app.allow_config_extras(CLI::config_extras_mode::error); // a misspelt option in the file is an error
    CLI::Option* list = app.add_option("--list", o.listPath,
                                       "also read input paths from this file, one a line (empty lines ignored; a "
                                       "line holding a NUL byte is an error: use --list0)");
    app.add_option("--list0", o.list0Path,
                   "also read input paths from this file, each ended by a NUL byte (find -print0, as xargs -0)")
        ->excludes(list);
    CLI::Option* single = app.add_option("-o", o.output, "output OpenEXR of a single input; never the input");
    CLI::Option* outDir =
        app.add_option("--out-dir", o.outDir, "write each output to DIR/<input name><suffix>.exr (DIR must exist)");
    single->excludes(outDir);
    app.add_option("--suffix", o.suffix, "with --out-dir: added to each output's name, e.g. _bloom")->needs(outDir);
    app.add_option("--output-pattern", o.outputPattern,
                   "write each output to PATTERN with the fields of its input's name filled in: {stem} (the name "
                   "without frame number and extension), {frame} (the digits ending the name, padded as there), {name} "
                   "(the name without extension), {ext} (the extension without dot); e.g. "
                   "bloomed/{stem}_bloom.{frame}.exr (its folders must exist)")
        ->excludes(single)
        ->excludes(outDir)
        ->check([](const std::string& s) { return checkOutputPattern(s); });
    std::string frames;
    app.add_option("--frames", frames,
                   "the frames of inputs named by a pattern (shot.####.exr or shot.@@@@.exr: one # or @ per digit, "
                   "padded; shot.%04d.exr; shot.%d.exr unpadded): FIRST-LAST, FIRST-LASTxSTEP or FRAME, "
                   "comma-separated, e.g. 1001-1100x2,1200; missing frames are named on one line and fail")
        ->check(
            [](const std::string& s)
            {
                std::vector<uint32_t> parsed;
                std::string error;
                return parseFrameList(s, &parsed, &error) ? std::string() : error;
            });
    app.add_flag("--dry-run", o.dryRun,
                 "resolve inputs and outputs and check everything a run checks before reading a frame (the device "
                 "included), print one line per frame (IN -> OUT, \"skipped: output exists\" or \"missing\") and "
                 "write nothing; exit 0, 1 when inputs are missing, 2 on a usage error");
    app.add_flag("--overwrite", o.batch.overwrite,
                 "replace existing outputs; without it, frames whose output exists are skipped (a killed run "
                 "resumes)");
    const auto taskOfN = [](const std::string& s) -> std::string
    {
        if (s == "slurm")
            return "";
        // Digits only: sscanf's %u would take "-1" as 4294967295.
        unsigned i = 0, n = 0;
        char end = 0;
        if (s.find_first_not_of("0123456789/") != std::string::npos ||
            std::sscanf(s.c_str(), "%u/%u%c", &i, &n, &end) != 2 || n == 0 || i >= n)
            return s + " is not I/N with 0 <= I < N";
        return "";
    };
    std::string shard, chunk;
    CLI::Option* shardOption =
        app.add_option("--shard", shard,
                       "I/N: process frames I, I+N, I+2N, ... of the list (0 <= I < N); slurm: I and N of this task "
                       "of a Slurm job array (SLURM_ARRAY_TASK_ID, _MIN, _STEP, _COUNT; docs/farm.md)")
            ->check(taskOfN);
    app.add_option("--chunk", chunk,
                   "I/N: process the I-th of N contiguous runs of the list, e.g. frames 1026-1050 of --frames "
                   "1001-1100 --chunk 1/4 (the first len % N runs one frame longer); slurm as for --shard")
        ->check(taskOfN)
        ->excludes(shardOption);
    app.add_option("--report", o.reportPath,
                   "append a JSON Lines report: a run line, a line per frame as it ends (a killed run keeps them), a "
                   "summary line");
    app.add_option("--threads", o.batch.threads, "decode and encode threads; default: one per hardware thread")
        ->check(CLI::Range(1u, 1024u));
    app.add_option("--clamp", o.batch.scrubMax, "largest colour value passed to the bloom; larger ones are clamped")
        ->capture_default_str()
        ->check(finiteIn(0.0, kMaxLinearValue, true));
    app.add_option("--preview", o.preview,
                   "with -o: also write an 8-bit PNG preview here, through the default display and view of the "
                   "OpenColorIO config $OCIO names, else tonemapped (Reinhard) to sRGB")
        ->needs(single);
    app.add_option("--exposure", o.batch.previewExposure, "preview exposure in stops, -64..64")
        ->capture_default_str()
        ->check(finiteIn(-64.0, 64.0));
    CLI::Option* kernelFile =
        app.add_option("--kernel", o.kernelPath,
                       "PSF image (EXR/HDR), centre texel (W/2, H/2); default: a generated diffraction PSF "
                       "(docs/kernels.md; fftbloom-psf makes others)");
    app.add_option("--blades", o.aperture.blades, "generated PSF: iris blades, 0 for a circle, else 3..16")
        ->capture_default_str()
        ->check(CLI::IsMember({0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}))
        ->excludes(kernelFile);
    app.add_option("--blade-curvature", o.aperture.bladeCurvature, "generated PSF: 0 straight blades .. 1 a circle")
        ->capture_default_str()
        ->check(finiteIn(0.0, 1.0))
        ->excludes(kernelFile);
    app.add_option("--obstruction", o.aperture.obstruction,
                   "generated PSF: central obstruction diameter over the aperture's, 0..0.9")
        ->capture_default_str()
        ->check(finiteIn(0.0, 0.9))
        ->excludes(kernelFile);
    app.add_option("--vanes", o.aperture.vanes, "generated PSF: spider vanes from the centre to the rim, 0..8")
        ->capture_default_str()
        ->check(CLI::Range(0, 8))
        ->excludes(kernelFile);
    app.add_option("--airy-radius", o.airyRadiusTexels,
                   "generated PSF: its scale, the first dark ring's radius in texels of a circular aperture, 1..16 "
                   "(at most 1/8 of the generated size)")
        ->capture_default_str()
        ->check(finiteIn(1.0, 16.0))
        ->excludes(kernelFile);
    app.add_option("--corona", o.aperture.corona,
                   "generated PSF: the eye's lens fibres and particles (the lenticular halo and ciliary corona of "
                   "Ritschel et al. 2009), 0..1; use with --blades 0")
        ->capture_default_str()
        ->check(finiteIn(0.0, 1.0))
        ->excludes(kernelFile);
    app.add_option("--seed", o.aperture.seed,
                   "generated PSF: places the eye's particles; with --animate each frame's seed is this plus its frame "
                   "number")
        ->capture_default_str()
        ->check(CLI::Range(0u, 1000000000u))
        ->excludes(kernelFile);
    app.add_flag("--animate", o.animate,
                 "make the generated PSF on the GPU for every frame, seeded by --seed plus the frame number (the "
                 "digits ending the input's name, else its place in the list): the eye's particles and fibres "
                 "flicker from frame to frame, and a frame gets the same kernel in any rerun, shard or chunk; "
                 "needs --kernel-size a power of two in 64..2048 (docs/kernels.md)")
        ->excludes(kernelFile);
    app.add_option("--kernel-size", o.kernelSize,
                   "the kernel's resolution: the PSF resampled to N x N texels, N a power of two in 2..4096 (its "
                   "sampling, not how large it appears: --kernel-span)")
        ->capture_default_str()
        ->check(
            [](const std::string& s) -> std::string
            {
                const long n = std::strtol(s.c_str(), nullptr, 10);
                if (n < 2 || n > long(FFTB_MAX_KERNEL_LENGTH) || (n & (n - 1)) != 0)
                    return s + " is not a power of two in 2..4096"; // CLI11 prefixes the option name
                return "";
            });
    app.add_option("--kernel-span", o.kernelSpan,
                   "how large the kernel appears on the frame: native (one PSF texel per pixel), <n>px (its larger "
                   "side spans n pixels, n <= 4096) or <f>diag (a fraction f of the frame's diagonal: the same look "
                   "at every resolution); not its resolution, --kernel-size")
        ->capture_default_str()
        ->check(
            [](const std::string& s) -> std::string
            {
                KernelSpan extent;
                std::string reason;
                return parseKernelSpan(s, &extent, &reason) ? "" : reason; // CLI11 prefixes the option name
            });
    app.add_option("--kernel-rotation", o.batch.settings.kernelRotationDegrees,
                   "degrees the kernel turns, counter-clockwise, about the point that falls on the light")
        ->capture_default_str()
        ->check(finiteIn(-1.0e6, 1.0e6));
    std::vector<float> centreOffset;
    app.add_option("--kernel-centre-offset", centreOffset,
                   "U,V: the point of the kernel that falls on the light, from its centre, in fractions of its width "
                   "and height, each in [-1, 1] (Unreal's Center UV minus 0.5); default 0,0")
        ->delimiter(',')
        ->expected(2)
        ->check(finiteIn(-1.0, 1.0));
    std::string padding = "zero-normalized", axis = "auto", spectrum = "resampled", interpolation = "es",
                output = "composite", pixelType;
    app.add_option("--padding", padding,
                   "zero-normalized (black outside, the bloom divided by the kernel's mass inside the frame: edges "
                   "keep their brightness), zero (black outside: the bloom darkens towards the edges) or mirror "
                   "(GL_MIRRORED_REPEAT: longer FFTs)")
        ->capture_default_str()
        ->check(CLI::IsMember(settingNames(kPaddingNames)));
    app.add_option("--axis", axis, "axis of the real-packed first pass: auto (cost model), x or y")
        ->capture_default_str()
        ->check(CLI::IsMember(settingNames(kAxisOrderNames)));
    app.add_option("--spectrum", spectrum,
                   "resampled: one kernel spectrum interpolated at each frame's frequencies, for any frame size and "
                   "kernel scale; exact: one spectrum per frame size")
        ->capture_default_str()
        ->check(CLI::IsMember(settingNames(kSpectrumModeNames)));
    app.add_option("--spectrum-interpolation", interpolation,
                   "how resampled mode interpolates the kernel spectrum: es (exponential of semicircle, 8x8 taps, "
                   "deapodized, a 2x oversampled spectrum: within 1e-6 of exact), cubic (Keys, 4x4 taps, faint "
                   "ringing) or linear (2x2 taps, stronger ringing)")
        ->capture_default_str()
        ->check(CLI::IsMember(settingNames(kInterpolationNames)));
    app.add_option("--interpolation-width", o.batch.settings.interpolationWidth,
                   "taps per axis of the es interpolation, 2..8 (default 8, within 1e-6 of the exact spectrum; 6 is "
                   "3-4% faster, within 1.3e-5); cubic has 4 and linear 2")
        ->check(CLI::Range(2u, 8u));
    app.add_option("--spectrum-oversampling", o.batch.settings.spectrumOversampling,
                   "resampled mode stores the kernel spectrum at this many times pow2ceil(kernel size), 1 or 2 "
                   "(default 2; 1 takes a quarter of the memory and lets copies of the kernel into the bloom)")
        ->check(CLI::IsMember({1u, 2u}));
    app.add_option("--sharpen", o.batch.settings.sharpen,
                   "delta sharpening t: spectrum (1 - t) K + t; 1 is the identity")
        ->capture_default_str()
        ->check(finiteIn(0.0, 1.0));
    app.add_option("--output", output,
                   "bloom: the convolution of the prefiltered frame p alone; composite (energy-conserving): in + "
                   "intensity * (bloom - p); additive: in + intensity * bloom")
        ->capture_default_str()
        ->check(CLI::IsMember(settingNames(kOutputModeNames)));
    app.add_option("--intensity", o.batch.settings.intensity,
                   "weight of the bloom in the composites, 0..1000000000 (0: the input, no GPU work)")
        ->capture_default_str()
        ->check(finiteIn(0.0, kMaxLinearValue));
    std::vector<float> tint;
    app.add_option("--tint", tint,
                   "R,G,B: multipliers of the bloom's colour, each >= 0 (above 1 allowed); default 1,1,1")
        ->delimiter(',')
        ->expected(3)
        ->check(finiteIn(0.0, kMaxLinearValue));
    PrefilterSettings& prefilter = o.batch.settings.prefilter;
    app.add_option("--threshold", prefilter.threshold,
                   "prefilter: only brightness max(r, g, b) above T blooms, p = in * (b - T) / b (docs/kernels.md); "
                   "0: off")
        ->capture_default_str()
        ->check(finiteIn(0.0, kMaxLinearValue));
    app.add_option("--knee", prefilter.knee, "prefilter: soft-knee width K in [0, T] around the threshold; 0: hard")
        ->capture_default_str()
        ->check(finiteIn(0.0, kMaxLinearValue));
    app.add_option("--bloom-clamp", prefilter.clamp,
                   "prefilter: caps max(r, g, b) of what blooms at C, hue kept; 0: none (not --clamp)")
        ->capture_default_str()
        ->check(finiteIn(0.0, kMaxLinearValue));
    std::string precision = "fp32";
    app.add_option("--precision", precision,
                   "storage of the spectra between the passes: fp32, or fp16 (half the traffic; its rounding noise, "
                   "spread over each line in proportion to its brightest light, swamps dim regions beside extreme "
                   "highlights: use it with --bloom-clamp, docs/kernels.md)")
        ->capture_default_str()
        ->check(CLI::IsMember(settingNames(kStoragePrecisionNames)));
    std::string resolution = "full";
    app.add_option("--resolution", resolution,
                   "resolution the bloom is convolved at: full, or half (the frame downsampled 2x per axis and the "
                   "bloom upsampled: about a quarter of the FFT work, detail finer than 2 pixels lost; needs "
                   "--spectrum resampled; docs/integration.md)")
        ->capture_default_str()
        ->check(CLI::IsMember(settingNames(kResolutionNames)));
    app.add_option("--part", o.batch.selection.part,
                   "of multi-part OpenEXR inputs, bloom the part with this name; default: the first part holding the "
                   "layer's R, G, B. Every other part is copied as it is (docs/exr.md)");
    app.add_option("--layer", o.batch.selection.layer,
                   "bloom the channels NAME.R, NAME.G, NAME.B (NAME.A as alpha), e.g. diffuse; default: R, G, B. "
                   "Every other channel is kept as it is")
        ->check([](const std::string& s) -> std::string
                { return s.empty() || s.front() == '.' || s.back() == '.' ? s + " is not a layer name" : ""; });
    app.add_option("--pixel-type", pixelType,
                   "output channel type of the bloomed part, half or float; default: as the input's")
        ->check(CLI::IsMember({"half", "float"}));
    app.add_option("--device", o.runner.deviceIndex,
                   "Vulkan physical device index, >= 0; default: the first discrete GPU, else lavapipe (CPU)")
        ->check(CLI::Range(0, 1000000));
    app.add_flag("--validate", o.runner.validation,
                 "enable the Khronos validation layer (synchronization validation included) and fail on any message "
                 "it prints");
    CLI::Option* quiet = app.add_flag("-q,--quiet", o.quiet, "print errors only: no progress, no summary");
    app.add_flag("-v,--verbose", o.verbose, "print a line per frame with its FFT plan and timings")->excludes(quiet);
    app.get_formatter()->column_width(30);
    // One line like every other fftbloom error; CLI11's default adds a "Run with --help" line.
    app.failure_message(
        [](const CLI::App* parsed, const CLI::Error& e)
        {
            // CLI11 names the option but not the file it came from.
            const std::string from = dynamic_cast<const CLI::ConfigError*>(&e)
                                         ? "--settings " + parsed->get_config_ptr()->as<std::string>() + ": "
                                         : std::string();
            return "fftbloom: " + from + e.what() + "\n";
        });

    try
    {
        app.parse(argc, argv);
    }
    catch (const CLI::ParseError& e)
    {
        // Exit code 2 for every usage error, as documented, rather than CLI11's per-error codes (105, 106, ...).
        return app.exit(e) == 0 ? 0 : 2;
    }
    if (const CLI::Option* config = app.get_config_ptr(); config && config->count() > 0)
        o.settingsPath = config->as<std::string>();
    o.settingsJson = outputSettingsJson(app);
    BloomSettings& settings = o.batch.settings; // every name was checked by IsMember
    parseSettingName(padding, kPaddingNames, &settings.padding);
    parseSettingName(axis, kAxisOrderNames, &settings.axisOrder);
    parseSettingName(spectrum, kSpectrumModeNames, &settings.spectrum);
    parseSettingName(interpolation, kInterpolationNames, &settings.interpolation);
    parseSettingName(output, kOutputModeNames, &settings.output);
    parseSettingName(precision, kStoragePrecisionNames, &settings.storage);
    parseSettingName(resolution, kResolutionNames, &settings.resolution);
    const uint32_t fixedWidth = settings.interpolation == FFTB_SPECTRUM_INTERPOLATION_CUBIC    ? 4
                                : settings.interpolation == FFTB_SPECTRUM_INTERPOLATION_LINEAR ? 2
                                                                                               : 0;
    if (fixedWidth != 0 && settings.interpolationWidth != 0 && settings.interpolationWidth != fixedWidth)
    {
        std::fprintf(stderr, "fftbloom: --interpolation-width %u: %s interpolation has %u taps\n",
                     settings.interpolationWidth, interpolation.c_str(), fixedWidth);
        return 2;
    }
    if (!centreOffset.empty())
        std::copy(centreOffset.begin(), centreOffset.end(), o.batch.settings.kernelCentreOffset.begin());
    if (!tint.empty())
        std::copy(tint.begin(), tint.end(), settings.tint.begin());
    if (!pixelType.empty())
        o.batch.pixelType = pixelType == "half" ? PixelType::Half : PixelType::Float;
    const auto usage = [](const std::string& message)
    {
        std::fprintf(stderr, "fftbloom: %s\n", message.c_str());
        return 2;
    };
    o.contiguous = !chunk.empty();
    const std::string& task = o.contiguous ? chunk : shard;
    if (task == "slurm")
    {
        if (std::string error; !slurmShard(&o.shardIndex, &o.shardCount, &error))
            return usage(std::string(o.contiguous ? "--chunk" : "--shard") + " slurm: " + error);
    }
    else if (!task.empty())
        std::sscanf(task.c_str(), "%u/%u", &o.shardIndex, &o.shardCount);
    for (const auto& [path, separator] : {std::pair{o.listPath, '\n'}, std::pair{o.list0Path, '\0'}})
        if (!path.empty())
            if (std::string error; !readList(path, separator, &o.inputs, &error))
                return usage(std::string(separator == '\n' ? "--list " : "--list0 ") + path + ": " + error);
    try
    {
        std::vector<uint32_t> frameList;
        if (std::string unused; !frames.empty())
            parseFrameList(frames, &frameList, &unused); // checked above
        o.frames = resolveFrames(o.inputs, frameList);
    }
    catch (const HostError& e)
    {
        return usage(e.what());
    }
    o.inputs.clear();
    for (const FrameInput& frame : o.frames)
        o.inputs.push_back(frame.path);
    parseKernelSpan(o.kernelSpan, &settings.kernelSpan, nullptr);
    if (!settings.kernelSpan.native() && settings.spectrum == FFTB_SPECTRUM_MODE_EXACT)
        return usage("--kernel-span " + o.kernelSpan +
                     ": a kernel span other than native needs --spectrum "
                     "resampled");
    if (settings.resolution == FFTB_BLOOM_RESOLUTION_HALF && settings.spectrum == FFTB_SPECTRUM_MODE_EXACT)
        return usage("--resolution half: needs --spectrum resampled (the kernel at half its extent)");
    if (o.animate && (o.kernelSize < 64 || o.kernelSize > 2048))
        return usage("--animate: the kernel is made on the GPU at --kernel-size, a power of two in 64..2048, not " +
                     std::to_string(o.kernelSize));
    if (prefilter.knee > prefilter.threshold)
        return usage("--knee: the soft knee must not be wider than --threshold");
    if (o.inputs.empty())
        return usage("no input frames (give paths, --list or --list0)");
    if (o.output.empty() && o.outDir.empty() && o.outputPattern.empty())
        return usage("say where outputs go: -o FILE (one input), --out-dir DIR or --output-pattern PATTERN");
    if (!o.output.empty() && o.inputs.size() != 1)
        return usage("-o names one output, but " + std::to_string(o.inputs.size()) +
                     " inputs were given; use --out-dir");
    return std::nullopt;
}

} // namespace fftb
