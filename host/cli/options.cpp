// SPDX-License-Identifier: MIT
// Parsing the fftbloom command line with CLI11: its own options here, the bloom's and the kernel's from the settings
// table.
#include "options.h"

#include "fftbloom/fftbloom.h"
#include "host_error.h"
#include "message.h"
#include "provenance.h"
#include "runner/frame_views.h"
#include "settings/check_settings.h"
#include "settings/setting_names.h"
#include "settings/setting_table.h"
#include "settings/settings_file.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fftb
{

namespace
{

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

/// The most bytes a --list or --list0 file may hold: a million paths of 256 bytes.
constexpr std::uintmax_t kMaxListBytes = std::uintmax_t(256) << 20;

/// Appends the paths of list file `path`, each ended by `separator` (a CR before an LF dropped, empty ones skipped).
/// False and the reason when it is not a regular file, is larger than kMaxListBytes, cannot be read, holds more
/// than kMaxListedFrames paths, has a path longer than 4096 bytes (PATH_MAX with its terminating zero: not a list)
/// or, with LF separators, a line holding a NUL byte (named by its number).
bool readList(const std::string& path, char separator, std::vector<std::string>* paths, std::string* error)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
    {
        *error = std::filesystem::exists(path, ec) ? "not a regular file" : "cannot be read";
        return false;
    }
    if (const std::uintmax_t size = std::filesystem::file_size(path, ec); !ec && size > kMaxListBytes)
    {
        *error = std::to_string(size) + " bytes, more than a list's " + std::to_string(kMaxListBytes);
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
        if (entry.empty())
            continue;
        if (paths->size() >= kMaxListedFrames)
        {
            *error = "more than " + std::to_string(kMaxListedFrames) + " paths, the most a batch takes";
            return false;
        }
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

/// --expand-limit's pixels: digits, 0 .. 65536; -1 otherwise.
int parsedLimit(const std::string& text)
{
    int pixels = -1;
    const auto [rest, ec] = std::from_chars(text.data(), text.data() + text.size(), pixels);
    return !text.empty() && ec == std::errc() && rest == text.data() + text.size() && pixels >= 0 && pixels <= 65536
               ? pixels
               : -1;
}

/// A setting's text as the JSON value it is: a number ("0.5", "256"), true or false, an array of numbers ("1,0.9,0.8"),
/// else a string ("exact", "12px").
nlohmann::ordered_json typedJsonValue(const std::string& text)
{
    const auto number = [](const std::string& item, nlohmann::ordered_json* value)
    {
        const char* end = item.data() + item.size();
        long long integer = 0;
        if (auto [rest, ec] = std::from_chars(item.data(), end, integer); ec == std::errc() && rest == end)
        {
            *value = integer;
            return true;
        }
        double real = 0.0;
        const auto [rest, ec] = std::from_chars(item.data(), end, real);
        if (item.empty() || ec != std::errc() || rest != end || !std::isfinite(real))
            return false;
        *value = real;
        return true;
    };
    nlohmann::ordered_json value;
    if (text == "true" || text == "false")
        return text == "true";
    if (number(text, &value))
        return value;
    if (text.find(',') != std::string::npos)
    {
        nlohmann::ordered_json items = nlohmann::ordered_json::array();
        std::size_t at = 0;
        for (std::size_t comma; at <= text.size(); at = comma + 1)
        {
            comma = std::min(text.find(',', at), text.size());
            if (!number(text.substr(at, comma - at), &value))
                return text;
            items.push_back(value);
        }
        return items;
    }
    return text;
}

/// The options that shape an output, as JSON: {"option": value, ...} with values typed (typedJsonValue), every setting
/// of the table that applies (given or default, in the table's order; a kernel file's path absolute), then the CLI's
/// own that shape an output (given, else their default when they have one). Every output records it (provenance.h).
std::string outputSettingsJson(const CLI::App& app, const BloomSettings& bloom)
{
    nlohmann::ordered_json settings = nlohmann::ordered_json::object();
    for (const std::string& line : settingLines(bloom))
    {
        const std::size_t eq = line.find('=');
        const std::string name = line.substr(0, eq);
        settings[name] =
            name == "kernel"
                ? nlohmann::ordered_json(std::filesystem::absolute(bloom.kernel.file).lexically_normal().string())
                : typedJsonValue(line.substr(eq + 1));
    }
    for (const char* name : {"--clamp", "--part", "--layer", "--view", "--pixel-type", "--compression",
                             "--expand-data-window", "--expand-limit"})
    {
        const CLI::Option* option = app.get_option(name);
        std::string value = option->get_default_str();
        if (option->count() > 0)
        {
            value.clear();
            for (const std::string& result : option->results())
                value += (value.empty() ? "" : ",") + result;
        }
        const std::string_view which = name;
        if (which == "--expand-data-window") // a flag: there when given
            value = option->count() > 0 ? "true" : "";
        if (!value.empty()) // --part, --layer and --view are names, whatever their characters
            settings[option->get_single_name()] = which == "--part" || which == "--layer" || which == "--view"
                                                      ? nlohmann::ordered_json(value)
                                                      : typedJsonValue(value);
    }
    return settings.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// The text of the CLI's own options that are read after parsing.
struct CliTexts
{
    std::string frames, shard, chunk, pixelType, compression, expandLimit;
    std::string logFormat = "text";
};

/// A setting of the table as an option: its text as given (or its switch), read into the settings after parsing.
struct SettingOption
{
    const SettingEntry* entry = nullptr;
    std::string text;
    bool on = false; ///< a flag's
    CLI::Option* option = nullptr;
};

/// What --help says before the options.
constexpr const char* kDescription =
    "fftbloom: FFT-convolution bloom of OpenEXR / Radiance HDR frames with a point spread function.\n"
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
    "2 usage error (nothing done), 3 GPU failure (the batch stopped; frames not written failed).";

/// --settings files for CLI11 (its Config interface), read by parseSettingsText (settings_file.h): each name checked
/// against the options, and the line of each kept, so that an error in a value names the file and the line.
class SettingsFileFormat : public CLI::Config
{
  public:
    SettingsFileFormat(const CLI::App& app, int argc, const char* const* argv)
        : app_(app), arguments_(argv, argv + argc)
    {
    }

    std::string to_config(const CLI::App*, bool, bool, std::string) const override { return std::string(); }

    std::vector<CLI::ConfigItem> from_config(std::istream& input) const override
    {
        std::vector<CLI::ConfigItem> result;
        try
        {
            for (SettingsFileLine& line : parseSettingsText(input))
            {
                const std::string where = "line " + std::to_string(line.number) + ": ";
                if (line.name == "settings")
                    throw HostError(where + "a settings file cannot read another");
                if (const char* now = renamedSetting(line.name))
                    throw HostError(where + "'" + line.name + "' is now '" + now + "'");
                if (!app_.get_option_no_throw("--" + line.name))
                    throw HostError(where + "unknown option '" + line.name + "'");
                lines_[line.name] = line.number;
                result.push_back({{}, line.name, {std::move(line.value)}});
            }
        }
        catch (const HostError& e)
        {
            throw CLI::ConfigError(e.what());
        }
        return result;
    }

    /// `error` with "--settings FILE:LINE: " before it when it came from settings file `path`: CLI11 names the option
    /// (--NAME: ...) but not where its value came from. The command line overrides the file.
    std::string message(const CLI::Error& error, const std::string& path) const
    {
        const std::string text = error.what();
        if (dynamic_cast<const CLI::ConfigError*>(&error))
            return "--settings " + path + (text.rfind("line ", 0) == 0 ? ":" + text.substr(5) : ": " + text);
        const std::size_t colon = text.find(':');
        if (text.rfind("--", 0) != 0 || colon == std::string::npos)
            return text;
        const std::string name = text.substr(2, colon - 2);
        const auto line = lines_.find(name);
        const bool given =
            std::any_of(arguments_.begin(), arguments_.end(),
                        [&](const std::string& a) { return a == "--" + name || a.rfind("--" + name + "=", 0) == 0; });
        if (line == lines_.end() || given)
            return text;
        return "--settings " + path + ":" + std::to_string(line->second) + ": " + text;
    }

  private:
    const CLI::App& app_;
    std::vector<std::string> arguments_;
    mutable std::map<std::string, int> lines_; ///< each name's line, filled as CLI11 reads the file
};

/// The inputs, --settings and the lists.
void addInputOptions(CLI::App& app, CliOptions& o, CliTexts& t, const std::shared_ptr<SettingsFileFormat>& format)
{
    app.set_version_flag("--version", fftbloomVersion());
    app.add_option("inputs", o.inputs, "input frames: OpenEXR (.exr) or Radiance (.hdr)");
    // A preset: option=value lines (e.g. "intensity=0.5", "tint=1,0.9,0.8"; # starts a comment), as the viewer
    // saves them. Options on the command line override it.
    app.set_config("--settings", "",
                   "read options from FILE: one option=value a line, the long option's name without --, as "
                   "fftbloom-viewer saves them (README.md); the command line overrides them")
        ->check(CLI::Validator([](std::string& path) { return settingsFileProblem(path); }, "FILE"));
    // A value is read whole ("tint=1,0.9,0.8", "kernel=my psf.exr"), as the viewer reads it: no arrays split off.
    app.config_formatter(format);
    CLI::Option* list = app.add_option("--list", o.listPath,
                                       "also read input paths from this file, one a line (empty lines ignored; a "
                                       "line holding a NUL byte is an error: use --list0)");
    app.add_option("--list0", o.list0Path,
                   "also read input paths from this file, each ended by a NUL byte (find -print0, as xargs -0)")
        ->excludes(list);
    app.add_option("--frames", t.frames,
                   "the frames of inputs named by a pattern (shot.####.exr or shot.@@@@.exr: one # or @ per digit, "
                   "padded; shot.%04d.exr; shot.%d.exr unpadded): FIRST-LAST (descending when FIRST > LAST), "
                   "FIRST-LASTxSTEP or FRAME, negative with a '-', comma-separated, e.g. 1001-1100x2,1200; missing "
                   "frames are named on one line and fail. Without it, a pattern's frames are those on disk (gaps "
                   "named), or those its name lists as oiiotool's shot.1001-1100#.exr does ('#' alone: 4 digits)")
        ->check(
            [](const std::string& s)
            {
                std::vector<int> parsed;
                std::string error;
                return parseFrameList(s, &parsed, &error) ? std::string() : error;
            });
}

/// Where outputs go, the shards, the report and the run's own behaviour.
void addOutputOptions(CLI::App& app, CliOptions& o, CliTexts& t)
{
    CLI::Option* single =
        app.add_option("-o", o.output,
                       "output OpenEXR (named .exr; a PNG is --preview) of a single input, or of each "
                       "frame with a frame placeholder (bloomed/shot_bloom.####.exr: the input's "
                       "frame number); never an input");
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
    CLI::Option* shardOption =
        app.add_option("--shard", t.shard,
                       "I/N: process frames I, I+N, I+2N, ... of the list (0 <= I < N); slurm: I and N of this task "
                       "of a Slurm job array (SLURM_ARRAY_TASK_ID, _MIN, _STEP, _COUNT; docs/farm.md)")
            ->check(taskOfN);
    app.add_option("--chunk", t.chunk,
                   "I/N: process the I-th of N contiguous runs of the list, e.g. frames 1026-1050 of --frames "
                   "1001-1100 --chunk 1/4 (the first len % N runs one frame longer); slurm as for --shard")
        ->check(taskOfN)
        ->excludes(shardOption);
    app.add_option("--log-format", t.logFormat,
                   "text: lines for people, a frame's with its time (ISO 8601, UTC) when stdout is no terminal; json: "
                   "every line on stdout and stderr a JSON object with \"time\" and \"level\", --dry-run's "
                   "included (docs/farm.md)")
        ->capture_default_str()
        ->check(CLI::IsMember({"text", "json"}));
    app.add_option("--report", o.reportPath,
                   "append a JSON Lines report: a run line, a line per frame as it ends (a killed run keeps them), a "
                   "summary line");
    app.add_option("--threads", o.batch.threads, "decode and encode threads; default: one per hardware thread")
        ->check(CLI::Range(1u, 1024u));
    app.add_option("--clamp", o.batch.scrubMax, "largest colour value passed to the bloom; larger ones are clamped")
        ->capture_default_str()
        ->check(finiteIn(0.0, kMaxLinearValue, true));
    CLI::Option* preview =
        app.add_option("--preview", o.preview.path,
                       "with -o: also write an 8-bit PNG preview here (a frame placeholder as in -o), through the "
                       "default display and view of the OpenColorIO config $OCIO names, else tonemapped (ACES fitted, "
                       "as the viewer's default) to sRGB; at the display window; a stereo frame's views side by side, "
                       "or with %V in the path one PNG per view, %V its name")
            ->needs(single);
    CLI::Option* previewPattern =
        app.add_option("--preview-pattern", o.preview.pattern,
                       "a PNG preview of each frame, named as --output-pattern names outputs, e.g. "
                       "dailies/{stem}.####.png; {view} (or %V) names a stereo frame's views, a PNG each")
            ->excludes(preview)
            ->transform(
                [](std::string s)
                {
                    for (std::size_t at; (at = s.find("{view}")) != std::string::npos;)
                        s.replace(at, 6, kViewToken);
                    return s;
                })
            ->check([](const std::string& s) { return checkOutputPattern(s); });
    app.add_option("--preview-dir", o.preview.dir, "a PNG preview of each frame: DIR/<output's name>.png")
        ->excludes(preview)
        ->excludes(previewPattern);
    // Each needs one of the three (checked in resolveInputs).
    app.add_option("--ocio-display", o.ocio.display, "the previews' OpenColorIO display; default: the config's");
    app.add_option("--ocio-view", o.ocio.view, "the previews' view of that display; default: the display's");
    app.add_option("--ocio-look", o.ocio.look, "OpenColorIO looks applied before the view, e.g. grade or +a, -b");
    app.add_option("--exposure", o.batch.previewExposure, "preview exposure in stops, -64..64")
        ->capture_default_str()
        ->check(finiteIn(-64.0, 64.0));
}

/// Every setting of the table as --NAME: its check the table's parser, its default the table's print of the
/// defaults; the generated PSF's exclude --kernel. `options` must hold the table's size in capacity.
void addSettingOptions(CLI::App& app, std::vector<SettingOption>& options)
{
    const BloomSettings defaults;
    CLI::Option* kernelFile = nullptr;
    for (const SettingEntry& entry : settingTable())
    {
        SettingOption& o = options.emplace_back();
        o.entry = &entry;
        const std::string name = std::string("--") + entry.name;
        if (entry.flag)
            o.option = app.add_flag(name, o.on, entry.help);
        else
            o.option = app.add_option(name, o.text, entry.help)
                           ->type_name(entry.form)
                           ->default_str(entry.print(defaults))
                           ->check(
                               [&entry](const std::string& text)
                               {
                                   BloomSettings b;
                                   std::string reason;
                                   return entry.parse(text, b, &reason) ? std::string() : reason; // CLI11 names it
                               });
        if (entry.scope == SettingScope::KernelFile)
            kernelFile = o.option;
        else if (entry.scope == SettingScope::GeneratedKernel && kernelFile)
            o.option->excludes(kernelFile);
    }
}

/// The EXR part and layer, the device, the messages.
void addRunOptions(CLI::App& app, CliOptions& o, CliTexts& t)
{
    app.add_option("--part", o.batch.selection.part,
                   "of multi-part OpenEXR inputs, bloom the part with this name; default: the first part holding the "
                   "layer's R, G, B. Every other part is copied as it is (docs/exr.md)");
    app.add_option("--layer", o.batch.selection.layer,
                   "bloom the channels NAME.R, NAME.G, NAME.B (NAME.A as alpha; each may be lower case), e.g. "
                   "diffuse or ViewLayer.Combined; default: R, G, B. Every other channel is kept as it is")
        ->check([](const std::string& s) -> std::string
                { return s.empty() || s.front() == '.' || s.back() == '.' ? s + " is not a layer name" : ""; });
    app.add_option("--view", o.batch.selection.view,
                   "of multi-view (stereo) OpenEXR inputs, bloom this view only (e.g. left), the others copied; "
                   "default: every view (docs/exr.md)");
    app.add_option("--pixel-type", t.pixelType,
                   "output channel type of the bloomed part, half or float; default: as the input's")
        ->check(CLI::IsMember({"half", "float"}));
    CLI::Option* grow =
        app.add_flag("--expand-data-window", o.batch.growth.on,
                     "grow each output's data window by the kernel's reach past the input's, black where the input has "
                     "no texels, so that the glow of lights near a crop's edge is kept");
    app.add_option("--expand-limit", t.expandLimit,
                   "with --expand-data-window: at most PIXELS a side, or display: not past the display window")
        ->needs(grow)
        ->check([](const std::string& s) -> std::string
                { return s == "display" || parsedLimit(s) >= 0 ? "" : s + " is not display or pixels (0..65536)"; });
    app.add_option("--compression", t.compression,
                   "the bloomed part's OpenEXR compression: none, rle, zips, zip, piz, pxr24, b44, b44a, dwaa, dwab; "
                   "default: as the input's. The other parts are copied as they are")
        ->check(CLI::IsMember(compressionNames()));
    app.add_option("--device", o.runner.deviceIndex,
                   "Vulkan physical device index, >= 0; default: the first discrete GPU, else lavapipe (CPU)")
        ->check(CLI::Range(0, 1000000));
    app.add_flag("--validate", o.runner.validation,
                 "enable the Khronos validation layer (synchronization validation included) and fail on any message "
                 "it prints");
    CLI::Option* quiet = app.add_flag("-q,--quiet", o.quiet, "print errors only: no progress, no summary");
    app.add_flag("-v,--verbose", o.verbose, "print a line per frame with its FFT plan and timings")->excludes(quiet);
    app.get_formatter()->column_width(30);
}

int usage(const std::string& message)
{
    printMessage("fftbloom", message);
    return 2;
}

/// Reads the settings given into `o` (each checked by its option) and checks how they go together.
std::optional<int> applySettings(const std::vector<SettingOption>& options, CliOptions& o)
{
    BloomSettings& settings = o.batch.settings;
    for (const SettingOption& option : options)
        if (option.option->count() > 0)
            option.entry->parse(option.entry->flag ? (option.on ? "true" : "false") : option.text, settings, nullptr);
    if (const std::optional<SettingBreach> breach = checkSettings(settings, !settings.kernel.file.empty()))
        return usage(breachText(*breach, "--"));
    return std::nullopt;
}

/// The shard or chunk, the lists and the frames; then whether inputs and outputs go together.
std::optional<int> resolveInputs(const CliTexts& t, CliOptions& o)
{
    if (!t.pixelType.empty())
        o.batch.pixelType = t.pixelType == "half" ? PixelType::Half : PixelType::Float;
    o.batch.growth.toDisplayWindow = t.expandLimit == "display";
    if (!t.expandLimit.empty() && t.expandLimit != "display")
        o.batch.growth.maxPixels = parsedLimit(t.expandLimit);
    if (!t.compression.empty())
        o.batch.compression =
            Compression(std::find(compressionNames().begin(), compressionNames().end(), t.compression) -
                        compressionNames().begin());
    o.contiguous = !t.chunk.empty();
    const std::string& task = o.contiguous ? t.chunk : t.shard;
    if (task == "slurm")
    {
        if (std::string error; !slurmShard(&o.shardIndex, &o.shardCount, &error))
            return usage(std::string(o.contiguous ? "--chunk" : "--shard") + " slurm: " + error);
    }
    else if (!task.empty())
        std::sscanf(task.c_str(), "%u/%u", &o.shardIndex, &o.shardCount);
    if (!task.empty())
        o.shardText = std::to_string(o.shardIndex) + "/" + std::to_string(o.shardCount);
    for (const auto& [path, separator] : {std::pair{o.listPath, '\n'}, std::pair{o.list0Path, '\0'}})
        if (!path.empty())
            if (std::string error; !readList(path, separator, &o.inputs, &error))
                return usage(std::string(separator == '\n' ? "--list " : "--list0 ") + path + ": " + error);
    try
    {
        std::vector<int> frameList;
        if (std::string unused; !t.frames.empty())
            parseFrameList(t.frames, &frameList, &unused); // checked by its option
        o.frames = resolveFrames(o.inputs, frameList, &o.gaps);
        if (!o.frames.empty() && !o.output.empty() && o.frames.size() != 1 && !findFramePattern(o.output))
            return usage("-o names one output, but " + std::to_string(o.frames.size()) +
                         " inputs were given; give it a frame placeholder (-o bloomed/shot_bloom.####.exr), or use "
                         "--out-dir or --output-pattern");
    }
    catch (const HostError& e)
    {
        return usage(e.what());
    }
    o.inputs.clear();
    for (const FrameInput& frame : o.frames)
        o.inputs.push_back(frame.path);
    if (o.inputs.empty())
        return usage("no input frames (give paths, --list or --list0)");
    if (o.output.empty() && o.outDir.empty() && o.outputPattern.empty())
        return usage("say where outputs go: -o FILE (one input), --out-dir DIR or --output-pattern PATTERN");
    const bool previews = !o.preview.path.empty() || !o.preview.pattern.empty() || !o.preview.dir.empty();
    for (const auto& [name, value] : {std::pair{"--ocio-display", &o.ocio.display},
                                      std::pair{"--ocio-view", &o.ocio.view}, std::pair{"--ocio-look", &o.ocio.look}})
        if (!previews && !value->empty())
            return usage(std::string(name) + " chooses the previews' display transform: it needs --preview, "
                                             "--preview-pattern or --preview-dir");
    return std::nullopt;
}

/// Whether the log format asked for is json: the command line's --log-format, else its --settings file's log-format
/// line (a file that cannot be read is named by the parse, in text).
bool jsonLogs(const std::vector<std::string>& arguments)
{
    std::string settings;
    for (std::size_t i = 1; i < arguments.size(); ++i)
    {
        const std::string& a = arguments[i];
        const std::string next = i + 1 < arguments.size() ? arguments[i + 1] : "";
        if (a.rfind("--log-format=", 0) == 0 || a == "--log-format")
            return (a == "--log-format" ? next : a.substr(13)) == "json";
        if (a == "--settings" || a.rfind("--settings=", 0) == 0)
            settings = a == "--settings" ? next : a.substr(11);
    }
    if (settings.empty())
        return false;
    try
    {
        for (const SettingsFileLine& line : readSettingsFile(settings))
            if (line.name == "log-format")
                return line.value == "json";
    }
    catch (const HostError&)
    {
    }
    return false;
}

} // namespace

std::optional<int> parseOptions(int argc, char** argv, CliOptions& o)
{
    // The log format first, so that a usage error is written in the format asked for; each run says it: a process
    // may run several (the Python module's run_batch).
    o.arguments.assign(argv, argv + argc);
    setMessageFormat(jsonLogs(o.arguments) ? MessageFormat::Json : MessageFormat::Text);
    for (std::size_t i = 1; i < o.arguments.size(); ++i)
    {
        const std::string& a = o.arguments[i];
        const std::string name = a.rfind("--", 0) == 0 ? a.substr(2, a.find('=') - 2) : "";
        if (const char* now = renamedSetting(name))
            return usage("--" + name + " is now --" + now);
    }
    CLI::App app{kDescription, "fftbloom"};
    CliTexts texts;
    std::vector<SettingOption> settings;
    settings.reserve(settingTable().size()); // each option keeps the address of its text
    const auto format = std::make_shared<SettingsFileFormat>(app, argc, argv);
    addInputOptions(app, o, texts, format);
    addOutputOptions(app, o, texts);
    addSettingOptions(app, settings);
    addRunOptions(app, o, texts);
    try
    {
        app.parse(argc, argv);
    }
    catch (const CLI::ParseError& e)
    {
        if (e.get_exit_code() == 0) // --help, --version
            return app.exit(e);
        // One line like every other fftbloom error (CLI11's adds a "Run with --help" line), with exit code 2 for every
        // usage error, as documented, rather than CLI11's per-error codes (105, 106, ...). A settings file's name as
        // given: as<>() would run its validator again, which may throw.
        const CLI::Option* config = app.get_config_ptr();
        printMessage("fftbloom", config && !config->results().empty() ? format->message(e, config->results().front())
                                                                      : std::string(e.what()));
        return 2;
    }
    if (const CLI::Option* config = app.get_config_ptr(); config && config->count() > 0)
        o.settingsPath = config->as<std::string>();
    if (const std::optional<int> stop = applySettings(settings, o))
        return stop;
    o.settingsJson = outputSettingsJson(app, o.batch.settings);
    return resolveInputs(texts, o);
}

} // namespace fftb
