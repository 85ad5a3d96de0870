// SPDX-License-Identifier: MIT
// Multi-part OpenEXR files: which part and layer is read, the other parts copied bit for bit when it is written, and
// deep parts refused by name.
#include "image_test_fixture.h"

#include <Imath/half.h>
#include <OpenEXR/ImfChannelList.h>
#include <OpenEXR/ImfDeepFrameBuffer.h>
#include <OpenEXR/ImfDeepScanLineOutputFile.h>
#include <OpenEXR/ImfDeepScanLineOutputPart.h>
#include <OpenEXR/ImfFrameBuffer.h>
#include <OpenEXR/ImfHeader.h>
#include <OpenEXR/ImfInputPart.h>
#include <OpenEXR/ImfMultiPartInputFile.h>
#include <OpenEXR/ImfMultiPartOutputFile.h>
#include <OpenEXR/ImfOutputPart.h>
#include <OpenEXR/ImfPartType.h>
#include <OpenEXR/ImfStringAttribute.h>
#include <OpenEXR/ImfTiledInputPart.h>
#include <OpenEXR/ImfTiledOutputPart.h>

#include <algorithm>
#include <cstdint>
#include <deque>

namespace fftb
{
namespace
{

// Channel `channel`'s value at texel `texel` of a part: distinct per channel and texel, exact in half.
float texelValue(int channel, std::size_t texel)
{
    return float(channel * 16) + float(texel % 61) * 0.25f;
}

// Pixels for every channel of `header`, in order (texelValue; a UINT channel holds 7 texel + 1), as a frame buffer
// over `storage`.
Imf::FrameBuffer partPixels(const Imf::Header& header, std::deque<std::vector<char>>& storage)
{
    const Imath::Box2i& data = header.dataWindow();
    const std::size_t width = std::size_t(data.max.x - data.min.x + 1), texels = width * (data.max.y - data.min.y + 1);
    Imf::FrameBuffer frame;
    int index = 0;
    for (auto c = header.channels().begin(); c != header.channels().end(); ++c, ++index)
    {
        const Imf::PixelType type = c.channel().type;
        const std::size_t size = type == Imf::HALF ? 2 : 4;
        std::vector<char>& bytes = storage.emplace_back(texels * size);
        for (std::size_t i = 0; i < texels; ++i)
        {
            if (type == Imf::UINT)
                reinterpret_cast<std::uint32_t*>(bytes.data())[i] = std::uint32_t(7 * i + 1);
            else if (type == Imf::HALF)
                reinterpret_cast<Imath::half*>(bytes.data())[i] = Imath::half(texelValue(index, i));
            else
                reinterpret_cast<float*>(bytes.data())[i] = texelValue(index, i);
        }
        frame.insert(c.name(), Imf::Slice::Make(type, bytes.data(), data, size, size * width));
    }
    return frame;
}

Imf::Header partHeader(const std::string& name, const std::string& type, Imf::Compression compression,
                       const Imath::Box2i& data, const std::vector<std::pair<std::string, Imf::PixelType>>& channels)
{
    Imf::Header header(Imath::Box2i({0, 0}, {15, 11}), data);
    header.setName(name);
    header.setType(type);
    header.compression() = compression;
    for (const auto& [channel, pixelType] : channels)
        header.channels().insert(channel, Imf::Channel(pixelType));
    return header;
}

// A render's multi-part file: "depth" (scanline, PXR24: Z and a UINT id, a custom attribute), "beauty" (scanline,
// PIZ, overscan: half R, G, B, A and the diffuse layer), "aovs" (tiled 4 x 4, ZIP, a crop: the float spec layer and
// a half N.X). Display window (0, 0) - (15, 11).
void writeShotFile(const std::string& path)
{
    std::vector<Imf::Header> headers = {
        partHeader("depth", Imf::SCANLINEIMAGE, Imf::PXR24_COMPRESSION, Imath::Box2i({0, 0}, {15, 11}),
                   {{"Z", Imf::FLOAT}, {"id", Imf::UINT}}),
        partHeader("beauty", Imf::SCANLINEIMAGE, Imf::PIZ_COMPRESSION, Imath::Box2i({-2, -1}, {17, 12}),
                   {{"A", Imf::HALF},
                    {"B", Imf::HALF},
                    {"G", Imf::HALF},
                    {"R", Imf::HALF},
                    {"diffuse.B", Imf::HALF},
                    {"diffuse.G", Imf::HALF},
                    {"diffuse.R", Imf::HALF}}),
        partHeader("aovs", Imf::TILEDIMAGE, Imf::ZIP_COMPRESSION, Imath::Box2i({2, 2}, {9, 7}),
                   {{"N.X", Imf::HALF}, {"spec.B", Imf::FLOAT}, {"spec.G", Imf::FLOAT}, {"spec.R", Imf::FLOAT}})};
    headers[0].insert("renderer", Imf::StringAttribute("a renderer 1.0"));
    headers[2].setTileDescription(Imf::TileDescription(4, 4, Imf::ONE_LEVEL));
    Imf::MultiPartOutputFile out(path.c_str(), headers.data(), int(headers.size()));
    std::deque<std::vector<char>> storage;
    for (int p = 0; p < 2; ++p)
    {
        Imf::OutputPart part(out, p);
        part.setFrameBuffer(partPixels(headers[std::size_t(p)], storage));
        part.writePixels(headers[std::size_t(p)].dataWindow().max.y - headers[std::size_t(p)].dataWindow().min.y + 1);
    }
    Imf::TiledOutputPart aovs(out, 2);
    aovs.setFrameBuffer(partPixels(headers[2], storage));
    aovs.writeTiles(0, aovs.numXTiles() - 1, 0, aovs.numYTiles() - 1);
}

// The compressed blocks of part `part`, in order: what OpenEXR stores, before any decoding.
std::vector<std::vector<char>> rawBlocks(const std::string& path, int part)
{
    Imf::MultiPartInputFile file(path.c_str());
    std::vector<std::vector<char>> blocks;
    const char* data = nullptr;
    int size = 0;
    if (Imf::isTiled(file.header(part).type()))
    {
        Imf::TiledInputPart tiled(file, part);
        for (int y = 0; y < tiled.numYTiles(0); ++y)
            for (int x = 0; x < tiled.numXTiles(0); ++x)
            {
                int dx = x, dy = y, lx = 0, ly = 0;
                tiled.rawTileData(dx, dy, lx, ly, data, size);
                blocks.emplace_back(data, data + size);
            }
        return blocks;
    }
    Imf::InputPart lines(file, part);
    const Imath::Box2i& window = file.header(part).dataWindow();
    for (int y = window.min.y; y <= window.max.y; ++y) // each line's block: a block once for each of its lines
    {
        lines.rawPixelData(y, data, size);
        blocks.emplace_back(data, data + size);
    }
    return blocks;
}

TEST_F(ImageIoTest, MultiPartFilesReadTheFirstPartHoldingTheLayerOrThePartNamed)
{
    writeShotFile(file("shot.exr"));
    const Image beauty = readImage(file("shot.exr"));
    EXPECT_EQ(beauty.parts.part, 1);
    ASSERT_TRUE(beauty.parts.file);
    EXPECT_EQ(beauty.width, 20);
    EXPECT_EQ(beauty.height, 14);
    EXPECT_EQ(beauty.layout.dataWindow.minX, -2);
    EXPECT_EQ(beauty.layout.displayWindow.maxX, 15);
    EXPECT_EQ(beauty.layout.compression, Compression::Piz);
    const std::vector<std::string> names = {"A", "B", "G", "R", "diffuse.B", "diffuse.G", "diffuse.R"};
    ASSERT_EQ(beauty.channels.size(), names.size());
    for (std::size_t c = 0; c < names.size(); ++c)
    {
        EXPECT_EQ(beauty.channels[c].name, names[c]);
        EXPECT_EQ(beauty.channels[c].type, PixelType::Half);
        for (std::size_t i = 0; i < beauty.channels[c].values.size(); ++i)
            ASSERT_EQ(beauty.channels[c].values[i], texelValue(int(c), i)) << names[c] << " texel " << i;
    }
    const auto name = std::find_if(beauty.layout.attributes.begin(), beauty.layout.attributes.end(),
                                   [](const Attribute& a) { return a.name == "name"; });
    ASSERT_NE(name, beauty.layout.attributes.end());
    EXPECT_EQ(std::string(name->value.begin(), name->value.end()), "beauty");

    // The diffuse layer of the part named: its R, G, B are the colour; it has no alpha.
    const Image diffuse = readImage(file("shot.exr"), {"beauty", "diffuse"});
    const Texels rgba = toRgba(diffuse);
    for (std::size_t i = 0; i < std::size_t(rgba.width * rgba.height); ++i)
    {
        ASSERT_EQ(rgba.values[i * 4 + 0], texelValue(6, i));
        ASSERT_EQ(rgba.values[i * 4 + 2], texelValue(4, i));
        ASSERT_EQ(rgba.values[i * 4 + 3], 1.0f);
    }
    // The spec layer is only in the tiled part, which is read whole.
    const Image spec = readImage(file("shot.exr"), {"", "spec"});
    EXPECT_EQ(spec.parts.part, 2);
    EXPECT_EQ(spec.width, 8);
    EXPECT_EQ(spec.height, 6);
    EXPECT_EQ(toRgba(spec).values[5 * 4 + 1], texelValue(2, 5));

    expectError(
        [&] {
            readImage(file("shot.exr"), {"beauty", "spec"});
        },
        file("shot.exr"), "part beauty has no spec.R, spec.G, spec.B channels");
    expectError(
        [&] {
            readImage(file("shot.exr"), {"depth", ""});
        },
        file("shot.exr"), "part depth has no R, G, B channels");
    expectError(
        [&] {
            readImage(file("shot.exr"), {"nope", ""});
        },
        file("shot.exr"), "no part is called nope (the parts: depth, beauty, aovs)");
    expectError(
        [&] {
            readImage(file("shot.exr"), {"", "nope"});
        },
        file("shot.exr"),
        "no nope.R, nope.G, nope.B channels in any of its 3 parts; the layers with R, G, B: (none: R, G, B) in part "
        "beauty, diffuse in part beauty, spec in part aovs (--layer NAME, --part NAME)");
    writeExr(file("single.exr"), makeImage(8, 8, {"B", "G", "R"}, PixelType::Half));
    expectError(
        [&] {
            readImage(file("single.exr"), {"beauty", ""});
        },
        file("single.exr"), "no part is called beauty (its parts have no names)");
    expectError(
        [&] {
            readImage(file("single.exr"), {"", "diffuse"});
        },
        file("single.exr"), "no diffuse.R, diffuse.G, diffuse.B channels");
    const std::string hdr = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 1\n\x80\x80\x80\x81";
    writeBytes(file("one.hdr"), {hdr.begin(), hdr.end()});
    expectError(
        [&] {
            readImage(file("one.hdr"), {"beauty", ""});
        },
        file("one.hdr"), "no part is called beauty (a Radiance .hdr image has no parts)");
}

// Lower-case r, g, b are the colour as R, G, B are (the upper case first when a layer has both); a file whose colour is
// in layers only (Blender's ViewLayer.Combined.R) is refused naming its layers, and --layer reads one.
TEST_F(ImageIoTest, LowerCaseColourIsReadAndLayeredColourIsNamedInTheError)
{
    writeExr(file("lower.exr"), makeImage(6, 4, {"a", "b", "g", "r", "Z"}, PixelType::Float));
    const Image lower = readImage(file("lower.exr"));
    EXPECT_EQ(lower.colourChannel("R"), "r");
    EXPECT_EQ(lower.colourChannel("A"), "a");
    const Texels rgba = toRgba(lower);
    EXPECT_EQ(rgba.values[4 * 5 + 0], channel(lower, "r").values[5]);
    EXPECT_EQ(rgba.values[4 * 5 + 2], channel(lower, "b").values[5]);
    EXPECT_EQ(rgba.values[4 * 5 + 3], channel(lower, "a").values[5]);
    writeExr(file("both.exr"), makeImage(6, 4, {"B", "G", "R", "r"}, PixelType::Float));
    EXPECT_EQ(readImage(file("both.exr")).colourChannel("R"), "R");

    writeExr(file("blender.exr"),
             makeImage(6, 4,
                       {"ViewLayer.Combined.A", "ViewLayer.Combined.B", "ViewLayer.Combined.G", "ViewLayer.Combined.R",
                        "ViewLayer.Depth.Z", "ViewLayer.Diffuse.b", "ViewLayer.Diffuse.g", "ViewLayer.Diffuse.r"},
                       PixelType::Half));
    expectError([&] { readImage(file("blender.exr")); }, file("blender.exr"),
                "no R, G, B channels; the layers with R, G, B: ViewLayer.Combined, ViewLayer.Diffuse (--layer NAME, "
                "--part NAME)");
    const Image combined = readImage(file("blender.exr"), {"", "ViewLayer.Combined"});
    EXPECT_EQ(toRgba(combined).values[1], channel(combined, "ViewLayer.Combined.G").values[0]);
    const Image diffuse = readImage(file("blender.exr"), {"", "ViewLayer.Diffuse"});
    EXPECT_EQ(toRgba(diffuse).values[2], channel(diffuse, "ViewLayer.Diffuse.b").values[0]);
    writeExr(file("depth.exr"), makeImage(6, 4, {"Z"}, PixelType::Half));
    expectError([&] { readImage(file("depth.exr")); }, file("depth.exr"),
                "no R, G, B channels; no layer holds R, G, B channels");
}

TEST_F(ImageIoTest, WritingAPartOfAMultiPartFileCopiesTheOtherPartsBitForBit)
{
    writeShotFile(file("shot.exr"));
    for (const ImageSelection& selection : {ImageSelection{"", ""}, ImageSelection{"", "spec"}})
    {
        SCOPED_TRACE("layer " + selection.layer);
        const Image image = readImage(file("shot.exr"), selection);
        Texels rgba = toRgba(image);
        for (float& v : rgba.values)
            v = v * 2.0f + 1.0f;
        writeExr(file("out.exr"), withRgb(image, rgba));

        Imf::MultiPartInputFile out(file("out.exr").c_str());
        ASSERT_EQ(out.parts(), 3);
        for (int p = 0; p < 3; ++p)
        {
            EXPECT_EQ(out.header(p).name(), std::vector<std::string>({"depth", "beauty", "aovs"})[std::size_t(p)]);
            if (p == image.parts.part)
            {
                EXPECT_EQ(out.header(p).type(), Imf::SCANLINEIMAGE); // the part written is a scanline part
                continue;
            }
            Imf::MultiPartInputFile in(file("shot.exr").c_str());
            EXPECT_EQ(out.header(p).type(), in.header(p).type());
            EXPECT_EQ(out.header(p).compression(), in.header(p).compression());
            EXPECT_EQ(out.header(p).dataWindow(), in.header(p).dataWindow());
            EXPECT_TRUE(rawBlocks(file("out.exr"), p) == rawBlocks(file("shot.exr"), p)) << "part " << p;
        }
        EXPECT_EQ(out.header(0).typedAttribute<Imf::StringAttribute>("renderer").value(), "a renderer 1.0");

        // The part written holds the new colour and its other channels as they were.
        const Image back = readImage(file("out.exr"), selection);
        EXPECT_EQ(back.parts.part, image.parts.part);
        EXPECT_EQ(back.layout.dataWindow.minX, image.layout.dataWindow.minX);
        ASSERT_EQ(back.channels.size(), image.channels.size());
        const Texels written = toRgba(back);
        for (std::size_t i = 0; i < rgba.values.size(); ++i)
        {
            if (i % 4 != 3)
            {
                ASSERT_EQ(written.values[i], rgba.values[i]) << "value " << i;
            }
        }
        const std::string other = selection.layer.empty() ? "diffuse.G" : "N.X";
        EXPECT_EQ(channel(back, other).values, channel(image, other).values);
    }
    Image image = readImage(file("shot.exr"));
    image.parts.part = 7;
    expectError([&] { writeExr(file("bad.exr"), image); }, file("bad.exr"),
                "part 7 is not a part of the file it was read from (3 parts)");
}

// A flat scanline part of 8 x 8 half R, G, B texels named `name`, for a multi-part file.
Imf::Header flatPart(const std::string& name)
{
    Imf::Header header(8, 8);
    header.setName(name);
    header.setType(Imf::SCANLINEIMAGE);
    for (const char* c : {"B", "G", "R"})
        header.channels().insert(c, Imf::Channel(Imf::HALF));
    return header;
}

// A deep scanline part of 8 x 8 texels of one sample each, R, G, B and A, named `name`.
Imf::Header deepPart(const std::string& name)
{
    Imf::Header header(8, 8);
    header.setName(name);
    header.setType(Imf::DEEPSCANLINE);
    header.compression() = Imf::ZIPS_COMPRESSION;
    for (const char* c : {"A", "B", "G", "R"})
        header.channels().insert(c, Imf::Channel(Imf::FLOAT));
    return header;
}

// One sample per texel, 0.5 in every channel, as a deep frame buffer over `counts` and `pointers` (64 each).
Imf::DeepFrameBuffer deepFrame(std::vector<unsigned>& counts, std::vector<float>& values, std::vector<float*>& pointers)
{
    counts.assign(64, 1);
    values.assign(64, 0.5f);
    pointers.assign(64, nullptr);
    for (std::size_t i = 0; i < 64; ++i)
        pointers[i] = &values[i];
    Imf::DeepFrameBuffer frame;
    frame.insertSampleCountSlice(Imf::Slice(Imf::UINT, reinterpret_cast<char*>(counts.data()), 4, 32));
    for (const char* c : {"A", "B", "G", "R"})
        frame.insert(c, Imf::DeepSlice(Imf::FLOAT, reinterpret_cast<char*>(pointers.data()), sizeof(float*),
                                       8 * sizeof(float*), sizeof(float)));
    return frame;
}

// The parts not bloomed are copied block for block, so a block that does not decode would be carried into the output
// unseen: reading the frame decodes them and refuses it naming the file and the part, before any GPU work.
TEST_F(ImageIoTest, AnOtherPartThatDoesNotDecodeIsRefusedNamingTheFileAndThePart)
{
    writeShotFile(file("shot.exr"));
    const std::vector<char> bytes = readBytes(file("shot.exr"));
    // The depth part's one block (PXR24 holds 16 lines a block), compressed by zlib: a damaged stream fails to inflate.
    const std::vector<char> block = rawBlocks(file("shot.exr"), 0).front();
    ASSERT_LT(block.size(), std::size_t(16 * 12 * 8)) << "the block is stored uncompressed: no damage would show";
    const auto at = std::search(bytes.begin(), bytes.end(), block.begin(), block.end());
    ASSERT_NE(at, bytes.end());
    std::vector<char> corrupt = bytes;
    const std::size_t middle = std::size_t(at - bytes.begin()) + block.size() / 2;
    for (std::size_t i = middle - 4; i < middle + 4; ++i)
        corrupt[i] = char(~corrupt[i]);
    writeBytes(file("corrupt.exr"), corrupt);
    expectError([&] { readImage(file("corrupt.exr")); }, file("corrupt.exr"), "part 0 (depth), copied as it is");
    // The aovs part's tiles come last: a file cut short loses the end of its last tile.
    writeBytes(file("truncated.exr"), std::vector<char>(bytes.begin(), bytes.end() - 8));
    expectError([&] { readImage(file("truncated.exr")); }, file("truncated.exr"), "part 2 (aovs)");
    // The part bloomed is the one read either way; undamaged, the file reads.
    EXPECT_EQ(readImage(file("shot.exr")).parts.part, 1);
}

TEST_F(ImageIoTest, DeepFilesAndDeepPartsAreRefusedByName)
{
    std::vector<unsigned> counts;
    std::vector<float> values;
    std::vector<float*> pointers;
    std::vector<Imath::half> flat(64, Imath::half(0.25f));
    Imf::FrameBuffer flatFrame;
    for (const char* c : {"B", "G", "R"})
        flatFrame.insert(c, Imf::Slice(Imf::HALF, reinterpret_cast<char*>(flat.data()), 2, 16));
    // A single-part deep file, which the flat API would composite (it has A) or crash on.
    {
        Imf::DeepScanLineOutputFile out(file("deep.exr").c_str(), deepPart("deep"));
        out.setFrameBuffer(deepFrame(counts, values, pointers));
        out.writePixels(8);
    }
    expectError([&] { readImage(file("deep.exr")); }, file("deep.exr"),
                "the file holds deep data (deepscanline), which is not supported");
    // A flat part beside a deep one: the whole file is refused, naming the deep part.
    {
        const Imf::Header headers[] = {flatPart("beauty"), deepPart("depth")};
        Imf::MultiPartOutputFile out(file("mixed.exr").c_str(), headers, 2);
        Imf::OutputPart beauty(out, 0);
        beauty.setFrameBuffer(flatFrame);
        beauty.writePixels(8);
        Imf::DeepScanLineOutputPart depth(out, 1);
        depth.setFrameBuffer(deepFrame(counts, values, pointers));
        depth.writePixels(8);
    }
    expectError([&] { readImage(file("mixed.exr")); }, file("mixed.exr"),
                "part 1 (depth) holds deep data (deepscanline), which is not supported");
    // A flat file whose version field says deep (non-image) without a part type.
    writeExr(file("ok.exr"), makeImage(8, 8, {"B", "G", "R"}, PixelType::Half));
    std::vector<char> bytes = readBytes(file("ok.exr"));
    bytes.at(5) = char(bytes.at(5) | 0x08); // the version field's second byte holds bits 8 to 15
    writeBytes(file("flag.exr"), bytes);
    expectError([&] { readImage(file("flag.exr")); }, file("flag.exr"), "the file holds deep data (deep flag)");
}

} // namespace
} // namespace fftb
