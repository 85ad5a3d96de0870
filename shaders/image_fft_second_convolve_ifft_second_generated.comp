// SPDX-License-Identifier: MIT
// Pass 2 on the generated FFT (plugin/plan/fft_codegen.h): per half-spectrum line, forward FFT along the second axis,
// Hadamard product with the kernel spectrum at the frame's frequencies (blended toward the Dirac delta), inverse FFT
// starting on the forward's registers; stores the lines pass 3 reads.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared/fftb_shared.h"
#include "common.glsl"
#include "fft_generated.glsl"

uint k1, channel, halfLines, spectrumLine;

#define FFTB_LOAD(i, z) z = paddedSecondAxisElement(channel, k1, halfLines, i, FFT_LENGTH);
#define FFTB_STORE(v, z)                                                                                               \
    if (v < pc.imageLength2)                                                                                           \
        storeIntermediate(intermediateIndex(channel, k1, halfLines, v, pc.imageLength2), z);
// The product with the kernel spectrum at the frame's frequencies (exact mode's, or resampled mode's resolved once per
// kernel and plan, kernel_resolve_spectrum.comp), from element `spectrumLine` of the channel's binding: one expansion
// per binding inside the channel's branch.
#define FFTB_MULTIPLY_R(k2, z) z = hadamardProduct(kernelSpectrumR[spectrumLine + k2], z);
#define FFTB_MULTIPLY_G(k2, z) z = hadamardProduct(kernelSpectrumG[spectrumLine + k2], z);
#define FFTB_MULTIPLY_B(k2, z) z = hadamardProduct(kernelSpectrumB[spectrumLine + k2], z);

void main()
{
    k1 = gl_WorkGroupID.x;
    channel = gl_WorkGroupID.y;
    halfLines = pc.paddedLength1 / 2u + 1u;
    spectrumLine = pc.resolvedSpectrumStart + k1 * FFT_LENGTH;
    FFTB_FFT_TIME_SLOTS(FFTB_LOAD)
    fftForward();
    if (channel == 0u)
        FFTB_FFT_FREQUENCY_SLOTS(FFTB_MULTIPLY_R)
    else if (channel == 1u)
        FFTB_FFT_FREQUENCY_SLOTS(FFTB_MULTIPLY_G)
    else
        FFTB_FFT_FREQUENCY_SLOTS(FFTB_MULTIPLY_B)
    fftInverse();
    FFTB_FFT_TIME_SLOTS(FFTB_STORE)
}
