// SPDX-License-Identifier: MIT
// The offset table and blocks of a single-part OpenEXR file, checked before tinyexr decodes them.
#pragma once

#include <tinyexr.h>

#include <string>
#include <vector>

namespace fftb
{

/// Checks what tinyexr 1.0.1 would otherwise read unchecked in `bytes`, a whole single-part OpenEXR file whose
/// header tinyexr parsed into `header` (extents and tile description already bounded by the caller):
/// - chunkCount, if present, equals the block count the data window and tiles imply, whose offset table fits the
///   file;
/// - the float texels tinyexr allocates (a whole tile for each tile) take at most 4096 times the file's bytes plus
///   64 MiB, more than any codec packs into a file (deflate: about 1032 to 1);
/// - every offset points at a whole block header inside the file (a damaged table, which tinyexr would rebuild by
///   scanning the file, is refused instead);
/// - every block names lines inside the data window, or a tile and level the file has, and a length within the file;
/// - every PIZ block that is not stored raw has its bitmap range, bitmap and Huffman data within the block and a
///   non-negative Huffman bit count.
/// The layouts: OpenEXR's "OpenEXR File Layout" (offset tables, scan line and tile blocks) and its PIZ codec
/// (ImfPizCompressor.cpp, ImfHuf.cpp). Throws HostError "<path>: corrupt or truncated OpenEXR (<what>)".
void checkExrBlocks(const std::string& path, const std::vector<unsigned char>& bytes, const EXRHeader& header);

} // namespace fftb
