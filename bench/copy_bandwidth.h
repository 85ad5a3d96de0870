// The copy bandwidth of the device, measured with a compute shader: the yardstick of the bandwidth floor.
#pragma once

#include "vulkan/vulkan_device.h"

#include <cstdint>

namespace fftb::bench
{

/// Bytes read plus bytes written per second (median of `repeats` copies of a `sizeBytes` buffer into another).
double measureCopyBandwidth(VulkanDevice& device, uint64_t sizeBytes, int repeats);

} // namespace fftb::bench
