// SPDX-License-Identifier: MIT
// Pass 3: rebuilds two lines' full spectra from their halves, inverse FFT along the first axis, crops to the
// frame and writes the tinted bloom of the prefiltered frame p, or a composite: energy-conserving
// in + intensity * (bloom - p) or additive in + intensity * bloom; alpha passes through. With zero padding and
// normalized convolution the bloom is first divided by the border weights, or, the first time, written to them
// (fftb_shared.h). At half resolution the tinted bloom goes into the scratch, for pass 4.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "shared/fftb_shared.h"
#include "fft.glsl"
#include "common.glsl"
#define FFTB_WRITES_OUTPUT
#include "frame_views.glsl"

layout(set = 0, binding = FFTB_BINDING_BORDER_WEIGHTS, std430) buffer BorderWeights
{
    float borderWeights[];
};

// Half-spectrum bin k <= N/2 of line v (0 past the frame's last line); DC and Nyquist of a real line are real.
vec2 halfSpectrum(uint channel, uint k, uint v)
{
    if (v >= pc.imageLength2)
        return vec2(0.0);
    const vec2 x = loadIntermediate(intermediateIndex(channel, k, FFT_LENGTH / 2u + 1u, v, pc.imageLength2));
    return k == 0u || 2u * k == FFT_LENGTH ? vec2(x.x, 0.0) : x;
}

// Z = A + i B packs lines v0 and v0 + 1 again, with Z[k] = A[k] + i B[k] and Z[N - k] = conj A[k] + i conj B[k]
// (Hermitian symmetry): each stored bin is read once and gives both.
void loadPackedSpectrum(uint channel, uint v0)
{
    if (SPLIT_RADIX == 1u)
    {
        for (uint k = gl_LocalInvocationID.x; 2u * k <= FFT_LENGTH; k += WORKGROUP_SIZE)
        {
            const vec2 a = halfSpectrum(channel, k, v0);
            const vec2 b = halfSpectrum(channel, k, v0 + 1u);
            fftSharedPut(k, vec2(a.x - b.y, a.y + b.x));
            if (k != 0u && 2u * k != FFT_LENGTH)
                fftSharedPut(FFT_LENGTH - k, vec2(a.x + b.y, b.x - a.y));
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

uint borderWeightIndex(uint channel, uint u, uint v)
{
    return (channel * pc.imageLength2 + v) * pc.imageLength1 + u;
}

// Whether the kernel lies wholly inside the frame around texel (u, v), so that its border weight is the kernel's
// mass, 1 (normalized per channel), and pass 3 reads none. In exact mode (scaled in space or not) and at scale 1 the
// kernel reaches no farther than the padding's width N - L (plugin/plan/plan.h, paddedLength: N >= L + floor(K' / 2)),
// so texels at least that far from every edge qualify. A scaled kernel's resampled spectrum has tails past its
// extent: every texel reads its weight.
bool kernelInsideFrame(uint u, uint v)
{
    const uint margin1 = pc.paddedLength1 - pc.imageLength1, margin2 = pc.paddedLength2 - pc.imageLength2;
    const bool compact = (pc.flags & FFTB_GPU_FLAG_RESAMPLED) == 0u || pc.kernelScale == 1.0;
    return compact && u >= margin1 && u + margin1 < pc.imageLength1 && v >= margin2 && v + margin2 < pc.imageLength2;
}

// Texel (u, v) of the result from its bloom: into the border weights (FFTB_GPU_BORDER_WEIGHTS_WRITE), or normalized
// by them (the sharpened kernel's mass inside the frame, (1 - t) w + t, at least FFTB_MIN_BORDER_WEIGHT; 1 where the
// kernel lies inside the frame), tinted and
// composited into the output; at half resolution, tinted into the scratch for pass 4 instead.
void writeTexel(uint u, uint v, vec3 bloom)
{
    if (pc.borderWeights == FFTB_GPU_BORDER_WEIGHTS_WRITE)
    {
        borderWeights[borderWeightIndex(0u, u, v)] = bloom.r;
        borderWeights[borderWeightIndex(1u, u, v)] = bloom.g;
        borderWeights[borderWeightIndex(2u, u, v)] = bloom.b;
        return;
    }
    if (pc.borderWeights == FFTB_GPU_BORDER_WEIGHTS_DIVIDE && !kernelInsideFrame(u, v))
    {
        const vec3 w = vec3(borderWeights[borderWeightIndex(0u, u, v)], borderWeights[borderWeightIndex(1u, u, v)],
                            borderWeights[borderWeightIndex(2u, u, v)]);
        bloom /= max((1.0 - pc.sharpen) * w + pc.sharpen, vec3(FFTB_MIN_BORDER_WEIGHT));
    }
    bloom *= vec3(pc.tintRed, pc.tintGreen, pc.tintBlue);
    if (halfResolution())
    {
        const uint at = halfResolutionBloomIndex(imageCoord(u, v));
        intermediate[at] = floatBitsToUint(bloom.rg);
        intermediate[at + 1u] = uvec2(floatBitsToUint(bloom.b), 0u);
        return;
    }
    const vec4 source = fetchFrame(imageCoord(u, v));
    storeOutput(imageCoord(u, v), vec4(compositeOf(source, bloom), source.a));
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
