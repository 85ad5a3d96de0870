// SPDX-License-Identifier: MIT
// Pass 1: real-packed forward FFT of two prefiltered frame lines along the first axis (at half resolution, lines of
// the frame downsampled 2x per axis); stores their half spectra.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "shared/fftb_shared.h"
#include "fft.glsl"
#include "common.glsl"
#include "frame_views.glsl"

// Texel (x, y) of the image transformed: the prefiltered frame texel, or at half resolution the mean of the
// prefiltered frame texels (2x, 2y) .. (2x + 1, 2y + 1), a texel past the frame's last column or row standing for
// the last (a box filter: the bloom is low-frequency).
vec3 prefilteredTexel(ivec2 texel)
{
    if (!halfResolution())
        return prefilter(fetchFrame(texel).rgb);
    const ivec2 last = ivec2(frameExtent()) - 1;
    const ivec2 a = 2 * texel, b = min(a + 1, last);
    return 0.25 * (prefilter(fetchFrame(a).rgb) + prefilter(fetchFrame(ivec2(b.x, a.y)).rgb) +
                   prefilter(fetchFrame(ivec2(a.x, b.y)).rgb) + prefilter(fetchFrame(b).rgb));
}

// The prefiltered colour at padded position i of line v (0 in the zero padding and past the image's last line); 1
// inside the image when pass 3 writes the border weights (the image's indicator).
vec3 frameColour(uint i, uint v)
{
    const int u = paddedSource(i, pc.imageLength1, FFT_LENGTH, pc.mirrorSplit1);
    if (u < 0 || v >= pc.imageLength2)
        return vec3(0.0);
    if (pc.borderWeights == FFTB_GPU_BORDER_WEIGHTS_WRITE)
        return vec3(1.0);
    return prefilteredTexel(imageCoord(uint(u), v));
}

// Channel c of a colour, selected rather than indexed (a run-time index can move the colour to local memory).
float component(vec3 colour, uint c)
{
    return c == 0u ? colour.r : c == 1u ? colour.g : colour.b;
}

void main()
{
    const uint v0 = 2u * gl_WorkGroupID.x;
    const uint v1 = v0 + 1u;
    // Every texel is fetched and prefiltered once, for all three channels, before the first FFT. The loops over the
    // held texels unroll to the array's constant size (the slots past ELEMENTS drop out once it is specialized), so
    // the arrays stay in registers: indexed by a loop the driver did not unroll they went to local memory.
    vec3 line0[FFTB_MAX_ELEMENTS_PER_INVOCATION], line1[FFTB_MAX_ELEMENTS_PER_INVOCATION];
    [[unroll]] for (uint e = 0u; e < FFTB_MAX_ELEMENTS_PER_INVOCATION; ++e)
    {
        const uint i = fftTimeIndex(e);
        line0[e] = e < ELEMENTS && i < FFT_LENGTH ? frameColour(i, v0) : vec3(0.0);
        line1[e] = e < ELEMENTS && i < FFT_LENGTH ? frameColour(i, v1) : vec3(0.0);
    }
    for (uint channel = 0u; channel < 3u; ++channel)
    {
        // Two real lines as one complex line z = a + i b.
        [[unroll]] for (uint e = 0u; e < FFTB_MAX_ELEMENTS_PER_INVOCATION; ++e)
            if (e < ELEMENTS && fftTimeIndex(e) < FFT_LENGTH)
                fftPut(e, vec2(component(line0[e], channel), component(line1[e], channel)));
        fftRun(false);
        storeHalfSpectra(channel, v0, pc.imageLength2);
        fftSync();
    }
}
