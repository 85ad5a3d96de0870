// SPDX-License-Identifier: MIT
// Kernel spectrum, step 3 (resampled mode): the stored spectrum, of length S per axis, interpolated at the frame's
// frequencies sigma k S / N (sigma the kernel scale) into a half spectrum of the frame's padded size, [k1][k2] with
// k1 <= N1 / 2 and k2 < N2, from element pc.resolvedSpectrumStart of each channel's binding of the kernel spectrum.
// Pass 2 multiplies by it as it does by an exact-mode spectrum, so the interpolation runs once per kernel and plan, not
// per frame.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "shared/fftb_shared.h"
#include "common.glsl"

layout(local_size_x = FFTB_RESOLVE_SPECTRUM_INVOCATIONS) in;

// Weight of a tap t stored bins from the reading position (FftbSpectrumInterpolation; plugin/plan/resampling.h,
// tapWeight): the ES window exp(beta (sqrt(1 - z^2) - 1)), z = 2 t / W; Keys' cubic convolution (a = -1/2); the tent.
float tapWeight(float t)
{
    const float a = abs(t);
    if (pc.interpolation == FFTB_GPU_INTERPOLATION_ES)
    {
        const float z = a * (2.0 / float(pc.interpolationWidth));
        return z < 1.0 ? exp(pc.esBeta * (sqrt(1.0 - z * z) - 1.0)) : 0.0;
    }
    if (pc.interpolation == FFTB_GPU_INTERPOLATION_CUBIC)
        return a <= 1.0 ? (1.5 * a - 2.5) * a * a + 1.0 : a < 2.0 ? ((-0.5 * a + 2.5) * a - 4.0) * a + 2.0 : 0.0;
    return max(1.0 - a, 0.0);
}

// The W = pc.interpolationWidth taps that read the stored spectrum at `position` bins: bins first .. first + W - 1
// within W / 2 of it and their weights, 0 past W, and all 0 past the kernel's Nyquist (|position| > S / 2, for a
// kernel scale sigma > 1): the scaled kernel is band-limited, not the spectrum's periodic repetition.
struct Taps
{
    int first;
    float weight[FFTB_MAX_INTERPOLATION_WIDTH];
};

Taps tapsAt(float position, uint spectrumLength)
{
    Taps taps;
    taps.first = int(floor(position - 0.5 * float(pc.interpolationWidth))) + 1;
    const bool inBand = 2.0 * abs(position) <= float(spectrumLength);
    [[unroll]] for (int d = 0; d < FFTB_MAX_INTERPOLATION_WIDTH; ++d)
        taps.weight[d] =
            inBand && d < int(pc.interpolationWidth) ? tapWeight(position - float(taps.first + d)) : 0.0;
    return taps;
}

// The reading position of frame frequency k (signed) on an axis of padded length n and stored length s:
// sigma (k s / n), sigma multiplied last so that sigma = 1 reads exactly the frequencies of an unscaled kernel.
float positionOf(int k, uint s, uint n)
{
    return pc.kernelScale * (float(k) * float(s) / float(n));
}

// Stored bin (i, j) of the kernel's centred spectrum for any integer i, j: periodic in S1 and S2 (powers of two), and
// bins past the stored half k1 in [0, S1/2] read through Hermitian symmetry, X(i, j) = conj(X(S1 - i, -j)).
vec2 storedBin(uint channel, int i, int j)
{
    uint a = uint(i) & (pc.spectrumLength1 - 1u);
    uint b = uint(j) & (pc.spectrumLength2 - 1u);
    if (2u * a <= pc.spectrumLength1)
        return kernelSpectrumAt(channel, a * pc.spectrumLength2 + b);
    a = pc.spectrumLength1 - a;
    b = (pc.spectrumLength2 - b) & (pc.spectrumLength2 - 1u);
    const vec2 v = kernelSpectrumAt(channel, a * pc.spectrumLength2 + b);
    return vec2(v.x, -v.y);
}

// One chunk of a row of the stored spectrum in shared memory (structure of arrays): row[j] = sum over the first
// axis's taps of X(first + d, j), for the chunk's columns j.
shared float rowRe[FFTB_RESOLVE_SPECTRUM_ROW_CHUNK];
shared float rowIm[FFTB_RESOLVE_SPECTRUM_ROW_CHUNK];

// The part of the second axis's interpolation with `column` that reads the row chunk from column `start`: the taps
// whose stored column (mod S2) lies in it.
vec2 chunkSum(Taps column, uint start, uint length)
{
    vec2 sum = vec2(0.0);
    [[unroll]] for (int d = 0; d < FFTB_MAX_INTERPOLATION_WIDTH; ++d)
    {
        const uint j = (uint(column.first + d) & (pc.spectrumLength2 - 1u)) - start;
        if (d < int(pc.interpolationWidth) && j < length)
            sum += column.weight[d] * vec2(rowRe[j], rowIm[j]);
    }
    return sum;
}

// Workgroup (k1, channel) resolves the line k1 of the channel: per chunk of FFTB_RESOLVE_SPECTRUM_ROW_CHUNK stored
// columns (one chunk unless S2 is longer), its row is interpolated along the first axis into shared memory once (W
// reads per stored bin), then each bin k2 of the line adds W reads of it along the second axis: W (S2 + N2) reads per
// line instead of W^2 N2. Every step is linear, so the chunks' parts add up in the output.
void main()
{
    const uint n1 = pc.paddedLength1, n2 = pc.paddedLength2, s2 = pc.spectrumLength2;
    const uint k1 = gl_WorkGroupID.x, channel = gl_WorkGroupID.y;
    const uint line = pc.resolvedSpectrumStart + k1 * n2;
    const Taps row = tapsAt(positionOf(int(k1), pc.spectrumLength1, n1), pc.spectrumLength1);
    // At an even length's Nyquist bin, k and -k are one frequency, read at +sigma S/2 and -sigma S/2: their mean keeps
    // the product Hermitian, so the first axis's DC and Nyquist lines stay real for pass 3 (K(-x, y) = conj K(x, -y)).
    // With sigma = 1 both sides are the same stored bins (the spectrum is periodic in S): nothing to average.
    const bool scaled = pc.kernelScale != 1.0, nyquist1 = 2u * k1 == n1;
    for (uint start = 0u; start < s2; start += FFTB_RESOLVE_SPECTRUM_ROW_CHUNK)
    {
        const uint length = min(s2 - start, uint(FFTB_RESOLVE_SPECTRUM_ROW_CHUNK));
        barrier(); // the previous chunk is read
        for (uint j = gl_LocalInvocationID.x; j < length; j += FFTB_RESOLVE_SPECTRUM_INVOCATIONS)
        {
            vec2 sum = vec2(0.0);
            [[unroll]] for (int d = 0; d < FFTB_MAX_INTERPOLATION_WIDTH; ++d)
                if (d < int(pc.interpolationWidth))
                    sum += row.weight[d] * storedBin(channel, row.first + d, int(start + j));
            rowRe[j] = sum.x;
            rowIm[j] = sum.y;
        }
        barrier();
        for (uint k2 = gl_LocalInvocationID.x; k2 < n2; k2 += FFTB_RESOLVE_SPECTRUM_INVOCATIONS)
        {
            const int signed2 = 2u * k2 < n2 ? int(k2) : int(k2) - int(n2);
            vec2 value = chunkSum(tapsAt(positionOf(signed2, s2, n2), s2), start, length);
            const bool nyquist2 = 2u * k2 == n2;
            if (scaled && (nyquist1 || nyquist2))
            {
                const vec2 mirrored = chunkSum(tapsAt(positionOf(-signed2, s2, n2), s2), start, length);
                if (nyquist2)
                    value = 0.5 * (value + mirrored);
                if (nyquist1)
                    value = nyquist2 ? vec2(value.x, 0.0) : 0.5 * (value + vec2(mirrored.x, -mirrored.y));
            }
            if (start > 0u)
                value += kernelSpectrumAt(channel, line + k2);
            storeKernelSpectrum(channel, line + k2, value);
        }
    }
}
