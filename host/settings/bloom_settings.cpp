// SPDX-License-Identifier: MIT
// The plugin's per-frame, plan and kernel structs of the host's settings.
#include "settings/bloom_settings.h"

#include <algorithm>

namespace fftb
{

bool KernelSettings::madeOnGpu() const
{
    return animate && file.empty() && sizeTexels >= 64 && sizeTexels <= 2048 && (sizeTexels & (sizeTexels - 1)) == 0;
}

bool KernelSettings::operator==(const KernelSettings& o) const
{
    const ApertureParams& a = aperture;
    const ApertureParams& b = o.aperture;
    const bool sameAperture = a.blades == b.blades && a.bladeRotationDeg == b.bladeRotationDeg &&
                              a.bladeCurvature == b.bladeCurvature && a.obstruction == b.obstruction &&
                              a.vanes == b.vanes && a.vaneWidth == b.vaneWidth && a.vaneAngleDeg == b.vaneAngleDeg &&
                              a.dust == b.dust && a.scratches == b.scratches && a.corona == b.corona &&
                              a.haloRadius == b.haloRadius && a.seed == b.seed;
    return file == o.file && sizeTexels == o.sizeTexels && airyRadiusTexels == o.airyRadiusTexels && glare == o.glare &&
           fade == o.fade && animate == o.animate && sameAperture;
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
    p.airyRadiusTexels = airyRadiusTexels;
    p.fade = fadeOf();
    p.glare = glare;
    return p;
}

FftbBloomInfo bloomInfoOf(const BloomSettings& settings)
{
    FftbBloomInfo bi{FFTB_STRUCTURE_TYPE_BLOOM_INFO};
    bi.outputMode = settings.output;
    bi.intensity = settings.intensity;
    bi.sharpen = settings.sharpen;
    bi.prefilterThreshold = settings.prefilter.threshold;
    bi.prefilterKnee = settings.prefilter.knee;
    bi.prefilterClamp = settings.prefilter.clamp;
    std::copy(settings.tint.begin(), settings.tint.end(), bi.tint);
    bi.tintEnabled = VK_TRUE; // the settings' tint, 1, 1, 1 by default, 0, 0, 0 a black bloom
    return bi;
}

FftbBloomPlanCreateInfo planInfoOf(const BloomSettings& settings, uint32_t width, uint32_t height)
{
    FftbBloomPlanCreateInfo pi{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_CREATE_INFO};
    pi.width = width;
    pi.height = height;
    pi.inputLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    pi.padding = settings.padding;
    pi.axisOrder = settings.axisOrder;
    pi.storagePrecision = settings.storage;
    pi.resolution = settings.resolution;
    pi.kernelSpanUnit = settings.kernelSpan.unit;
    pi.kernelSpan = settings.kernelSpan.value;
    return pi;
}

FftbKernelInfo kernelInfoOf(const BloomSettings& settings, const Texels& texels)
{
    FftbKernelInfo ki{FFTB_STRUCTURE_TYPE_KERNEL_INFO};
    ki.width = uint32_t(texels.width);
    ki.height = uint32_t(texels.height);
    ki.texels = texels.values.data();
    ki.spectrumMode = settings.spectrum;
    ki.interpolation = settings.interpolation;
    ki.interpolationWidth = settings.interpolationWidth;
    ki.spectrumOversampling = settings.spectrumOversampling;
    ki.rotationDegrees = settings.kernelRotationDegrees;
    ki.centreOffsetU = settings.kernelCentreOffset[0];
    ki.centreOffsetV = settings.kernelCentreOffset[1];
    return ki;
}

bool sameBloomInfo(const BloomSettings& a, const BloomSettings& b)
{
    const FftbBloomInfo x = bloomInfoOf(a), y = bloomInfoOf(b);
    return x.outputMode == y.outputMode && x.intensity == y.intensity && x.sharpen == y.sharpen &&
           x.prefilterThreshold == y.prefilterThreshold && x.prefilterKnee == y.prefilterKnee &&
           x.prefilterClamp == y.prefilterClamp && std::equal(x.tint, x.tint + 3, y.tint) &&
           x.tintEnabled == y.tintEnabled;
}

bool samePlanInfo(const BloomSettings& a, const BloomSettings& b)
{
    const FftbBloomPlanCreateInfo x = planInfoOf(a, 1, 1), y = planInfoOf(b, 1, 1);
    return x.padding == y.padding && x.axisOrder == y.axisOrder && x.storagePrecision == y.storagePrecision &&
           x.resolution == y.resolution && x.kernelSpanUnit == y.kernelSpanUnit && x.kernelSpan == y.kernelSpan;
}

bool sameKernelInfo(const BloomSettings& a, const BloomSettings& b)
{
    const Texels none;
    const FftbKernelInfo x = kernelInfoOf(a, none), y = kernelInfoOf(b, none);
    return x.spectrumMode == y.spectrumMode && x.interpolation == y.interpolation &&
           x.interpolationWidth == y.interpolationWidth && x.spectrumOversampling == y.spectrumOversampling &&
           x.rotationDegrees == y.rotationDegrees && x.centreOffsetU == y.centreOffsetU &&
           x.centreOffsetV == y.centreOffsetV;
}

void assignKernelInfo(BloomSettings& to, const BloomSettings& from)
{
    to.spectrum = from.spectrum;
    to.interpolation = from.interpolation;
    to.interpolationWidth = from.interpolationWidth;
    to.spectrumOversampling = from.spectrumOversampling;
    to.kernelRotationDegrees = from.kernelRotationDegrees;
    to.kernelCentreOffset = from.kernelCentreOffset;
}

} // namespace fftb
