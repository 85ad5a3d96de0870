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

/// Scales each channel to unit sum. Throws HostError "kernel: channel <c> sums to <s>" when a channel's sum
/// is not finite and positive, or when any texel is negative, NaN or infinite.
void normalizePsf(Texels& psf);

} // namespace fftb
