// In-memory images and kernels shared by the CLI, the CPU reference and the tests.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace fftb
{

/// Storage type of one channel in a file; pixels are always held as float in memory.
enum class PixelType
{
    Half,
    Float,
};

/// One named channel, row-major, width * height values, (0, 0) at the top left.
struct Channel
{
    std::string name;
    PixelType type = PixelType::Float;
    std::vector<float> values;
};

/// An image as read from a file: every channel kept, in file order, so extra channels pass through.
struct Image
{
    int width = 0;
    int height = 0;
    std::vector<Channel> channels;

    /// Index of the channel called `name` (exact match), or -1.
    int find(const std::string& name) const;
};

/// A colour plane set: width * height texels of interleaved floats, `components` per texel, row-major,
/// (0, 0) at the top left. Used for RGBA frames (4) and RGB point spread functions (3).
struct Texels
{
    int width = 0;
    int height = 0;
    int components = 0;
    std::vector<float> values;

    Texels() = default;
    Texels(int w, int h, int c) : width(w), height(h), components(c), values(std::size_t(w) * h * c, 0.0f) {}
    float& at(int x, int y, int c) { return values[(std::size_t(y) * width + x) * components + c]; }
    float at(int x, int y, int c) const { return values[(std::size_t(y) * width + x) * components + c]; }
};

} // namespace fftb
