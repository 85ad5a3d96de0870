// SPDX-License-Identifier: MIT
// The plugin's per-frame, plan and kernel structs of the host's settings.
#include "settings/bloom_settings.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include <algorithm>

namespace fftb
{

bool KernelSettings::madeOnGpu() const
{
    return animate && file.empty() && sizeTexels >= 64 && sizeTexels <= 2048 && (sizeTexels & (sizeTexels - 1)) == 0;
}

bool KernelSettings::sameTexels(const KernelSettings& o) const
{
    return file == o.file && sizeTexels == o.sizeTexels && aperture == o.aperture && airyRadius == o.airyRadius &&
           glare == o.glare && fade == o.fade && animate == o.animate;
}

double KernelSettings::fadeOf() const
{
    return fade.value_or(file.empty() ? kDefaultPsfFade : 0.0);
}

PsfParams KernelSettings::psfDesign() const
{
    PsfParams p;
    p.aperture = aperture;
    p.sizeTexels = sizeTexels;
    p.airyRadiusTexels = airyRadius * sizeTexels / kAiryReferenceSize;
    p.fade = fadeOf();
    p.glare = glare;
    return p;
}

bool MaskSettings::isFile() const
{
    const auto endsWith = [this](const char* extension)
    {
        const std::size_t n = std::strlen(extension);
        return source.size() > n &&
               std::equal(source.end() - std::ptrdiff_t(n), source.end(), extension,
                          [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
    };
    return endsWith(".exr") || endsWith(".hdr");
}

FftbBloomInfo bloomInfoOf(const FrameSettings& frame)
{
    FftbBloomInfo bi{FFTB_STRUCTURE_TYPE_BLOOM_INFO};
    bi.outputMode = frame.output;
    bi.intensity = frame.intensity;
    bi.sharpen = frame.sharpen;
    bi.prefilterThreshold = frame.prefilter.threshold;
    bi.prefilterKnee = frame.prefilter.knee;
    bi.prefilterClamp = frame.prefilter.clamp;
    std::copy(frame.tint.begin(), frame.tint.end(), bi.tint);
    bi.tintEnabled = VK_TRUE; // the settings' tint, 1, 1, 1 by default, 0, 0, 0 a black bloom
    bi.sourceMask = !frame.mask.active() ? FFTB_SOURCE_MASK_NONE
                    : frame.mask.invert  ? FFTB_SOURCE_MASK_ONE_MINUS_ALPHA
                                         : FFTB_SOURCE_MASK_ALPHA;
    return bi;
}

FftbBloomPlanCreateInfo planInfoOf(const PlanSettings& plan, uint32_t width, uint32_t height)
{
    FftbBloomPlanCreateInfo pi{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_CREATE_INFO};
    pi.width = width;
    pi.height = height;
    pi.inputLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    pi.padding = plan.padding;
    pi.axisOrder = plan.axisOrder;
    pi.storagePrecision = plan.storage;
    pi.resolution = plan.resolution;
    // The generated PSF's auto span is rounded to whole pixels on this frame (inPixelsOf); auto unresolved is native.
    const KernelSpan span = plan.kernelSpan.automatic ? inPixelsOf(plan.kernelSpan, width, height) : plan.kernelSpan;
    pi.kernelSpanUnit = span.unit;
    pi.kernelSpan = span.value;
    return pi;
}

FftbKernelInfo kernelInfoOf(const KernelSettings& kernel, const Texels& texels)
{
    FftbKernelInfo ki{FFTB_STRUCTURE_TYPE_KERNEL_INFO};
    ki.width = uint32_t(texels.width);
    ki.height = uint32_t(texels.height);
    ki.texels = texels.values.data();
    ki.spectrumMode = kernel.spectrum;
    ki.interpolation = kernel.interpolation;
    ki.interpolationWidth = kernel.interpolationWidth;
    ki.spectrumOversampling = kernel.spectrumOversampling;
    ki.rotationDegrees = kernel.rotationDegrees;
    ki.centreOffsetU = kernel.centreOffset[0];
    ki.centreOffsetV = kernel.centreOffset[1];
    return ki;
}

} // namespace fftb
