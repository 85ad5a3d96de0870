// SPDX-License-Identifier: MIT
// Pass 3: rebuilds two lines' full spectra from their halves, inverse FFT along the first axis, crops to the
// frame and writes the tinted bloom of the prefiltered frame p, or a composite: energy-conserving
// in + intensity * (bloom - p) or additive in + intensity * bloom; alpha passes through. With zero padding and
// normalized convolution the bloom is first divided by the border weights, or, the first time, written to them
// (fftb_shared.h); a far field's bloom is added (composite.glsl). At reduced resolution the tinted bloom goes into the
// scratch, for pass 4.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "shared/fftb_shared.h"
#include "fft.glsl"
#include "common.glsl"
#define FFTB_WRITES_OUTPUT
#include "frame_views.glsl"
#include "composite.glsl"

// Lines v0 and v0 + 1 packed again, Z = A + i B, into the FFT (packedSpectrumBins).
void loadPackedSpectrum(uint channel, uint v0)
{
    if (SPLIT_RADIX == 1u)
    {
        for (uint k = gl_LocalInvocationID.x; 2u * k <= FFT_LENGTH; k += WORKGROUP_SIZE)
        {
            vec2 z, zMirror;
            packedSpectrumBins(channel, v0, k, z, zMirror);
            fftSharedPut(k, z);
            if (k != 0u && 2u * k != FFT_LENGTH)
                fftSharedPut(FFT_LENGTH - k, zMirror);
        }
        return;
    }
    // Long lines hold their frequencies in registers (fftFrequencyIndex): each reads its own, A and B through the
    // mirror bin N - i past N/2.
    for (uint e = 0u; e < ELEMENTS; ++e)
    {
        const uint i = fftFrequencyIndex(e);
        const bool mirrored = 2u * i > FFT_LENGTH;
        const uint k = mirrored ? FFT_LENGTH - i : i;
        vec2 a = halfSpectrum(channel, k, v0);
        vec2 b = halfSpectrum(channel, k, v0 + 1u);
        if (mirrored)
        {
            a = conjugate(a);
            b = conjugate(b);
        }
        fftPut(e, vec2(a.x - b.y, a.y + b.x));
    }
}

void main()
{
    const uint v0 = 2u * gl_WorkGroupID.x;
    const uint v1 = v0 + 1u;
    // Per channel, (line v0, line v1) at each held position: three arrays, so no run-time index selects one.
    vec2 red[FFTB_MAX_ELEMENTS_PER_INVOCATION], green[FFTB_MAX_ELEMENTS_PER_INVOCATION],
        blue[FFTB_MAX_ELEMENTS_PER_INVOCATION];
    for (uint channel = 0u; channel < 3u; ++channel)
    {
        loadPackedSpectrum(channel, v0);
        fftRun(true);
        // After the inverse FFT, Re z is line v0 and Im z line v1.
        [[unroll]] for (uint e = 0u; e < FFTB_MAX_ELEMENTS_PER_INVOCATION; ++e)
        {
            const vec2 z = e < ELEMENTS && fftTimeIndex(e) < FFT_LENGTH ? fftGet(e) : vec2(0.0);
            if (channel == 0u)
                red[e] = z;
            else if (channel == 1u)
                green[e] = z;
            else
                blue[e] = z;
        }
        fftSync();
    }
    [[unroll]] for (uint e = 0u; e < FFTB_MAX_ELEMENTS_PER_INVOCATION; ++e)
    {
        const uint u = fftTimeIndex(e);
        if (e >= ELEMENTS || u >= pc.imageLength1)
            break;
        writeTexel(u, v0, vec3(red[e].x, green[e].x, blue[e].x));
        if (v1 < pc.imageLength2)
            writeTexel(u, v1, vec3(red[e].y, green[e].y, blue[e].y));
    }
}
