// SPDX-License-Identifier: MIT
// The object behind FftbKernel: the kernel's texels and its spectra, a slot per spectrum its live plans read.
#pragma once

#include "device.h"
#include "recipe.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

namespace fftb
{

class BloomPlan;

/// What a kernel made on the GPU needs (FftbKernelGeneratorInfo): the Airy radius it was made for, the generator's FFT
/// size and the bytes of its buffer.
struct GeneratorSetup
{
    float airyRadiusTexels = 0.0f;
    uint32_t fftLength = 0;
    VkDeviceSize bufferBytes = 0;
};

/// Checks a generated kernel's size and Airy radius (generate.cpp): K x K, K a power of two in 64 .. 2048, and the
/// radius of FftbApertureInfo::airyRadiusTexels; throws Failure naming the field.
GeneratorSetup generatorSetupOf(const FftbKernelInfo& kernel, const FftbKernelGeneratorInfo& generator,
                                const VkPhysicalDeviceLimits& limits);

class Kernel
{
  public:
    /// Validates, normalizes per channel and uploads `info.texels` (NULL for a kernel made on the GPU: a unit impulse
    /// at its centre texel until generated). Spectra are sized for the context's maximum
    /// extents `max` (frames, and the kernel's extent on them) planned with `lengths`. With an FftbKernelGeneratorInfo
    /// chained, allocates the generator's buffers too.
    Kernel(std::shared_ptr<const Device> device, const FftbKernelInfo& info, const Extents& max,
           FftbLengthPolicy lengths);
    ~Kernel();
    Kernel(const Kernel&) = delete;
    Kernel& operator=(const Kernel&) = delete;

    /// Plan `user`, planned as `plan`, is made: gives it the spectrum slot of the live plans that read the same
    /// spectrum (padded extent, kernel scale, axis order), or a new one, so that plans taking turns with the kernel
    /// never overwrite each other's spectrum. Throws FFTB_ERROR_DEVICE_LIMIT when the spectrum would pass
    /// maxStorageBufferRange per channel.
    void reserve(const Plan& plan, BloomPlan* user);
    /// Plan `user` is destroyed: its slot goes with the last plan that read it.
    void release(const Plan& plan, BloomPlan* user);
    /// The buffers a bloom planned as `plan` binds (reserve()d): the planar texels and its spectrum slot, of 3 ranges
    /// of `spectrumChannelBytes` (R, G, B; FFTB_BINDING_KERNEL_SPECTRUM). The texels are the generated ones once the
    /// host saw a generation execute, else those uploaded at creation; `tag` names them: the value of the generation
    /// word then, or 0. `computeSpectrum` is true until a command buffer that computed the spectrum from them
    /// executed: the caller then records the spectrum passes, followed by Device::cmdComplete(`word`, `value`,
    /// `tagSource`), which tags it with the texels the passes read when they executed. `serial` is serial().
    /// Bind once per command: its passes must read the texels it chose.
    struct Binding
    {
        VkBuffer texels;
        VkBuffer spectrum;
        VkDeviceSize spectrumChannelBytes;
        bool computeSpectrum;
        uint64_t serial;
        Buffer word;
        uint32_t value;
        uint32_t tag;
        Buffer tagSource; ///< the generation word while the generated texels are bound, else none (tag 0)
    };
    Binding bind(const Plan& plan) const;

    /// The generator's setup, or nullptr for a kernel made without an FftbKernelGeneratorInfo.
    const GeneratorSetup* generator() const { return generator_.fftLength ? &generator_ : nullptr; }
    /// The pipelines fftbCmdGenerateKernel binds for this kernel: none without a generator.
    std::vector<PipelineKey> generatorPipelines() const;
    /// A generation is recorded (fftbCmdGenerateKernel): the blooms recorded from now on recompute the spectra, and
    /// the serial changes (border weights are recomputed too), since they may execute after it. Returns the buffers
    /// the generator writes: device-local texels, its own buffer, and the generation word with the value it writes
    /// after the passes (Device::cmdComplete).
    struct Generation
    {
        VkBuffer texels;
        VkBuffer generator;
        Buffer word;
        uint32_t value;
    };
    Generation replaceTexels();
    /// The factors texel x (or y) of the kernel is stored times along each axis: the resampled spectrum's
    /// deapodization (resampling.h), 1 in exact mode. Square kernels only (both axes alike).
    const std::vector<double>& deapodization() const { return deapodizeX_; }

    const Device& device() const { return *device_; }
    /// Unique among the kernels this process creates, unlike the address, which may be reused: what results computed
    /// with the kernel (a context's border weights) are keyed by.
    uint64_t serial() const
    {
        std::lock_guard lock(mutex_);
        return serial_;
    }
    uint32_t width() const { return width_; }
    uint32_t height() const { return height_; }
    FftbSpectrumMode mode() const { return mode_; }
    /// How its resampled spectrum is stored and read (FftbKernelInfo::interpolation, interpolationWidth,
    /// spectrumOversampling).
    const SpectrumResampling& resampling() const { return resampling_; }

  private:
    /// "fftbloom: kernel WxH <what>", the debug name of one of its buffers (Device::setName).
    std::string nameOf(const char* what) const;
    /// The spectrum a plan reads: its stored lengths, and the frame's padded lengths, kernel scale (resampled mode)
    /// and axis order.
    struct SpectrumKey
    {
        uint32_t spectrumLength1 = 0, spectrumLength2 = 0, paddedLength1 = 0, paddedLength2 = 0;
        double kernelScale = 0;
        bool firstAxisIsX = true;
        bool operator==(const SpectrumKey&) const = default;
    };
    static SpectrumKey keyOf(const Plan& plan)
    {
        return {plan.first.spectrumLength, plan.second.spectrumLength, plan.first.paddedLength,
                plan.second.paddedLength,  plan.kernelScale,           plan.firstAxisIsX};
    }
    struct Slot
    {
        SpectrumKey key;
        Buffer buffer;
        uint64_t channelElements = 0; ///< complex fp32 of each of its 3 channel ranges
        Buffer word;                  ///< its completion word (Device::completed), tagged with the texels read
        uint32_t value = 0;           ///< what the word holds once the spectrum of `key` exists
        uint32_t users = 0;           ///< live plans that read it (reserve), at least 1
    };
    /// The slot of `plan`'s spectrum among `slots` (slots_), or their end. With mutex_ held.
    template <typename Slots> static auto findSlot(Slots& slots, const Plan& plan)
    {
        const SpectrumKey key = keyOf(plan);
        return std::find_if(slots.begin(), slots.end(), [&](const Slot& slot) { return slot.key == key; });
    }
    /// The slot of `plan`'s spectrum (reserve()d). With mutex_ held.
    const Slot& slotOf(const Plan& plan) const;

    std::shared_ptr<const Device> device_;
    uint64_t serial_ = 0;
    uint32_t width_ = 0, height_ = 0;
    FftbSpectrumMode mode_ = FFTB_SPECTRUM_MODE_RESAMPLED;
    SpectrumResampling resampling_;
    Buffer texels_;          ///< host-visible, uploaded at creation
    Buffer generatedTexels_; ///< device-local, bound instead once generationWord_ is not 0
    /// Written by every fftbCmdGenerateKernel after its passes: not 0 once one executed, and generatedTexels_ then
    /// hold the texels of the last one that executed.
    Buffer generationWord_;
    std::vector<double> deapodizeX_;
    GeneratorSetup generator_;
    Buffer generatorBuffer_; ///< fftbCmdGenerateKernel's intermediate
    std::vector<Slot> slots_;
    std::vector<BloomPlan*>
        users_; ///< the live plans made with it, told when it is destroyed (BloomPlan::forgetKernel)
    mutable std::mutex mutex_;
};

/// The object behind an FftbKernel handle (the handle is its address).
inline Kernel* kernelOf(FftbKernel handle)
{
    return reinterpret_cast<Kernel*>(handle);
}

} // namespace fftb
