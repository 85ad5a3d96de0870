// SPDX-License-Identifier: MIT
// The intermediate buffer: complex half-spectrum lines between the passes, fp32 or fp16, and the real-packed store
// after a forward FFT of two real lines.
#ifndef FFTB_INTERMEDIATE_GLSL
#define FFTB_INTERMEDIATE_GLSL

layout(constant_id = FFTB_SPEC_HALF_STORAGE) const bool HALF_STORAGE = false;
layout(constant_id = FFTB_SPEC_MULTI_VIEW) const bool MULTI_VIEW = false;

// The view this workgroup transforms: its workgroup grid layer when the passes bloom several (fftb_shared.h,
// FFTB_SPEC_MULTI_VIEW), else 0, a constant once specialized.
uint viewIndex()
{
    return MULTI_VIEW ? gl_WorkGroupID.z : 0u;
}

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

// Element v of half-spectrum line k1 < halfLines of `channel` in the intermediate, for lines of `lineCount` elements:
// B = FFTB_INTERMEDIATE_BLOCK_LINES adjacent lines interleaved, [view][channel][k1 / B][v][k1 % B] (plugin/plan/plan.h,
// intermediateIndex). Pass 1 (consecutive k1 across a subgroup, one v) then writes whole 32-byte sectors, and pass 3
// reads whole sectors.
uint intermediateIndex(uint channel, uint k1, uint halfLines, uint v, uint lineCount)
{
    const uint blocks = (halfLines + FFTB_INTERMEDIATE_BLOCK_LINES - 1u) / FFTB_INTERMEDIATE_BLOCK_LINES;
    const uint block = (viewIndex() * 3u + channel) * blocks + k1 / FFTB_INTERMEDIATE_BLOCK_LINES;
    return (block * lineCount + v) * FFTB_INTERMEDIATE_BLOCK_LINES + k1 % FFTB_INTERMEDIATE_BLOCK_LINES;
}

// After a forward FFT of length n of z = a + i b (two real lines packed: "FFT Bloom Optimized to the Bone",
// "Exploiting the Hermitian Symmetry"), stores the half spectra A[k] = (Z[k] + conj Z[n-k]) / 2 and
// B[k] = (Z[k] - conj Z[n-k]) / 2i, k = 0 .. n/2, of lines v0 and v0 + 1 at intermediateIndex(channel, k, n/2 + 1, v,
// lineCount); B only if v0 + 1 < lineCount. `zMirror` is Z[n-k] conjugated. Half storage stores A / n and B / n
// instead: |A[k]| / n <= max |a|, so a frame within fp16's range stays within it (pass 2 then scales by 1 / N2 alone;
// FftbPushConstants::inverseScale).
void storeHalfSpectrum(uint channel, uint v0, uint lineCount, uint n, uint k, vec2 z, vec2 zMirror)
{
    const float scale = HALF_STORAGE ? 0.5 / float(n) : 0.5;
    const vec2 d = z - zMirror;
    const uint a = intermediateIndex(channel, k, n / 2u + 1u, v0, lineCount);
    storeIntermediate(a, scale * (z + zMirror));
    if (v0 + 1u < lineCount)
        storeIntermediate(a + FFTB_INTERMEDIATE_BLOCK_LINES, scale * vec2(d.y, -d.x));
}

#ifdef FFTB_FFT_GLSL
void storeHalfSpectra(uint channel, uint v0, uint lineCount)
{
    if (SPLIT_RADIX == 1u)
    {
        // The spectrum is in shared memory, natural order.
        for (uint k = gl_LocalInvocationID.x; k <= FFT_LENGTH / 2u; k += WORKGROUP_SIZE)
            storeHalfSpectrum(channel, v0, lineCount, FFT_LENGTH, k, fftSharedGet(k),
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
                storeHalfSpectrum(channel, v0, lineCount, FFT_LENGTH, k, fftGet(e),
                                  conjugate(fftSharedGet(((FFT_LENGTH - k) % FFT_LENGTH) / SPLIT_RADIX)));
        }
    }
}
#endif
#endif
