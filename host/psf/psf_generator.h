// SPDX-License-Identifier: MIT
// Physically based point spread functions: Fraunhofer diffraction by a lens or eye aperture, over the visible spectrum.
#pragma once

#include "image/image.h"

#include <cstdint>

namespace fftb
{

/// The aperture whose diffraction pattern is the PSF: a lens's iris, optionally with a central obstruction, spider
/// vanes, dust and scratches, or an eye's pupil with the lens fibres and particles that cause the ciliary corona and
/// the lenticular halo. Lengths are fractions of the aperture's diameter D (the diameter of the circle through the
/// blade tips). Angles are in degrees, counter-clockwise as seen on screen, 0 along +x. docs/kernels.md shows how
/// each part shapes the PSF.
struct ApertureParams
{
    /// Number of iris blades: 0 for a circular aperture, else 3..16 (a regular polygon, one tip at 90 degrees before
    /// rotation). Each straight edge diffracts light into a spike pair perpendicular to it: N spikes for an even N,
    /// 2N for an odd N. Default 6.
    int blades = 6;
    /// Rotation of the blade polygon in degrees, -360..360. Default 0.
    double bladeRotationDeg = 0.0;
    /// Blade curvature 0..1: 0 straight edges (a polygon, the sharpest spikes), 1 edges on the circumscribed circle (a
    /// circle); in between each edge is a circular arc of radius (D / 2) / curvature through two adjacent tips, which
    /// shortens and softens the spikes. Default 0.
    double bladeCurvature = 0.0;
    /// Central obstruction (a secondary mirror) diameter over D, 0..0.9; 0 means none. It moves energy from the
    /// central core into the rings. Default 0.
    double obstruction = 0.0;
    /// Spider vanes holding the obstruction, 0..8: straight opaque bars from the centre to the rim, evenly spaced.
    /// Each makes a spike pair perpendicular to it. Default 0.
    int vanes = 0;
    /// Width of each vane over D, 0.001..0.1. Default 0.01.
    double vaneWidth = 0.01;
    /// Direction of the first vane in degrees, -360..360. Default 0.
    double vaneAngleDeg = 0.0;
    /// Opaque dust particles on the aperture, 0..5000, diameters 0.4%..1.6% of D, placed from `seed`. They scatter a
    /// faint, wide veil. Default 0.
    int dust = 0;
    /// Opaque scratches, 0..200, straight, 10%..40% of D long, 0.1%..0.3% of D wide, placed from `seed`. Each makes a
    /// faint streak perpendicular to it. Default 0.
    int scratches = 0;
    /// Strength 0..1 of the eye's scattering structures after the aperture model of Ritschel et al. 2009 ("Temporal
    /// Glare: Real-Time Dynamic Simulation of the Scattering in the Human Eye", Eurographics): a radial grating of lens
    /// fibres along the pupil's rim (the lenticular halo, Simpson 1953, "Ocular haloes and coronas") and small
    /// particles across the pupil (the needles of the ciliary corona, van den Berg et al. 2005), as described by
    /// Spencer et al. 1995 ("Physically-Based Glare Effects for Digital Images", SIGGRAPH). 0 (default) adds neither;
    /// the strength sets the fibres' opacity and the particle count (1500 at 1). Use with `blades = 0` for an eye.
    double corona = 0.0;
    /// Radius of the lenticular halo at 550 nm as a fraction of the kernel's half size, 0.1..0.8; the fibre count is
    /// chosen to put it there (a grating of period p diffracts to the angle lambda / p). Only used when corona > 0.
    /// Default 0.4.
    double haloRadius = 0.4;
    /// Seed of the dust, scratches and corona particles: the same seed gives the same texels. Default 1.
    std::uint32_t seed = 1;
};

/// What to generate: the aperture, the kernel's size and scale, and the spectral sampling.
struct PsfParams
{
    ApertureParams aperture;
    /// Kernel width and height K in texels, a power of two in 64..2048. Default 512.
    int sizeTexels = 512;
    /// The PSF's scale: the radius in texels of the first dark ring of a circular aperture of diameter D at 550 nm
    /// (the Airy radius 1.22 lambda / D), 1..16 and at most K/8. Every feature scales with it; the kernel spans
    /// K / (2 r) Airy radii from centre to border, so at the default of 2 texels the spikes run out to the kernel's
    /// border. The generation time grows as K^2, and as 1 / r^2 for r below 1.6.
    double airyRadiusTexels = 2.0;
    /// Number of wavelengths across 380..780 nm, 16..256, at the midpoints of equal intervals. Default 32.
    int wavelengths = 32;
    /// 0 (default): the spectral PSF. Else one wavelength in 380..780 nm, the same in R, G and B.
    double monochromaticNm = 0.0;
};

/// How a PSF is sampled (docs/kernels.md): the FFT's size, the aperture's diameter on its grid, and how many
/// frequency bins one output texel spans at 550 nm.
struct PsfSampling
{
    int fftSize = 0;                      ///< N: the aperture grid and the FFT are N x N
    double apertureDiameterSamples = 0.0; ///< D on the N x N grid; N / D >= 2 is the zero-padding factor
    double binsPerTexel = 0.0;            ///< frequency bins per output texel at 550 nm (at lambda: times 550 / lambda)
};

/// Throws HostError "psf: <field> = <value> is outside <range> (fftbloom-psf --<flag>)" for the first parameter out of
/// its range, or not finite.
void validatePsfParams(const PsfParams& params);

/// The sampling generatePsf uses for `params` (validated first; throws as validatePsfParams).
PsfSampling psfSampling(const PsfParams& params);

/// The aperture's transmission (0 opaque .. 1 clear) as one-component texels, on the square of the FFT grid that
/// holds it (about apertureDiameterSamples wide), for looking at. Validates as validatePsfParams.
Texels generateAperture(const PsfParams& params);

/// The PSF: K x K RGB texels in linear Rec.709 (sRGB) primaries, each channel summing to 1, the peak at texel
/// (K / 2, K / 2) (x right, y down), by Fraunhofer diffraction: the squared magnitude of the aperture's Fourier
/// transform (FFTW, double precision), scaled per wavelength by lambda / 550 nm and weighted by the CIE 1931 colour
/// matching functions (the analytic fit of Wyman, Sloan and Shirley 2013, JCGT 2(2)), converted from XYZ to RGB
/// with the matrix of IEC 61966-2-1 and clamped at 0. The same parameters give the same texels. Throws as
/// validatePsfParams, and std::bad_alloc. Uses up to two threads; plans FFTW transforms, which must not happen on
/// two threads at once.
Texels generatePsf(const PsfParams& params);

/// The generated kernel of the fftbloom CLI, the viewer and the benchmark: generatePsf of `aperture` (by default a
/// six-blade iris) at `airyRadiusTexels` (at most K / 8 of the size generated) with 32 wavelengths, size x size texels,
/// size >= 2. Generated at the smallest power of two >= size within 64..2048, resampled (resamplePsf) when that
/// differs from size, and normalized: at the default Airy radius its spikes run out to the border, which the default
/// resampled spectrum (ES interpolation, oversampled twice) keeps free of ghost copies (docs/kernels.md, "Spectrum
/// resampling"). Throws HostError for size < 2; otherwise as generatePsf.
Texels defaultPsf(int size, const ApertureParams& aperture = {}, double airyRadiusTexels = 2.0);

/// `psf` as an Image with float channels R, G, B and every parameter of `params` as a string header attribute
/// "fftbloom.psf.<flag>" (the tool's option name, e.g. "fftbloom.psf.blades" = "6"), plus "fftbloom.psf.model"
/// naming the model; uncompressed (ZIP would save a few percent at many times the writing time). Ready for writeExr.
/// Throws HostError unless `psf` has 3 components.
Image psfImage(const Texels& psf, const PsfParams& params);

} // namespace fftb
