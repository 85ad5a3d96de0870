// SPDX-License-Identifier: MIT
// Kernel spectrum, step 1: real-packed forward FFT of two kernel lines along the first axis, the kernel (in exact mode
// resampled in space to its extent on the frame) wrapped into the spectrum extent S1 x S2; stores their half spectra
// in the intermediate buffer.
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

// The kernel resampled in space to its extent on the frame, along one axis (plugin/plan/plan.h, "Kernel scale"):
// source texel x, at frame offset q = sigma (x - c) from the centre, spreads over the offsets d of the placed kernel,
// -c' <= d < P - c', by the tent t(d) = max(0, 1 - |d - q| / s), s = max(sigma, 1) (linear interpolation when
// magnified, linear splatting when minified), normalized to unit sum over those d: the kernel keeps its mass, and at
// sigma = 1 each texel lands on one offset with weight 1. `sourceLength` K and centre c = K / 2; `placedLength` P and
// centre c' (the push constants' kernel lengths and centres in the spectrum passes).
float tentWeight(int d, int x, uint sourceLength, uint placedLength, uint placedCentre)
{
    const float sigma = pc.kernelScale, reach = max(sigma, 1.0);
    const float q = sigma * float(x - int(sourceLength / 2u));
    const float raw = max(1.0 - abs(float(d) - q) / reach, 0.0);
    if (raw == 0.0)
        return 0.0;
    const int first = max(-int(placedCentre), int(ceil(q - reach)));
    const int last = min(int(placedLength - placedCentre) - 1, int(floor(q + reach)));
    float norm = 0.0;
    for (int e = first; e <= last; ++e)
        norm += max(1.0 - abs(float(e) - q) / reach, 0.0);
    return raw / norm;
}

// The source texels x whose tent reaches offset d: x in (c + (d - s) / sigma, c + (d + s) / sigma), within [0, K).
ivec2 tentSources(int d, uint sourceLength)
{
    const float sigma = pc.kernelScale, reach = max(sigma, 1.0), c = float(sourceLength / 2u);
    return ivec2(max(int(floor(c + (float(d) - reach) / sigma)), 0),
                 min(int(ceil(c + (float(d) + reach) / sigma)), int(sourceLength) - 1));
}

// Texel (i, j) of the placed kernel, i along the first axis: in resampled mode the kernel's own texel (the resolve
// pass scales its spectrum), in exact mode the sum of the source texels' tents (tentWeight) at offset
// (i - c'1, j - c'2). Source texels are pc.imageLength1 x pc.imageLength2 along the axes.
float placedTexel(uint i, uint j, uint channel)
{
    const bool firstIsX = (pc.flags & FFTB_GPU_FLAG_FIRST_AXIS_IS_X) != 0u;
    const uint sourceX = firstIsX ? pc.imageLength1 : pc.imageLength2;
    const uint sourceY = firstIsX ? pc.imageLength2 : pc.imageLength1;
    if ((pc.flags & FFTB_GPU_FLAG_RESAMPLED) != 0u || pc.kernelScale == 1.0)
    {
        const ivec2 p = imageCoord(i, j);
        return kernelTexels[(channel * sourceY + uint(p.y)) * sourceX + uint(p.x)];
    }
    const int d1 = int(i) - int(pc.kernelCentre1), d2 = int(j) - int(pc.kernelCentre2);
    const ivec2 range1 = tentSources(d1, pc.imageLength1), range2 = tentSources(d2, pc.imageLength2);
    float sum = 0.0;
    for (int x2 = range2.x; x2 <= range2.y; ++x2)
    {
        const float w2 = tentWeight(d2, x2, pc.imageLength2, pc.kernelLength2, pc.kernelCentre2);
        if (w2 == 0.0)
            continue;
        float row = 0.0;
        for (int x1 = range1.x; x1 <= range1.y; ++x1)
        {
            const float w1 = tentWeight(d1, x1, pc.imageLength1, pc.kernelLength1, pc.kernelCentre1);
            const ivec2 p = imageCoord(uint(x1), uint(x2));
            row += w1 * kernelTexels[(channel * sourceY + uint(p.y)) * sourceX + uint(p.x)];
        }
        sum += w2 * row;
    }
    return sum;
}

// The placed kernel (pc.kernelLength1 x pc.kernelLength2) aliased into [0, S1) x [0, S2): taps congruent modulo S
// sum. They can only alias when S < P, which happens in exact mode for frames smaller than half the kernel, where
// aliased taps never reach the frame (plan.h: N >= L + P/2).
float kernelTexel(uint u, uint v, uint channel)
{
    float sum = 0.0;
    for (uint i = u; i < pc.kernelLength1; i += FFT_LENGTH)
        for (uint j = v; j < pc.kernelLength2; j += pc.spectrumLength2)
            sum += placedTexel(i, j, channel);
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
