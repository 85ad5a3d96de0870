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

/// Values spread over six decades with both signs, fixed seed, distinct per channel.
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
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

/// Runs `action`, which must throw a HostError naming `path` and containing `reason`.
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

TEST_F(ImageIoTest, FloatRoundTripIsExact)
{
    const Image original = makeImage(37, 23, {"B", "G", "R"}, PixelType::Float);
    writeExr(file("f.exr"), original);
    const Image read = readImage(file("f.exr"));
    ASSERT_EQ(read.width, 37);
    ASSERT_EQ(read.height, 23);
    ASSERT_EQ(read.channels.size(), 3u);
    for (std::size_t c = 0; c < 3; ++c)
    {
        EXPECT_EQ(read.channels[c].name, original.channels[c].name);
        EXPECT_EQ(read.channels[c].type, PixelType::Float);
        EXPECT_EQ(read.channels[c].values, original.channels[c].values) << "channel " << original.channels[c].name;
    }
}

TEST_F(ImageIoTest, HalfRoundTripIsWithinHalfPrecision)
{
    Image original = makeImage(40, 30, {"B", "G", "R"}, PixelType::Half);
    original.channels[0].values[0] = 2048.0f; // exactly representable values must survive unchanged
    original.channels[0].values[1] = -0.5f;
    writeExr(file("h.exr"), original);
    const Image read = readImage(file("h.exr"));
    ASSERT_EQ(read.channels.size(), 3u);
    EXPECT_EQ(read.channels[0].values[0], 2048.0f);
    EXPECT_EQ(read.channels[0].values[1], -0.5f);
    for (std::size_t c = 0; c < 3; ++c)
    {
        EXPECT_EQ(read.channels[c].type, PixelType::Half);
        double worst = 0.0;
        for (std::size_t i = 0; i < original.channels[c].values.size(); ++i)
        {
            const double a = original.channels[c].values[i];
            worst = std::max(worst, std::abs(read.channels[c].values[i] - a) / std::abs(a));
        }
        // Round to nearest with an 11-bit significand: at most half a unit in the last place.
        EXPECT_LE(worst, std::ldexp(1.0, -11)) << "channel " << original.channels[c].name;
    }
}

TEST_F(ImageIoTest, OverrideSetsEveryChannelsStoredType)
{
    const Image original = makeImage(8, 8, {"A", "B", "G", "R"}, PixelType::Float);
    writeExr(file("o.exr"), original, PixelType::Half);
    for (const Channel& c : readImage(file("o.exr")).channels)
        EXPECT_EQ(c.type, PixelType::Half) << "channel " << c.name;
}

TEST_F(ImageIoTest, ExtraChannelsAndAlphaPassThroughInOrder)
{
    Image original = makeImage(16, 9, {"A", "B", "G", "R", "Z", "diffuse.R"}, PixelType::Half);
    original.channels[std::size_t(original.find("Z"))].type = PixelType::Float;
    writeExr(file("x.exr"), original);
    const Image read = readImage(file("x.exr"));
    ASSERT_EQ(read.channels.size(), original.channels.size());
    for (std::size_t c = 0; c < read.channels.size(); ++c)
    {
        EXPECT_EQ(read.channels[c].name, original.channels[c].name);
        EXPECT_EQ(read.channels[c].type, original.channels[c].type) << "channel " << read.channels[c].name;
    }
    EXPECT_EQ(channel(read, "Z").values, channel(original, "Z").values);
}

TEST_F(ImageIoTest, ChannelsAreStoredSortedWithTheirOwnValues)
{
    // OpenEXR readers require the channel list sorted by name; the data must move with the names.
    Image original{2, 2, {}};
    const std::vector<std::pair<std::string, float>> given = {{"R", 1.0f}, {"G", 2.0f}, {"B", 3.0f}, {"A", 4.0f}};
    for (const auto& [name, value] : given)
        original.channels.push_back({name, PixelType::Float, std::vector<float>(4, value)});
    writeExr(file("s.exr"), original);
    const Image read = readImage(file("s.exr"));
    std::vector<std::string> names;
    for (const Channel& c : read.channels)
        names.push_back(c.name);
    EXPECT_EQ(names, (std::vector<std::string>{"A", "B", "G", "R"}));
    for (const auto& [name, value] : given)
        EXPECT_EQ(channel(read, name).values, std::vector<float>(4, value)) << "channel " << name;
}

TEST_F(ImageIoTest, ReadsTiledExr)
{
    // Edge tiles are clipped (37 x 23 in 16 x 16 tiles), which is where tile copies go wrong.
    const Image original = makeImage(37, 23, {"B", "G", "R"}, PixelType::Float);
    const int tileSize = 16;
    const int tilesX = (original.width + tileSize - 1) / tileSize;
    const int tilesY = (original.height + tileSize - 1) / tileSize;
    std::vector<std::vector<float>> planes;
    std::vector<std::vector<unsigned char*>> pointers(std::size_t(tilesX * tilesY));
    std::vector<EXRTile> tiles(std::size_t(tilesX * tilesY));
    planes.reserve(tiles.size() * 3);
    for (int t = 0; t < tilesX * tilesY; ++t)
    {
        EXRTile& tile = tiles[std::size_t(t)];
        tile.offset_x = t % tilesX;
        tile.offset_y = t / tilesX;
        tile.width = std::min(tileSize, original.width - tile.offset_x * tileSize);
        tile.height = std::min(tileSize, original.height - tile.offset_y * tileSize);
        for (const Channel& c : original.channels)
        {
            std::vector<float>& plane = planes.emplace_back(std::size_t(tileSize * tileSize), 0.0f);
            for (int y = 0; y < tile.height; ++y)
                for (int x = 0; x < tile.width; ++x)
                    plane[std::size_t(y * tileSize + x)] = c.values[std::size_t(
                        (tile.offset_y * tileSize + y) * original.width + tile.offset_x * tileSize + x)];
            pointers[std::size_t(t)].push_back(reinterpret_cast<unsigned char*>(plane.data()));
        }
        tile.images = pointers[std::size_t(t)].data();
    }
    std::vector<EXRChannelInfo> infos(3);
    std::vector<int> types(3, TINYEXR_PIXELTYPE_FLOAT);
    for (std::size_t c = 0; c < 3; ++c)
        std::snprintf(infos[c].name, sizeof infos[c].name, "%s", original.channels[c].name.c_str());
    EXRHeader header;
    InitEXRHeader(&header);
    header.num_channels = 3;
    header.channels = infos.data();
    header.pixel_types = types.data();
    header.requested_pixel_types = types.data();
    header.compression_type = TINYEXR_COMPRESSIONTYPE_ZIP;
    header.tiled = 1;
    header.tile_size_x = tileSize;
    header.tile_size_y = tileSize;
    header.tile_level_mode = TINYEXR_TILE_ONE_LEVEL;
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
    for (std::size_t i = 0; i < 7 * 5; ++i)
        for (std::size_t c = 0; c < 3; ++c)
            rgb[i * 3 + c] = std::abs(original.channels[c].values[i]); // RGBE has no sign
    ASSERT_TRUE(stbi_write_hdr(file("a.hdr").c_str(), 7, 5, 3, rgb.data()));

    // Both signatures of the format; stb writes the first.
    std::vector<char> bytes = readBytes(file("a.hdr"));
    const std::string radiance = "#?RADIANCE\n";
    ASSERT_TRUE(std::equal(radiance.begin(), radiance.end(), bytes.begin()));
    bytes.erase(bytes.begin(), bytes.begin() + long(radiance.size()));
    const std::string rgbe = "#?RGBE\n";
    bytes.insert(bytes.begin(), rgbe.begin(), rgbe.end());
    writeBytes(file("b.hdr"), bytes);

    for (const char* name : {"a.hdr", "b.hdr"})
    {
        const Image read = readImage(file(name));
        ASSERT_EQ(read.width, 7);
        ASSERT_EQ(read.height, 5);
        ASSERT_EQ(read.channels.size(), 3u);
        for (std::size_t i = 0; i < 7 * 5; ++i)
        {
            // The three components share one exponent and keep 8 mantissa bits relative to the largest.
            const float largest = std::max({rgb[i * 3], rgb[i * 3 + 1], rgb[i * 3 + 2]});
            for (std::size_t c = 0; c < 3; ++c)
            {
                EXPECT_EQ(read.channels[c].name, std::string(1, "RGB"[c]));
                EXPECT_EQ(read.channels[c].type, PixelType::Float);
                EXPECT_NEAR(read.channels[c].values[i], rgb[i * 3 + c], largest * std::ldexp(1.0f, -7))
                    << name << " texel " << i << " component " << c;
            }
        }
    }
}

TEST_F(ImageIoTest, MissingFile)
{
    const std::string path = file("absent.exr");
    expectError([&] { readImage(path); }, path, "no such file");
}

TEST_F(ImageIoTest, FilesThatAreNotImages)
{
    writeBytes(file("text.exr"), {'h', 'e', 'l', 'l', 'o'});
    expectError([&] { readImage(file("text.exr")); }, file("text.exr"), "not an OpenEXR or Radiance .hdr image");
    writeBytes(file("empty.exr"), {});
    expectError([&] { readImage(file("empty.exr")); }, file("empty.exr"), "not an OpenEXR or Radiance .hdr image");
    writePngPreview(file("preview.hdr"), makeImage(4, 4, {"R", "G", "B"}, PixelType::Half));
    expectError([&] { readImage(file("preview.hdr")); }, file("preview.hdr"), "not an OpenEXR or Radiance .hdr image");
}

TEST_F(ImageIoTest, TruncatedExr)
{
    writeExr(file("whole.exr"), makeImage(64, 48, {"B", "G", "R"}, PixelType::Half));
    const std::vector<char> whole = readBytes(file("whole.exr"));
    for (const std::size_t size : {std::size_t(4), std::size_t(8), std::size_t(60), whole.size() / 2, whole.size() - 1})
    {
        SCOPED_TRACE("truncated to " + std::to_string(size) + " of " + std::to_string(whole.size()) + " bytes");
        writeBytes(file("cut.exr"), std::vector<char>(whole.begin(), whole.begin() + long(size)));
        expectError([&] { readImage(file("cut.exr")); }, file("cut.exr"), "corrupt or truncated OpenEXR (");
    }
}

TEST_F(ImageIoTest, UnsupportedCompressionIsNamed)
{
    writeExr(file("zip.exr"), makeImage(8, 8, {"B", "G", "R"}, PixelType::Half));
    const std::vector<char> zip = readBytes(file("zip.exr"));
    const std::string attribute("compression\0compression\0", 24);
    const auto at = std::search(zip.begin(), zip.end(), attribute.begin(), attribute.end());
    ASSERT_NE(at, zip.end());
    const std::size_t valueAt = std::size_t(at - zip.begin()) + attribute.size() + 4; // after the int32 size
    ASSERT_EQ(zip[valueAt], TINYEXR_COMPRESSIONTYPE_ZIP);

    const std::pair<char, const char*> codes[] = {{5, "PXR24"}, {6, "B44"}, {7, "B44A"}, {8, "DWAA"}, {9, "DWAB"}};
    for (const auto& [code, name] : codes)
    {
        std::vector<char> patched = zip;
        patched[valueAt] = code;
        writeBytes(file("in.exr"), patched);
        expectError([&] { readImage(file("in.exr")); }, file("in.exr"), std::string("unsupported compression ") + name);
    }
}

TEST_F(ImageIoTest, ExrWithoutRgbIsRefused)
{
    writeExr(file("depth.exr"), makeImage(8, 8, {"A", "Z"}, PixelType::Float));
    expectError([&] { readImage(file("depth.exr")); }, file("depth.exr"), "no R, G, B channels");
    writeExr(file("rg.exr"), makeImage(8, 8, {"G", "R"}, PixelType::Float));
    expectError([&] { readImage(file("rg.exr")); }, file("rg.exr"), "no R, G, B channels");
}

TEST_F(ImageIoTest, WriteIntoMissingFolderThrowsAndLeavesNothing)
{
    const Image image = makeImage(4, 4, {"B", "G", "R"}, PixelType::Half);
    const std::string exr = file("missing/out.exr");
    const std::string png = file("missing/out.png");
    expectError([&] { writeExr(exr, image); }, exr, "no such folder");
    expectError([&] { writePngPreview(png, image); }, png, "no such folder");
    EXPECT_TRUE(listing().empty());
}

TEST_F(ImageIoTest, WritesLeaveNoTemporaryFiles)
{
    const Image image = makeImage(4, 4, {"B", "G", "R"}, PixelType::Half);
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
    expectError([&] { writeExr(file("ragged.exr"), ragged); }, file("ragged.exr"),
                "channel G has 15 values, expected 16");
    expectError([&] { writePngPreview(file("depth.png"), makeImage(4, 4, {"Z"}, PixelType::Float)); },
                file("depth.png"), "no R, G, B channels");
    EXPECT_EQ(listing(), (std::set<std::string>{"folder.exr", "out.exr", "out.png"}));
}

TEST_F(ImageIoTest, PngPreviewTonemap)
{
    const float values[] = {0.0f, 1.0f, 0.25f, 3.0f, 1e30f, -2.0f, std::nanf(""), INFINITY};
    const int width = int(std::size(values));
    Image image{width, 1, {{"B", PixelType::Half, {}}, {"G", PixelType::Half, {}}, {"R", PixelType::Half, {}}}};
    for (int x = 0; x < width; ++x)
    {
        image.channels[2].values.push_back(values[x]);             // R
        image.channels[1].values.push_back(values[x] * 0.5f);      // G
        image.channels[0].values.push_back(values[width - 1 - x]); // B
    }
    for (const float exposure : {0.0f, 1.0f, -2.0f})
    {
        SCOPED_TRACE("exposure " + std::to_string(exposure));
        writePngPreview(file("p.png"), image, exposure);
        int w = 0, h = 0, n = 0;
        unsigned char* pixels = stbi_load(file("p.png").c_str(), &w, &h, &n, 3);
        ASSERT_NE(pixels, nullptr);
        ASSERT_EQ(w, width);
        ASSERT_EQ(h, 1);
        for (int x = 0; x < width; ++x)
        {
            const float rgb[] = {image.channels[2].values[x], image.channels[1].values[x], image.channels[0].values[x]};
            for (int c = 0; c < 3; ++c)
            {
                double v = double(rgb[c]) * std::exp2(double(exposure));
                v = std::isnan(v) || v <= 0.0 ? 0.0 : std::isinf(v) ? 1.0 : v / (1.0 + v);
                v = v <= 0.0031308 ? 12.92 * v : 1.055 * std::pow(v, 1.0 / 2.4) - 0.055;
                EXPECT_NEAR(pixels[x * 3 + c], v * 255.0, 0.5 + 1e-3) << "texel " << x << " component " << c;
            }
        }
        stbi_image_free(pixels);
    }
}

TEST_F(ImageIoTest, ToRgbaAndWithRgb)
{
    Image image = makeImage(5, 3, {"B", "G", "R", "Z"}, PixelType::Half);
    Texels rgba = toRgba(image);
    ASSERT_EQ(rgba.components, 4);
    EXPECT_EQ(rgba.at(4, 2, 0), channel(image, "R").values[14]);
    EXPECT_EQ(rgba.at(4, 2, 2), channel(image, "B").values[14]);
    EXPECT_EQ(rgba.at(1, 0, 3), 1.0f); // no alpha channel

    image.channels.push_back({"A", PixelType::Half, std::vector<float>(15, 0.25f)});
    rgba = toRgba(image);
    EXPECT_EQ(rgba.at(1, 0, 3), 0.25f);

    for (float& v : rgba.values)
        v = -v;
    const Image replaced = withRgb(image, rgba);
    ASSERT_EQ(replaced.channels.size(), image.channels.size());
    for (std::size_t c = 0; c < image.channels.size(); ++c)
    {
        const Channel& before = image.channels[c];
        const Channel& after = replaced.channels[c];
        EXPECT_EQ(after.name, before.name);
        EXPECT_EQ(after.type, before.type);
        const bool colour = before.name == "R" || before.name == "G" || before.name == "B";
        for (std::size_t i = 0; i < before.values.size(); ++i)
            EXPECT_EQ(after.values[i], colour ? -before.values[i] : before.values[i]) << before.name << " " << i;
    }
    EXPECT_THROW(withRgb(image, Texels(4, 3, 4)), HostError);
    EXPECT_THROW(toRgba(makeImage(2, 2, {"Y"}, PixelType::Half)), HostError);
}

} // namespace
} // namespace fftb
