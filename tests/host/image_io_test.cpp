// Image file round trips, readers' and writers' error messages, and the all-or-nothing write rule.
#include "host_error.h"
#include "image_io.h"

#include <gtest/gtest.h>
#include <stb_image.h>
#include <stb_image_write.h>
#include <tinyexr.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
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

TEST_F(ImageIoTest, ReadsTiledExr)
{
    // 37 x 23 texels in 16 x 16 tiles: the edge tiles are clipped, which is where tile copies go wrong.
    const Image original = makeImage(37, 23, {"B", "G", "R"}, PixelType::Float);
    const int size = 16, tilesX = 3, tilesY = 2;
    std::vector<float> planes(std::size_t(tilesX * tilesY * 3 * size * size));
    std::vector<unsigned char*> pointers; // [tile][channel]
    std::vector<EXRTile> tiles(std::size_t(tilesX * tilesY));
    for (int t = 0; t < tilesX * tilesY; ++t)
    {
        EXRTile& tile = tiles[std::size_t(t)];
        tile.offset_x = t % tilesX;
        tile.offset_y = t / tilesX;
        tile.width = std::min(size, original.width - tile.offset_x * size);
        tile.height = std::min(size, original.height - tile.offset_y * size);
        for (std::size_t c = 0; c < 3; ++c)
        {
            float* plane = &planes[(std::size_t(t) * 3 + c) * std::size_t(size * size)];
            for (int y = 0; y < tile.height; ++y)
                for (int x = 0; x < tile.width; ++x)
                    plane[y * size + x] = original.channels[c].values[std::size_t(
                        (tile.offset_y * size + y) * original.width + tile.offset_x * size + x)];
            pointers.push_back(reinterpret_cast<unsigned char*>(plane));
        }
    }
    for (std::size_t t = 0; t < tiles.size(); ++t)
        tiles[t].images = &pointers[t * 3];
    std::vector<EXRChannelInfo> infos(3);
    std::vector<int> types(3, TINYEXR_PIXELTYPE_FLOAT);
    for (std::size_t c = 0; c < 3; ++c)
        infos[c].name[0] = original.channels[c].name[0]; // the rest of each name is zero already
    EXRHeader header;
    InitEXRHeader(&header);
    header.num_channels = 3;
    header.channels = infos.data();
    header.pixel_types = header.requested_pixel_types = types.data();
    header.compression_type = TINYEXR_COMPRESSIONTYPE_ZIP;
    header.tiled = 1;
    header.tile_size_x = header.tile_size_y = size;
    header.data_window = {0, 0, original.width - 1, original.height - 1}; // tinyexr counts tiles from it
    EXRImage image;
    InitEXRImage(&image);
    image.num_channels = 3;
    image.width = original.width;
    image.height = original.height;
    image.tiles = tiles.data();
    image.num_tiles = int(tiles.size());
    const char* error = nullptr;
    ASSERT_EQ(SaveEXRImageToFile(&image, &header, file("t.exr").c_str(), &error), TINYEXR_SUCCESS) << error;
    const Image read = readImage(file("t.exr"));
    ASSERT_EQ(read.width, original.width);
    ASSERT_EQ(read.height, original.height);
    for (const Channel& c : original.channels)
        EXPECT_EQ(channel(read, c.name).values, c.values) << "channel " << c.name;
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

} // namespace
} // namespace fftb
