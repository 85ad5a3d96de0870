// SPDX-License-Identifier: MIT
// Pass 3's reads and writes, for either FFT: the half spectra it reads (pass 2's lines along the first axis) and the
// texels it writes: the tinted bloom, or a composite, normalized by the border weights (fftb_shared.h), or at reduced
// resolution the tinted bloom into the scratch for pass 4. Included after the FFT, which declares FFT_LENGTH.
#ifndef FFTB_COMPOSITE_GLSL
#define FFTB_COMPOSITE_GLSL

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

// Bins k and N - k (k <= N/2) of Z = A + i B, lines v0 and v0 + 1 packed again: Z[k] = A[k] + i B[k] and
// Z[N - k] = conj A[k] + i conj B[k] (Hermitian symmetry), so each stored bin is read once and gives both.
void packedSpectrumBins(uint channel, uint v0, uint k, out vec2 z, out vec2 zMirror)
{
    const vec2 a = halfSpectrum(channel, k, v0);
    const vec2 b = halfSpectrum(channel, k, v0 + 1u);
    z = vec2(a.x - b.y, a.y + b.x);
    zMirror = vec2(a.x + b.y, b.x - a.y);
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
// composited into the output, with a far field's bloom added (FFTB_GPU_FLAG_FAR_FIELD_SHIFT); at reduced resolution,
// tinted into the scratch for pass 4 instead.
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
    const uint farField = (pc.flags >> FFTB_GPU_FLAG_FAR_FIELD_SHIFT) & 3u;
    if (farField != 0u)
        bloom += upsampledBloom(pc.scratchBloomStart, 1u << farField, imageCoord(u, v));
    if (reduction() > 1u)
    {
        const uint width = uint(imageCoord(pc.imageLength1, pc.imageLength2).x);
        const uint at =
            reducedBloomIndex(pc.scratchBloomStart, width, pc.imageLength1 * pc.imageLength2, imageCoord(u, v));
        intermediate[at] = floatBitsToUint(bloom.rg);
        intermediate[at + 1u] = uvec2(floatBitsToUint(bloom.b), 0u);
        return;
    }
    const vec4 source = fetchFrame(imageCoord(u, v));
    storeOutput(imageCoord(u, v), vec4(compositeOf(source, bloom), source.a));
}

#endif
