// SPDX-License-Identifier: MIT
// Push constants, buffer layouts and padding helpers shared by the pass shaders.
#ifndef FFTB_COMMON_GLSL
#define FFTB_COMMON_GLSL

#include "intermediate.glsl"

layout(push_constant) uniform PushBlock
{
    FftbPushConstants pc;
};

// The kernel spectrum, one binding per channel: the centred half spectrum [k1][k2], k1 <= S1 / 2, k2 < S2, and in
// resampled mode after it, from element pc.resolvedSpectrumStart, the same at the frame's frequencies, k1 <= N1 / 2,
// k2 < N2. The channel is uniform in a workgroup: so are the branches that select its binding.
layout(set = 0, binding = FFTB_BINDING_KERNEL_SPECTRUM, std430) buffer KernelSpectrumR
{
    vec2 kernelSpectrumR[];
};
layout(set = 0, binding = FFTB_BINDING_KERNEL_SPECTRUM + 1, std430) buffer KernelSpectrumG
{
    vec2 kernelSpectrumG[];
};
layout(set = 0, binding = FFTB_BINDING_KERNEL_SPECTRUM + 2, std430) buffer KernelSpectrumB
{
    vec2 kernelSpectrumB[];
};

vec2 kernelSpectrumAt(uint channel, uint i)
{
    if (channel == 0u)
        return kernelSpectrumR[i];
    if (channel == 1u)
        return kernelSpectrumG[i];
    return kernelSpectrumB[i];
}

void storeKernelSpectrum(uint channel, uint i, vec2 value)
{
    if (channel == 0u)
        kernelSpectrumR[i] = value;
    else if (channel == 1u)
        kernelSpectrumG[i] = value;
    else
        kernelSpectrumB[i] = value;
}

// The bloom prefilter: Unity PostProcessing v2's QuadraticThreshold (after Jimenez 2014, "Next Generation Post
// Processing in Call of Duty: Advanced Warfare"), then a hue-preserving clamp of max(r, g, b) at C. Threshold 0 skips
// the threshold exactly: its weight max(b, 0) / max(b, 1e-5) would dim values below 1e-5 and zero negative ones.
vec3 prefilter(vec3 x)
{
    if (pc.threshold > 0.0)
    {
        const float brightness = max(x.r, max(x.g, x.b));
        float knee = clamp(brightness - pc.threshold + pc.knee, 0.0, 2.0 * pc.knee);
        knee = knee * knee / (4.0 * pc.knee + 1e-5);
        x *= max(knee, brightness - pc.threshold) / max(brightness, 1e-5);
    }
    const float peak = max(x.r, max(x.g, x.b));
    if (pc.clampValue > 0.0 && peak > pc.clampValue)
        x *= pc.clampValue / peak;
    return x;
}

// The bloom's source p = m prefilter(in.rgb) of input texel `texel`: m the source mask, 1, or its alpha clamped to
// [0, 1] or 1 minus that (FFTB_GPU_FLAG_MASK_*).
vec3 bloomSource(vec4 texel)
{
    const vec3 p = prefilter(texel.rgb);
    if ((pc.flags & FFTB_GPU_FLAG_MASK_ALPHA) == 0u)
        return p;
    const float m = clamp(texel.a, 0.0, 1.0);
    return p * ((pc.flags & FFTB_GPU_FLAG_MASK_INVERT) != 0u ? 1.0 - m : m);
}

// Image coordinates of position u along the first axis and v along the second.
ivec2 imageCoord(uint u, uint v)
{
    return (pc.flags & FFTB_GPU_FLAG_FIRST_AXIS_IS_X) != 0u ? ivec2(u, v) : ivec2(v, u);
}

// The reduction f of the image transformed: 1 at full resolution, 2, 4 or 8 (FFTB_GPU_FLAG_REDUCTION_SHIFT).
uint reduction()
{
    return 1u << ((pc.flags >> FFTB_GPU_FLAG_REDUCTION_SHIFT) & 3u);
}

// The frame's extent (x, y), which at reduced resolution the image transformed covers f x f texels per texel.
uvec2 frameExtent()
{
    const uint f = reduction();
    const uvec2 remainder = uvec2((pc.flags >> FFTB_GPU_FLAG_REMAINDER_1_SHIFT) & 7u,
                                  (pc.flags >> FFTB_GPU_FLAG_REMAINDER_2_SHIFT) & 7u);
    return uvec2(imageCoord(f * pc.imageLength1 - remainder.x, f * pc.imageLength2 - remainder.y));
}

// The element of `intermediate` where the bloom of texel (x, y) of a downsampled frame `width` texels wide starts, its
// R and G; B and 0 follow. From 16-byte unit `start`, one unit per texel, [view][y][x] over `texels` per view
// (plugin/plan/scratch_layout.h, reducedBloomStart).
uint reducedBloomIndex(uint start, uint width, uint texels, ivec2 texel)
{
    return 2u * (start + viewIndex() * texels + uint(texel.y) * width + uint(texel.x));
}

// The bloom at texel `texel` of the frame, from a bloom of the frame downsampled by f at `start` (reducedBloomIndex):
// bilinear, texel centres aligned (frame texel x reads the downsampled frame at (x + 1/2) / f - 1/2, clamped to its
// edge texels).
vec3 upsampledBloom(uint start, uint f, ivec2 texel)
{
    const uvec2 frame = frameExtent();
    const uvec2 reduced = (frame + f - 1u) / f;
    const ivec2 last = ivec2(reduced) - 1;
    const vec2 position = max((vec2(texel) + 0.5) / float(f) - 0.5, vec2(0.0));
    const ivec2 a = min(ivec2(position), last), b = min(a + 1, last);
    const vec2 w = position - vec2(a);
    vec3 corner[4];
    const ivec2 corners[4] = ivec2[4](a, ivec2(b.x, a.y), ivec2(a.x, b.y), b);
    for (uint i = 0u; i < 4u; ++i)
    {
        const uint at = reducedBloomIndex(start, reduced.x, reduced.x * reduced.y, corners[i]);
        corner[i] = vec3(uintBitsToFloat(intermediate[at]), uintBitsToFloat(intermediate[at + 1u].x));
    }
    return mix(mix(corner[0], corner[1], w.x), mix(corner[2], corner[3], w.x), w.y);
}

// What the passes write at a texel of input `source` given its tinted bloom: the bloom (FFTB_GPU_OUTPUT_BLOOM), the
// energy-conserving composite in + intensity * (bloom - p) or the additive in + intensity * bloom.
vec3 compositeOf(vec4 source, vec3 bloom)
{
    if (pc.outputMode == FFTB_GPU_OUTPUT_COMPOSITE)
        return source.rgb + pc.intensity * (bloom - bloomSource(source));
    if (pc.outputMode == FFTB_GPU_OUTPUT_ADDITIVE)
        return source.rgb + pc.intensity * bloom;
    return bloom;
}

// GL_MIRRORED_REPEAT of any position into [0, length).
uint mirroredRepeat(int position, uint length)
{
    const int period = 2 * int(length);
    // GLSL leaves % undefined for negative operands (NVIDIA and lavapipe differ): shift by whole periods first.
    const int shifted = position < 0 ? position + period * ((period - 1 - position) / period) : position;
    const int m = shifted % period;
    return uint(m < int(length) ? m : period - 1 - m);
}

// The image position that padded position p in [0, N) reads, or -1 for a zero texel (host: paddedSource).
int paddedSource(uint p, uint imageLength, uint paddedLength, uint mirrorSplit)
{
    if (p < imageLength)
        return int(p);
    if (pc.padding != FFTB_GPU_PADDING_MIRROR)
        return -1;
    const int position = p < mirrorSplit ? int(p) : int(p) - int(paddedLength);
    return int(mirroredRepeat(position, imageLength));
}

// Element i of half-spectrum line k1 of `channel` padded to n along the second axis (pass 2's input): zero, or in
// mirror padding a mirror of a stored element (paddedSource). The line's elements lie 32 bytes apart
// (intermediateIndex): the other lines of its block, read by the neighbouring workgroups at about the same time, share
// their sectors in L2.
vec2 paddedSecondAxisElement(uint channel, uint k1, uint halfLines, uint i, uint n)
{
    const int v = paddedSource(i, pc.imageLength2, n, pc.mirrorSplit2);
    return v < 0 ? vec2(0.0) : loadIntermediate(intermediateIndex(channel, k1, halfLines, uint(v), pc.imageLength2));
}

// Pass 2's Hadamard product of z with kernel spectrum value k, blended toward the Dirac delta (sharpening t:
// (1 - t) K + t) and scaled by the inverse transforms' normalization.
vec2 hadamardProduct(vec2 k, vec2 z)
{
    k = (1.0 - pc.sharpen) * k + vec2(pc.sharpen, 0.0);
    return pc.inverseScale * vec2(z.x * k.x - z.y * k.y, z.x * k.y + z.y * k.x);
}

#endif
