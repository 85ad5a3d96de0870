// fftbloom-viewer's display pass: the HDR frame to the window, exposed, tonemapped and sRGB-encoded.
#version 450

layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0) uniform sampler2D shown;    // A's bloom output, the input frame, or a kernel view
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D display;
layout(set = 0, binding = 2) uniform sampler2D compared; // B's bloom output in the split and difference modes

layout(push_constant) uniform DisplayConstants
{
    vec2 imageOrigin;     // window pixel where texel (0, 0)'s corner lies
    float texelsPerPixel; // image texels per window pixel (the zoom)
    float exposureScale;  // 2^exposure
    ivec2 imageExtent;
    ivec2 displayExtent;
    int tonemapper;       // 0 ACES fitted (Narkowicz), 1 ACES (Hill), 2 Reinhard, 3 clamp
    int encodeSrgb;       // 0 when the swapchain format encodes sRGB itself
    int mode;             // 0 shown, 1 split (shown left of splitX, compared right), 2 |shown - compared|,
                          // 3 shown as display values (kernel views: no exposure, tonemap or encoding)
    float splitX;         // window x of the divider
    float differenceScale; // gain of the difference mode
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

void main()
{
    const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, pc.displayExtent)))
        return;
    const vec2 texel = (vec2(p) + 0.5 - pc.imageOrigin) * pc.texelsPerPixel;
    vec3 colour = vec3(0.08); // the backdrop around the image
    if (all(greaterThanEqual(texel, vec2(0.0))) && all(lessThan(texel, vec2(pc.imageExtent))))
    {
        vec3 hdr = max(texelFetch(shown, ivec2(texel), 0).rgb, vec3(0.0));
        if (pc.mode == 1 && float(p.x) + 0.5 >= pc.splitX)
            hdr = max(texelFetch(compared, ivec2(texel), 0).rgb, vec3(0.0));
        else if (pc.mode == 2)
            hdr = abs(hdr - max(texelFetch(compared, ivec2(texel), 0).rgb, vec3(0.0))) * pc.differenceScale;
        hdr *= pc.mode == 3 ? 1.0 : pc.exposureScale;
        if (pc.mode == 3)
            colour = clamp(hdr, 0.0, 1.0);
        else if (pc.tonemapper == 0)
            colour = acesFitted(hdr);
        else if (pc.tonemapper == 1)
            colour = acesHill(hdr);
        else if (pc.tonemapper == 2)
            colour = hdr / (1.0 + hdr);
        else
            colour = clamp(hdr, 0.0, 1.0);
        if (pc.encodeSrgb != 0 && pc.mode != 3)
            colour = encodeSrgb(colour);
    }
    imageStore(display, p, vec4(colour, 1.0));
}
