// SPDX-License-Identifier: MIT
// Image files: OpenEXR (tinyexr) and Radiance .hdr (stb_image) in, OpenEXR and PNG previews out.
#pragma once

#include "image/image.h"

#include <optional>
#include <string>
#include <vector>

namespace fftb
{

/// Reads an OpenEXR (scanline or tiled, any compression tinyexr decodes) or Radiance .hdr file, chosen by
/// the file's magic bytes, not its name. Every EXR channel is kept in file order with its pixel type
/// (UINT channels are refused); a .hdr file gives float channels R, G, B.
/// An EXR file's layout is kept in `Image::layout`: data and display windows, compression, pixel aspect ratio,
/// screen window and every other header attribute (name, type, value bytes, in file order; "name" last) except
/// those describing the file's structure (channels, lineOrder, tiles, type, chunkCount and the deep-only ones).
/// Of a tiled file with several levels only the full-resolution level is read. A .hdr file gives the default layout:
/// both windows empty (the image at the origin), ZIP compression, no attributes. Throws HostError "<path>: <reason>"
/// for a missing or unreadable file, an unknown format, a corrupt or truncated file, an unsupported compression (its
/// name given), a multi-part or deep file (which of them said), a luminance/chroma (Y, RY, BY) or subsampled image, a
/// zero-sized image or empty data window, more than 128 custom attributes, or an image with no R, G, B channels.
Image readImage(const std::string& path);

/// readImage of a file's bytes already in memory; `path` only names it in errors.
Image decodeImage(const std::string& path, const std::vector<unsigned char>& bytes);

/// Writes `image` as a scanline OpenEXR with line order INCREASING_Y and `image.layout`'s windows, compression,
/// pixel aspect ratio, screen window and attributes. Each channel is stored as its own PixelType, or as
/// `override` when given. An empty data window puts the image at the origin; an empty display window is the data
/// window. The file appears whole or not at all: it is written to a temporary file in the same folder and renamed
/// over `path`. Throws HostError "<path>: <reason>" on failure, leaving nothing behind: among the reasons a data
/// window whose extent is not the image's, a compression that cannot be written ("cannot write B44 compression";
/// NONE, RLE, ZIPS, ZIP and PIZ can), an attribute name that is a structural one or the layout's own field, and
/// names or types that are empty, longer than 255 bytes or repeated.
void writeExr(const std::string& path, const Image& image, std::optional<PixelType> override = std::nullopt);

/// Writes an 8-bit sRGB PNG preview of the image's R, G, B channels: each value times 2^exposure, tonemapped
/// with the Reinhard operator x / (1 + x), then sRGB-encoded. Same all-or-nothing rule and errors as writeExr.
void writePngPreview(const std::string& path, const Image& image, float exposure = 0.0f);

/// The R, G, B and A (1 where absent) channels of `image` as interleaved RGBA texels.
Texels toRgba(const Image& image);

/// `image` with its R, G, B channels replaced by the first three components of `rgba` (same extent);
/// every other channel, alpha included, unchanged.
Image withRgb(const Image& image, const Texels& rgba);

} // namespace fftb
