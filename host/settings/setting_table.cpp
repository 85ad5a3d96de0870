// SPDX-License-Identifier: MIT
// The settings table: each setting's parser, printer, range and help.
#include "settings/setting_table.h"

#include "settings/presets.h"
#include "settings/setting_names.h"

#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace fftb
{

// The derivation of kMaxLinearValue: the kernel is normalized (every weight in [0, 1]), so a bloomed value is at most
// the sum of every texel of the largest plan at the largest value, and the output multiplies it by at most the largest
// intensity and tint; all of that stays below fp32's largest finite value.
static_assert(kMaxLinearValue * double(FFTB_MAX_FFT_LENGTH) * double(FFTB_MAX_FFT_LENGTH) * kMaxLinearValue *
                  kMaxLinearValue <
              double(FLT_MAX));

std::string numberText(float value)
{
    char text[32];
    const auto [end, ec] = std::to_chars(text, text + sizeof text, value);
    return ec == std::errc() ? std::string(text, end) : std::to_string(value);
}

std::string numberText(double value)
{
    char text[32];
    const auto [end, ec] = std::to_chars(text, text + sizeof text, value);
    return ec == std::errc() ? std::string(text, end) : std::to_string(value);
}

namespace
{

/// A bound in plain digits: 1000000000, 0.9, -1.
std::string boundText(double bound)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.15g", bound);
    return text;
}

bool fail(std::string* reason, const std::string& text)
{
    if (reason)
        *reason = text;
    return false;
}

/// `text` whole as a finite number in [low, high], as double and as the nearest float (exact for what numberText
/// printed); false otherwise.
bool number(const std::string& text, double low, double high, double* value, float* single = nullptr)
{
    const char* end = text.data() + text.size();
    double v = 0.0;
    const auto [rest, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc() || rest != end || !std::isfinite(v) || v < low || v > high)
        return false;
    *value = v;
    if (single)
    {
        // Parsed as a float, not rounded from the double: the shortest float text reads back as that float.
        float f = 0.0f;
        const auto parsed = std::from_chars(text.data(), end, f);
        *single = parsed.ec == std::errc() ? f : float(v); // below float's range: its nearest, 0 or a denormal
    }
    return true;
}

std::string rangeText(double low, double high)
{
    return "a finite number in [" + boundText(low) + ", " + boundText(high) + "]";
}

bool real(const std::string& text, double low, double high, float* value, std::string* reason)
{
    double v = 0.0;
    float f = 0.0f;
    if (!number(text, low, high, &v, &f))
        return fail(reason, text + " is not " + rangeText(low, high));
    *value = f;
    return true;
}

bool real(const std::string& text, double low, double high, double* value, std::string* reason)
{
    if (!number(text, low, high, value))
        return fail(reason, text + " is not " + rangeText(low, high));
    return true;
}

/// N comma-separated numbers, each in [low, high]; `values` unchanged unless all N parse.
template <std::size_t N>
bool reals(const std::string& text, double low, double high, const char* form, std::array<float, N>* values,
           std::string* reason)
{
    std::array<float, N> parsed{};
    std::size_t start = 0;
    for (std::size_t i = 0; i < N; ++i)
    {
        const std::size_t comma = i + 1 < N ? text.find(',', start) : text.size();
        double v = 0.0;
        if (comma == std::string::npos || !number(text.substr(start, comma - start), low, high, &v, &parsed[i]))
            return fail(reason, text + " is not " + form + ", each " + rangeText(low, high));
        start = comma + 1;
    }
    *values = parsed;
    return true;
}

template <std::size_t N> std::string realsText(const std::array<float, N>& values)
{
    std::string text;
    for (float v : values)
    {
        if (!text.empty())
            text += ',';
        text += numberText(v);
    }
    return text;
}

/// `text` whole as an integer in [low, high].
template <typename Int> bool integer(const std::string& text, long long low, long long high, Int* value)
{
    long long v = 0;
    const char* end = text.data() + text.size();
    const auto [rest, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc() || rest != end || v < low || v > high)
        return false;
    *value = Int(v);
    return true;
}

template <typename Int>
bool integer(const std::string& text, long long low, long long high, Int* value, std::string* reason)
{
    return integer(text, low, high, value) ||
           fail(reason, text + " is not an integer in " + std::to_string(low) + ".." + std::to_string(high));
}

template <typename Enum, std::size_t N>
bool named(const std::string& text, const SettingName<Enum> (&names)[N], Enum* value, std::string* reason)
{
    if (parseSettingName(text, names, value))
        return true;
    std::string all;
    for (std::size_t i = 0; i < N; ++i)
        all += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + names[i].name;
    return fail(reason, "'" + text + "' is not " + all);
}

bool boolean(const std::string& text, bool* value, std::string* reason)
{
    if (text != "true" && text != "false")
        return fail(reason, "'" + text + "' is not true or false");
    *value = text == "true";
    return true;
}

bool powerOfTwo(const std::string& text, int* size, std::string* reason)
{
    int n = 0;
    if (!integer(text, 2, FFTB_MAX_KERNEL_LENGTH, &n) || (n & (n - 1)) != 0)
        return fail(reason, text + " is not a power of two in 2.." + std::to_string(FFTB_MAX_KERNEL_LENGTH));
    *size = n;
    return true;
}

using B = BloomSettings;
using R = std::string*;
using T = const std::string&;

/// The table. Each lambda reads or prints one setting; the ranges are the plugin's and the PSF generator's, and
/// kMaxLinearValue for values in the frame's units.
const SettingEntry kSettings[] = {
    {"preset", "none|camera|soft-glow|eye|unreal",
     "a look to start from, applied before every other setting, which can change it (docs/looks.md): camera (a "
     "six-blade iris), soft-glow (a round iris and a wide glow), eye (the eye's corona and glare), unreal (as Unreal "
     "Engine's convolution bloom); none: the settings as they are",
     SettingScope::Preset, false,
     [](T t, B& b, R r)
     {
         if (t == "none")
             return true;
         const Preset* preset = findPreset(t);
         if (!preset)
         {
             std::string names = "none";
             for (const Preset& p : presets())
                 names += std::string(", ") + p.name;
             return fail(r, "'" + t + "' is not a preset: " + names);
         }
         B settings = b;
         for (const char* line : preset->lines)
             if (!applySettingLine(line, settings, r))
                 return false;
         b = settings;
         return true;
     },
     [](const B&) { return std::string("none"); }},
    {"intensity", "F", "weight of the bloom in the composites, 0..1000000000 (0: the input, no GPU work)",
     SettingScope::Always, false, [](T t, B& b, R r) { return real(t, 0.0, kMaxLinearValue, &b.frame.intensity, r); },
     [](const B& b) { return numberText(b.frame.intensity); }},
    {"tint", "R,G,B", "multipliers of the bloom's colour, each 0..1000000000 (above 1 allowed); 1,1,1: none",
     SettingScope::Always, false,
     [](T t, B& b, R r) { return reals(t, 0.0, kMaxLinearValue, "R,G,B", &b.frame.tint, r); },
     [](const B& b) { return realsText(b.frame.tint); }},
    {"sharpen", "T", "delta sharpening t in 0..1: kernel spectrum (1 - t) K + t; 1 is the identity",
     SettingScope::Always, false, [](T t, B& b, R r) { return real(t, 0.0, 1.0, &b.frame.sharpen, r); },
     [](const B& b) { return numberText(b.frame.sharpen); }},
    {"output", "bloom|composite|additive",
     "bloom: the convolution of the prefiltered frame p alone; composite (energy-conserving): in + intensity * "
     "(bloom - p); additive: in + intensity * bloom",
     SettingScope::Always, false, [](T t, B& b, R r) { return named(t, kOutputModeNames, &b.frame.output, r); },
     [](const B& b) { return std::string(settingName(b.frame.output, kOutputModeNames)); }},
    {"threshold", "T",
     "prefilter: only brightness max(r, g, b) above T blooms, p = in * (b - T) / b (docs/kernels.md), "
     "0..1000000000; 0: off",
     SettingScope::Always, false,
     [](T t, B& b, R r) { return real(t, 0.0, kMaxLinearValue, &b.frame.prefilter.threshold, r); },
     [](const B& b) { return numberText(b.frame.prefilter.threshold); }},
    {"knee", "K", "prefilter: soft-knee width K in [0, T] around the threshold, 0..1000000000; 0: hard",
     SettingScope::Always, false,
     [](T t, B& b, R r) { return real(t, 0.0, kMaxLinearValue, &b.frame.prefilter.knee, r); },
     [](const B& b) { return numberText(b.frame.prefilter.knee); }},
    {"bloom-clamp", "C",
     "prefilter: caps max(r, g, b) of what blooms at C, hue kept, 0..1000000000; 0: none (not the CLI's --clamp)",
     SettingScope::Always, false,
     [](T t, B& b, R r) { return real(t, 0.0, kMaxLinearValue, &b.frame.prefilter.clamp, r); },
     [](const B& b) { return numberText(b.frame.prefilter.clamp); }},
    {"mask", "none|CHANNEL|LAYER|FILE",
     "a matte m weighting what blooms, p = m prefilter(in), clamped to 0..1: 1 blooms, 0 keeps its light without a "
     "glow. A channel (A, matte.A) or layer (matte: its A, Y or R) of the input, or an EXR or HDR file (its A, Y or "
     "R) of the frame's size, one per frame with a frame placeholder (masks/shot.####.exr); none: everything blooms "
     "(docs/kernels.md, Masks)",
     SettingScope::Always, false,
     [](T t, B& b, R r)
     {
         if (t.empty())
             return fail(r, "an empty name is not a channel, layer or file (none: no mask)");
         b.frame.mask.source = t == "none" ? std::string() : t;
         return true;
     },
     [](const B& b) { return b.frame.mask.active() ? b.frame.mask.source : std::string("none"); }},
    {"mask-invert", "true|false", "use 1 - m: the mask's 0 blooms and its 1 does not", SettingScope::Always, true,
     [](T t, B& b, R r) { return boolean(t, &b.frame.mask.invert, r); },
     [](const B& b) { return std::string(b.frame.mask.invert ? "true" : "false"); }},
    {"padding", "zero-normalized|zero|mirror",
     "zero-normalized (black outside, the bloom divided by the kernel's mass inside the frame: edges keep their "
     "brightness), zero (black outside: the bloom darkens towards the edges) or mirror (GL_MIRRORED_REPEAT: longer "
     "FFTs)",
     SettingScope::Always, false, [](T t, B& b, R r) { return named(t, kPaddingNames, &b.plan.padding, r); },
     [](const B& b) { return std::string(settingName(b.plan.padding, kPaddingNames)); }},
    {"axis", "auto|x|y", "axis of the real-packed first pass: auto (cost model), x or y", SettingScope::Always, false,
     [](T t, B& b, R r) { return named(t, kAxisOrderNames, &b.plan.axisOrder, r); },
     [](const B& b) { return std::string(settingName(b.plan.axisOrder, kAxisOrderNames)); }},
    {"spectrum", "exact|resampled",
     "exact: the kernel, scaled in space to its extent on the frame, transformed per frame size (no ringing at any "
     "kernel span); resampled: one kernel spectrum interpolated at each frame's frequencies (rings when the kernel "
     "is scaled or at half resolution)",
     SettingScope::Always, false, [](T t, B& b, R r) { return named(t, kSpectrumModeNames, &b.kernel.spectrum, r); },
     [](const B& b) { return std::string(settingName(b.kernel.spectrum, kSpectrumModeNames)); }},
    {"spectrum-interpolation", "es|cubic|linear",
     "how resampled mode interpolates the kernel spectrum: es (exponential of semicircle, 8x8 taps, deapodized, a 2x "
     "oversampled spectrum: within 1e-6 of exact), cubic (Keys, 4x4 taps, faint ringing) or linear (2x2 taps, "
     "stronger ringing)",
     SettingScope::Always, false,
     [](T t, B& b, R r) { return named(t, kInterpolationNames, &b.kernel.interpolation, r); },
     [](const B& b) { return std::string(settingName(b.kernel.interpolation, kInterpolationNames)); }},
    {"interpolation-width", "N",
     "taps per axis of the es interpolation, 2..8 (8 is within 1e-6 of the exact spectrum; 6 is 3-4% faster, within "
     "1.3e-5); 0: the interpolation's own (es 8, cubic 4, linear 2)",
     SettingScope::Always, false,
     [](T t, B& b, R r)
     {
         uint32_t n = 0;
         if (!integer(t, 0, 8, &n) || n == 1)
             return fail(r, t + " is not 0 (the interpolation's own) or an integer in 2..8");
         b.kernel.interpolationWidth = n;
         return true;
     },
     [](const B& b) { return std::to_string(b.kernel.interpolationWidth); }},
    {"spectrum-oversampling", "N",
     "resampled mode stores the kernel spectrum at this many times pow2ceil(kernel size), 1 or 2 (1 takes a quarter "
     "of the memory and lets copies of the kernel into the bloom); 0: 2",
     SettingScope::Always, false,
     [](T t, B& b, R r)
     { return integer(t, 0, 2, &b.kernel.spectrumOversampling) || fail(r, t + " is not 0 (the default, 2), 1 or 2"); },
     [](const B& b) { return std::to_string(b.kernel.spectrumOversampling); }},
    {"precision", "fp32|fp16",
     "storage of the spectra between the passes: fp32, or fp16 (half the traffic; its rounding noise, spread over "
     "each line in proportion to its brightest light, swamps dim regions beside extreme highlights: use it with "
     "bloom-clamp, docs/kernels.md)",
     SettingScope::Always, false, [](T t, B& b, R r) { return named(t, kStoragePrecisionNames, &b.plan.storage, r); },
     [](const B& b) { return std::string(settingName(b.plan.storage, kStoragePrecisionNames)); }},
    {"resolution", "full|half",
     "resolution the bloom is convolved at: full, or half (the frame downsampled 2x per axis and the bloom "
     "upsampled: about a quarter of the FFT work, detail finer than 2 pixels lost; docs/integration.md)",
     SettingScope::Always, false, [](T t, B& b, R r) { return named(t, kResolutionNames, &b.plan.resolution, r); },
     [](const B& b) { return std::string(settingName(b.plan.resolution, kResolutionNames)); }},
    {"kernel-size", "N",
     "the kernel's resolution: the PSF resampled (or generated) to N x N texels, N a power of two in 2..4096 (its "
     "sampling, not how large it appears: kernel-span)",
     SettingScope::Always, false, [](T t, B& b, R r) { return powerOfTwo(t, &b.kernel.sizeTexels, r); },
     [](const B& b) { return std::to_string(b.kernel.sizeTexels); }},
    {"kernel-span", "auto|native|<n>px|<f>diag",
     "how large the kernel appears on the frame: auto (the default: the generated PSF 256 pixels on a 1920 x 1080 "
     "frame and the same fraction of every frame's diagonal, so a proxy looks like its full frame; a PSF file its "
     "own extent, as native), native (one PSF texel per pixel), <n>px (its larger side spans n pixels, "
     "0 < n <= 4096) or <f>diag (a fraction f > 0 of the frame's diagonal: the same look at every resolution); not "
     "its resolution, kernel-size",
     SettingScope::Always, false, [](T t, B& b, R r) { return parseKernelSpan(t, &b.plan.kernelSpan, r); },
     [](const B& b) { return kernelSpanText(b.plan.kernelSpan); }},
    {"kernel-rotation", "DEG",
     "degrees the kernel turns, counter-clockwise, about the point that falls on the light, -1000000..1000000",
     SettingScope::Always, false, [](T t, B& b, R r) { return real(t, -1.0e6, 1.0e6, &b.kernel.rotationDegrees, r); },
     [](const B& b) { return numberText(b.kernel.rotationDegrees); }},
    {"kernel-centre-offset", "U,V",
     "the point of the kernel that falls on the light, from its centre, in fractions of its width and height, each "
     "in [-1, 1] (Unreal's Center UV minus 0.5)",
     SettingScope::Always, false, [](T t, B& b, R r) { return reals(t, -1.0, 1.0, "U,V", &b.kernel.centreOffset, r); },
     [](const B& b) { return realsText(b.kernel.centreOffset); }},
    {"kernel-fade", "auto|F",
     "radial fade of the kernel to 0 over this fraction of its radius, 0..1 (a raised cosine: its light ends before "
     "the kernel's square); auto: 0.25 for the generated PSF, 0 (the file as it is) for a PSF file",
     SettingScope::Always, false,
     [](T t, B& b, R r)
     {
         double f = 0.0;
         if (t == "auto")
             b.kernel.fade.reset();
         else if (number(t, 0.0, 1.0, &f))
             b.kernel.fade = f;
         else
             return fail(r, t + " is not auto or " + rangeText(0.0, 1.0));
         return true;
     },
     [](const B& b) { return b.kernel.fade ? numberText(*b.kernel.fade) : std::string("auto"); }},
    {"kernel", "PATH|generated",
     "PSF image (EXR/HDR), centre texel (W/2, H/2); generated (the default): a generated diffraction PSF "
     "(docs/kernels.md; fftbloom-psf makes others)",
     SettingScope::KernelFile, false,
     [](T t, B& b, R r)
     {
         if (t.empty())
             return fail(r, "an empty path is not a PSF file");
         b.kernel.file = t == "generated" ? std::string() : t;
         return true;
     },
     [](const B& b) { return b.kernel.file.empty() ? std::string("generated") : b.kernel.file; }},
    {"blades", "N", "generated PSF: iris blades, 0 for a circle, else 3..16", SettingScope::GeneratedKernel, false,
     [](T t, B& b, R r)
     {
         int n = 0;
         if (!integer(t, 0, 16, &n) || n == 1 || n == 2)
             return fail(r, t + " is not 0 or an integer in 3..16");
         b.kernel.aperture.blades = n;
         return true;
     },
     [](const B& b) { return std::to_string(b.kernel.aperture.blades); }},
    {"blade-curvature", "F", "generated PSF: 0 straight blades .. 1 a circle", SettingScope::GeneratedKernel, false,
     [](T t, B& b, R r) { return real(t, 0.0, 1.0, &b.kernel.aperture.bladeCurvature, r); },
     [](const B& b) { return numberText(b.kernel.aperture.bladeCurvature); }},
    {"obstruction", "F", "generated PSF: central obstruction diameter over the aperture's, 0..0.9",
     SettingScope::GeneratedKernel, false,
     [](T t, B& b, R r) { return real(t, 0.0, 0.9, &b.kernel.aperture.obstruction, r); },
     [](const B& b) { return numberText(b.kernel.aperture.obstruction); }},
    {"vanes", "N", "generated PSF: spider vanes from the centre to the rim, 0..8", SettingScope::GeneratedKernel, false,
     [](T t, B& b, R r) { return integer(t, 0, 8, &b.kernel.aperture.vanes, r); },
     [](const B& b) { return std::to_string(b.kernel.aperture.vanes); }},
    {"airy-radius", "R",
     "generated PSF: its scale, the first dark ring's radius of a circular aperture in 256ths of the kernel's width "
     "(texels at kernel-size 256), 1..16: kernel-size changes its sampling only, kernel-span its size on the frame",
     SettingScope::GeneratedKernel, false, [](T t, B& b, R r) { return real(t, 1.0, 16.0, &b.kernel.airyRadius, r); },
     [](const B& b) { return numberText(b.kernel.airyRadius); }},
    {"glare", "F",
     "generated PSF: share of its light in the eye's wide-angle scatter, the veiling glow around a light (Spencer et "
     "al. 1995), 0..1; the diffraction keeps the rest",
     SettingScope::GeneratedKernel, false, [](T t, B& b, R r) { return real(t, 0.0, 1.0, &b.kernel.glare, r); },
     [](const B& b) { return numberText(b.kernel.glare); }},
    {"glare-reach", "F",
     "generated PSF: how far the glare reaches from a light, in frame diagonals, 0..4 (default 1: every corner from "
     "anywhere); past the kernel it is a far field convolved at 1/8 resolution; 0: it stops at the kernel's border",
     SettingScope::GeneratedKernel, false, [](T t, B& b, R r) { return real(t, 0.0, 4.0, &b.kernel.glareReach, r); },
     [](const B& b) { return numberText(b.kernel.glareReach); }},
    {"corona", "F",
     "generated PSF: the eye's lens fibres and particles (the lenticular halo and ciliary corona of Ritschel et al. "
     "2009), 0..1; use with blades 0",
     SettingScope::GeneratedKernel, false,
     [](T t, B& b, R r) { return real(t, 0.0, 1.0, &b.kernel.aperture.corona, r); },
     [](const B& b) { return numberText(b.kernel.aperture.corona); }},
    {"seed", "N",
     "generated PSF: places the eye's particles, 0..1000000000; animated, each frame's seed is this plus its frame "
     "number",
     SettingScope::GeneratedKernel, false,
     [](T t, B& b, R r) { return integer(t, 0, 1000000000, &b.kernel.aperture.seed, r); },
     [](const B& b) { return std::to_string(b.kernel.aperture.seed); }},
    {"animate", "true|false",
     "make the generated PSF on the GPU for every frame, seeded by seed plus the frame number (the digits ending "
     "the input's name, else its place in the list): the eye's particles and fibres flicker from frame to frame, "
     "and a frame gets the same kernel in any rerun, shard or chunk; needs kernel-size a power of two in 64..2048 "
     "(docs/kernels.md)",
     SettingScope::GeneratedKernel, true, [](T t, B& b, R r) { return boolean(t, &b.kernel.animate, r); },
     [](const B& b) { return std::string(b.kernel.animate ? "true" : "false"); }},
};

} // namespace

std::span<const SettingEntry> settingTable()
{
    return kSettings;
}

const SettingEntry* findSetting(std::string_view name)
{
    for (const SettingEntry& entry : kSettings)
        if (name == entry.name)
            return &entry;
    return nullptr;
}

const char* renamedSetting(std::string_view name)
{
    // The viewer's settings files said curvature= and composite= before they took the CLI's names.
    constexpr std::pair<const char*, const char*> kRenamed[] = {
        {"kernel-extent", "kernel-span"}, {"curvature", "blade-curvature"}, {"composite", "output"}};
    for (const auto& [old, now] : kRenamed)
        if (name == old)
            return now;
    return nullptr;
}

bool settingApplies(const SettingEntry& entry, const KernelSettings& kernel)
{
    switch (entry.scope)
    {
    case SettingScope::GeneratedKernel:
        return kernel.file.empty();
    case SettingScope::KernelFile:
        return !kernel.file.empty();
    case SettingScope::Preset:
        return false;
    case SettingScope::Always:
        break;
    }
    return true;
}

std::string settingHelpLine(const SettingEntry& entry)
{
    return std::string(entry.name) + "=" + entry.form + " (" + entry.help + ")";
}

bool applySettingLine(const std::string& line, BloomSettings& settings, std::string* error)
{
    const std::size_t eq = line.find('=');
    if (eq == std::string::npos)
        return fail(error, "'" + line + "' is not name=value");
    const std::string name = line.substr(0, eq);
    const SettingEntry* entry = findSetting(name);
    if (const char* now = renamedSetting(name))
        return fail(error, "'" + name + "' is now '" + now + "'");
    if (!entry)
        return fail(error, "unknown setting '" + name + "'");
    std::string reason;
    if (!entry->parse(line.substr(eq + 1), settings, &reason))
        return fail(error, name + ": " + reason);
    return true;
}

std::vector<std::string> settingLines(const BloomSettings& settings)
{
    std::vector<std::string> lines;
    for (const SettingEntry& entry : kSettings)
        if (settingApplies(entry, settings.kernel))
            lines.push_back(std::string(entry.name) + "=" + entry.print(settings));
    return lines;
}

} // namespace fftb
