// SPDX-License-Identifier: MIT
// FFT lengths, radices, workgroup sizes and twiddle tables.
#include "fft_lengths.h"

#include "fft_codegen.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>

namespace fftb
{

uint32_t pow2Ceil(uint32_t n)
{
    uint32_t p = 2;
    while (p < n)
        p <<= 1;
    return p;
}

namespace
{

bool isSharedFftLength(uint32_t length)
{
    if (length < 2 || length > FFTB_MAX_SHARED_FFT_LENGTH)
        return false;
    for (const uint32_t p : {2u, 3u, 5u, 7u})
        while (length % p == 0)
            length /= p;
    return length == 1;
}

/// A long line's split: register radix R, shared length M = N / R, workgroup size T. All zero when none exists.
struct LongSplit
{
    uint32_t radix = 0, sharedLength = 0, workgroupSize = 0;
};

/// The smallest workgroup size T <= maxInvocations that divides M = `sharedLength` (the register stage combines
/// positions n + m M, which must then share an invocation) with `length` / T <= `elements`; 0 when none does.
uint32_t longWorkgroupSize(uint32_t length, uint32_t sharedLength, uint32_t elements, uint32_t maxInvocations)
{
    const uint32_t least = (length + elements - 1) / elements;
    for (uint32_t t = least; t <= std::min({sharedLength, kMaxWorkgroupSize, maxInvocations}); ++t)
        if (sharedLength % t == 0)
            return t;
    return 0;
}

LongSplit longSplitOf(uint32_t length, uint32_t maxInvocations = kMaxWorkgroupSize)
{
    if (length <= FFTB_MAX_SHARED_FFT_LENGTH || length > FFTB_MAX_FFT_LENGTH)
        return {};
    // The smallest R leaves the longest sub-lines: fewest idle invocations in their Stockham stages.
    for (const uint32_t radix : {2u, 3u, 4u, 5u, 7u, 8u})
    {
        if (length % radix != 0 || !isSharedFftLength(length / radix) ||
            longWorkgroupSize(length, length / radix, FFTB_MAX_ELEMENTS_PER_INVOCATION, kMaxWorkgroupSize) == 0)
            continue;
        const uint32_t m = length / radix;
        // kPreferredLongElementsPerInvocation where the device allows the invocations, else up to
        // FFTB_MAX_ELEMENTS_PER_INVOCATION.
        uint32_t t = longWorkgroupSize(length, m, kPreferredLongElementsPerInvocation, maxInvocations);
        if (t == 0)
            t = longWorkgroupSize(length, m, FFTB_MAX_ELEMENTS_PER_INVOCATION, maxInvocations);
        return {radix, m, t};
    }
    return {};
}

} // namespace

bool isFftLength(uint32_t length)
{
    return isSharedFftLength(length) || longSplitOf(length).radix != 0;
}

uint32_t sharedLengthOf(uint32_t length)
{
    return isSharedFftLength(length) ? length : longSplitOf(length).sharedLength;
}

uint32_t residentWarpsOf(uint32_t workgroupSize)
{
    const uint32_t warps = (workgroupSize + 31) / 32;
    const uint32_t byRegisters = kModelRegistersPerSm / (kModelRegistersPerInvocation * warps * 32);
    const uint32_t byInvocations = kModelInvocationsPerSm / (warps * 32);
    return std::min({byRegisters, byInvocations, kModelWorkgroupsPerSm}) * warps;
}

uint32_t workgroupSizeOf(uint32_t length, uint32_t maxInvocations)
{
    if (!isSharedFftLength(length))
    {
        return longSplitOf(length, maxInvocations).workgroupSize;
    }
    const auto sizeFor = [length](uint32_t elements)
    {
        const uint32_t size = (length + elements - 1) / elements;
        return size <= 32 ? size : (size + 31) / 32 * 32;
    };
    // Up to the smallest radix, every stage's butterflies fit one round of the workgroup.
    uint32_t smallestRadix = kMaxRoundElementsPerInvocation;
    for (const uint32_t radix : radicesOf(length))
        smallestRadix = std::min(smallestRadix, radix);
    uint32_t best = 0, bestWarps = 0;
    for (uint32_t elements = kPreferredElementsPerInvocation;
         elements <= std::max(kPreferredElementsPerInvocation, smallestRadix); ++elements)
    {
        const uint32_t size = sizeFor(elements);
        if (size > maxInvocations)
            continue;
        const uint32_t warps = residentWarpsOf(size);
        if (warps > bestWarps)
        {
            best = size;
            bestWarps = warps;
        }
    }
    if (best != 0)
        return best;
    for (uint32_t elements = std::max(kPreferredElementsPerInvocation, smallestRadix) + 1;
         elements <= FFTB_MAX_ELEMENTS_PER_INVOCATION; ++elements)
        if (sizeFor(elements) <= maxInvocations)
            return sizeFor(elements);
    return 0;
}

std::vector<uint32_t> radicesOf(uint32_t length)
{
    std::vector<uint32_t> radices;
    const uint32_t shared = sharedLengthOf(length);
    if (shared != length)
        radices.push_back(length / shared);
    for (uint32_t rest = shared; rest > 1;)
    {
        uint32_t radix = 7;
        for (const uint32_t r : {8u, 4u, 2u, 3u, 5u})
            if (rest % r == 0)
            {
                radix = r;
                break;
            }
        radices.push_back(radix);
        rest /= radix;
    }
    return radices;
}

std::array<uint32_t, FFTB_SPEC_COUNT> specializationOf(uint32_t length, uint32_t workgroupSize, bool halfStorage,
                                                       bool multiView)
{
    const uint32_t shared = sharedLengthOf(length);
    std::array<uint32_t, FFTB_SPEC_COUNT> values{length,
                                                 workgroupSize,
                                                 twiddleTables().offsetOf(length),
                                                 shared,
                                                 twiddleTables().offsetOf(shared),
                                                 halfStorage ? 1u : 0u};
    const std::vector<uint32_t> radices = radicesOf(shared);
    for (uint32_t i = 0; i < FFTB_MAX_SHARED_STAGES; ++i)
        values[FFTB_SPEC_RADIX_0 + i] = i < radices.size() ? radices[i] : 1;
    values[FFTB_SPEC_MULTI_VIEW] = multiView ? 1u : 0u;
    return values;
}

double fftLengthCost(uint32_t length)
{
    double stages = 0.0;
    for (const uint32_t r : radicesOf(length))
        stages += 1.0 + r / 10.0;
    return length * stages;
}

uint32_t TwiddleTables::offsetOf(uint32_t length) const
{
    const auto it = std::lower_bound(lengths.begin(), lengths.end(), length);
    return offsets[size_t(it - lengths.begin())];
}

uint32_t TwiddleTables::stageOffsetOf(uint32_t span, uint32_t radix) const
{
    const auto it = std::lower_bound(stageKeys.begin(), stageKeys.end(), span * 16 + radix);
    return stageOffsets[size_t(it - stageKeys.begin())];
}

void TwiddleTables::write(float* destination) const
{
    for (size_t i = 0; i < stageKeys.size(); ++i)
    {
        const uint32_t span = stageKeys[i] / 16, radix = stageKeys[i] % 16;
        for (uint32_t r = 1; r < radix; ++r)
            for (uint32_t k = 0; k < span; ++k)
            {
                const double angle = -2.0 * std::numbers::pi * double(r * k) / double(span * radix);
                const uint32_t at = stageOffsets[i] + (r - 1) * span + k;
                destination[2 * at] = float(std::cos(angle));
                destination[2 * at + 1] = float(std::sin(angle));
            }
    }
    for (size_t i = 0; i < lengths.size(); ++i)
        for (uint32_t m = 0; m < twiddleTableElements(lengths[i]); ++m)
        {
            double re, im;
            twiddleEntry(lengths[i], m, &re, &im);
            destination[2 * (offsets[i] + m)] = float(re);
            destination[2 * (offsets[i] + m) + 1] = float(im);
        }
}

uint32_t twiddleTableElements(uint32_t length)
{
    if (length <= FFTB_MAX_SHARED_FFT_LENGTH)
        return length;
    return FFTB_TWIDDLE_FINE_ELEMENTS + (length + FFTB_TWIDDLE_FINE_ELEMENTS - 1) / FFTB_TWIDDLE_FINE_ELEMENTS;
}

void twiddleEntry(uint32_t length, uint32_t index, double* re, double* im)
{
    uint64_t m = index;
    if (length > FFTB_MAX_SHARED_FFT_LENGTH && index >= FFTB_TWIDDLE_FINE_ELEMENTS)
        m = uint64_t(index - FFTB_TWIDDLE_FINE_ELEMENTS) * FFTB_TWIDDLE_FINE_ELEMENTS;
    // Reduced modulo the length before scaling, so the angle stays within one turn.
    const double angle = -2.0 * std::numbers::pi * double(m % length) / length;
    *re = std::cos(angle);
    *im = std::sin(angle);
}

const TwiddleTables& twiddleTables()
{
    static const TwiddleTables tables = []
    {
        TwiddleTables t;
        for (uint32_t n = 2; n <= FFTB_MAX_FFT_LENGTH; ++n)
            if (isFftLength(n))
            {
                t.lengths.push_back(n);
                t.offsets.push_back(t.totalElements);
                t.totalElements += twiddleTableElements(n);
            }
        // The stages of every generated line FFT, forward and inverse (the radices reversed), by (L, R).
        std::set<uint32_t> keys;
        for (const uint32_t n : t.lengths)
            if (n <= FFTB_MAX_SHARED_FFT_LENGTH)
                for (const bool inverse : {false, true})
                {
                    std::vector<uint32_t> radices = lineFftRadices(n);
                    if (inverse)
                        std::reverse(radices.begin(), radices.end());
                    for (uint32_t s = 1, span = radices[0]; s < radices.size(); span *= radices[s++])
                        keys.insert(span * 16 + radices[s]);
                }
        for (const uint32_t key : keys)
        {
            t.stageKeys.push_back(key);
            t.stageOffsets.push_back(t.totalElements);
            t.totalElements += (key % 16 - 1) * (key / 16);
        }
        return t;
    }();
    return tables;
}

} // namespace fftb
