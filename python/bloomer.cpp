// SPDX-License-Identifier: MIT
// The Python module's bloom: the CLI's settings, kernel and scrubbing around one GpuRunner.
#include "bloomer.h"

#include "host_error.h"
#include "image/image_io.h"
#include "message.h"
#include "runner/restore.h"
#include "settings/check_settings.h"
#include "settings/kernel_texels.h"
#include "settings/setting_table.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <new>

namespace fftb::python
{
namespace
{

[[noreturn]] void refuse(Failure failure, const std::string& message)
{
    throw BloomerError(failure, oneLine(message));
}

/// Whether scrubRgb would change any R, G or B value of `rgba`: only then is a copy kept for restoreUnbloomed.
bool needsScrub(const Texels& rgba, float maxValue)
{
    for (std::size_t i = 0; i < rgba.values.size(); ++i)
    {
        const float v = rgba.values[i];
        if (i % 4 != 3 && !(v >= 0.0f && v <= maxValue)) // NaN fails both
            return true;
    }
    return false;
}

} // namespace

Bloomer::Bloomer(const BloomerOptions& options) : kernelArray_(options.kernel.has_value()), scrubMax_(options.scrubMax)
{
    if (!(std::isfinite(options.scrubMax) && options.scrubMax > 0.0f))
        refuse(Failure::Usage, "clamp: " + numberText(options.scrubMax) + " is not a finite number above 0");
    readSettings(options);
    makeKernel(options);
    RunnerOptions runnerOptions;
    runnerOptions.deviceIndex = options.deviceIndex;
    runnerOptions.validation = options.validation;
    try
    {
        runner_ = std::make_unique<GpuRunner>(runnerOptions);
    }
    catch (const std::exception& e) // no usable Vulkan device, as the CLI's exit 3
    {
        refuse(Failure::Device, e.what());
    }
    try
    {
        runner_->check(kernel_, settings_);
    }
    catch (const FrameRefused& e) // refused with the smallest frame: refused with every frame
    {
        refuse(Failure::Usage, "the kernel and settings fit no frame on " + runner_->deviceName() + ": " + e.what());
    }
    catch (const std::exception& e)
    {
        refuse(Failure::Device, e.what());
    }
    checkValidation();
}

void Bloomer::readSettings(const BloomerOptions& options)
{
    // The preset first, as the CLI applies --preset before the other options, which change it.
    std::vector<std::pair<std::string, std::string>> ordered = options.settings;
    std::stable_partition(ordered.begin(), ordered.end(), [](const auto& s) { return s.first == "preset"; });
    for (const auto& [name, value] : ordered)
        if (std::string error;
            name.find('=') != std::string::npos || !applySettingLine(name + "=" + value, settings_, &error))
            refuse(Failure::Usage, error.empty() ? "unknown setting '" + name + "'" : error);
    const bool kernelFile = options.kernel || !settings_.kernel.file.empty();
    for (const auto& [name, value] : ordered) // as the CLI's generated PSF options exclude --kernel
        if (kernelFile && findSetting(name)->scope == SettingScope::GeneratedKernel)
            refuse(Failure::Usage, name + ": a setting of the generated PSF, not of a kernel file or array");
    if (settings_.kernel.animate)
        refuse(Failure::Usage, "animate: a kernel made for each frame number is run_batch's (fftbloom --animate)");
    if (settings_.frame.mask.active() && settings_.frame.mask.source != "A")
        refuse(Failure::Usage, "mask: '" + settings_.frame.mask.source +
                                   "' is a file's channel, layer or path: run_batch's; here mask='A' is rgb's alpha, "
                                   "and bloom(rgb, mask=array) takes a matte");
    if (const std::optional<SettingBreach> breach = checkSettings(settings_, kernelFile))
        refuse(Failure::Usage, breachText(*breach));
}

void Bloomer::makeKernel(const BloomerOptions& options)
{
    try
    {
        KernelTexels made = makeKernelTexels(settings_.kernel, options.kernel ? &*options.kernel : nullptr);
        settings_.plan.kernelSpan = made.spanOn(settings_.plan.kernelSpan);
        kernelWarning_ = std::move(made.warning);
        kernel_ = std::move(made.texels);
    }
    catch (const HostError& e) // naming the file or the array
    {
        refuse(Failure::Usage, e.what());
    }
}

void Bloomer::checkValidation()
{
    const uint64_t count = runner_->validationMessageCount();
    if (count > validationMessages_)
    {
        validationMessages_ = count;
        refuse(Failure::Device, "Vulkan validation: " + runner_->firstValidationMessage());
    }
}

Texels Bloomer::bloom(Texels rgba, const std::vector<float>* mask)
{
    const std::lock_guard lock(mutex_);
    if (!deviceFailure_.empty())
        refuse(Failure::Device, "the device failed before (" + deviceFailure_ + "): make a new Bloomer");
    BloomSettings settings = settings_;
    std::vector<float> alpha; // rgba's own, given back in place of the matte
    if (mask)
    {
        const std::size_t texels = std::size_t(rgba.width) * std::size_t(rgba.height);
        if (mask->size() != texels)
            refuse(Failure::Usage, "mask: " + std::to_string(mask->size()) + " values, not one per texel of the " +
                                       std::to_string(rgba.width) + "x" + std::to_string(rgba.height) + " frame");
        for (std::size_t i = 0; i < texels; ++i)
            alpha.push_back(rgba.values[i * 4 + 3]);
        setMaskAlpha(rgba, *mask);
        settings.frame.mask.source = "array";
    }
    std::optional<Texels> original;
    if (needsScrub(rgba, scrubMax_))
    {
        original = rgba;
        scrubRgb(rgba, scrubMax_);
    }
    Texels result;
    try
    {
        if (const std::pair frame{rgba.width, rgba.height}; frame != farFieldFrame_)
        {
            farField_ =
                farFieldOn(settings.kernel, !kernelArray_, kernel_.width, settings.plan, rgba.width, rgba.height);
            farFieldFrame_ = frame;
        }
        result = runner_->bloom(rgba, kernel_, settings, nullptr, farField_);
    }
    catch (const FrameRefused& e)
    {
        refuse(Failure::Frame, std::to_string(rgba.width) + "x" + std::to_string(rgba.height) + " frame: " + e.what());
    }
    catch (const std::bad_alloc&)
    {
        refuse(Failure::Frame, std::to_string(rgba.width) + "x" + std::to_string(rgba.height) +
                                   " frame: not enough memory to bloom it");
    }
    catch (const std::exception& e) // a Vulkan failure: the runner must be destroyed
    {
        deviceFailure_ = e.what();
        refuse(Failure::Device, e.what());
    }
    checkValidation();
    if (original)
        restoreUnbloomed(result, *original, scrubMax_, settings.frame);
    clampBloomRoundOff(result, settings.frame);
    for (std::size_t i = 0; i < alpha.size(); ++i)
        result.values[i * 4 + 3] = alpha[i];
    return result;
}

std::string Bloomer::deviceName() const
{
    return runner_->deviceName();
}

std::vector<std::string> Bloomer::settingLines() const
{
    std::vector<std::string> lines = fftb::settingLines(settings_);
    if (kernelArray_) // the settings of a file's kernel, without the file
        std::erase_if(lines,
                      [](const std::string& line)
                      {
                          const SettingEntry* entry = findSetting(line.substr(0, line.find('=')));
                          return entry && entry->scope == SettingScope::GeneratedKernel;
                      });
    return lines;
}

} // namespace fftb::python
