// SPDX-License-Identifier: MIT
// Reads OpenEXR and Radiance .hdr images; writes OpenEXR files and PNG previews whole or not at all.
#include "image/image_io.h"

#include "host_error.h"
#include "image/atomic_file.h"
#include "image/exr_blocks.h"
#include "image/little_endian.h"

#include <stb_image.h>
#include <stb_image_write.h>
#include <tinyexr.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string_view>
#include <utility>

namespace fftb
{
namespace
{

[[noreturn]] void fail(const std::string& path, const std::string& reason)
{
    throw HostError(path + ": " + reason);
}

[[noreturn]] void failCorrupt(const std::string& path, const std::string& what)
{
    fail(path, "corrupt or truncated OpenEXR (" + what + ")");
}

// OpenEXR's names of its compressions, indexed by their codes.
constexpr std::array<const char*, 10> compressionNames = {"NONE",  "RLE", "ZIPS", "ZIP",  "PIZ",
                                                          "PXR24", "B44", "B44A", "DWAA", "DWAB"};

// Header attributes that describe the file's structure rather than the image: the layout's own fields, and what a
// single-part scanline file must not carry. Never copied as custom attributes, in either direction.
bool isStructural(std::string_view name)
{
    static constexpr std::string_view names[] = {
        "channels",           "compression",       "dataWindow", "displayWindow", "lineOrder",  "pixelAspectRatio",
        "screenWindowCenter", "screenWindowWidth", "tiles",      "type",          "chunkCount", "version",
        "maxSamplesPerPixel"};
    return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

std::string boxText(const Box2i& box)
{
    std::string text = "(";
    for (const auto& [value, next] :
         {std::pair(box.minX, ", "), {box.minY, ") - ("}, {box.maxX, ", "}, {box.maxY, ")"}})
        text.append(std::to_string(value)).append(next);
    return text;
}

// Runs a clean-up (close, free) on every path out of a scope.
template <typename F> struct OnExit
{
    F cleanUp;
    explicit OnExit(F f) : cleanUp(std::move(f)) {}
    ~OnExit() { cleanUp(); }
};

// Frees tinyexr's error message and, if `failed`, throws it as one line (tinyexr's may hold several).
void checkExr(const std::string& path, bool failed, const char* message, const char* what)
{
    std::string text = message ? message : "no reason given";
    FreeEXRErrorMessage(message);
    std::replace(text.begin(), text.end(), '\n', ' ');
    text.erase(text.find_last_not_of(' ') + 1);
    if (failed)
        fail(path, std::string(what) + " (" + text + ")");
}

// One read of the whole file: the format is judged on the bytes that are decoded, and failures keep their errno.
std::vector<unsigned char> readFile(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        fail(path, errno == ENOENT ? std::string("no such file") : std::strerror(errno));
    const OnExit closeFile{[fd] { ::close(fd); }};
    // A character device (/dev/zero) or a pipe would be read until memory runs out.
    struct stat s
    {
    };
    if (::fstat(fd, &s) != 0 || !S_ISREG(s.st_mode))
        fail(path, "not a regular file");
    std::vector<unsigned char> bytes;
    unsigned char chunk[1 << 16];
    for (ssize_t got = 1; got != 0;)
    {
        if ((got = ::read(fd, chunk, sizeof chunk)) < 0 && errno != EINTR)
            fail(path, std::strerror(errno));
        bytes.insert(bytes.end(), chunk, chunk + std::max(got, ssize_t(0)));
    }
    return bytes;
}

// Reads the header attributes tinyexr handles badly: it refuses B44, DWA and PXR24 without naming them, it asserts
// (aborting) on a malformed tile description or "type", it refuses an empty attribute unless it is a string, and it
// keeps only the first 128 custom attributes, dropping the rest silently. A header too broken to walk is left to
// tinyexr.
void checkHeader(const std::string& path, const std::vector<unsigned char>& bytes, const EXRVersion& version)
{
    const std::size_t end = bytes.size();
    bool hasTiles = false;
    std::string type;
    std::size_t custom = 0;
    std::size_t at = 8; // magic number and version field
    while (at < end && bytes[at] != 0)
    {
        const auto nameEnd = std::find(bytes.begin() + long(at), bytes.end(), 0);
        const auto typeEnd = nameEnd == bytes.end() ? nameEnd : std::find(nameEnd + 1, bytes.end(), 0);
        if (typeEnd == bytes.end() || std::size_t(bytes.end() - typeEnd) < 5)
            break;
        const std::string name(bytes.begin() + long(at), nameEnd);
        const std::string typeName(nameEnd + 1, typeEnd);
        const std::size_t sizeAt = std::size_t(typeEnd - bytes.begin()) + 1;
        const std::uint32_t size = load32(&bytes[sizeAt]);
        const std::size_t valueAt = sizeAt + 4;
        if (size > end - valueAt)
            break;
        if (name == "compression" && size != 1)
            failCorrupt(path, "compression attribute of " + std::to_string(size) + " bytes");
        const unsigned value = size > 0 ? bytes[valueAt] : 0;
        if (name == "compression" && value > TINYEXR_COMPRESSIONTYPE_PIZ)
            fail(path,
                 "unsupported compression " + (value < compressionNames.size() ? std::string(compressionNames[value])
                                                                               : "code " + std::to_string(value)));
        if (name == "tiles" && version.tiled && size != 9)
            failCorrupt(path, "tile description of " + std::to_string(size) + " bytes");
        if (size == 0 && typeName != "string")
            fail(path,
                 "header attribute " + name + " (" + typeName + ") is empty; only string attributes may be empty");
        hasTiles = hasTiles || (name == "tiles" && version.tiled);
        if (name == "type") // up to its first zero byte, as tinyexr reads it
            type = std::string(bytes.begin() + long(valueAt), bytes.begin() + long(valueAt + size)).c_str();
        // What tinyexr does not parse itself it keeps as a custom attribute.
        static constexpr std::string_view parsed[] = {
            "channels",           "compression",       "dataWindow", "displayWindow", "lineOrder", "pixelAspectRatio",
            "screenWindowCenter", "screenWindowWidth", "chunkCount", "name",          "type"};
        const bool isParsed = std::find(std::begin(parsed), std::end(parsed), name) != std::end(parsed);
        custom += isParsed || (name == "tiles" && version.tiled) ? 0 : 1;
        at = valueAt + size;
    }
    if (type.rfind("deep", 0) == 0)
        fail(path, "deep OpenEXR files are not supported");
    if (!(type.empty() || (type == "tiledimage" && hasTiles) || (type == "scanlineimage" && !hasTiles)))
        failCorrupt(path, "part type does not match the file");
    if (custom > TINYEXR_MAX_CUSTOM_ATTRIBUTES)
        fail(path, std::to_string(custom) + " custom header attributes; at most " +
                       std::to_string(TINYEXR_MAX_CUSTOM_ATTRIBUTES) + " are supported");
}

// tinyexr allocates what a damaged header asks for and asserts on tile layouts it cannot count.
void checkLayout(const std::string& path, const EXRHeader& h)
{
    constexpr std::int64_t maxTexels = std::int64_t(1) << 28;
    const std::int64_t width = std::int64_t(h.data_window.max_x) - h.data_window.min_x + 1;
    const std::int64_t height = std::int64_t(h.data_window.max_y) - h.data_window.min_y + 1;
    if (width < 1 || height < 1)
        fail(path, "empty data window " +
                       boxText({h.data_window.min_x, h.data_window.min_y, h.data_window.max_x, h.data_window.max_y}) +
                       "; the image has no texels");
    if (width > maxTexels || height > maxTexels || width * height > maxTexels)
        fail(path, std::to_string(width) + "x" + std::to_string(height) + " texels, more than the 2^28 supported");
    if (h.tiled &&
        (h.tile_size_x < 1 || h.tile_size_y < 1 || std::int64_t(h.tile_size_x) * h.tile_size_y > 1 << 24 ||
         h.tile_level_mode < 0 || h.tile_level_mode > 2 || h.tile_rounding_mode < 0 || h.tile_rounding_mode > 1))
        failCorrupt(path, "tile description");
}

Image readExr(const std::string& path, const std::vector<unsigned char>& bytes)
{
    EXRVersion version = {};
    if (ParseEXRVersionFromMemory(&version, bytes.data(), bytes.size()) != TINYEXR_SUCCESS)
        failCorrupt(path, "version field");
    if (version.multipart)
        fail(path,
             std::string(version.non_image ? "multi-part OpenEXR files with deep parts" : "multi-part OpenEXR files") +
                 " are not supported; only single-part files are");
    if (version.non_image)
        fail(path, "deep OpenEXR files are not supported");
    checkHeader(path, bytes, version);
    EXRHeader h;
    InitEXRHeader(&h);
    const OnExit freeHeader{[&h] { FreeEXRHeader(&h); }};
    const char* parseMessage = nullptr;
    const int parsed = ParseEXRHeaderFromMemory(&h, &version, bytes.data(), bytes.size(), &parseMessage);
    checkExr(path, parsed != TINYEXR_SUCCESS, parseMessage, "corrupt or truncated OpenEXR");
    checkLayout(path, h);
    const auto hasChannel = [&h](std::string_view name)
    {
        return std::any_of(h.channels, h.channels + h.num_channels,
                           [name](const EXRChannelInfo& channel) { return channel.name == name; });
    };
    // Ahead of the subsampling check, which a luminance/chroma file's RY and BY channels would fail less clearly.
    if (!(hasChannel("R") && hasChannel("G") && hasChannel("B")) &&
        (hasChannel("Y") || hasChannel("RY") || hasChannel("BY")))
        fail(path, "luminance/chroma (Y, RY, BY) images are not supported; convert to RGB");
    Image image;
    image.layout.dataWindow = {h.data_window.min_x, h.data_window.min_y, h.data_window.max_x, h.data_window.max_y};
    image.layout.displayWindow = {h.display_window.min_x, h.display_window.min_y, h.display_window.max_x,
                                  h.display_window.max_y};
    image.layout.compression = Compression(h.compression_type); // checkHeader refused codes past PIZ
    image.layout.pixelAspectRatio = h.pixel_aspect_ratio;
    image.layout.screenWindowCenter[0] = h.screen_window_center[0];
    image.layout.screenWindowCenter[1] = h.screen_window_center[1];
    image.layout.screenWindowWidth = h.screen_window_width;
    for (int a = 0; a < h.num_custom_attributes; ++a)
    {
        const EXRAttribute& attribute = h.custom_attributes[a];
        if (isStructural(attribute.name))
            continue;
        const std::string type = attribute.type;
        // tinyexr reads an empty string as one zero byte; it is given back as it was.
        const bool emptyString = type == "string" && attribute.size == 1 && attribute.value[0] == 0;
        image.layout.attributes.push_back(
            {attribute.name, type,
             std::vector<unsigned char>(attribute.value, attribute.value + (emptyString ? 0 : attribute.size))});
    }
    // A single-part file's optional "name", which tinyexr parses into the header instead of its custom attributes.
    if (h.name[0] != 0)
        image.layout.attributes.push_back(
            {"name", "string", std::vector<unsigned char>(h.name, h.name + std::strlen(h.name))});
    for (int c = 0; c < h.num_channels; ++c)
    {
        const std::string name = h.channels[c].name;
        const int type = h.pixel_types[c];
        if (type != TINYEXR_PIXELTYPE_HALF && type != TINYEXR_PIXELTYPE_FLOAT)
            fail(path, "channel " + name + " is " + (type == TINYEXR_PIXELTYPE_UINT ? "UINT" : std::to_string(type)) +
                           "; only HALF and FLOAT pixel types are supported");
        if (h.channels[c].x_sampling != 1 || h.channels[c].y_sampling != 1)
            fail(path, "channel " + name + " is subsampled, which is not supported");
        image.channels.push_back({name, type == TINYEXR_PIXELTYPE_HALF ? PixelType::Half : PixelType::Float, {}});
        h.requested_pixel_types[c] = TINYEXR_PIXELTYPE_FLOAT;
    }

    EXRImage e;
    InitEXRImage(&e);
    // tinyexr frees a failed scanline decode's planes only up to num_channels, which it sets only on success.
    // After a failure it has freed the image itself, leaving dangling pointers, so the guard comes after.
    e.num_channels = h.num_channels;
    // Given a line order other than INCREASING_Y, tinyexr mirrors the image (each tile, in a tiled file) top to
    // bottom. The line order only says how the blocks follow each other in the file: each block carries its own
    // coordinates, and tinyexr finds the blocks through the offset table whatever their order.
    h.line_order = 0;
    checkExrBlocks(path, bytes, h);
    // tinyexr's Huffman table reader (hufUnpackEncTable, for PIZ) can read one byte past the Huffman data (a `>`
    // where `>=` was meant), past the file for its last block: PIZ files are decoded from a copy with zero bytes
    // after their end, as FFmpeg requires of its decoders' input (AV_INPUT_BUFFER_PADDING_SIZE).
    std::vector<unsigned char> padded;
    if (h.compression_type == TINYEXR_COMPRESSIONTYPE_PIZ)
    {
        padded = bytes;
        padded.resize(padded.size() + 16);
    }
    const char* loadMessage = nullptr;
    const int loaded =
        LoadEXRImageFromMemory(&e, &h, padded.empty() ? bytes.data() : padded.data(), bytes.size(), &loadMessage);
    checkExr(path, loaded != TINYEXR_SUCCESS, loadMessage, "corrupt or truncated OpenEXR");
    const OnExit freeImage{[&e] { FreeEXRImage(&e); }};
    image.width = e.width;
    image.height = e.height;
    const std::size_t texels = std::size_t(e.width) * std::size_t(e.height);
    for (int c = 0; c < h.num_channels; ++c)
    {
        std::vector<float>& values = image.channels[std::size_t(c)].values;
        values.resize(texels);
        if (!h.tiled)
            std::copy_n(reinterpret_cast<const float*>(e.images[c]), texels, values.begin());
        // A tile holds tile_size_x * tile_size_y values however it is clipped; mipmaps' top level only is read.
        for (int t = 0; h.tiled && t < e.num_tiles; ++t)
        {
            const EXRTile& tile = e.tiles[t];
            // tinyexr takes tile coordinates from the file without checking their sign or range.
            const long x0 = long(tile.offset_x) * h.tile_size_x;
            const long y0 = long(tile.offset_y) * h.tile_size_y;
            if (x0 < 0 || y0 < 0 || tile.width < 0 || tile.height < 0 || tile.width > h.tile_size_x ||
                tile.height > h.tile_size_y || x0 + tile.width > e.width || y0 + tile.height > e.height)
                failCorrupt(path, "tile coordinates out of range");
            const auto* plane = reinterpret_cast<const float*>(tile.images[c]);
            for (long y = 0; y < tile.height; ++y)
                std::copy(plane + y * h.tile_size_x, plane + y * h.tile_size_x + tile.width,
                          values.begin() + (y0 + y) * e.width + x0);
        }
    }
    return image;
}

// The file as stb_image reads it. Past the end stb reads zeros, and a zero run length in a run-length-encoded .hdr
// makes no progress, hanging it; this feeds up to 2 MiB of 0xFF instead (runs of 127 progress or fail: at most
// 8 bytes per 127 texels of the row under way, after which stb reads the rest unencoded) and notes the overrun.
struct HdrSource
{
    const std::vector<unsigned char>& bytes;
    std::size_t at = 0;
    std::size_t padding = std::size_t(1) << 21;
    bool overran = false;
    static int read(void* user, char* data, int size)
    {
        auto& source = *static_cast<HdrSource*>(user);
        const std::size_t count = std::min(std::size_t(size), source.bytes.size() - source.at);
        // stb refills its 128-byte buffer with what there is, asking only once it has used the last refill, but
        // needs all of a smaller request: the end is passed when a refill finds nothing or a request falls short.
        source.overran = source.overran || count == 0 || (size < 128 && count < std::size_t(size));
        const std::size_t pad = source.overran ? std::min(std::size_t(size) - count, source.padding) : 0;
        std::memcpy(data, source.bytes.data() + source.at, count);
        std::memset(data + count, 0xff, pad);
        source.at += count;
        source.padding -= pad;
        return int(count + pad);
    }
    static int eof(void* user) { return static_cast<HdrSource*>(user)->overran; }
};

// Refuses a .hdr whose resolution line declares more texels than its bytes can hold, before stb allocates for them
// (a 51-byte file declaring 8192 x 8192 would cost 664 MiB). A scanline takes at least 4 bytes a texel unencoded,
// or, run-length encoded (widths 8 .. 32767), a 4-byte marker and per component 2 bytes a run of up to 127.
void checkHdrSize(const std::string& path, const std::vector<unsigned char>& bytes)
{
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()),
                                std::min<std::size_t>(bytes.size(), 65536));
    const std::size_t blank = text.find("\n\n");
    if (blank == std::string::npos)
        return; // stb names the broken header
    const std::size_t lineEnd = text.find('\n', blank + 2);
    long long width = 0, height = 0;
    char yAxis[3] = {}, xAxis[3] = {};
    if (lineEnd == std::string::npos ||
        std::sscanf(std::string(text.substr(blank + 2, lineEnd - blank - 2)).c_str(), "%2s %lld %2s %lld", yAxis,
                    &height, xAxis, &width) != 4 ||
        width < 1 || height < 1)
        return;
    if (width > (1LL << 30) || height > (1LL << 30))
        fail(path,
             "corrupt Radiance .hdr (it declares " + std::to_string(width) + "x" + std::to_string(height) + " texels)");
    const long long perLine = width >= 8 && width < 32768 ? 4 + 8 * ((width + 126) / 127) : 4 * width;
    const long long available = (long long)(bytes.size() - (lineEnd + 1));
    if (height > available / perLine)
        fail(path, "corrupt or truncated Radiance .hdr (" + std::to_string(width) + "x" + std::to_string(height) +
                       " texels need at least " + std::to_string(perLine) + " bytes a line; the file has " +
                       std::to_string(available) + " after its header)");
}

Image readHdr(const std::string& path, const std::vector<unsigned char>& bytes)
{
    checkHdrSize(path, bytes);
    HdrSource source{bytes};
    // Only stb's .hdr loader sees these files (readImage checked the signature), and it never skips.
    const stbi_io_callbacks callbacks{HdrSource::read, [](void*, int) {}, HdrSource::eof};
    int width = 0, height = 0, components = 0;
    float* rgb = stbi_loadf_from_callbacks(&callbacks, &source, &width, &height, &components, 3);
    const OnExit freeRgb{[rgb] { stbi_image_free(rgb); }};
    if (!rgb && std::strcmp(stbi_failure_reason(), "outofmem") == 0)
        fail(path, "not enough memory to read it");
    if (!rgb || source.overran)
        fail(path, std::string("corrupt or truncated Radiance .hdr (") +
                       (rgb ? "the file ends early" : stbi_failure_reason()) + ")");
    Image image{width, height, {{"R", PixelType::Float, {}}, {"G", PixelType::Float, {}}, {"B", PixelType::Float, {}}}};
    for (std::size_t i = 0; i < std::size_t(width) * std::size_t(height) * 3; ++i)
        image.channels[i % 3].values.push_back(rgb[i]);
    return image;
}

void checkExtent(const std::string& path, const Image& image)
{
    const std::size_t texels = std::size_t(image.width) * std::size_t(image.height);
    // The texel limit readImage applies; it also keeps a PNG row's byte count within an int, as stb needs.
    if (image.width <= 0 || image.height <= 0 || image.channels.empty() || texels > std::size_t(1) << 28)
        fail(path, "image is empty or larger than 2^28 texels");
    for (const Channel& channel : image.channels)
    {
        if (channel.values.size() != texels)
            fail(path, "channel " + channel.name + " has " + std::to_string(channel.values.size()) +
                           " values, expected " + std::to_string(texels));
    }
}

bool hasRgb(const Image& image)
{
    return image.find("R") >= 0 && image.find("G") >= 0 && image.find("B") >= 0;
}

// tinyexr's code for a compression it writes; the others are refused by name.
int writableCompression(const std::string& path, Compression compression)
{
    const auto code = static_cast<unsigned>(compression);
    if (code > TINYEXR_COMPRESSIONTYPE_PIZ)
        fail(path, code < compressionNames.size()
                       ? "cannot write " + std::string(compressionNames[code]) + " compression"
                       : "cannot write compression code " + std::to_string(code));
    return int(code);
}

// The data window an image of its extent is written with: the layout's, or at the origin when that is empty.
Box2i dataWindow(const std::string& path, const Image& image)
{
    const Box2i& window = image.layout.dataWindow;
    if (window.empty())
        return {0, 0, image.width - 1, image.height - 1};
    const std::int64_t width = std::int64_t(window.maxX) - window.minX + 1;
    const std::int64_t height = std::int64_t(window.maxY) - window.minY + 1;
    if (width != image.width || height != image.height)
        fail(path, "data window " + boxText(window) + " is " + std::to_string(width) + "x" + std::to_string(height) +
                       " texels but the image is " + std::to_string(image.width) + "x" + std::to_string(image.height));
    return window;
}

// tinyexr writes the data and display windows as (0, 0) - (width - 1, height - 1), the default pixel aspect ratio
// and screen window, and scanline blocks numbered from line 0. This gives its bytes the layout's values instead:
// each value keeps its size, so nothing moves, and each block's first line moves by the data window's origin.
// The walk checks what it relies on, so a different tinyexr fails here rather than writing a wrong file.
void patchLayout(const std::string& path, unsigned char* bytes, std::size_t size, const Image& image, const Box2i& data)
{
    const ImageLayout& layout = image.layout;
    const Box2i display = layout.displayWindow.empty() ? data : layout.displayWindow;
    const auto storeBox = [](unsigned char* p, const Box2i& box)
    {
        for (const int v : {box.minX, box.minY, box.maxX, box.maxY})
            store32(std::exchange(p, p + 4), std::uint32_t(v));
    };
    const auto storeFloat = [](unsigned char* p, float v) { store32(p, std::bit_cast<std::uint32_t>(v)); };
    int patched = 0;
    std::size_t at = 8; // magic number and version field
    while (at < size && bytes[at] != 0)
    {
        const auto* nameEnd = static_cast<const unsigned char*>(std::memchr(bytes + at, 0, size - at));
        const auto* typeEnd = nameEnd ? static_cast<const unsigned char*>(
                                            std::memchr(nameEnd + 1, 0, size - std::size_t(nameEnd + 1 - bytes)))
                                      : nullptr;
        if (!typeEnd || size - std::size_t(typeEnd - bytes) < 5)
            break;
        const std::string_view name(reinterpret_cast<const char*>(bytes + at), std::size_t(nameEnd - bytes) - at);
        const std::size_t valueAt = std::size_t(typeEnd - bytes) + 5;
        const std::uint32_t valueSize = load32(typeEnd + 1);
        if (valueSize > size - valueAt)
            break;
        unsigned char* value = bytes + valueAt;
        const auto is = [&](std::string_view wanted, std::uint32_t wantedSize)
        {
            const bool match = name == wanted && valueSize == wantedSize;
            patched += match ? 1 : 0;
            return match;
        };
        if (is("dataWindow", 16))
            storeBox(value, data);
        else if (is("displayWindow", 16))
            storeBox(value, display);
        else if (is("pixelAspectRatio", 4))
            storeFloat(value, layout.pixelAspectRatio);
        else if (is("screenWindowCenter", 8))
            storeFloat(value, layout.screenWindowCenter[0]), storeFloat(value + 4, layout.screenWindowCenter[1]);
        else if (is("screenWindowWidth", 4))
            storeFloat(value, layout.screenWindowWidth);
        at = valueAt + valueSize;
    }
    // The offset table follows the header's terminating zero byte; each block starts with its first line's y.
    const int lines = linesPerBlock(layout.compression);
    const std::size_t blocks = (std::size_t(image.height) + std::size_t(lines) - 1) / std::size_t(lines);
    const std::size_t table = at + 1;
    if (patched != 5 || at >= size || bytes[at] != 0 || blocks > (size - table) / 8)
        fail(path, "OpenEXR encoding failed (tinyexr wrote an unexpected header)");
    for (std::size_t i = 0; i < blocks; ++i)
    {
        const std::uint64_t offset = load64(bytes + table + 8 * i);
        const std::int64_t line = std::int64_t(i) * lines;
        if (offset > size - 4 || load32(bytes + offset) != std::uint32_t(line))
            fail(path, "OpenEXR encoding failed (tinyexr wrote an unexpected block " + std::to_string(i) + ")");
        store32(bytes + offset, std::uint32_t(line + data.minY));
    }
}

} // namespace

Image readImage(const std::string& path)
{
    return decodeImage(path, readFile(path));
}

Image decodeImage(const std::string& path, const std::vector<unsigned char>& bytes)
{
    const auto startsWith = [&](const std::string& magic)
    { return bytes.size() >= magic.size() && std::equal(magic.begin(), magic.end(), bytes.begin()); };
    Image image;
    if (startsWith("\x76\x2f\x31\x01"))
        image = readExr(path, bytes);
    else if (startsWith("#?RADIANCE\n") || startsWith("#?RGBE\n"))
        image = readHdr(path, bytes);
    else
        fail(path, "not an OpenEXR or Radiance .hdr image");
    if (image.width < 1 || image.height < 1)
        fail(path,
             "zero-sized image (" + std::to_string(image.width) + "x" + std::to_string(image.height) + " texels)");
    if (!hasRgb(image))
        fail(path, "no R, G, B channels");
    return image;
}

void writeExr(const std::string& path, const Image& image, std::optional<PixelType> override)
{
    checkExtent(path, image);
    const int compression = writableCompression(path, image.layout.compression);
    const Box2i data = dataWindow(path, image);

    // OpenEXR readers take pixel data in channel-list order and keep that list sorted by name: write it sorted.
    std::vector<std::size_t> order(image.channels.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return image.channels[a].name < image.channels[b].name; });
    const auto count = order.size();
    std::vector<EXRChannelInfo> infos(count);
    std::vector<int> inputTypes(count, TINYEXR_PIXELTYPE_FLOAT);
    std::vector<int> storedTypes(count);
    std::vector<unsigned char*> planes(count);
    bool longNames = false;
    for (std::size_t i = 0; i < count; ++i)
    {
        const Channel& channel = image.channels[order[i]];
        if (channel.name.empty() || channel.name.size() >= sizeof infos[i].name)
            fail(path, "channel name \"" + channel.name + "\" must be 1 to 255 bytes long");
        if (i > 0 && channel.name == image.channels[order[i - 1]].name)
            fail(path, "two channels are called " + channel.name);
        longNames = longNames || channel.name.size() > 31;
        std::memcpy(infos[i].name, channel.name.c_str(), channel.name.size() + 1);
        infos[i].pixel_type = TINYEXR_PIXELTYPE_FLOAT;
        infos[i].x_sampling = 1;
        infos[i].y_sampling = 1;
        storedTypes[i] =
            override.value_or(channel.type) == PixelType::Half ? TINYEXR_PIXELTYPE_HALF : TINYEXR_PIXELTYPE_FLOAT;
        // tinyexr only reads the planes; its API is not const-correct.
        planes[i] = reinterpret_cast<unsigned char*>(const_cast<float*>(channel.values.data()));
    }

    // tinyexr writes custom attributes as given; the layout's fields and the file's structure are written apart.
    const std::vector<Attribute>& given = image.layout.attributes;
    std::vector<EXRAttribute> attributes(given.size());
    for (std::size_t i = 0; i < given.size(); ++i)
    {
        const Attribute& attribute = given[i];
        for (const std::string* text : {&attribute.name, &attribute.type})
        {
            if (text->empty() || text->size() >= sizeof attributes[i].name || text->find('\0') != std::string::npos)
                fail(path, "attribute " + std::string(text == &attribute.name ? "name" : "type") + " \"" + *text +
                               "\" must be 1 to 255 bytes long, without zero bytes");
            longNames = longNames || text->size() > 31;
        }
        if (isStructural(attribute.name))
            fail(path, "attribute " + attribute.name + " is written from the image and its layout, not as given");
        for (std::size_t j = 0; j < i; ++j)
        {
            if (given[j].name == attribute.name)
                fail(path, "two attributes are called " + attribute.name);
        }
        if (attribute.value.size() > std::size_t(INT_MAX))
            fail(path, "attribute " + attribute.name + " is larger than 2 GiB");
        std::memcpy(attributes[i].name, attribute.name.c_str(), attribute.name.size() + 1);
        std::memcpy(attributes[i].type, attribute.type.c_str(), attribute.type.size() + 1);
        attributes[i].value = const_cast<unsigned char*>(attribute.value.data()); // only read, as the planes are
        attributes[i].size = int(attribute.value.size());
    }

    // The arrays belong to the vectors above, so the header is never given to FreeEXRHeader.
    EXRHeader header;
    InitEXRHeader(&header);
    header.num_channels = int(count);
    header.channels = infos.data();
    header.pixel_types = inputTypes.data();
    header.requested_pixel_types = storedTypes.data();
    header.compression_type = compression;
    header.long_name = longNames ? 1 : 0;
    header.num_custom_attributes = int(attributes.size());
    header.custom_attributes = attributes.empty() ? nullptr : attributes.data();
    EXRImage exr;
    InitEXRImage(&exr);
    exr.num_channels = int(count);
    exr.width = image.width;
    exr.height = image.height;
    exr.images = planes.data();
    unsigned char* memory = nullptr;
    const char* message = nullptr;
    const std::size_t size = SaveEXRImageToMemory(&exr, &header, &memory, &message);
    const OnExit freeMemory{[memory] { std::free(memory); }};
    checkExr(path, size == 0, message, "OpenEXR encoding failed");
    patchLayout(path, memory, size, image, data);
    writeFileAtomically(path, memory, size);
}

void writePngPreview(const std::string& path, const Image& image, float exposure)
{
    checkExtent(path, image);
    if (!hasRgb(image))
        fail(path, "no R, G, B channels");
    const Texels rgba = toRgba(image);
    const float scale = std::exp2(exposure);
    const std::size_t texels = std::size_t(image.width) * std::size_t(image.height);
    std::vector<unsigned char> pixels(texels * 3);
    for (std::size_t i = 0; i < texels; ++i)
    {
        for (std::size_t c = 0; c < 3; ++c)
        {
            // max() with 0 first also maps NaN to 0; +inf would tonemap to NaN, so it is pinned to white.
            const float x = std::max(0.0f, rgba.values[i * 4 + c] * scale);
            const float mapped = std::isinf(x) ? 1.0f : x / (1.0f + x);
            const float encoded =
                mapped <= 0.0031308f ? 12.92f * mapped : 1.055f * std::pow(mapped, 1.0f / 2.4f) - 0.055f;
            pixels[i * 3 + c] = static_cast<unsigned char>(std::lround(encoded * 255.0f));
        }
    }
    std::string png;
    const auto append = [](void* out, void* data, int size)
    { static_cast<std::string*>(out)->append(static_cast<const char*>(data), std::size_t(size)); };
    if (!stbi_write_png_to_func(append, &png, image.width, image.height, 3, pixels.data(), image.width * 3))
        fail(path, "PNG encoding failed");
    writeFileAtomically(path, png.data(), png.size());
}

} // namespace fftb
