// SPDX-License-Identifier: MIT
// What the OpenEXR reader (image_io.cpp) and writer (exr_write.cpp) share: errors naming the file, OpenEXR streams
// over bytes in memory, the attributes that describe a file's structure, an image's extent and data window checked.
#pragma once

#include "host_error.h"
#include "image/image.h"

#include <OpenEXR/Iex.h>
#include <OpenEXR/ImfIO.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace fftb::exr
{

[[noreturn]] inline void fail(const std::string& path, const std::string& reason)
{
    throw HostError(path + ": " + reason);
}

[[noreturn]] inline void failCorrupt(const std::string& path, const std::string& what)
{
    fail(path, "corrupt or truncated OpenEXR (" + what + ")");
}

// Header attributes that describe the file's structure rather than the image: the layout's own fields, and what a
// single-part scanline file must not carry. Never copied as custom attributes, in either direction.
inline bool isStructural(std::string_view name)
{
    static constexpr std::string_view names[] = {
        "channels",           "compression",       "dataWindow", "displayWindow", "lineOrder",  "pixelAspectRatio",
        "screenWindowCenter", "screenWindowWidth", "tiles",      "type",          "chunkCount", "version",
        "maxSamplesPerPixel"};
    return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

// The bytes of a file already in memory as OpenEXR's input stream: reads past the end throw, as a file's would.
class MemoryInput final : public Imf::IStream
{
  public:
    MemoryInput(const std::string& path, const std::vector<unsigned char>& bytes)
        : Imf::IStream(path.c_str()), bytes_(bytes)
    {
    }
    bool read(char c[], int n) override
    {
        if (n < 0 || at_ > bytes_.size() || std::size_t(n) > bytes_.size() - at_)
            throw Iex::InputExc("the file ends early");
        if (n == 0) // OpenEXR asks for nothing into no buffer: memcpy must not see the null pointer
            return at_ < bytes_.size();
        std::memcpy(c, bytes_.data() + at_, std::size_t(n));
        at_ += std::size_t(n);
        return at_ < bytes_.size();
    }
    std::uint64_t tellg() override { return at_; }
    void seekg(std::uint64_t pos) override { at_ = pos; }

  private:
    const std::vector<unsigned char>& bytes_;
    std::uint64_t at_ = 0;
};

// An OpenEXR output stream into memory: OpenEXR seeks back to fill in the offset table once the blocks are written.
class MemoryOutput final : public Imf::OStream
{
  public:
    MemoryOutput() : Imf::OStream("memory") {}
    void write(const char c[], int n) override
    {
        if (n <= 0)
            return;
        if (bytes.size() < at_ + std::size_t(n))
            bytes.resize(at_ + std::size_t(n));
        std::memcpy(bytes.data() + at_, c, std::size_t(n));
        at_ += std::size_t(n);
    }
    std::uint64_t tellp() override { return at_; }
    void seekp(std::uint64_t pos) override { at_ = pos; }
    std::vector<char> bytes;

  private:
    std::uint64_t at_ = 0;
};

// OpenEXR's reason, one line (its messages may span lines).
inline std::string openExrReason(std::string text)
{
    std::replace(text.begin(), text.end(), '\n', ' ');
    text.erase(text.find_last_not_of(' ') + 1);
    return text.empty() ? "no reason given" : text;
}

/// Throws HostError "<path>: <reason>" unless `image` has texels (at most 2^28) and each channel width x height values.
void checkExtent(const std::string& path, const Image& image);

/// The data window an image of its extent is written with: the layout's, or at the origin when that is empty. Throws
/// HostError "<path>: <reason>" when the layout's is not the image's extent.
Box2i dataWindow(const std::string& path, const Image& image);

} // namespace fftb::exr
