// SPDX-License-Identifier: MIT
// fftbloom-viewer's display pass: the HDR frame to the window, exposed, tonemapped and sRGB-encoded.
#version 450

#extension GL_GOOGLE_include_directive : require

#include "display_shared.h"

layout(local_size_x = DISPLAY_WORKGROUP_SIZE, local_size_y = DISPLAY_WORKGROUP_SIZE) in;

layout(set = 0, binding = DISPLAY_BINDING_SHOWN) uniform sampler2D shown;
layout(set = 0, binding = DISPLAY_BINDING_TARGET, rgba8) uniform writeonly image2D display;
layout(set = 0, binding = DISPLAY_BINDING_COMPARED) uniform sampler2D compared;
layout(set = 0, binding = DISPLAY_BINDING_LUT) uniform sampler3D ocioLut;

layout(push_constant) uniform DisplayConstantsBlock
{
    DISPLAY_CONSTANTS_FIELDS
}
pc;

// Krzysztof Narkowicz, "ACES Filmic Tone Mapping Curve" (2015): a rational fit of the ACES RRT + ODT luminance
// response, with his 0.6 prescale so that exposure 0 matches the reference.
vec3 acesFitted(vec3 x)
{
    x *= 0.6;
    return clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);
}

// Stephen Hill's fit of the ACES RRT + ODT (BakingLab, ACES.hlsl, 2016): sRGB -> AP1-ish input matrix, a rational
// curve, and the output matrix back; desaturates bright colours the way the reference transform does.
vec3 acesHill(vec3 c)
{
    c = vec3(dot(vec3(0.59719, 0.35458, 0.04823), c), dot(vec3(0.07600, 0.90834, 0.01566), c),
             dot(vec3(0.02840, 0.13383, 0.83777), c));
    c = (c * (c + 0.0245786) - 0.000090537) / (c * (0.983729 * c + 0.4329510) + 0.238081);
    c = vec3(dot(vec3(1.60475, -0.53108, -0.07367), c), dot(vec3(-0.10208, 1.10813, -0.00605), c),
             dot(vec3(-0.00327, -0.07276, 1.07602), c));
    return clamp(c, 0.0, 1.0);
}

vec3 encodeSrgb(vec3 c)
{
    return mix(12.92 * c, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

vec3 decodeSrgb(vec3 c)
{
    return mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), step(vec3(0.04045), c));
}

// The OpenColorIO display transform, trilinear in its LUT over the log2 shaper (OcioDisplay::lut): display values.
vec3 ocioDisplay(vec3 x)
{
    const float lo = DISPLAY_LUT_LOG2_MIN, hi = DISPLAY_LUT_LOG2_MAX, n = float(DISPLAY_LUT_SIZE);
    const vec3 s = clamp((log2(max(x, vec3(exp2(lo)))) - lo) / (hi - lo), 0.0, 1.0);
    return clamp(texture(ocioLut, (s * (n - 1.0) + 0.5) / n).rgb, 0.0, 1.0);
}

// The texels under one window pixel averaged (up to 4 x 4 of them): a zoomed-out view without aliasing, before the
// tonemap as a camera would integrate light.
vec3 pixelAverage(sampler2D image, vec2 texel)
{
    const int taps = clamp(int(ceil(pc.texelsPerPixel)), 1, 4);
    const vec2 corner = texel - 0.5 * pc.texelsPerPixel;
    const float step = pc.texelsPerPixel / float(taps);
    vec3 sum = vec3(0.0);
    for (int j = 0; j < taps; ++j)
        for (int i = 0; i < taps; ++i)
        {
            const ivec2 at = clamp(ivec2(corner + (vec2(i, j) + 0.5) * step), ivec2(0), pc.imageExtent - 1);
            sum += max(texelFetch(image, at, 0).rgb, vec3(0.0));
        }
    return sum / float(taps * taps);
}

void main()
{
    const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, pc.targetExtent)))
        return;
    const vec2 texel = (vec2(p) + 0.5 - pc.imageOrigin) * pc.texelsPerPixel;
    vec3 colour = vec3(0.08); // the backdrop around the image
    if (all(greaterThanEqual(texel, vec2(0.0))) && all(lessThan(texel, vec2(pc.imageExtent))))
    {
        vec3 hdr = pixelAverage(shown, texel);
        if (pc.mode == DISPLAY_MODE_SPLIT && float(p.x) + 0.5 >= pc.splitX)
            hdr = pixelAverage(compared, texel);
        else if (pc.mode == DISPLAY_MODE_DIFFERENCE)
            hdr = abs(hdr - pixelAverage(compared, texel)) * pc.differenceScale;
        if (pc.mode == DISPLAY_MODE_VALUES)
            colour = clamp(hdr, 0.0, 1.0);
        else
        {
            hdr *= pc.exposureScale;
            if (pc.tonemapper == DISPLAY_TONEMAP_OCIO)
            {
                // Encoded for the display already: an sRGB swapchain's encoding is undone beforehand.
                colour = ocioDisplay(hdr);
                imageStore(display, p, vec4(pc.encodeSrgb != 0 ? colour : decodeSrgb(colour), 1.0));
                return;
            }
            if (pc.tonemapper == DISPLAY_TONEMAP_ACES_FITTED)
                colour = acesFitted(hdr);
            else if (pc.tonemapper == DISPLAY_TONEMAP_ACES_HILL)
                colour = acesHill(hdr);
            else if (pc.tonemapper == DISPLAY_TONEMAP_REINHARD)
                colour = hdr / (1.0 + hdr);
            else
                colour = clamp(hdr, 0.0, 1.0);
            if (pc.encodeSrgb != 0)
                colour = encodeSrgb(colour);
        }
    }
    imageStore(display, p, vec4(colour, 1.0));
}
