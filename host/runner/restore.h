// SPDX-License-Identifier: MIT
// Gives the CLI's composites back the colour values that input scrubbing kept from the bloom.
#pragma once

#include "image/image.h"
#include "runner/gpu_runner.h"

namespace fftb
{

/// The bloom's prefilter of one texel's R, G, B in single precision, as the plugin's passes compute it
/// (FftbBloomInfo::prefilterThreshold; shaders/common.glsl; reference/reference.h has the double-precision
/// reference).
void prefilterRgb(float rgb[3], const PrefilterSettings& prefilter);

/// Only the bloom sees the scrubbed frame (scrubRgb). Given `composite`, the plugin's composite or additive output
/// (RGBA) made with `settings` from the scrubbed `original` x_s, makes it what the plugin writes for the unscrubbed x,
/// with the bloom of the scrubbed frame: adds (x - x_s) - intensity (p(x) - p(x_s)) (FFTB_OUTPUT_MODE_COMPOSITE;
/// (1 - intensity) (x - x_s) without a prefilter) or x - x_s (FFTB_OUTPUT_MODE_ADDITIVE) to every texel where some R,
/// G or B value of `original` is finite and was changed (negative or above maxValue); NaN and infinite values stay
/// replaced (x = x_s there). With a source mask (settings.mask) the prefiltered terms are weighted by the mask m the
/// plugin read, `composite`'s alpha (the alpha it passes through: setMaskAlpha's). Does nothing for
/// FFTB_OUTPUT_MODE_BLOOM.
void restoreUnbloomed(Texels& composite, const Texels& original, float maxValue, const FrameSettings& settings);

/// For FFTB_OUTPUT_MODE_BLOOM, every R, G, B value of `output` (RGBA) below 0 set to 0; nothing otherwise. The tools'
/// bloom is of a frame scrubbed of negative values (scrubRgb) by a kernel of texels >= 0, so it is >= 0: what falls
/// below is the FFT's round-off, which QC tools would flag as negative pixels.
void clampBloomRoundOff(Texels& output, const FrameSettings& settings);

} // namespace fftb
