// SPDX-License-Identifier: MIT
// Parsing and printing "native", "<n>px" and "<f>diag", and a kernel file's native span.
#include "settings/kernel_span.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace fftb
{

bool parseKernelSpan(const std::string& text, KernelSpan* span, std::string* error)
{
    const auto fail = [&](const std::string& reason)
    {
        if (error)
            *error = "'" + text + "' " + reason;
        return false;
    };
    if (text == "native")
    {
        *span = KernelSpan{};
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
    *span = KernelSpan{unit == "px" ? FFTB_KERNEL_SPAN_PIXELS : FFTB_KERNEL_SPAN_FRAME_DIAGONAL, value};
    return true;
}

KernelSpan inPixelsOf(const KernelSpan& span, double width, double height)
{
    if (span.unit != FFTB_KERNEL_SPAN_FRAME_DIAGONAL)
        return span;
    return {FFTB_KERNEL_SPAN_PIXELS, float(double(span.value) * std::sqrt(width * width + height * height))};
}

KernelSpan fileKernelSpan(const KernelSpan& span, int fileWidth, int fileHeight, int sizeTexels)
{
    const int larger = std::max(fileWidth, fileHeight);
    if (!span.native() || larger == sizeTexels)
        return span;
    return {FFTB_KERNEL_SPAN_PIXELS, float(larger)};
}

std::string kernelSpanText(const KernelSpan& span)
{
    if (span.native())
        return "native";
    // The shortest digits that read back as the same float, in the fixed notation parseKernelSpan reads.
    char text[64];
    const auto [end, ec] = std::to_chars(text, text + sizeof text, span.value, std::chars_format::fixed);
    return std::string(text, ec == std::errc() ? end : text) + (span.unit == FFTB_KERNEL_SPAN_PIXELS ? "px" : "diag");
}

} // namespace fftb
