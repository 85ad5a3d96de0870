// SPDX-License-Identifier: MIT
// What every fftbloom-bench report opens with (the command, the device, its driver, the copy bandwidth), and numbers
// as its tables print them.
#pragma once

#include <nlohmann/json.hpp>
#include <vulkan/vulkan.h>

#include <string>

namespace fftb::bench
{

/// `value` with `digits` digits after the point ("0.049").
std::string fixed(double value, int digits);

/// `value` in scientific notation with `digits` digits after the point ("3.1e-07").
std::string scientific(double value, int digits);

/// The driver's version as its vendor numbers it ("580.159" for NVIDIA, "24.2.8" for Mesa).
std::string driverVersion(const VkPhysicalDeviceProperties& properties);

/// The JSON report's first keys: command, device, driver and copyBandwidthBytesPerSecond (read + write bytes per
/// second).
nlohmann::json runJson(const std::string& command, const VkPhysicalDeviceProperties& properties, double copyBandwidth);

/// The Markdown report's first sentence: "Measured by `command` on DEVICE (driver D), copy bandwidth B TB/s (read +
/// write)."
std::string runSentence(const std::string& command, const VkPhysicalDeviceProperties& properties, double copyBandwidth);

} // namespace fftb::bench
