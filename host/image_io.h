// Image files: OpenEXR (tinyexr) and Radiance .hdr (stb_image) in, OpenEXR and PNG previews out.
#pragma once

#include "image.h"

#include <optional>
#include <string>

namespace fftb
{

/// Reads an OpenEXR (scanline or tiled, any compression tinyexr decodes) or Radiance .hdr file, chosen by
/// the file's magic bytes, not its name. Every EXR channel is kept in file order with its pixel type
/// (UINT channels are refused); a .hdr file gives float channels R, G, B.
/// Throws HostError "<path>: <reason>" for a missing or unreadable file, an unknown format, a corrupt or
/// truncated file, an unsupported compression (its name given), or an image with no R, G, B channels.
Image readImage(const std::string& path);

/// Writes `image` as a ZIP-compressed scanline OpenEXR. Each channel is stored as its own PixelType, or as
/// `override` when given. The file appears whole or not at all: it is written to a temporary file in the same
/// folder and renamed over `path`. Throws HostError "<path>: <reason>" on failure, leaving nothing behind.
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
