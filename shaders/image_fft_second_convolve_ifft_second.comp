// SPDX-License-Identifier: MIT
// Pass 2: per half-spectrum line, forward FFT along the second axis, Hadamard product with the kernel spectrum
// at the frame's frequencies, blended toward the Dirac delta), inverse FFT; stores the lines pass 3 reads.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared/fftb_shared.h"
#include "fft.glsl"
#include "common.glsl"

// The line's Hadamard product with the kernel spectrum at frequency line k1, on the slots after the forward FFT: the
// kernel spectrum at the frame's frequencies (exact mode's, or resampled mode's resolved once per kernel and plan,
// kernel_resolve_spectrum.comp), [k1][k2] from element `line` = pc.resolvedSpectrumStart + k1 N2 of the channel's
// binding `spectrum` (hadamardProduct). A macro, instantiated once per channel binding: the loop inside the channel's branch
// issues its loads together, where a branch per element (kernelSpectrumAt) costs pass 2 a tenth of its time.
#define FFTB_HADAMARD_PRODUCT(spectrum)                                                                                \
    for (uint e = 0u; e < ELEMENTS; ++e)                                                                               \
    {                                                                                                                  \
        const uint k2 = fftFrequencyIndex(e);                                                                          \
        if (k2 >= FFT_LENGTH)                                                                                          \
            break;                                                                                                     \
        fftPut(e, hadamardProduct(spectrum[line + k2], fftGet(e)));                                                    \
    }

void convolveLine(uint channel, uint k1)
{
    const uint line = pc.resolvedSpectrumStart + k1 * FFT_LENGTH;
    if (channel == 0u)
        FFTB_HADAMARD_PRODUCT(kernelSpectrumR)
    else if (channel == 1u)
        FFTB_HADAMARD_PRODUCT(kernelSpectrumG)
    else
        FFTB_HADAMARD_PRODUCT(kernelSpectrumB)
}

void main()
{
    const uint k1 = gl_WorkGroupID.x;
    const uint channel = gl_WorkGroupID.y;
    const uint halfLines = pc.paddedLength1 / 2u + 1u;
    // Padding along the second axis is applied here (paddedSecondAxisElement).
    vec2 held[FFTB_MAX_ELEMENTS_PER_INVOCATION];
    for (uint e = 0u; e < ELEMENTS; ++e)
    {
        const uint i = fftTimeIndex(e);
        held[e] = i < FFT_LENGTH ? paddedSecondAxisElement(channel, k1, halfLines, i, FFT_LENGTH) : vec2(0.0);
    }
    fftPutAll(held);
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
