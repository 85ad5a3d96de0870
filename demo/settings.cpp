// SPDX-License-Identifier: MIT
// Parsing key=value settings: one line naming the key and the accepted values on every error.
#include "settings.h"

#include "runner/setting_names.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>

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
        "intensity=F (>= 0)",
        "tint=R,G,B (the bloom's colour multipliers, each >= 0; 1,1,1: none)",
        "sharpen=T (0..1)",
        "composite=conserving|additive",
        "threshold=T (0..65504, the prefilter's; 0: off)",
        "knee=K (the prefilter's soft-knee width, 0..65504, at most the threshold when used)",
        "bloom-clamp=C (0..65504, the prefilter's; 0: none)",
        "padding=zero-normalized|zero|mirror",
        "axis=auto|x|y",
        "spectrum=resampled|exact",
        "precision=fp32|fp16 (the spectra's storage between the passes; fp16 needs a bloom-clamp beside extreme "
        "highlights)",
        "kernel-size=N (the kernel's resolution in texels: a power of two, 16..1024)",
        "kernel-extent=native|<n>px|<f>diag (how large the kernel appears: its larger side spans n pixels or a "
        "fraction f of the frame's diagonal; at most 1024 pixels)",
        "kernel-rotation=DEG (the kernel turned counter-clockwise about the point on the light)",
        "kernel-centre-offset=U,V (the kernel's point on the light, from its centre, in its width and height; each "
        "-1..1)",
        "kernel=generated|PATH",
        "blades=N (0 or 3..16)",
        "curvature=F (0..1)",
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
        ok = real(0.0, 65504.0, [&](double f) { s.intensity = float(f); });
    else if (key == "tint")
        ok = parseFloats(value, 0.0, 65504.0, &s.tint);
    else if (key == "sharpen")
        ok = real(0.0, 1.0, [&](double f) { s.sharpen = float(f); });
    else if (key == "composite")
        ok = parseChoice<CompositeMode>(
            value, {{"conserving", CompositeMode::Conserving}, {"additive", CompositeMode::Additive}}, &s.composite);
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
    else if (key == "kernel-extent")
        ok = parseKernelExtent(value, &s.kernelExtent, nullptr);
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
    else if (key == "curvature")
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

} // namespace fftb::viewer
