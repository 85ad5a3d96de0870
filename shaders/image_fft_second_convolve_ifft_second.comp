// SPDX-License-Identifier: MIT
// Pass 2: per half-spectrum line, forward FFT along the second axis, Hadamard product with the kernel spectrum
// (resampled or exact, blended toward the Dirac delta), inverse FFT; stores the lines pass 3 reads.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "shared/fftb_shared.h"
#include "fft.glsl"
#include "common.glsl"

// Stored bin (i, j) of the kernel's centred spectrum for any integer i, j: periodic in S1 and S2 (powers of two in
// resampled mode), and bins past the stored half k1 in [0, S1/2] read through Hermitian symmetry,
// X(i, j) = conj(X(S1 - i, -j)).
vec2 kernelSpectrumBin(uint base, int i, int j)
{
    const uint mask1 = pc.spectrumLength1 - 1u;
    const uint mask2 = pc.spectrumLength2 - 1u;
    uint a = uint(i) & mask1;
    uint b = uint(j) & mask2;
    if (2u * a > pc.spectrumLength1)
    {
        a = pc.spectrumLength1 - a;
        b = (pc.spectrumLength2 - b) & mask2;
        const vec2 v = kernelSpectrum[(base + a) * pc.spectrumLength2 + b];
        return vec2(v.x, -v.y);
    }
    return kernelSpectrum[(base + a) * pc.spectrumLength2 + b];
}

// The interpolation's taps at one reading position, from the tap table pass 1 wrote (image_fft_first.comp,
// writeTapTable): the W = pc.interpolationWidth bins first .. first + W - 1, their weights in low (taps 0-3) and high
// (4-7), 0 past W and outside the kernel's band.
struct Taps
{
    int first;
    vec4 low;
    vec4 high;
};

Taps tapsOf(uint entry)
{
    const uint at = 2u * (pc.tapTableStart + FFTB_TAP_TABLE_ENTRY_UNITS * entry);
    const vec4 low = vec4(uintBitsToFloat(intermediate[at]), uintBitsToFloat(intermediate[at + 1u]));
    const vec4 high = vec4(uintBitsToFloat(intermediate[at + 2u]), uintBitsToFloat(intermediate[at + 3u]));
    return Taps(int(intermediate[at + 4u].x), low, high);
}

float weightOf(Taps taps, int d)
{
    return d < 4 ? taps.low[d] : taps.high[d - 4];
}

// Unrolled loops over the taps have the constant bound FFTB_MAX_INTERPOLATION_WIDTH and skip those past W.
bool tapInUse(int d)
{
    return d < int(pc.interpolationWidth);
}

// Bin j of the second axis of the stored spectrum interpolated along the first axis at this line's taps `row`: a row
// of the resampled spectrum. The taps past the stored half mirror through Hermitian symmetry.
vec2 rowBin(uint base, Taps row, int j)
{
    vec2 sum = vec2(0.0);
    [[unroll]] for (int d = 0; d < FFTB_MAX_INTERPOLATION_WIDTH; ++d)
        if (tapInUse(d))
            sum += weightOf(row, d) * kernelSpectrumBin(base, row.first + d, j);
    return sum;
}

// Every bin of a frequency line has the same first-axis position (it depends on k1 only), so the S2 bins of its row
// are interpolated along the first axis once, into shared memory, and each bin then costs W shared reads along the
// second axis instead of W^2 global ones. The line's slots wait in registers meanwhile, at most
// FFTB_MAX_HELD_ELEMENTS_PER_INVOCATION (8) per invocation in loops of that constant bound (a loop over 16, with the
// product's code in it, was not unrolled, and the held slots went to local memory). A row longer than the line's FFT
// (S2 > SHARED_LENGTH: a kernel longer than the padded frame) gets shared arrays that hold it (SHARED_CAPACITY, up to
// FFTB_MAX_SHARED_FFT_LENGTH); longer rows, or more slots per invocation (long lines), interpolate per tap instead.
bool rowInShared()
{
    return (pc.flags & FFTB_GPU_FLAG_RESAMPLED) != 0u && pc.spectrumLength2 <= SHARED_CAPACITY &&
           ELEMENTS <= FFTB_MAX_HELD_ELEMENTS_PER_INVOCATION;
}

// The kernel's centred spectrum interpolated with the taps `row` along the first axis and `column` along the second.
// rowShared: whether the line's row is in shared memory (convolveLine). It is a literal at every call, so each path's
// code holds only its own reads: the per-tap reads inlined into the row path's unrolled loop as well made pass 2's
// binary 3.5 times larger and the pass slower (bench/results/README.md). The per-tap path loops over the column's
// taps without unrolling, W^2 reads in W^2 call sites otherwise.
vec2 resampledSpectrum(uint base, Taps row, Taps column, const bool rowShared)
{
    vec2 sum = vec2(0.0);
    if (rowShared)
    {
        [[unroll]] for (int d = 0; d < FFTB_MAX_INTERPOLATION_WIDTH; ++d)
            if (tapInUse(d))
                sum += weightOf(column, d) * fftSharedGet(uint(column.first + d) & (pc.spectrumLength2 - 1u));
        return sum;
    }
    [[dont_unroll]] for (int d = 0; d < int(pc.interpolationWidth); ++d)
        sum += weightOf(column, d) * rowBin(base, row, column.first + d);
    return sum;
}

// The first stored line of `channel` in the kernel spectrum ([channel][k1][k2], S1/2 + 1 lines per channel).
uint spectrumBase(uint channel)
{
    return channel * (pc.spectrumLength1 / 2u + 1u);
}

// The kernel's centred spectrum at frame frequency (k1, k2). Resampled: interpolated with the taps `row` of line k1
// and those of bin k2 (tap table entry k2).
vec2 kernelSpectrumAt(uint channel, uint k1, Taps row, uint k2, const bool rowShared)
{
    const uint base = spectrumBase(channel);
    if ((pc.flags & FFTB_GPU_FLAG_RESAMPLED) == 0u)
        return kernelSpectrum[(base + k1) * pc.spectrumLength2 + k2];
    vec2 value = resampledSpectrum(base, row, tapsOf(k2), rowShared);
    // At an even length's Nyquist bin, k and -k are one frequency, read at +sigma S/2 and -sigma S/2: their mean keeps
    // the product Hermitian, so the first axis's DC and Nyquist lines stay real for pass 3 (K(-x, y) = conj K(x, -y)).
    // With sigma = 1 both sides are the same stored bins (the spectrum is periodic in S): nothing to average. The
    // reading at -y is tap table entry -k2 mod N2, or N2 for the Nyquist bin itself.
    const bool nyquist1 = 2u * k1 == pc.paddedLength1;
    const bool nyquist2 = 2u * k2 == FFT_LENGTH;
    if (pc.kernelScale != 1.0 && (nyquist1 || nyquist2))
    {
        const uint mirror = nyquist2 ? FFT_LENGTH : (FFT_LENGTH - k2) % FFT_LENGTH;
        const vec2 mirrored = resampledSpectrum(base, row, tapsOf(mirror), rowShared);
        if (nyquist2)
            value = 0.5 * (value + mirrored);
        if (nyquist1)
            value = nyquist2 ? vec2(value.x, 0.0) : 0.5 * (value + conjugate(mirrored));
    }
    return value;
}

// Slot value z at frequency (k1, k2) times the kernel spectrum there, blended toward the Dirac delta (sharpening t:
// (1 - t) K + t) and scaled by the inverse transforms' normalization; rowShared as for resampledSpectrum.
vec2 product(uint channel, uint k1, Taps row, uint k2, vec2 z, const bool rowShared)
{
    const vec2 kernel = (1.0 - pc.sharpen) * kernelSpectrumAt(channel, k1, row, k2, rowShared) + vec2(pc.sharpen, 0.0);
    return pc.inverseScale * cmul(z, kernel);
}

// The line's Hadamard product with the kernel spectrum at frequency line k1, on the slots after the forward FFT.
void convolveLine(uint channel, uint k1)
{
    const Taps row = tapsOf(FFT_LENGTH + 1u + k1);
    if (!rowInShared())
    {
        for (uint e = 0u; e < ELEMENTS; ++e)
        {
            const uint k2 = fftFrequencyIndex(e);
            if (k2 >= FFT_LENGTH)
                break;
            fftPut(e, product(channel, k1, row, k2, fftGet(e), false));
        }
        return;
    }
    vec2 held[FFTB_MAX_HELD_ELEMENTS_PER_INVOCATION];
    [[unroll]] for (uint e = 0u; e < FFTB_MAX_HELD_ELEMENTS_PER_INVOCATION; ++e)
        if (e < ELEMENTS && fftFrequencyIndex(e) < FFT_LENGTH)
            held[e] = fftGet(e);
    barrier(); // every slot is read
    for (uint j = gl_LocalInvocationID.x; j < pc.spectrumLength2; j += WORKGROUP_SIZE)
        fftSharedPut(j, rowBin(spectrumBase(channel), row, int(j)));
    barrier();
    [[unroll]] for (uint e = 0u; e < FFTB_MAX_HELD_ELEMENTS_PER_INVOCATION; ++e)
        if (e < ELEMENTS && fftFrequencyIndex(e) < FFT_LENGTH)
            held[e] = product(channel, k1, row, fftFrequencyIndex(e), held[e], true);
    barrier(); // every row bin is read
    [[unroll]] for (uint e = 0u; e < FFTB_MAX_HELD_ELEMENTS_PER_INVOCATION; ++e)
        if (e < ELEMENTS && fftFrequencyIndex(e) < FFT_LENGTH)
            fftPut(e, held[e]);
}

void main()
{
    const uint k1 = gl_WorkGroupID.x;
    const uint channel = gl_WorkGroupID.y;
    const uint halfLines = pc.paddedLength1 / 2u + 1u;
    // Padding along the second axis is applied here: lines in the padding are zero or mirrors of stored lines. The
    // line's elements lie 32 bytes apart (intermediateIndex): the other lines of its block, read by the neighbouring
    // workgroups at about the same time, share their sectors in L2.
    for (uint e = 0u; e < ELEMENTS; ++e)
    {
        const uint i = fftTimeIndex(e);
        if (i >= FFT_LENGTH)
            break;
        const int v = paddedSource(i, pc.imageLength2, FFT_LENGTH, pc.mirrorSplit2);
        const uint at = v < 0 ? 0u : intermediateIndex(channel, k1, halfLines, uint(v), pc.imageLength2);
        fftPut(e, v < 0 ? vec2(0.0) : loadIntermediate(at));
    }
    fftRun(false);
    convolveLine(channel, k1);
    fftRun(true);
    for (uint e = 0u; e < ELEMENTS; ++e)
    {
        const uint v = fftTimeIndex(e);
        if (v >= pc.imageLength2)
            break;
        storeIntermediate(intermediateIndex(channel, k1, halfLines, v, pc.imageLength2), fftGet(e));
    }
}
