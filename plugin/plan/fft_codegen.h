// SPDX-License-Identifier: MIT
// Vulkan-free line FFT generator: the GLSL of one line FFT of a given length as straight-line code (every radix,
// span, round and twiddle index a literal), compiled with the pass that includes it when a plan is made.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace fftb
{

/// The radices of a line FFT of `length` (2 <= length <= FFTB_MAX_SHARED_FFT_LENGTH, 2^a 3^b 5^c 7^d), in the order
/// the forward FFT runs them: the power of two as radix 8 (2^(3q+1) as 8^(q-1) 4 4, 2^(3q+2) as 8^q 4, a lone 2 as
/// 2), then 7, 5, 3; the smallest first, the next smallest last and the others largest first between them (2048 =
/// 4 8 8 8, 1225 = 5 7 7 5): the first and the last stage, whose slots the passes see, hold the fewest elements.
std::vector<uint32_t> lineFftRadices(uint32_t length);

/// Invocations T of a workgroup transforming a line of `length` (lineFftRadices) with at most `maxInvocations`:
/// stage s of radix R_s runs ceil(length / (R_s T)) rounds of butterflies; among the T with at most two rounds in every
/// stage (more only where `maxInvocations` is too small), the one that leaves the fewest invocation slots idle over all
/// stages (the sum of rounds_s R_s T), the largest on a tie. 2048 gets 256, 1225 gets 245. 0 where no T <=
/// maxInvocations keeps every stage within FFTB_MAX_ELEMENTS_PER_INVOCATION elements.
uint32_t lineFftWorkgroupSize(uint32_t length, uint32_t maxInvocations);

/// A generated line FFT.
struct LineFftCode
{
    std::string glsl;           ///< the text a pass includes as "fft_generated.glsl"
    uint32_t workgroupSize = 0; ///< its local_size_x
};

/// The line FFT of `length` over lineFftWorkgroupSize(length, maxInvocations) invocations, as GLSL: mixed-radix
/// Stockham autosort (after E. Bainville, "OpenCL Fast Fourier Transform"), registers first and last: the forward FFT
/// runs its first stage on the elements the slots hold in time layout and leaves its last stage's outputs in the slots
/// in frequency layout; the inverse runs the radices in reverse, from the frequency layout to the time layout; between
/// stages one vec2 exchange through shared memory (two barriers). Stage s twiddles element r of butterfly j by
/// exp(-+2 pi i r k / (L R)), k = j mod L (span L, radix R), from the stage table of (L, R) that starts at
/// `stageTwiddleOffsetOf(L, R)` in the twiddle buffer (TwiddleTables::stageOffsetOf): entry (r - 1) L + k, so that
/// neighbouring butterflies read neighbouring entries. Forward is unnormalized, exp(-2 pi i k n / N).
/// Slot b R + r of an invocation t holds position (or frequency) t + b T + r N / R, where R is the first radix (time
/// layout) or the last (frequency layout) and b counts the stage's rounds of T butterflies.
/// The text declares FFT_LENGTH, FFT_WORKGROUP_SIZE, local_size_x, the twiddle buffer, the shared array fftShared (N
/// elements, free between FFTs) and the slots fftSlot0, ...; it defines fftForward() and fftInverse() and three macros
/// for the pass's loads, products and stores: FFTB_FFT_TIME_SLOTS(APPLY) and FFTB_FFT_FREQUENCY_SLOTS(APPLY) expand to
/// APPLY(index, slot) for every slot in time (frequency) layout, with the index of the position (frequency) it holds;
/// FFTB_FFT_EACH_SLOT(APPLY) expands to APPLY(slot) for every slot (to declare a value per slot with ##). Expanded
/// code issues its loads together, where a function called per element (or choosing a binding per element) made pass
/// 2 16 % slower.
/// Empty, with workgroupSize 0, where lineFftWorkgroupSize is 0 (too few invocations for
/// FFTB_MAX_ELEMENTS_PER_INVOCATION).
LineFftCode generateLineFft(uint32_t length, uint32_t maxInvocations,
                            const std::function<uint32_t(uint32_t, uint32_t)>& stageTwiddleOffsetOf);

} // namespace fftb
