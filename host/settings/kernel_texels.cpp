// SPDX-License-Identifier: MIT
// A kernel's texels from its settings: the generated PSF, a PSF file or a PSF in memory.
#include "settings/kernel_texels.h"

#include "host_error.h"
#include "psf/psf.h"
#include "psf/psf_generator.h"
#include "settings/kernel_span.h"

#include <algorithm>
#include <cmath>
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

bool hasFarField(const KernelSettings& kernel, bool generated, const PlanSettings& plan)
{
    return generated && kernel.file.empty() && kernel.glare > 0.0 && kernel.glareReach > 0.0 &&
           plan.resolution == FFTB_BLOOM_RESOLUTION_FULL;
}

FarField farFieldOn(const KernelSettings& kernel, bool generated, int kernelTexels, const PlanSettings& plan,
                    double width, double height)
{
    if (!hasFarField(kernel, generated, plan))
        return {};
    const KernelSpan span = inPixelsOf(plan.kernelSpan, width, height);
    PsfParams core = kernel.psfDesign();
    core.sizeTexels = kernelTexels;
    // The far field's kernel is at most kFarFieldMaxTexels: its reach at most half that many pixels of the eighth.
    const double reach = std::min(kernel.glareReach * std::hypot(width, height), 8.0 * (kFarFieldMaxTexels / 2));
    return farFieldOf(core, span.native() ? double(kernelTexels) : double(span.value), reach, 8);
}

} // namespace fftb
