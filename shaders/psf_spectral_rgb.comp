// SPDX-License-Identifier: MIT
// PSF generator, step 3: each kernel texel integrates the diffraction pattern over its footprint at every wavelength
// (the pattern scales with lambda: a texel spans binsPerTexel * 550 nm / lambda bins), weighted by the wavelength's
// linear Rec.709 R, G, B (CIE 1931), summed and clamped at 0 (host/psf/psf_generator.cpp, axisTaps); each workgroup
// also writes its texels' sums per channel for step 4.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared/fftb_shared.h"
#include "psf.glsl"

layout(local_size_x = FFTB_PSF_TILE, local_size_y = FFTB_PSF_TILE) in;

// Planar RGB, x fastest: texels[(channel * K + y) * K + x].
layout(set = 0, binding = FFTB_BINDING_KERNEL_TEXELS, std430) writeonly buffer KernelTexels
{
    float kernelTexels[];
};

// Integral of the unit tent max(0, 1 - |t|) from -infinity to t.
float tentIntegral(float t)
{
    if (t <= -1.0)
        return 0.0;
    if (t <= 0.0)
        return 0.5 * (t + 1.0) * (t + 1.0);
    if (t < 1.0)
        return 1.0 - 0.5 * (1.0 - t) * (1.0 - t);
    return 1.0;
}

shared vec3 partial[FFTB_PSF_TILE * FFTB_PSF_TILE];

void main()
{
    const uvec2 texel = gl_GlobalInvocationID.xy;
    const uint k = pc.kernelLength, n = pc.fftLength;
    vec3 sum = vec3(0.0);
    for (uint w = 0u; w < pc.wavelengthCount; ++w)
    {
        const uint word = pc.wavelengthStart + w * FFTB_PSF_WAVELENGTH_WORDS;
        const float bins = psfWord(word);
        // Texel x covers bins [(x - K/2 - 1/2) s, (x - K/2 + 1/2) s] around bin N/2; the weights integrate the
        // linear interpolation between bin centres over it.
        const vec2 lo = (vec2(texel) - float(k / 2u) - 0.5) * bins, hi = lo + bins;
        const ivec2 first = ivec2(floor(lo)), last = ivec2(ceil(hi));
        float value = 0.0;
        for (int y = first.y; y <= last.y; ++y)
        {
            const float wy = tentIntegral(hi.y - float(y)) - tentIntegral(lo.y - float(y));
            const uint row = uint(clamp(y + int(n / 2u), 0, int(n) - 1)) * n;
            float across = 0.0;
            for (int x = first.x; x <= last.x; ++x)
            {
                const float wx = tentIntegral(hi.x - float(x)) - tentIntegral(lo.x - float(x));
                across += wx * psfWord(pc.patternStart + row + uint(clamp(x + int(n / 2u), 0, int(n) - 1)));
            }
            value += wy * across;
        }
        sum += value * vec3(psfWord(word + 1u), psfWord(word + 2u), psfWord(word + 3u));
    }
    // Spectral colours outside the Rec.709 gamut sum to negative values where one hue dominates.
    sum = max(sum, vec3(0.0));
    const bool inside = texel.x < k && texel.y < k;
    if (inside)
        for (uint c = 0u; c < 3u; ++c)
            kernelTexels[(c * k + texel.y) * k + texel.x] = sum[c];
    // The workgroup's sums per channel, for the normalization: at word 3 * workgroup of the buffer, over the rows'
    // half spectra, which pass 2 has read.
    const uint id = gl_LocalInvocationIndex;
    partial[id] = inside ? sum : vec3(0.0);
    barrier();
    for (uint stride = FFTB_PSF_TILE * FFTB_PSF_TILE / 2u; stride > 0u; stride /= 2u)
    {
        if (id < stride)
            partial[id] += partial[id + stride];
        barrier();
    }
    if (id < 3u)
    {
        const uint tiles = (k + FFTB_PSF_TILE - 1u) / FFTB_PSF_TILE; // the workgroups along x (no NumWorkgroups in HLSL)
        setPsfWord(3u * (gl_WorkGroupID.y * tiles + gl_WorkGroupID.x) + id, partial[0][id]);
    }
}
