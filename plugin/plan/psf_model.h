// SPDX-License-Identifier: MIT
// Vulkan-free model of a physically based PSF, shared by the CPU generator (host/psf) and the plugin's GPU generator
// (fftbCmdGenerateKernel): the aperture's parameters and ranges, the sampling of its grid and FFT, its occluders
// placed from a seed, and the visible spectrum's wavelengths with their linear Rec.709 weights.
#pragma once

#include <array>
#include <cstdint>
#include <numbers>
#include <string>
#include <vector>

namespace fftb
{

constexpr double kPsfReferenceNm = 550.0; ///< the wavelength at which airyRadiusTexels and haloRadius hold
constexpr double kPsfShortestNm = 380.0;
constexpr double kPsfLongestNm = 780.0;
/// First zero of J1 over pi: the Airy pattern's first dark ring lies at 1.2197 lambda / D.
constexpr double kAiryNull = 3.8317059702075125 / std::numbers::pi;
/// PsfParams::fade's default: the outer quarter of the kernel's radius fades out.
constexpr double kDefaultPsfFade = 0.25;
/// The fade (psfFade) of the glare over the kernel's radius: 1 out to half of it, then falling to 0 at its border, so
/// that the glow has no edge there and a far field (host/psf/far_field.h), which takes the rest, starts past half the
/// radius, where the glare varies slowly enough for its reduced resolution. shaders/psf.glsl has the same constant.
constexpr double kGlareTaperFade = 0.5;
/// PsfParams::glare's default: half the light in the eye's wide-angle scatter (docs/kernels.md, "Glare").
constexpr double kDefaultPsfGlare = 0.5;
/// The pupil whose Airy radius sets the glare's angular scale (glareDegreesPerTexel): 3 mm, a photopic eye's.
constexpr double kGlarePupilMm = 3.0;

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

    bool operator==(const ApertureParams&) const = default;
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
    /// The radial fade (psfFade) over the outer part of the kernel's radius, as a fraction of it, 0..1: the PSF falls
    /// smoothly to 0 before the kernel's border instead of stopping at its square. 0: none. Default 0.25.
    double fade = kDefaultPsfFade;
    /// The share of the light in the eye's wide-angle scatter (glareScatter), 0..1: the PSF is
    /// fade (1 - glare) D / sum(fade D) + glare G / sum(G) per channel, D the diffraction pattern, G the scatter
    /// (white) tapered over the outer half of the kernel's radius (psfFade of kGlareTaperFade), so that the glow has no
    /// edge. 0: diffraction
    /// alone. Default 0.5.
    double glare = kDefaultPsfGlare;
};

/// How a PSF is sampled (docs/kernels.md): the FFT's size, the aperture's diameter on its grid, and how many
/// frequency bins one output texel spans at 550 nm.
struct PsfSampling
{
    int fftSize = 0;                      ///< N: the aperture grid and the FFT are N x N
    double apertureDiameterSamples = 0.0; ///< D on the N x N grid; N / D >= 2 is the zero-padding factor
    double binsPerTexel = 0.0;            ///< frequency bins per output texel at 550 nm (at lambda: times 550 / lambda)
};

/// A texel's radial coordinate in a kernel, for psfFade: rho = |(dx / reachX, dy / reachY)| for a texel (dx, dy)
/// texels from the kernel's centre texel (W / 2, H / 2), reachX = floor((W - 1) / 2) and reachY = floor((H - 1) / 2)
/// the distances from that texel to the nearest border texels. rho is 1 on the nearest border texels and reaches
/// sqrt(2) in the corners; a reach of 0 (a side of 1 or 2 texels) gives rho 0 on that axis's centre and 2 off it.
double psfRadius(double dx, double dy, int reachX, int reachY);

/// The radial fade's weight at radial coordinate `rho` (psfRadius): 1 for rho <= 1 - fade,
/// 0.5 + 0.5 cos(pi (rho - 1 + fade) / fade) up to rho = 1 and 0 beyond (a raised-cosine, Tukey, window: continuous
/// with its slope, so a spike ends without a step, and 0 on the kernel's border texels). fade in 0..1; 0 gives 1
/// everywhere, the kernel as it is.
double psfFade(double rho, double fade);

/// The eye's wide-angle scatter at `degrees` from a point light, in Spencer et al.'s units: their photopic PSF
/// ("Physically-Based Glare Effects for Digital Images", SIGGRAPH 1995, section 4) without its central term f0,
/// which the diffraction pattern stands for: 0.478 f1 + 0.138 f2, f1 = 20.91 / (theta + 0.02)^3 (the scatter of
/// the cornea and the lens) and f2 = 72.37 / (theta + 0.02)^2 (of the retina), theta in degrees.
double glareScatter(double degrees);

/// Degrees per kernel texel for the glare: a generated PSF whose Airy radius is `airyRadiusTexels` texels seen by an
/// eye with a kGlarePupilMm pupil, whose Airy radius is 1.2197 * 550 nm / 3 mm = 0.0128 degrees.
double glareDegreesPerTexel(double airyRadiusTexels);

/// The first parameter of a PsfParams outside its range, or not finite: its field ("aperture.blades"), the
/// fftbloom-psf option that sets it ("blades"), its value and its range as text ("0 (circle) or 3..16").
struct PsfParamError
{
    std::string field;
    std::string flag;
    double value = 0.0;
    std::string range;
};

/// A parameter's value as text, in the shortest form that reads back the same (std::to_chars): "2", "0.3".
std::string psfValueText(double value);

/// False and the first parameter out of its range in `error`; true when every parameter is in range.
bool checkPsfParams(const PsfParams& params, PsfParamError* error);

/// The sampling of `params` (in range, checkPsfParams): N is the smallest even 2^a 3^b 5^c 7^d, an FFT length of FFTW
/// and of the plugin (plan.h, isFftLength) up to 16384, that holds the pattern the kernel's border reaches at 380 nm.
PsfSampling psfSamplingOf(const PsfParams& params);

/// The largest FFT size N psfSamplingOf gives a kernel of `sizeTexels` at any Airy radius in range: at most
/// max(2 * reach at 2.44 bins per texel, 1260) made FFT-friendly (the bins per texel are at most 2 * 1.2197, at an Airy
/// radius of 1; the zero padding times the aperture's minimum diameter is at most 1.5 / 1.2197 * 1024).
int psfFftSizeBound(int sizeTexels);

/// The most occluders occludersOf gives a kernel of `sizeTexels`: 5000 dust, 200 scratches, 1500 particles and the
/// lens fibres, at most 2.84 K + 1 (at a halo radius of 0.8 and an Airy radius of 1).
int psfOccluderBound(int sizeTexels);

/// A particle (a disc) or a scratch or fibre (a segment with round ends) over the aperture, in units of the aperture's
/// radius (its circumscribed circle is the unit circle), y up. It multiplies the transmission by 1 - opacity c, c
/// the sample's coverage: clamp(0.5 + (width - distance) R, 0, 1), R the radius in samples.
struct Occluder
{
    bool segment = false; ///< false: a disc centred at (ax, ay)
    double ax = 0.0, ay = 0.0, bx = 0.0, by = 0.0;
    double width = 0.0; ///< a disc's radius, a segment's half width
    double opacity = 1.0;
};

/// The occluders of `params` sampled as `sampling`, in the order they are applied: dust, scratches, then the eye's
/// lens fibres and particles (ApertureParams::corona). Each kind draws from its own SplitMix64 stream (Steele, Lea
/// and Flood 2014) of the seed, so adding scratches does not move the dust, and the list is the same on every
/// platform.
std::vector<Occluder> occludersOf(const PsfParams& params, const PsfSampling& sampling);

/// One wavelength of the spectral sum and its weights in linear Rec.709 R, G, B (may be negative: the clamp at 0
/// comes after the sum).
struct Wavelength
{
    double nm;
    std::array<double, 3> rgbWeight;
};

/// The wavelengths of `params`: the midpoints of PsfParams::wavelengths equal intervals of 380..780 nm, each weighted
/// by the CIE 1931 2-degree colour matching functions (the multi-lobe fit of Wyman, Sloan and Shirley 2013, "Simple
/// Analytic Approximations to the CIE XYZ Color Matching Functions", JCGT 2(2), equation 2) times the interval,
/// converted from XYZ with the matrix of IEC 61966-2-1:1999; or the one monochromatic wavelength, weight 1 in R, G, B.
std::vector<Wavelength> wavelengthsOf(const PsfParams& params);

} // namespace fftb
