// SPDX-License-Identifier: MIT
// Kernel spectrum, step 2: forward FFT along the second axis, then the FFT-shift as a phase factor
// exp(2 pi i (k1 c1 / S1 + k2 c2 / S2)) (DFT shift theorem; "FFT Bloom Optimized to the Bone", "The FFTShift"), which
// moves the kernel's centre c to the origin: for even S and c = S/2 it is the sign flip (-1)^(k1 + k2).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared/fftb_shared.h"
#include "fft.glsl"
#include "common.glsl"

void main()
{
    const uint k1 = gl_WorkGroupID.x;
    const uint channel = gl_WorkGroupID.y;
    const uint storedLines = min(pc.kernelLength2, pc.spectrumLength2);
    const uint halfLines = pc.spectrumLength1 / 2u + 1u;
    vec2 held[FFTB_MAX_ELEMENTS_PER_INVOCATION];
    for (uint e = 0u; e < ELEMENTS; ++e)
    {
        const uint i = fftTimeIndex(e);
        const uint at = intermediateIndex(channel, k1, halfLines, i, storedLines);
        held[e] = i < storedLines ? loadIntermediate(at) : vec2(0.0);
    }
    fftPutAll(held);
    fftRun(false);
    // Both phase terms index the twiddle tables exactly: exp(2 pi i m / S) = conj(table[m mod S]).
    const vec2 phase1 = anyTableTwiddle(pc.spectrumTwiddleOffset1, pc.spectrumLength1,
                                        (k1 * pc.kernelCentre1) % pc.spectrumLength1, true);
    for (uint e = 0u; e < ELEMENTS; ++e)
    {
        const uint k2 = fftFrequencyIndex(e);
        if (k2 >= FFT_LENGTH)
            break;
        const vec2 phase2 = lineTwiddle((k2 * pc.kernelCentre2) % FFT_LENGTH, true);
        storeKernelSpectrum(channel, k1 * FFT_LENGTH + k2, cmul(fftGet(e), cmul(phase1, phase2)));
    }
}
