// SPDX-License-Identifier: MIT
// Pass 2: per half-spectrum line, forward FFT along the second axis, Hadamard product with the kernel spectrum
// (resampled or exact, blended toward the Dirac delta), inverse FFT; stores the lines pass 3 reads.
#version 450
#extension GL_GOOGLE_include_directive : require
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

// Keys' cubic convolution weights (a = -1/2) of the taps at offsets -1, 0, 1, 2 from floor(x), f = x - floor(x).
vec4 cubicWeights(float f)
{
    const float f2 = f * f;
    const float f3 = f2 * f;
    return vec4(-0.5 * f3 + f2 - 0.5 * f, 1.5 * f3 - 2.5 * f2 + 1.0, -1.5 * f3 + 2.0 * f2 + 0.5 * f,
                0.5 * f3 - 0.5 * f2);
}

// The kernel's centred spectrum, interpolated (bilinear or Keys cubic, FftbSpectrumInterpolation) at (x, y) in units
// of its bins, x >= 0: the linear taps stay in the stored half (x <= S1/2) and the cubic ones at its two ends mirror
// through Hermitian symmetry. Past the stored Nyquist (x > S1/2 or |y| > S2/2, only for a kernel scale sigma > 1) the
// scaled kernel is band-limited: zero, not the spectrum's periodic repetition.
vec2 resampledSpectrum(uint base, float x, float y)
{
    if (2.0 * x > float(pc.spectrumLength1) || 2.0 * abs(y) > float(pc.spectrumLength2))
        return vec2(0.0);
    const uint halfLines = pc.spectrumLength1 / 2u + 1u;
    const float x0 = floor(x);
    const float y0 = floor(y);
    const vec2 f = vec2(x - x0, y - y0);
    if (pc.interpolation == FFTB_GPU_INTERPOLATION_CUBIC)
    {
        const vec4 wx = cubicWeights(f.x);
        const vec4 wy = cubicWeights(f.y);
        const int i0 = int(x0) - 1;
        const int j0 = int(y0) - 1;
        vec2 sum = vec2(0.0);
        for (int dj = 0; dj < 4; ++dj)
        {
            vec2 row = vec2(0.0);
            for (int di = 0; di < 4; ++di)
                row += wx[di] * kernelSpectrumBin(base, i0 + di, j0 + dj);
            sum += wy[dj] * row;
        }
        return sum;
    }
    const uint xa = uint(x0);
    const uint xb = min(xa + 1u, halfLines - 1u);
    const uint mask = pc.spectrumLength2 - 1u; // resampled spectra have power-of-two extents
    const uint ya = uint(int(y0)) & mask;
    const uint yb = (ya + 1u) & mask;
    const vec2 a = mix(kernelSpectrum[(base + xa) * pc.spectrumLength2 + ya],
                       kernelSpectrum[(base + xb) * pc.spectrumLength2 + ya], f.x);
    const vec2 b = mix(kernelSpectrum[(base + xa) * pc.spectrumLength2 + yb],
                       kernelSpectrum[(base + xb) * pc.spectrumLength2 + yb], f.x);
    return mix(a, b, f.y);
}

// The kernel's centred spectrum at frame frequency (k1, k2). Resampled: at sigma * k * S / N (sigma the kernel scale,
// FftbBloomInfo::kernelScale; k2 signed).
vec2 kernelSpectrumAt(uint channel, uint k1, uint k2)
{
    const uint base = channel * (pc.spectrumLength1 / 2u + 1u);
    if (pc.resampled == 0u)
        return kernelSpectrum[(base + k1) * pc.spectrumLength2 + k2];
    const int signedK2 = 2u * k2 < FFT_LENGTH ? int(k2) : int(k2) - int(FFT_LENGTH);
    // sigma multiplies last, so sigma = 1 reads exactly the frequencies of an unscaled kernel.
    const float x = pc.kernelScale * (float(k1) * float(pc.spectrumLength1) / float(pc.paddedLength1));
    const float y = pc.kernelScale * (float(signedK2) * float(pc.spectrumLength2) / float(FFT_LENGTH));
    vec2 value = resampledSpectrum(base, x, y);
    // At an even length's Nyquist bin, k and -k are one frequency, read at +sigma S/2 and -sigma S/2: their mean keeps
    // the product Hermitian, so the first axis's DC and Nyquist lines stay real for pass 3 (K(-x, y) = conj K(x, -y)).
    // With sigma = 1 both sides are the same stored bins (the spectrum is periodic in S): nothing to average.
    const bool nyquist1 = 2u * k1 == pc.paddedLength1;
    const bool nyquist2 = 2u * k2 == FFT_LENGTH;
    if (pc.kernelScale != 1.0 && (nyquist1 || nyquist2))
    {
        const vec2 mirrored = resampledSpectrum(base, x, -y);
        if (nyquist2)
            value = 0.5 * (value + mirrored);
        if (nyquist1)
            value = nyquist2 ? vec2(value.x, 0.0) : 0.5 * (value + conjugate(mirrored));
    }
    return value;
}

// The line's Hadamard product with the kernel spectrum at frequency line k1, blended toward the Dirac delta
// (sharpening t: (1 - t) K + t) and scaled by the inverse transforms' normalization, on the slots after the forward FFT.
void convolveLine(uint channel, uint k1)
{
    for (uint e = 0u; e < ELEMENTS; ++e)
    {
        const uint k2 = fftFrequencyIndex(e);
        if (k2 >= FFT_LENGTH)
            break;
        const vec2 kernel = (1.0 - pc.sharpen) * kernelSpectrumAt(channel, k1, k2) + vec2(pc.sharpen, 0.0);
        fftPut(e, pc.inverseScale * cmul(fftGet(e), kernel));
    }
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
        fftPut(e, v < 0 ? vec2(0.0) : intermediate[at]);
    }
    fftRun(false);
    convolveLine(channel, k1);
    fftRun(true);
    for (uint e = 0u; e < ELEMENTS; ++e)
    {
        const uint v = fftTimeIndex(e);
        if (v >= pc.imageLength2)
            break;
        intermediate[intermediateIndex(channel, k1, halfLines, v, pc.imageLength2)] = fftGet(e);
    }
}
