// SPDX-License-Identifier: MIT
// PSF generator, step 4: scales each channel of the kernel to unit sum and deapodizes it, as fftbCreateKernel does
// with the texels it is given (plugin/src/kernel.cpp). One workgroup.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared/fftb_shared.h"
#include "psf.glsl"

layout(local_size_x = FFTB_PSF_NORMALIZE_INVOCATIONS) in;

layout(set = 0, binding = FFTB_BINDING_KERNEL_TEXELS, std430) buffer KernelTexels
{
    float kernelTexels[];
};

shared vec3 partial[FFTB_PSF_NORMALIZE_INVOCATIONS];

void main()
{
    const uint texels = pc.kernelLength * pc.kernelLength, id = gl_LocalInvocationID.x;
    vec3 sum = vec3(0.0);
    for (uint i = id; i < texels; i += FFTB_PSF_NORMALIZE_INVOCATIONS)
        sum += vec3(kernelTexels[i], kernelTexels[texels + i], kernelTexels[2u * texels + i]);
    partial[id] = sum;
    barrier();
    for (uint stride = FFTB_PSF_NORMALIZE_INVOCATIONS / 2u; stride > 0u; stride /= 2u)
    {
        if (id < stride)
            partial[id] += partial[id + stride];
        barrier();
    }
    // A channel with no light (a monochromatic wavelength outside its primary's reach) stays 0.
    const vec3 total = partial[0];
    const vec3 scale = vec3(total.x > 0.0 ? 1.0 / total.x : 0.0, total.y > 0.0 ? 1.0 / total.y : 0.0,
                            total.z > 0.0 ? 1.0 / total.z : 0.0);
    for (uint i = id; i < texels; i += FFTB_PSF_NORMALIZE_INVOCATIONS)
    {
        const float deapodize = psfWord(pc.deapodizeStart + i % pc.kernelLength) *
                                psfWord(pc.deapodizeStart + i / pc.kernelLength);
        for (uint c = 0u; c < 3u; ++c)
            kernelTexels[c * texels + i] *= scale[c] * deapodize;
    }
}
