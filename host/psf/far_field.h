// SPDX-License-Identifier: MIT
// The far field of a generated PSF's glare: the eye's wide-angle scatter continued past the kernel's border by a
// second, wide, white kernel that the GPU convolves at reduced resolution. Vulkan-free.
#pragma once

#include "image/image.h"
#include "psf_model.h"

#include <vector>

namespace fftb
{

/// The far field's taper (psfFade's fade): it falls to 0 over the outer quarter of its reach R, without a step.
constexpr double kFarFieldFade = 0.25;
/// The largest far-field kernel, in texels a side.
constexpr int kFarFieldMaxTexels = 4096;

/// The far field of a generated PSF's glare (docs/kernels.md, "Glare"): the glare G of glareScatter (Spencer et al.
/// 1995, "Physically-Based Glare Effects for Digital Images", SIGGRAPH, section 4: the scatter of the cornea, the lens
/// and the retina, a power law of the angle) beyond the core. The core is the generated PSF, K x K texels of sigma
/// frame pixels, whose glare g G t / C stops at its border (t = psfFade(psfRadius(dx, dy, reach, reach),
/// kGlareTaperFade), reach = (K - 1) / 2, C = sum of G t over its K x K texels; generatePsf). The frame is
/// box-downsampled f x f, convolved with this kernel, bilinearly upsampled and added, so that the two-scale PSF is P2 =
/// (1 - w) core + w far.
///
/// Far texel (i, j) sits at d = ((i - Kf / 2) f, (j - Kf / 2) f) frame pixels from the light, r = |d|; its value is
///   G(r / sigma * glareDegreesPerTexel(airyRadiusTexels)) (1 - t) T / F,
/// t the core's own taper at d / sigma core texels (1 - t = 1 past the core's radius, 0 at its centre texel),
/// T = psfFade(r / R, kFarFieldFade), F the sum of the values before the division (so the texels sum to 1).
/// Per frame pixel the core's glare is (1 - w) g G t / (C sigma^2) and the far field's w G (1 - t) T / (F f^2); the
/// weight makes their coefficients equal, w / (1 - w) = g F f^2 / (C sigma^2), so that P2's glare is the one-scale
/// (1 - w) g G (t + (1 - t) T) / (C sigma^2): the same power law across the core's border, out to R (G T itself where
/// the core's radius is within (1 - kFarFieldFade) R, T being 1 over the core).
struct FarField
{
    int size = 0;              ///< Kf: the kernel is Kf x Kf texels, even, its centre texel (Kf / 2, Kf / 2); 0: none
    double spanPixels = 0.0;   ///< frame pixels its Kf texels span: Kf * reduction (one texel per downsampled pixel)
    int reduction = 0;         ///< f: the frame is convolved downsampled f x f (2, 4 or 8)
    double weight = 0.0;       ///< w in (0, 1): the two-scale PSF is (1 - w) core + w far
    std::vector<float> texels; ///< Kf x Kf, row-major (x fastest), one channel (the glare is white), summing to 1
    bool operator==(const FarField&) const = default;
};

/// The far field of the core `core` (its sizeTexels K >= 2, airyRadiusTexels > 0 and glare g in 0..1, as given to
/// defaultPsf) spanning `coreSpanPixels` frame pixels (sigma = coreSpanPixels / K frame pixels per core texel), out to
/// `reachPixels` (R) frame pixels from the light, convolved at `reduction` (f). Kf = 2 ceil(R / f). Returns size 0 (no
/// far field) when g == 0, when R <= the core's radius on the frame (sigma K / 2), or when no far texel lies inside R.
/// Double precision throughout; float only for the stored texels. Throws HostError naming the field for f not 2, 4 or
/// 8, a span or reach not finite and > 0, K, the Airy radius or g out of range, or Kf > kFarFieldMaxTexels.
FarField farFieldOf(const PsfParams& core, double coreSpanPixels, double reachPixels, int reduction);

/// The far field's kernel as the plugin takes it: Kf x Kf RGB texels, each channel its texels.
Texels farFieldTexels(const FarField& far);

} // namespace fftb
