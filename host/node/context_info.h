// SPDX-License-Identifier: MIT
// The FftbContextCreateInfo of a context on the host's own device (VulkanDevice or the viewer's WindowDevice).
#pragma once

#include "fftbloom/fftbloom.h"
#include "vulkan/device_setup.h"

#include <cstdint>
#include <string>

namespace fftb
{

/// A context create info for `device` (made on `instance`) with the Vulkan loader's entry points, for frames of up to
/// maxWidth x maxHeight and kernels of up to maxKernelResolutionWidth x maxKernelResolutionHeight texels (and as many
/// pixels on the frame: maxKernelExtent* 0), and, with `message`, a callback
/// that stores the plugin's last message there. The caller adds an allocator and pNext.
FftbContextCreateInfo contextCreateInfo(VkInstance instance, const LogicalDevice& device, uint32_t maxWidth,
                                        uint32_t maxHeight, uint32_t maxKernelResolutionWidth,
                                        uint32_t maxKernelResolutionHeight, std::string* message = nullptr);

} // namespace fftb
