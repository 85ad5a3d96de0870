// SPDX-License-Identifier: MIT
// Push constants, buffer layouts and padding helpers shared by the pass shaders.
#ifndef FFTB_COMMON_GLSL
#define FFTB_COMMON_GLSL

layout(push_constant) uniform PushBlock
{
    FftbPushConstants pc;
};

layout(constant_id = FFTB_SPEC_HALF_STORAGE) const bool HALF_STORAGE = false;

// Complex half-spectrum lines, blocked: see intermediateIndex. Element i is intermediate[i], its real and imaginary
// parts' fp32 bits, in fp32 storage; in half storage it is the 32-bit word i of the buffer (intermediate[i / 2], its
// component i % 2), the two parts as fp16 (packHalf2x16): the same index, half the bytes. Read and written through
// loadIntermediate and storeIntermediate.
layout(set = 0, binding = FFTB_BINDING_INTERMEDIATE, std430) buffer Intermediate
{
    uvec2 intermediate[];
};

// Half storage: the largest finite fp16. Stored values are clamped to it, so a frame past the range saturates
// instead of turning into infinities and NaNs over whole lines.
const float HALF_MAX = 65504.0;

vec2 loadIntermediate(uint i)
{
    return HALF_STORAGE ? unpackHalf2x16(intermediate[i >> 1u][i & 1u]) : uintBitsToFloat(intermediate[i]);
}

void storeIntermediate(uint i, vec2 z)
{
    if (HALF_STORAGE)
        intermediate[i >> 1u][i & 1u] = packHalf2x16(clamp(z, -HALF_MAX, HALF_MAX));
    else
        intermediate[i] = floatBitsToUint(z);
}

// [channel][k1][k2] centred kernel half spectrum.
layout(set = 0, binding = FFTB_BINDING_KERNEL_SPECTRUM, std430) buffer KernelSpectrum
{
    vec2 kernelSpectrum[];
};

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

// Half resolution: the element of `intermediate` where the bloom of texel (x, y) of the downsampled frame starts, its
// R and G; B and 0 follow. After the tap table, one 16-byte unit per texel, [y][x] (plugin/plan/plan.h,
// halfResolutionBloomStart).
uint halfResolutionBloomIndex(ivec2 texel)
{
    const uint tapEntries = pc.paddedLength2 + 1u + pc.paddedLength1 / 2u + 1u;
    const uint start = pc.tapTableStart + FFTB_TAP_TABLE_ENTRY_UNITS * tapEntries;
    const uint width = uint(imageCoord(pc.imageLength1, pc.imageLength2).x);
    return 2u * (start + uint(texel.y) * width + uint(texel.x));
}

// What the passes write at a texel of input `source` given its tinted bloom: the bloom (FFTB_GPU_OUTPUT_BLOOM), the
// energy-conserving composite in + intensity * (bloom - p) or the additive in + intensity * bloom.
vec3 compositeOf(vec4 source, vec3 bloom)
{
    if (pc.outputMode == FFTB_GPU_OUTPUT_COMPOSITE)
        return source.rgb + pc.intensity * (bloom - prefilter(source.rgb));
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
    if (pc.padding == FFTB_GPU_PADDING_ZERO)
        return -1;
    const int position = p < mirrorSplit ? int(p) : int(p) - int(paddedLength);
    return int(mirroredRepeat(position, imageLength));
}

// Element v of half-spectrum line k1 < halfLines of `channel` in the intermediate, for lines of `lineCount` elements:
// B = FFTB_INTERMEDIATE_BLOCK_LINES adjacent lines interleaved, [channel][k1 / B][v][k1 % B]. Pass 1 (consecutive k1
// across a subgroup, one v) then writes whole 32-byte sectors, and pass 3 reads whole sectors.
uint intermediateIndex(uint channel, uint k1, uint halfLines, uint v, uint lineCount)
{
    const uint blocks = (halfLines + FFTB_INTERMEDIATE_BLOCK_LINES - 1u) / FFTB_INTERMEDIATE_BLOCK_LINES;
    const uint block = channel * blocks + k1 / FFTB_INTERMEDIATE_BLOCK_LINES;
    return (block * lineCount + v) * FFTB_INTERMEDIATE_BLOCK_LINES + k1 % FFTB_INTERMEDIATE_BLOCK_LINES;
}

#ifdef FFTB_FFT_GLSL
// After a forward FFT of z = a + i b (two real lines packed, seeds/000 "Exploiting the Hermitian Symmetry"),
// stores the half spectra A[k] = (Z[k] + conj Z[N-k]) / 2 and B[k] = (Z[k] - conj Z[N-k]) / 2i, k = 0 .. N/2,
// of lines v0 and v0 + 1 at intermediateIndex(channel, k, N/2 + 1, v, lineCount); B only if v0 + 1 < lineCount.
// Half storage stores A / N and B / N instead: |A[k]| / N <= max |a|, so a frame within fp16's range stays within it
// (pass 2 then scales by 1 / N2 alone; FftbPushConstants::inverseScale).
void storeHalfSpectrum(uint channel, uint v0, uint lineCount, uint k, vec2 z, vec2 zMirror)
{
    const float scale = HALF_STORAGE ? 0.5 / float(FFT_LENGTH) : 0.5;
    const vec2 d = z - zMirror;
    const uint a = intermediateIndex(channel, k, FFT_LENGTH / 2u + 1u, v0, lineCount);
    storeIntermediate(a, scale * (z + zMirror));
    if (v0 + 1u < lineCount)
        storeIntermediate(a + FFTB_INTERMEDIATE_BLOCK_LINES, scale * vec2(d.y, -d.x));
}

void storeHalfSpectra(uint channel, uint v0, uint lineCount)
{
    if (SPLIT_RADIX == 1u)
    {
        // The spectrum is in shared memory, natural order.
        for (uint k = gl_LocalInvocationID.x; k <= FFT_LENGTH / 2u; k += WORKGROUP_SIZE)
            storeHalfSpectrum(channel, v0, lineCount, k, fftSharedGet(k),
                              conjugate(fftSharedGet((FFT_LENGTH - k) % FFT_LENGTH)));
        return;
    }
    // Long lines: slots k S .. k S + S - 1 hold X[R q + k], and X[N - (R q + k)] lies in sub-line (R - k) mod R. Each
    // sub-line r in turn goes through shared memory (at q), where the invocations holding its mirrors read them.
    for (uint r = 0u; r < SPLIT_RADIX; ++r)
    {
        barrier();
        for (uint j = 0u; j < SUB_ELEMENTS; ++j)
            fftSharedPut(gl_LocalInvocationID.x + j * WORKGROUP_SIZE, fftGet(r * SUB_ELEMENTS + j));
        barrier();
        const uint mirrored = (SPLIT_RADIX - r) % SPLIT_RADIX;
        for (uint j = 0u; j < SUB_ELEMENTS; ++j)
        {
            const uint e = mirrored * SUB_ELEMENTS + j;
            const uint k = fftFrequencyIndex(e);
            if (k <= FFT_LENGTH / 2u)
                storeHalfSpectrum(channel, v0, lineCount, k, fftGet(e),
                                  conjugate(fftSharedGet(((FFT_LENGTH - k) % FFT_LENGTH) / SPLIT_RADIX)));
        }
    }
}
#endif

#endif
