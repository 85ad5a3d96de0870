// Pass 2: per half-spectrum line, forward FFT along the second axis, Hadamard product with the kernel spectrum
// (resampled or exact, blended toward the Dirac delta), inverse FFT; stores the lines pass 3 reads.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared/fftb_shared.h"
#include "fft.glsl"
#include "common.glsl"

// The kernel's centred spectrum at frame frequency (k1, k2). Resampled: bilinear at k * S / N, periodic in
// S2; k1 never leaves the stored half [0, S1/2] because the frame's k1 <= N1/2 maps to <= S1/2.
vec2 kernelSpectrumAt(uint channel, uint k1, uint k2)
{
    const uint halfLines = pc.spectrumLength1 / 2u + 1u;
    const uint base = channel * halfLines;
    if (pc.resampled == 0u)
        return kernelSpectrum[(base + k1) * pc.spectrumLength2 + k2];
    const int signedK2 = 2u * k2 < FFT_LENGTH ? int(k2) : int(k2) - int(FFT_LENGTH);
    const float x = float(k1) * float(pc.spectrumLength1) / float(pc.paddedLength1);
    const float y = float(signedK2) * float(pc.spectrumLength2) / float(FFT_LENGTH);
    const float x0 = floor(x);
    const float y0 = floor(y);
    const vec2 f = vec2(x - x0, y - y0);
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

void main()
{
    const uint k1 = gl_WorkGroupID.x;
    const uint channel = gl_WorkGroupID.y;
    const uint line = (channel * (pc.paddedLength1 / 2u + 1u) + k1) * pc.imageLength2;
    // Padding along the second axis is applied here: lines in the padding are zero or mirrors of stored lines.
    for (uint e = 0u; e < ELEMENTS; ++e)
    {
        const uint i = fftTimeIndex(e);
        if (i >= FFT_LENGTH)
            break;
        const int v = paddedSource(i, pc.imageLength2, FFT_LENGTH, pc.mirrorSplit2);
        fftPut(e, v < 0 ? vec2(0.0) : intermediate[line + uint(v)]);
    }
    fftRun(false);
    for (uint e = 0u; e < ELEMENTS; ++e)
    {
        const uint k2 = fftFrequencyIndex(e);
        if (k2 >= FFT_LENGTH)
            break;
        const vec2 kernel = (1.0 - pc.sharpen) * kernelSpectrumAt(channel, k1, k2) + vec2(pc.sharpen, 0.0);
        fftPut(e, pc.scale * cmul(fftGet(e), kernel));
    }
    fftRun(true);
    for (uint e = 0u; e < ELEMENTS; ++e)
    {
        const uint v = fftTimeIndex(e);
        if (v >= pc.imageLength2)
            break;
        intermediate[line + v] = fftGet(e);
    }
}
