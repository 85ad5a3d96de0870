// SPDX-License-Identifier: MIT
// VkFFT anchor, after VkFFT: the convolved planes, in VkFFT's in-place R2C layout, to an RGBA16F storage image.
#version 450

layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0, std430) readonly buffer Convolved
{
    float convolved[];
};
layout(set = 0, binding = 1, rgba16f) writeonly uniform image2D bloom;

// Extents in texels and elements; vkfft_anchor.cpp's PackPushConstants mirrors this block.
layout(push_constant) uniform PushConstants
{
    uvec2 frameExtent;
    uint rowPitchElements;    // 2 * (Wp / 2 + 1): the R2C buffer keeps room for the half spectrum in place
    uint planeStrideElements; // 2 * (Wp / 2 + 1) * Hp
} pc;

void main()
{
    const uvec2 p = gl_GlobalInvocationID.xy;
    if (any(greaterThanEqual(p, pc.frameExtent)))
        return;
    const uint i = p.y * pc.rowPitchElements + p.x;
    const vec3 rgb = vec3(convolved[i], convolved[i + pc.planeStrideElements],
                          convolved[i + 2u * pc.planeStrideElements]);
    imageStore(bloom, ivec2(p), vec4(rgb, 1.0));
}
