// SPDX-License-Identifier: MIT
// A kernel's texels from its settings: the generated PSF, a PSF file or a PSF in memory.
#include "settings/kernel_texels.h"

#include "host_error.h"
#include "psf/psf.h"
#include "psf/psf_generator.h"

#include <new>
#include <utility>

namespace fftb
{

KernelTexels makeKernelTexels(const KernelSettings& kernel, const Texels* array, const std::string& arrayName)
{
    const std::string name = array ? arrayName : kernel.file.empty() ? "the generated PSF" : kernel.file;
    try
    {
        if (!array && kernel.file.empty())
            return {defaultPsf(kernel.sizeTexels, kernel.psfDesign()), {}, {}, true};
        // An array is faded as a file is: not unless the fade is given (fadeOf() counts it generated).
        KernelFile file = array ? kernelFromPsf(arrayName, *array, kernel.sizeTexels, kernel.fade.value_or(0.0))
                                : loadKernelFile(kernel.file, kernel.sizeTexels, kernel.fadeOf());
        return {std::move(file.texels), fileKernelSpan({}, file.fileWidth, file.fileHeight, kernel.sizeTexels),
                std::move(file.warning)};
    }
    catch (const std::bad_alloc&)
    {
        const std::string size = std::to_string(kernel.sizeTexels);
        throw HostError(name + ": not enough memory to make it at " + size + " x " + size + " texels");
    }
}

} // namespace fftb
