// SPDX-License-Identifier: MIT
// Makes a frame's colour safe to transform: one NaN through an FFT turns every output texel NaN.
#pragma once

#include "image/image.h"

#include <cstdint>

namespace fftb
{

/// Default for scrubRgb's maxValue: the largest finite half-float, 65504.
constexpr float kDefaultScrubMax = 65504.0f;

/// How many values scrubRgb replaced, by kind.
struct ScrubCounts
{
    uint64_t nan = 0;      ///< NaN, made 0
    uint64_t negative = 0; ///< below 0 (-Inf included), made 0
    uint64_t clamped = 0;  ///< above maxValue (+Inf included), made maxValue
    uint64_t total() const { return nan + negative + clamped; }
};

/// Scrubs the R, G, B components of an RGBA frame in place: NaN -> 0, x < 0 (-Inf included) -> 0,
/// x > maxValue (+Inf included) -> maxValue; alpha is left as it is. `maxValue` must be finite and > 0.
ScrubCounts scrubRgb(Texels& rgba, float maxValue);

} // namespace fftb
