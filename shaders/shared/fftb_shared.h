// SPDX-License-Identifier: MIT
// Binding numbers, specialization-constant ids and the push-constant block, shared by C++ and GLSL.
#ifndef FFTB_SHARED_H
#define FFTB_SHARED_H

// Set 0 of every pass, pushed before each dispatch (VK_KHR_push_descriptor); the kernel spectrum's and the generator's
// passes bind only some of the buffers, under the same numbers. The image bindings, arrays of FFTB_GPU_MAX_VIEWS, come
// last: exported to HLSL their registers t7..t14 and u8..u15 (a register per element from the binding's number)
// overlap no buffer's.
#define FFTB_BINDING_INTERMEDIATE 0   // storage buffer: the frame's half spectrum along the first axis
#define FFTB_BINDING_KERNEL_TEXELS 1  // storage buffer: the kernel, planar RGB floats, x fastest
#define FFTB_BINDING_TWIDDLES 2       // storage buffer: per FFT length, its twiddle table (below)
#define FFTB_BINDING_BORDER_WEIGHTS 3 // storage buffer: normalized convolution's weights, planar RGB floats (below)
// Storage buffers: the kernel's centred half spectrum (common.glsl), channel c (R, G, B) at binding
// FFTB_BINDING_KERNEL_SPECTRUM + c, each a range of one buffer: per channel, so that no range passes
// maxStorageBufferRange where the three together would. Three bindings, not an array of them: indexing one by the
// channel would need the device feature shaderStorageBufferArrayDynamicIndexing, and HLSL compilers differ on methods
// of an array element.
#define FFTB_BINDING_KERNEL_SPECTRUM 4
#define FFTB_BINDING_INPUT_IMAGE 7  // combined image samplers: the HDR frame of each view, read with texelFetch
#define FFTB_BINDING_OUTPUT_IMAGE 8 // storage images: the bloomed or composited frame of each view
#define FFTB_BINDING_COUNT 9

// Twiddles come from tables computed in double precision on the host (plugin/plan/plan.h, twiddleTables): GPU sin/cos
// are allowed 2^-11 absolute error by the Vulkan spec, far above fp32 FFT accuracy. A length N <= 4096 has the
// full table exp(-2 pi i m / N), m < N. A longer N has two short ones, so the buffer stays small: FINE entries
// exp(-2 pi i a0 / N), a0 < FINE, then exp(-2 pi i a1 FINE / N), a1 < ceil(N / FINE); exp(-2 pi i a / N) is the
// product of entries a % FINE and FINE + a / FINE.
#define FFTB_TWIDDLE_FINE_ELEMENTS 128

#define FFTB_SPEC_FFT_LENGTH 0     // FFT length N of the pass's transforms: 2^a 3^b 5^c 7^d in [2, 16384]
#define FFTB_SPEC_WORKGROUP_SIZE 1 // invocations per workgroup T (plugin/plan/plan.h, workgroupSizeOf)
#define FFTB_SPEC_TWIDDLE_OFFSET 2 // where the twiddle table of N starts in the twiddle buffer
// Length M of the FFTs run in shared memory: N up to 4096; for longer lines N / R, after one radix-R stage in
// registers (plugin/plan/plan.h, sharedLengthOf).
#define FFTB_SPEC_SHARED_LENGTH 3
#define FFTB_SPEC_SHARED_TWIDDLE_OFFSET 4 // where the twiddle table of M starts
// 1: the image passes store the intermediate as two fp16 values per complex element, scaled by 1 / N1 (common.glsl,
// FftbStoragePrecision); 0: complex fp32. The kernel passes always store fp32.
#define FFTB_SPEC_HALF_STORAGE 5
// The radices of the Stockham stages in shared memory, in the order they run (plugin/plan/plan.h, radicesOf of M),
// then 1 for the unused ids: every stage's radix, span and twiddle stride are constants of the pipeline.
#define FFTB_SPEC_RADIX_0 6
#define FFTB_SPEC_RADIX_1 7
#define FFTB_SPEC_RADIX_2 8
#define FFTB_SPEC_RADIX_3 9
#define FFTB_SPEC_RADIX_4 10
#define FFTB_SPEC_RADIX_5 11
#define FFTB_SPEC_RADIX_6 12
#define FFTB_SPEC_RADIX_7 13
// 1: the image passes bloom several views (FftbMultiViewInfo), view z in workgroup grid layer z: its frame and output
// are element z of the image bindings' arrays and its lines follow those of the views before it in the scratch
// (intermediate.glsl, viewIndex). 0: one view, element 0.
#define FFTB_SPEC_MULTI_VIEW 14
// Specialization constants of every pass: ids 0 .. FFTB_SPEC_COUNT - 1 (plugin/plan/plan.h, specializationOf).
#define FFTB_SPEC_COUNT 15
// Elements of the image bindings' arrays (FFTB_MAX_VIEWS): views past the bloom's count hold its view 0.
#define FFTB_GPU_MAX_VIEWS 8
// Most Stockham stages of a line in shared memory (3^7 = 2187 takes 7).
#define FFTB_MAX_SHARED_STAGES 8

// Each invocation holds at most this many complex elements of a line in registers.
#define FFTB_MAX_ELEMENTS_PER_INVOCATION 16
// Longest FFT held whole in shared memory: 4096 complex fp32, 32 KiB (lavapipe's limit; Vulkan requires 16 KiB).
#define FFTB_MAX_SHARED_FFT_LENGTH 4096
// Adjacent half-spectrum lines k1 stored together in the intermediate: [channel][k1 / B][v][k1 % B] (common.glsl,
// intermediateIndex). 4 complex fp32 = one 32-byte sector.
#define FFTB_INTERMEDIATE_BLOCK_LINES 4

// FftbPushConstants::flags.
#define FFTB_GPU_FLAG_FIRST_AXIS_IS_X 1u // the first axis is x
#define FFTB_GPU_FLAG_RESAMPLED 2u       // interpolate the kernel spectrum at k * S / N; otherwise S == N
// Reduced resolution (FFTB_BLOOM_RESOLUTION_HALF, QUARTER, EIGHTH): log2 of the reduction f, 1 .. 3, in bits 2-3
// (0: full resolution). Pass 1 reads the mean of the prefiltered f x f frame texels (u, v) stands for, pass 3 writes the
// bloom into the scratch (common.glsl, reducedBloomIndex) and pass 4 upsamples it and composites.
#define FFTB_GPU_FLAG_REDUCTION_SHIFT 2u
// Reduced resolution: the frame is f L - r texels along the first (second) axis, r in bits 7-9 (10-12), 0 <= r < f.
#define FFTB_GPU_FLAG_REMAINDER_1_SHIFT 7u
#define FFTB_GPU_FLAG_REMAINDER_2_SHIFT 10u
// A far field (FftbFarFieldInfo): log2 of its reduction, 2 or 3, in bits 13-14 (0: none). Its passes wrote its weighted
// bloom into the scratch from pc.scratchBloomStart, one 16-byte unit per texel of the frame downsampled by it,
// [view][y][x]; pass 3 adds it, upsampled, to the bloom (composite.glsl, farFieldBloom).
#define FFTB_GPU_FLAG_FAR_FIELD_SHIFT 13u
// The bloom's source is weighted by the input's alpha clamped to [0, 1] (FFTB_SOURCE_MASK_ALPHA), or by 1 minus it
// with FFTB_GPU_FLAG_MASK_INVERT too (FFTB_SOURCE_MASK_ONE_MINUS_ALPHA): common.glsl, bloomSource.
#define FFTB_GPU_FLAG_MASK_ALPHA 32u
#define FFTB_GPU_FLAG_MASK_INVERT 64u

// FftbPushConstants::padding, outputMode and interpolation hold the values of the public enums FftbPadding,
// FftbOutputMode and FftbSpectrumInterpolation (plugin/include/fftbloom/fftbloom.h), which GLSL cannot include: these
// are equal to them (static_assert in plugin/plan/recipe.cpp).
#define FFTB_GPU_PADDING_ZERO_NORMALIZED 0
#define FFTB_GPU_PADDING_ZERO 1
#define FFTB_GPU_PADDING_MIRROR 2
// Normalized convolution (FFTB_PADDING_ZERO_NORMALIZED; Knutsson & Westin 1993): the border weights w are the bloom
// of the frame's indicator (1 inside the frame, 0 in the padding) with the unsharpened kernel, fp32, planar
// [channel][v][u] over L2 lines of L1 texels (u along the first axis). NONE: the bloom as convolved. WRITE: pass 1
// transforms the indicator instead of the frame and pass 3 writes its bloom into the weights, not the output. DIVIDE:
// pass 3 divides the bloom by max((1 - t) w + t, FFTB_MIN_BORDER_WEIGHT), t the delta sharpening.
#define FFTB_GPU_BORDER_WEIGHTS_NONE 0
#define FFTB_GPU_BORDER_WEIGHTS_WRITE 1
#define FFTB_GPU_BORDER_WEIGHTS_DIVIDE 2
// The least divisor of normalized convolution (plugin/plan/plan.h, kMinBorderWeight): the bloom is amplified 16x
// at most where little of the kernel lies inside the frame.
#define FFTB_MIN_BORDER_WEIGHT 0.0625
#define FFTB_GPU_OUTPUT_COMPOSITE 0
#define FFTB_GPU_OUTPUT_BLOOM 1
#define FFTB_GPU_OUTPUT_ADDITIVE 2
#define FFTB_GPU_INTERPOLATION_ES 0
#define FFTB_GPU_INTERPOLATION_CUBIC 1
#define FFTB_GPU_INTERPOLATION_LINEAR 2
// Most taps per axis of the resampled spectrum's interpolation (plugin/plan/resampling.h, kMaxInterpolationWidth).
#define FFTB_MAX_INTERPOLATION_WIDTH 8
// Invocations per workgroup of the kernel spectrum's resolution at the frame's frequencies (resampled mode), which
// resolves one line k1 of one channel, and the stored columns of its row one chunk holds in shared memory (16 KiB).
#define FFTB_RESOLVE_SPECTRUM_INVOCATIONS 256
#define FFTB_RESOLVE_SPECTRUM_ROW_CHUNK 2048

#ifdef VULKAN
#define FFTB_UINT uint
#else
#include <stdint.h>
#define FFTB_UINT uint32_t
#endif

// Push constants of every pass. "first"/"second" are the axes of passes 1/3 and of pass 2.
// Lines of the intermediate are [channel][k1][v2], k1 in [0, N1/2], v2 in [0, L2), blocked by
// FFTB_INTERMEDIATE_BLOCK_LINES adjacent k1.
// Lines of the kernel spectrum are indexed [k1][k2] in the range of their channel: k1 in [0, S1/2], k2 in [0, S2).
struct FftbPushConstants
{
    FFTB_UINT imageLength1;  // L1: texels along the first axis of the image transformed (at reduced resolution the
                             // downsampled frame's; in the kernel spectrum's passes the kernel's resolution)
    FFTB_UINT imageLength2;  // L2: along the second axis
    FFTB_UINT paddedLength1; // N1
    FFTB_UINT paddedLength2; // N2
    FFTB_UINT mirrorSplit1;  // see AxisPlan::mirrorSplit
    FFTB_UINT mirrorSplit2;
    FFTB_UINT kernelLength1;          // K1: kernel texels along the first axis (the spectrum passes: the placed
                                      // kernel's, plugin/plan/plan.h placedKernelLength)
    FFTB_UINT kernelLength2;          // K2
    FFTB_UINT kernelCentre1;          // c1 = K1 / 2
    FFTB_UINT kernelCentre2;          // c2 = K2 / 2
    FFTB_UINT spectrumLength1;        // S1: kernel spectrum extent along the first axis
    FFTB_UINT spectrumLength2;        // S2
    FFTB_UINT flags;                  // FFTB_GPU_FLAG_*
    FFTB_UINT padding;                // FFTB_GPU_PADDING_*
    FFTB_UINT outputMode;             // FFTB_GPU_OUTPUT_*
    float sharpen;                    // t in [0, 1]: spectrum (1 - t) * K + t
    float intensity;                  // composite weight of the bloom
    float inverseScale;               // 1 / (N1 * N2), or 1 / N2 with FFTB_SPEC_HALF_STORAGE: the inverse normalization
    FFTB_UINT spectrumTwiddleOffset1; // twiddle table of spectrumLength1 (the kernel spectrum's phase ramp)
    FFTB_UINT interpolation;          // FFTB_GPU_INTERPOLATION_*, when resampled
    float threshold;   // prefilter threshold T >= 0; 0: the prefilter passes the frame through (common.glsl)
    float knee;        // prefilter soft-knee width k in [0, T]
    float clampValue;  // prefilter clamp C on max(r, g, b); 0: none
    float kernelScale; // sigma (plugin/plan/plan.h, Plan::kernelScale): resampled spectra are read at sigma k S / N
    FFTB_UINT interpolationWidth; // W: taps per axis of the interpolation, 2 .. FFTB_MAX_INTERPOLATION_WIDTH
    float esBeta;                 // beta of the ES window (plugin/plan/resampling.h, esBeta)
    FFTB_UINT scratchBloomStart;  // reduced resolution: where pass 3's bloom starts in the scratch, in 16-byte
                                  // units; with a far field at full resolution, where the far field's does
    FFTB_UINT borderWeights;      // FFTB_GPU_BORDER_WEIGHTS_*
    float tintRed;                // the bloom's R, G, B multipliers (FftbBloomInfo::tint)
    float tintGreen;
    float tintBlue;
    FFTB_UINT resolvedSpectrumStart; // where the kernel spectrum at the frame's frequencies starts in each channel's
                                     // range of the kernel spectrum, complex elements: 0 in exact mode, after the
                                     // stored spectrum in resampled mode (kernel_resolve_spectrum.comp)
};

// Push constants of the PSF generator's passes (fftbCmdGenerateKernel; plugin/plan/psf_model.h), in the same range as
// FftbPushConstants. The generator's buffer, bound as the intermediate, holds: the aperture rows' half spectra
// (intermediateIndex, channel 0, `rows` lines of N/2 + 1), then from 32-bit word patternStart the N x N diffraction
// pattern |F|^2 (floats, row-major, the zero frequency at (N/2, N/2)), from occluderStart FFTB_PSF_OCCLUDER_WORDS
// words per occluder (ax, ay, bx, by, width, opacity, 1 for a segment else 0, unused), from wavelengthStart
// FFTB_PSF_WAVELENGTH_WORDS per wavelength (bins per texel at it, R, G, B weights) and from deapodizeStart the K
// factors of the resampled spectrum's deapodization (1 without it), all floats. Once the pattern is made, the rows'
// words hold the spectral integration's sums: 3 per workgroup (R, G, B), row-major over its workgroups.
#define FFTB_PSF_OCCLUDER_WORDS 8
#define FFTB_PSF_WAVELENGTH_WORDS 4
// Invocations of the generator's passes without an FFT: the spectral integration's 16 x 16 per slice, one per kernel
// texel, FFTB_PSF_SLICES slices sharing the wavelengths (psf_spectral_rgb.comp); the normalization's workgroups of
// FFTB_PSF_NORMALIZE_INVOCATIONS scale FFTB_PSF_NORMALIZE_TILE^2 texels each.
#define FFTB_PSF_TILE 16
#define FFTB_PSF_SLICES 4
#define FFTB_PSF_NORMALIZE_INVOCATIONS 256
#define FFTB_PSF_NORMALIZE_TILE 16
struct FftbPsfPushConstants
{
    FFTB_UINT fftLength;       // N: the aperture grid and its FFT are N x N
    FFTB_UINT firstRow;        // the grid row of the first aperture row transformed; rows outside them are zero
    FFTB_UINT rows;            // aperture rows transformed, even
    FFTB_UINT kernelLength;    // K: the kernel is K x K texels
    FFTB_UINT blades;          // 0: a circular iris
    FFTB_UINT vanes;           // spider vanes
    FFTB_UINT occluderCount;   // occluders in the buffer
    FFTB_UINT occluderStart;   // 32-bit word of the first occluder
    FFTB_UINT wavelengthCount; // wavelengths in the buffer
    FFTB_UINT wavelengthStart; // 32-bit word of the first wavelength
    FFTB_UINT patternStart;    // 32-bit word of the pattern
    FFTB_UINT deapodizeStart;  // 32-bit word of K factors: texel (x, y) is stored times factor x times factor y
    float radius;              // the aperture's radius R in grid samples
    float bladeRotation;       // radians
    float bladeCurvature;      // k = c / sqrt(1 - c^2 a^2) of the blades' arcs (psf_generator.cpp, Stop)
    float obstruction;         // central obstruction radius over the aperture's
    float vaneHalfWidth;       // over the aperture's radius
    float vaneAngle;           // radians
    float fade;                // the radial fade's width over the kernel's radius, 0..1 (psf_model.h, psfFade); 0: none
    float glare;               // the share of the light in the eye's scatter (psf_model.h, PsfParams::glare)
    float glareDegreesPerTexel; // the glare's angular scale (psf_model.h, glareDegreesPerTexel)
};

#endif
