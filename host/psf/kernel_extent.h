// The text form of a kernel scale, shared by the fftbloom CLI (--kernel-extent) and the viewer (kernel-extent=).
#pragma once

#include "plan.h"

#include <string>

namespace fftb
{

/// Parses how large the kernel appears on the frame: "native" (one kernel texel per frame pixel), "<n>px" (the
/// kernel's larger side spans n frame pixels, 0 < n <= kMaxKernelLength) or "<f>diag" (it spans a fraction f > 0 of
/// the frame's diagonal sqrt(W^2 + H^2)); n and f are finite decimal numbers, e.g. "300px", "0.25diag". Returns false
/// and a one-line reason without the option's name otherwise, leaving `scale` as it was.
bool parseKernelExtent(const std::string& text, KernelScale* scale, std::string* error);

/// The text parseKernelExtent reads back as `scale`: "native", "300px", "0.25diag".
std::string kernelExtentText(const KernelScale& scale);

} // namespace fftb
