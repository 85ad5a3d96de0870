// SPDX-License-Identifier: MIT
// The frame and the output of the view a workgroup blooms (intermediate.glsl, viewIndex): element viewIndex() of the
// image bindings' arrays, selected by a switch over constant indices (a run-time index into an array of images would
// need the device's shader*ArrayDynamicIndexing features). Define FFTB_WRITES_OUTPUT before including it in the
// passes that write the output.
#ifndef FFTB_FRAME_VIEWS_GLSL
#define FFTB_FRAME_VIEWS_GLSL

layout(set = 0, binding = FFTB_BINDING_INPUT_IMAGE) uniform sampler2D inputImages[FFTB_GPU_MAX_VIEWS];

// Calls STATEMENT(i) for the view's constant index i.
#define FFTB_FOR_VIEW(STATEMENT)                                                                                       \
    switch (viewIndex())                                                                                               \
    {                                                                                                                  \
    case 1u: STATEMENT(1); break;                                                                                      \
    case 2u: STATEMENT(2); break;                                                                                      \
    case 3u: STATEMENT(3); break;                                                                                      \
    case 4u: STATEMENT(4); break;                                                                                      \
    case 5u: STATEMENT(5); break;                                                                                      \
    case 6u: STATEMENT(6); break;                                                                                      \
    case 7u: STATEMENT(7); break;                                                                                      \
    default: STATEMENT(0); break;                                                                                      \
    }

// Texel `texel` of the view's frame, as texelFetch at level 0.
vec4 fetchFrame(ivec2 texel)
{
    vec4 value;
#define FFTB_FETCH(i) value = texelFetch(inputImages[i], texel, 0)
    FFTB_FOR_VIEW(FFTB_FETCH)
#undef FFTB_FETCH
    return value;
}

#ifdef FFTB_WRITES_OUTPUT
layout(set = 0, binding = FFTB_BINDING_OUTPUT_IMAGE) uniform writeonly image2D outputImages[FFTB_GPU_MAX_VIEWS];

// Writes `value` to texel `texel` of the view's output.
void storeOutput(ivec2 texel, vec4 value)
{
#define FFTB_STORE(i) imageStore(outputImages[i], texel, value)
    FFTB_FOR_VIEW(FFTB_STORE)
#undef FFTB_STORE
}
#endif

#endif
