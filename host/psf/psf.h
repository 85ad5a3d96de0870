// SPDX-License-Identifier: MIT
// Point spread functions from image files: loading, resampling, normalization (generated ones: psf_generator.h).
#pragma once

#include "image/image.h"

#include <string>

namespace fftb
{

/// Loads a PSF from an EXR or .hdr file (readImage) as RGB texels. Throws HostError naming the file.
Texels loadPsf(const std::string& path);

/// The R, G, B channels of a decoded image (readImage, decodeImage) as a PSF's RGB texels.
Texels psfFromImage(const Image& image);

/// Resamples an RGB PSF to size x size texels with a box (area-averaging) filter when shrinking and
/// bilinear interpolation when enlarging, keeping the centre texel (w / 2, h / 2) at (size / 2, size / 2).
Texels resamplePsf(const Texels& psf, int size);

/// Multiplies `psf` by the radial fade psfFade of `fade` (0..1) about its centre texel (W / 2, H / 2)
/// (plugin/plan/psf_model.h): the outer `fade` of its radius falls smoothly to 0.
void fadePsf(Texels& psf, double fade);

/// The share of `psf`'s light (all channels) in its outer ring, the texels at psfRadius above 0.95, corners included:
/// light there stops at the kernel's square. 0 for a PSF without light.
double outerRingEnergy(const Texels& psf);

/// outerRingEnergy above which a PSF file that is not faded gets a warning (loadKernelFile): 0.01 %. The generated
/// six-blade PSF without fade and glare has 0.03 % there (spikes that stop visibly at the square around a light 3 stops
/// over white), with the default fade at most 0.0024 %.
inline constexpr double kOuterRingWarning = 1e-4;

/// A PSF file as a kernel: its texels at the kernel's resolution and what the tools say about it.
struct KernelFile
{
    Texels texels;     ///< sizeTexels x sizeTexels RGB: resampled (resamplePsf), faded, normalized
    int fileWidth = 0; ///< the file's own extent in texels
    int fileHeight = 0;
    std::string warning; ///< empty, or one line: the share of the file's light in its outer ring, unfaded
};

/// Loads the PSF file at `path` (loadPsf) as a sizeTexels x sizeTexels kernel faded by `fade` (fadePsf; 0: as it is).
/// When `fade` is 0 and outerRingEnergy of the file is above kOuterRingWarning, `warning` says how much light lies in
/// its outer ring and that kernel-fade fades it out. Throws HostError naming the file, and naming the texel when one is
/// negative, NaN or infinite (checkPsfTexels, before resampling could average it away).
KernelFile loadKernelFile(const std::string& path, int sizeTexels, double fade);

/// loadKernelFile of a PSF already in memory (RGB texels, e.g. a NumPy array of the Python module): `name` only names
/// it in the warning and errors. Throws HostError "<name>: <reason>".
KernelFile kernelFromPsf(const std::string& name, Texels psf, int sizeTexels, double fade);

/// Throws HostError "kernel: texel (<x>, <y>) channel <c> is <v>, not a finite non-negative value" naming the first
/// texel that is negative, NaN or infinite.
void checkPsfTexels(const Texels& psf);

/// Scales each channel to unit sum. Throws HostError "kernel: channel <c> sums to <s>" when a channel's sum
/// is not finite and positive, or when any texel is negative, NaN or infinite.
void normalizePsf(Texels& psf);

} // namespace fftb
