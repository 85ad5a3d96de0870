// SPDX-License-Identifier: MIT
// Pass 1's reads, for either FFT: the prefiltered frame (or at reduced resolution the frame downsampled f x per axis) at
// a padded position of a line along the first axis. Included after the FFT, which declares FFT_LENGTH.
#ifndef FFTB_FRAME_LINES_GLSL
#define FFTB_FRAME_LINES_GLSL

// Texel (x, y) of the image transformed: the frame texel's bloom source (bloomSource), or at reduced resolution f the
// mean of the sources of frame texels (f x, f y) .. (f x + f - 1, f y + f - 1), a texel past the frame's last column or
// row standing for the last (a box filter: the bloom is low-frequency). One loop, one fetch in the code: each fetch
// is a switch over the views (frame_views.glsl), which unrolled loops would multiply.
vec3 prefilteredTexel(ivec2 texel)
{
    const uint f = reduction();
    if (f == 1u)
        return bloomSource(fetchFrame(texel));
    const ivec2 last = ivec2(frameExtent()) - 1, origin = int(f) * texel;
    vec3 sum = vec3(0.0);
    for (uint i = 0u; i < f * f; ++i)
        sum += bloomSource(fetchFrame(min(origin + ivec2(i % f, i / f), last)));
    return sum / float(f * f);
}

// The prefiltered colour at padded position i of line v (0 in the zero padding and past the image's last line); 1
// inside the image when pass 3 writes the border weights (the image's indicator).
vec3 frameColour(uint i, uint v)
{
    const int u = paddedSource(i, pc.imageLength1, FFT_LENGTH, pc.mirrorSplit1);
    if (u < 0 || v >= pc.imageLength2)
        return vec3(0.0);
    if (pc.borderWeights == FFTB_GPU_BORDER_WEIGHTS_WRITE)
        return vec3(1.0);
    return prefilteredTexel(imageCoord(uint(u), v));
}

// Channel c of a colour, selected rather than indexed (a run-time index can move the colour to local memory).
float component(vec3 colour, uint c)
{
    return c == 0u ? colour.r : c == 1u ? colour.g : colour.b;
}

#endif
