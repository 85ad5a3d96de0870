// SPDX-License-Identifier: MIT
// Parsing key=value settings: one line naming the key and the accepted values on every error.
#include "settings.h"

#include "runner/setting_names.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace fftb::viewer
{

namespace
{

bool parseFloat(const std::string& text, double low, double high, double* value)
{
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(v) || v < low || v > high)
        return false;
    *value = v;
    return true;
}

/// N comma-separated numbers, each as parseFloat; `values` unchanged unless all N parse.
template <size_t N> bool parseFloats(const std::string& text, double low, double high, std::array<float, N>* values)
{
    std::array<float, N> parsed{};
    size_t start = 0;
    for (size_t i = 0; i < N; ++i)
    {
        const size_t comma = i + 1 < N ? text.find(',', start) : text.size();
        double f = 0.0;
        if (comma == std::string::npos || !parseFloat(text.substr(start, comma - start), low, high, &f))
            return false;
        parsed[i] = float(f);
        start = comma + 1;
    }
    *values = parsed;
    return true;
}

bool parseInt(const std::string& text, int low, int high, int* value)
{
    int v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < low || v > high)
        return false;
    *value = v;
    return true;
}

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

} // namespace

const std::vector<std::string>& settingKeys()
{
    static const std::vector<std::string> keys = {
        "view=composite|bloom|input|split|difference|kernel|spectrum",
        "tonemap=aces|aces-hill|reinhard|clamp",
        "exposure=STOPS (-16..16)",
        "intensity=F (0 .. 65504; below 0.001 taken as 0.001: the composite of intensity 0 is view=input)",
        "tint=R,G,B (the bloom's colour multipliers, each >= 0; 1,1,1: none)",
        "sharpen=T (0..1)",
        "output=composite|additive|bloom (the energy-conserving or the additive composite; bloom: view=bloom)",
        "threshold=T (0..65504, the prefilter's; 0: off)",
        "knee=K (the prefilter's soft-knee width, 0..65504, at most the threshold when used)",
        "bloom-clamp=C (0..65504, the prefilter's; 0: none)",
        "padding=zero-normalized|zero|mirror",
        "axis=auto|x|y",
        "spectrum=resampled|exact",
        "precision=fp32|fp16 (the spectra's storage between the passes; fp16 needs a bloom-clamp beside extreme "
        "highlights)",
        "resolution=full|half (half convolves the frame downsampled 2x per axis; needs spectrum=resampled)",
        "kernel-size=N (the kernel's resolution in texels: a power of two, 16..1024)",
        "kernel-span=native|<n>px|<f>diag (how large the kernel appears: its larger side spans n pixels or a "
        "fraction f of the frame's diagonal; at most 1024 pixels)",
        "kernel-rotation=DEG (the kernel turned counter-clockwise about the point on the light)",
        "kernel-centre-offset=U,V (the kernel's point on the light, from its centre, in its width and height; each "
        "-1..1)",
        "kernel=generated|PATH",
        "blades=N (0 or 3..16)",
        "blade-curvature=F (0..1)",
        "obstruction=F (0..0.9)",
        "vanes=N (0..8)",
        "airy-radius=TEXELS (1..16)",
        "ui=on|off",
        "split=F (0..1 across the view, A left of it)",
        "difference-gain=STOPS (0..16)",
        "compare=composite|bloom",
        "rerun=auto|always|changes (the bloom every frame, or when its inputs change; auto: every frame on a GPU)",
        "b.KEY=VALUE (B's bloom and kernel settings in the split and difference views)"};
    return keys;
}

bool applySetting(Settings& s, const std::string& keyValue, std::string* error)
{
    const size_t eq = keyValue.find('=');
    if (eq == std::string::npos)
    {
        if (error)
            *error = "--settings: '" + keyValue + "' is not key=value";
        return false;
    }
    const std::string key = keyValue.substr(0, eq);
    const std::string value = keyValue.substr(eq + 1);
    auto real = [&](double low, double high, auto assign)
    {
        double f = 0.0;
        return parseFloat(value, low, high, &f) ? (assign(f), true) : false;
    };
    auto integer = [&](int low, int high, auto assign)
    {
        int i = 0;
        return parseInt(value, low, high, &i) ? assign(i) : false;
    };
    bool known = true;
    bool ok = false;
    if (key == "view")
        ok = parseChoice<View>(value,
                               {{"composite", View::Composite},
                                {"bloom", View::Bloom},
                                {"input", View::Input},
                                {"split", View::Split},
                                {"difference", View::Difference},
                                {"kernel", View::Kernel},
                                {"spectrum", View::Spectrum}},
                               &s.view);
    else if (key == "tonemap")
        ok = parseChoice<Tonemapper>(value,
                                     {{"aces", Tonemapper::AcesFitted},
                                      {"aces-hill", Tonemapper::AcesHill},
                                      {"reinhard", Tonemapper::Reinhard},
                                      {"clamp", Tonemapper::Clamp}},
                                     &s.tonemapper);
    else if (key == "exposure")
        ok = real(-16.0, 16.0, [&](double f) { s.exposure = float(f); });
    else if (key == "intensity")
        ok = real(0.0, 65504.0, [&](double f) { s.intensity = std::max(float(f), kMinimumIntensity); });
    else if (key == "tint")
        ok = parseFloats(value, 0.0, 65504.0, &s.tint);
    else if (key == "sharpen")
        ok = real(0.0, 1.0, [&](double f) { s.sharpen = float(f); });
    else if (key == "output")
    {
        // The CLI's --output: its bloom-only output is the viewer's bloom view.
        ok =
            value == "bloom" ||
            parseChoice<CompositeMode>(
                value, {{"composite", CompositeMode::Conserving}, {"additive", CompositeMode::Additive}}, &s.composite);
        if (value == "bloom")
            s.view = View::Bloom;
    }
    else if (key == "threshold")
        ok = real(0.0, 65504.0, [&](double f) { s.threshold = float(f); });
    else if (key == "knee")
        ok = real(0.0, 65504.0, [&](double f) { s.knee = float(f); });
    else if (key == "bloom-clamp")
        ok = real(0.0, 65504.0, [&](double f) { s.clamp = float(f); });
    else if (key == "padding")
        ok = parseSettingName(value, kPaddingNames, &s.padding);
    else if (key == "axis")
        ok = parseSettingName(value, kAxisOrderNames, &s.axisOrder);
    else if (key == "spectrum")
        ok = parseSettingName(value, kSpectrumModeNames, &s.spectrum);
    else if (key == "precision")
        ok = parseSettingName(value, kStoragePrecisionNames, &s.storage);
    else if (key == "resolution")
        ok = parseSettingName(value, kResolutionNames, &s.resolution);
    else if (key == "kernel-size")
        ok = integer(16, 1024,
                     [&](int i)
                     {
                         if ((i & (i - 1)) != 0)
                             return false;
                         s.kernelSize = i;
                         return true;
                     });
    else if (key == "kernel-rotation")
        ok = real(-1.0e6, 1.0e6, [&](double f) { s.kernelRotationDegrees = float(f); });
    else if (key == "kernel-centre-offset")
        ok = parseFloats(value, -1.0, 1.0, &s.kernelCentreOffset);
    else if (key == "kernel-span")
        ok = parseKernelSpan(value, &s.kernelSpan, nullptr);
    else if (key == "kernel")
    {
        ok = !value.empty();
        s.kernelFile = value == "generated" ? std::string() : value;
    }
    else if (key == "blades")
        ok = integer(0, 16,
                     [&](int i)
                     {
                         if (i == 1 || i == 2)
                             return false;
                         s.aperture.blades = i;
                         return true;
                     });
    else if (key == "blade-curvature")
        ok = real(0.0, 1.0, [&](double f) { s.aperture.bladeCurvature = f; });
    else if (key == "obstruction")
        ok = real(0.0, 0.9, [&](double f) { s.aperture.obstruction = f; });
    else if (key == "vanes")
        ok = integer(0, 8,
                     [&](int i)
                     {
                         s.aperture.vanes = i;
                         return true;
                     });
    else if (key == "airy-radius")
        ok = real(1.0, 16.0, [&](double f) { s.airyRadiusTexels = f; });
    else if (key == "corona")
        ok = real(0.0, 1.0, [&](double f) { s.aperture.corona = f; });
    else if (key == "seed")
        ok = integer(0, 1000000000,
                     [&](int i)
                     {
                         s.aperture.seed = uint32_t(i);
                         return true;
                     });
    else if (key == "animate")
        ok = parseChoice<bool>(value, {{"true", true}, {"false", false}}, &s.animate);
    else if (key == "split")
        ok = real(0.0, 1.0, [&](double f) { s.split = float(f); });
    else if (key == "difference-gain")
        ok = real(0.0, 16.0, [&](double f) { s.differenceGain = float(f); });
    else if (key == "compare")
        ok = parseChoice<bool>(value, {{"composite", false}, {"bloom", true}}, &s.compareBloomOnly);
    else if (key == "rerun")
        ok = parseChoice<Rerun>(
            value, {{"auto", Rerun::Auto}, {"always", Rerun::EveryFrame}, {"changes", Rerun::OnChange}}, &s.rerun);
    else if (key == "ui")
        ok = parseChoice<bool>(value, {{"on", true}, {"off", false}}, &s.ui);
    else
        known = false;
    if (!ok && error)
    {
        if (!known)
            *error = "--settings: unknown key '" + key + "'";
        else
        {
            *error = "--settings: '" + keyValue + "' is outside";
            for (const std::string& k : settingKeys())
                if (k.compare(0, key.size() + 1, key + "=") == 0)
                    *error += " " + k;
        }
    }
    return ok;
}

namespace
{

/// A number as the shortest text that reads back to the same float or double.
template <typename Real> std::string numberText(Real value)
{
    char text[32];
    const auto [end, ec] = std::to_chars(text, text + sizeof text, value);
    return ec == std::errc() ? std::string(text, end) : std::to_string(value);
}

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

std::vector<std::string> presetLines(const Settings& s)
{
    std::vector<std::string> lines = {
        "intensity=" + numberText(s.intensity),
        "tint=" + numberText(s.tint[0]) + "," + numberText(s.tint[1]) + "," + numberText(s.tint[2]),
        "sharpen=" + numberText(s.sharpen),
        std::string("output=") + (s.composite == CompositeMode::Additive ? "additive" : "composite"),
        "threshold=" + numberText(s.threshold),
        "knee=" + numberText(s.knee),
        "bloom-clamp=" + numberText(s.clamp),
        std::string("padding=") + settingName(s.padding, kPaddingNames),
        std::string("axis=") + settingName(s.axisOrder, kAxisOrderNames),
        std::string("spectrum=") + settingName(s.spectrum, kSpectrumModeNames),
        std::string("precision=") + settingName(s.storage, kStoragePrecisionNames),
        std::string("resolution=") + settingName(s.resolution, kResolutionNames),
        "kernel-size=" + std::to_string(s.kernelSize),
        "kernel-span=" + kernelSpanText(s.kernelSpan),
        "kernel-rotation=" + numberText(s.kernelRotationDegrees),
        "kernel-centre-offset=" + numberText(s.kernelCentreOffset[0]) + "," + numberText(s.kernelCentreOffset[1])};
    if (!s.kernelFile.empty())
        lines.push_back("kernel=" + s.kernelFile);
    else
        for (std::string line :
             {"blades=" + std::to_string(s.aperture.blades), "blade-curvature=" + numberText(s.aperture.bladeCurvature),
              "obstruction=" + numberText(s.aperture.obstruction), "vanes=" + std::to_string(s.aperture.vanes),
              "airy-radius=" + numberText(s.airyRadiusTexels), "corona=" + numberText(s.aperture.corona),
              "seed=" + std::to_string(s.aperture.seed), std::string(s.animate ? "animate=true" : "animate=false")})
            lines.push_back(line);
    return lines;
}

std::string cliCommand(const Settings& settings, const std::string& input, const std::string& output)
{
    const std::vector<std::string> defaults = presetLines(Settings{});
    std::string command = "fftbloom " + shellWord(input) + " -o " + shellWord(output);
    for (const std::string& line : presetLines(settings))
        if (std::find(defaults.begin(), defaults.end(), line) == defaults.end())
        {
            const size_t eq = line.find('=');
            const std::string value = line.substr(eq + 1);
            // A flag's "true" is the flag alone: its value on the command line would be read as an input.
            command += " --" + line.substr(0, eq);
            if (value != "true")
            {
                command += ' ';
                command += shellWord(value);
            }
        }
    return command;
}

bool applyPresetFile(Settings& settings, const std::string& path, std::string* error)
{
    std::ifstream file(path);
    if (!file)
    {
        *error = path + ": cannot be read";
        return false;
    }
    std::string line;
    for (int number = 1; std::getline(file, line); ++number)
    {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty() || line[0] == '#')
            continue;
        std::string reason;
        if (!applySetting(settings, line, &reason))
        {
            *error = path + ":" + std::to_string(number) + ": " + reason.substr(reason.find(": ") + 2);
            return false;
        }
    }
    if (file.bad())
    {
        *error = path + ": read error";
        return false;
    }
    return true;
}

bool writePresetFile(const Settings& settings, const std::string& path, const std::vector<std::string>& reads,
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
        for (const std::string& line : presetLines(settings))
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
