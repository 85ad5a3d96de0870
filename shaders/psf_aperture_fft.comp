// SPDX-License-Identifier: MIT
// PSF generator, step 1: the aperture's transmission on two grid rows (the iris, obstruction and vanes, times every
// occluder that reaches the rows), and their real-packed forward FFT; stores their half spectra in the generator's
// buffer (FftbPsfPushConstants).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared/fftb_shared.h"
#include "fft.glsl"
#include "psf.glsl"

// Occluders reaching this workgroup's rows, gathered in batches into fftRe (the occluder) and fftIm (the first and last
// grid column it can cover, 16 bits each) before the FFT uses them.
shared uint reachingCount;

void main()
{
    const uint v0 = 2u * gl_WorkGroupID.x;
    const uint j0 = pc.firstRow + v0, j1 = j0 + 1u;
    float t0[FFTB_MAX_ELEMENTS_PER_INVOCATION], t1[FFTB_MAX_ELEMENTS_PER_INVOCATION];
    for (uint e = 0u; e < ELEMENTS; ++e)
    {
        const uint i = fftTimeIndex(e);
        t0[e] = i < FFT_LENGTH ? stopTransmission(i, j0) : 0.0;
        t1[e] = i < FFT_LENGTH ? stopTransmission(i, j1) : 0.0;
    }
    const uint batch = min(SHARED_LENGTH, 1024u);
    for (uint first = 0u; first < pc.occluderCount; first += batch)
    {
        if (gl_LocalInvocationID.x == 0u)
            reachingCount = 0u;
        barrier();
        for (uint o = first + gl_LocalInvocationID.x; o < min(first + batch, pc.occluderCount); o += WORKGROUP_SIZE)
        {
            if (occluderReachesRows(o, j0, j1))
            {
                const uint slot = atomicAdd(reachingCount, 1u);
                const uvec2 columns = occluderColumns(o);
                fftRe[slot] = uintBitsToFloat(o);
                fftIm[slot] = uintBitsToFloat(columns.x | (columns.y << 16u));
            }
        }
        barrier();
        // Outside its columns an occluder's factor is exactly 1: only the samples it can cover are evaluated.
        for (uint n = 0u; n < reachingCount; ++n)
        {
            const uint o = floatBitsToUint(fftRe[n]), columns = floatBitsToUint(fftIm[n]);
            const uint first = columns & 0xffffu, last = columns >> 16u;
            for (uint e = 0u; e < ELEMENTS; ++e)
            {
                const uint i = fftTimeIndex(e);
                if (i >= first && i <= last)
                {
                    t0[e] *= occlusion(o, i, j0);
                    t1[e] *= occlusion(o, i, j1);
                }
            }
        }
        barrier();
    }
    for (uint e = 0u; e < ELEMENTS; ++e)
    {
        if (fftTimeIndex(e) >= FFT_LENGTH)
            break;
        fftPut(e, vec2(t0[e], t1[e]));
    }
    fftRun(false);
    storeHalfSpectra(0u, v0, pc.rows);
}
