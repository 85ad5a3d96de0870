// SPDX-License-Identifier: MIT
// The one table of the bloom's and the kernel's settings: name, value form and unit, range, help, and how each is read
// into and written from BloomSettings. The fftbloom CLI's options, the settings files, the viewer's
// key=value settings and the outputs' provenance all read it.
#pragma once

#include "settings/bloom_settings.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fftb
{

/// The largest value of a setting in the frame's linear units (intensity, tint, threshold, knee, clamps). The bloom
/// sums at most 16384 x 16384 texels (FFTB_MAX_FFT_LENGTH squared), so with every value at most 1e9 every sum and
/// square of the prefilter stays below 3e18, far inside fp32's 3.4e38: nothing later overflows to Inf.
inline constexpr double kMaxLinearValue = 1.0e9;

/// Which kernels a setting applies to.
enum class SettingScope
{
    Always,          ///< every kernel
    GeneratedKernel, ///< the generated PSF only (KernelSettings::file empty): its aperture, scale and animation
    KernelFile,      ///< a PSF file only: its path
    Preset,          ///< a look applied over the settings (presets.h): never printed, its settings are
};

/// One setting both tools know.
struct SettingEntry
{
    const char* name; ///< the CLI's --NAME, the key of a settings file line and of the viewer's NAME=VALUE
    const char* form; ///< the value's form and unit: "F", "R,G,B", "N", "native|<n>px|<f>diag", "fp32|fp16"
    const char* help; ///< what it does, its unit and range
    SettingScope scope = SettingScope::Always;
    bool flag = false; ///< true|false; the CLI's --NAME alone is true
    /// Reads `text` into the settings; false, the settings as they were, and a one-line reason naming the value and
    /// the range (not the setting's name) otherwise.
    bool (*parse)(const std::string& text, BloomSettings& settings, std::string* reason) = nullptr;
    /// The setting's value as the text `parse` reads back as the same value.
    std::string (*print)(const BloomSettings& settings) = nullptr;
};

/// Every setting, in the order --help, settings files and provenance list them.
std::span<const SettingEntry> settingTable();

/// The entry named `name`, or nullptr.
const SettingEntry* findSetting(std::string_view name);

/// The new name of a setting renamed since (`name` without --: kernel-extent, now kernel-span), or nullptr when it
/// was not renamed: every front-end refuses the old name naming the new one.
const char* renamedSetting(std::string_view name);

/// Whether `entry` applies to the kernel of `kernel` (SettingScope): printed in settingLines; never the preset.
bool settingApplies(const SettingEntry& entry, const KernelSettings& kernel);

/// "NAME=FORM (help)": one line of a key list.
std::string settingHelpLine(const SettingEntry& entry);

/// Applies one "name=value". False, the settings as they were, and a one-line reason otherwise: "name: <the parser's
/// reason>", "'name' is now 'new-name'" (renamedSetting), "unknown setting 'name'" or "'text' is not name=value".
bool applySettingLine(const std::string& line, BloomSettings& settings, std::string* error);

/// "name=value" of every setting that applies to the kernel of `settings`, in the table's order; applySettingLine
/// reads them back as the same settings.
std::vector<std::string> settingLines(const BloomSettings& settings);

/// The shortest text that reads back as the same float or double (std::to_chars).
std::string numberText(float value);
std::string numberText(double value);

} // namespace fftb
