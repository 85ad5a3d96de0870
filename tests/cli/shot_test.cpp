// SPDX-License-Identifier: MIT
// A shot as renderers and compositors write it: every compression in half and float, tiled files, overscan and crops,
// a multi-part file with AOV layers and one with a deep part. Every frame but the deep one is bloomed, each exactly as
// the same texels in a plain float file are, and written back in its own layout with its other parts as they were.
#include "cli_fixture.h"

#include <Imath/half.h>
#include <OpenEXR/ImfChannelList.h>
#include <OpenEXR/ImfDeepFrameBuffer.h>
#include <OpenEXR/ImfDeepScanLineOutputPart.h>
#include <OpenEXR/ImfFrameBuffer.h>
#include <OpenEXR/ImfHeader.h>
#include <OpenEXR/ImfMultiPartOutputFile.h>
#include <OpenEXR/ImfOutputFile.h>
#include <OpenEXR/ImfOutputPart.h>
#include <OpenEXR/ImfPartType.h>
#include <OpenEXR/ImfStandardAttributes.h>
#include <OpenEXR/ImfStringAttribute.h>
#include <OpenEXR/ImfTiledOutputFile.h>
#include <OpenEXR/ImfTiledOutputPart.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <deque>
#include <sstream>
#include <tuple>

namespace fftb
{
namespace
{

constexpr int kWidth = 40;
constexpr int kHeight = 24;

const std::pair<Compression, const char*> kCompressions[] = {{Compression::None, "none"}, {Compression::Rle, "rle"},
                                                             {Compression::Zips, "zips"}, {Compression::Zip, "zip"},
                                                             {Compression::Piz, "piz"},   {Compression::Pxr24, "pxr24"},
                                                             {Compression::B44, "b44"},   {Compression::B44a, "b44a"},
                                                             {Compression::Dwaa, "dwaa"}, {Compression::Dwab, "dwab"}};

/// A frame of `width` x `height` texels at (minX, minY) in the display window (0, 0) - (39, 23): R, G, B, A and a Z
/// depth channel of `type`.
Image shotFrame(int minX, int minY, int width, int height, PixelType type, Compression compression)
{
    Image image = makeImage(width, height, {"A", "B", "G", "R", "Z"}, type);
    image.layout.dataWindow = {minX, minY, minX + width - 1, minY + height - 1};
    image.layout.displayWindow = {0, 0, kWidth - 1, kHeight - 1};
    image.layout.compression = compression;
    return image;
}

/// The image's channels as an OpenEXR frame buffer of their own types over `storage` (which must outlive it).
Imf::FrameBuffer frameBuffer(const Image& image, std::deque<std::vector<char>>& storage)
{
    const Box2i& w = image.layout.dataWindow;
    const Imath::Box2i window({w.minX, w.minY}, {w.maxX, w.maxY});
    Imf::FrameBuffer frame;
    for (const Channel& channel : image.channels)
    {
        const bool half = channel.type == PixelType::Half;
        const std::size_t size = half ? 2 : 4;
        std::vector<char>& bytes = storage.emplace_back(channel.values.size() * size);
        for (std::size_t i = 0; i < channel.values.size(); ++i)
        {
            if (half)
                reinterpret_cast<Imath::half*>(bytes.data())[i] = Imath::half(channel.values[i]);
            else
                reinterpret_cast<float*>(bytes.data())[i] = channel.values[i];
        }
        frame.insert(channel.name, Imf::Slice::Make(half ? Imf::HALF : Imf::FLOAT, bytes.data(), window, size,
                                                    size * std::size_t(image.width)));
    }
    return frame;
}

Imf::Header headerOf(const Image& image)
{
    const Box2i& d = image.layout.dataWindow;
    const Box2i& s = image.layout.displayWindow;
    Imf::Header header(Imath::Box2i({s.minX, s.minY}, {s.maxX, s.maxY}),
                       Imath::Box2i({d.minX, d.minY}, {d.maxX, d.maxY}));
    header.compression() = Imf::Compression(image.layout.compression);
    for (const Channel& channel : image.channels)
        header.channels().insert(channel.name, Imf::Channel(channel.type == PixelType::Half ? Imf::HALF : Imf::FLOAT));
    return header;
}

/// `image` as a single part whose multiView attribute lists `views`.
void writeViews(const std::string& path, const Image& image, const std::vector<std::string>& views)
{
    Imf::Header header = headerOf(image);
    Imf::addMultiView(header, views);
    Imf::OutputFile out(path.c_str(), header);
    std::deque<std::vector<char>> storage;
    out.setFrameBuffer(frameBuffer(image, storage));
    out.writePixels(image.height);
}

/// `images` as the scanline parts of a multi-part file, each named names[p] and of view views[p] (no view attribute
/// where that is ""), the first part's header listing `multiView` when that is not empty.
void writeViewParts(const std::string& path, const std::vector<const Image*>& images,
                    const std::vector<std::string>& names, const std::vector<std::string>& views,
                    const std::vector<std::string>& multiView = {})
{
    std::vector<Imf::Header> headers;
    for (std::size_t p = 0; p < images.size(); ++p)
    {
        Imf::Header& header = headers.emplace_back(headerOf(*images[p]));
        header.setType(Imf::SCANLINEIMAGE);
        header.setName(names[p]);
        if (!views[p].empty())
            header.insert("view", Imf::StringAttribute(views[p]));
    }
    if (!multiView.empty())
        Imf::addMultiView(headers.front(), multiView);
    Imf::MultiPartOutputFile out(path.c_str(), headers.data(), int(headers.size()));
    std::deque<std::vector<char>> storage;
    for (std::size_t p = 0; p < images.size(); ++p)
    {
        Imf::OutputPart part(out, int(p));
        part.setFrameBuffer(frameBuffer(*images[p], storage));
        part.writePixels(images[p]->height);
    }
}

/// `image` as a tiled file of 16 x 16 tiles with `levels` (a mipmap's smaller levels are written black).
void writeTiled(const std::string& path, const Image& image, Imf::LevelMode levels)
{
    Imf::Header header = headerOf(image);
    header.setTileDescription(Imf::TileDescription(16, 16, levels));
    Imf::TiledOutputFile out(path.c_str(), header);
    std::deque<std::vector<char>> storage;
    out.setFrameBuffer(frameBuffer(image, storage));
    out.writeTiles(0, out.numXTiles(0) - 1, 0, out.numYTiles(0) - 1, 0);
    for (int level = 1; level < out.numLevels(); ++level)
    {
        const Imath::Box2i w = out.dataWindowForLevel(level);
        // Zeros in the full level's channels (makeImage's bright texel would lie outside a level a texel high).
        Image black{w.max.x - w.min.x + 1, w.max.y - w.min.y + 1, {}};
        for (const Channel& channel : image.channels)
            black.channels.push_back(
                {channel.name, channel.type, std::vector<float>(std::size_t(black.width) * std::size_t(black.height))});
        black.layout.dataWindow = {w.min.x, w.min.y, w.max.x, w.max.y};
        out.setFrameBuffer(frameBuffer(black, storage));
        out.writeTiles(0, out.numXTiles(level) - 1, 0, out.numYTiles(level) - 1, level);
    }
}

/// A render's multi-part frame: "depth" (tiled, ZIP: float Z and a UINT id), "beauty" (scanline, DWAA, overscan:
/// half R, G, B, A and the diffuse layer) and, with `deep`, a deep part that makes the file unreadable.
void writeMultiPart(const std::string& path, bool deep)
{
    Image depth = shotFrame(0, 0, kWidth, kHeight, PixelType::Float, Compression::Zip);
    depth.channels = {depth.channels[4]};
    Image beauty = shotFrame(-4, -2, kWidth + 8, kHeight + 4, PixelType::Half, Compression::Dwaa);
    beauty.channels.pop_back();
    for (const char* c : {"B", "G", "R"})
        beauty.channels.push_back({std::string("diffuse.") + c, PixelType::Half, channel(beauty, c).values});
    for (float& v : beauty.channels.back().values)
        v *= 0.5f; // diffuse.R differs from R
    std::vector<Imf::Header> headers = {headerOf(depth), headerOf(beauty)};
    headers[0].channels().insert("id", Imf::Channel(Imf::UINT));
    headers[0].setTileDescription(Imf::TileDescription(16, 16, Imf::ONE_LEVEL));
    headers[0].setType(Imf::TILEDIMAGE);
    headers[0].setName("depth");
    headers[1].setType(Imf::SCANLINEIMAGE);
    headers[1].setName("beauty");
    if (deep)
    {
        headers.push_back(headerOf(depth)); // one Z sample a texel
        headers[2].setType(Imf::DEEPSCANLINE);
        headers[2].setName("deep");
        headers[2].compression() = Imf::ZIPS_COMPRESSION;
    }
    Imf::MultiPartOutputFile out(path.c_str(), headers.data(), int(headers.size()));
    std::deque<std::vector<char>> storage;
    Imf::FrameBuffer depthFrame = frameBuffer(depth, storage);
    std::vector<std::uint32_t> ids(std::size_t(kWidth * kHeight), 7u);
    depthFrame.insert("id", Imf::Slice(Imf::UINT, reinterpret_cast<char*>(ids.data()), 4, 4 * kWidth));
    Imf::TiledOutputPart tiles(out, 0);
    tiles.setFrameBuffer(depthFrame);
    tiles.writeTiles(0, tiles.numXTiles() - 1, 0, tiles.numYTiles() - 1);
    Imf::OutputPart lines(out, 1);
    lines.setFrameBuffer(frameBuffer(beauty, storage));
    lines.writePixels(beauty.height);
    if (deep)
    {
        std::vector<unsigned> counts(std::size_t(kWidth * kHeight), 1u);
        std::vector<float*> samples;
        for (float& z : depth.channels[0].values)
            samples.push_back(&z);
        Imf::DeepFrameBuffer frame;
        frame.insertSampleCountSlice(Imf::Slice(Imf::UINT, reinterpret_cast<char*>(counts.data()), 4, 4 * kWidth));
        frame.insert("Z", Imf::DeepSlice(Imf::FLOAT, reinterpret_cast<char*>(samples.data()), sizeof(float*),
                                         sizeof(float*) * kWidth, sizeof(float)));
        Imf::DeepScanLineOutputPart part(out, 2);
        part.setFrameBuffer(frame);
        part.writePixels(kHeight);
    }
}

/// The image's layer as a plain single-part float file without compression: R, G, B (and A when the layer has it),
/// the same windows.
Image plainFloat(const Image& image)
{
    const Texels rgba = toRgba(image);
    Image plain{image.width, image.height, {}};
    plain.layout.dataWindow = image.layout.dataWindow;
    plain.layout.displayWindow = image.layout.displayWindow;
    plain.layout.compression = Compression::None;
    const bool alpha = image.find(image.colourChannel("A")) >= 0;
    for (int c = 0; c < (alpha ? 4 : 3); ++c)
    {
        Channel& out = plain.channels.emplace_back(Channel{std::string(1, "RGBA"[c]), PixelType::Float, {}});
        for (std::size_t i = 0; i < std::size_t(image.width * image.height); ++i)
            out.values.push_back(rgba.values[i * 4 + std::size_t(c)]);
    }
    return plain;
}

class ShotTest : public CliTest
{
  protected:
    /// Checks fftbloom's output `output` of `input` (its part and layer `selection`) against the bloom of the same
    /// texels in a plain float file, `plainOutput`: the output must be the input file with its layer's R, G, B
    /// replaced by that bloom, written as writeExr writes it (its compression, pixel types, windows, other channels
    /// and other parts).
    void expectBloomedAsPlain(const fs::path& input, const fs::path& output, const fs::path& plainOutput,
                              const ImageSelection& selection = {}) const
    {
        SCOPED_TRACE(input.filename().string() + " " + selection.part + " " + selection.layer);
        const Image in = readImage(input.string(), selection);
        writeExr(file("expected.exr").string(), withRgb(in, toRgba(readImage(plainOutput.string()))));
        const Image expected = readImage(file("expected.exr").string(), selection);
        const Image out = readImage(output.string(), selection);
        EXPECT_EQ(out.parts.part, in.parts.part);
        EXPECT_EQ(out.layout.compression, in.layout.compression);
        for (const auto& [a, b] : {std::pair(out.layout.dataWindow, in.layout.dataWindow),
                                   std::pair(out.layout.displayWindow, in.layout.displayWindow)})
            EXPECT_TRUE(a.minX == b.minX && a.minY == b.minY && a.maxX == b.maxX && a.maxY == b.maxY);
        ASSERT_EQ(out.channels.size(), expected.channels.size());
        for (std::size_t c = 0; c < out.channels.size(); ++c)
        {
            EXPECT_EQ(out.channels[c].name, expected.channels[c].name);
            EXPECT_EQ(out.channels[c].type, in.channels[c].type) << out.channels[c].name;
            EXPECT_TRUE(out.channels[c].values == expected.channels[c].values) << out.channels[c].name;
        }
        const float inR = channel(in, in.colourChannel("R")).values[std::size_t(in.width) + 3];
        EXPECT_NE(channel(out, in.colourChannel("R")).values[std::size_t(in.width) + 3], inR) << "nothing bloomed";
        fs::remove(file("expected.exr"));
    }

    /// Two views of R, G, B (half), the right one brighter, and the bloom of each alone (kStereoSettings).
    struct Stereo
    {
        Image left, right;
        Texels leftBloom, rightBloom;
    };
    static constexpr const char* kStereoSettings = " --kernel-size 8";
    Stereo stereo() const
    {
        Stereo s;
        s.left = shotFrame(0, 0, kWidth, kHeight, PixelType::Half, Compression::Zip);
        s.left.channels = {s.left.channels[1], s.left.channels[2], s.left.channels[3]}; // B, G, R of A, B, G, R, Z
        s.right = s.left;
        for (Channel& c : s.right.channels)
            for (float& v : c.values)
                v = 2.0f * v + 0.25f;
        for (const auto& [name, image, bloom] :
             {std::tuple{"left", &s.left, &s.leftBloom}, std::tuple{"right", &s.right, &s.rightBloom}})
        {
            writeExr(file(std::string(name) + ".exr").string(), *image);
            const CliResult alone = run(quote(file(std::string(name) + ".exr")) + " -o " +
                                        quote(file(std::string(name) + "_bloom.exr")) + kStereoSettings);
            EXPECT_EQ(alone.code, 0) << alone.err;
            *bloom = toRgba(readImage(file(std::string(name) + "_bloom.exr").string()));
        }
        return s;
    }

    /// Expects view `view` of the file at `path` to hold the texels `expected`.
    static void expectView(const std::string& path, const std::string& view, const Texels& expected)
    {
        ImageSelection selection;
        selection.view = view;
        const Texels got = toRgba(readImage(path, selection));
        ASSERT_EQ(got.values.size(), expected.values.size()) << path << " " << view;
        for (std::size_t i = 0; i < got.values.size(); ++i)
            ASSERT_EQ(got.values[i], expected.values[i]) << path << " view " << view << " value " << i;
    }
};

TEST_F(ShotTest, EveryCodecTiledMultiPartOverscanAndCropBloomsAndOnlyDeepPartsAreRefused)
{
    fs::create_directories(file("shot"));
    fs::create_directories(file("plain"));
    fs::create_directories(file("out"));
    fs::create_directories(file("plain_out"));
    std::vector<std::string> names;
    for (const auto& [compression, codec] : kCompressions)
        for (const PixelType type : {PixelType::Half, PixelType::Float})
        {
            names.push_back(std::string(codec) + (type == PixelType::Half ? "_half.exr" : "_float.exr"));
            writeExr(file("shot/" + names.back()).string(), shotFrame(0, 0, kWidth, kHeight, type, compression));
        }
    names.insert(names.end(), {"overscan.exr", "crop.exr", "tiled_mipmap.exr", "tiled_float.exr", "parts.exr"});
    writeExr(file("shot/overscan.exr").string(),
             shotFrame(-6, -4, kWidth + 12, kHeight + 8, PixelType::Half, Compression::Piz));
    writeExr(file("shot/crop.exr").string(), shotFrame(9, 5, 17, 11, PixelType::Half, Compression::Dwab));
    writeTiled(file("shot/tiled_mipmap.exr").string(),
               shotFrame(0, 0, kWidth, kHeight, PixelType::Half, Compression::Zip), Imf::MIPMAP_LEVELS);
    writeTiled(file("shot/tiled_float.exr").string(), shotFrame(3, 2, 30, 19, PixelType::Float, Compression::Piz),
               Imf::ONE_LEVEL);
    writeMultiPart(file("shot/parts.exr").string(), false);
    writeMultiPart(file("shot/deep_parts.exr").string(), true);

    // The same texels in plain float files: what each frame must bloom as.
    std::string list, plainList;
    for (const std::string& name : names)
    {
        writeExr(file("plain/" + name).string(), plainFloat(readImage(file("shot/" + name).string())));
        list += file("shot/" + name).string() + "\n";
        plainList += file("plain/" + name).string() + "\n";
    }
    writeExr(file("plain/parts_diffuse.exr").string(),
             plainFloat(readImage(file("shot/parts.exr").string(), {"beauty", "diffuse"})));
    plainList += file("plain/parts_diffuse.exr").string() + "\n";
    writeBytes(file("shot.txt"), list + file("shot/deep_parts.exr").string() + "\n");
    writeBytes(file("plain.txt"), plainList);

    const std::string settings = " --kernel-size 8 --threshold 1 --intensity 0.5";
    const CliResult shot = run("--list " + quote(file("shot.txt")) + " --out-dir " + quote(file("out")) + settings);
    EXPECT_EQ(shot.code, 1) << shot.err; // the deep file fails alone
    EXPECT_EQ(std::count(shot.err.begin(), shot.err.end(), '\n'), 1) << shot.err;
    EXPECT_NE(shot.err.find("deep_parts.exr: part 2 (deep) holds deep data (deepscanline)"), std::string::npos)
        << shot.err;
    const CliResult plain =
        run("--list " + quote(file("plain.txt")) + " --out-dir " + quote(file("plain_out")) + settings);
    ASSERT_EQ(plain.code, 0) << plain.err;
    for (const std::string& name : names)
        expectBloomedAsPlain(file("shot/" + name), file("out/" + name), file("plain_out/" + name));
    EXPECT_FALSE(fs::exists(file("out/deep_parts.exr")));

    // An AOV layer of a named part: diffuse.R, diffuse.G, diffuse.B bloom; R, G, B are kept (re-encoded: DWAA) and
    // the other part copied.
    const CliResult layer = run(quote(file("shot/parts.exr")) + " -o " + quote(file("diffuse.exr")) +
                                " --part beauty --layer diffuse" + settings);
    ASSERT_EQ(layer.code, 0) << layer.err;
    expectBloomedAsPlain(file("shot/parts.exr"), file("diffuse.exr"), file("plain_out/parts_diffuse.exr"),
                         {"beauty", "diffuse"});
    const CliResult missing =
        run(quote(file("shot/parts.exr")) + " -o " + quote(file("none.exr")) + " --layer specular" + settings);
    EXPECT_EQ(missing.code, 1);
    EXPECT_NE(missing.err.find("parts.exr: no specular.R, specular.G, specular.B channels in any of its 2 parts"),
              std::string::npos)
        << missing.err;
    EXPECT_FALSE(fs::exists(file("none.exr")));
}

// Stereo as renderers write it: a multi-part file with a part per view (and a depth part of the left one), and a
// single part listing its views (multiView: R, G, B the left view's, right.R, right.G, right.B the right one's). Every
// view is bloomed, each exactly as the same texels alone are; --view blooms one; a view without colour is refused.
TEST_F(ShotTest, EveryViewOfAStereoFileIsBloomedAsItsOwnImage)
{
    const Stereo views = stereo();
    const Image& left = views.left;
    const Image& right = views.right;
    const Texels& leftBloom = views.leftBloom;
    const Texels& rightBloom = views.rightBloom;
    const std::string settings = kStereoSettings;

    // A part per view, the depth part a view's too.
    Image depth = shotFrame(0, 0, kWidth, kHeight, PixelType::Float, Compression::Zip);
    depth.channels = {depth.channels[4]};
    writeViewParts(file("parts.exr").string(), {&left, &depth, &right}, {"beauty.left", "depth.left", "beauty.right"},
                   {"left", "left", "right"});
    CliResult r = run(quote(file("parts.exr")) + " -o " + quote(file("parts_bloom.exr")) + settings);
    ASSERT_EQ(r.code, 0) << r.err;
    expectView(file("parts_bloom.exr").string(), "left", leftBloom);
    expectView(file("parts_bloom.exr").string(), "right", rightBloom);

    // One part, its views listed.
    Image both = left;
    for (const Channel& c : right.channels)
        both.channels.push_back({"right." + c.name, c.type, c.values});
    writeViews(file("views.exr").string(), both, {"left", "right"});
    r = run(quote(file("views.exr")) + " -o " + quote(file("views_bloom.exr")) + settings + " --report " +
            quote(file("views.json")));
    ASSERT_EQ(r.code, 0) << r.err;
    expectView(file("views_bloom.exr").string(), "left", leftBloom);
    expectView(file("views_bloom.exr").string(), "right", rightBloom);
    // The report names the views bloomed.
    const auto viewsReported = [&](const fs::path& report)
    {
        std::istringstream lines(readBytes(report));
        for (std::string line; std::getline(lines, line);)
            if (const nlohmann::json entry = nlohmann::json::parse(line); entry["type"] == "frame")
                return entry.value("views", nlohmann::json::array());
        return nlohmann::json();
    };
    EXPECT_EQ(viewsReported(file("views.json")), nlohmann::json({"left", "right"}));

    // Previews: the views side by side, or a PNG each named by {view} (%V).
    const auto pngWidth = [&](const fs::path& png)
    {
        const std::string bytes = readBytes(png);
        return bytes.size() < 24 ? 0
                                 : (int(uint8_t(bytes[18])) << 8 | int(uint8_t(bytes[19]))); // IHDR width, big-endian
    };
    r = run(quote(file("views.exr")) + " -o " + quote(file("previewed.exr")) + " --preview " + quote(file("both.png")) +
            settings);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(pngWidth(file("both.png")), 2 * kWidth) << "left and right side by side";
    r = run(quote(file("views.exr")) + " --output-pattern " + quote(file("{stem}_p.exr")) + " --preview-pattern " +
            quote(file("{stem}.{view}.png")) + settings);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(pngWidth(file("views.left.png")), kWidth);
    EXPECT_EQ(pngWidth(file("views.right.png")), kWidth);

    // --view right: the left view as it was.
    r = run(quote(file("views.exr")) + " -o " + quote(file("right_only.exr")) + " --view right" + settings +
            " --report " + quote(file("right.json")));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(viewsReported(file("right.json")), nlohmann::json({"right"}));
    expectView(file("right_only.exr").string(), "right", rightBloom);
    expectView(file("right_only.exr").string(), "left", toRgba(readImage(file("left.exr").string())));

    // A view listed without its colour: refused, naming it.
    writeViews(file("three.exr").string(), both, {"left", "right", "centre"});
    r = run(quote(file("three.exr")) + " -o " + quote(file("three_bloom.exr")) + settings);
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(
        r.err.find("not every view has the colour: centre (centre.R, centre.G, centre.B); --view NAME blooms one"),
        std::string::npos)
        << r.err;
}

// Every view of a multi-view file is bloomed exactly once: a part without a view attribute is the default view (the
// first of multiView), the other views' parts are bloomed beside it; a multiView listing a view twice, or an empty
// view name, is refused naming the file and the view (a view bloomed twice, or left unbloomed, would exit 0).
TEST_F(ShotTest, EveryViewIsBloomedOnceAndAListingThatWouldBloomOneTwiceIsRefused)
{
    const Stereo views = stereo();
    writeViewParts(file("parts.exr").string(), {&views.left, &views.right}, {"beauty", "beauty.right"}, {"", "right"},
                   {"left", "right"});
    CliResult r = run(quote(file("parts.exr")) + " -o " + quote(file("parts_bloom.exr")) + kStereoSettings);
    ASSERT_EQ(r.code, 0) << r.err;
    expectView(file("parts_bloom.exr").string(), "left", views.leftBloom);
    expectView(file("parts_bloom.exr").string(), "right", views.rightBloom);

    Image both = views.left;
    for (const Channel& c : views.right.channels)
        both.channels.push_back({"right." + c.name, c.type, c.values});
    for (const auto& [name, listing, reason] :
         {std::tuple{"twice.exr", std::vector<std::string>{"left", "right", "right"}, "lists view right twice"},
          std::tuple{"empty.exr", std::vector<std::string>{"left", ""}, "lists a view without a name"}})
    {
        writeViews(file(name).string(), both, listing);
        r = run(quote(file(name)) + " -o " + quote(file("out.exr")) + kStereoSettings);
        EXPECT_EQ(r.code, 1) << name;
        EXPECT_NE(r.err.find(file(name).string() + ": multiView " + reason), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(file("out.exr")));
    }
}

} // namespace
} // namespace fftb
