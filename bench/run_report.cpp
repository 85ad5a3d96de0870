// SPDX-License-Identifier: MIT
// The reports' opening and number format.
#include "run_report.h"

#include <cstdio>

namespace fftb::bench
{

std::string fixed(double value, int digits)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

std::string scientific(double value, int digits)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.*e", digits, value);
    return text;
}

std::string driverVersion(const VkPhysicalDeviceProperties& properties)
{
    const uint32_t v = properties.driverVersion;
    if (properties.vendorID == 0x10de) // NVIDIA packs 10.8.8.6 bits
        return std::to_string(v >> 22) + "." + std::to_string((v >> 14) & 0xff);
    return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
           std::to_string(VK_API_VERSION_PATCH(v));
}

nlohmann::json runJson(const std::string& command, const VkPhysicalDeviceProperties& properties, double copyBandwidth)
{
    return {{"command", command},
            {"device", properties.deviceName},
            {"driver", driverVersion(properties)},
            {"copyBandwidthBytesPerSecond", copyBandwidth}};
}

std::string runSentence(const std::string& command, const VkPhysicalDeviceProperties& properties, double copyBandwidth)
{
    return "Measured by `" + command + "` on " + properties.deviceName + " (driver " + driverVersion(properties) +
           "), copy bandwidth " + fixed(copyBandwidth * 1e-12, 3) + " TB/s (read + write).";
}

} // namespace fftb::bench
