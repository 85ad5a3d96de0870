// Reads OpenEXR and Radiance .hdr images; writes OpenEXR files and PNG previews whole or not at all.
#include "image_io.h"

#include "host_error.h"

#include <stb_image.h>
#include <stb_image_write.h>
#include <tinyexr.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <numeric>
#include <random>

namespace fftb
{
namespace
{

[[noreturn]] void fail(const std::string& path, const std::string& reason)
{
    throw HostError(path + ": " + reason);
}

/// Closes a POSIX file descriptor on every path out of a scope.
struct FileDescriptor
{
    int fd = -1;
    explicit FileDescriptor(int descriptor) : fd(descriptor) {}
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    ~FileDescriptor()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

// One read of the whole file: the format is decided on the same bytes that are decoded, and every failure
// to open or read has an errno to report.
std::vector<unsigned char> readFile(const std::string& path)
{
    FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (file.fd < 0)
        fail(path, errno == ENOENT ? std::string("no such file") : std::strerror(errno));
    struct stat info = {};
    if (::fstat(file.fd, &info) != 0)
        fail(path, std::strerror(errno));
    if (S_ISDIR(info.st_mode))
        fail(path, "is a folder, not an image");

    std::vector<unsigned char> bytes;
    unsigned char chunk[1 << 16];
    for (;;)
    {
        const ssize_t got = ::read(file.fd, chunk, sizeof chunk);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            fail(path, std::strerror(errno));
        if (got == 0)
            return bytes;
        bytes.insert(bytes.end(), chunk, chunk + got);
    }
}

bool startsWith(const std::vector<unsigned char>& bytes, const char* prefix, std::size_t length)
{
    return bytes.size() >= length && std::memcmp(bytes.data(), prefix, length) == 0;
}

/// tinyexr's error strings end in newlines and may hold several lines; a HostError is one line.
std::string oneLine(const char* message, int code)
{
    std::string text = message ? message : "tinyexr error " + std::to_string(code);
    std::replace(text.begin(), text.end(), '\n', ' ');
    text.erase(text.find_last_not_of(' ') + 1);
    return text;
}

struct ExrErrorMessage
{
    const char* text = nullptr;
    ExrErrorMessage() = default;
    ExrErrorMessage(const ExrErrorMessage&) = delete;
    ExrErrorMessage& operator=(const ExrErrorMessage&) = delete;
    ~ExrErrorMessage() { FreeEXRErrorMessage(text); }
};

struct ExrHeader
{
    EXRHeader header;
    ExrHeader() { InitEXRHeader(&header); }
    ExrHeader(const ExrHeader&) = delete;
    ExrHeader& operator=(const ExrHeader&) = delete;
    ~ExrHeader() { FreeEXRHeader(&header); }
};

// tinyexr frees a partly decoded image itself when loading fails but leaves the pointers dangling, so the
// image is freed here only once loading has succeeded.
struct ExrImage
{
    EXRImage image;
    bool loaded = false;
    ExrImage() { InitEXRImage(&image); }
    ExrImage(const ExrImage&) = delete;
    ExrImage& operator=(const ExrImage&) = delete;
    ~ExrImage()
    {
        if (loaded)
            FreeEXRImage(&image);
    }
};

// tinyexr refuses B44, DWA and PXR24 with "Unknown compression type." before it fills in the header, so the
// compression attribute is read here to name it. Also rejects a malformed compression attribute that tinyexr
// would index without a size check.
void checkCompression(const std::string& path, const std::vector<unsigned char>& bytes)
{
    static const char* const names[] = {"NONE", "RLE", "ZIPS", "ZIP", "PIZ", "PXR24", "B44", "B44A", "DWAA", "DWAB"};
    constexpr unsigned lastDecoded = TINYEXR_COMPRESSIONTYPE_PIZ;
    const std::size_t end = bytes.size();
    std::size_t at = 8; // magic number and version field
    while (at < end && bytes[at] != 0)
    {
        const auto nameEnd = std::find(bytes.begin() + long(at), bytes.end(), 0);
        if (nameEnd == bytes.end())
            return;
        const std::string name(bytes.begin() + long(at), nameEnd);
        const auto typeEnd = std::find(nameEnd + 1, bytes.end(), 0);
        if (typeEnd == bytes.end() || std::size_t(bytes.end() - typeEnd) < 5)
            return; // truncated; tinyexr reports it
        const std::size_t sizeAt = std::size_t(typeEnd - bytes.begin()) + 1;
        const std::uint32_t size = std::uint32_t(bytes[sizeAt]) | std::uint32_t(bytes[sizeAt + 1]) << 8 |
                                   std::uint32_t(bytes[sizeAt + 2]) << 16 | std::uint32_t(bytes[sizeAt + 3]) << 24;
        const std::size_t valueAt = sizeAt + 4;
        if (name == "compression")
        {
            if (size != 1 || valueAt >= end)
                fail(path, "corrupt or truncated OpenEXR (bad compression attribute)");
            const unsigned value = bytes[valueAt];
            if (value > lastDecoded)
                fail(path, "unsupported compression " + (value < std::size(names) ? std::string(names[value])
                                                                                  : "code " + std::to_string(value)));
            return;
        }
        if (size > end - valueAt)
            return;
        at = valueAt + size;
    }
}

Image readExr(const std::string& path, const std::vector<unsigned char>& bytes)
{
    const auto corrupt = [&](const char* message, int code)
    { fail(path, "corrupt or truncated OpenEXR (" + oneLine(message, code) + ")"); };

    EXRVersion version = {};
    if (const int code = ParseEXRVersionFromMemory(&version, bytes.data(), bytes.size()); code != TINYEXR_SUCCESS)
        corrupt(nullptr, code);
    if (version.multipart || version.non_image)
        fail(path, "multi-part and deep OpenEXR files are not supported");
    checkCompression(path, bytes);

    ExrHeader header;
    {
        ExrErrorMessage error;
        const int code = ParseEXRHeaderFromMemory(&header.header, &version, bytes.data(), bytes.size(), &error.text);
        if (code != TINYEXR_SUCCESS)
            corrupt(error.text, code);
    }
    EXRHeader& h = header.header;
    std::vector<PixelType> types(std::size_t(h.num_channels));
    for (int c = 0; c < h.num_channels; ++c)
    {
        const EXRChannelInfo& channel = h.channels[c];
        if (h.pixel_types[c] == TINYEXR_PIXELTYPE_UINT)
            fail(path, std::string("channel ") + channel.name + " is UINT; only HALF and FLOAT are supported");
        if (channel.x_sampling != 1 || channel.y_sampling != 1)
            fail(path, std::string("channel ") + channel.name + " is subsampled, which is not supported");
        types[std::size_t(c)] = h.pixel_types[c] == TINYEXR_PIXELTYPE_HALF ? PixelType::Half : PixelType::Float;
        h.requested_pixel_types[c] = TINYEXR_PIXELTYPE_FLOAT;
    }

    ExrImage exr;
    // tinyexr frees the planes of a failed scanline decode only up to num_channels, which it sets only on
    // success; without this every corrupt file leaks its decoded planes.
    exr.image.num_channels = h.num_channels;
    {
        ExrErrorMessage error;
        const int code = LoadEXRImageFromMemory(&exr.image, &h, bytes.data(), bytes.size(), &error.text);
        if (code != TINYEXR_SUCCESS)
            corrupt(error.text, code);
        exr.loaded = true;
    }
    const EXRImage& e = exr.image;

    Image image;
    image.width = e.width;
    image.height = e.height;
    const std::size_t texels = std::size_t(e.width) * std::size_t(e.height);
    for (int c = 0; c < h.num_channels; ++c)
    {
        Channel channel{h.channels[c].name, types[std::size_t(c)], std::vector<float>(texels)};
        if (!h.tiled)
        {
            const auto* values = reinterpret_cast<const float*>(e.images[c]);
            std::copy(values, values + texels, channel.values.begin());
        }
        else
        {
            // Tiles hold tile_size_x * tile_size_y values whatever their clipped extent; only the top level of a
            // mipmapped file is read.
            for (int t = 0; t < e.num_tiles; ++t)
            {
                const EXRTile& tile = e.tiles[t];
                // tinyexr takes tile coordinates from the file without checking their sign or range.
                const long x0 = long(tile.offset_x) * h.tile_size_x;
                const long y0 = long(tile.offset_y) * h.tile_size_y;
                if (x0 < 0 || y0 < 0 || tile.width < 0 || tile.height < 0 || tile.width > h.tile_size_x ||
                    tile.height > h.tile_size_y || x0 + tile.width > e.width || y0 + tile.height > e.height)
                    corrupt("tile coordinates out of range", 0);
                const auto* values = reinterpret_cast<const float*>(tile.images[c]);
                for (int y = 0; y < tile.height; ++y)
                {
                    const float* row = values + std::size_t(y) * std::size_t(h.tile_size_x);
                    std::copy(row, row + tile.width,
                              channel.values.begin() +
                                  long(std::size_t(y0 + y) * std::size_t(e.width) + std::size_t(x0)));
                }
            }
        }
        image.channels.push_back(std::move(channel));
    }
    return image;
}

Image readHdr(const std::string& path, const std::vector<unsigned char>& bytes)
{
    if (bytes.size() > std::size_t(INT_MAX))
        fail(path, "Radiance .hdr file larger than 2 GiB");
    int width = 0;
    int height = 0;
    int components = 0;
    const std::unique_ptr<float, void (*)(void*)> rgb(
        stbi_loadf_from_memory(bytes.data(), int(bytes.size()), &width, &height, &components, 3), stbi_image_free);
    if (!rgb)
        fail(path, std::string("corrupt or truncated Radiance .hdr (") + stbi_failure_reason() + ")");

    Image image;
    image.width = width;
    image.height = height;
    const std::size_t texels = std::size_t(width) * std::size_t(height);
    const char* const names[] = {"R", "G", "B"};
    for (std::size_t c = 0; c < 3; ++c)
    {
        Channel channel{names[c], PixelType::Float, std::vector<float>(texels)};
        for (std::size_t i = 0; i < texels; ++i)
            channel.values[i] = rgb.get()[i * 3 + c];
        image.channels.push_back(std::move(channel));
    }
    return image;
}

/// Removes the temporary file on every path out of writeWhole that does not end in the rename.
struct TemporaryFile
{
    std::string path;
    int fd = -1;
    bool renamed = false;
    TemporaryFile() = default;
    TemporaryFile(const TemporaryFile&) = delete;
    TemporaryFile& operator=(const TemporaryFile&) = delete;
    ~TemporaryFile()
    {
        if (fd >= 0)
            ::close(fd);
        if (!path.empty() && !renamed)
            ::unlink(path.c_str());
    }
};

// Same folder as the destination, so the rename is atomic; O_EXCL rather than mkstemp so the file gets the
// usual umask-derived mode instead of 0600.
void createTemporary(const std::string& path, TemporaryFile& temporary)
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    std::random_device seed;
    std::mt19937 random(seed());
    std::uniform_int_distribution<std::size_t> pick(0, sizeof alphabet - 2);
    for (int attempt = 0; attempt < 100; ++attempt)
    {
        std::string name = path + ".tmp-";
        for (int i = 0; i < 6; ++i)
            name += alphabet[pick(random)];
        const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0)
        {
            temporary.path = std::move(name);
            temporary.fd = fd;
            return;
        }
        if (errno == ENOENT)
            fail(path, "no such folder");
        if (errno != EEXIST)
            fail(path, std::string("cannot create a file beside it: ") + std::strerror(errno));
    }
    fail(path, "cannot create a temporary file beside it: too many name clashes");
}

void writeWhole(const std::string& path, const unsigned char* data, std::size_t size)
{
    TemporaryFile temporary;
    createTemporary(path, temporary);
    for (std::size_t done = 0; done < size;)
    {
        const ssize_t wrote = ::write(temporary.fd, data + done, size - done);
        if (wrote < 0 && errno == EINTR)
            continue;
        if (wrote < 0)
            fail(path, std::strerror(errno));
        done += std::size_t(wrote);
    }
    // Without the fsync a crash after the rename can leave an empty file under the final name.
    if (::fsync(temporary.fd) != 0)
        fail(path, std::strerror(errno));
    const int fd = temporary.fd;
    temporary.fd = -1;
    if (::close(fd) != 0)
        fail(path, std::strerror(errno));
    if (::rename(temporary.path.c_str(), path.c_str()) != 0)
        fail(path, std::strerror(errno));
    temporary.renamed = true;
}

void checkExtent(const std::string& path, const Image& image)
{
    if (image.width <= 0 || image.height <= 0)
        fail(path, "image is empty (" + std::to_string(image.width) + "x" + std::to_string(image.height) + ")");
    const std::size_t texels = std::size_t(image.width) * std::size_t(image.height);
    for (const Channel& channel : image.channels)
    {
        if (channel.values.size() != texels)
            fail(path, "channel " + channel.name + " has " + std::to_string(channel.values.size()) +
                           " values, expected " + std::to_string(texels));
    }
}

const Channel& rgbChannel(const std::string& what, const Image& image, int index)
{
    static const char* const names[] = {"R", "G", "B"};
    const int c = image.find(names[index]);
    if (c < 0)
        fail(what, "no R, G, B channels");
    return image.channels[std::size_t(c)];
}

float srgbEncode(float linear)
{
    return linear <= 0.0031308f ? 12.92f * linear : 1.055f * std::pow(linear, 1.0f / 2.4f) - 0.055f;
}

} // namespace

Image readImage(const std::string& path)
{
    const std::vector<unsigned char> bytes = readFile(path);
    Image image;
    if (startsWith(bytes, "\x76\x2f\x31\x01", 4))
        image = readExr(path, bytes);
    else if (startsWith(bytes, "#?RADIANCE", 10) || startsWith(bytes, "#?RGBE", 6))
        image = readHdr(path, bytes);
    else
        fail(path, "not an OpenEXR or Radiance .hdr image");
    if (image.find("R") < 0 || image.find("G") < 0 || image.find("B") < 0)
        fail(path, "no R, G, B channels");
    return image;
}

void writeExr(const std::string& path, const Image& image, std::optional<PixelType> override)
{
    checkExtent(path, image);
    if (image.channels.empty())
        fail(path, "image has no channels");

    // OpenEXR readers lay pixel data out in the order of the channel list, which they keep sorted by name, so
    // the list must be written sorted however the image orders its channels.
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
        const PixelType stored = override.value_or(channel.type);
        storedTypes[i] = stored == PixelType::Half ? TINYEXR_PIXELTYPE_HALF : TINYEXR_PIXELTYPE_FLOAT;
        // tinyexr only reads the planes; its API is not const-correct.
        planes[i] = reinterpret_cast<unsigned char*>(const_cast<float*>(channel.values.data()));
    }

    // Arrays are owned by the vectors above, so the header is not given to FreeEXRHeader.
    EXRHeader header;
    InitEXRHeader(&header);
    header.num_channels = int(count);
    header.channels = infos.data();
    header.pixel_types = inputTypes.data();
    header.requested_pixel_types = storedTypes.data();
    header.compression_type = TINYEXR_COMPRESSIONTYPE_ZIP;
    header.long_name = longNames ? 1 : 0;

    EXRImage exr;
    InitEXRImage(&exr);
    exr.num_channels = int(count);
    exr.width = image.width;
    exr.height = image.height;
    exr.images = planes.data();

    unsigned char* memory = nullptr;
    ExrErrorMessage error;
    const std::size_t size = SaveEXRImageToMemory(&exr, &header, &memory, &error.text);
    const std::unique_ptr<unsigned char, void (*)(void*)> owned(memory, std::free);
    if (size == 0)
        fail(path, "OpenEXR encoding failed (" + oneLine(error.text, 0) + ")");
    writeWhole(path, memory, size);
}

void writePngPreview(const std::string& path, const Image& image, float exposure)
{
    checkExtent(path, image);
    const Channel* rgb[] = {&rgbChannel(path, image, 0), &rgbChannel(path, image, 1), &rgbChannel(path, image, 2)};
    const float scale = std::exp2(exposure);
    const std::size_t texels = std::size_t(image.width) * std::size_t(image.height);
    std::vector<unsigned char> pixels(texels * 3);
    for (std::size_t i = 0; i < texels; ++i)
    {
        for (std::size_t c = 0; c < 3; ++c)
        {
            // max() also maps NaN to 0; +inf tonemaps to NaN, so it is pinned to white.
            const float x = std::max(rgb[c]->values[i] * scale, 0.0f);
            const float mapped = std::isinf(x) ? 1.0f : x / (1.0f + x);
            pixels[i * 3 + c] = static_cast<unsigned char>(std::lround(srgbEncode(mapped) * 255.0f));
        }
    }

    std::vector<unsigned char> png;
    const auto append = [](void* context, void* data, int size)
    {
        auto* out = static_cast<std::vector<unsigned char>*>(context);
        const auto* bytes = static_cast<const unsigned char*>(data);
        out->insert(out->end(), bytes, bytes + size);
    };
    if (image.width > INT_MAX / 3 ||
        !stbi_write_png_to_func(append, &png, image.width, image.height, 3, pixels.data(), image.width * 3))
        fail(path, "PNG encoding failed");
    writeWhole(path, png.data(), png.size());
}

Texels toRgba(const Image& image)
{
    checkExtent("image", image);
    const Channel* channels[] = {&rgbChannel("image", image, 0), &rgbChannel("image", image, 1),
                                 &rgbChannel("image", image, 2), nullptr};
    if (const int a = image.find("A"); a >= 0)
        channels[3] = &image.channels[std::size_t(a)];

    Texels rgba(image.width, image.height, 4);
    const std::size_t texels = std::size_t(image.width) * std::size_t(image.height);
    for (std::size_t i = 0; i < texels; ++i)
    {
        for (std::size_t c = 0; c < 4; ++c)
            rgba.values[i * 4 + c] = channels[c] ? channels[c]->values[i] : 1.0f;
    }
    return rgba;
}

Image withRgb(const Image& image, const Texels& rgba)
{
    if (rgba.width != image.width || rgba.height != image.height || rgba.components < 3)
        fail("texels", std::to_string(rgba.width) + "x" + std::to_string(rgba.height) + "x" +
                           std::to_string(rgba.components) + " do not give R, G, B for a " +
                           std::to_string(image.width) + "x" + std::to_string(image.height) + " image");
    checkExtent("image", image);
    Image result = image;
    const std::size_t texels = std::size_t(image.width) * std::size_t(image.height);
    const auto components = std::size_t(rgba.components);
    for (std::size_t c = 0; c < 3; ++c)
    {
        static const char* const names[] = {"R", "G", "B"};
        const int index = result.find(names[c]);
        if (index < 0)
            fail("image", "no R, G, B channels");
        std::vector<float>& values = result.channels[std::size_t(index)].values;
        for (std::size_t i = 0; i < texels; ++i)
            values[i] = rgba.values[i * components + c];
    }
    return result;
}

} // namespace fftb
