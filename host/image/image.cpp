// SPDX-License-Identifier: MIT
// In-memory image helpers: channel lookup, and conversion to and from interleaved RGBA texels.
#include "image/image.h"

#include "host_error.h"
#include "image/image_io.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace fftb
{
namespace
{

// Indices of the R, G and B channels, each checked to hold width * height values.
std::array<std::size_t, 3> rgbChannels(const Image& image)
{
    const std::array<int, 3> found = {image.find(image.colourChannel("R")), image.find(image.colourChannel("G")),
                                      image.find(image.colourChannel("B"))};
    std::array<std::size_t, 3> indices = {};
    for (std::size_t c = 0; c < 3; ++c)
    {
        if (found[c] < 0)
            throw HostError("image: no " + image.colourChannel("R") + ", " + image.colourChannel("G") + ", " +
                            image.colourChannel("B") + " channels");
        indices[c] = std::size_t(found[c]);
        if (image.channels[indices[c]].values.size() != std::size_t(image.width) * std::size_t(image.height))
            throw HostError("image: channel " + image.channels[indices[c]].name + " does not hold " +
                            std::to_string(image.width) + "x" + std::to_string(image.height) + " values");
    }
    return indices;
}

/// Whether the attribute called `name` is one in which the software that wrote a file names itself.
bool namesItsSoftware(const std::string& name)
{
    return name == "software" || name == "Software" || name == "writer" || name.rfind("nuke/", 0) == 0;
}

} // namespace

int Image::find(const std::string& name) const
{
    for (std::size_t i = 0; i < channels.size(); ++i)
    {
        if (channels[i].name == name)
            return static_cast<int>(i);
    }
    return -1;
}

const std::vector<std::string>& compressionNames()
{
    static const std::vector<std::string> names{"none",  "rle", "zips", "zip",  "piz",
                                                "pxr24", "b44", "b44a", "dwaa", "dwab"};
    return names;
}

bool isLossy(Compression compression, PixelType type, const std::string& name)
{
    switch (compression)
    {
    case Compression::Pxr24:
        return type == PixelType::Float;
    case Compression::B44:
    case Compression::B44a:
        return type == PixelType::Half;
    case Compression::Dwaa:
    case Compression::Dwab:
    {
        const std::string suffix = name.substr(name.rfind('.') + 1); // npos + 1: the whole name
        return suffix == "R" || suffix == "G" || suffix == "B" || suffix == "Y" || suffix == "BY" || suffix == "RY";
    }
    default:
        return false;
    }
}

void growDataWindow(Image& image, const Box2i& window)
{
    const Box2i old =
        image.layout.dataWindow.empty() ? Box2i{0, 0, image.width - 1, image.height - 1} : image.layout.dataWindow;
    if (window.minX > old.minX || window.minY > old.minY || window.maxX < old.maxX || window.maxY < old.maxY)
        throw HostError("image: the data window can only grow");
    const int width = window.maxX - window.minX + 1, height = window.maxY - window.minY + 1;
    for (Channel& channel : image.channels)
    {
        std::vector<float> grown(std::size_t(width) * std::size_t(height), 0.0f);
        for (int y = 0; y < image.height; ++y)
            std::copy_n(channel.values.begin() + std::ptrdiff_t(y) * image.width, image.width,
                        grown.begin() + (std::ptrdiff_t(y) + old.minY - window.minY) * width + old.minX - window.minX);
        channel.values = std::move(grown);
    }
    image.width = width;
    image.height = height;
    image.layout.dataWindow = window;
}

std::vector<Attribute> inheritedAttributes(const std::vector<Attribute>& input, const std::vector<Attribute>& added)
{
    const std::string prefix = kInputAttributePrefix;
    // An input bloomed before carries its own input's as prefix + name: the input's own software replaces them.
    const auto replaced = [&](const std::string& name)
    {
        return name.rfind(prefix, 0) == 0 && namesItsSoftware(name.substr(prefix.size())) &&
               std::any_of(input.begin(), input.end(),
                           [&](const Attribute& b) { return b.name == name.substr(prefix.size()); });
    };
    std::vector<Attribute> attributes;
    for (Attribute a : input)
    {
        if (replaced(a.name))
            continue;
        if (namesItsSoftware(a.name))
            a.name = prefix + a.name;
        if (std::none_of(added.begin(), added.end(), [&a](const Attribute& b) { return b.name == a.name; }))
            attributes.push_back(std::move(a));
    }
    attributes.insert(attributes.end(), added.begin(), added.end());
    return attributes;
}

std::string Image::colourChannel(const std::string& component) const
{
    const std::string prefix = layer.empty() ? "" : layer + ".";
    std::string name = prefix + component;
    if (find(name) >= 0)
        return name;
    std::string lower = prefix;
    for (const char c : component)
        lower += char(std::tolower(static_cast<unsigned char>(c)));
    return find(lower) >= 0 ? lower : name;
}

Texels toRgba(const Image& image)
{
    const auto rgb = rgbChannels(image);
    const int alpha = image.find(image.colourChannel("A"));
    if (alpha >= 0 && image.channels[std::size_t(alpha)].values.size() != image.channels[rgb[0]].values.size())
        throw HostError("image: channel " + image.colourChannel("A") + " does not hold " + std::to_string(image.width) +
                        "x" + std::to_string(image.height) + " values");
    Texels rgba(image.width, image.height, 4);
    const std::size_t texels = std::size_t(image.width) * std::size_t(image.height);
    for (std::size_t i = 0; i < texels; ++i)
    {
        for (std::size_t c = 0; c < 3; ++c)
            rgba.values[i * 4 + c] = image.channels[rgb[c]].values[i];
        rgba.values[i * 4 + 3] = alpha < 0 ? 1.0f : image.channels[std::size_t(alpha)].values[i];
    }
    return rgba;
}

void setRgb(Image& image, const Texels& rgba)
{
    const auto rgb = rgbChannels(image);
    if (rgba.width != image.width || rgba.height != image.height || rgba.components < 3 ||
        rgba.values.size() != std::size_t(rgba.width) * std::size_t(rgba.height) * std::size_t(rgba.components))
        throw HostError("texels: " + std::to_string(rgba.width) + "x" + std::to_string(rgba.height) + "x" +
                        std::to_string(rgba.components) + " do not give R, G, B for a " + std::to_string(image.width) +
                        "x" + std::to_string(image.height) + " image");
    const std::size_t texels = std::size_t(image.width) * std::size_t(image.height);
    for (std::size_t c = 0; c < 3; ++c)
    {
        for (std::size_t i = 0; i < texels; ++i)
            image.channels[rgb[c]].values[i] = rgba.values[i * std::size_t(rgba.components) + c];
    }
}

Image withRgb(const Image& image, const Texels& rgba)
{
    Image result = image;
    setRgb(result, rgba);
    return result;
}

const Channel& maskChannel(const Image& image, const std::string& name)
{
    std::vector<std::string> candidates;
    if (!name.empty())
    {
        if (!image.layer.empty())
            candidates.push_back(image.layer + "." + name);
        candidates.push_back(name);
    }
    const std::string prefix = name.empty() ? "" : name + ".";
    for (const char* component : {"A", "Y", "R"})
        candidates.push_back(prefix + component);
    for (const std::string& candidate : candidates)
        if (const int at = image.find(candidate); at >= 0)
            return image.channels[std::size_t(at)];
    if (name.empty() && image.channels.size() == 1)
        return image.channels.front();
    std::string list;
    for (const Channel& c : image.channels)
        list += (list.empty() ? "" : ", ") + c.name;
    throw HostError(name.empty() ? "no A, Y or R channel for a mask (its channels: " + list + ")"
                                 : "no channel or layer '" + name + "' for a mask (its channels: " + list + ")");
}

void setMaskAlpha(Texels& rgba, const std::vector<float>& mask)
{
    const std::size_t texels = std::size_t(rgba.width) * std::size_t(rgba.height);
    if (rgba.components != 4 || mask.size() != texels)
        throw HostError("mask: " + std::to_string(mask.size()) + " values for " + std::to_string(rgba.width) + "x" +
                        std::to_string(rgba.height) + " texels");
    for (std::size_t i = 0; i < texels; ++i)
        rgba.values[i * 4 + 3] = mask[i] >= 0.0f ? std::min(mask[i], 1.0f) : 0.0f; // NaN fails >= 0
}

} // namespace fftb
