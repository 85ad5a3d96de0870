// SPDX-License-Identifier: MIT
// The display pass's bindings, modes and push constants, shared by the viewer (C++) and tonemap.comp (GLSL).
#ifndef FFTBLOOM_VIEWER_DISPLAY_SHARED_H
#define FFTBLOOM_VIEWER_DISPLAY_SHARED_H

#define DISPLAY_BINDING_SHOWN 0    // combined image sampler: A's bloom output, the input frame, or a kernel view
#define DISPLAY_BINDING_TARGET 1   // storage image, rgba8: the window-sized display image (or the save target)
#define DISPLAY_BINDING_COMPARED 2 // combined image sampler: B's bloom output (split and difference modes)
#define DISPLAY_BINDING_LUT 3      // combined image sampler, 3D: the OpenColorIO display transform (OcioDisplay::lut)

#define DISPLAY_MODE_SHOWN 0      // the shown image
#define DISPLAY_MODE_SPLIT 1      // shown left of splitX, compared right of it
#define DISPLAY_MODE_DIFFERENCE 2 // |shown - compared| * differenceScale
#define DISPLAY_MODE_VALUES 3     // shown as display values: no exposure, tonemap or sRGB encoding (kernel views)

#define DISPLAY_TONEMAP_ACES_FITTED 0 // Narkowicz 2015
#define DISPLAY_TONEMAP_ACES_HILL 1   // Stephen Hill's RRT + ODT fit
#define DISPLAY_TONEMAP_REINHARD 2    // x / (1 + x)
#define DISPLAY_TONEMAP_CLAMP 3
#define DISPLAY_TONEMAP_OCIO 4 // the OpenColorIO config $OCIO names, through the LUT: display-encoded values

// The LUT's grid: DISPLAY_LUT_SIZE nodes an axis, over 2^DISPLAY_LUT_LOG2_MIN .. 2^DISPLAY_LUT_LOG2_MAX scene-linear
// (after the exposure): 24 stops, 0.375 stop between nodes.
#define DISPLAY_LUT_SIZE 65
#define DISPLAY_LUT_LOG2_MIN -12.0
#define DISPLAY_LUT_LOG2_MAX 12.0

#define DISPLAY_WORKGROUP_SIZE 8 // 8 x 8 invocations

// std430 push-constant layout; the C++ side checks the offsets.
#define DISPLAY_CONSTANTS_FIELDS                                                                                       \
    DISPLAY_VEC2 imageOrigin;   /* window pixel where texel (0, 0)'s corner lies */                                    \
    float texelsPerPixel;       /* image texels per window pixel (the zoom) */                                         \
    float exposureScale;        /* 2^exposure */                                                                       \
    DISPLAY_IVEC2 imageExtent;  /* the shown image's extent in texels */                                               \
    DISPLAY_IVEC2 targetExtent; /* the target's extent in pixels */                                                    \
    int tonemapper;             /* DISPLAY_TONEMAP_* */                                                                \
    int encodeSrgb;             /* 0 when the swapchain format encodes sRGB itself */                                  \
    int mode;                   /* DISPLAY_MODE_* */                                                                   \
    float splitX;               /* window x of the A/B divider */                                                      \
    float differenceScale;      /* gain of the difference mode */

#ifdef VULKAN
#define DISPLAY_VEC2 vec2
#define DISPLAY_IVEC2 ivec2
#else
#include <cstddef>

namespace fftb::viewer
{
struct DisplayVec2
{
    float x, y;
};
struct DisplayIVec2
{
    int x, y;
};
#define DISPLAY_VEC2 DisplayVec2
#define DISPLAY_IVEC2 DisplayIVec2
struct DisplayConstants
{
    DISPLAY_CONSTANTS_FIELDS
};
static_assert(offsetof(DisplayConstants, imageOrigin) == 0 && offsetof(DisplayConstants, texelsPerPixel) == 8 &&
                  offsetof(DisplayConstants, imageExtent) == 16 && offsetof(DisplayConstants, targetExtent) == 24 &&
                  offsetof(DisplayConstants, tonemapper) == 32 && offsetof(DisplayConstants, mode) == 40 &&
                  offsetof(DisplayConstants, differenceScale) == 48 && sizeof(DisplayConstants) == 52,
              "DisplayConstants must have tonemap.comp's std430 layout");
} // namespace fftb::viewer
#endif

#endif
