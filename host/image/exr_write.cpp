// SPDX-License-Identifier: MIT
// Writing OpenEXR: the header from an image's layout, its pixels (HALF converted), single- and multi-part files with
// the parts not written from pixels copied block for block.
#include "image/atomic_file.h"
#include "image/exr_common.h"
#include "image/image_io.h"

#include <Imath/half.h>
#include <OpenEXR/ImfChannelList.h>
#include <OpenEXR/ImfFrameBuffer.h>
#include <OpenEXR/ImfHeader.h>
#include <OpenEXR/ImfInputPart.h>
#include <OpenEXR/ImfMultiPartInputFile.h>
#include <OpenEXR/ImfMultiPartOutputFile.h>
#include <OpenEXR/ImfOpaqueAttribute.h>
#include <OpenEXR/ImfOutputFile.h>
#include <OpenEXR/ImfOutputPart.h>
#include <OpenEXR/ImfPartType.h>
#include <OpenEXR/ImfThreading.h>
#include <OpenEXR/ImfTiledInputPart.h>
#include <OpenEXR/ImfTiledOutputPart.h>
#include <OpenEXR/ImfVersion.h>

#include <climits>
#include <deque>
#include <memory>
#include <new>
#include <optional>

namespace fftb
{
namespace
{

using namespace exr;

// `attribute` as OpenEXR's attribute of its type, read from its value bytes; a type OpenEXR does not know is kept
// as the bytes given. Throws HostError when the bytes do not hold a value of a known type.
std::unique_ptr<Imf::Attribute> toOpenExr(const std::string& path, const Attribute& attribute)
{
    std::unique_ptr<Imf::Attribute> value(Imf::Attribute::knownType(attribute.type.c_str())
                                              ? Imf::Attribute::newAttribute(attribute.type.c_str())
                                              : new Imf::OpaqueAttribute(attribute.type.c_str()));
    MemoryInput in(path, attribute.value);
    try
    {
        value->readValueFrom(in, int(attribute.value.size()), Imf::EXR_VERSION);
    }
    catch (const std::exception& error)
    {
        fail(path, "attribute " + attribute.name + ": " + std::to_string(attribute.value.size()) +
                       " bytes do not hold a " + attribute.type + " (" + openExrReason(error.what()) + ")");
    }
    if (in.tellg() != attribute.value.size())
        fail(path, "attribute " + attribute.name + ": " + std::to_string(attribute.value.size()) +
                       " bytes do not hold a " + attribute.type + " (it takes " + std::to_string(in.tellg()) + ")");
    return value;
}

// The header writeExr writes: windows, compression, pixel aspect ratio, screen window, channels and attributes.
Imf::Header exrHeader(const std::string& path, const Image& image, std::optional<PixelType> override)
{
    const ImageLayout& layout = image.layout;
    const auto code = static_cast<unsigned>(layout.compression);
    if (code >= unsigned(Imf::NUM_COMPRESSION_METHODS))
        fail(path, "cannot write compression code " + std::to_string(code));
    const Box2i data = dataWindow(path, image);
    const Box2i display = layout.displayWindow.empty() ? data : layout.displayWindow;
    const auto box = [](const Box2i& b) { return Imath::Box2i({b.minX, b.minY}, {b.maxX, b.maxY}); };
    Imf::Header header(box(display), box(data), layout.pixelAspectRatio,
                       {layout.screenWindowCenter[0], layout.screenWindowCenter[1]}, layout.screenWindowWidth,
                       Imf::INCREASING_Y, Imf::Compression(code));
    for (const Channel& channel : image.channels)
    {
        if (channel.name.empty() || channel.name.size() > 255)
            fail(path, "channel name \"" + channel.name + "\" must be 1 to 255 bytes long");
        if (header.channels().findChannel(channel.name) != nullptr)
            fail(path, "two channels are called " + channel.name);
        header.channels().insert(
            channel.name, Imf::Channel(override.value_or(channel.type) == PixelType::Half ? Imf::HALF : Imf::FLOAT));
    }
    const std::vector<Attribute>& given = layout.attributes;
    for (std::size_t i = 0; i < given.size(); ++i)
    {
        const Attribute& attribute = given[i];
        for (const std::string* text : {&attribute.name, &attribute.type})
        {
            if (text->empty() || text->size() > 255 || text->find('\0') != std::string::npos)
                fail(path, "attribute " + std::string(text == &attribute.name ? "name" : "type") + " \"" + *text +
                               "\" must be 1 to 255 bytes long, without zero bytes");
        }
        if (isStructural(attribute.name))
            fail(path, "attribute " + attribute.name + " is written from the image and its layout, not as given");
        if (header.find(attribute.name) != header.end())
            fail(path, "two attributes are called " + attribute.name);
        if (attribute.value.size() > std::size_t(INT_MAX))
            fail(path, "attribute " + attribute.name + " is larger than 2 GiB");
        header.insert(attribute.name, *toOpenExr(path, attribute));
    }
    return header;
}

// A part to write: its header and its pixels, HALF channels converted (OpenEXR converts pixel types when it reads,
// not when it writes). Not copied or moved: the frame buffer points into `halves` and the image's channels.
struct PartPixels
{
    Imf::Header header;
    Imf::FrameBuffer frame;
    std::vector<std::vector<Imath::half>> halves;
    int rows = 0;
    int part = 0;

    PartPixels(const std::string& path, const Image& image, std::optional<PixelType> override)
        : header(exrHeader(path, image, override)), rows(image.height), part(image.parts.part)
    {
        const Imath::Box2i& data = header.dataWindow();
        for (const Channel& channel : image.channels)
        {
            if (header.channels()[channel.name].type == Imf::FLOAT)
            {
                frame.insert(channel.name, Imf::Slice::Make(Imf::FLOAT, channel.values.data(), data, sizeof(float),
                                                            sizeof(float) * std::size_t(image.width)));
                continue;
            }
            std::vector<Imath::half>& values = halves.emplace_back(channel.values.size());
            std::transform(channel.values.begin(), channel.values.end(), values.begin(),
                           [](float v) { return Imath::half(v); });
            frame.insert(channel.name, Imf::Slice::Make(Imf::HALF, values.data(), data, sizeof(Imath::half),
                                                        sizeof(Imath::half) * std::size_t(image.width)));
        }
    }
    PartPixels(const PartPixels&) = delete;
    PartPixels& operator=(const PartPixels&) = delete;
};

// Writes `written` (one part) as a single-part file, or each as its part of a copy of the multi-part file `image`
// was read from, every other part's blocks copied as they are.
void encodeParts(const std::string& path, const Image& image, const std::deque<PartPixels>& written, MemoryOutput& out)
{
    if (!image.parts.file)
    {
        Imf::OutputFile file(out, written.front().header, Imf::globalThreadCount());
        file.setFrameBuffer(written.front().frame);
        file.writePixels(written.front().rows);
        return;
    }
    MemoryInput stream(path, *image.parts.file);
    Imf::MultiPartInputFile input(stream, Imf::globalThreadCount());
    std::vector<const PartPixels*> pixels(std::size_t(input.parts()), nullptr);
    for (const PartPixels& part : written)
    {
        if (part.part < 0 || part.part >= input.parts())
            fail(path, "part " + std::to_string(part.part) + " is not a part of the file it was read from (" +
                           std::to_string(input.parts()) + " parts)");
        pixels[std::size_t(part.part)] = &part;
    }
    std::vector<Imf::Header> headers;
    for (int p = 0; p < input.parts(); ++p)
    {
        headers.push_back(pixels[std::size_t(p)] ? pixels[std::size_t(p)]->header : input.header(p));
        if (pixels[std::size_t(p)])
            headers.back().setType(Imf::SCANLINEIMAGE);
    }
    Imf::MultiPartOutputFile output(out, headers.data(), int(headers.size()), false, Imf::globalThreadCount());
    for (int p = 0; p < input.parts(); ++p)
    {
        if (const PartPixels* pixelsOfPart = pixels[std::size_t(p)])
        {
            Imf::OutputPart part(output, p);
            part.setFrameBuffer(pixelsOfPart->frame);
            part.writePixels(pixelsOfPart->rows);
        }
        else if (Imf::isTiled(headers[std::size_t(p)].type()))
        {
            Imf::TiledInputPart copied(input, p);
            Imf::TiledOutputPart(output, p).copyPixels(copied);
        }
        else
        {
            Imf::InputPart copied(input, p);
            Imf::OutputPart(output, p).copyPixels(copied);
        }
    }
}

} // namespace

std::vector<char> encodeExr(const std::string& path, const Image& image, std::optional<PixelType> override)
{
    checkExtent(path, image);
    for (const Image& view : image.viewParts)
        checkExtent(path, view);
    MemoryOutput out;
    try
    {
        std::deque<PartPixels> written;
        written.emplace_back(path, image, override);
        for (const Image& view : image.viewParts)
            written.emplace_back(path, view, override);
        encodeParts(path, image, written, out);
    }
    catch (const HostError&)
    {
        throw;
    }
    catch (const std::bad_alloc&)
    {
        fail(path, "not enough memory to encode it");
    }
    catch (const Iex::BaseExc& error)
    {
        fail(path, "OpenEXR encoding failed (" + openExrReason(error.what()) + ")");
    }
    catch (const std::exception& error)
    {
        fail(path, "OpenEXR encoding failed (" + openExrReason(error.what()) + ")");
    }
    return std::move(out.bytes);
}

void writeExr(const std::string& path, const Image& image, std::optional<PixelType> override)
{
    const std::vector<char> bytes = encodeExr(path, image, override);
    writeFileAtomically(path, bytes.data(), bytes.size());
}

} // namespace fftb
