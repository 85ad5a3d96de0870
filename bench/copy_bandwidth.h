// SPDX-License-Identifier: MIT
// The copy bandwidth of the device, measured with a compute shader: the yardstick of the bandwidth floor; the copy
// skeleton of the passes, the same bytes moved by plain copies with the same dispatches and barriers; and the
// timestamps around dispatches that time both.
#pragma once

#include "vulkan/vulkan_device.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace fftb::bench
{

/// Records into one command buffer `warmupRounds` untimed rounds, then `repeats` timed rounds, of `steps` dispatches,
/// each after a compute-to-compute barrier (as fftbCmdBloom records its passes); `record(cb, step)` binds and
/// dispatches step `step`, between two timestamps in a timed round. Submits, waits and returns each step's median
/// seconds over the timed rounds. `repeats` >= 1.
std::vector<double> timeDispatches(VulkanDevice& device, uint32_t steps, int warmupRounds, int repeats,
                                   const std::function<void(VkCommandBuffer cb, uint32_t step)>& record);

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
