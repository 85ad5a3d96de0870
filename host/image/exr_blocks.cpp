// SPDX-License-Identifier: MIT
// tinyexr 1.0.1 sizes its offset table and its texels from the header before reading the file, rebuilds a damaged
// table by scanning the blocks, and its PIZ decoder reads a block's bitmap and Huffman length before comparing them
// with the block's length. Everything here is read from the bytes as OpenEXR lays them out, before tinyexr decodes.
#include "image/exr_blocks.h"

#include "host_error.h"
#include "image/image.h"
#include "image/little_endian.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numeric>

namespace fftb
{
namespace
{

[[noreturn]] void failCorrupt(const std::string& path, const std::string& what)
{
    throw HostError(path + ": corrupt or truncated OpenEXR (" + what + ")");
}

// OpenEXR's level count along an axis of `extent` texels: log2 rounded as the file says, plus one.
int levelCount(std::int64_t extent, bool roundUp)
{
    const auto x = std::uint64_t(extent);
    return int(std::bit_width(x)) - 1 + (roundUp && !std::has_single_bit(x) ? 1 : 0) + 1;
}

// A level's extent: the top level's halved `level` times, rounded as the file says, at least 1.
std::int64_t levelExtent(std::int64_t top, int level, bool roundUp)
{
    std::int64_t extent = top >> level;
    if (roundUp && (extent << level) < top)
        ++extent;
    return std::max<std::int64_t>(extent, 1);
}

// What the header says the blocks are: the data window's extent and, for a tiled file, the tiles of each level.
struct Blocks
{
    std::int64_t width = 0;
    std::int64_t height = 0;
    std::vector<std::int64_t> xTiles; // tiles across each x level; tiled files only
    std::vector<std::int64_t> yTiles;
    int lines = 0;        // scanlines a block; scanline files only
    bool roundUp = false; // level extents rounded up rather than down; tiled files only
    std::int64_t count = 0;

    explicit Blocks(const EXRHeader& h)
        : width(std::int64_t(h.data_window.max_x) - h.data_window.min_x + 1),
          height(std::int64_t(h.data_window.max_y) - h.data_window.min_y + 1)
    {
        if (!h.tiled)
        {
            lines = linesPerBlock(Compression(h.compression_type));
            count = (height + lines - 1) / lines;
            return;
        }
        roundUp = h.tile_rounding_mode == TINYEXR_TILE_ROUND_UP;
        const bool ripmap = h.tile_level_mode == TINYEXR_TILE_RIPMAP_LEVELS;
        const int mipmapLevels = levelCount(std::max(width, height), roundUp);
        const int xLevels = h.tile_level_mode == TINYEXR_TILE_ONE_LEVEL ? 1
                            : ripmap                                    ? levelCount(width, roundUp)
                                                                        : mipmapLevels;
        const int yLevels = h.tile_level_mode == TINYEXR_TILE_ONE_LEVEL ? 1
                            : ripmap                                    ? levelCount(height, roundUp)
                                                                        : mipmapLevels;
        for (int level = 0; level < xLevels; ++level)
            xTiles.push_back((levelExtent(width, level, roundUp) + h.tile_size_x - 1) / h.tile_size_x);
        for (int level = 0; level < yLevels; ++level)
            yTiles.push_back((levelExtent(height, level, roundUp) + h.tile_size_y - 1) / h.tile_size_y);
        // Mipmap levels pair x and y level by level; ripmap levels combine every x level with every y level.
        count = ripmap ? std::reduce(xTiles.begin(), xTiles.end()) * std::reduce(yTiles.begin(), yTiles.end())
                       : std::transform_reduce(xTiles.begin(), xTiles.end(), yTiles.begin(), std::int64_t(0));
    }
};

// A PIZ block as OpenEXR writes it (ImfPizCompressor.cpp, ImfHuf.cpp): minNonZero and maxNonZero (uint16), the
// bitmap's bytes minNonZero to maxNonZero, the Huffman data's length (int32), and the Huffman data, whose 20-byte
// header holds the code range, the table's length, the bit count (int32) and a reserved word.
void checkPizBlock(const std::string& path, std::size_t index, const unsigned char* data, std::size_t length)
{
    const auto fault = [&](const std::string& what)
    { failCorrupt(path, "PIZ block " + std::to_string(index) + " of " + std::to_string(length) + " bytes: " + what); };
    if (length < 8)
        fault("too short for its bitmap range and Huffman length");
    const std::uint32_t minNonZero = load16(data);
    const std::uint32_t maxNonZero = load16(data + 2);
    constexpr std::uint32_t bitmapSize = 8192; // one bit for each of the 65536 half values
    if (maxNonZero >= bitmapSize)
        fault("bitmap range ends at byte " + std::to_string(maxNonZero) + " of " + std::to_string(bitmapSize));
    const std::size_t bitmap = minNonZero <= maxNonZero ? maxNonZero - minNonZero + 1 : 0;
    if (bitmap > length - 8)
        fault("a bitmap of " + std::to_string(bitmap) + " bytes");
    const auto huffman = std::int64_t(std::int32_t(load32(data + 4 + bitmap)));
    if (huffman < 20 || std::uint64_t(huffman) > length - 8 - bitmap)
        fault("Huffman data of " + std::to_string(huffman) + " bytes after a bitmap of " + std::to_string(bitmap));
    const auto bits = std::int32_t(load32(data + 8 + bitmap + 12));
    if (bits < 0)
        fault("Huffman bit count " + std::to_string(bits));
}

} // namespace

void checkExrBlocks(const std::string& path, const std::vector<unsigned char>& bytes, const EXRHeader& h)
{
    const Blocks blocks(h);
    if (h.chunk_count > 0 && h.chunk_count != blocks.count)
        failCorrupt(path, "chunkCount " + std::to_string(h.chunk_count) + " where the header describes " +
                              std::to_string(blocks.count) + " blocks");
    const std::size_t size = bytes.size();
    const std::size_t table = 8 + std::size_t(h.header_len); // after the magic number, version field and header
    if (table > size || std::uint64_t(blocks.count) > (size - table) / 8)
        failCorrupt(path, "an offset table of " + std::to_string(blocks.count) + " blocks does not fit the file");
    // tinyexr allocates the whole data window as float before decoding (a whole tile for each tile, however
    // clipped). No codec packs more than about 1032 bytes of texels into one (deflate; PIZ's run-length Huffman code
    // about 410, RLE 64): a header asking for more than 4096 times the file's size, past 64 MiB, describes texels the
    // file cannot hold.
    const double texels =
        h.tiled ? double(blocks.count) * h.tile_size_x * h.tile_size_y : double(blocks.width) * double(blocks.height);
    const double decoded = texels * h.num_channels * sizeof(float);
    if (decoded > 4096.0 * double(size) + double(64 << 20))
        failCorrupt(path, std::to_string(std::llround(decoded / (1 << 20))) + " MiB of texels in a file of " +
                              std::to_string(size) + " bytes");
    const std::size_t tableEnd = table + 8 * std::size_t(blocks.count);
    const std::size_t blockHeader = h.tiled ? 20 : 8; // tile x, y, level x, y, or first line; then the data's length
    std::size_t pixelBytes = 0;
    for (int c = 0; c < h.num_channels; ++c)
        pixelBytes += h.channels[c].pixel_type == TINYEXR_PIXELTYPE_HALF ? 2 : 4;
    for (std::size_t i = 0; i < std::size_t(blocks.count); ++i)
    {
        const std::uint64_t offset = load64(&bytes[table + 8 * i]);
        if (offset < tableEnd || offset > size || size - offset < blockHeader)
            failCorrupt(path, "offset table entry " + std::to_string(i) + " points at byte " + std::to_string(offset) +
                                  ", outside the blocks");
        const unsigned char* block = &bytes[offset];
        std::int64_t blockTexels = 0; // as tinyexr sizes the block
        if (!h.tiled)
        {
            const auto y = std::int32_t(load32(block));
            if (y < h.data_window.min_y || y > h.data_window.max_y)
                failCorrupt(path, "block " + std::to_string(i) + " starts at line " + std::to_string(y) +
                                      ", outside the data window");
            blockTexels =
                blocks.width * (std::min<std::int64_t>(std::int64_t(y) + blocks.lines, h.data_window.max_y + 1LL) - y);
        }
        else
        {
            const std::int32_t tile[4] = {std::int32_t(load32(block)), std::int32_t(load32(block + 4)),
                                          std::int32_t(load32(block + 8)), std::int32_t(load32(block + 12))};
            const auto [x, y, levelX, levelY] = tile;
            if (levelX < 0 || std::size_t(levelX) >= blocks.xTiles.size() || levelY < 0 ||
                std::size_t(levelY) >= blocks.yTiles.size() || x < 0 || x >= blocks.xTiles[std::size_t(levelX)] ||
                y < 0 || y >= blocks.yTiles[std::size_t(levelY)])
                failCorrupt(path, "block " + std::to_string(i) + " is tile (" + std::to_string(x) + ", " +
                                      std::to_string(y) + ") of level (" + std::to_string(levelX) + ", " +
                                      std::to_string(levelY) + "), which the file does not have");
            blockTexels = std::min<std::int64_t>(h.tile_size_x, levelExtent(blocks.width, levelX, blocks.roundUp) -
                                                                    std::int64_t(x) * h.tile_size_x) *
                          std::min<std::int64_t>(h.tile_size_y, levelExtent(blocks.height, levelY, blocks.roundUp) -
                                                                    std::int64_t(y) * h.tile_size_y);
        }
        const auto length = std::int64_t(std::int32_t(load32(block + blockHeader - 4)));
        if (length < 1 || std::uint64_t(length) > size - offset - blockHeader)
            failCorrupt(path, "block " + std::to_string(i) + " of " + std::to_string(length) +
                                  " bytes does not fit the file");
        // tinyexr takes a PIZ block exactly as long as its texels for one stored raw, as OpenEXR writes
        // blocks that PIZ would make longer.
        if (h.compression_type == TINYEXR_COMPRESSIONTYPE_PIZ &&
            std::uint64_t(length) != std::uint64_t(blockTexels) * pixelBytes)
            checkPizBlock(path, i, block + blockHeader, std::size_t(length));
    }
}

} // namespace fftb
