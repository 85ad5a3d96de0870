/* SPDX-License-Identifier: MIT */
/* fftbloom's GPU PSF generator: a kernel made on the GPU from an aperture, recorded into the caller's command buffer
 * (docs/kernels.md, "On the GPU, every frame"). Includes fftbloom.h. */
#ifndef FFTBLOOM_GENERATOR_H
#define FFTBLOOM_GENERATOR_H

#include "fftbloom.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Chained to FftbKernelInfo::pNext: the kernel will be made on the GPU by fftbCmdGenerateKernel. fftbCreateKernel then
 *  compiles the generator's pipelines and allocates its buffers (10.1 MiB at K = 256, 93 MiB at 1024), so that
 *  fftbCmdGenerateKernel records only. The generator's FFT size follows the kernel's size and the Airy radius: every
 *  fftbCmdGenerateKernel with the kernel must give this airyRadiusTexels (FFTB_ERROR_INVALID_ARGUMENT otherwise). The
 *  kernel must be K x K texels, K a power of two in 64 .. 2048; until generated it holds its texels, or with NULL
 *  texels a unit impulse at its centre texel (the identity). */
typedef struct FftbKernelGeneratorInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_KERNEL_GENERATOR_INFO */
    const void* pNext;       /**< NULL */
    float airyRadiusTexels;  /**< as FftbApertureInfo::airyRadiusTexels: 1 .. 16 and at most K / 8; 0 means 2 */
} FftbKernelGeneratorInfo;

/** An aperture whose diffraction pattern fftbCmdGenerateKernel makes the kernel: a lens's iris with an optional
 *  central obstruction, spider vanes, dust and scratches, or an eye's pupil with its lens fibres and particles. Lengths
 *  are fractions of the aperture's diameter D (the circle through the blade tips); angles in degrees, counter-clockwise
 *  on screen, 0 along +x. The model and its sources are docs/kernels.md's "Generated PSFs": the same as fftbloom-psf
 *  and the CPU generator (host/psf/psf_generator.h, ApertureParams and PsfParams), whose ranges apply; a value outside
 *  its range, or not finite, returns FFTB_ERROR_INVALID_ARGUMENT naming the field. */
typedef struct FftbApertureInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_APERTURE_INFO */
    /** NULL or an FftbTimestampInfo (any other structure: FFTB_ERROR_INVALID_ARGUMENT), whose timestamps are [0] before
     *  the first command, [1] after the aperture and row FFT, [2] after the column FFT and diffraction pattern, [3]
     *  after the spectral integration, [4] after the normalization. */
    const void* pNext;
    uint32_t blades;         /**< iris blades: 0 a circle, else 3 .. 16; each straight edge diffracts a spike pair */
    float bladeRotationDeg;  /**< -360 .. 360 */
    float bladeCurvature;    /**< 0 straight blades .. 1 a circle */
    float obstruction;       /**< central obstruction diameter over D, 0 .. 0.9; 0: none */
    uint32_t vanes;          /**< spider vanes from the centre to the rim, 0 .. 8 */
    float vaneWidth;         /**< over D, 0.001 .. 0.1; 0 means 0.01 */
    float vaneAngleDeg;      /**< direction of the first vane, -360 .. 360 */
    uint32_t dust;           /**< opaque particles 0.4 % .. 1.6 % of D wide, 0 .. 5000, placed from `seed` */
    uint32_t scratches;      /**< opaque scratches 10 % .. 40 % of D long, 0 .. 200, placed from `seed` */
    /** The eye's scattering (Ritschel et al. 2009, "Temporal Glare"): lens fibres on the pupil's rim (the lenticular
     *  halo) and particles (the ciliary corona), 0 .. 1; 0: neither. */
    float corona;
    float haloRadius; /**< the halo's radius at 550 nm over the kernel's half size, 0.1 .. 0.8; 0 means 0.4 */
    uint32_t seed;    /**< of the dust, scratches and eye particles: the same seed, the same kernel */
    /** The PSF's scale: the radius in kernel texels of a circular aperture's first dark ring at 550 nm, 1 .. 16 and at
     *  most K / 8; 0 means 2 (the spikes then reach the kernel's border). */
    float airyRadiusTexels;
    uint32_t wavelengths; /**< across 380 .. 780 nm, 16 .. 256; 0 means 32 */
    /** The radial fade to 0 over this fraction of the kernel's radius, 0 .. 1: a raised cosine, so that the pattern
     *  ends before the kernel's border instead of at its square (docs/kernels.md, "Fade"). 0: none. */
    float fade;
    /** The share of the light in the eye's wide-angle scatter, the veiling glow of Spencer et al. 1995
     *  ("Physically-Based Glare Effects for Digital Images", SIGGRAPH), 0 .. 1; the diffraction keeps the rest
     *  (docs/kernels.md, "Glare"). 0: diffraction alone. */
    float glare;
} FftbApertureInfo;

/** Records the passes that make `kernel` the point spread function of `apertureInfo` on the GPU, with no CPU round
 *  trip: the aperture drawn on an N x N grid (N from the kernel size and Airy radius, docs/kernels.md), its 2D FFT by
 *  the plugin's FFT, the Fraunhofer pattern |F|^2 integrated over each kernel texel at every wavelength (the pattern
 *  scales with lambda), weighted by the CIE 1931 colour matching functions into linear Rec.709 R, G, B, clamped at 0
 *  and normalized per channel. It matches the CPU generator (fftbloom-psf) within the tolerance docs/kernels.md
 *  states. `kernel` must have been created with an FftbKernelGeneratorInfo of the same airyRadiusTexels (its texels
 *  are replaced; its rotation and centre offset do not apply to the generated texels). A dropped or reordered
 *  generation leaves every frame right: blooms read the last generated texels that executed (the kernel's own until
 *  the plugin reads back that one did) and recompute the spectra and border weights. Records vkCmdUpdateBuffer of the
 *  occluders (up to about 300 KiB) and of an 8-byte word (compute queues support it), a barrier before (after earlier
 *  use of the kernel) and after its last pass (its writes visible to later compute shaders). Pushes its descriptors:
 *  buffers only. Clobbers the bound compute pipeline, descriptor set 0 and push constants. Returns
 *  FFTB_ERROR_INVALID_ARGUMENT (a NULL pointer, a wrong sType, a field out of range, a kernel of another device or
 *  made without an FftbKernelGeneratorInfo of this Airy radius). Threads: reads `context`, writes `kernel` (locked)
 *  and `commandBuffer`; a call on `context` (fftbloom.h, "Threads"). */
FftbResult fftbCmdGenerateKernel(FftbContext context, VkCommandBuffer commandBuffer,
                                 const FftbApertureInfo* apertureInfo, FftbKernel kernel);

#ifdef __cplusplus
}
#endif

#endif
