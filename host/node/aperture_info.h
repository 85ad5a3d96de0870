// SPDX-License-Identifier: MIT
// The generated PSF's parameters as the plugin's FftbApertureInfo, for fftbCmdGenerateKernel.
#pragma once

#include "fftbloom/fftbloom_generator.h"
#include "psf/psf_generator.h"

namespace fftb
{

/// The generated PSF `design` (its aperture, Airy radius in kernel texels, fade and glare) as an FftbApertureInfo
/// (every field; wavelengths 0: the 32 the CPU generator uses by default), so that fftbCmdGenerateKernel makes the PSF
/// generatePsf makes of the same parameters.
inline FftbApertureInfo apertureInfoOf(const PsfParams& design)
{
    const ApertureParams& a = design.aperture;
    FftbApertureInfo info{FFTB_STRUCTURE_TYPE_APERTURE_INFO};
    info.blades = uint32_t(a.blades);
    info.bladeRotationDeg = float(a.bladeRotationDeg);
    info.bladeCurvature = float(a.bladeCurvature);
    info.obstruction = float(a.obstruction);
    info.vanes = uint32_t(a.vanes);
    info.vaneWidth = float(a.vaneWidth);
    info.vaneAngleDeg = float(a.vaneAngleDeg);
    info.dust = uint32_t(a.dust);
    info.scratches = uint32_t(a.scratches);
    info.corona = float(a.corona);
    info.haloRadius = float(a.haloRadius);
    info.seed = a.seed;
    info.airyRadiusTexels = float(design.airyRadiusTexels);
    info.fade = float(design.fade);
    info.glare = float(design.glare);
    return info;
}

} // namespace fftb
