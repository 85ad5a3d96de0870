// SPDX-License-Identifier: MIT
// The Python module's bloom without Python: settings read by the settings table, a kernel and a GpuRunner kept.
#pragma once

#include "image/image.h"
#include "image/scrub.h"
#include "runner/gpu_runner.h"
#include "settings/bloom_settings.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace fftb::python
{

/// The Python exception a failure becomes: fftbloom.UsageError, fftbloom.FrameError or fftbloom.DeviceError.
enum class Failure
{
    Usage,  ///< a setting, the kernel or the frame's array is refused; nothing was done
    Frame,  ///< the plugin refuses this frame (FrameRefused); the Bloomer stays usable
    Device, ///< no usable Vulkan device, a Vulkan failure or a validation message; the Bloomer is unusable after
            ///< a failure during a bloom
};

/// What a Bloomer throws: one line (as the CLI prints it) and the exception it becomes.
class BloomerError : public std::runtime_error
{
  public:
    BloomerError(Failure failure, const std::string& message) : std::runtime_error(message), failure_(failure) {}
    Failure failure() const { return failure_; }

  private:
    Failure failure_;
};

/// How a Bloomer is made.
struct BloomerOptions
{
    /// (name, value) pairs of the settings table (setting_table.h), read as the CLI's --NAME VALUE: the preset first,
    /// then the others in order. A kernel file is the pair ("kernel", path).
    std::vector<std::pair<std::string, std::string>> settings;
    /// An RGB point spread function given as texels, read as a --kernel file would be (resampled to kernel-size,
    /// faded, normalized, at its own extent on the frame); none: the kernel file of `settings`, else the generated PSF.
    std::optional<Texels> kernel;
    int deviceIndex = -1;    ///< RunnerOptions::deviceIndex; -1: the first discrete GPU, else the first CPU device
    bool validation = false; ///< the Khronos validation layer; any message it prints is a Failure::Device
    float scrubMax = kDefaultScrubMax; ///< the CLI's --clamp: the largest colour value the bloom sees
};

/// Blooms frames as the fftbloom CLI blooms a file's pixels: scrubbed (scrubRgb), bloomed on the runner's device with
/// the kernel made once, and the scrubbed values given back to the composite (restoreUnbloomed). Methods lock a mutex:
/// one bloom at a time.
class Bloomer
{
  public:
    /// Reads the settings, makes the kernel, creates the device and checks kernel and settings on it. Throws
    /// BloomerError: Usage for a bad setting or kernel (naming it) or settings the device refuses for every frame,
    /// Device when no usable device can be made.
    explicit Bloomer(const BloomerOptions& options);

    /// `rgba`, width x height RGBA texels, bloomed: R, G, B composited (or the bloom alone), A as given. With `mask`
    /// (width x height values) that matte weights what blooms (MaskSettings; mask-invert applies), else the mask
    /// setting's (A: rgba's alpha). Throws BloomerError: Usage for a mask of another size, Frame when the plugin
    /// refuses the frame, Device for a Vulkan failure or a validation message.
    Texels bloom(Texels rgba, const std::vector<float>* mask = nullptr);

    std::string deviceName() const;
    /// The kernel as the device takes it: kernel-size x kernel-size RGB texels, each channel summing to 1.
    const Texels& kernel() const { return kernel_; }
    /// One line when a kernel file's or array's light reaches its border unfaded (KernelFile::warning), else "".
    const std::string& kernelWarning() const { return kernelWarning_; }
    /// The settings as "name=value" lines of a settings file (settingLines); with a kernel array, neither its
    /// kernel= line nor the generated PSF's.
    std::vector<std::string> settingLines() const;

  private:
    void readSettings(const BloomerOptions& options);
    void makeKernel(const BloomerOptions& options);
    void checkValidation();

    BloomSettings settings_;
    Texels kernel_;
    /// The far field of the frames of the extent last bloomed (farFieldOn), made again when it changes.
    FarField farField_;
    std::pair<int, int> farFieldFrame_{0, 0};
    std::string kernelWarning_;
    bool kernelArray_ = false;
    float scrubMax_ = kDefaultScrubMax;
    std::unique_ptr<GpuRunner> runner_;
    std::string deviceFailure_; ///< non-empty after a Vulkan failure: the runner must not be used again
    uint64_t validationMessages_ = 0;
    std::mutex mutex_;
};

} // namespace fftb::python
