// SPDX-License-Identifier: MIT
// Image file round trips, readers' and writers' error messages, and the all-or-nothing write rule.
#include "host_error.h"
#include "image/image_io.h"

#include <gtest/gtest.h>
#include <stb_image.h>
#include <stb_image_write.h>
#include <tinyexr.h>

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
#include <random>
#include <set>
#include <tuple>

namespace fs = std::filesystem;

namespace fftb
{
namespace
{

class ImageIoTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir = fs::path(::testing::TempDir()) / (std::string("fftbloom_image_io_") + info->name());
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    void TearDown() override { fs::remove_all(dir); }

    std::string file(const std::string& name) const { return (dir / name).string(); }

    std::set<std::string> listing() const
    {
        std::set<std::string> names;
        for (const auto& entry : fs::directory_iterator(dir))
            names.insert(entry.path().filename().string());
        return names;
    }

    fs::path dir;
};

// Values spread over six decades with both signs, fixed seed, distinct per channel.
Image makeImage(int width, int height, const std::vector<std::string>& names, PixelType type)
{
    std::mt19937 random(1234);
    std::uniform_real_distribution<float> decade(-3.0f, 3.0f);
    Image image{width, height, {}};
    for (const auto& name : names)
    {
        Channel channel{name, type, std::vector<float>(std::size_t(width) * std::size_t(height))};
        for (float& v : channel.values)
            v = std::pow(10.0f, decade(random)) * (random() % 4 == 0 ? -1.0f : 1.0f);
        image.channels.push_back(std::move(channel));
    }
    return image;
}

std::vector<char> readBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const std::string& path, const std::vector<char>& bytes)
{
    std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

// Byte offset of the value of the header attribute `name` of type `type`.
std::size_t attributeValue(const std::vector<char>& bytes, const std::string& name, const std::string& type)
{
    const std::string key = name + '\0' + type + '\0';
    const auto at = std::search(bytes.begin(), bytes.end(), key.begin(), key.end());
    EXPECT_NE(at, bytes.end()) << "no attribute " << name;
    return std::size_t(at - bytes.begin()) + key.size() + 4; // after the int32 size
}

// Runs `action`, which must throw a HostError naming `path` and containing `reason`.
void expectError(const std::function<void()>& action, const std::string& path, const std::string& reason)
{
    try
    {
        action();
        ADD_FAILURE() << "no error; expected \"" << path << ": ..." << reason << "\"";
    }
    catch (const HostError& error)
    {
        const std::string message = error.what();
        EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << "message: " << message;
        EXPECT_NE(message.find(reason), std::string::npos) << "message: " << message;
    }
}

const Channel& channel(const Image& image, const std::string& name)
{
    const int index = image.find(name);
    EXPECT_GE(index, 0) << "no channel " << name;
    return image.channels.at(std::size_t(index));
}

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
        const int lines = code == 3 ? 16 : code == 4 ? 32 : 1; // ZIP, PIZ; NONE, RLE and ZIPS hold one line
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
// without tinyexr or writeExr. Blocks lie in the file bottom first for DECREASING_Y (lineOrder 1), as OpenEXR
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

const std::pair<Compression, const char*> writableCompressions[] = {{Compression::None, "NONE"},
                                                                    {Compression::Rle, "RLE"},
                                                                    {Compression::Zips, "ZIPS"},
                                                                    {Compression::Zip, "ZIP"},
                                                                    {Compression::Piz, "PIZ"}};

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

// Writes `original` (float channels sorted by name) through tinyexr as a ZIP-compressed file of 16 x 16 tiles.
void writeTiled(const std::string& path, const Image& original)
{
    const int size = 16, tilesX = (original.width + size - 1) / size, tilesY = (original.height + size - 1) / size;
    const std::size_t channels = original.channels.size();
    std::vector<float> planes(std::size_t(tilesX * tilesY * size * size) * channels);
    std::vector<unsigned char*> pointers; // [tile][channel]
    std::vector<EXRTile> tiles(std::size_t(tilesX * tilesY));
    for (int t = 0; t < tilesX * tilesY; ++t)
    {
        EXRTile& tile = tiles[std::size_t(t)];
        tile.offset_x = t % tilesX;
        tile.offset_y = t / tilesX;
        tile.width = std::min(size, original.width - tile.offset_x * size);
        tile.height = std::min(size, original.height - tile.offset_y * size);
        for (std::size_t c = 0; c < channels; ++c)
        {
            float* plane = &planes[(std::size_t(t) * channels + c) * std::size_t(size * size)];
            for (int y = 0; y < tile.height; ++y)
                for (int x = 0; x < tile.width; ++x)
                    plane[y * size + x] = original.channels[c].values[std::size_t(
                        (tile.offset_y * size + y) * original.width + tile.offset_x * size + x)];
            pointers.push_back(reinterpret_cast<unsigned char*>(plane));
        }
    }
    for (std::size_t t = 0; t < tiles.size(); ++t)
        tiles[t].images = &pointers[t * channels];
    std::vector<EXRChannelInfo> infos(channels);
    std::vector<int> types(channels, TINYEXR_PIXELTYPE_FLOAT);
    for (std::size_t c = 0; c < channels; ++c)
        std::strncpy(infos[c].name, original.channels[c].name.c_str(), sizeof infos[c].name - 1);
    EXRHeader header;
    InitEXRHeader(&header);
    header.num_channels = int(channels);
    header.channels = infos.data();
    header.pixel_types = header.requested_pixel_types = types.data();
    header.compression_type = TINYEXR_COMPRESSIONTYPE_ZIP;
    header.tiled = 1;
    header.tile_size_x = header.tile_size_y = size;
    header.data_window = {0, 0, original.width - 1, original.height - 1}; // tinyexr counts tiles from it
    EXRImage image;
    InitEXRImage(&image);
    image.num_channels = int(channels);
    image.width = original.width;
    image.height = original.height;
    image.tiles = tiles.data();
    image.num_tiles = int(tiles.size());
    const char* error = nullptr;
    ASSERT_EQ(SaveEXRImageToFile(&image, &header, path.c_str(), &error), TINYEXR_SUCCESS) << error;
}

TEST_F(ImageIoTest, ReadsTiledExr)
{
    // 37 x 23 texels in 16 x 16 tiles: the edge tiles are clipped, which is where tile copies go wrong.
    const Image original = makeImage(37, 23, {"B", "G", "R"}, PixelType::Float);
    writeTiled(file("t.exr"), original);
    const Image read = readImage(file("t.exr"));
    ASSERT_EQ(read.width, original.width);
    ASSERT_EQ(read.height, original.height);
    for (const Channel& c : original.channels)
        EXPECT_EQ(channel(read, c.name).values, c.values) << "channel " << c.name;
}

TEST_F(ImageIoTest, TileHeadersAreCheckedBeforeTinyexrReadsThem)
{
    writeTiled(file("t.exr"), makeImage(37, 23, {"B", "G", "R"}, PixelType::Float)); // 3 x 2 tiles of 16 x 16
    const std::vector<char> good = readBytes(file("t.exr"));
    const std::size_t tile = blockAt(good, 0);
    const std::pair<std::size_t, std::string> damages[] = {
        {tile, "block 0 is tile (3, 0) of level (0, 0), which the file does not have"},
        {tile + 4, "block 0 is tile (0, 3) of level (0, 0), which the file does not have"},
        {tile + 8, "block 0 is tile (0, 0) of level (3, 0), which the file does not have"},
    };
    for (const auto& [at, reason] : damages)
    {
        SCOPED_TRACE(reason);
        std::vector<char> bad = good;
        putU32(bad, at, 3);
        writeBytes(file("bad.exr"), bad);
        expectError([&] { readImage(file("bad.exr")); }, file("bad.exr"), "corrupt or truncated OpenEXR (" + reason);
    }
    // 16384 x 16384 texels in 1 x 1 tiles: tinyexr would size a 2 GiB offset table before reading the file.
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
    writeExr(file("whole.exr"), makeImage(64, 48, {"B", "G", "R"}, PixelType::Half));
    const std::vector<char> whole = readBytes(file("whole.exr"));
    for (const std::size_t size : {std::size_t(4), std::size_t(8), std::size_t(60), whole.size() / 2, whole.size() - 1})
    {
        SCOPED_TRACE("truncated to " + std::to_string(size) + " of " + std::to_string(whole.size()) + " bytes");
        writeBytes(file("cut.exr"), std::vector<char>(whole.begin(), whole.begin() + long(size)));
        expectError([&] { readImage(file("cut.exr")); }, file("cut.exr"), "corrupt or truncated OpenEXR (");
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

TEST_F(ImageIoTest, UnsupportedCompressionIsNamed)
{
    writeExr(file("zip.exr"), makeImage(8, 8, {"B", "G", "R"}, PixelType::Half));
    const std::vector<char> zip = readBytes(file("zip.exr"));
    const std::size_t valueAt = attributeValue(zip, "compression", "compression");
    ASSERT_EQ(zip.at(valueAt), TINYEXR_COMPRESSIONTYPE_ZIP);
    const std::pair<char, const char*> codes[] = {{5, "PXR24"}, {6, "B44"}, {7, "B44A"}, {8, "DWAA"}, {9, "DWAB"}};
    for (const auto& [code, name] : codes)
    {
        std::vector<char> patched = zip;
        patched[valueAt] = code;
        writeBytes(file("in.exr"), patched);
        expectError([&] { readImage(file("in.exr")); }, file("in.exr"), std::string("unsupported compression ") + name);
    }
}

TEST_F(ImageIoTest, DamagedHeaderIsAnErrorNotACrash)
{
    // tinyexr asserts, ending the process, on a part type that contradicts the file's layout: a scanline file
    // claiming to be tiled. The attribute goes last, before the header's terminating zero byte.
    writeExr(file("ok.exr"), makeImage(8, 8, {"B", "G", "R"}, PixelType::Half));
    std::vector<char> bytes = readBytes(file("ok.exr"));
    const std::size_t end = attributeValue(bytes, "screenWindowWidth", "float") + 4;
    ASSERT_EQ(bytes.at(end), 0);
    const std::string type("type\0string\0\x0a\0\0\0tiledimage", 26);
    bytes.insert(bytes.begin() + long(end), type.begin(), type.end());
    writeBytes(file("bad.exr"), bytes);
    expectError([&] { readImage(file("bad.exr")); }, file("bad.exr"), "corrupt or truncated OpenEXR (part type");
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

TEST_F(ImageIoTest, DamagedPizBlocksAreRefusedBeforeTinyexrReadsThem)
{
    // tinyexr reads a PIZ block's bitmap (up to 8 KiB) and Huffman length before comparing them with the block's
    // length, and hands its Huffman decoder a negative bit count: past the file, or undefined behaviour.
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
        expectError([&] { readImage(file("bad.exr")); }, file("bad.exr"),
                    "corrupt or truncated OpenEXR (PIZ block 0 of " + std::to_string(length) + " bytes: " + reason);
    }
}

TEST_F(ImageIoTest, HeadersAskingMoreTexelsThanTheFileCanHoldAreRefused)
{
    // The PIZ file's 40 lines, still two blocks, now 1,000,000 texels wide: tinyexr would allocate 458 MiB of float
    // and decode two blocks of a few hundred bytes into 183 MiB each, far past what any codec packs into them.
    std::vector<char> bytes = writePiz(file("good.exr"));
    putU32(bytes, attributeValue(bytes, "dataWindow", "box2i") + 8, 999999);
    writeBytes(file("wide.exr"), bytes);
    expectError([&] { readImage(file("wide.exr")); }, file("wide.exr"),
                "corrupt or truncated OpenEXR (458 MiB of texels in a file of " + std::to_string(bytes.size()) +
                    " bytes)");
}

TEST_F(ImageIoTest, OffsetTablesAndBlockHeadersAreCheckedBeforeTinyexrReadsThem)
{
    writeExr(file("zip.exr"), makeImage(8, 40, {"B", "G", "R"}, PixelType::Half)); // ZIP: 3 blocks of 16 lines
    const std::vector<char> good = readBytes(file("zip.exr"));
    const std::size_t table = RawExr(good).table, block = blockAt(good, 1);
    const auto size = std::uint32_t(good.size());
    const std::tuple<std::size_t, std::uint32_t, std::string> damages[] = {
        // tinyexr would rebuild a table with a zero entry by scanning the blocks.
        {table + 8, 0u, "offset table entry 1 points at byte 0, outside the blocks"},
        {table + 8, size, "offset table entry 1 points at byte " + std::to_string(size) + ", outside the blocks"},
        {block, 40u, "block 1 starts at line 40, outside the data window"},
        {block, std::uint32_t(-1), "block 1 starts at line -1, outside the data window"},
        {block + 4, size, "block 1 of " + std::to_string(size) + " bytes does not fit the file"},
        {block + 4, 0u, "block 1 of 0 bytes does not fit the file"},
    };
    for (const auto& [at, value, reason] : damages)
    {
        SCOPED_TRACE(reason);
        std::vector<char> bad = good;
        putU32(bad, at, value);
        writeBytes(file("bad.exr"), bad);
        expectError([&] { readImage(file("bad.exr")); }, file("bad.exr"), "corrupt or truncated OpenEXR (" + reason);
    }
    // A chunkCount tinyexr would size its offset table by (8 GiB here), inserted with the offsets moved past it.
    const std::string chunkCount("chunkCount\0int\0\x04\0\0\0\0\0\0\x40", 23);
    std::vector<char> bad = good;
    bad.insert(bad.begin() + long(table - 1), chunkCount.begin(), chunkCount.end());
    for (std::size_t i = 0; i < 3; ++i)
        putU32(bad, table + chunkCount.size() + 8 * i, u32At(good, table + 8 * i) + std::uint32_t(chunkCount.size()));
    writeBytes(file("bad.exr"), bad);
    expectError([&] { readImage(file("bad.exr")); }, file("bad.exr"),
                "corrupt or truncated OpenEXR (chunkCount 1073741824 where the header describes 3 blocks)");
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
            v = std::isnan(v) || v <= 0.0 ? 0.0 : std::isinf(v) ? 1.0 : v / (1.0 + v);
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

TEST_F(ImageIoTest, EveryWritableCompressionRoundTripsExactly)
{
    // Odd extents, one block or several for every compression (ZIP holds 16 lines a block, PIZ 32), float channels
    // of every bit pattern and half channels of exact half values.
    for (const auto& [compression, name] : writableCompressions)
    {
        for (const auto& [width, height] : {std::pair(37, 19), std::pair(37, 70), std::pair(1, 1)})
        {
            for (Image original :
                 {makeBitPatterns(width, height, {"B", "G", "R"}), makeHalfValues(width, height, {"B", "G", "R"})})
            {
                const bool half = original.channels[0].type == PixelType::Half;
                SCOPED_TRACE(std::string(name) + (half ? " half " : " float ") + std::to_string(width) + "x" +
                             std::to_string(height));
                original.layout.compression = compression;
                writeExr(file("c.exr"), original);
                EXPECT_EQ(RawExr(readBytes(file("c.exr"))).attributes.at("compression").second,
                          std::vector<char>{char(compression)});
                const Image read = readImage(file("c.exr"));
                EXPECT_EQ(read.layout.compression, compression);
                ASSERT_EQ(std::tuple(read.width, read.height, read.channels.size()), std::tuple(width, height, 3u));
                for (const Channel& c : original.channels)
                {
                    EXPECT_EQ(channel(read, c.name).type, c.type);
                    expectSameBits(channel(read, c.name).values, c.values, "channel " + c.name);
                }
            }
        }
    }
}

TEST_F(ImageIoTest, UnwritableCompressionIsAnError)
{
    Image image = makeImage(8, 8, {"B", "G", "R"}, PixelType::Half);
    const std::pair<Compression, const char*> codes[] = {{Compression::Pxr24, "PXR24"},
                                                         {Compression::B44, "B44"},
                                                         {Compression::B44a, "B44A"},
                                                         {Compression::Dwaa, "DWAA"},
                                                         {Compression::Dwab, "DWAB"}};
    for (const auto& [compression, name] : codes)
    {
        image.layout.compression = compression;
        expectError([&] { writeExr(file("out.exr"), image); }, file("out.exr"),
                    std::string("cannot write ") + name + " compression");
    }
    EXPECT_TRUE(listing().empty());
}

TEST_F(ImageIoTest, ReadsDataWindowsAwayFromTheOrigin)
{
    // Files built without tinyexr: a data window inside the display window, one reaching out of it on the negative
    // side (overscan), and both line orders, since tinyexr consults the line order when it places lines.
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
        expectSameBox(read.layout.displayWindow, {0, 0, 36, 22}, "display window"); // as tinyexr wrote it
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
    // Written through tinyexr directly, read, written by writeExr and read again: the same attributes each time.
    // The edge cases: an empty string, a name past 31 bytes (the file's long-name flag), and "name", which tinyexr
    // keeps apart from the others (so it comes last).
    Bytes matrix;
    for (int i = 0; i < 16; ++i)
        matrix.f32(i % 5 == 0 ? 1.0f : 0.125f * float(i));
    const std::vector<Attribute> expected = {
        {"owner", "string", chars("lighting")},
        {"framesPerSecond", "rational", Bytes().i32(24000).u32(1001).value()},
        {"comments", "string", {}},
        {"worldToCamera", "m44f", matrix.value()},
        {"nuke/node_hash/of_a_read_node_long_named", "string", chars("5f1e2a")},
        {"name", "string", chars("beauty")},
    };
    std::vector<EXRAttribute> attributes(expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i)
    {
        std::strcpy(attributes[i].name, expected[i].name.c_str());
        std::strcpy(attributes[i].type, expected[i].type.c_str());
        attributes[i].value = const_cast<unsigned char*>(expected[i].value.data());
        attributes[i].size = int(expected[i].value.size());
    }
    const Image original = makeImage(8, 4, {"B", "G", "R"}, PixelType::Float);
    std::vector<EXRChannelInfo> infos(3);
    std::vector<int> types(3, TINYEXR_PIXELTYPE_FLOAT);
    std::vector<unsigned char*> planes;
    for (std::size_t c = 0; c < 3; ++c)
    {
        infos[c].name[0] = original.channels[c].name[0];
        planes.push_back(reinterpret_cast<unsigned char*>(const_cast<float*>(original.channels[c].values.data())));
    }
    EXRHeader header;
    InitEXRHeader(&header);
    header.num_channels = 3;
    header.channels = infos.data();
    header.pixel_types = header.requested_pixel_types = types.data();
    header.compression_type = TINYEXR_COMPRESSIONTYPE_ZIP;
    header.long_name = 1;
    header.num_custom_attributes = int(attributes.size());
    header.custom_attributes = attributes.data();
    EXRImage image;
    InitEXRImage(&image);
    image.num_channels = 3;
    image.width = 8;
    image.height = 4;
    image.images = planes.data();
    const char* error = nullptr;
    ASSERT_EQ(SaveEXRImageToFile(&image, &header, file("t.exr").c_str(), &error), TINYEXR_SUCCESS) << error;

    const Image first = readImage(file("t.exr"));
    expectAttributes(first.layout.attributes, expected);
    writeExr(file("w.exr"), first);
    const std::vector<char> written = readBytes(file("w.exr"));
    EXPECT_TRUE(written.at(5) & 0x04) << "long-name flag";
    const RawExr raw(written);
    EXPECT_EQ(raw.attributes.at("owner"),
              std::pair(std::string("string"), std::vector<char>{'l', 'i', 'g', 'h', 't', 'i', 'n', 'g'}));
    EXPECT_EQ(raw.attributes.at("comments"), std::pair(std::string("string"), std::vector<char>{}));
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
    };
    for (const auto& [attributes, reason] : cases)
    {
        Image image = plain;
        image.layout.attributes = attributes;
        expectError([&] { writeExr(file("out.exr"), image); }, file("out.exr"), reason);
    }
    EXPECT_TRUE(listing().empty());
}

TEST_F(ImageIoTest, MoreCustomAttributesThanTinyexrKeepsAreRefused)
{
    // tinyexr keeps the first 128 and drops the rest without a word; a file is refused rather than thinned.
    Image image = makeImage(4, 4, {"B", "G", "R"}, PixelType::Half);
    for (int i = 0; i < 129; ++i)
        image.layout.attributes.push_back({"note" + std::to_string(i), "string", chars(std::to_string(i * i))});
    writeExr(file("129.exr"), image);
    expectError([&] { readImage(file("129.exr")); }, file("129.exr"),
                "129 custom header attributes; at most 128 are supported");
    image.layout.attributes.pop_back();
    writeExr(file("128.exr"), image);
    expectAttributes(readImage(file("128.exr")).layout.attributes, image.layout.attributes);
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

TEST_F(ImageIoTest, MultiPartAndDeepFilesAreNamed)
{
    writeExr(file("ok.exr"), makeImage(8, 8, {"B", "G", "R"}, PixelType::Half));
    const std::vector<char> ok = readBytes(file("ok.exr"));
    const std::pair<char, const char*> flags[] = {{0x10, "multi-part OpenEXR files are not supported"},
                                                  {0x08, "deep OpenEXR files are not supported"},
                                                  {0x18, "multi-part OpenEXR files with deep parts are not supported"}};
    for (const auto& [flag, reason] : flags)
    {
        std::vector<char> bytes = ok;
        bytes.at(5) = char(bytes.at(5) | flag); // the version field's second byte holds bits 8 to 15
        writeBytes(file("in.exr"), bytes);
        expectError([&] { readImage(file("in.exr")); }, file("in.exr"), reason);
    }
    // A deep part without the deep flag: its type says so. It goes last, before the header's terminating zero.
    std::vector<char> bytes = ok;
    const std::size_t end = attributeValue(bytes, "screenWindowWidth", "float") + 4;
    ASSERT_EQ(bytes.at(end), 0);
    const std::vector<char> type = Bytes().attribute("type", "string", Bytes().chars("deepscanline")).data;
    bytes.insert(bytes.begin() + long(end), type.begin(), type.end());
    writeBytes(file("deep.exr"), bytes);
    expectError([&] { readImage(file("deep.exr")); }, file("deep.exr"), "deep OpenEXR files are not supported");
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
