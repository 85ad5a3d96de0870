// Pass 3: rebuilds two lines' full spectra from their halves, inverse FFT along the first axis, crops to the
// frame and writes the bloom of the prefiltered frame p, or a composite: energy-conserving in + intensity * (bloom - p)
// or additive in + intensity * bloom; alpha passes through.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared/fftb_shared.h"
#include "fft.glsl"
#include "common.glsl"

layout(set = 0, binding = FFTB_BINDING_INPUT_IMAGE) uniform sampler2D inputImage;
layout(set = 0, binding = FFTB_BINDING_OUTPUT_IMAGE) uniform writeonly image2D outputImage;

// The half-spectrum value of line v at frequency k of the full length, by Hermitian symmetry
// X[N - k] = conj X[k]. DC and Nyquist of a real line are real.
vec2 halfSpectrum(uint channel, uint i, uint v)
{
    if (v >= pc.imageLength2)
        return vec2(0.0);
    const uint k = i <= FFT_LENGTH / 2u ? i : FFT_LENGTH - i;
    const vec2 x = intermediate[(channel * (FFT_LENGTH / 2u + 1u) + k) * pc.imageLength2 + v];
    if (k == 0u || k == FFT_LENGTH / 2u)
        return vec2(x.x, 0.0);
    return i == k ? x : conjugate(x);
}

void writeTexel(uint u, uint v, vec3 bloom)
{
    const ivec2 p = imageCoord(u, v);
    const vec4 source = texelFetch(inputImage, p, 0);
    vec3 rgb = bloom;
    if (pc.outputMode == FFTB_GPU_OUTPUT_COMPOSITE)
        rgb = source.rgb + pc.intensity * (bloom - prefilter(source.rgb));
    else if (pc.outputMode == FFTB_GPU_OUTPUT_ADDITIVE)
        rgb = source.rgb + pc.intensity * bloom;
    imageStore(outputImage, p, vec4(rgb, source.a));
}

void main()
{
    const uint v0 = 2u * gl_WorkGroupID.x;
    const uint v1 = v0 + 1u;
    vec2 lines[3][FFTB_MAX_ELEMENTS_PER_INVOCATION]; // per channel: (line v0, line v1) at each held position
    for (uint channel = 0u; channel < 3u; ++channel)
    {
        // Z = A + i B packs the two lines again; after the inverse FFT, Re z is line v0 and Im z line v1.
        for (uint e = 0u; e < ELEMENTS; ++e)
        {
            const uint i = fftFrequencyIndex(e);
            if (i >= FFT_LENGTH)
                break;
            const vec2 a = halfSpectrum(channel, i, v0);
            const vec2 b = halfSpectrum(channel, i, v1);
            fftPut(e, vec2(a.x - b.y, a.y + b.x));
        }
        fftRun(true);
        for (uint e = 0u; e < ELEMENTS; ++e)
            lines[channel][e] = fftTimeIndex(e) < FFT_LENGTH ? fftGet(e) : vec2(0.0);
        fftSync();
    }
    for (uint e = 0u; e < ELEMENTS; ++e)
    {
        const uint u = fftTimeIndex(e);
        if (u >= pc.imageLength1)
            break;
        writeTexel(u, v0, vec3(lines[0][e].x, lines[1][e].x, lines[2][e].x));
        if (v1 < pc.imageLength2)
            writeTexel(u, v1, vec3(lines[0][e].y, lines[1][e].y, lines[2][e].y));
    }
}
