// SPDX-License-Identifier: MIT
// Named looks: a few settings of the one table (setting_table.h) an artist starts from, shared by the fftbloom CLI
// (--preset NAME), settings files and the viewer (preset=NAME). docs/looks.md shows each.
#pragma once

#include <span>
#include <string_view>

namespace fftb
{

/// A look: its settings as "name=value" lines of the settings table, applied in order over the current settings.
struct Preset
{
    const char* name;   ///< the value of preset=NAME: camera, soft-glow, eye, unreal
    const char* title;  ///< a few words for menus: "Camera, six-blade iris"
    const char* models; ///< what it models, and its source
    std::span<const char* const> lines;
};

/// Every preset, in the order menus and --help list them.
std::span<const Preset> presets();

/// The preset named `name`, or nullptr.
const Preset* findPreset(std::string_view name);

} // namespace fftb
