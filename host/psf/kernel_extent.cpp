// Parsing and printing "native", "<n>px" and "<f>diag".
#include "psf/kernel_extent.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace fftb
{

bool parseKernelExtent(const std::string& text, KernelScale* scale, std::string* error)
{
    const auto fail = [&](const std::string& reason)
    {
        if (error)
            *error = "'" + text + "' " + reason;
        return false;
    };
    if (text == "native")
    {
        *scale = KernelScale{};
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
    if (unit == "px" && value > float(kMaxKernelLength))
        return fail("is more than " + std::to_string(kMaxKernelLength) + " pixels, the largest kernel extent");
    *scale = KernelScale{unit == "px" ? KernelScaleUnit::Pixels : KernelScaleUnit::FrameDiagonal, value};
    return true;
}

std::string kernelExtentText(const KernelScale& scale)
{
    if (scale.native())
        return "native";
    char text[48];
    std::snprintf(text, sizeof text, "%.9g%s", double(scale.value),
                  scale.unit == KernelScaleUnit::Pixels ? "px" : "diag");
    return text;
}

} // namespace fftb
