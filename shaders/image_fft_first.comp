// SPDX-License-Identifier: MIT
// Pass 1: real-packed forward FFT of two prefiltered frame lines along the first axis; stores their half spectra.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "shared/fftb_shared.h"
#include "fft.glsl"
#include "common.glsl"

layout(set = 0, binding = FFTB_BINDING_INPUT_IMAGE) uniform sampler2D inputImage;

// The prefiltered colour at padded position i of line v (0 in the zero padding and past the frame's last line).
vec3 frameColour(uint i, uint v)
{
    const int u = paddedSource(i, pc.imageLength1, FFT_LENGTH, pc.mirrorSplit1);
    if (u < 0 || v >= pc.imageLength2)
        return vec3(0.0);
    return prefilter(texelFetch(inputImage, imageCoord(uint(u), v), 0).rgb);
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
