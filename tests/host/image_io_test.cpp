// SPDX-License-Identifier: MIT
// Image file round trips, readers' and writers' error messages, and the all-or-nothing write rule.
#include "host_error.h"
#include "image/image_io.h"
#include "image_test_fixture.h"

#include <gtest/gtest.h>
#include <stb_image.h>
#include <stb_image_write.h>

#include <Imath/half.h>
#include <OpenEXR/ImfChannelList.h>
#include <OpenEXR/ImfFrameBuffer.h>
#include <OpenEXR/ImfHeader.h>
#include <OpenEXR/ImfMatrixAttribute.h>
#include <OpenEXR/ImfOpaqueAttribute.h>
#include <OpenEXR/ImfOutputFile.h>
#include <OpenEXR/ImfRationalAttribute.h>
#include <OpenEXR/ImfStdIO.h>
#include <OpenEXR/ImfStringAttribute.h>
#include <OpenEXR/ImfTiledOutputFile.h>
#include <OpenEXR/ImfVersion.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <tuple>

namespace fftb
{
namespace
{

// Little-endian bytes built up for a file or an attribute value, as OpenEXR stores them.
struct Bytes
{
    std::vector<char> data;
    Bytes& u8(unsigned v)
    {
        data.push_back(static_cast<char>(v & 0xff));
        return *this;
    }
    Bytes& u32(std::uint32_t v) { return u8(v).u8(v >> 8).u8(v >> 16).u8(v >> 24); }
    Bytes& i32(int v) { return u32(std::uint32_t(v)); }
    Bytes& f32(float v) { return u32(std::bit_cast<std::uint32_t>(v)); }
    Bytes& u64(std::uint64_t v) { return u32(std::uint32_t(v)).u32(std::uint32_t(v >> 32)); }
    Bytes& box(const Box2i& b) { return i32(b.minX).i32(b.minY).i32(b.maxX).i32(b.maxY); }
    Bytes& chars(const std::string& s)
    {
        data.insert(data.end(), s.begin(), s.end());
        return *this;
    }
    Bytes& text(const std::string& s) { return chars(s).u8(0); } // zero-terminated
    std::vector<unsigned char> value() const { return {data.begin(), data.end()}; }
    Bytes& attribute(const std::string& name, const std::string& type, const Bytes& value)
    {
        text(name).text(type).u32(std::uint32_t(value.data.size()));
        data.insert(data.end(), value.data.begin(), value.data.end());
        return *this;
    }
};

std::uint32_t u32At(const std::vector<char>& bytes, std::size_t at)
{
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i)
        v |= std::uint32_t(static_cast<unsigned char>(bytes.at(at + i))) << (8 * i);
    return v;
}

// Scanlines in each block of a scanline file of `compression` (OpenEXR's "OpenEXR File Layout").
int linesPerBlock(Compression compression)
{
    switch (compression)
    {
    case Compression::Zip:
    case Compression::Pxr24:
        return 16;
    case Compression::Piz:
    case Compression::B44:
    case Compression::B44a:
    case Compression::Dwaa:
        return 32;
    case Compression::Dwab:
        return 256;
    default:
        return 1;
    }
}

// An OpenEXR file's header attributes (name: type and value bytes) and the first line of each scanline block, read
// straight from its bytes.
struct RawExr
{
    std::map<std::string, std::pair<std::string, std::vector<char>>> attributes;
    std::vector<int> blockLines;
    std::size_t table = 0; // where the offset table starts

    explicit RawExr(const std::vector<char>& bytes)
    {
        std::size_t at = 8;
        while (bytes.at(at) != 0)
        {
            const std::string name(&bytes[at]);
            const std::string type(&bytes[at + name.size() + 1]);
            const std::size_t valueAt = at + name.size() + type.size() + 6;
            const std::size_t size = u32At(bytes, valueAt - 4);
            attributes[name] = {type, std::vector<char>(&bytes.at(valueAt), &bytes.at(valueAt) + size)};
            at = valueAt + size;
        }
        table = at + 1;
        const Box2i data = box("dataWindow");
        const int code = attributes.at("compression").second.at(0);
        const int lines = linesPerBlock(Compression(code));
        for (int i = 0; i < (data.maxY - data.minY + lines) / lines; ++i)
            blockLines.push_back(int(u32At(bytes, u32At(bytes, table + std::size_t(i) * 8))));
    }
    Box2i box(const std::string& name) const
    {
        const std::vector<char>& v = attributes.at(name).second;
        return {int(u32At(v, 0)), int(u32At(v, 4)), int(u32At(v, 8)), int(u32At(v, 12))};
    }
    float number(const std::string& name, std::size_t index = 0) const
    {
        return std::bit_cast<float>(u32At(attributes.at(name).second, index * 4));
    }
};

void putU32(std::vector<char>& bytes, std::size_t at, std::uint32_t value)
{
    for (std::size_t i = 0; i < 4; ++i)
        bytes.at(at + i) = static_cast<char>(value >> (8 * i));
}

// Where block `index` of a file whose offsets fit 32 bits starts.
std::size_t blockAt(const std::vector<char>& bytes, std::size_t index)
{
    const std::size_t entry = RawExr(bytes).table + 8 * index;
    EXPECT_EQ(u32At(bytes, entry + 4), 0u) << "offset past 4 GiB";
    return u32At(bytes, entry);
}

// A scanline OpenEXR without compression, built byte by byte from float channels sorted by name: a file made
// without OpenEXR or writeExr. Blocks lie in the file bottom first for DECREASING_Y (lineOrder 1), as OpenEXR
// writes them; the offset table lists them by line either way.
std::vector<char> buildExr(const Image& image, const Box2i& data, const Box2i& display, unsigned lineOrder)
{
    Bytes channels;
    for (const Channel& c : image.channels)
        channels.text(c.name).i32(2).u32(0).i32(1).i32(1); // FLOAT, linear flag and reserved bytes, sampling 1 x 1
    channels.u8(0);
    Bytes file;
    file.u32(20000630).u32(2);
    file.attribute("channels", "chlist", channels)
        .attribute("compression", "compression", Bytes().u8(0))
        .attribute("dataWindow", "box2i", Bytes().box(data))
        .attribute("displayWindow", "box2i", Bytes().box(display))
        .attribute("lineOrder", "lineOrder", Bytes().u8(lineOrder))
        .attribute("pixelAspectRatio", "float", Bytes().f32(1.0f))
        .attribute("screenWindowCenter", "v2f", Bytes().f32(0.0f).f32(0.0f))
        .attribute("screenWindowWidth", "float", Bytes().f32(1.0f))
        .u8(0);
    const auto height = std::size_t(image.height), rowBytes = std::size_t(image.width) * 4 * image.channels.size();
    const std::size_t first = file.data.size() + height * 8;
    const auto place = [&](std::size_t y) { return lineOrder == 1 ? height - 1 - y : y; };
    for (std::size_t y = 0; y < height; ++y)
        file.u64(first + place(y) * (8 + rowBytes));
    for (std::size_t p = 0; p < height; ++p)
    {
        const std::size_t y = place(p);
        file.i32(data.minY + int(y)).u32(std::uint32_t(rowBytes));
        for (const Channel& c : image.channels)
            for (std::size_t x = 0; x < std::size_t(image.width); ++x)
                file.f32(c.values[y * std::size_t(image.width) + x]);
    }
    return file.data;
}

// Float channels of random bit patterns: every sign, exponent, subnormal, infinity and NaN payload.
Image makeBitPatterns(int width, int height, const std::vector<std::string>& names)
{
    std::mt19937 random(99);
    Image image{width, height, {}};
    for (const auto& name : names)
    {
        Channel channel{name, PixelType::Float, std::vector<float>(std::size_t(width) * std::size_t(height))};
        for (float& v : channel.values)
            v = std::bit_cast<float>(std::uint32_t(random()));
        image.channels.push_back(std::move(channel));
    }
    return image;
}

// Half channels of values a half holds exactly: normals over the whole exponent range, subnormals, signed zeros
// and infinities, with runs of repeats for the run-length coders.
Image makeHalfValues(int width, int height, const std::vector<std::string>& names)
{
    std::mt19937 random(77);
    Image image{width, height, {}};
    for (const auto& name : names)
    {
        Channel channel{name, PixelType::Half, std::vector<float>(std::size_t(width) * std::size_t(height))};
        std::vector<float>& values = channel.values;
        for (std::size_t i = 0; i < values.size(); ++i)
        {
            const auto kind = random() % 16;
            const float sign = random() % 2 ? -1.0f : 1.0f;
            const float normal = std::ldexp(1.0f + float(random() % 1024) / 1024.0f, int(random() % 30) - 14);
            values[i] = kind < 3 && i > 0 ? values[i - 1]
                        : kind == 3       ? sign * std::ldexp(float(random() % 1024), -24)
                        : kind == 4       ? sign * INFINITY
                                          : sign * normal;
        }
        image.channels.push_back(std::move(channel));
    }
    return image;
}

// Every value of `actual` has the bits of the one in `expected`; the first difference is printed.
void expectSameBits(const std::vector<float>& actual, const std::vector<float>& expected, const std::string& what)
{
    ASSERT_EQ(actual.size(), expected.size()) << what;
    for (std::size_t i = 0; i < actual.size(); ++i)
    {
        if (std::bit_cast<std::uint32_t>(actual[i]) != std::bit_cast<std::uint32_t>(expected[i]))
        {
            ADD_FAILURE() << what << ": value " << i << " is " << actual[i] << ", expected " << expected[i];
            return;
        }
    }
}

void expectSameBox(const Box2i& actual, const Box2i& expected, const std::string& what)
{
    EXPECT_EQ(std::tuple(actual.minX, actual.minY, actual.maxX, actual.maxY),
              std::tuple(expected.minX, expected.minY, expected.maxX, expected.maxY))
        << what;
}

// Smooth values from 0.5 to 1.5 (of a HALF channel, values a half holds exactly): what the lossy codecs are meant
// for, so that their error can be bounded.
Image makeSmooth(int width, int height, const std::vector<std::string>& names, PixelType type)
{
    Image image{width, height, {}};
    for (const auto& name : names)
    {
        Channel channel{name, type, std::vector<float>(std::size_t(width) * std::size_t(height))};
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x)
            {
                const float v = 1.0f + 0.5f * std::sin(0.2f * float(x) + float(name[0])) * std::cos(0.15f * float(y));
                channel.values[std::size_t(y * width + x)] = type == PixelType::Half ? float(Imath::half(v)) : v;
            }
        image.channels.push_back(std::move(channel));
    }
    return image;
}

bool isLossless(Compression compression)
{
    return compression <= Compression::Piz;
}

// The largest relative error a value of makeSmooth may take through `compression` (0: every bit kept), measured
// with OpenEXR 3.1.5 and given a margin. PXR24 rounds FLOAT to 24 bits (15 of 23 significand bits kept: 1.5e-5
// measured, 2^-15 allowed) and keeps HALF exact. B44 and B44A code HALF in 4 x 4 blocks (0.39 % measured, 1 %
// allowed) and keep FLOAT as it is. DWAA and DWAB code R, G and B (also Y, RY, BY and their layers) in 8 x 8 DCT
// blocks at the default level 45, HALF or FLOAT (1.3 % measured, 3 % allowed), other channels losslessly.
double tolerance(Compression compression, PixelType type, const std::string& name)
{
    const bool half = type == PixelType::Half;
    const bool colour = name == "R" || name == "G" || name == "B";
    switch (compression)
    {
    case Compression::Pxr24:
        return half ? 0.0 : std::ldexp(1.0, -15);
    case Compression::B44:
    case Compression::B44a:
        return half ? 0.01 : 0.0;
    case Compression::Dwaa:
    case Compression::Dwab:
        return colour ? 0.03 : 0.0;
    default:
        return 0.0;
    }
}

// Every channel of `original` in `read`, of its type, with every bit, or within `compression`'s tolerance.
void expectWithinCodec(const Image& read, const Image& original, Compression compression)
{
    ASSERT_EQ(std::tuple(read.width, read.height, read.channels.size()),
              std::tuple(original.width, original.height, original.channels.size()));
    EXPECT_EQ(read.layout.compression, compression);
    for (const Channel& c : original.channels)
    {
        const Channel& r = channel(read, c.name);
        EXPECT_EQ(r.type, c.type) << "channel " << c.name;
        const double allowed = tolerance(compression, c.type, c.name);
        if (allowed == 0.0)
        {
            expectSameBits(r.values, c.values, "channel " + c.name);
            continue;
        }
        double worst = 0.0;
        for (std::size_t i = 0; i < c.values.size(); ++i)
            worst = std::max(worst, std::abs(double(r.values[i]) - c.values[i]) / std::abs(double(c.values[i])));
        EXPECT_LE(worst, allowed) << "channel " << c.name << ": largest relative error";
        EXPECT_GT(worst, 0.0) << "channel " << c.name << ": a lossy codec kept every bit; is it the one asked for?";
    }
}

// The compressions that keep every float bit.
const std::pair<Compression, const char*> writableCompressions[] = {{Compression::None, "NONE"},
                                                                    {Compression::Rle, "RLE"},
                                                                    {Compression::Zips, "ZIPS"},
                                                                    {Compression::Zip, "ZIP"},
                                                                    {Compression::Piz, "PIZ"}};

const std::pair<Compression, const char*> allCompressions[] = {
    {Compression::None, "NONE"}, {Compression::Rle, "RLE"},   {Compression::Zips, "ZIPS"},
    {Compression::Zip, "ZIP"},   {Compression::Piz, "PIZ"},   {Compression::Pxr24, "PXR24"},
    {Compression::B44, "B44"},   {Compression::B44a, "B44A"}, {Compression::Dwaa, "DWAA"},
    {Compression::Dwab, "DWAB"}};

// `image`'s channels in an OpenEXR header and frame buffer of their own types; halves converted, kept in `halves`.
Imf::FrameBuffer openExrPlanes(const Image& image, Imf::Header& header, std::vector<std::vector<Imath::half>>& halves)
{
    Imf::FrameBuffer frame;
    for (const Channel& c : image.channels)
    {
        const bool half = c.type == PixelType::Half;
        header.channels().insert(c.name, Imf::Channel(half ? Imf::HALF : Imf::FLOAT));
        const char* base = reinterpret_cast<const char*>(c.values.data());
        if (half)
            base = reinterpret_cast<const char*>(halves.emplace_back(c.values.begin(), c.values.end()).data());
        const std::size_t size = half ? 2 : 4;
        frame.insert(c.name, Imf::Slice(half ? Imf::HALF : Imf::FLOAT, const_cast<char*>(base), size,
                                        size * std::size_t(image.width)));
    }
    return frame;
}

TEST_F(ImageIoTest, FloatRoundTripIsExactHalfWithinHalfPrecision)
{
    for (const PixelType type : {PixelType::Float, PixelType::Half})
    {
        Image original = makeImage(37, 23, {"B", "G", "R"}, type);
        original.channels[0].values[0] = -2048.0f; // exactly representable in half: must survive unchanged
        writeExr(file("f.exr"), original);
        const Image read = readImage(file("f.exr"));
        ASSERT_EQ(std::tuple(read.width, read.height, read.channels.size()), std::tuple(37, 23, 3u));
        EXPECT_EQ(read.channels[0].values[0], -2048.0f);
        // Half rounds to nearest with an 11-bit significand: at most half a unit in the last place.
        const double tolerance = type == PixelType::Half ? std::ldexp(1.0, -11) : 0.0;
        for (std::size_t c = 0; c < 3; ++c)
        {
            EXPECT_EQ(read.channels[c].name, original.channels[c].name);
            EXPECT_EQ(read.channels[c].type, type);
            double worst = 0.0;
            for (std::size_t i = 0; i < original.channels[c].values.size(); ++i)
            {
                const double a = original.channels[c].values[i];
                worst = std::max(worst, std::abs(read.channels[c].values[i] - a) / std::abs(a));
            }
            EXPECT_LE(worst, tolerance) << "channel " << original.channels[c].name;
        }
    }
}

TEST_F(ImageIoTest, ExtraChannelsAndAlphaPassThroughSortedWithTheirValues)
{
    // OpenEXR readers require the channel list sorted by name, so that is the order the file and the image
    // read back from it have; each channel's values and type must move with its name.
    Image original = makeImage(16, 9, {"R", "G", "B", "A", "diffuse.R", "Z"}, PixelType::Half);
    original.channels[std::size_t(original.find("Z"))].type = PixelType::Float;
    writeExr(file("x.exr"), original);
    const Image read = readImage(file("x.exr"));
    const std::vector<std::string> sorted = {"A", "B", "G", "R", "Z", "diffuse.R"};
    ASSERT_EQ(read.channels.size(), sorted.size());
    for (std::size_t c = 0; c < sorted.size(); ++c)
    {
        EXPECT_EQ(read.channels[c].name, sorted[c]);
        EXPECT_EQ(read.channels[c].type, channel(original, sorted[c]).type) << "channel " << sorted[c];
    }
    EXPECT_EQ(channel(read, "Z").values, channel(original, "Z").values);
    writeExr(file("f.exr"), original, PixelType::Float); // the override applies to every channel
    for (const Channel& c : readImage(file("f.exr")).channels)
    {
        EXPECT_EQ(c.type, PixelType::Float) << "channel " << c.name;
        EXPECT_EQ(c.values, channel(original, c.name).values) << "channel " << c.name;
    }
}

// Writes `original` with OpenEXR's TiledOutputFile in 16 x 16 tiles. Of a mipmap, the levels below the first hold
// the top-left corner of the image, not its reduction: a reader that took them for the first level would be caught.
void writeTiled(const std::string& path, const Image& original, Imf::Compression compression = Imf::ZIP_COMPRESSION,
                Imf::LevelMode levels = Imf::ONE_LEVEL)
{
    Imf::Header header(original.width, original.height);
    header.compression() = compression;
    header.setTileDescription(Imf::TileDescription(16, 16, levels));
    std::vector<std::vector<Imath::half>> halves;
    const Imf::FrameBuffer frame = openExrPlanes(original, header, halves);
    Imf::TiledOutputFile file(path.c_str(), header);
    file.setFrameBuffer(frame);
    for (int level = 0; level < file.numLevels(); ++level)
        file.writeTiles(0, file.numXTiles(level) - 1, 0, file.numYTiles(level) - 1, level, level);
}

TEST_F(ImageIoTest, ReadsTiledExr)
{
    // 37 x 23 texels in 16 x 16 tiles: the edge tiles are clipped, which is where tile copies go wrong. Every
    // compression, half and float, one level and a mipmap (its full-resolution level read).
    for (const auto& [compression, name] : allCompressions)
    {
        for (const Imf::LevelMode levels : {Imf::ONE_LEVEL, Imf::MIPMAP_LEVELS})
        {
            const std::vector<std::string> names = {"B", "G", "R", "Z"};
            for (const PixelType type : {PixelType::Half, PixelType::Float})
            {
                SCOPED_TRACE(std::string(name) + (type == PixelType::Half ? " half" : " float") +
                             (levels == Imf::ONE_LEVEL ? ", one level" : ", mipmap"));
                const Image original = !isLossless(compression)  ? makeSmooth(37, 23, names, type)
                                       : type == PixelType::Half ? makeHalfValues(37, 23, names)
                                                                 : makeBitPatterns(37, 23, names);
                writeTiled(file("t.exr"), original, Imf::Compression(compression), levels);
                expectWithinCodec(readImage(file("t.exr")), original, compression);
            }
        }
    }
}

TEST_F(ImageIoTest, DamagedTilesAreRefused)
{
    writeTiled(file("t.exr"), makeImage(37, 23, {"B", "G", "R"}, PixelType::Float)); // 3 x 2 tiles of 16 x 16
    const std::vector<char> good = readBytes(file("t.exr"));
    const std::size_t tile = blockAt(good, 0);
    // A tile's coordinates and level, as its block header gives them: tile (3, 0), (0, 3), level (3, 0).
    for (const std::size_t at : {tile, tile + 4, tile + 8})
    {
        SCOPED_TRACE("block header word at " + std::to_string(at - tile));
        std::vector<char> bad = good;
        putU32(bad, at, 3);
        writeBytes(file("bad.exr"), bad);
        expectError([&] { readImage(file("bad.exr")); }, file("bad.exr"), "corrupt or truncated OpenEXR (");
    }
    // 16384 x 16384 texels in 1 x 1 tiles: an offset table of 2 GiB, refused before OpenEXR sizes it.
    std::vector<char> bad = good;
    const std::size_t window = attributeValue(bad, "dataWindow", "box2i"),
                      tiles = attributeValue(bad, "tiles", "tiledesc");
    putU32(bad, window + 8, 16383);
    putU32(bad, window + 12, 16383);
    putU32(bad, tiles, 1);
    putU32(bad, tiles + 4, 1);
    writeBytes(file("bad.exr"), bad);
    expectError([&] { readImage(file("bad.exr")); }, file("bad.exr"),
                "corrupt or truncated OpenEXR (an offset table of 268435456 blocks does not fit the file)");
    // Tiles of 2^32 - 3 texels a side: their area would overflow a 64-bit product.
    putU32(bad, tiles, 0xFFFFFFFDu);
    putU32(bad, tiles + 4, 0xFFFFFFFDu);
    writeBytes(file("bad.exr"), bad);
    expectError([&] { readImage(file("bad.exr")); }, file("bad.exr"),
                "corrupt or truncated OpenEXR (tiles of 4294967293x4294967293 texels; at most 2^24 are supported)");
}

TEST_F(ImageIoTest, ReadsRadianceHdrWithinRgbePrecision)
{
    const Image original = makeImage(7, 5, {"R", "G", "B"}, PixelType::Float);
    std::vector<float> rgb(7 * 5 * 3);
    for (std::size_t i = 0; i < rgb.size(); ++i)
        rgb[i] = std::abs(original.channels[i % 3].values[i / 3]); // RGBE has no sign
    ASSERT_TRUE(stbi_write_hdr(file("a.hdr").c_str(), 7, 5, 3, rgb.data()));
    // Both signatures of the format; stb writes the first.
    std::vector<char> bytes = readBytes(file("a.hdr"));
    const std::string radiance = "#?RADIANCE\n", rgbe = "#?RGBE\n";
    ASSERT_TRUE(std::equal(radiance.begin(), radiance.end(), bytes.begin()));
    bytes.erase(bytes.begin(), bytes.begin() + long(radiance.size()));
    bytes.insert(bytes.begin(), rgbe.begin(), rgbe.end());
    writeBytes(file("b.hdr"), bytes);

    for (const char* name : {"a.hdr", "b.hdr"})
    {
        const Image read = readImage(file(name));
        ASSERT_EQ(read.width, 7);
        ASSERT_EQ(read.height, 5);
        ASSERT_EQ(read.channels.size(), 3u);
        for (std::size_t c = 0; c < 3; ++c)
            EXPECT_TRUE(read.channels[c].name == std::string(1, "RGB"[c]) && read.channels[c].type == PixelType::Float);
        // The default layout: no windows of its own (the image at the origin), no attributes.
        EXPECT_TRUE(read.layout.dataWindow.empty() && read.layout.displayWindow.empty());
        EXPECT_TRUE(read.layout.attributes.empty());
        for (std::size_t i = 0; i < rgb.size(); ++i)
        {
            // The three components share one exponent and keep 8 mantissa bits relative to the largest.
            const float largest = *std::max_element(&rgb[i / 3 * 3], &rgb[i / 3 * 3] + 3);
            EXPECT_NEAR(read.channels[i % 3].values[i / 3], rgb[i], largest * std::ldexp(1.0f, -7))
                << name << " texel " << i / 3 << " component " << i % 3;
        }
    }
}

TEST_F(ImageIoTest, MissingFilesAndFilesThatAreNotImages)
{
    expectError([&] { readImage(file("absent.exr")); }, file("absent.exr"), "no such file");
    writeBytes(file("text.exr"), {'h', 'e', 'l', 'l', 'o'});
    writeBytes(file("empty.exr"), {});
    writePngPreview(file("preview.hdr"), makeImage(4, 4, {"R", "G", "B"}, PixelType::Half));
    for (const char* name : {"text.exr", "empty.exr", "preview.hdr"})
        expectError([&] { readImage(file(name)); }, file(name), "not an OpenEXR or Radiance .hdr image");
}

TEST_F(ImageIoTest, TruncatedFiles)
{
    for (const auto& [compression, name] : allCompressions)
    {
        Image image = makeImage(64, 48, {"B", "G", "R"}, PixelType::Half);
        image.layout.compression = compression;
        writeExr(file("whole.exr"), image);
        const std::vector<char> whole = readBytes(file("whole.exr"));
        for (const std::size_t size :
             {std::size_t(4), std::size_t(8), std::size_t(60), whole.size() / 2, whole.size() - 1})
        {
            SCOPED_TRACE(std::string(name) + " truncated to " + std::to_string(size) + " of " +
                         std::to_string(whole.size()) + " bytes");
            writeBytes(file("cut.exr"), std::vector<char>(whole.begin(), whole.begin() + long(size)));
            expectError([&] { readImage(file("cut.exr")); }, file("cut.exr"), "corrupt or truncated OpenEXR (");
        }
    }
    // stb run-length encodes rows 8 to 32767 texels wide: cut short, those hang stb_image alone; other rows
    // it silently reads as zeros.
    for (const int width : {5, 97})
    {
        const std::vector<float> grey(std::size_t(width) * 81 * 3, 0.5f);
        ASSERT_TRUE(stbi_write_hdr(file("whole.hdr").c_str(), width, 81, 3, grey.data()));
        const std::vector<char> hdr = readBytes(file("whole.hdr"));
        writeBytes(file("cut.hdr"), std::vector<char>(hdr.begin(), hdr.begin() + long(hdr.size() / 2)));
        expectError([&] { readImage(file("cut.hdr")); }, file("cut.hdr"), "corrupt or truncated Radiance .hdr (");
    }
}

// Reads are bounded by what the file holds: only regular files are read (a character device would be read until
// memory runs out), and a .hdr header declaring more texels than its bytes can hold is refused before stb allocates.
TEST_F(ImageIoTest, OnlyRegularFilesAndNoMoreTexelsThanTheBytesHold)
{
    expectError([&] { readImage("/dev/zero"); }, "/dev/zero", "not a regular file");
    expectError([&] { readImage(dir.string()); }, dir.string(), "not a regular file");
    const std::string header = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 8192 +X 8192\n";
    writeBytes(file("huge.hdr"), std::vector<char>(header.begin(), header.end()));
    expectError([&] { readImage(file("huge.hdr")); }, file("huge.hdr"), "8192x8192 texels need at least 524 bytes");
}

TEST_F(ImageIoTest, UnknownCompressionIsRefused)
{
    writeExr(file("zip.exr"), makeImage(8, 8, {"B", "G", "R"}, PixelType::Half));
    std::vector<char> bytes = readBytes(file("zip.exr"));
    const std::size_t valueAt = attributeValue(bytes, "compression", "compression");
    ASSERT_EQ(bytes.at(valueAt), char(Compression::Zip));
    bytes[valueAt] = 10; // one past DWAB, the last code OpenEXR 3.1 knows
    writeBytes(file("in.exr"), bytes);
    expectError([&] { readImage(file("in.exr")); }, file("in.exr"), "corrupt or truncated OpenEXR (");
}

TEST_F(ImageIoTest, DamagedHeaderIsAnErrorNotACrash)
{
    // A part type that contradicts the file's layout: a scanline file claiming to be tiled. The attribute goes last,
    // before the header's terminating zero byte.
    writeExr(file("ok.exr"), makeImage(8, 8, {"B", "G", "R"}, PixelType::Half));
    std::vector<char> bytes = readBytes(file("ok.exr"));
    const std::size_t end = attributeValue(bytes, "screenWindowWidth", "float") + 4;
    ASSERT_EQ(bytes.at(end), 0);
    const std::string type("type\0string\0\x0a\0\0\0tiledimage", 26);
    bytes.insert(bytes.begin() + long(end), type.begin(), type.end());
    writeBytes(file("bad.exr"), bytes);
    expectError([&] { readImage(file("bad.exr")); }, file("bad.exr"), "corrupt or truncated OpenEXR (");
    // An attribute claiming more bytes than the file has, which OpenEXR would allocate before reading.
    bytes = readBytes(file("ok.exr"));
    putU32(bytes, attributeValue(bytes, "screenWindowWidth", "float") - 4, 0x7fff0000u);
    writeBytes(file("long.exr"), bytes);
    expectError([&] { readImage(file("long.exr")); }, file("long.exr"),
                "corrupt or truncated OpenEXR (header attribute screenWindowWidth of 2147418112 bytes does not fit");
}

// A 40 x 40 PIZ file in two blocks (32 lines and 8) of Huffman coded half ramps, not stored raw.
std::vector<char> writePiz(const std::string& path)
{
    Image image = makeImage(40, 40, {"B", "G", "R"}, PixelType::Half);
    for (Channel& c : image.channels)
        for (std::size_t i = 0; i < c.values.size(); ++i)
            c.values[i] = float(i % 40 + i / 40) / 8.0f;
    image.layout.compression = Compression::Piz;
    writeExr(path, image);
    return readBytes(path);
}

TEST_F(ImageIoTest, DamagedPizBlocksAreRefused)
{
    // A PIZ block's bitmap range and Huffman lengths pointing past the block, and a negative bit count: OpenEXR
    // must refuse each (the fuzz target goes further), and the reason must name the file.
    const std::vector<char> good = writePiz(file("good.exr"));
    EXPECT_EQ(readImage(file("good.exr")).width, 40);
    const std::size_t data = blockAt(good, 0) + 8;
    const std::uint32_t length = u32At(good, data - 4), minNonZero = u32At(good, data) & 0xffff;
    ASSERT_LT(length, 40u * 32 * 3 * 2) << "block 0 stored raw";
    const std::uint32_t maxNonZero = u32At(good, data) >> 16;
    const std::size_t bitmap = minNonZero <= maxNonZero ? maxNonZero - minNonZero + 1 : 0;
    const std::size_t huffman = data + 4 + bitmap;
    const std::tuple<std::size_t, std::uint32_t, std::string> damages[] = {
        {data, minNonZero | 8192u << 16, "bitmap range ends at byte 8192 of 8192"},
        {data, 0u | 8191u << 16, "a bitmap of 8192 bytes"},
        {huffman, std::uint32_t(length - 8 - bitmap + 1),
         "Huffman data of " + std::to_string(length - 8 - bitmap + 1) + " bytes"},
        {huffman, std::uint32_t(-16), "Huffman data of -16 bytes"},
        {huffman, 19u, "Huffman data of 19 bytes"},
        {huffman + 4 + 12, std::uint32_t(-2), "Huffman bit count -2"},
    };
    for (const auto& [at, value, reason] : damages)
    {
        SCOPED_TRACE(reason);
        std::vector<char> bad = good;
        putU32(bad, at, value);
        writeBytes(file("bad.exr"), bad);
        expectError([&] { readImage(file("bad.exr")); }, file("bad.exr"), "corrupt or truncated OpenEXR (");
    }
}

TEST_F(ImageIoTest, HeadersAskingMoreTexelsThanTheFileCanHoldAreRefused)
{
    // The PIZ file's 40 lines, still two blocks, now 1,000,000 texels wide: 458 MiB of float planes for blocks of a
    // few hundred bytes, far past what any codec packs into them, refused before anything is allocated.
    std::vector<char> bytes = writePiz(file("good.exr"));
    putU32(bytes, attributeValue(bytes, "dataWindow", "box2i") + 8, 999999);
    writeBytes(file("wide.exr"), bytes);
    expectError([&] { readImage(file("wide.exr")); }, file("wide.exr"),
                "corrupt or truncated OpenEXR (458 MiB of texels in a file of " + std::to_string(bytes.size()) +
                    " bytes)");
}

TEST_F(ImageIoTest, DamagedOffsetTablesAndBlockHeadersAreRefusedOrRepaired)
{
    const Image original = makeImage(8, 40, {"B", "G", "R"}, PixelType::Half);
    writeExr(file("zip.exr"), original); // ZIP: 3 blocks of 16 lines
    const std::vector<char> good = readBytes(file("zip.exr"));
    const std::size_t table = RawExr(good).table, block = blockAt(good, 1);
    const auto size = std::uint32_t(good.size());
    // OpenEXR rebuilds an offset table with an entry outside the file by scanning the blocks: the image must then
    // come back whole. A block header naming another line or a length past the file is refused.
    const std::tuple<std::size_t, std::uint32_t, bool> damages[] = {
        {table + 8, 0u, false},           {table + 8, size, false}, {block, 40u, true},
        {block, std::uint32_t(-1), true}, {block + 4, size, true},  {block + 4, 0u, true},
    };
    for (const auto& [at, value, refused] : damages)
    {
        SCOPED_TRACE("byte " + std::to_string(at) + " set to " + std::to_string(value));
        std::vector<char> bad = good;
        putU32(bad, at, value);
        writeBytes(file("bad.exr"), bad);
        if (refused)
            expectError([&] { readImage(file("bad.exr")); }, file("bad.exr"), "corrupt or truncated OpenEXR (");
        else
            for (const Channel& c : original.channels)
                EXPECT_EQ(channel(readImage(file("bad.exr")), c.name).values,
                          channel(readImage(file("zip.exr")), c.name).values);
    }
}

TEST_F(ImageIoTest, ExrWithoutRgbIsRefused)
{
    writeExr(file("depth.exr"), makeImage(8, 8, {"A", "Z"}, PixelType::Float));
    expectError([&] { readImage(file("depth.exr")); }, file("depth.exr"), "no R, G, B channels");
    writeExr(file("rg.exr"), makeImage(8, 8, {"G", "R"}, PixelType::Float));
    expectError([&] { readImage(file("rg.exr")); }, file("rg.exr"), "no R, G, B channels");
}

TEST_F(ImageIoTest, WritesLeaveNothingBehindButTheirFile)
{
    const Image image = makeImage(4, 4, {"B", "G", "R"}, PixelType::Half);
    expectError([&] { writeExr(file("missing/out.exr"), image); }, file("missing/out.exr"), "no such folder");
    expectError([&] { writePngPreview(file("missing/o.png"), image); }, file("missing/o.png"), "no such folder");
    EXPECT_TRUE(listing().empty());
    writeExr(file("out.exr"), image);
    writeExr(file("out.exr"), image); // replacing an existing file
    writePngPreview(file("out.png"), image);
    EXPECT_EQ(listing(), (std::set<std::string>{"out.exr", "out.png"}));
    // A failure after the temporary file exists: the rename onto a folder fails.
    fs::create_directory(dir / "folder.exr");
    expectError([&] { writeExr(file("folder.exr"), image); }, file("folder.exr"), "directory");
    expectError([&] { writePngPreview(file("folder.exr"), image); }, file("folder.exr"), "directory");
    // Failures before any file is made: a channel of the wrong size, and no colour for a preview.
    Image ragged = image;
    ragged.channels[1].values.pop_back();
    expectError([&] { writeExr(file("r.exr"), ragged); }, file("r.exr"), "channel G has 15 values, expected 16");
    expectError([&] { writePngPreview(file("z.png"), makeImage(4, 4, {"Z"}, PixelType::Float)); }, file("z.png"),
                "no R, G, B channels");
    EXPECT_EQ(listing(), (std::set<std::string>{"folder.exr", "out.exr", "out.png"}));
}

// A preview shows the display window: the data window's texels where they fall in it, black elsewhere; overscan
// outside it is cut; an image without a display window is its data window.
TEST_F(ImageIoTest, PreviewsShowTheDisplayWindow)
{
    Image image = makeImage(4, 3, {"B", "G", "R"}, PixelType::Float);
    const Texels data = toRgba(image);
    EXPECT_EQ(displayWindowRgba(image).values, data.values) << "no display window";
    image.layout.dataWindow = {2, 1, 5, 3};
    image.layout.displayWindow = {0, 0, 4, 4}; // x 5 is overscan
    const Texels shown = displayWindowRgba(image);
    ASSERT_EQ(shown.width, 5);
    ASSERT_EQ(shown.height, 5);
    for (int y = 0; y < 5; ++y)
        for (int x = 0; x < 5; ++x)
            for (int c = 0; c < 4; ++c)
            {
                const bool inData = x >= 2 && y >= 1 && y <= 3;
                EXPECT_EQ(shown.at(x, y, c), inData ? data.at(x - 2, y - 1, c) : 0.0f) << x << ", " << y << ", " << c;
            }
    writePngPreview(file("cropped.png"), image);
    int w = 0, h = 0, n = 0;
    unsigned char* pixels = stbi_load(file("cropped.png").c_str(), &w, &h, &n, 3);
    ASSERT_NE(pixels, nullptr);
    stbi_image_free(pixels);
    EXPECT_EQ(w, 5);
    EXPECT_EQ(h, 5);
    image.layout.displayWindow = {0, 0, 1 << 15, 1 << 15};
    expectError([&] { writePngPreview(file("huge.png"), image); }, file("huge.png"), "larger than 2^28 texels");
}

TEST_F(ImageIoTest, PngPreviewTonemap)
{
    const float values[] = {0.0f, 1.0f, 0.25f, 3.0f, 1e30f, -2.0f, std::nanf(""), INFINITY};
    const int width = int(std::size(values));
    const std::vector<float> forward(std::begin(values), std::end(values)), reversed(forward.rbegin(), forward.rend());
    const Image image{
        width, 1, {{"B", PixelType::Half, reversed}, {"G", PixelType::Half, forward}, {"R", PixelType::Half, forward}}};
    for (const float exposure : {0.0f, 1.0f, -2.0f})
    {
        SCOPED_TRACE("exposure " + std::to_string(exposure));
        writePngPreview(file("p.png"), image, exposure);
        int w = 0, h = 0, n = 0;
        unsigned char* pixels = stbi_load(file("p.png").c_str(), &w, &h, &n, 3);
        ASSERT_NE(pixels, nullptr);
        ASSERT_EQ(w, width);
        ASSERT_EQ(h, 1);
        for (int i = 0; i < width * 3; ++i)
        {
            double v = double(image.channels[std::size_t(2 - i % 3)].values[i / 3]) * std::exp2(double(exposure));
            // Narkowicz's ACES fit, as the viewer's tonemap.comp writes it.
            const double a = 0.6 * v;
            v = std::isnan(v) || v <= 0.0 ? 0.0
                : std::isinf(v)           ? 1.0
                                          : std::min(1.0, (a * (2.51 * a + 0.03)) / (a * (2.43 * a + 0.59) + 0.14));
            v = v <= 0.0031308 ? 12.92 * v : 1.055 * std::pow(v, 1.0 / 2.4) - 0.055;
            EXPECT_NEAR(pixels[i], v * 255.0, 0.5 + 1e-3) << "texel " << i / 3 << " component " << i % 3;
        }
        stbi_image_free(pixels);
    }
}

TEST_F(ImageIoTest, ToRgbaAndWithRgb)
{
    Image image = makeImage(5, 3, {"B", "G", "R", "Z"}, PixelType::Half);
    EXPECT_EQ(toRgba(image).at(1, 0, 3), 1.0f); // no alpha channel
    image.channels.push_back({"A", PixelType::Half, std::vector<float>(15, 0.25f)});
    Texels rgba = toRgba(image);
    ASSERT_EQ(rgba.components, 4);
    for (std::size_t i = 0; i < rgba.values.size(); ++i)
        EXPECT_EQ(rgba.values[i], channel(image, std::string(1, "RGBA"[i % 4])).values[i / 4]) << "value " << i;
    for (float& v : rgba.values)
        v = -v;
    const Image replaced = withRgb(image, rgba);
    ASSERT_EQ(replaced.channels.size(), image.channels.size());
    for (std::size_t c = 0; c < image.channels.size(); ++c)
    {
        const Channel& before = image.channels[c];
        EXPECT_EQ(replaced.channels[c].name, before.name);
        EXPECT_EQ(replaced.channels[c].type, before.type);
        const float sign = before.name == "R" || before.name == "G" || before.name == "B" ? -1.0f : 1.0f;
        for (std::size_t i = 0; i < before.values.size(); ++i)
            EXPECT_EQ(replaced.channels[c].values[i], sign * before.values[i]) << before.name;
    }
    EXPECT_THROW(withRgb(image, Texels(4, 3, 4)), HostError);
    EXPECT_THROW(toRgba(makeImage(2, 2, {"Y"}, PixelType::Half)), HostError);
}

TEST_F(ImageIoTest, EveryCompressionRoundTrips)
{
    // Odd extents, one block or several for every compression (16 to 256 lines a block), half and float. The
    // lossless codecs keep float channels of every bit pattern and half channels of exact half values; the lossy
    // ones (PXR24, B44, B44A, DWAA, DWAB) keep smooth values within their tolerance (see tolerance()), the
    // channels they do not code lossily (Z here) exactly.
    for (const auto& [compression, name] : allCompressions)
    {
        for (const auto& [width, height] : {std::pair(37, 19), std::pair(37, 270), std::pair(1, 1)})
        {
            const std::vector<std::string> names = {"B", "G", "R", "Z"};
            for (const PixelType type : {PixelType::Half, PixelType::Float})
            {
                SCOPED_TRACE(std::string(name) + (type == PixelType::Half ? " half " : " float ") +
                             std::to_string(width) + "x" + std::to_string(height));
                Image original = !isLossless(compression)  ? makeSmooth(width, height, names, type)
                                 : type == PixelType::Half ? makeHalfValues(width, height, names)
                                                           : makeBitPatterns(width, height, names);
                original.layout.compression = compression;
                writeExr(file("c.exr"), original);
                EXPECT_EQ(RawExr(readBytes(file("c.exr"))).attributes.at("compression").second,
                          std::vector<char>{char(compression)});
                const Image read = readImage(file("c.exr"));
                if (width * height == 1 && !isLossless(compression))
                    continue; // a single value: the lossy codecs may keep it exactly
                expectWithinCodec(read, original, compression);
            }
        }
    }
}

TEST_F(ImageIoTest, CompressionCodesOpenExrDoesNotKnowAreWriteErrors)
{
    Image image = makeImage(8, 8, {"B", "G", "R"}, PixelType::Half);
    image.layout.compression = Compression(10);
    expectError([&] { writeExr(file("out.exr"), image); }, file("out.exr"), "cannot write compression code 10");
    EXPECT_TRUE(listing().empty());
}

TEST_F(ImageIoTest, ReadsDataWindowsAwayFromTheOrigin)
{
    // Files built without OpenEXR: a data window inside the display window, one reaching out of it on the negative
    // side (overscan), and both line orders, which only order the blocks in the file.
    const Image original = makeBitPatterns(37, 19, {"B", "G", "R"});
    const Box2i display = {0, 0, 99, 59};
    for (const Box2i& data : {Box2i{10, 20, 46, 38}, Box2i{-7, -3, 29, 15}})
    {
        for (const unsigned lineOrder : {0u, 1u})
        {
            SCOPED_TRACE("data window " + std::to_string(data.minX) + ", " + std::to_string(data.minY) +
                         ", line order " + std::to_string(lineOrder));
            writeBytes(file("s.exr"), buildExr(original, data, display, lineOrder));
            const Image read = readImage(file("s.exr"));
            ASSERT_EQ(std::tuple(read.width, read.height), std::tuple(37, 19));
            expectSameBox(read.layout.dataWindow, data, "data window");
            expectSameBox(read.layout.displayWindow, display, "display window");
            EXPECT_EQ(read.layout.compression, Compression::None);
            for (const Channel& c : original.channels)
                expectSameBits(channel(read, c.name).values, c.values, "channel " + c.name);
        }
    }
    // Tiles are numbered from the data window's corner, wherever it lies; the line order only orders the tiles
    // in the file (RANDOM_Y is 2).
    const Image tiledOriginal = makeImage(37, 23, {"B", "G", "R"}, PixelType::Float);
    writeTiled(file("origin.exr"), tiledOriginal);
    for (const unsigned lineOrder : {0u, 1u, 2u})
    {
        SCOPED_TRACE("tiled, line order " + std::to_string(lineOrder));
        std::vector<char> bytes = readBytes(file("origin.exr"));
        const Box2i data = {10, 20, 46, 42};
        const std::vector<char> box = Bytes().box(data).data;
        std::copy(box.begin(), box.end(), bytes.begin() + long(attributeValue(bytes, "dataWindow", "box2i")));
        bytes.at(attributeValue(bytes, "lineOrder", "lineOrder")) = char(lineOrder);
        writeBytes(file("t.exr"), bytes);
        const Image read = readImage(file("t.exr"));
        ASSERT_EQ(std::tuple(read.width, read.height), std::tuple(37, 23));
        expectSameBox(read.layout.dataWindow, data, "data window");
        expectSameBox(read.layout.displayWindow, {0, 0, 36, 22}, "display window"); // as writeTiled wrote it
        for (const Channel& c : tiledOriginal.channels)
            expectSameBits(channel(read, c.name).values, c.values, "channel " + c.name);
    }
}

TEST_F(ImageIoTest, WindowsRoundTripThroughWriteExr)
{
    for (const auto& [compression, name] : writableCompressions)
    {
        for (const Box2i& data : {Box2i{10, 20, 46, 38}, Box2i{10, 20, 46, 89}, Box2i{-7, -33, 29, 36}})
        {
            SCOPED_TRACE(std::string(name) + ", data window from " + std::to_string(data.minX) + ", " +
                         std::to_string(data.minY));
            Image original = makeBitPatterns(37, data.maxY - data.minY + 1, {"B", "G", "R"});
            original.layout.compression = compression;
            original.layout.dataWindow = data;
            original.layout.displayWindow = {0, 0, 99, 59};
            writeExr(file("w.exr"), original);
            // The file itself: both windows, and each block starting at its line of the data window.
            const RawExr raw(readBytes(file("w.exr")));
            expectSameBox(raw.box("dataWindow"), data, "file's data window");
            expectSameBox(raw.box("displayWindow"), {0, 0, 99, 59}, "file's display window");
            const int lines = compression == Compression::Zip ? 16 : compression == Compression::Piz ? 32 : 1;
            std::vector<int> expected;
            for (int y = data.minY; y <= data.maxY; y += lines)
                expected.push_back(y);
            EXPECT_EQ(raw.blockLines, expected);
            // And as read back.
            const Image read = readImage(file("w.exr"));
            expectSameBox(read.layout.dataWindow, data, "data window");
            expectSameBox(read.layout.displayWindow, {0, 0, 99, 59}, "display window");
            for (const Channel& c : original.channels)
                expectSameBits(channel(read, c.name).values, c.values, "channel " + c.name);
        }
    }
    // Empty windows: the data window at the origin, the display window the data window.
    Image image = makeImage(5, 3, {"B", "G", "R"}, PixelType::Half);
    image.layout.displayWindow = {};
    image.layout.dataWindow = {};
    writeExr(file("a.exr"), image);
    expectSameBox(RawExr(readBytes(file("a.exr"))).box("dataWindow"), {0, 0, 4, 2}, "origin data window");
    expectSameBox(RawExr(readBytes(file("a.exr"))).box("displayWindow"), {0, 0, 4, 2}, "origin display window");
    image.layout.dataWindow = {-2, 4, 2, 6};
    writeExr(file("b.exr"), image);
    expectSameBox(RawExr(readBytes(file("b.exr"))).box("displayWindow"), {-2, 4, 2, 6}, "display window");
}

TEST_F(ImageIoTest, DataWindowOfAnotherExtentIsAnError)
{
    Image image = makeImage(37, 19, {"B", "G", "R"}, PixelType::Half);
    image.layout.dataWindow = {10, 20, 46, 39}; // 37 x 20
    expectError([&] { writeExr(file("out.exr"), image); }, file("out.exr"),
                "data window (10, 20) - (46, 39) is 37x20 texels but the image is 37x19");
    EXPECT_TRUE(listing().empty());
}

TEST_F(ImageIoTest, PixelAspectRatioAndScreenWindowRoundTrip)
{
    Image image = makeImage(6, 4, {"B", "G", "R"}, PixelType::Half);
    image.layout.pixelAspectRatio = 2.0f; // anamorphic
    image.layout.screenWindowCenter[0] = 0.25f;
    image.layout.screenWindowCenter[1] = -0.5f;
    image.layout.screenWindowWidth = 1.5f;
    writeExr(file("p.exr"), image);
    const RawExr raw(readBytes(file("p.exr")));
    EXPECT_EQ(raw.number("pixelAspectRatio"), 2.0f);
    EXPECT_EQ(std::pair(raw.number("screenWindowCenter", 0), raw.number("screenWindowCenter", 1)),
              std::pair(0.25f, -0.5f));
    EXPECT_EQ(raw.number("screenWindowWidth"), 1.5f);
    const Image read = readImage(file("p.exr"));
    EXPECT_EQ(read.layout.pixelAspectRatio, 2.0f);
    EXPECT_EQ(std::pair(read.layout.screenWindowCenter[0], read.layout.screenWindowCenter[1]), std::pair(0.25f, -0.5f));
    EXPECT_EQ(read.layout.screenWindowWidth, 1.5f);
}

std::vector<unsigned char> chars(const std::string& text)
{
    return {text.begin(), text.end()};
}

void expectAttributes(const std::vector<Attribute>& actual, const std::vector<Attribute>& expected)
{
    ASSERT_EQ(actual.size(), expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i)
    {
        EXPECT_EQ(actual[i].name, expected[i].name) << "attribute " << i;
        EXPECT_EQ(actual[i].type, expected[i].type) << "attribute " << expected[i].name;
        EXPECT_EQ(actual[i].value, expected[i].value) << "attribute " << expected[i].name;
    }
}

TEST_F(ImageIoTest, CustomAttributesRoundTrip)
{
    // Written through OpenEXR directly, read, written by writeExr and read again: the same attributes each time, in
    // OpenEXR's order (by name). The edge cases: an empty string, a name past 31 bytes (the file's long-name flag),
    // "name", and a type OpenEXR does not know (kept as its bytes).
    Imath::M44f matrix;
    Bytes matrixBytes;
    for (int i = 0; i < 16; ++i)
        matrixBytes.f32(matrix[i / 4][i % 4] = i % 5 == 0 ? 1.0f : 0.125f * float(i));
    const std::vector<unsigned char> opaque = {1, 2, 3, 0, 255, 7};
    const std::vector<Attribute> expected = {
        {"comments", "string", {}},
        {"framesPerSecond", "rational", Bytes().i32(24000).u32(1001).value()},
        {"name", "string", chars("beauty")},
        {"nuke/node_hash/of_a_read_node_long_named", "string", chars("5f1e2a")},
        {"owner", "string", chars("lighting")},
        {"studioThing", "studioType", opaque},
        {"worldToCamera", "m44f", matrixBytes.value()},
    };
    const Image original = makeImage(8, 4, {"B", "G", "R"}, PixelType::Float);
    Imf::Header header(8, 4);
    header.insert("owner", Imf::StringAttribute("lighting"));
    header.insert("framesPerSecond", Imf::RationalAttribute(Imf::Rational(24000, 1001)));
    header.insert("comments", Imf::StringAttribute(""));
    header.insert("worldToCamera", Imf::M44fAttribute(matrix));
    header.insert("nuke/node_hash/of_a_read_node_long_named", Imf::StringAttribute("5f1e2a"));
    header.insert("name", Imf::StringAttribute("beauty"));
    Imf::OpaqueAttribute studio("studioType");
    const std::vector<char> opaqueChars(opaque.begin(), opaque.end());
    Imf::StdISStream opaqueStream; // an OpaqueAttribute is only filled by reading
    opaqueStream.str({opaqueChars.begin(), opaqueChars.end()});
    studio.readValueFrom(opaqueStream, int(opaque.size()), Imf::EXR_VERSION);
    header.insert("studioThing", studio);
    std::vector<std::vector<Imath::half>> halves;
    const Imf::FrameBuffer frame = openExrPlanes(original, header, halves);
    {
        Imf::OutputFile out(file("t.exr").c_str(), header);
        out.setFrameBuffer(frame);
        out.writePixels(4);
    }

    const Image first = readImage(file("t.exr"));
    expectAttributes(first.layout.attributes, expected);
    writeExr(file("w.exr"), first);
    const std::vector<char> written = readBytes(file("w.exr"));
    EXPECT_TRUE(written.at(5) & 0x04) << "long-name flag";
    const RawExr raw(written);
    EXPECT_EQ(raw.attributes.at("owner"),
              std::pair(std::string("string"), std::vector<char>{'l', 'i', 'g', 'h', 't', 'i', 'n', 'g'}));
    EXPECT_EQ(raw.attributes.at("comments"), std::pair(std::string("string"), std::vector<char>{}));
    EXPECT_EQ(raw.attributes.at("studioThing"), std::pair(std::string("studioType"), opaqueChars));
    expectAttributes(readImage(file("w.exr")).layout.attributes, expected);
}

TEST_F(ImageIoTest, AttributesWriteExrCannotWriteAreErrors)
{
    const Image plain = makeImage(4, 4, {"B", "G", "R"}, PixelType::Half);
    const std::pair<std::vector<Attribute>, std::string> cases[] = {
        {{{"dataWindow", "box2i", Bytes().box({0, 0, 3, 3}).value()}},
         "attribute dataWindow is written from the image and its layout"},
        {{{"tiles", "tiledesc", std::vector<unsigned char>(9)}}, "attribute tiles is written from the image"},
        {{{"owner", "string", chars("a")}, {"owner", "string", chars("b")}}, "two attributes are called owner"},
        {{{"", "string", chars("a")}}, "attribute name \"\" must be 1 to 255 bytes long"},
        {{{std::string(256, 'n'), "string", chars("a")}}, "must be 1 to 255 bytes long"},
        {{{"owner", "", chars("a")}}, "attribute type \"\" must be 1 to 255 bytes long"},
        {{{"box", "box2i", chars("abc")}}, "attribute box: 3 bytes do not hold a box2i"},
        {{{"ratio", "float", chars("abcdefgh")}}, "attribute ratio: 8 bytes do not hold a float"},
    };
    for (const auto& [attributes, reason] : cases)
    {
        Image image = plain;
        image.layout.attributes = attributes;
        expectError([&] { writeExr(file("out.exr"), image); }, file("out.exr"), reason);
    }
    EXPECT_TRUE(listing().empty());
}

TEST_F(ImageIoTest, HundredsOfCustomAttributesAreKept)
{
    Image image = makeImage(4, 4, {"B", "G", "R"}, PixelType::Half);
    for (int i = 0; i < 300; ++i)
        image.layout.attributes.push_back({"note" + std::to_string(1000 + i), "string", chars(std::to_string(i * i))});
    writeExr(file("300.exr"), image);
    expectAttributes(readImage(file("300.exr")).layout.attributes, image.layout.attributes);
}

TEST_F(ImageIoTest, AlphaAndAovChannelsAreBitExact)
{
    const std::vector<std::string> names = {"R", "G", "B", "A", "diffuse.R", "Z"};
    for (const Image& original : {makeBitPatterns(21, 13, names), makeHalfValues(21, 13, names)})
    {
        SCOPED_TRACE(original.channels[0].type == PixelType::Half ? "half" : "float");
        writeExr(file("aov.exr"), original);
        const Image read = readImage(file("aov.exr"));
        ASSERT_EQ(read.channels.size(), names.size());
        for (const Channel& c : original.channels)
        {
            EXPECT_EQ(channel(read, c.name).type, c.type) << "channel " << c.name;
            expectSameBits(channel(read, c.name).values, c.values, "channel " + c.name);
        }
    }
}

TEST_F(ImageIoTest, LuminanceChromaImagesAreRefused)
{
    const std::string reason = "luminance/chroma (Y, RY, BY) images are not supported; convert to RGB";
    writeExr(file("y.exr"), makeImage(8, 8, {"Y"}, PixelType::Half));
    expectError([&] { readImage(file("y.exr")); }, file("y.exr"), reason);
    writeExr(file("ya.exr"), makeImage(8, 8, {"A", "Y"}, PixelType::Half));
    expectError([&] { readImage(file("ya.exr")); }, file("ya.exr"), reason);
    // As OpenEXR writes them, RY and BY are subsampled 2 x 2: the reason is still luminance/chroma.
    writeExr(file("yc.exr"), makeImage(8, 8, {"BY", "RY", "Y"}, PixelType::Half));
    std::vector<char> bytes = readBytes(file("yc.exr"));
    std::size_t at = attributeValue(bytes, "channels", "chlist");
    for (int c = 0; c < 2; ++c) // BY and RY, the first two in the sorted list
    {
        at += std::string(&bytes[at]).size() + 1 + 8; // name, pixel type, linear flag and reserved bytes
        bytes[at] = bytes[at + 4] = 2;
        at += 8;
    }
    writeBytes(file("yc.exr"), bytes);
    expectError([&] { readImage(file("yc.exr")); }, file("yc.exr"), reason);
    // Y beside R, G, B is one more channel.
    writeExr(file("rgby.exr"), makeImage(8, 8, {"B", "G", "R", "Y"}, PixelType::Half));
    EXPECT_EQ(readImage(file("rgby.exr")).channels.size(), 4u);
}

TEST_F(ImageIoTest, EmptyImagesAreRefused)
{
    writeExr(file("ok.exr"), makeImage(8, 8, {"B", "G", "R"}, PixelType::Half));
    std::vector<char> bytes = readBytes(file("ok.exr"));
    const std::vector<char> box = Bytes().box({0, 0, -1, 7}).data;
    std::copy(box.begin(), box.end(), bytes.begin() + long(attributeValue(bytes, "dataWindow", "box2i")));
    writeBytes(file("empty.exr"), bytes);
    expectError([&] { readImage(file("empty.exr")); }, file("empty.exr"),
                "empty data window (0, 0) - (-1, 7); the image has no texels");
    const std::string hdr = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 0 +X 5\n";
    writeBytes(file("empty.hdr"), {hdr.begin(), hdr.end()});
    expectError([&] { readImage(file("empty.hdr")); }, file("empty.hdr"), "zero-sized image (5x0 texels)");
}

} // namespace
} // namespace fftb
