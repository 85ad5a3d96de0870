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

// Weight of a tap t stored bins from the reading position (FftbSpectrumInterpolation; plugin/plan/resampling.h,
// tapWeight): the ES window exp(beta (sqrt(1 - z^2) - 1)), z = 2 t / W; Keys' cubic convolution (a = -1/2); the tent.
float tapWeight(float t)
{
    const float a = abs(t);
    if (pc.interpolation == FFTB_GPU_INTERPOLATION_ES)
    {
        const float z = a * (2.0 / float(pc.interpolationWidth));
        return z < 1.0 ? exp(pc.esBeta * (sqrt(1.0 - z * z) - 1.0)) : 0.0;
    }
    if (pc.interpolation == FFTB_GPU_INTERPOLATION_CUBIC)
        return a <= 1.0 ? (1.5 * a - 2.5) * a * a + 1.0 : a < 2.0 ? ((-0.5 * a + 2.5) * a - 4.0) * a + 2.0 : 0.0;
    return max(1.0 - a, 0.0);
}

// Entry `entry` of the tap table: the W = pc.interpolationWidth taps that read the kernel spectrum at `position`
// stored bins, bins first .. first + W - 1 within W / 2 of it, and their weights; all weights 0 past the kernel's
// Nyquist (|position| > S / 2, for a kernel scale sigma > 1): the scaled kernel is band-limited, not the spectrum's
// periodic repetition.
void writeTaps(uint entry, float position, uint spectrumLength)
{
    const int first = int(floor(position - 0.5 * float(pc.interpolationWidth))) + 1;
    const bool inBand = 2.0 * abs(position) <= float(spectrumLength);
    float w[FFTB_MAX_INTERPOLATION_WIDTH];
    [[unroll]] for (int d = 0; d < FFTB_MAX_INTERPOLATION_WIDTH; ++d)
        w[d] = inBand && d < int(pc.interpolationWidth) ? tapWeight(position - float(first + d)) : 0.0;
    const uint at = 2u * (pc.tapTableStart + FFTB_TAP_TABLE_ENTRY_UNITS * entry);
    [[unroll]] for (uint i = 0u; i < 4u; ++i)
        intermediate[at + i] = floatBitsToUint(vec2(w[2u * i], w[2u * i + 1u]));
    intermediate[at + 4u] = uvec2(uint(first), 0u);
}

// Resampled mode: pass 2 reads the kernel spectrum at sigma k2 S2 / N2 along the second axis (k2 signed) and at
// sigma k1 S1 / N1 along the first (sigma the kernel scale, multiplied last so that sigma = 1 reads exactly the
// frequencies of an unscaled kernel). Every bin of every line and channel reads with the same taps, so the
// invocations of this pass write them once (plugin/plan/plan.h, tapTableEntries): entries k2 < N2, entry N2 for +N2/2
// (the other side of an even N2's Nyquist bin, which pass 2 reads at -N2/2), entries N2 + 1 + k1 for k1 <= N1 / 2.
// Every view reads the same table: view 0's workgroups write it.
void writeTapTable()
{
    if ((pc.flags & FFTB_GPU_FLAG_RESAMPLED) == 0u || viewIndex() != 0u)
        return;
    const uint n2 = pc.paddedLength2;
    const uint entries = n2 + 1u + FFT_LENGTH / 2u + 1u;
    // This pass's workgroups, one per line pair (plugin/src/record.cpp), all write entries.
    const uint invocations = (pc.imageLength2 + 1u) / 2u * WORKGROUP_SIZE;
    for (uint entry = gl_GlobalInvocationID.x; entry < entries; entry += invocations)
    {
        if (entry <= n2)
        {
            const int k2 = entry == n2 ? int(n2 / 2u) : 2u * entry < n2 ? int(entry) : int(entry) - int(n2);
            writeTaps(entry, pc.kernelScale * (float(k2) * float(pc.spectrumLength2) / float(n2)),
                      pc.spectrumLength2);
        }
        else
        {
            const uint k1 = entry - n2 - 1u;
            writeTaps(entry, pc.kernelScale * (float(k1) * float(pc.spectrumLength1) / float(FFT_LENGTH)),
                      pc.spectrumLength1);
        }
    }
}

void main()
{
    writeTapTable();
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
