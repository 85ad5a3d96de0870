// SPDX-License-Identifier: MIT
// PSF generator, step 3: each kernel texel integrates the diffraction pattern over its footprint at every wavelength
// (the pattern scales with lambda: a texel spans binsPerTexel * 550 nm / lambda bins), weighted by the wavelength's
// linear Rec.709 R, G, B (CIE 1931), summed and clamped at 0 (host/psf/psf_generator.cpp, axisTaps); each workgroup
// also writes its texels' sums per channel for step 4.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared/fftb_shared.h"
#include "psf.glsl"

layout(local_size_x = FFTB_PSF_TILE, local_size_y = FFTB_PSF_TILE) in;

// Planar RGB, x fastest: texels[(channel * K + y) * K + x].
layout(set = 0, binding = FFTB_BINDING_KERNEL_TEXELS, std430) writeonly buffer KernelTexels
{
    float kernelTexels[];
};

// Integral of the unit tent max(0, 1 - |t|) from -infinity to t.
float tentIntegral(float t)
{
    if (t <= -1.0)
        return 0.0;
    if (t <= 0.0)
        return 0.5 * (t + 1.0) * (t + 1.0);
    if (t < 1.0)
        return 1.0 - 0.5 * (1.0 - t) * (1.0 - t);
    return 1.0;
}

shared vec3 partial[FFTB_PSF_TILE * FFTB_PSF_TILE];

// Bins a texel's footprint touches along an axis: it spans at most 2 * 1.2197 * 550 / 380 = 3.53 bins (an Airy radius
// of 1 texel at 380 nm; psf_model.h, psfFftSizeBound), so floor(lo) .. ceil(lo + 3.53) holds at most 6; a tile of 16
// texels at most 16 * 3.53 + 6 < 64 bins.
const int MAX_TAPS = 6;
const int MAX_SPAN = 64;
// Per wavelength, separably: the weights of each column's and each row's bins, then the pattern's rows the tile
// touches integrated along x for each column of the tile (`across`), then those along y for each texel. (Weights
// computed where they are used instead, with two alternating `across` buffers and one barrier a wavelength, measured
// 10 % slower on an H100 at K = 256 and 50 % at 512: bench/results/README.md.)
shared float weightX[FFTB_PSF_TILE][MAX_TAPS];
shared float weightY[FFTB_PSF_TILE][MAX_TAPS];
shared int firstBinX[FFTB_PSF_TILE];
shared int firstBinY[FFTB_PSF_TILE];
shared int tapsX[FFTB_PSF_TILE];
shared int tapsY[FFTB_PSF_TILE];
shared float across[MAX_SPAN][FFTB_PSF_TILE];

// Texel `t`'s footprint along an axis at `bins` bins per texel: [lo, lo + bins] around bin N/2.
float footprintStart(uint t, float bins)
{
    return (float(t) - float(pc.kernelLength / 2u) - 0.5) * bins;
}

void main()
{
    // The kernel is point-symmetric about its centre (the pattern is, |F(-k)| = |F(k)|, and texel K - x's footprint is
    // texel x's mirrored): workgroup rows 0 .. T/2 - 1 (T = K / 16 tiles a side) compute rows K/2 .. K - 1 and write
    // each texel (x, y), x >= 1, y > K/2, at (K - x, K - y) too; row T/2 computes the tiles of row 0, which write that
    // row alone, and row T/2 + 1 the tiles of column 0 above K/2, which write that column alone (rows 1 .. K/2 - 1).
    const uint k = pc.kernelLength, tiles = k / FFTB_PSF_TILE, halfTiles = tiles / 2u;
    const uvec2 group = gl_WorkGroupID.xy;
    if (group.y == halfTiles + 1u && group.x >= halfTiles)
    {
        // The whole workgroup: column 0 has T/2 tiles above K/2. No texels, no light.
        if (gl_LocalInvocationIndex < 3u)
            setPsfWord(3u * (group.y * tiles + group.x) + gl_LocalInvocationIndex, 0.0);
        return;
    }
    const uvec2 origin = group.y < halfTiles   ? uvec2(group.x, halfTiles + group.y) * FFTB_PSF_TILE
                         : group.y == halfTiles ? uvec2(group.x * FFTB_PSF_TILE, 0u)
                                                : uvec2(0u, group.x * FFTB_PSF_TILE);
    const uvec2 local = gl_LocalInvocationID.xy;
    const uvec2 texel = origin + local;
    const uint n = pc.fftLength, id = gl_LocalInvocationIndex;
    const int centre = int(n / 2u);
    vec3 sum = vec3(0.0);
    for (uint w = 0u; w < pc.wavelengthCount; ++w)
    {
        const uint word = pc.wavelengthStart + w * FFTB_PSF_WAVELENGTH_WORDS;
        const float bins = psfWord(word);
        // The weights integrate the linear interpolation between bin centres over each footprint.
        if (id < 2u * FFTB_PSF_TILE)
        {
            const uint t = id % FFTB_PSF_TILE;
            const bool x = id < FFTB_PSF_TILE;
            const float lo = footprintStart((x ? origin.x : origin.y) + t, bins), hi = lo + bins;
            const int first = int(floor(lo)), taps = min(int(ceil(hi)) - first + 1, MAX_TAPS);
            for (int j = 0; j < MAX_TAPS; ++j)
            {
                const float weight =
                    j < taps ? tentIntegral(hi - float(first + j)) - tentIntegral(lo - float(first + j)) : 0.0;
                if (x)
                    weightX[t][j] = weight;
                else
                    weightY[t][j] = weight;
            }
            if (x)
            {
                firstBinX[t] = first;
                tapsX[t] = taps;
            }
            else
            {
                firstBinY[t] = first;
                tapsY[t] = taps;
            }
        }
        barrier();
        const int firstRow = firstBinY[0];
        const int rows = min(firstBinY[FFTB_PSF_TILE - 1] + tapsY[FFTB_PSF_TILE - 1] - firstRow, MAX_SPAN);
        for (uint e = id; e < uint(rows) * FFTB_PSF_TILE; e += FFTB_PSF_TILE * FFTB_PSF_TILE)
        {
            const uint column = e % FFTB_PSF_TILE;
            const uint row =
                pc.patternStart + uint(clamp(firstRow + int(e / FFTB_PSF_TILE) + centre, 0, int(n) - 1)) * n;
            float value = 0.0;
            for (int j = 0; j < tapsX[column]; ++j)
                value += weightX[column][j] * psfWord(row + uint(clamp(firstBinX[column] + j + centre, 0, int(n) - 1)));
            across[e / FFTB_PSF_TILE][column] = value;
        }
        barrier();
        float value = 0.0;
        for (int j = 0; j < tapsY[local.y]; ++j)
            value += weightY[local.y][j] * across[min(firstBinY[local.y] - firstRow + j, MAX_SPAN - 1)][local.x];
        sum += value * vec3(psfWord(word + 1u), psfWord(word + 2u), psfWord(word + 3u));
        barrier(); // the next wavelength's weights overwrite these
    }
    // Spectral colours outside the Rec.709 gamut sum to negative values where one hue dominates.
    sum = max(sum, vec3(0.0));
    const bool own = group.y < halfTiles || (group.y == halfTiles ? texel.y == 0u : texel.x == 0u && texel.y > 0u);
    const bool mirrored = group.y < halfTiles && texel.x > 0u && texel.y > k / 2u;
    if (own)
        for (uint c = 0u; c < 3u; ++c)
            kernelTexels[(c * k + texel.y) * k + texel.x] = sum[c];
    if (mirrored)
        for (uint c = 0u; c < 3u; ++c)
            kernelTexels[(c * k + k - texel.y) * k + k - texel.x] = sum[c];
    // The workgroup's sums per channel over the texels it wrote, for the normalization: at word 3 * workgroup of the
    // buffer, over the rows' half spectra, which pass 2 has read.
    partial[id] = (own ? sum : vec3(0.0)) + (mirrored ? sum : vec3(0.0));
    barrier();
    for (uint stride = FFTB_PSF_TILE * FFTB_PSF_TILE / 2u; stride > 0u; stride /= 2u)
    {
        if (id < stride)
            partial[id] += partial[id + stride];
        barrier();
    }
    if (id < 3u)
    {
        setPsfWord(3u * (group.y * tiles + group.x) + id, partial[0][id]); // T workgroups a row (no HLSL NumWorkgroups)
    }
}
