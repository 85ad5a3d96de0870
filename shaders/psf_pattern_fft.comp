// SPDX-License-Identifier: MIT
// PSF generator, step 2: forward FFT of one column k1 of the aperture rows' middle spectra (rows outside the aperture
// are zero), and the diffraction pattern |F|^2 (Fraunhofer) written FFT-shifted to column N/2 + k1 of the pattern and,
// since the aperture is real (|F(-k)| = |F(k)|), mirrored to column N/2 - k1.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared/fftb_shared.h"
#include "fft.glsl"
#include "psf.glsl"

void main()
{
    const uint k1 = gl_WorkGroupID.x;
    const uint n = FFT_LENGTH, middle = FFT_LENGTH / 2u;
    vec2 held[FFTB_MAX_ELEMENTS_PER_INVOCATION];
    for (uint e = 0u; e < ELEMENTS; ++e)
    {
        const uint i = fftTimeIndex(e);
        const bool inside = i >= pc.firstRow && i < pc.firstRow + pc.rows;
        const uint at = intermediateIndex(0u, k1, middle + 1u, i - pc.firstRow, pc.rows);
        held[e] = inside ? loadIntermediate(at) : vec2(0.0);
    }
    fftPutAll(held);
    fftRun(false);
    // Columns N/2 .. N-1 come from k1 < N/2, column 0 from k1 = N/2 and columns 1 .. N/2 - 1 from the mirrors of
    // k1 = 1 .. N/2 - 1: each column is written once.
    const uint column = (middle + k1) % n;
    for (uint e = 0u; e < ELEMENTS; ++e)
    {
        const uint k2 = fftFrequencyIndex(e);
        if (k2 >= FFT_LENGTH)
            break;
        const vec2 f = fftGet(e);
        const float power = dot(f, f);
        setPsfWord(pc.patternStart + ((k2 + middle) % n) * n + column, power);
        if (k1 >= 1u && k1 < middle)
            setPsfWord(pc.patternStart + ((n - k2 + middle) % n) * n + middle - k1, power);
    }
}
