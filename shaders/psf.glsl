// SPDX-License-Identifier: MIT
// The PSF generator's push constants, its buffer's words, and the aperture's transmission: the iris, obstruction and
// vanes of host/psf/psf_generator.cpp (Stop) and its occluders (plugin/plan/psf_model.h), in single precision.
#ifndef FFTB_PSF_GLSL
#define FFTB_PSF_GLSL

#include "intermediate.glsl"

layout(push_constant) uniform PsfPushBlock
{
    FftbPsfPushConstants pc;
};

const float PI = 3.14159265358979;

// 32-bit word w of the generator's buffer (FftbPsfPushConstants), as a float.
float psfWord(uint w)
{
    return uintBitsToFloat(intermediate[w >> 1u][w & 1u]);
}

void setPsfWord(uint w, float value)
{
    intermediate[w >> 1u][w & 1u] = floatBitsToUint(value);
}

// psfFade of plugin/plan/psf_model.h for `fade` at a texel of the K x K kernel (psfRadius about the centre texel
// (K/2, K/2), reach (K - 1) / 2 along both axes).
float psfFade(uvec2 texel, float fade)
{
    if (fade <= 0.0)
        return 1.0;
    const float rho = length(vec2(ivec2(texel) - int(pc.kernelLength / 2u))) / float((pc.kernelLength - 1u) / 2u);
    if (rho >= 1.0)
        return 0.0;
    const float start = 1.0 - fade;
    return rho <= start ? 1.0 : 0.5 + 0.5 * cos(PI * (rho - start) / fade);
}

// glareScatter of plugin/plan/psf_model.h at a texel's distance from the kernel's centre texel, tapered over the
// outer half of the kernel's radius (psfFade of plugin/plan/psf_model.h's kGlareTaperFade).
float taperedGlare(uvec2 texel)
{
    const float t = length(vec2(ivec2(texel) - int(pc.kernelLength / 2u))) * pc.glareDegreesPerTexel + 0.02;
    return psfFade(texel, 0.5) * (0.478 * 20.91 / (t * t * t) + 0.138 * 72.37 / (t * t));
}

// The area of a one-sample box inside an edge at signed distance d samples: the edges are antialiased.
float coverage(float d)
{
    return clamp(0.5 + d, 0.0, 1.0);
}

// Signed distance to the iris's edge (positive inside) in units of the aperture's radius: the nearest blade's arc of
// curvature k through two adjacent tips, its value over its gradient's length (first order), or the unit circle.
float irisDistance(vec2 p, float r)
{
    if (pc.blades == 0u)
        return 1.0 - r;
    const float h = cos(PI / float(pc.blades)), a = sin(PI / float(pc.blades)), k = pc.bladeCurvature;
    float nearest = 1.0e30;
    vec2 normal = vec2(0.0);
    for (uint e = 0u; e < pc.blades; ++e)
    {
        const float angle = PI / 2.0 + pc.bladeRotation + 2.0 * PI * (float(e) + 0.5) / float(pc.blades);
        const vec2 n = vec2(cos(angle), sin(angle));
        const float q = dot(p, n);
        const float f = h - q - 0.5 * k * (r * r - 2.0 * h * q + h * h - a * a);
        if (f < nearest)
        {
            nearest = f;
            normal = n;
        }
    }
    return nearest / length((1.0 - k * h) * normal + k * p);
}

// Transmission of the iris, obstruction and vanes at grid sample (i, j), the aperture centred on sample (N/2, N/2),
// y up; 0 beyond its reach.
float stopTransmission(uint i, uint j)
{
    const float radius = pc.radius;
    const vec2 p = vec2(float(int(i) - int(pc.fftLength / 2u)), float(int(pc.fftLength / 2u) - int(j))) / radius;
    const float r = length(p);
    const float limit = 1.0 + 2.0 / radius;
    if (dot(p, p) > limit * limit)
        return 0.0;
    float t = coverage(irisDistance(p, r) * radius);
    if (t <= 0.0)
        return 0.0;
    if (pc.obstruction > 0.0)
        t *= coverage((r - pc.obstruction) * radius);
    for (uint v = 0u; v < pc.vanes; ++v)
    {
        const float angle = pc.vaneAngle + 2.0 * PI * float(v) / float(pc.vanes);
        const vec2 d = vec2(cos(angle), sin(angle));
        const float along = dot(p, d);
        const float across = abs(p.x * d.y - p.y * d.x);
        t *= coverage(((along >= 0.0 ? across : r) - pc.vaneHalfWidth) * radius);
    }
    return t;
}

// Occluder o's factor on the transmission at grid sample (i, j): 1 - opacity * coverage.
float occlusion(uint o, uint i, uint j)
{
    const uint w = pc.occluderStart + o * FFTB_PSF_OCCLUDER_WORDS;
    const vec2 p = vec2(float(int(i) - int(pc.fftLength / 2u)), float(int(pc.fftLength / 2u) - int(j))) / pc.radius;
    const vec2 a = vec2(psfWord(w), psfWord(w + 1u));
    float distance = length(p - a);
    if (psfWord(w + 6u) != 0.0)
    {
        const vec2 ab = vec2(psfWord(w + 2u), psfWord(w + 3u)) - a;
        const float length2 = dot(ab, ab);
        distance = length(p - a - ab * clamp(dot(p - a, ab) / max(length2, 1.0e-30), 0.0, 1.0));
    }
    return 1.0 - psfWord(w + 5u) * coverage((psfWord(w + 4u) - distance) * pc.radius);
}

// Whether occluder o can cover any sample of grid rows j0 .. j1: its extent in y plus a sample and a half.
bool occluderReachesRows(uint o, uint j0, uint j1)
{
    const uint w = pc.occluderStart + o * FFTB_PSF_OCCLUDER_WORDS;
    const bool segment = psfWord(w + 6u) != 0.0;
    const float ay = psfWord(w + 1u), by = segment ? psfWord(w + 3u) : ay;
    const float reach = psfWord(w + 4u) + 1.5 / pc.radius;
    const float centre = float(pc.fftLength / 2u);
    const float top = centre - (max(ay, by) + reach) * pc.radius, bottom = centre - (min(ay, by) - reach) * pc.radius;
    return bottom >= float(j0) && top <= float(j1);
}

// The first and last grid column occluder o can cover (its factor is exactly 1 elsewhere: coverage is 0 a half sample
// past its edge): its extent in x plus a sample and a half, clamped to the grid.
uvec2 occluderColumns(uint o)
{
    const uint w = pc.occluderStart + o * FFTB_PSF_OCCLUDER_WORDS;
    const bool segment = psfWord(w + 6u) != 0.0;
    const float ax = psfWord(w), bx = segment ? psfWord(w + 2u) : ax;
    const float reach = psfWord(w + 4u) + 1.5 / pc.radius;
    const float centre = float(pc.fftLength / 2u), last = float(pc.fftLength - 1u);
    return uvec2(clamp(floor(centre + (min(ax, bx) - reach) * pc.radius), 0.0, last),
                 clamp(ceil(centre + (max(ax, bx) + reach) * pc.radius), 0.0, last));
}

#endif
