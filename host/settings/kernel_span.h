// SPDX-License-Identifier: MIT
// The kernel's span on the frame and its text form, shared by the fftbloom CLI (--kernel-span) and the viewer
// (kernel-span=).
#pragma once

#include "fftbloom/fftbloom.h"

#include <string>

namespace fftb
{

/// How large the kernel appears on the frame, whatever its resolution: FftbBloomPlanCreateInfo::kernelSpanUnit and
/// kernelSpan.
struct KernelSpan
{
    FftbKernelSpanUnit unit = FFTB_KERNEL_SPAN_NATIVE;
    /// FFTB_KERNEL_SPAN_PIXELS: frame pixels the kernel's larger side spans; FFTB_KERNEL_SPAN_FRAME_DIAGONAL: a
    /// fraction of the frame's diagonal; not read when native
    float value = 0.0f;
    bool native() const { return unit == FFTB_KERNEL_SPAN_NATIVE; }
    bool operator==(const KernelSpan& o) const { return unit == o.unit && value == o.value; }
    bool operator!=(const KernelSpan& o) const { return !(*this == o); }
};

/// Parses how large the kernel appears on the frame: "native" (one kernel texel per frame pixel), "<n>px" (the
/// kernel's larger side spans n frame pixels, 0 < n <= FFTB_MAX_KERNEL_LENGTH) or "<f>diag" (it spans a fraction
/// f > 0 of the frame's diagonal sqrt(W^2 + H^2)); n and f are finite decimal numbers, e.g. "300px", "0.25diag".
/// Returns false and a one-line reason without the option's name otherwise, leaving `span` as it was.
bool parseKernelSpan(const std::string& text, KernelSpan* span, std::string* error);

/// `span` measured on a frame of `width` x `height` pixels: a fraction of the diagonal becomes the pixels it spans,
/// f sqrt(W^2 + H^2) (FFTB_KERNEL_SPAN_PIXELS); native and pixel extents are returned as they are. The CLI measures
/// on an EXR's display window, so that overscan or a crop of the data window does not change the bloom's size.
KernelSpan inPixelsOf(const KernelSpan& span, double width, double height);

/// `span` for a kernel made from a file of `fileWidth` x `fileHeight` texels resampled to `sizeTexels` per side: at
/// native extent one file texel is one frame pixel, so its larger side spans max(fileWidth, fileHeight) pixels
/// (FFTB_KERNEL_SPAN_PIXELS) whatever resolution it is resampled to; native when that is `sizeTexels`, and any other
/// span as it is. A 1 x 1 file is then the identity at every resolution.
KernelSpan fileKernelSpan(const KernelSpan& span, int fileWidth, int fileHeight, int sizeTexels);

/// The text parseKernelSpan reads back as `span`: "native", "300px", "0.25diag".
std::string kernelSpanText(const KernelSpan& span);

} // namespace fftb
