// SPDX-License-Identifier: MIT
// The rules between settings.
#include "settings/check_settings.h"

#include "psf/psf_generator.h"
#include "settings/setting_names.h"
#include "settings/setting_table.h"

namespace fftb
{

std::string breachText(const SettingBreach& breach, const std::string& prefix)
{
    return prefix + breach.setting + (breach.value.empty() ? "" : " " + breach.value) + ": " + breach.reason;
}

std::optional<SettingBreach> checkSettings(const BloomSettings& settings, bool kernelFile)
{
    if (settings.frame.prefilter.knee > settings.frame.prefilter.threshold)
        return SettingBreach{"knee", numberText(settings.frame.prefilter.knee),
                             "the soft knee must not be wider than threshold (" +
                                 numberText(settings.frame.prefilter.threshold) + ")"};
    const uint32_t fixedWidth = settings.kernel.interpolation == FFTB_SPECTRUM_INTERPOLATION_CUBIC    ? 4
                                : settings.kernel.interpolation == FFTB_SPECTRUM_INTERPOLATION_LINEAR ? 2
                                                                                                      : 0;
    if (fixedWidth != 0 && settings.kernel.interpolationWidth != 0 && settings.kernel.interpolationWidth != fixedWidth)
        return SettingBreach{"interpolation-width", std::to_string(settings.kernel.interpolationWidth),
                             std::string(settingName(settings.kernel.interpolation, kInterpolationNames)) +
                                 " interpolation has " + std::to_string(fixedWidth) + " taps"};
    const int k = settings.kernel.sizeTexels;
    if (settings.kernel.animate && (k < 64 || k > 2048 || (k & (k - 1)) != 0))
        return SettingBreach{"animate", "",
                             "the kernel is made on the GPU at kernel-size, a power of two in 64..2048, not " +
                                 std::to_string(k)};
    if (const double texels = settings.kernel.psfDesign().airyRadiusTexels;
        settings.kernel.animate && !kernelFile && (texels < 1.0 || texels > 16.0))
        return SettingBreach{"airy-radius", numberText(settings.kernel.airyRadius),
                             "made on the GPU at kernel-size " + std::to_string(k) + ", the first dark ring is " +
                                 numberText(texels) + " of its texels; the GPU generator takes 1..16"};
    return std::nullopt;
}

} // namespace fftb
