// SPDX-License-Identifier: MIT
// Shared pieces of the GPU tests: the runner with validation on, random frames, error measures, tolerances.
#pragma once

#include "image/image.h"
#include "plan.h"
#include "reference.h"
#include "runner/gpu_runner.h"
#include "texel_test_support.h"

#include <cstdint>
#include <string>

namespace fftb::test
{

/// Tolerances, relative to the reference's largest magnitude per channel.
struct Tolerance
{
    static constexpr double kFp32 = 1e-5; ///< fp32 spectra against a double-precision reference
};

/// The reference's and the planner's form of the runner's prefilter, and back.
Prefilter toPlan(const PrefilterSettings& prefilter);
PrefilterSettings toPublic(const Prefilter& prefilter);

/// The process-wide runner on the default device (lavapipe in CI), Khronos validation on.
GpuRunner& runner();

/// width x height RGBA with values in [0, 1), a few texels raised to `peak` (HDR highlights); fixed seed.
Texels randomFrame(int width, int height, uint32_t seed, float peak = 50.0f);

/// The reference of the GPU's math for a bloom-only frame: the linear convolution in exact mode (independent of the
/// GPU's plan) with the kernel scaled in space to its extent on the frame (referenceScaledKernel) when it has a kernel
/// span, the spectrally resampled convolution at the plan's padded extent in resampled mode; sharpened by s.sharpen in
/// both. With FFTB_PADDING_ZERO_NORMALIZED, the zero-padded one normalized by the same reference of the frame's
/// indicator. At a reduced resolution (f = 2, 4, 8), the same of referenceDownsample(frame, f) with the kernel at the
/// reduced plan's scale, then referenceUpsample to the frame's extent.
Texels referenceFor(const Texels& frame, const Texels& kernel, const BloomSettings& s);

/// referenceConvolution with a public padding: FFTB_PADDING_ZERO_NORMALIZED is zero padding normalized by the
/// frame's indicator (referenceNormalized); delta sharpening t blends each with the frame (the indicator), (1 - t)
/// bloom
/// + t frame, as the spectrum (1 - t) K + t does.
Texels referenceConvolutionFor(const Texels& frame, const Texels& kernel, FftbPadding padding, double sharpen = 0.0);

/// The width x height window of `image` (RGBA, at least that large) centred on its brightest texel (largest G),
/// moved inside the image where it would cross an edge.
Texels cropAroundBrightest(const Texels& image, int width, int height);

/// width x height RGB texels of 1: the frame's indicator.
Texels onesFrame(int width, int height);

/// max over texels and R, G, B of |a - b| / max |reference| of that channel (a: GPU result, b: reference).
double relativeError(const Texels& gpu, const Texels& reference);

/// "37x19 zero x-first exact", "64x48 mirror auto resampled cubic kernel extent 0.1diag" and the like, for failure
/// messages.
std::string describe(int width, int height, const BloomSettings& s);

} // namespace fftb::test
