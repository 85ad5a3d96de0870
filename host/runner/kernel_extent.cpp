// SPDX-License-Identifier: MIT
// Parsing and printing "native", "<n>px" and "<f>diag".
#include "runner/kernel_extent.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace fftb
{

bool parseKernelExtent(const std::string& text, KernelExtent* extent, std::string* error)
{
    const auto fail = [&](const std::string& reason)
    {
        if (error)
            *error = "'" + text + "' " + reason;
        return false;
    };
    if (text == "native")
    {
        *extent = KernelExtent{};
        return true;
    }
    float value = 0.0f;
    const char* end = text.data() + text.size();
    // from_chars takes no sign, space or hexadecimal prefix: "300px" and "0.25diag" only.
    const auto [rest, ec] = std::from_chars(text.data(), end, value, std::chars_format::fixed);
    const std::string unit(rest, end);
    if (ec != std::errc() || (unit != "px" && unit != "diag"))
        return fail("is not native, <n>px (the kernel's larger side spans n pixels) or <f>diag (a fraction f of the "
                    "frame's diagonal)");
    if (!(value > 0.0f) || !std::isfinite(value))
        return fail("must be larger than 0");
    if (unit == "px" && value > float(FFTB_MAX_KERNEL_LENGTH))
        return fail("is more than " + std::to_string(FFTB_MAX_KERNEL_LENGTH) + " pixels, the largest kernel extent");
    *extent = KernelExtent{unit == "px" ? FFTB_KERNEL_SCALE_PIXELS : FFTB_KERNEL_SCALE_FRAME_DIAGONAL, value};
    return true;
}

KernelExtent inPixelsOf(const KernelExtent& extent, double width, double height)
{
    if (extent.unit != FFTB_KERNEL_SCALE_FRAME_DIAGONAL)
        return extent;
    return {FFTB_KERNEL_SCALE_PIXELS, float(double(extent.value) * std::sqrt(width * width + height * height))};
}

std::string kernelExtentText(const KernelExtent& extent)
{
    if (extent.native())
        return "native";
    char text[48];
    std::snprintf(text, sizeof text, "%.9g%s", double(extent.value),
                  extent.unit == FFTB_KERNEL_SCALE_PIXELS ? "px" : "diag");
    return text;
}

} // namespace fftb
