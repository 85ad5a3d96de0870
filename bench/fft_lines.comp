// SPDX-License-Identifier: MIT
// fftbloom-bench --fft-lines: the FFT of fft.glsl alone, forward, on a batch of lineCount complex fp32 lines of
// FFT_LENGTH (contiguous rows, natural order in Lines and in Spectra), with the plugin's specialization constants and
// twiddle buffer: the engine's calibration, apart from any pass's loads, padding and stores; or (TRANSFORM false) the
// same loads and stores alone.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared/fftb_shared.h"
#include "fft.glsl"

layout(set = 0, binding = 0, std430) readonly buffer Lines
{
    vec2 lines[];
};

layout(set = 0, binding = 1, std430) writeonly buffer Spectra
{
    vec2 spectra[];
};

// 0: the copy in the engine's grid: the same workgroups, loads and stores, no FFT between them (the bytes' time alone).
layout(constant_id = FFTB_SPEC_COUNT) const bool TRANSFORM = true;

layout(push_constant) uniform Push
{
    uint lineCount; // lines of the batch; a workgroup's lines past it are transformed as zeros and not stored
};

// The line of the batch this invocation transforms: one line a workgroup (fft_lines.cpp, kLinesPerWorkgroup, makes as
// many workgroups as lines).
uint batchLine()
{
    return gl_WorkGroupID.x;
}

void main()
{
    const uint line = batchLine();
    const bool inBatch = line < lineCount; // no early return: every invocation reaches fftRun's barriers
    const uint start = line * FFT_LENGTH;
    vec2 held[FFTB_MAX_ELEMENTS_PER_INVOCATION];
    for (uint e = 0u; e < ELEMENTS; ++e)
    {
        const uint i = fftTimeIndex(e);
        held[e] = inBatch && i < FFT_LENGTH ? lines[start + i] : vec2(0.0);
    }
    if (!TRANSFORM)
    {
        for (uint e = 0u; e < ELEMENTS; ++e)
            if (inBatch && fftTimeIndex(e) < FFT_LENGTH)
                spectra[start + fftTimeIndex(e)] = held[e];
        return;
    }
    fftPutAll(held);
    fftRun(false);
    for (uint e = 0u; e < ELEMENTS; ++e)
    {
        const uint k = fftFrequencyIndex(e);
        if (k >= FFT_LENGTH)
            break;
        if (inBatch)
            spectra[start + k] = fftGet(e);
    }
}
