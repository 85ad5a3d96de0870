// Makes a frame's colour safe to transform: one NaN through an FFT turns every output texel NaN.
#pragma once

#include "image/image.h"
#include "plan.h"

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

/// The bloom's prefilter of one texel's R, G, B in single precision, as the plugin's passes compute it
/// (FftbBloomInfo::prefilterThreshold; host/reference.h has the double-precision reference).
void prefilterRgb(float rgb[3], const Prefilter& prefilter);

/// Only the bloom sees the scrubbed frame. Given `composite`, the plugin's Composite or Additive output (RGBA) made
/// from the scrubbed `original` x_s, makes it what the plugin writes for the unscrubbed x, with the bloom of the
/// scrubbed frame: adds (x - x_s) - intensity (p(x) - p(x_s)) (Composite; (1 - intensity) (x - x_s) without a
/// prefilter) or x - x_s (Additive) to every texel where some R, G or B value of `original` is finite and was changed
/// (negative or above maxValue); NaN and infinite values stay replaced (x = x_s there).
void restoreUnbloomed(Texels& composite, const Texels& original, float maxValue, float intensity,
                      OutputMode mode = OutputMode::Composite, const Prefilter& prefilter = {});

} // namespace fftb
