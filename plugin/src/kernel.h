// SPDX-License-Identifier: MIT
// The object behind FftbKernel: the kernel's texels and its spectra, one slot per axis order.
#pragma once

#include "device.h"
#include "plan.h"
#include "shared/fftb_shared.h"

#include <memory>
#include <mutex>
#include <vector>

namespace fftb
{

class Kernel
{
  public:
    /// Validates, normalizes per channel and uploads `info.texels`. Exact-mode spectra are sized for frames up to
    /// `maxWidth` x `maxHeight` planned with `lengths`.
    Kernel(std::shared_ptr<const Device> device, const FftbKernelInfo& info, uint32_t maxWidth, uint32_t maxHeight,
           LengthPolicy lengths);
    ~Kernel();
    Kernel(const Kernel&) = delete;
    Kernel& operator=(const Kernel&) = delete;

    /// The buffers a bloom planned as `plan` binds: the planar texels and the spectrum slot of its axis order.
    /// `computeSpectrum` is true when the slot does not yet hold the spectrum `plan` reads: the caller records the
    /// spectrum passes into the same command buffer. Allocates the slot on first use. Throws FFTB_ERROR_DEVICE_LIMIT
    /// when the spectrum is larger than the slot (an exact-mode kernel used with frames larger than it was made for).
    struct Binding
    {
        VkBuffer texels;
        VkBuffer spectrum;
        bool computeSpectrum;
    };
    Binding bind(const Plan& plan);
    /// Whether bind(plan) would compute the spectrum, without changing anything.
    bool needsSpectrum(const Plan& plan) const;

    /// The kernel's texels are about to be replaced on the GPU (fftbCmdGenerateKernel): its spectra are recomputed by
    /// the next bind, and its serial changes (results computed with the old texels are not reused). Returns the
    /// buffers the generator writes: device-local texels (bound from now on), and its own buffer of at least
    /// `generatorBytes`, allocated or grown now (a smaller one stays alive with the kernel: command buffers may still
    /// use it).
    struct Generation
    {
        VkBuffer texels;
        VkBuffer generator;
    };
    Generation replaceTexels(VkDeviceSize generatorBytes);
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
    SpectrumMode mode() const { return mode_; }
    /// How its resampled spectrum is stored and read (FftbKernelInfo::interpolation, interpolationWidth,
    /// spectrumOversampling).
    const SpectrumResampling& resampling() const { return resampling_; }

  private:
    struct Slot
    {
        Buffer buffer;
        uint64_t capacityElements = 0;
        uint32_t spectrumLength1 = 0; ///< the spectrum it holds; 0 when none
        uint32_t spectrumLength2 = 0;
        /// Whether it holds the spectrum `plan` reads.
        bool holds(const Plan& plan) const
        {
            return spectrumLength1 == plan.first.spectrumLength && spectrumLength2 == plan.second.spectrumLength;
        }
    };
    static uint32_t slotOf(const Plan& plan) { return plan.firstAxisIsX ? 0 : 1; }

    std::shared_ptr<const Device> device_;
    uint64_t serial_ = 0;
    uint32_t width_ = 0, height_ = 0;
    SpectrumMode mode_ = SpectrumMode::Resampled;
    SpectrumResampling resampling_;
    Buffer texels_;          ///< host-visible, uploaded at creation
    Buffer generatedTexels_; ///< device-local, from the first fftbCmdGenerateKernel on: then bound instead
    std::vector<double> deapodizeX_;
    std::vector<Buffer> generators_; ///< the generator's buffers, the last in use: fftbCmdGenerateKernel
    Slot slots_[2];                  ///< x first, y first
    mutable std::mutex mutex_;
};

/// The object behind an FftbKernel handle (the handle is its address).
inline Kernel* kernelOf(FftbKernel handle)
{
    return reinterpret_cast<Kernel*>(handle);
}

} // namespace fftb
