// SPDX-License-Identifier: MIT
// Reads OpenEXR (OpenEXR library) and Radiance .hdr (stb_image) images; writes PNG previews whole or not at all
// (OpenEXR files: exr_write.cpp).
#include "image/image_io.h"

#include "host_error.h"
#include "image/atomic_file.h"
#include "image/exr_common.h"

#include <stb_image.h>
#include <stb_image_write.h>

#include <OpenEXR/Iex.h>
#include <OpenEXR/ImfChannelList.h>
#include <OpenEXR/ImfFrameBuffer.h>
#include <OpenEXR/ImfHeader.h>
#include <OpenEXR/ImfIO.h>
#include <OpenEXR/ImfInputPart.h>
#include <OpenEXR/ImfMultiPartInputFile.h>
#include <OpenEXR/ImfPartType.h>
#include <OpenEXR/ImfStandardAttributes.h>
#include <OpenEXR/ImfStringAttribute.h>
#include <OpenEXR/ImfThreading.h>
#include <OpenEXR/ImfTiledInputPart.h>
#include <OpenEXR/ImfVersion.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

namespace fftb
{

using namespace exr;

namespace
{

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

// Scanlines in each block of a scanline file (OpenEXR's "OpenEXR File Layout", scan line blocks).
std::int64_t linesPerBlock(Imf::Compression compression)
{
    switch (compression)
    {
    case Imf::ZIP_COMPRESSION:
    case Imf::PXR24_COMPRESSION:
        return 16;
    case Imf::PIZ_COMPRESSION:
    case Imf::B44_COMPRESSION:
    case Imf::B44A_COMPRESSION:
    case Imf::DWAA_COMPRESSION:
        return 32;
    case Imf::DWAB_COMPRESSION:
        return 256;
    default:
        return 1;
    }
}

// The most float bytes a compressed byte can decode to, with a margin: deflate packs at most about 1032 bytes into
// one, and a HALF value (2 bytes) becomes a 4-byte float, so ZIP, ZIPS and PXR24 stay within 2064 and the
// run-length and Huffman coders (RLE, PIZ) and B44 within that too; DWAA and DWAB code a flat 8 x 8 block of each
// channel in about a bit, far more than any other codec.
std::int64_t maxExpansion(Imf::Compression compression)
{
    return compression == Imf::DWAA_COMPRESSION || compression == Imf::DWAB_COMPRESSION ? std::int64_t(1) << 20 : 4096;
}

// Walks the header attributes of every part before OpenEXR reads them: OpenEXR sizes a string or an attribute of a
// type it does not know by the size the file gives, before reading it.
void checkAttributeSizes(const std::string& path, const std::vector<unsigned char>& bytes, bool multiPart)
{
    std::size_t at = 8; // magic number and version field
    do
    {
        while (at < bytes.size() && bytes[at] != 0)
        {
            const auto nameEnd = std::find(bytes.begin() + long(at), bytes.end(), 0);
            const auto typeEnd = nameEnd == bytes.end() ? nameEnd : std::find(nameEnd + 1, bytes.end(), 0);
            if (typeEnd == bytes.end() || bytes.end() - typeEnd < 5)
                return; // OpenEXR names the truncation
            const std::size_t valueAt = std::size_t(typeEnd - bytes.begin()) + 5;
            std::uint32_t size = 0;
            for (int i = 3; i >= 0; --i)
                size = size << 8 | typeEnd[1 + i];
            if (size > bytes.size() - valueAt)
                failCorrupt(path, "header attribute " + std::string(bytes.begin() + long(at), nameEnd) + " of " +
                                      std::to_string(std::int32_t(size)) + " bytes does not fit the file");
            at = valueAt + size;
        }
        ++at; // the header's terminating zero byte; in a multi-part file, an empty header ends the list
    } while (multiPart && at < bytes.size() && bytes[at] != 0);
}

// What OpenEXR will allocate for a header, bounded before it reads any pixels: the texels, the tiles' buffers, the
// offset table and the float planes for what the file's bytes can hold.
void checkLayout(const std::string& path, const Imf::Header& header, bool tiled, std::size_t fileBytes)
{
    constexpr std::int64_t maxTexels = std::int64_t(1) << 28;
    const Imath::Box2i& data = header.dataWindow();
    const std::int64_t width = std::int64_t(data.max.x) - data.min.x + 1;
    const std::int64_t height = std::int64_t(data.max.y) - data.min.y + 1;
    if (width < 1 || height < 1)
        fail(path, "empty data window " + boxText({data.min.x, data.min.y, data.max.x, data.max.y}) +
                       "; the image has no texels");
    if (width > maxTexels || height > maxTexels || width * height > maxTexels)
        fail(path, std::to_string(width) + "x" + std::to_string(height) + " texels, more than the 2^28 supported");
    std::int64_t blocks = (height + linesPerBlock(header.compression()) - 1) / linesPerBlock(header.compression());
    if (tiled)
    {
        const Imf::TileDescription& tiles = header.tileDescription();
        if (tiles.xSize < 1 || tiles.ySize < 1 || tiles.xSize > 1 << 24 || tiles.ySize > 1 << 24 ||
            std::int64_t(tiles.xSize) * tiles.ySize > 1 << 24)
            failCorrupt(path, "tiles of " + std::to_string(tiles.xSize) + "x" + std::to_string(tiles.ySize) +
                                  " texels; at most 2^24 are supported");
        // The full-resolution level's tiles: the levels below add at most as many again in a mipmap.
        blocks = ((width + tiles.xSize - 1) / tiles.xSize) * ((height + tiles.ySize - 1) / tiles.ySize);
    }
    if (blocks > std::int64_t(fileBytes / 8))
        failCorrupt(path, "an offset table of " + std::to_string(blocks) + " blocks does not fit the file");
    std::int64_t channels = 0;
    for (auto c = header.channels().begin(); c != header.channels().end(); ++c)
        ++channels;
    const std::int64_t floatBytes = width * height * channels * 4;
    if (floatBytes > maxExpansion(header.compression()) * std::int64_t(fileBytes) + (std::int64_t(64) << 20))
        failCorrupt(path, std::to_string((floatBytes + (1 << 19)) >> 20) + " MiB of texels in a file of " +
                              std::to_string(fileBytes) + " bytes");
}

// The channel list as fftbloom takes it: HALF or FLOAT, full resolution, RGB rather than luminance/chroma.
void checkChannels(const std::string& path, const Imf::ChannelList& channels, bool matte = false)
{
    const auto has = [&channels](const char* name) { return channels.findChannel(name) != nullptr; };
    // Ahead of the subsampling check, which a luminance/chroma file's RY and BY channels would fail less clearly.
    if (!matte && !(has("R") && has("G") && has("B")) && (has("Y") || has("RY") || has("BY")))
        fail(path, "luminance/chroma (Y, RY, BY) images are not supported; convert to RGB");
    for (auto c = channels.begin(); c != channels.end(); ++c)
    {
        const Imf::PixelType type = c.channel().type;
        if (type != Imf::HALF && type != Imf::FLOAT)
            fail(path, "channel " + std::string(c.name()) + " is " +
                           (type == Imf::UINT ? "UINT" : std::to_string(int(type))) +
                           "; only HALF and FLOAT pixel types are supported");
        if (c.channel().xSampling != 1 || c.channel().ySampling != 1)
            fail(path, "channel " + std::string(c.name()) + " is subsampled, which is not supported");
    }
}

// A header attribute's value bytes as the file stores them.
std::vector<unsigned char> attributeBytes(const Imf::Attribute& attribute)
{
    MemoryOutput out;
    attribute.writeValueTo(out, Imf::EXR_VERSION);
    return {out.bytes.begin(), out.bytes.end()};
}

// The names of `layer`'s R, G, B channels, for messages: "R, G, B" or "diffuse.R, diffuse.G, diffuse.B".
std::string colourNames(const std::string& layer)
{
    const std::string prefix = layer.empty() ? "" : layer + ".";
    return prefix + "R, " + prefix + "G, " + prefix + "B";
}

// Whether `channels` hold `layer`'s R, G and B (each in upper or lower case: R or r, diffuse.R or diffuse.r).
bool holdsLayerColour(const Imf::ChannelList& channels, const std::string& layer)
{
    const std::string prefix = layer.empty() ? "" : layer + ".";
    for (const char* c : {"R", "G", "B"})
        if (!channels.findChannel(prefix + c) &&
            !channels.findChannel(prefix + char(std::tolower(static_cast<unsigned char>(c[0])))))
            return false;
    return true;
}

// The layers whose R, G, B the parts of `headers` hold, for a message: "the layers with R, G, B: ViewLayer.Combined,
// diffuse (--layer NAME)", with "in part NAME" for a multi-part file's; or that there are none.
std::string colourLayersText(const std::vector<Imf::Header>& headers)
{
    std::string text;
    for (std::size_t p = 0; p < headers.size(); ++p)
    {
        std::set<std::string> layers;
        for (auto c = headers[p].channels().begin(); c != headers[p].channels().end(); ++c)
        {
            const std::string name = c.name();
            const std::size_t dot = name.rfind('.');
            const std::string layer = dot == std::string::npos ? "" : name.substr(0, dot);
            if (holdsLayerColour(headers[p].channels(), layer))
                layers.insert(layer.empty() ? "(none: R, G, B)" : layer);
        }
        for (const std::string& layer : layers)
        {
            text += text.empty() ? "" : ", ";
            text += layer;
            if (headers.size() > 1)
            {
                text += " in part ";
                text += headers[p].hasName() ? headers[p].name() : std::to_string(p);
            }
        }
    }
    return text.empty() ? "no layer holds R, G, B channels"
                        : "the layers with R, G, B: " + text + " (--layer NAME, --part NAME)";
}

// The index of the part `selection` names: the part called selection.part, else the first part holding the layer's
// R, G and B channels. Throws HostError naming the part, or the parts there are, when there is none.
std::size_t choosePart(const std::string& path, const std::vector<Imf::Header>& headers,
                       const ImageSelection& selection)
{
    const auto holdsColour = [&selection](const Imf::Header& header)
    { return holdsLayerColour(header.channels(), selection.layer); };
    const std::string colour = colourNames(selection.layer);
    if (!selection.part.empty())
    {
        std::string names;
        for (std::size_t p = 0; p < headers.size(); ++p)
        {
            if (!headers[p].hasName())
                continue;
            if (headers[p].name() == selection.part)
            {
                if (!holdsColour(headers[p]))
                    fail(path, "part " + selection.part + " has no " + colour + " channels");
                return p;
            }
            names += (names.empty() ? "" : ", ") + headers[p].name();
        }
        fail(path, "no part is called " + selection.part + " (" +
                       (names.empty() ? std::string("its parts have no names") : "the parts: " + names) + ")");
    }
    for (std::size_t p = 0; p < headers.size(); ++p)
    {
        if (holdsColour(headers[p]))
            return p;
    }
    if (headers.size() == 1 && selection.layer.empty())
        checkChannels(path, headers.front().channels()); // names a luminance/chroma image as such
    fail(path, "no " + colour + " channels" +
                   (headers.size() > 1 ? " in any of its " + std::to_string(headers.size()) + " parts" : "") + "; " +
                   colourLayersText(headers));
}

// A frame buffer of `rows` rows of `window`'s width for every channel of `header`, each sample 4 bytes (UINT and FLOAT;
// HALF uses 2), in `store`: the rows from `top` on.
Imf::FrameBuffer stripBuffer(const Imf::Header& header, const Imath::Box2i& window, int top, int rows,
                             std::vector<std::uint32_t>& store)
{
    const std::size_t width = std::size_t(window.max.x - window.min.x + 1);
    std::size_t channels = 0;
    for (auto c = header.channels().begin(); c != header.channels().end(); ++c)
        ++channels;
    store.resize(width * std::size_t(rows) * channels);
    Imf::FrameBuffer frame;
    std::size_t at = 0;
    const Imath::Box2i strip(Imath::V2i(window.min.x, top), Imath::V2i(window.max.x, top + rows - 1));
    for (auto c = header.channels().begin(); c != header.channels().end(); ++c, at += width * std::size_t(rows))
        frame.insert(c.name(),
                     Imf::Slice::Make(c.channel().type, store.data() + at, strip, sizeof(std::uint32_t),
                                      width * sizeof(std::uint32_t), c.channel().xSampling, c.channel().ySampling));
    return frame;
}

// Decodes every block of part `p` (every level of a tiled one) a strip at a time, throwing OpenEXR's exception where
// one does not decode or is missing: the blocks of the parts not bloomed are copied as they are, so a corrupt one
// would be carried into the output unseen.
void decodePart(Imf::MultiPartInputFile& input, int p, bool tiled)
{
    std::vector<std::uint32_t> store;
    if (!tiled)
    {
        Imf::InputPart reader(input, p);
        const Imath::Box2i& window = reader.header().dataWindow();
        constexpr int kStripRows = 64;
        for (int y = window.min.y; y <= window.max.y; y += kStripRows)
        {
            const int rows = std::min(kStripRows, window.max.y - y + 1);
            reader.setFrameBuffer(stripBuffer(reader.header(), window, y, rows, store));
            reader.readPixels(y, y + rows - 1);
        }
        return;
    }
    Imf::TiledInputPart reader(input, p);
    for (int ly = 0; ly < reader.numYLevels(); ++ly)
        for (int lx = 0; lx < reader.numXLevels(); ++lx)
        {
            if (reader.levelMode() != Imf::RIPMAP_LEVELS && lx != ly)
                continue;
            const Imath::Box2i window = reader.dataWindowForLevel(lx, ly);
            for (int ty = 0; ty < reader.numYTiles(ly); ++ty)
            {
                const Imath::Box2i row = reader.dataWindowForTile(0, ty, lx, ly);
                reader.setFrameBuffer(
                    stripBuffer(reader.header(), window, row.min.y, row.max.y - row.min.y + 1, store));
                reader.readTiles(0, reader.numXTiles(lx) - 1, ty, ty, lx, ly);
            }
        }
}

// The view a part is of: its "view" attribute, or `defaultView` (OpenEXR: a part without one, in a file of several
// views, is of the default view, the first of multiView).
std::string viewOf(const Imf::Header& header, const std::string& defaultView = "")
{
    const auto* view = header.findTypedAttribute<Imf::StringAttribute>("view");
    return view && !view->value().empty() ? view->value() : defaultView;
}

// The views the multiView attribute of `header` lists, none when it has none. Throws HostError when a view is listed
// twice or has no name (OpenEXR's view names are unique and not empty): blooming by the list would bloom a view's
// channels twice, or leave a view unbloomed.
std::vector<std::string> multiViewOf(const std::string& path, const Imf::Header& header)
{
    if (!Imf::hasMultiView(header))
        return {};
    std::vector<std::string> views = Imf::multiView(header);
    for (auto v = views.begin(); v != views.end(); ++v)
    {
        if (v->empty())
            fail(path, "multiView lists a view without a name");
        if (std::find(views.begin(), v, *v) != v)
            fail(path, "multiView lists view " + *v + " twice");
    }
    return views;
}

std::string joined(const std::vector<std::string>& names)
{
    std::string text;
    for (const std::string& name : names)
        text += (text.empty() ? "" : ", ") + name;
    return text;
}

// The part of view selection.view holding the layer's colour (and named selection.part, when that is given); a part
// without a view attribute is of `defaultView`.
std::size_t chooseViewPart(const std::string& path, const std::vector<Imf::Header>& headers,
                           const ImageSelection& selection, const std::string& defaultView)
{
    std::vector<std::string> views;
    for (std::size_t p = 0; p < headers.size(); ++p)
    {
        const std::string view = viewOf(headers[p], defaultView);
        if (view == selection.view && holdsLayerColour(headers[p].channels(), selection.layer) &&
            (selection.part.empty() || (headers[p].hasName() && headers[p].name() == selection.part)))
            return p;
        if (!view.empty() && std::find(views.begin(), views.end(), view) == views.end())
            views.push_back(view);
    }
    fail(path, "no part of view " + selection.view + " holds " + colourNames(selection.layer) +
                   (selection.part.empty() ? "" : " and is called " + selection.part) +
                   " (the views: " + joined(views) + ")");
}

// Part `p` of `input`: its layout, attributes and full-resolution pixels as float, its colour `layer`'s.
Image readPart(const std::string& path, Imf::MultiPartInputFile& input, const std::vector<Imf::Header>& headers,
               const std::vector<bool>& tiled, std::size_t p, const std::string& layer, bool matte = false)
{
    const Imf::Header& header = headers[p];
    checkChannels(path, header.channels(), matte); // the other parts' channels are copied as they are
    Image image;
    image.layer = layer;
    const Imath::Box2i& data = header.dataWindow();
    const Imath::Box2i& display = header.displayWindow();
    image.width = data.max.x - data.min.x + 1;
    image.height = data.max.y - data.min.y + 1;
    image.layout.dataWindow = {data.min.x, data.min.y, data.max.x, data.max.y};
    image.layout.displayWindow = {display.min.x, display.min.y, display.max.x, display.max.y};
    image.layout.compression = Compression(header.compression()); // the same codes; sanityCheck refused others
    image.layout.pixelAspectRatio = header.pixelAspectRatio();
    image.layout.screenWindowCenter[0] = header.screenWindowCenter().x;
    image.layout.screenWindowCenter[1] = header.screenWindowCenter().y;
    image.layout.screenWindowWidth = header.screenWindowWidth();
    for (auto a = header.begin(); a != header.end(); ++a)
    {
        if (!isStructural(a.name()))
            image.layout.attributes.push_back({a.name(), a.attribute().typeName(), attributeBytes(a.attribute())});
    }
    Imf::FrameBuffer frame;
    const std::size_t texels = std::size_t(image.width) * std::size_t(image.height);
    for (auto c = header.channels().begin(); c != header.channels().end(); ++c)
    {
        image.channels.push_back(
            {c.name(), c.channel().type == Imf::HALF ? PixelType::Half : PixelType::Float, std::vector<float>(texels)});
        frame.insert(c.name(), Imf::Slice::Make(Imf::FLOAT, image.channels.back().values.data(), data, sizeof(float),
                                                sizeof(float) * std::size_t(image.width)));
    }
    if (tiled[p])
    {
        // Straight into the planes, tile by tile, rather than through InputPart's buffer of a whole row of tiles.
        Imf::TiledInputPart reader(input, int(p));
        reader.setFrameBuffer(frame);
        reader.readTiles(0, reader.numXTiles(0) - 1, 0, reader.numYTiles(0) - 1, 0, 0);
    }
    else
    {
        Imf::InputPart reader(input, int(p));
        reader.setFrameBuffer(frame);
        reader.readPixels(data.min.y, data.max.y);
    }
    return image;
}

// The headers of an OpenEXR file, every part's, and whether each part is tiled.
struct ExrHeaders
{
    bool multiPart = false;
    std::vector<Imf::Header> headers;
    std::vector<bool> tiled;
};

// Reads the headers of `bytes` (the file at `path`) from `stream`, and refuses what fftbloom does not read: another
// version, unknown flags, attributes past the file, deep data, a part whose layout is not bounded by the file.
ExrHeaders readHeaders(const std::string& path, const std::vector<unsigned char>& bytes, MemoryInput& stream)
{
    if (bytes.size() < 8)
        failCorrupt(path, "the file ends inside its version field");
    int version = int(std::uint32_t(bytes[4]) | std::uint32_t(bytes[5]) << 8 | std::uint32_t(bytes[6]) << 16 |
                      std::uint32_t(bytes[7]) << 24);
    if (Imf::getVersion(version) != Imf::EXR_VERSION)
        fail(path, "unsupported OpenEXR version " + std::to_string(Imf::getVersion(version)));
    if (!Imf::supportsFlags(Imf::getFlags(version)))
        failCorrupt(path, "unknown flags in the version field");
    ExrHeaders h;
    h.multiPart = Imf::isMultiPart(version);
    checkAttributeSizes(path, bytes, h.multiPart);
    stream.seekg(8);
    for (bool more = true; more;)
    {
        Imf::Header header;
        header.readFrom(stream, version);
        if (h.multiPart && header.readsNothing())
            break;
        h.headers.push_back(header);
        more = h.multiPart;
    }
    // The flat API composites a deep part silently, or crashes without a frame buffer: deep parts never reach it.
    // Every part's layout is bounded: opening the file reads every part's offset table.
    for (std::size_t p = 0; p < h.headers.size(); ++p)
    {
        const Imf::Header& header = h.headers[p];
        const bool deep = header.hasType() ? Imf::isDeepData(header.type()) : Imf::isNonImage(version);
        if (deep)
            fail(path,
                 (h.multiPart
                      ? "part " + std::to_string(p) + (header.hasName() ? " (" + header.name() + ")" : "") + " holds"
                      : std::string("the file holds")) +
                     " deep data (" + (header.hasType() ? header.type() : "deep flag") + "), which is not supported");
        h.tiled.push_back(h.multiPart ? header.hasType() && Imf::isTiled(header.type()) : Imf::isTiled(version));
        checkLayout(path, header, h.tiled[p], bytes.size());
        header.sanityCheck(h.tiled[p], h.multiPart);
    }
    return h;
}

// Reads the headers (readHeaders) and the chosen part's full-resolution pixels as float. A multi-part image keeps the
// file's bytes for writeExr to copy the other parts.
Image decodeExr(const std::string& path, std::shared_ptr<const std::vector<unsigned char>> file,
                const ImageSelection& selection)
{
    MemoryInput stream(path, *file);
    const ExrHeaders read = readHeaders(path, *file, stream);
    const bool multiPart = read.multiPart;
    const std::vector<Imf::Header>& headers = read.headers;
    const std::vector<bool>& tiled = read.tiled;
    if (selection.matte)
    {
        stream.seekg(0);
        Imf::MultiPartInputFile input(stream, Imf::globalThreadCount());
        return readPart(path, input, headers, tiled, 0, "", true);
    }
    // Views (docs/exr.md, "Views"): a single part's multiView list, or parts with a view attribute.
    const std::vector<std::string> multiViewNames =
        multiPart ? std::vector<std::string>() : multiViewOf(path, headers[0]);
    const bool viewParts = multiPart && std::any_of(headers.begin(), headers.end(),
                                                    [](const Imf::Header& h) { return !viewOf(h).empty(); });
    // Parts per view: those without a view attribute are of the default view, the first a multiView lists.
    std::string defaultView;
    for (std::size_t p = 0; viewParts && p < headers.size() && defaultView.empty(); ++p)
        if (const std::vector<std::string> listed = multiViewOf(path, headers[p]); !listed.empty())
            defaultView = listed.front();
    const auto viewLayer = [&](const std::string& view)
    {
        return view == multiViewNames.front() ? selection.layer
               : selection.layer.empty()      ? view
                                              : selection.layer + "." + view; // OpenEXR: the view is the penultimate
    };
    ImageSelection chosen = selection;
    if (!selection.view.empty() && multiViewNames.empty() && !viewParts)
        fail(path, "--view " + selection.view + ": the image has one view (no multiView or view attribute)");
    if (!selection.view.empty() && !multiViewNames.empty())
    {
        if (std::find(multiViewNames.begin(), multiViewNames.end(), selection.view) == multiViewNames.end())
            fail(path, "no view " + selection.view + " (the views: " + joined(multiViewNames) + ")");
        chosen.layer = viewLayer(selection.view);
    }
    const std::size_t part = viewParts && !selection.view.empty()
                                 ? chooseViewPart(path, headers, selection, defaultView)
                                 : choosePart(path, headers, chosen);
    stream.seekg(0);
    Imf::MultiPartInputFile input(stream, Imf::globalThreadCount());
    Image image = readPart(path, input, headers, tiled, part, chosen.layer);
    if (multiPart)
        image.parts = {file, int(part)};
    std::vector<std::string> missing; // views whose colour is not there: the image is refused
    if (!multiViewNames.empty())
    {
        image.view = selection.view.empty() ? multiViewNames.front() : selection.view;
        for (std::size_t v = 1; selection.view.empty() && v < multiViewNames.size(); ++v)
        {
            if (holdsLayerColour(headers[0].channels(), viewLayer(multiViewNames[v])))
                image.viewLayers.push_back({multiViewNames[v], viewLayer(multiViewNames[v])});
            else
                missing.push_back(multiViewNames[v] + " (" + colourNames(viewLayer(multiViewNames[v])) + ")");
        }
    }
    std::vector<bool> viewPart(headers.size(), false); // the parts read as views
    viewPart[part] = true;
    if (viewParts)
        image.view = viewOf(headers[part], defaultView);
    if (viewParts && selection.view.empty())
    {
        std::vector<std::string> views{image.view};
        for (std::size_t p = 0; p < headers.size(); ++p)
        {
            const std::string view = viewOf(headers[p], defaultView);
            if (view.empty() || std::find(views.begin(), views.end(), view) != views.end())
                continue;
            const auto holder =
                std::find_if(headers.begin(), headers.end(),
                             [&](const Imf::Header& h) {
                                 return viewOf(h, defaultView) == view && holdsLayerColour(h.channels(), chosen.layer);
                             });
            views.push_back(view);
            if (holder == headers.end())
            {
                missing.push_back(view + " (no part holds its " + colourNames(chosen.layer) + ")");
                continue;
            }
            const std::size_t q = std::size_t(holder - headers.begin());
            image.viewParts.push_back(readPart(path, input, headers, tiled, q, chosen.layer));
            image.viewParts.back().parts = {file, int(q)};
            image.viewParts.back().view = view;
            viewPart[q] = true;
        }
    }
    if (!missing.empty())
        fail(path, "every view is bloomed, but not every view has the colour: " + joined(missing) +
                       "; --view NAME blooms one");
    for (std::size_t p = 0; multiPart && p < headers.size(); ++p)
    {
        if (viewPart[p])
            continue;
        try
        {
            decodePart(input, int(p), tiled[p]);
        }
        catch (const Iex::BaseExc& error)
        {
            failCorrupt(
                path, "part " + std::to_string(p) + (headers[p].hasName() ? " (" + headers[p].name() + ")" : "") +
                          ", copied as it is beside the part bloomed, does not decode: " + openExrReason(error.what()));
        }
    }
    return image;
}

Image readExr(const std::string& path, std::shared_ptr<const std::vector<unsigned char>> bytes,
              const ImageSelection& selection)
{
    try
    {
        return decodeExr(path, std::move(bytes), selection);
    }
    catch (const HostError&)
    {
        throw;
    }
    catch (const std::bad_alloc&)
    {
        fail(path, "not enough memory to read it");
    }
    catch (const Iex::BaseExc& error)
    {
        failCorrupt(path, openExrReason(error.what()));
    }
    catch (const std::exception& error)
    {
        failCorrupt(path, openExrReason(error.what()));
    }
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

Image readHdr(const std::string& path, const std::vector<unsigned char>& bytes, const ImageSelection& selection)
{
    if (!selection.part.empty())
        fail(path, "no part is called " + selection.part + " (a Radiance .hdr image has no parts)");
    if (!selection.layer.empty())
        fail(path, "no " + colourNames(selection.layer) + " channels (a Radiance .hdr image has R, G, B only)");
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

bool hasRgb(const Image& image)
{
    return image.find(image.colourChannel("R")) >= 0 && image.find(image.colourChannel("G")) >= 0 &&
           image.find(image.colourChannel("B")) >= 0;
}

// An OpenEXR or Radiance .hdr file's image, the format told by its magic bytes.
Image decodeFile(const std::string& path, std::shared_ptr<const std::vector<unsigned char>> file,
                 const ImageSelection& selection)
{
    const std::vector<unsigned char>& bytes = *file;
    const auto startsWith = [&](const std::string& magic)
    { return bytes.size() >= magic.size() && std::equal(magic.begin(), magic.end(), bytes.begin()); };
    Image image;
    if (startsWith("\x76\x2f\x31\x01"))
        image = readExr(path, std::move(file), selection);
    else if (startsWith("#?RADIANCE\n") || startsWith("#?RGBE\n"))
        image = readHdr(path, bytes, selection);
    else
        fail(path, "not an OpenEXR or Radiance .hdr image");
    if (image.width < 1 || image.height < 1)
        fail(path,
             "zero-sized image (" + std::to_string(image.width) + "x" + std::to_string(image.height) + " texels)");
    return image;
}

} // namespace

namespace exr
{

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

} // namespace exr

Image readImage(const std::string& path, const ImageSelection& selection)
{
    return decodeFile(path, std::make_shared<const std::vector<unsigned char>>(readFile(path)), selection);
}

Image decodeImage(const std::string& path, const std::vector<unsigned char>& bytes, const ImageSelection& selection)
{
    return decodeFile(path, std::make_shared<const std::vector<unsigned char>>(bytes), selection);
}

float acesFitted(float x)
{
    x *= 0.6f;
    if (x > 1.0f) // divided through by x^2: no overflow to inf / inf for huge values
        return std::min((2.51f + 0.03f / x) / (2.43f + 0.59f / x + 0.14f / (x * x)), 1.0f);
    return std::max((x * (2.51f * x + 0.03f)) / (x * (2.43f * x + 0.59f) + 0.14f), 0.0f);
}

Texels displayWindowRgba(const Image& image)
{
    Texels rgba = toRgba(image);
    const Box2i& data = image.layout.dataWindow;
    const Box2i& display = image.layout.displayWindow;
    if (display.empty() || data.empty() ||
        (display.minX == data.minX && display.minY == data.minY && display.maxX == data.maxX &&
         display.maxY == data.maxY))
        return rgba;
    const int64_t width = int64_t(display.maxX) - display.minX + 1, height = int64_t(display.maxY) - display.minY + 1;
    if (width * height > int64_t(1) << 28)
        throw HostError("display window " + std::to_string(width) + " x " + std::to_string(height) +
                        " is larger than 2^28 texels");
    Texels shown(int(width), int(height), 4);
    for (int y = std::max(data.minY, display.minY); y <= std::min(data.maxY, display.maxY); ++y)
        for (int x = std::max(data.minX, display.minX); x <= std::min(data.maxX, display.maxX); ++x)
            for (int c = 0; c < 4; ++c)
                shown.at(x - display.minX, y - display.minY, c) = rgba.at(x - data.minX, y - data.minY, c);
    return shown;
}

void writePngPreview(const std::string& path, const Image& image, float exposure, const OcioDisplay* display)
{
    checkExtent(path, image);
    if (!hasRgb(image))
        fail(path, "no " + colourNames(image.layer) + " channels");
    Texels rgba;
    try
    {
        rgba = displayWindowRgba(image);
    }
    catch (const HostError& e)
    {
        fail(path, e.what());
    }
    writePngPreview(path, rgba, exposure, display);
}

void writePngPreview(const std::string& path, const Texels& rgba, float exposure, const OcioDisplay* display)
{
    if (rgba.components != 4 || rgba.width <= 0 || rgba.height <= 0 ||
        std::size_t(rgba.width) * std::size_t(rgba.height) > std::size_t(1) << 28)
        fail(path, "image is empty or larger than 2^28 texels");
    const float scale = std::exp2(exposure);
    const std::size_t texels = std::size_t(rgba.width) * std::size_t(rgba.height);
    std::vector<float> rgb(texels * 3);
    for (std::size_t i = 0; i < texels; ++i)
        for (std::size_t c = 0; c < 3; ++c)
            rgb[i * 3 + c] = rgba.values[i * 4 + c] * scale;
    if (display)
        display->apply(rgb.data(), texels); // encodes for the display: only clamped below
    std::vector<unsigned char> pixels(texels * 3);
    for (std::size_t i = 0; i < rgb.size(); ++i)
    {
        // max() with 0 first also maps NaN to 0; +inf would tonemap to NaN, so it is pinned to white.
        const float x = std::max(0.0f, rgb[i]);
        float encoded = std::min(x, 1.0f);
        if (!display)
        {
            const float mapped = std::isinf(x) ? 1.0f : acesFitted(x);
            encoded = mapped <= 0.0031308f ? 12.92f * mapped : 1.055f * std::pow(mapped, 1.0f / 2.4f) - 0.055f;
        }
        pixels[i] = static_cast<unsigned char>(std::lround(encoded * 255.0f));
    }
    std::string png;
    const auto append = [](void* out, void* data, int size)
    { static_cast<std::string*>(out)->append(static_cast<const char*>(data), std::size_t(size)); };
    if (!stbi_write_png_to_func(append, &png, rgba.width, rgba.height, 3, pixels.data(), rgba.width * 3))
        fail(path, "PNG encoding failed");
    writeFileAtomically(path, png.data(), png.size());
}

} // namespace fftb
