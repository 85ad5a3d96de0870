// SPDX-License-Identifier: MIT
// The rules between settings: what no single setting's range holds, in one place for every front-end.
#pragma once

#include "settings/bloom_settings.h"

#include <optional>
#include <string>

namespace fftb
{

/// A rule between settings broken: the setting it names (its name in the setting table, e.g. "knee"), that setting's
/// value as text (empty for a flag) and a one-line reason, which names the other settings by their table names.
struct SettingBreach
{
    std::string setting;
    std::string value;
    std::string reason;
};

/// "PREFIX+setting value: reason", e.g. "--knee 1: the soft knee must not be wider than threshold (0.5)" with prefix
/// "--" (the CLI's options) or "knee 1: ..." with none (settings files, the viewer, the Python module).
std::string breachText(const SettingBreach& breach, const std::string& prefix = "");

/// The first rule between the values of `settings` that they break, or none:
///   - knee: the soft knee no wider than the threshold (FftbBloomInfo::prefilterKnee <= prefilterThreshold);
///   - interpolation-width: 0 (the interpolation's own) or, for cubic and linear interpolation, their 4 and 2 taps;
///   - animate: a kernel made on the GPU for each frame is a power of two in 64..2048 texels (fftbCmdGenerateKernel);
///   - airy-radius: made on the GPU at kernel-size (animate), the generated PSF's first dark ring 1..16 of its texels
///     (airy-radius kernel-size / 256: FftbApertureInfo::airyRadiusTexels), unless the kernel is a file or an array
///     (`kernelFile`). On the CPU any radius is generated (defaultPsf).
/// The CLI (--NAME), settings files, the viewer and the Python module all apply it.
std::optional<SettingBreach> checkSettings(const BloomSettings& settings, bool kernelFile);

} // namespace fftb
