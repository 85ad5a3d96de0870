// SPDX-License-Identifier: MIT
// The copy bandwidth of the device, measured with a compute shader: the yardstick of the bandwidth floor; and the
// copy skeleton of the passes, the same bytes moved by plain copies with the same dispatches and barriers.
#pragma once

#include "vulkan/vulkan_device.h"

#include <cstdint>
#include <vector>

namespace fftb::bench
{

/// One dispatch of copies within one buffer: `readBytes` read from `readOffset`, `writeBytes` written at
/// `writeOffset` (multiples of 256).
struct CopyStep
{
    uint64_t readOffset = 0, readBytes = 0, writeOffset = 0, writeBytes = 0;
};

/// Runs `steps` one after another with a compute-to-compute barrier before each (as fftbCmdBloom records its passes),
/// once to warm up and then `repeats` times, in a buffer of `bufferBytes`; returns each step's median seconds.
std::vector<double> timeCopySteps(VulkanDevice& device, const std::vector<CopyStep>& steps, uint64_t bufferBytes,
                                  int repeats);

/// Bytes read plus bytes written per second (median of `repeats` copies of a `sizeBytes` buffer into another).
double measureCopyBandwidth(VulkanDevice& device, uint64_t sizeBytes, int repeats);

} // namespace fftb::bench
