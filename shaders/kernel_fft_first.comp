// SPDX-License-Identifier: MIT
// Kernel spectrum, step 1: real-packed forward FFT of two kernel lines along the first axis, the kernel wrapped
// into the spectrum extent S1 x S2; stores their half spectra in the intermediate buffer.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared/fftb_shared.h"
#include "fft.glsl"
#include "common.glsl"

// Planar RGB, x fastest: texels[(channel * Ky + y) * Kx + x].
layout(set = 0, binding = FFTB_BINDING_KERNEL_TEXELS, std430) readonly buffer KernelTexels
{
    float kernelTexels[];
};

// The kernel aliased into [0, S1) x [0, S2): taps congruent modulo S sum. They can only alias when S < K, which
// happens in exact mode for frames smaller than half the kernel, where aliased taps never reach the frame
// (plan.h: N >= L + K/2).
float kernelTexel(uint u, uint v, uint channel)
{
    float sum = 0.0;
    const uint kernelLengthX = (pc.flags & FFTB_GPU_FLAG_FIRST_AXIS_IS_X) != 0u ? pc.kernelLength1 : pc.kernelLength2;
    const uint kernelLengthY = (pc.flags & FFTB_GPU_FLAG_FIRST_AXIS_IS_X) != 0u ? pc.kernelLength2 : pc.kernelLength1;
    for (uint i = u; i < pc.kernelLength1; i += FFT_LENGTH)
    {
        for (uint j = v; j < pc.kernelLength2; j += pc.spectrumLength2)
        {
            const ivec2 p = imageCoord(i, j);
            sum += kernelTexels[(channel * kernelLengthY + uint(p.y)) * kernelLengthX + uint(p.x)];
        }
    }
    return sum;
}

void main()
{
    const uint storedLines = min(pc.kernelLength2, pc.spectrumLength2);
    const uint v0 = 2u * gl_WorkGroupID.x;
    const uint v1 = v0 + 1u;
    for (uint channel = 0u; channel < 3u; ++channel)
    {
        vec2 held[FFTB_MAX_ELEMENTS_PER_INVOCATION];
        for (uint e = 0u; e < ELEMENTS; ++e)
        {
            const uint i = min(fftTimeIndex(e), FFT_LENGTH - 1u); // past the line: put by no slot
            const float b = v1 < storedLines ? kernelTexel(i, v1, channel) : 0.0;
            held[e] = vec2(kernelTexel(i, v0, channel), b);
        }
        fftPutAll(held);
        fftRun(false);
        storeHalfSpectra(channel, v0, storedLines);
        fftSync();
    }
}
