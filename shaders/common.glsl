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

bool halfResolution()
{
    return (pc.flags & FFTB_GPU_FLAG_HALF_RESOLUTION) != 0u;
}

// The frame's extent (x, y), which at half resolution the image transformed covers 2 x 2 texels per texel.
uvec2 frameExtent()
{
    if (!halfResolution())
        return uvec2(imageCoord(pc.imageLength1, pc.imageLength2));
    const uvec2 odd = uvec2((pc.flags & FFTB_GPU_FLAG_ODD_FRAME_LENGTH_1) != 0u ? 1u : 0u,
                            (pc.flags & FFTB_GPU_FLAG_ODD_FRAME_LENGTH_2) != 0u ? 1u : 0u);
    return uvec2(imageCoord(2u * pc.imageLength1 - odd.x, 2u * pc.imageLength2 - odd.y));
}

// Half resolution: the element of `intermediate` where the bloom of texel (x, y) of the downsampled frame of the view
// (viewIndex) starts, its R and G; B and 0 follow. From 16-byte unit pc.scratchBloomStart, after the intermediate, one
// 16-byte unit per texel, [view][y][x] (plugin/plan/scratch_layout.h, halfResolutionBloomStart).
uint halfResolutionBloomIndex(ivec2 texel)
{
    const uint width = uint(imageCoord(pc.imageLength1, pc.imageLength2).x);
    return 2u * (pc.scratchBloomStart + viewIndex() * pc.imageLength1 * pc.imageLength2 + uint(texel.y) * width +
                 uint(texel.x));
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
