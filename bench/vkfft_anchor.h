// SPDX-License-Identifier: MIT
// The VkFFT anchor: its fused R2C convolution of the same padded problem, timed on the same device.
#pragma once

#include "vulkan/vulkan_device.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fftb::bench
{

/// One anchor case: a width x height RGB frame convolved with a kernelSize^2 kernel, zero-padded to
/// paddedWidth x paddedHeight (the extents fftbloom's plan chose, so both solve the same problem).
struct VkfftCase
{
    uint32_t width = 0, height = 0, kernelSize = 0, paddedWidth = 0, paddedHeight = 0;
    int warmupFrames = 5;
    int frames = 50;
};

/// Medians over `frames` timed frames, in milliseconds, from Vulkan timestamps.
struct VkfftTiming
{
    bool ok = false;
    std::string error;             ///< why not ok (VkFFT's error code and name)
    double coreMs = 0.0;           ///< VkFFT's convolution alone: planar fp32 buffer in, padded R2C layout out
    double endToEndMs = 0.0;       ///< plus the RGBA16F image -> planar buffer pack and buffer -> RGBA16F unpack an
                                   ///< engine needs around it
    double maxRelativeError = 0.0; ///< VkFFT's result against a direct convolution at a few texels (sanity check)
};

/// Builds the VkFFT kernel spectrum and convolution applications (VkFFT 1.2.26, Debian libvkfft-dev) for the case
/// and times them. Never throws for VkFFT failures: reports them in VkfftTiming::error.
VkfftTiming measureVkfft(VulkanDevice& device, const VkfftCase& c);

/// VkFFT's 1D C2C forward FFT of `lines` complex fp32 lines of `length`, contiguous, out of place (read from one
/// buffer, written to another), as fftbloom-bench --fft-lines times the plugin's engine.
struct VkfftLinesCase
{
    uint32_t length = 0, lines = 0;
    std::vector<float> values; ///< 2 x lines x length floats, interleaved (re, im)
    int warmup = 2000, repeats = 50;
};

struct VkfftLinesTiming
{
    bool ok = false;
    std::string error; ///< why not ok (VkFFT's error code and name)
    double ms = 0.0;   ///< median GPU time of the dispatches that transform the batch, milliseconds
    std::vector<float> firstLine, lastLine; ///< their spectra, interleaved (re, im)
};

/// Plans (VkFFT 1.2.26), times and reads back the first and last spectra; never throws for VkFFT failures (their
/// reason is in VkfftLinesTiming::error), throws VulkanError for Vulkan ones.
VkfftLinesTiming measureVkfftLines(VulkanDevice& device, const VkfftLinesCase& c);

} // namespace fftb::bench
