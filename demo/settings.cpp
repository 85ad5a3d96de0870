// SPDX-License-Identifier: MIT
// Parsing key=value settings, the display's here and the bloom's and kernel's by the settings table: one line naming
// the key and the value on every error.
#include "settings.h"

#include "host_error.h"
#include "settings/check_settings.h"
#include "settings/setting_table.h"
#include "settings/settings_file.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <system_error>

namespace fftb::viewer
{

namespace
{

template <typename T>
bool parseChoice(const std::string& text, std::initializer_list<std::pair<const char*, T>> choices, T* value)
{
    for (const auto& [name, v] : choices)
        if (text == name)
        {
            *value = v;
            return true;
        }
    return false;
}

/// `text` whole as a finite number in [low, high].
bool parseReal(const std::string& text, float low, float high, float* value)
{
    float v = 0.0f;
    const char* end = text.data() + text.size();
    const auto [rest, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc() || rest != end || !std::isfinite(v) || v < low || v > high)
        return false;
    *value = v;
    return true;
}

/// The values of show=.
constexpr std::initializer_list<std::pair<const char*, View>> kShownViews = {
    {"composite", View::Composite},   {"bloom", View::Bloom},   {"input", View::Input},      {"split", View::Split},
    {"difference", View::Difference}, {"kernel", View::Kernel}, {"spectrum", View::Spectrum}};

/// One of the viewer's display keys: its --help line and its parser.
struct DisplayKey
{
    const char* name;
    const char* line; ///< "name=FORM (help)"
    bool (*parse)(const std::string& value, Settings& s);
};

const DisplayKey kDisplayKeys[] = {
    {"show", "show=composite|bloom|input|split|difference|kernel|spectrum (what the window shows)",
     [](const std::string& v, Settings& s) { return parseChoice<View>(v, kShownViews, &s.view); }},
    {"view",
     "view=NAME (of a multi-view (stereo) OpenEXR file, the view shown, e.g. right, as the CLI's --view; empty: the "
     "first; what the window shows is show=)",
     [](const std::string& v, Settings& s)
     {
         View shown;
         if (parseChoice<View>(v, kShownViews, &shown))
             return false; // a settings file of the key's old meaning: refused, naming show=
         s.selection.view = v;
         return true;
     }},
    {"tonemap",
     "tonemap=aces|aces-hill|reinhard|clamp|ocio (ocio: the OpenColorIO config $OCIO names, the default when it is "
     "set; else aces, as the CLI's preview)",
     [](const std::string& v, Settings& s)
     {
         return parseChoice<Tonemapper>(v,
                                        {{"aces", Tonemapper::AcesFitted},
                                         {"aces-hill", Tonemapper::AcesHill},
                                         {"reinhard", Tonemapper::Reinhard},
                                         {"clamp", Tonemapper::Clamp},
                                         {"ocio", Tonemapper::Ocio}},
                                        &s.tonemapper);
     }},
    {"ocio-display", "ocio-display=NAME (tonemap=ocio's display, as the CLI's --ocio-display; empty: the config's)",
     [](const std::string& v, Settings& s)
     {
         s.ocio.display = v;
         return true;
     }},
    {"ocio-view", "ocio-view=NAME (that display's view; empty: the display's default)",
     [](const std::string& v, Settings& s)
     {
         s.ocio.view = v;
         return true;
     }},
    {"ocio-look", "ocio-look=NAME (looks applied before the view, e.g. grade or +a, -b; empty: none)",
     [](const std::string& v, Settings& s)
     {
         s.ocio.look = v;
         return true;
     }},
    {"exposure", "exposure=STOPS (-16..16)",
     [](const std::string& v, Settings& s) { return parseReal(v, -16.0f, 16.0f, &s.exposure); }},
    {"ui", "ui=on|off",
     [](const std::string& v, Settings& s) {
         return parseChoice<bool>(v, {{"on", true}, {"off", false}}, &s.ui);
     }},
    {"advanced",
     "advanced=open|closed (the panel's fold of engineering controls: axis order, spectrum, storage, "
     "resolution, the plan)",
     [](const std::string& v, Settings& s) {
         return parseChoice<bool>(v, {{"open", true}, {"closed", false}}, &s.advanced);
     }},
    {"part", "part=NAME (the OpenEXR part shown, by its name; empty: the first part holding the layer's R, G, B)",
     [](const std::string& v, Settings& s)
     {
         s.selection.part = v;
         return true;
     }},
    {"layer", "layer=NAME (the layer shown: NAME.R, NAME.G, NAME.B, as the CLI's --layer; empty: R, G, B)",
     [](const std::string& v, Settings& s)
     {
         s.selection.layer = v;
         return true;
     }},
    {"split", "split=F (0..1 across the view, A left of it)",
     [](const std::string& v, Settings& s) { return parseReal(v, 0.0f, 1.0f, &s.split); }},
    {"difference-gain", "difference-gain=STOPS (0..16)",
     [](const std::string& v, Settings& s) { return parseReal(v, 0.0f, 16.0f, &s.differenceGain); }},
    {"compare", "compare=composite|bloom",
     [](const std::string& v, Settings& s) {
         return parseChoice<bool>(v, {{"composite", false}, {"bloom", true}}, &s.compareBloomOnly);
     }},
    {"rerun",
     "rerun=auto|always|changes (the bloom every frame, or when its inputs change; auto: every frame on a GPU)",
     [](const std::string& v, Settings& s)
     {
         return parseChoice<Rerun>(
             v, {{"auto", Rerun::Auto}, {"always", Rerun::EveryFrame}, {"changes", Rerun::OnChange}}, &s.rerun);
     }},
};

bool refuse(std::string* error, const std::string& reason)
{
    if (error)
        *error = "--settings: " + reason;
    return false;
}

/// A key of the settings table, then the viewer's rule: the bloom output as the bloom view.
bool applyTableSetting(Settings& s, const SettingEntry& entry, const std::string& keyValue, std::string* error)
{
    std::string reason;
    const FftbOutputMode output = s.bloom.frame.output;
    if (!entry.parse(keyValue.substr(keyValue.find('=') + 1), s.bloom, &reason))
        return refuse(error, "'" + keyValue + "': " + reason);
    if (s.bloom.frame.output == FFTB_OUTPUT_MODE_BLOOM)
    {
        s.view = View::Bloom;
        s.bloom.frame.output = output;
    }
    return true;
}

} // namespace

const std::vector<std::string>& settingKeys()
{
    static const std::vector<std::string> keys = []
    {
        std::vector<std::string> lines;
        for (const DisplayKey& key : kDisplayKeys)
            lines.push_back(key.line);
        for (const SettingEntry& entry : settingTable())
            lines.push_back(settingHelpLine(entry));
        lines.push_back("b.KEY=VALUE (B's bloom and kernel settings in the split and difference views)");
        return lines;
    }();
    return keys;
}

bool checkViewerSettings(const Settings& s, std::string* error, const std::string& prefix)
{
    if (const std::optional<SettingBreach> breach = checkSettings(s.bloom, !s.bloom.kernel.file.empty()))
        return refuse(error, breachText(*breach, prefix));
    return true;
}

bool applySetting(Settings& s, const std::string& keyValue, std::string* error)
{
    const size_t eq = keyValue.find('=');
    if (eq == std::string::npos)
        return refuse(error, "'" + keyValue + "' is not key=value");
    const std::string key = keyValue.substr(0, eq);
    for (const DisplayKey& display : kDisplayKeys)
        if (key == display.name)
            return display.parse(keyValue.substr(eq + 1), s) ||
                   refuse(error, "'" + keyValue + "' is outside " + display.line);
    if (const SettingEntry* entry = findSetting(key))
        return applyTableSetting(s, *entry, keyValue, error);
    if (const char* now = renamedSetting(key))
        return refuse(error, "'" + key + "' is now '" + now + "'");
    return refuse(error, "unknown key '" + key + "'");
}

namespace
{

/// `text` quoted for a POSIX shell when it holds anything but safe characters.
std::string shellWord(const std::string& text)
{
    const bool safe = !text.empty() && text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                              "0123456789-_.,/:+=") == std::string::npos;
    if (safe)
        return text;
    std::string quoted = "'";
    for (char c : text)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

} // namespace

std::string cliCommand(const Settings& settings, const std::string& input, const std::string& output)
{
    const Settings defaults;
    std::string command = "fftbloom " + shellWord(input) + " -o " + shellWord(output);
    for (const SettingEntry& entry : settingTable())
    {
        if (!settingApplies(entry, settings.bloom.kernel))
            continue;
        const std::string value = entry.print(settings.bloom);
        if (settingApplies(entry, defaults.bloom.kernel) && value == entry.print(defaults.bloom))
            continue;
        // A flag's "true" is the flag alone: its value on the command line would be read as an input.
        command += " --" + std::string(entry.name);
        if (!entry.flag)
        {
            command += ' ';
            command += shellWord(value);
        }
    }
    return command;
}

bool applySettingsFile(Settings& settings, const std::string& path, std::string* error)
{
    std::vector<SettingsFileLine> lines;
    try
    {
        lines = readSettingsFile(path);
    }
    catch (const HostError& e)
    {
        *error = e.what();
        return false;
    }
    for (const SettingsFileLine& line : lines)
    {
        std::string reason;
        if (!applySetting(settings, line.name + "=" + line.value, &reason))
        {
            *error = path + ":" + std::to_string(line.number) + ": " + reason.substr(reason.find(": ") + 2);
            return false;
        }
    }
    if (std::string reason; !checkViewerSettings(settings, &reason))
    {
        *error = path + ": " + reason.substr(reason.find(": ") + 2);
        return false;
    }
    return true;
}

bool writeSettingsFile(const Settings& settings, const std::string& path, const std::vector<std::string>& reads,
                       std::string* error)
{
    std::error_code ec;
    for (const std::string& read : reads)
        if (!read.empty() && std::filesystem::equivalent(path, read, ec))
        {
            *error = path + ": is " + read + ", which is read; not overwritten";
            return false;
        }
    const std::string temporary = path + ".tmp";
    {
        std::ofstream file(temporary, std::ios::trunc);
        file << "# fftbloom settings: fftbloom --settings FILE, fftbloom-viewer --settings FILE\n";
        for (const std::string& line : settingLines(settings.bloom))
            file << line << "\n";
        file.close();
        if (!file)
        {
            std::remove(temporary.c_str());
            *error = path + ": cannot be written";
            return false;
        }
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0)
    {
        std::remove(temporary.c_str());
        *error = path + ": cannot be written";
        return false;
    }
    return true;
}

} // namespace fftb::viewer
