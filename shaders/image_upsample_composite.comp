// SPDX-License-Identifier: MIT
// Pass 4, reduced resolution only: upsamples the bloom pass 3 wrote into the scratch to the frame (common.glsl,
// upsampledBloom: bilinear, texel centres aligned) and writes the bloom or the composite, as pass 3 does at full resolution; alpha passes through.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared/fftb_shared.h"
#include "common.glsl"
#define FFTB_WRITES_OUTPUT
#include "frame_views.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

void main()
{
    const ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(gl_GlobalInvocationID.xy, frameExtent())))
        return;
    const vec3 bloom = upsampledBloom(pc.scratchBloomStart, reduction(), texel);
    const vec4 source = fetchFrame(texel);
    storeOutput(texel, vec4(compositeOf(source, bloom), source.a));
}
