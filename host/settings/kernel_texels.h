// SPDX-License-Identifier: MIT
// A kernel's texels made from its settings, for every front-end (the CLI, the viewer, the Python module).
#pragma once

#include "image/image.h"
#include "settings/bloom_settings.h"
#include "settings/kernel_span.h"

#include <string>

namespace fftb
{

/// A kernel's RGB texels, the span it takes on the frame at native extent and a warning about it.
struct KernelTexels
{
    Texels texels; ///< sizeTexels x sizeTexels RGB, normalized (defaultPsf, or loadKernelFile's resampled file)
    /// Native for the generated PSF; a file's or array's own extent, so that the kernel size changes only its sampling
    /// (fileKernelSpan)
    KernelSpan nativeSpan;
    std::string warning; ///< empty, or a file's light in its outer ring, unfaded (KernelFile::warning)

    /// The span a bloom with these texels takes for the settings' `span`: nativeSpan where `span` is native, else
    /// `span` itself (fileKernelSpan).
    KernelSpan spanOn(const KernelSpan& span) const { return span.native() ? nativeSpan : span; }
};

/// The texels of `kernel` at kernel.sizeTexels per side: the generated PSF (defaultPsf of kernel.psfDesign()) when it
/// names no file, else its PSF file resampled and faded by kernel.fadeOf() (loadKernelFile); with `array` (a PSF in
/// memory, such as the Python module's NumPy array, `arrayName` in messages), that array instead, faded only by an
/// explicit kernel.fade. Throws HostError naming the file or array: unreadable or not a PSF (loadKernelFile,
/// checkPsfTexels), or "<name>: not enough memory to make it at N x N texels".
KernelTexels makeKernelTexels(const KernelSettings& kernel, const Texels* array = nullptr,
                              const std::string& arrayName = "kernel array");

} // namespace fftb
