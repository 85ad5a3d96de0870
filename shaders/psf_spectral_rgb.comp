// SPDX-License-Identifier: MIT
// PSF generator, step 3: each kernel texel integrates the diffraction pattern over its footprint at every wavelength
// (the pattern scales with lambda: a texel spans binsPerTexel * 550 nm / lambda bins), weighted by the wavelength's
// linear Rec.709 R, G, B (CIE 1931), summed, clamped at 0 and faded (host/psf/psf_generator.cpp, axisTaps,
// withEnvelope); each workgroup also writes its texels' sums per channel and of the tapered glare for step 4. The
// wavelengths are split over the workgroup's FFTB_PSF_SLICES slices, each a 16 x 16 grid of invocations, one per texel
// of the tile: the chain of barriers a workgroup waits through is that many times shorter. (On an H200: 4 slices
// against 1, 0.041 against 0.062 ms at K = 256, the same at 512, 0.296 against 0.280 at 1024, where the tiles alone
// fill the GPU; bench/results/README.md.)
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "shared/fftb_shared.h"
#include "psf.glsl"

layout(local_size_x = FFTB_PSF_TILE, local_size_y = FFTB_PSF_TILE, local_size_z = FFTB_PSF_SLICES) in;

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

shared vec4 partial[FFTB_PSF_TILE * FFTB_PSF_TILE];

// Bins a texel's footprint touches along an axis: it spans at most 2 * 1.2197 * 550 / 380 = 3.53 bins (an Airy radius
// of 1 texel at 380 nm; psf_model.h, psfFftSizeBound), so floor(lo) .. ceil(lo + 3.53) holds at most 6; a tile of 16
// texels at most 16 * 3.53 + 6 < 64 bins.
const int MAX_TAPS = 6;
const int MAX_SPAN = 64;
// Per wavelength and slice, separably: the weights of each column's and each row's bins, then the pattern's rows the
// tile touches integrated along x for each column of the tile (`across`), then those along y for each texel. (Weights
// computed where they are used instead, with two alternating `across` buffers and one barrier a wavelength, measured
// 10 % slower on an H100 at K = 256 and 50 % at 512: bench/results/README.md.) At the end `across` holds each slice's
// sums, [slice][channel * 16 + y][x].
shared float weightX[FFTB_PSF_SLICES][FFTB_PSF_TILE][MAX_TAPS];
shared float weightY[FFTB_PSF_SLICES][FFTB_PSF_TILE][MAX_TAPS];
shared int firstBinX[FFTB_PSF_SLICES][FFTB_PSF_TILE];
shared int firstBinY[FFTB_PSF_SLICES][FFTB_PSF_TILE];
shared int tapsY[FFTB_PSF_SLICES][FFTB_PSF_TILE];
shared float across[FFTB_PSF_SLICES][MAX_SPAN][FFTB_PSF_TILE];

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
        if (gl_LocalInvocationIndex < 4u)
            setPsfWord(4u * (group.y * tiles + group.x) + gl_LocalInvocationIndex, 0.0);
        return;
    }
    const uvec2 origin = group.y < halfTiles   ? uvec2(group.x, halfTiles + group.y) * FFTB_PSF_TILE
                         : group.y == halfTiles ? uvec2(group.x * FFTB_PSF_TILE, 0u)
                                                : uvec2(0u, group.x * FFTB_PSF_TILE);
    const uvec2 local = gl_LocalInvocationID.xy;
    const uvec2 texel = origin + local;
    const uint slice = gl_LocalInvocationID.z;
    const uint n = pc.fftLength, id = local.y * FFTB_PSF_TILE + local.x; // within the slice
    const int centre = int(n / 2u);
    vec3 sum = vec3(0.0);
    // Slice s takes wavelengths s, s + 4, s + 8, ...; every slice runs as many batches (the barriers).
    for (uint batch = 0u; batch < pc.wavelengthCount; batch += FFTB_PSF_SLICES)
    {
        const uint w = batch + slice;
        const bool hasWavelength = w < pc.wavelengthCount;
        const uint word = pc.wavelengthStart + min(w, pc.wavelengthCount - 1u) * FFTB_PSF_WAVELENGTH_WORDS;
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
                    weightX[slice][t][j] = weight;
                else
                    weightY[slice][t][j] = weight;
            }
            if (x)
                firstBinX[slice][t] = first;
            else
            {
                firstBinY[slice][t] = first;
                tapsY[slice][t] = taps;
            }
        }
        barrier();
        const int firstRow = firstBinY[slice][0];
        const int rows =
            min(firstBinY[slice][FFTB_PSF_TILE - 1] + tapsY[slice][FFTB_PSF_TILE - 1] - firstRow, MAX_SPAN);
        for (uint e = id; e < uint(rows) * FFTB_PSF_TILE; e += FFTB_PSF_TILE * FFTB_PSF_TILE)
        {
            const uint column = e % FFTB_PSF_TILE;
            const uint row =
                pc.patternStart + uint(clamp(firstRow + int(e / FFTB_PSF_TILE) + centre, 0, int(n) - 1)) * n;
            // Every tap, weight 0 past the column's: the loads are independent and issued together.
            float value = 0.0;
            [[unroll]] for (int j = 0; j < MAX_TAPS; ++j)
                value += weightX[slice][column][j] *
                         psfWord(row + uint(clamp(firstBinX[slice][column] + j + centre, 0, int(n) - 1)));
            across[slice][e / FFTB_PSF_TILE][column] = value;
        }
        barrier();
        if (hasWavelength)
        {
            // Rows past the texel's taps may hold anything (shared memory is not initialized): selected out.
            float value = 0.0;
            [[unroll]] for (int j = 0; j < MAX_TAPS; ++j)
                value += j < tapsY[slice][local.y]
                             ? weightY[slice][local.y][j] *
                                   across[slice][min(firstBinY[slice][local.y] - firstRow + j, MAX_SPAN - 1)][local.x]
                             : 0.0;
            sum += value * vec3(psfWord(word + 1u), psfWord(word + 2u), psfWord(word + 3u));
        }
        barrier(); // the next wavelength's weights overwrite these
    }
    // The slices' sums, added in slice 0 (in slice order: the same sum on every device).
    for (uint c = 0u; c < 3u; ++c)
        across[slice][c * FFTB_PSF_TILE + local.y][local.x] = sum[c];
    barrier();
    sum = vec3(0.0);
    for (uint s = 0u; s < FFTB_PSF_SLICES; ++s)
        sum += vec3(across[s][local.y][local.x], across[s][FFTB_PSF_TILE + local.y][local.x],
                    across[s][2u * FFTB_PSF_TILE + local.y][local.x]);
    // Spectral colours outside the Rec.709 gamut sum to negative values where one hue dominates. Then the fade.
    sum = max(sum, vec3(0.0)) * psfFade(texel, pc.fade);
    const bool own = slice == 0u &&
                     (group.y < halfTiles || (group.y == halfTiles ? texel.y == 0u : texel.x == 0u && texel.y > 0u));
    const bool mirrored = slice == 0u && group.y < halfTiles && texel.x > 0u && texel.y > k / 2u;
    if (own)
        for (uint c = 0u; c < 3u; ++c)
            kernelTexels[(c * k + texel.y) * k + texel.x] = sum[c];
    if (mirrored)
        for (uint c = 0u; c < 3u; ++c)
            kernelTexels[(c * k + k - texel.y) * k + k - texel.x] = sum[c];
    // The workgroup's sums per channel over the texels it wrote, and of the tapered glare there (the same at a texel
    // and its mirror), for the normalization: at word 4 * workgroup of the buffer, over the rows' half spectra, which
    // pass 2 has read.
    if (slice == 0u)
    {
        const vec4 texelSums = vec4(sum, taperedGlare(texel));
        partial[id] = (own ? texelSums : vec4(0.0)) + (mirrored ? texelSums : vec4(0.0));
    }
    barrier();
    for (uint stride = FFTB_PSF_TILE * FFTB_PSF_TILE / 2u; stride > 0u; stride /= 2u)
    {
        if (slice == 0u && id < stride)
            partial[id] += partial[id + stride];
        barrier();
    }
    if (slice == 0u && id < 4u)
    {
        setPsfWord(4u * (group.y * tiles + group.x) + id, partial[0][id]); // T workgroups a row (no HLSL NumWorkgroups)
    }
}
