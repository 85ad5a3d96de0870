// Point spread functions: the generated default, loading from image files, resampling, normalization.
#pragma once

#include "image.h"

#include <string>

namespace fftb
{

/// The default PSF, size x size texels (size >= 2), RGB, centre texel (size / 2, size / 2), not normalized.
/// What it is is documented in docs/kernels.md: a sharp core, a smooth power-law halo and six diffraction
/// streaks, each slightly wider in red than in blue (diffraction scales with wavelength).
Texels generateDefaultPsf(int size);

/// Loads a PSF from an EXR or .hdr file (readImage) as RGB texels. Throws HostError naming the file.
Texels loadPsf(const std::string& path);

/// Resamples an RGB PSF to size x size texels with a box (area-averaging) filter when shrinking and
/// bilinear interpolation when enlarging, keeping the centre texel (w / 2, h / 2) at (size / 2, size / 2).
Texels resamplePsf(const Texels& psf, int size);

/// Scales each channel to unit sum. Throws HostError "kernel: channel <c> sums to <s>" when a channel's sum
/// is not finite and positive, or when any texel is negative, NaN or infinite.
void normalizePsf(Texels& psf);

} // namespace fftb
