// SPDX-License-Identifier: MIT
// The artist's placement of a kernel: its rotation and the point of it that falls on the light (FftbKernelInfo).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fftb
{

/// How a kernel is turned and moved before it is normalized (FftbKernelInfo::rotationDegrees, centreOffsetU,
/// centreOffsetV). Zero: as given.
struct KernelPlacement
{
    /// Counter-clockwise on the frame (x right, y down), about the point that falls on the light; any finite value.
    double rotationDegrees = 0.0;
    /// The point of the kernel that falls on the light, from its centre texel (W / 2, H / 2), in fractions of its
    /// width and height (Unreal Engine's Convolution Bloom "Center UV" minus 0.5): finite, in [-1, 1].
    double centreOffsetU = 0.0;
    double centreOffsetV = 0.0;
    bool identity() const { return rotationDegrees == 0.0 && centreOffsetU == 0.0 && centreOffsetV == 0.0; }
};

/// False and a reason naming the field when `placement` is out of its range.
bool checkKernelPlacement(const KernelPlacement& placement, std::string* error);

/// The `width` x `height` RGB texels (interleaved, row-major) of the kernel placed as `placement` says, in the same
/// W x H texels with the same centre c = (W / 2, H / 2):
///   out(q) = in(c + o + R(-theta) (q - c)),  o = (u W, v H),
/// R(theta) the rotation by theta counter-clockwise on the frame, (x, y) -> (x cos + y sin, -x sin + y cos) with y
/// down, and in(p) Keys' cubic convolution of the texels at p (a = -1/2; 0 outside them), negative results set to 0. So
/// the kernel's point c + o lands on the light and the kernel turns about it. Light moved outside the W x H texels is
/// dropped (a kernel that reaches its corners loses their tips when turned). The identity placement returns the texels
/// unchanged; a rotation by a multiple of 90 degrees with integer offsets moves texels without interpolating them.
std::vector<float> placeKernel(const float* texels, uint32_t width, uint32_t height, const KernelPlacement& placement);

} // namespace fftb
