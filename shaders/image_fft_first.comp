// SPDX-License-Identifier: MIT
// Pass 1: real-packed forward FFT of two prefiltered frame lines along the first axis (at reduced resolution, lines of
// the frame downsampled f x per axis); stores their half spectra.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "shared/fftb_shared.h"
#include "fft.glsl"
#include "common.glsl"
#include "frame_views.glsl"
#include "frame_lines.glsl"

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
