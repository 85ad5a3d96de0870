// SPDX-License-Identifier: MIT
// Physically based point spread functions on the CPU: Fraunhofer diffraction by a lens or eye aperture (psf_model.h),
// over the visible spectrum.
#pragma once

#include "image/image.h"
#include "psf_model.h"

#include <cstdint>

namespace fftb
{

/// Throws HostError "psf: <field> = <value> is outside <range> (fftbloom-psf --<flag>)" for the first parameter out of
/// its range, or not finite.
void validatePsfParams(const PsfParams& params);

/// The sampling generatePsf uses for `params` (validated first; throws as validatePsfParams).
PsfSampling psfSampling(const PsfParams& params);

/// The aperture's transmission (0 opaque .. 1 clear) as one-component texels, on the square of the FFT grid that
/// holds it (about apertureDiameterSamples wide), for looking at. Validates as validatePsfParams.
Texels generateAperture(const PsfParams& params);

/// The PSF: K x K RGB texels in linear Rec.709 (sRGB) primaries, each channel summing to 1, the peak at texel
/// (K / 2, K / 2) (x right, y down). Its diffraction pattern D is the squared magnitude of the aperture's Fourier
/// transform (Fraunhofer diffraction; FFTW, double precision), scaled per wavelength by lambda / 550 nm and weighted by
/// the CIE 1931 colour matching functions (the analytic fit of Wyman, Sloan and Shirley 2013, JCGT 2(2)), converted
/// from XYZ to RGB with the matrix of IEC 61966-2-1 and clamped at 0; the PSF is
/// fade (1 - glare) D / sum(fade D) + glare G / sum(G) per channel (PsfParams::fade, glare; psfFade,
/// glareScatter). The same parameters give the same texels. Throws as validatePsfParams, and std::bad_alloc. Uses up
/// to two threads; plans FFTW transforms, which must not happen on two threads at once.
Texels generatePsf(const PsfParams& params);

/// The size G defaultPsf generates a kernel of `size` texels with an Airy radius of `airyRadiusTexels` (texels of that
/// kernel) at: a power of two in 64..2048, the smallest >= size at which the radius there, airyRadiusTexels G / size,
/// is at least 1 texel, and then the largest at which it is at most generatePsf's 16 texels and G / 8.
int psfGenerationSize(int size, double airyRadiusTexels);

/// The generated kernel of the fftbloom CLI, the viewer and the benchmark: generatePsf of `design` (by default a
/// six-blade iris with the default fade and glare, its Airy radius 2 texels: the tools' at kernel-size 256;
/// KernelSettings::psfDesign gives theirs at any size), size x size texels, size >= 2, its Airy radius
/// design.airyRadiusTexels texels of it (> 0; design.sizeTexels is not used). Generated at psfGenerationSize (the
/// radius there kept within generatePsf's range), resampled (resamplePsf) when that differs from size, and
/// normalized: a radius below a texel, or a kernel below 64 texels, is the finer pattern averaged. Throws HostError for
/// size < 2; otherwise as generatePsf.
Texels defaultPsf(int size, const PsfParams& design = {});

/// The diameter in mm of a pupil adapted to `luminance` cd/m^2 (> 0): Moon and Spencer 1944 ("On the Stiles-Crawford
/// effect", JOSA 34), D = 4.9 - 3 tanh(0.4 (log10 L + 1)), as restated by Watson and Yellott 2012 ("A unified
/// formula for light-adapted pupil size", Journal of Vision 12(10)): 7.9 mm in the dark, 4.9 mm at 0.1 cd/m^2,
/// 2.4 mm at 100, towards 1.9 mm.
double pupilDiameterMm(double luminance);

/// The Airy radius of an eye's PSF adapted to `luminance` cd/m^2 when it is `airyRadiusTexels` at 100 cd/m^2: the
/// diffraction pattern scales as 1 / D (Airy radius 1.22 lambda / D), so a dark-adapted, wider pupil makes it smaller.
double pupilAiryRadius(double airyRadiusTexels, double luminance);

/// `psf` as an Image with float channels R, G, B and every parameter of `params` as a string header attribute
/// "fftbloom.psf.<flag>" (the tool's option name, e.g. "fftbloom.psf.blades" = "6"), plus "fftbloom.psf.model"
/// naming the model; uncompressed (ZIP would save a few percent at many times the writing time). Ready for writeExr.
/// Throws HostError unless `psf` has 3 components.
Image psfImage(const Texels& psf, const PsfParams& params);

} // namespace fftb
