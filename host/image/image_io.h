// SPDX-License-Identifier: MIT
// Image files: OpenEXR (the OpenEXR library) and Radiance .hdr (stb_image) in, OpenEXR and PNG previews out.
#pragma once

#include "image/image.h"
#include "image/ocio_display.h"

#include <optional>
#include <string>
#include <vector>

namespace fftb
{

/// Which image of an OpenEXR file readImage reads: the part, and the layer whose R, G, B (and A) are the colour.
struct ImageSelection
{
    std::string part;  ///< a part's name (its `name` attribute); empty: the first part holding the layer's R, G, B
    std::string layer; ///< "diffuse": diffuse.R, diffuse.G, diffuse.B and diffuse.A; empty: R, G, B and A
    /// Of a multi-view (stereo) file, the one view read ("left"); empty: every view, the first as the image and the
    /// others in Image::viewLayers or Image::viewParts
    std::string view;
    /// A matte (a mask file, maskChannel): the first part with whatever channels it has (no R, G, B needed, Y alone
    /// taken), one view; part, layer and view are not read
    bool matte = false;
    bool operator==(const ImageSelection&) const = default;
};

/// Reads an OpenEXR (scanline or tiled, single- or multi-part, any compression: NONE, RLE, ZIPS, ZIP, PIZ, PXR24,
/// B44, B44A, DWAA, DWAB) or Radiance .hdr file, chosen by the file's magic bytes, not its name.
/// Of an OpenEXR file one part is read: the one `selection` names, else the first holding the layer's R, G, B (a
/// single-part file's one part). Every channel of that part is kept in file order (sorted by name) with its pixel
/// type (UINT channels are refused), and `Image::layer` is selection.layer. A multi-part file's bytes are kept in
/// `Image::parts` for writeExr, which copies the other parts (of any channels, pixel types and sampling) as they are.
/// The part's layout is kept in `Image::layout`: data and display windows, compression, pixel aspect ratio, screen
/// window and every other header attribute (name, type name and value bytes as the file stores them, in OpenEXR's
/// order, sorted by name; types OpenEXR does not know as their bytes) except those describing the file's structure
/// (channels, lineOrder, tiles, type, chunkCount, version and maxSamplesPerPixel); a part's `name` is one of them.
/// Of a multi-view image (docs/exr.md, "Views") the part or view chosen is the image (Image::view), and unless
/// selection.view names one, the other views' colour is read too: Image::viewLayers (a single part's multiView
/// list) or Image::viewParts (parts with a `view` attribute); a view without colour is refused naming it.
/// Of a tiled part with several levels only the full-resolution level is read. A .hdr file gives float channels R,
/// G, B and the default layout: both windows empty (the image at the origin), ZIP compression, no attributes.
/// Throws HostError "<path>: <reason>" for a missing or unreadable file, an unknown format, a corrupt or truncated
/// file ("corrupt or truncated OpenEXR (<OpenEXR's reason>)"), a header of any part asking for more than the file's
/// bytes can hold, deep data ("part 1 (depth) holds deep data", found in any part before any pixel is read), no part
/// called selection.part ("no part is called beauty (the parts: a, b)") or one without the layer's R, G, B, no part
/// holding them ("no diffuse.R, diffuse.G, diffuse.B channels"), a luminance/chroma (Y, RY, BY) or subsampled image,
/// a zero-sized image or empty data window. Decodes on OpenEXR's global thread pool (Imf::globalThreadCount(); none
/// unless a program sets it).
Image readImage(const std::string& path, const ImageSelection& selection = {});

/// readImage of a file's bytes already in memory; `path` only names it in errors.
Image decodeImage(const std::string& path, const std::vector<unsigned char>& bytes,
                  const ImageSelection& selection = {});

/// Writes `image` as a scanline OpenEXR with line order INCREASING_Y and `image.layout`'s windows, compression, pixel
/// aspect ratio, screen window and attributes (each attribute's value bytes must hold a value of its type when
/// OpenEXR knows the type; others are written as given). Each channel is stored as its own PixelType, or as
/// `override` when given; floats are rounded to the nearest half for HALF. Every compression is written: NONE, RLE,
/// ZIPS, ZIP and PIZ losslessly; PXR24 (FLOAT rounded to 24 bits), B44 and B44A (HALF in 4 x 4 blocks) and DWAA and
/// DWAB (R, G, B at DWA level 45) re-encode with their loss (docs/exr.md). An empty data window puts the image at the
/// origin; an empty display window is the data window. An image read from a multi-part file (`Image::parts`) is
/// written as that file with the image as its part `parts.part` (a scanline part, named by its `name` attribute), each
/// of Image::viewParts as its own part likewise, and every other part's headers and compressed blocks copied as they
/// are: bit for bit. The file appears whole or not
/// at all: it is encoded in memory, written to a temporary file in the same folder and renamed over `path`. Throws
/// HostError "<path>: <reason>" on failure, leaving nothing behind: among the reasons a data window whose extent is
/// not the image's, a compression code OpenEXR does not know ("cannot write compression code 10"), an attribute name
/// that is a structural one or the layout's own field, names or types that are empty, longer than 255 bytes or
/// repeated, value bytes that do not hold their type, and "OpenEXR encoding failed (<OpenEXR's reason>)".
void writeExr(const std::string& path, const Image& image, std::optional<PixelType> override = std::nullopt);

/// The bytes writeExr writes, in memory; `path` only names the file in errors, which are writeExr's.
std::vector<char> encodeExr(const std::string& path, const Image& image,
                            std::optional<PixelType> override = std::nullopt);

/// Krzysztof Narkowicz's fit of the ACES RRT + ODT luminance response ("ACES Filmic Tone Mapping Curve", 2015), with
/// his 0.6 prescale: scene-linear x >= 0 to [0, 1], before the sRGB encoding. The viewer's default tonemap
/// (demo/tonemap.comp) and the previews' without OpenColorIO.
float acesFitted(float x);

/// Writes an 8-bit PNG preview of `rgba`'s R, G, B, each value times 2^exposure, then: through `display`, an
/// OpenColorIO display transform (clamped to [0, 1], NaN as 0), when given; else tonemapped per channel by acesFitted
/// and sRGB-encoded, as the viewer shows it by default. Same all-or-nothing rule and errors as writeExr.
void writePngPreview(const std::string& path, const Texels& rgba, float exposure = 0.0f,
                     const OcioDisplay* display = nullptr);
/// The preview of the image's layer at its display window (displayWindowRgba), as above; throws naming `path` when
/// the image has no R, G, B or is empty.
void writePngPreview(const std::string& path, const Image& image, float exposure = 0.0f,
                     const OcioDisplay* display = nullptr);

/// The R, G, B and A of `image`'s layer (toRgba) at its display window, as a viewer or a daily shows the frame: the
/// data window's texels where they fall in it, black (alpha 0) elsewhere; the data window's own extent when the image
/// has no display window. Throws HostError when the display window holds more than 2^28 texels.
Texels displayWindowRgba(const Image& image);

/// The R, G, B and A (1 where absent) channels of `image`'s layer (Image::colourChannel) as interleaved RGBA texels.
Texels toRgba(const Image& image);

/// `image` with its layer's R, G, B channels replaced by the first three components of `rgba` (same extent);
/// every other channel, alpha included, unchanged.
Image withRgb(const Image& image, const Texels& rgba);

/// withRgb in place: `image`'s layer's R, G, B channels replaced by the first three components of `rgba`.
void setRgb(Image& image, const Texels& rgba);

/// The matte called `name` of `image` (MaskSettings::source; FftbBloomInfo::sourceMask): the channel `name` of the
/// image's layer (diffuse.name), else the channel `name`, else the A, Y or R of a layer called `name` (name.A, name.Y,
/// name.R, the first found); of an empty `name` (a mask file's), the image's A, Y or R, else its only channel.
/// Throws HostError "no channel or layer 'matte' (its channels: R, G, B, A)" when there is none.
const Channel& maskChannel(const Image& image, const std::string& name);

/// `rgba`'s alpha replaced by `mask`, width * height values, each clamped to [0, 1] (NaN as 0): the matte the plugin
/// reads with FFTB_SOURCE_MASK_ALPHA. Throws HostError when `mask` holds another count of values.
void setMaskAlpha(Texels& rgba, const std::vector<float>& mask);

} // namespace fftb
