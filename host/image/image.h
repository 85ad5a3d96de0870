// SPDX-License-Identifier: MIT
// In-memory images and kernels shared by the CLI, the CPU reference and the tests.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace fftb
{

/// Storage type of one channel in a file; pixels are always held as float in memory.
enum class PixelType
{
    Half,
    Float,
};

/// Compression of an OpenEXR file's pixel data; the values are OpenEXR's codes.
enum class Compression
{
    None = 0,
    Rle = 1,
    Zips = 2,
    Zip = 3,
    Piz = 4,
    Pxr24 = 5,
    B44 = 6,
    B44a = 7,
    Dwaa = 8,
    Dwab = 9,
};

/// The names of Compression's values, in its order ("none", "rle", ... "dwab"): the CLI's --compression.
const std::vector<std::string>& compressionNames();

/// Whether OpenEXR's `compression` may change the values of a channel called `name` of `type` when it re-encodes it:
/// PXR24 rounds FLOAT channels (HALF kept exact), B44 and B44A HALF ones (FLOAT stored as it is), DWAA and DWAB the
/// HALF and FLOAT channels their default rules code lossily, those whose name past its last '.' is R, G, B, Y, BY or
/// RY (alpha, depth and other channels kept exact); the other codecs keep every channel exact.
bool isLossy(Compression compression, PixelType type, const std::string& name);

/// An integer rectangle with inclusive bounds, OpenEXR's box2i; empty when max < min.
struct Box2i
{
    int minX = 0;
    int minY = 0;
    int maxX = -1;
    int maxY = -1;
    bool empty() const { return maxX < minX || maxY < minY; }
};

/// A header attribute carried through unchanged: its name, OpenEXR type name (`string`, `m44f`, or one OpenEXR does
/// not know) and value bytes as the file stores them (OpenEXR's attribute serialization, little-endian).
struct Attribute
{
    std::string name;
    std::string type;
    std::vector<unsigned char> value;
};

/// The prefix an output's header gives the input's attributes that name the software that wrote the input
/// (inheritedAttributes).
inline constexpr const char* kInputAttributePrefix = "fftbloom.input.";

/// The header attributes of an output made from an input whose attributes are `input`: `input`'s, with those that
/// name the software that wrote the input ("software", "Software", "writer" and Nuke's "nuke/*", whose node hash
/// would make Nuke take the output for its own render) renamed kInputAttributePrefix + name (replacing the input's
/// own attribute of that name: an output bloomed again), then `added`, each replacing an attribute of the same name.
std::vector<Attribute> inheritedAttributes(const std::vector<Attribute>& input, const std::vector<Attribute>& added);

/// What an OpenEXR header says beyond the pixel values, kept so that a written file matches the one read.
/// A default-constructed layout means: data and display window (0, 0) .. (width - 1, height - 1), ZIP.
struct ImageLayout
{
    Box2i dataWindow;    ///< where the image's texels lie; empty: at the origin. Its extent is the image's.
    Box2i displayWindow; ///< empty: the data window
    Compression compression = Compression::Zip;
    float pixelAspectRatio = 1.0f;
    float screenWindowCenter[2] = {0.0f, 0.0f};
    float screenWindowWidth = 1.0f;
    std::vector<Attribute> attributes; ///< every attribute that is not one of the above or structural
};

/// One named channel, row-major, width * height values, (0, 0) at the top left.
struct Channel
{
    std::string name;
    PixelType type = PixelType::Float;
    std::vector<float> values;
};

/// The multi-part OpenEXR file an image is one part of, so that writeExr writes the file's other parts too.
struct ExrParts
{
    std::shared_ptr<const std::vector<unsigned char>> file; ///< the file's bytes as read; null: not a multi-part file
    int part = 0;                                           ///< the index of the part the image holds
};

/// An image as read from a file: every channel kept, in file order, so extra channels pass through.
struct Image
{
    int width = 0;
    int height = 0;
    std::vector<Channel> channels;
    ImageLayout layout;
    /// The prefix of the colour channels: empty for R, G, B and A; "diffuse" for diffuse.R, diffuse.G, diffuse.B
    /// and diffuse.A (OpenEXR's layer naming, "Interpreting OpenEXR Images", Layers).
    std::string layer;
    ExrParts parts; ///< the file's other parts, when it has any
    /// Of a multi-view (stereo) OpenEXR image, the view this image is ("left"; docs/exr.md, "Views"); empty for an
    /// image of one view
    std::string view;
    /// The other views bloomed with this one whose colour is in this image's channels (a single part's multiView
    /// list), each {view, layer}: {"right", "right"} for right.R, right.G, right.B
    std::vector<std::pair<std::string, std::string>> viewLayers;
    /// The other views bloomed with this one that are parts of its multi-part file (their `view` attribute), each
    /// read whole, with its `parts.part` and `view`; writeExr writes them with this image
    std::vector<Image> viewParts;

    /// Index of the channel called `name` (exact match), or -1.
    int find(const std::string& name) const;
    /// The name of colour component `component` ("R", "G", "B" or "A") in the image's layer: "R" or "diffuse.R", or
    /// its lower-case form ("r", "diffuse.r") when only that is a channel of the image.
    std::string colourChannel(const std::string& component) const;
};

/// `image` with its data window grown to `window` (which holds it): every channel's new texels 0. A layout whose data
/// window is empty has its image at (0, 0).
void growDataWindow(Image& image, const Box2i& window);

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
