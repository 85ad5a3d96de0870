// SPDX-License-Identifier: MIT
// Pass 4, half resolution only: upsamples the bloom pass 3 wrote into the scratch to the frame (bilinear, texel
// centres aligned: frame texel x reads the downsampled frame at (x + 1/2) / 2 - 1/2, clamped to its edge texels) and
// writes the bloom or the composite, as pass 3 does at full resolution; alpha passes through.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared/fftb_shared.h"
#include "common.glsl"
#define FFTB_WRITES_OUTPUT
#include "frame_views.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

vec3 halfResolutionBloom(ivec2 texel)
{
    const uint at = halfResolutionBloomIndex(texel);
    return vec3(uintBitsToFloat(intermediate[at]), uintBitsToFloat(intermediate[at + 1u].x));
}

void main()
{
    const uvec2 extent = frameExtent();
    const ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(gl_GlobalInvocationID.xy, extent)))
        return;
    const ivec2 last = imageCoord(pc.imageLength1, pc.imageLength2) - 1;
    // Even x lies a quarter texel right of its downsampled texel's centre, odd x a quarter left.
    const vec2 position = max(vec2(texel) * 0.5 - 0.25, vec2(0.0));
    const ivec2 a = min(ivec2(position), last), b = min(a + 1, last);
    const vec2 f = position - vec2(a);
    const vec3 bloom = mix(mix(halfResolutionBloom(a), halfResolutionBloom(ivec2(b.x, a.y)), f.x),
                           mix(halfResolutionBloom(ivec2(a.x, b.y)), halfResolutionBloom(b), f.x), f.y);
    const vec4 source = fetchFrame(texel);
    storeOutput(texel, vec4(compositeOf(source, bloom), source.a));
}
