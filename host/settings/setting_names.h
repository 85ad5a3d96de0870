// SPDX-License-Identifier: MIT
// The one spelling of each public bloom enum value on the command line, in the viewer's settings and in messages.
#pragma once

#include "fftbloom/fftbloom.h"

#include <cstddef>
#include <string>
#include <vector>

namespace fftb
{

/// A value of a public enum and its name.
template <typename Enum> struct SettingName
{
    const char* name;
    Enum value;
};

inline constexpr SettingName<FftbPadding> kPaddingNames[] = {
    {"zero-normalized", FFTB_PADDING_ZERO_NORMALIZED}, {"zero", FFTB_PADDING_ZERO}, {"mirror", FFTB_PADDING_MIRROR}};
inline constexpr SettingName<FftbAxisOrder> kAxisOrderNames[] = {
    {"auto", FFTB_AXIS_ORDER_AUTO}, {"x", FFTB_AXIS_ORDER_X_FIRST}, {"y", FFTB_AXIS_ORDER_Y_FIRST}};
inline constexpr SettingName<FftbSpectrumMode> kSpectrumModeNames[] = {{"exact", FFTB_SPECTRUM_MODE_EXACT},
                                                                       {"resampled", FFTB_SPECTRUM_MODE_RESAMPLED}};
inline constexpr SettingName<FftbSpectrumInterpolation> kInterpolationNames[] = {
    {"es", FFTB_SPECTRUM_INTERPOLATION_ES},
    {"cubic", FFTB_SPECTRUM_INTERPOLATION_CUBIC},
    {"linear", FFTB_SPECTRUM_INTERPOLATION_LINEAR}};
inline constexpr SettingName<FftbStoragePrecision> kStoragePrecisionNames[] = {
    {"fp32", FFTB_STORAGE_PRECISION_FLOAT32}, {"fp16", FFTB_STORAGE_PRECISION_FLOAT16}};
inline constexpr SettingName<FftbBloomResolution> kResolutionNames[] = {{"full", FFTB_BLOOM_RESOLUTION_FULL},
                                                                        {"half", FFTB_BLOOM_RESOLUTION_HALF}};
inline constexpr SettingName<FftbOutputMode> kOutputModeNames[] = {{"bloom", FFTB_OUTPUT_MODE_BLOOM},
                                                                   {"composite", FFTB_OUTPUT_MODE_COMPOSITE},
                                                                   {"additive", FFTB_OUTPUT_MODE_ADDITIVE}};

/// Sets `*value` to the value named `text`; false, leaving it as it was, for any other text.
template <typename Enum, std::size_t N>
bool parseSettingName(const std::string& text, const SettingName<Enum> (&names)[N], Enum* value)
{
    for (const SettingName<Enum>& n : names)
        if (text == n.name)
        {
            *value = n.value;
            return true;
        }
    return false;
}

/// The name of `value`, or "unknown" for a value the table lacks.
template <typename Enum, std::size_t N> const char* settingName(Enum value, const SettingName<Enum> (&names)[N])
{
    for (const SettingName<Enum>& n : names)
        if (n.value == value)
            return n.name;
    return "unknown";
}

/// Every name of a table, in its order: for option checks and help texts.
template <typename Enum, std::size_t N> std::vector<std::string> settingNames(const SettingName<Enum> (&names)[N])
{
    std::vector<std::string> all;
    for (const SettingName<Enum>& n : names)
        all.push_back(n.name);
    return all;
}

} // namespace fftb
