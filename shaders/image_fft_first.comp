// Pass 1: real-packed forward FFT of two prefiltered frame lines along the first axis; stores their half spectra.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared/fftb_shared.h"
#include "fft.glsl"
#include "common.glsl"

layout(set = 0, binding = FFTB_BINDING_INPUT_IMAGE) uniform sampler2D inputImage;

float frameTexel(int u, uint v, uint channel)
{
    if (u < 0 || v >= pc.imageLength2)
        return 0.0;
    return prefilter(texelFetch(inputImage, imageCoord(uint(u), v), 0).rgb)[channel];
}

void main()
{
    const uint v0 = 2u * gl_WorkGroupID.x;
    const uint v1 = v0 + 1u;
    for (uint channel = 0u; channel < 3u; ++channel)
    {
        // Two real lines as one complex line z = a + i b.
        for (uint e = 0u; e < ELEMENTS; ++e)
        {
            const uint i = fftTimeIndex(e);
            if (i >= FFT_LENGTH)
                break;
            const int u = paddedSource(i, pc.imageLength1, FFT_LENGTH, pc.mirrorSplit1);
            fftPut(e, vec2(frameTexel(u, v0, channel), frameTexel(u, v1, channel)));
        }
        fftRun(false);
        storeHalfSpectra(channel, v0, pc.imageLength2);
        fftSync();
    }
}
