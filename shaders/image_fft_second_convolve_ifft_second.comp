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
// binding `spectrum`, blended toward the Dirac delta (sharpening t: (1 - t) K + t) and scaled by the inverse
// transforms' normalization. A macro, instantiated once per channel binding: the loop inside the channel's branch
// issues its loads together, where a branch per element (kernelSpectrumAt) costs pass 2 a tenth of its time.
#define FFTB_HADAMARD_PRODUCT(spectrum)                                                                                \
    for (uint e = 0u; e < ELEMENTS; ++e)                                                                               \
    {                                                                                                                  \
        const uint k2 = fftFrequencyIndex(e);                                                                          \
        if (k2 >= FFT_LENGTH)                                                                                          \
            break;                                                                                                     \
        const vec2 kernel = (1.0 - pc.sharpen) * spectrum[line + k2] + vec2(pc.sharpen, 0.0);                          \
        fftPut(e, pc.inverseScale * cmul(fftGet(e), kernel));                                                          \
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
    // Padding along the second axis is applied here: lines in the padding are zero or mirrors of stored lines. The
    // line's elements lie 32 bytes apart (intermediateIndex): the other lines of its block, read by the neighbouring
    // workgroups at about the same time, share their sectors in L2.
    vec2 held[FFTB_MAX_ELEMENTS_PER_INVOCATION];
    for (uint e = 0u; e < ELEMENTS; ++e)
    {
        const uint i = fftTimeIndex(e);
        const int v = i < FFT_LENGTH ? paddedSource(i, pc.imageLength2, FFT_LENGTH, pc.mirrorSplit2) : -1;
        const uint at = v < 0 ? 0u : intermediateIndex(channel, k1, halfLines, uint(v), pc.imageLength2);
        held[e] = v < 0 ? vec2(0.0) : loadIntermediate(at);
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
