// SPDX-License-Identifier: MIT
// Vulkan-free layout of a plan's buffers: the intermediate's blocked lines, the half-resolution bloom, the scratch and
// kernel spectrum sizes, and their worst cases over a context's maximum extents.
#pragma once

#include "shared/fftb_shared.h"

#include <fftbloom/fftbloom.h>

#include <cstdint>
#include <string>

namespace fftb
{

struct Plan;

/// Blocks of FFTB_INTERMEDIATE_BLOCK_LINES lines that hold `halfLines` half-spectrum lines (the last one possibly
/// partly).
uint32_t intermediateBlocks(uint32_t halfLines);

/// Where element v of half-spectrum line k1 < halfLines of `channel` lies in the intermediate, for lines of
/// `lineCount` elements: [channel][k1 / B][v][k1 % B], B = FFTB_INTERMEDIATE_BLOCK_LINES (common.glsl,
/// intermediateIndex); the lines of view `view` of a multi-view bloom follow those of the views before it,
/// [view][channel]...
uint64_t intermediateIndex(uint32_t channel, uint32_t k1, uint32_t halfLines, uint32_t v, uint32_t lineCount,
                           uint32_t view = 0);

/// Complex fp32 elements of the intermediate buffer `plan` uses, over its three colour channels: the frame's half
/// spectrum along the first axis, 3 B ceil((N1 / 2 + 1) / B) L2 (only image lines along the second axis are stored;
/// B = FFTB_INTERMEDIATE_BLOCK_LINES), or, when the kernel spectrum is computed, the kernel's first-axis transform,
/// 3 B ceil((S1 / 2 + 1) / B) min(K2, S2), if larger. `views` frames (FftbMultiViewInfo) hold `views` times the
/// frame's.
uint64_t intermediateElements(const Plan& plan, uint32_t views = 1);

/// Reduced resolution: where pass 3 writes the bloom of the downsampled frame in the scratch, in 16-byte units, after
/// the intermediate's intermediateElements(plan, views) elements of `elementBytes` bytes (8 fp32, 4 fp16), rounded up
/// (FftbPushConstants::scratchBloomStart; common.glsl, reducedBloomIndex). One 16-byte unit per texel, fp32 R, G, B
/// and 0, [view][y][x] over the downsampled frame's width and height.
uint64_t reducedBloomStart(const Plan& plan, uint32_t elementBytes, uint32_t views = 1);

/// A far field's window of the scratch (FftbFarFieldInfo): its passes use the scratch from this byte on, after the
/// plan's own `planScratchBytes`, aligned to 256 (the largest minStorageBufferOffsetAlignment), so that its passes 1
/// and 2 share no byte with the plan's and run beside them without a barrier.
constexpr uint64_t farFieldWindow(uint64_t planScratchBytes)
{
    return (planScratchBytes + 255) / 256 * 256;
}

/// Bytes of the scratch `plan` uses with intermediate elements of `elementBytes` bytes: the intermediate, then at
/// reduced resolution the downsampled frame's bloom; of `views` views (FftbMultiViewInfo); and at least
/// the kernel's first-axis transform, which the kernel spectrum's passes store as fp32 whatever `elementBytes`.
uint64_t scratchBytes(const Plan& plan, uint32_t elementBytes, uint32_t views = 1);

/// The kernel spectrum is bound as one range per channel (FFTB_BINDING_KERNEL_SPECTRUM) of one buffer: each range's
/// length is a multiple of this many complex fp32 elements, 256 bytes, the largest minStorageBufferOffsetAlignment
/// Vulkan allows, so that every range starts aligned on any device.
constexpr uint64_t kSpectrumChannelAlignment = 32;

/// Where the kernel spectrum at the frame's frequencies starts in each channel's range, complex fp32 elements
/// (FftbPushConstants::resolvedSpectrumStart): 0 in exact mode, whose stored spectrum is at those frequencies (S = N);
/// in resampled mode (S1 / 2 + 1) S2, after the channel's stored centred half spectrum.
uint64_t resolvedSpectrumStart(const Plan& plan);

/// Complex fp32 elements of one channel's range of the kernel spectrum `plan` reads: resolvedSpectrumStart(plan), then
/// (N1 / 2 + 1) N2, the channel's centred half spectrum at the frame's frequencies (in resampled mode the stored one
/// interpolated once per kernel and plan: shaders/kernel_resolve_spectrum.comp), rounded up to a multiple of
/// kSpectrumChannelAlignment. The buffer holds 3 such ranges, R, G, B.
uint64_t spectrumChannelElements(const Plan& plan);

/// Bytes of a kernel spectrum buffer of three channel ranges of `channelElements` complex fp32 each.
constexpr uint64_t spectrumBufferBytes(uint64_t channelElements)
{
    return 3 * channelElements * 8;
}

/// Worst cases, over padding, axis order, spectrum mode (resampled at kMaxSpectrumOversampling) and resolution (full,
/// and half in resampled mode, the largest reduced image), with a far field's window after a full-resolution plan's
/// (farFieldWindow: the frame at an eighth, a kernel spanning the maximum resolution's texels there; a far field at a
/// quarter may need more than it holds), of every frame up
/// to `maxWidth` x `maxHeight` with every kernel up to `maxKernelWidth` x `maxKernelHeight`. Padded lengths grow with
/// the extents they pad (the cheapest length is chosen over candidates that only move up), so the maximum extents give
/// the worst case.
struct ScratchSizes
{
    uint64_t scratchBytes = 0;            ///< scratchBytes(plan, 8, maxViews), worst case
    uint64_t spectrumChannelElements = 0; ///< spectrumChannelElements(plan) of exact mode, worst case (at the maximum
                                          ///< extents)
};

/// Fills `sizes` for a context's maximum extents and views; false and a reason when no frame of those extents can be
/// planned.
bool scratchSizes(uint32_t maxWidth, uint32_t maxHeight, uint32_t maxKernelWidth, uint32_t maxKernelHeight,
                  FftbLengthPolicy lengths, ScratchSizes* sizes, std::string* error, uint32_t maxViews = 1);

/// The worst spectrumChannelElements over padding, for one axis order, spectrum mode and oversampling (resampled mode),
/// of a kernel of `kernelWidth` x `kernelHeight` texels covering up to `kernelExtentWidth` x `kernelExtentHeight`
/// pixels (FftbContextCreateInfo::maxKernelExtentWidth, Height; its texels when smaller) of frames up to `maxWidth` x
/// `maxHeight`: what each channel's range of one kernel spectrum slot holds. 0 when no such frame can be planned.
uint64_t spectrumSlotChannelElements(uint32_t maxWidth, uint32_t maxHeight, uint32_t kernelWidth, uint32_t kernelHeight,
                                     uint32_t kernelExtentWidth, uint32_t kernelExtentHeight, FftbAxisOrder axisOrder,
                                     FftbSpectrumMode mode, uint32_t oversampling, FftbLengthPolicy lengths);

/// Bytes of normalized convolution's border weights for frames up to `width` x `height`: 3 planes of fp32.
constexpr uint64_t borderWeightBytes(uint32_t width, uint32_t height)
{
    return uint64_t(3) * width * height * sizeof(float);
}

} // namespace fftb
