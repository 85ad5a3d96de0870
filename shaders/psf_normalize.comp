// SPDX-License-Identifier: MIT
// PSF generator, step 4: scales each channel of the faded diffraction pattern to unit sum, adds the tapered glare at
// its share (host/psf/psf_generator.cpp, withEnvelope) and deapodizes the kernel, as fftbCreateKernel does with the
// texels it is given (plugin/src/kernel.cpp). Each workgroup adds up step 3's sums of its workgroups, then makes a
// FFTB_PSF_NORMALIZE_TILE x FFTB_PSF_NORMALIZE_TILE tile of the kernel.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared/fftb_shared.h"
#include "psf.glsl"

layout(local_size_x = FFTB_PSF_NORMALIZE_INVOCATIONS) in;

layout(set = 0, binding = FFTB_BINDING_KERNEL_TEXELS, std430) buffer KernelTexels
{
    float kernelTexels[];
};

shared vec4 partial[FFTB_PSF_NORMALIZE_INVOCATIONS];

void main()
{
    const uint k = pc.kernelLength, texels = k * k, id = gl_LocalInvocationID.x;
    const uint tiles = k / FFTB_PSF_TILE, workgroups = tiles * (tiles / 2u + 2u); // step 3's (psf_spectral_rgb.comp)
    vec4 sum = vec4(0.0);
    for (uint t = id; t < workgroups; t += FFTB_PSF_NORMALIZE_INVOCATIONS)
        sum += vec4(psfWord(4u * t), psfWord(4u * t + 1u), psfWord(4u * t + 2u), psfWord(4u * t + 3u));
    partial[id] = sum;
    barrier();
    for (uint stride = FFTB_PSF_NORMALIZE_INVOCATIONS / 2u; stride > 0u; stride /= 2u)
    {
        if (id < stride)
            partial[id] += partial[id + stride];
        barrier();
    }
    // A channel with no light (a monochromatic wavelength outside its primary's reach) stays 0.
    const vec4 total = partial[0];
    const vec3 scale = (1.0 - pc.glare) * vec3(total.x > 0.0 ? 1.0 / total.x : 0.0, total.y > 0.0 ? 1.0 / total.y : 0.0,
                                               total.z > 0.0 ? 1.0 / total.z : 0.0);
    const float glareScale = pc.glare > 0.0 ? pc.glare / total.w : 0.0;
    const uvec2 origin = gl_WorkGroupID.xy * FFTB_PSF_NORMALIZE_TILE;
    for (uint i = id; i < FFTB_PSF_NORMALIZE_TILE * FFTB_PSF_NORMALIZE_TILE; i += FFTB_PSF_NORMALIZE_INVOCATIONS)
    {
        const uvec2 texel = origin + uvec2(i % FFTB_PSF_NORMALIZE_TILE, i / FFTB_PSF_NORMALIZE_TILE);
        if (texel.x >= k || texel.y >= k)
            continue;
        const float deapodize = psfWord(pc.deapodizeStart + texel.x) * psfWord(pc.deapodizeStart + texel.y);
        const float glare = glareScale > 0.0 ? glareScale * taperedGlare(texel) : 0.0;
        for (uint c = 0u; c < 3u; ++c)
        {
            const uint i = c * texels + texel.y * k + texel.x;
            kernelTexels[i] = (kernelTexels[i] * scale[c] + glare) * deapodize;
        }
    }
}
