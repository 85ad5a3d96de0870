// SPDX-License-Identifier: MIT
// VkFFT anchor, before VkFFT: an RGBA16F frame to the planar fp32 RGB buffer VkFFT's convolution reads (row pitch Wp).
#version 450

layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0) uniform sampler2D frame;
layout(set = 0, binding = 1, std430) writeonly buffer Planar
{
    float planar[];
};

// Extents in texels and elements; vkfft_anchor.cpp's PackPushConstants mirrors this block.
layout(push_constant) uniform PushConstants
{
    uvec2 frameExtent;
    uint rowPitchElements;   // Wp: VkFFT 1.2.26 reads formatted input at the padded width's pitch
    uint planeStrideElements; // Wp * Hp
} pc;

void main()
{
    const uvec2 p = gl_GlobalInvocationID.xy;
    if (any(greaterThanEqual(p, pc.frameExtent)))
        return; // [W, Wp) x [H, Hp) stays unwritten: VkFFT's zero padding never reads it
    const vec3 rgb = texelFetch(frame, ivec2(p), 0).rgb;
    const uint i = p.y * pc.rowPitchElements + p.x;
    planar[i] = rgb.r;
    planar[i + pc.planeStrideElements] = rgb.g;
    planar[i + 2u * pc.planeStrideElements] = rgb.b;
}
