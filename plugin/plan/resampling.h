// SPDX-License-Identifier: MIT
// Vulkan-free math of the resampled kernel spectrum: the interpolators, the exponential-of-semicircle window, its
// Fourier transform and the deapodization that cancels it (FftbSpectrumInterpolation).
#pragma once

#include "shared/fftb_shared.h"

#include <fftbloom/fftbloom.h>

#include <cstdint>
#include <string>
#include <vector>

namespace fftb
{

/// Fewest taps per axis of the ES window.
constexpr uint32_t kMinEsWidth = 2;
/// The ES window's taps per axis by default: the narrowest that keeps the bloom within 1e-6 of its peak in fp32
/// (docs/kernels.md, "Spectrum resampling").
constexpr uint32_t kDefaultEsWidth = 8;
/// Most oversampling of the stored spectrum, and its default: S = oversampling * pow2Ceil(K) per axis.
constexpr uint32_t kMaxSpectrumOversampling = 2;
constexpr uint32_t kDefaultSpectrumOversampling = 2;

/// How the resampled spectrum is stored and read: an interpolation, its taps per axis and the oversampling.
struct SpectrumResampling
{
    FftbSpectrumInterpolation interpolation = FFTB_SPECTRUM_INTERPOLATION_ES;
    uint32_t width = kDefaultEsWidth;                     ///< taps per axis: 4 cubic, 2 linear, 2 .. 8 ES
    uint32_t oversampling = kDefaultSpectrumOversampling; ///< 1 or 2
    bool operator==(const SpectrumResampling&) const = default;
};

/// Fills `resampling` from the public settings (FftbKernelInfo::interpolation, interpolationWidth,
/// spectrumOversampling; 0 picks the default) and returns true; false and a reason naming the field when one is out
/// of range (a width other than 4 for cubic or 2 for linear, outside [kMinEsWidth, FFTB_MAX_INTERPOLATION_WIDTH] for
/// ES; an oversampling other than 1 or 2).
bool makeSpectrumResampling(FftbSpectrumInterpolation interpolation, uint32_t width, uint32_t oversampling,
                            SpectrumResampling* resampling, std::string* error);

/// The ES window's shape parameter for `width` taps and `oversampling`: beta = 0.97 pi (1 - 1 / (2 oversampling)) W
/// (Barnett et al. 2019, section 4.1: beta = 2.30 W at oversampling 2). Rounded to float: the GPU reads it as one, and
/// the deapodization is computed for that very window.
float esBeta(uint32_t width, uint32_t oversampling);

/// Weight of a tap `t` stored bins from the reading position: the ES window exp(beta (sqrt(1 - z^2) - 1)), z = 2 t /
/// W, zero for |z| >= 1; Keys' cubic (a = -1/2); or the tent 1 - |t|.
double tapWeight(const SpectrumResampling& resampling, double t);

/// The ES window's Fourier transform at `nu` cycles per stored bin: int psi(2 t / W) cos(2 pi t nu) dt over
/// |t| < W / 2, by 96-point Gauss-Legendre quadrature in theta, t = (W / 2) sin(theta), where the integrand is an
/// entire function (converged to double precision for W <= 8 and |nu| <= 1).
double esTransform(uint32_t width, float beta, double nu);

/// Deapodization of the kernel along one axis of `kernelLength` texels for a spectrum of `spectrumLength` bins:
/// texel x is divided by esTransform at (x - kernelLength / 2) / spectrumLength, so interpolating the spectrum with
/// the ES window evaluates the kernel's own spectrum (Jackson et al. 1991, "Selection of a convolution function for
/// Fourier inversion using gridding", IEEE TMI 10(3)). Returns those divisors' reciprocals, one per texel; all ones
/// for cubic and linear.
std::vector<double> deapodization(const SpectrumResampling& resampling, uint32_t kernelLength, uint32_t spectrumLength);

} // namespace fftb
