// SPDX-License-Identifier: MIT
// Texel helpers shared by the host tests and the GPU tests: random and one-hot frames and kernels, channel sums. No
// Vulkan, so the host tests use them without the loader.
#pragma once

#include "image/image.h"

#include <cstdint>
#include <vector>

namespace fftb::test
{

/// width x height texels of `components` components, values uniform in [lo, hi); fixed seed.
Texels randomTexels(int width, int height, int components, uint32_t seed, float lo = 0.0f, float hi = 1.0f);

/// width x height RGB kernel, positive random values, fixed seed.
Texels randomKernel(int width, int height, uint32_t seed);

/// A kernel that is 1 at (x, y) and 0 elsewhere.
Texels oneHotKernel(int width, int height, int x, int y);

/// Sum of one channel over the frame, in double precision.
double channelSum(const Texels& t, int channel);

/// Whether `a` and `b`, of the same extent with 4 components, hold the same alpha at every texel, bit for bit.
bool sameAlpha(const Texels& a, const Texels& b);

/// The values of one channel in double precision, one per texel, row-major.
std::vector<double> channelPlane(const Texels& t, int channel);

} // namespace fftb::test
