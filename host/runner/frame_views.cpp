// SPDX-License-Identifier: MIT
// The names of a frame's views, the parts its output writes, and its previews.
#include "runner/frame_views.h"

#include "host_error.h"
#include "image/image_io.h"

#include <algorithm>
#include <cstring>

namespace fftb
{

/// The names of the views forEachView goes through, of a stereo image; empty for an image of one view.
std::vector<std::string> viewNames(const Image& image)
{
    if (image.view.empty())
        return {};
    std::vector<std::string> names{image.view};
    for (const auto& view : image.viewLayers)
        names.push_back(view.first);
    for (const Image& part : image.viewParts)
        names.push_back(part.view);
    return names;
}

/// The preview of `image` at `path` (kViewToken): each view at its display window, side by side in one PNG (left to
/// right in their order, black below a shorter one), or a PNG per view with kViewToken in `path` its name.
void writePreviews(const std::string& path, Image& image, float exposure, const OcioDisplay* display)
{
    std::vector<Texels> views;
    forEachView(image,
                [&](Image& view, std::size_t)
                {
                    try
                    {
                        views.push_back(displayWindowRgba(view));
                    }
                    catch (const HostError& e)
                    {
                        throw HostError(path + ": " + e.what());
                    }
                });
    if (const std::size_t token = path.find(kViewToken); token != std::string::npos)
    {
        const std::vector<std::string> names = image.view.empty() ? std::vector<std::string>{"main"} : viewNames(image);
        for (std::size_t k = 0; k < views.size(); ++k)
            writePngPreview(std::string(path).replace(token, std::strlen(kViewToken), names[k]), views[k], exposure,
                            display);
        return;
    }
    if (views.size() == 1)
        return writePngPreview(path, views.front(), exposure, display);
    int width = 0, height = 0;
    for (const Texels& view : views)
    {
        width += view.width;
        height = std::max(height, view.height);
    }
    Texels both(width, height, 4);
    int left = 0;
    for (const Texels& view : views)
    {
        for (int y = 0; y < view.height; ++y)
            std::copy_n(&view.values[std::size_t(y) * std::size_t(view.width) * 4], std::size_t(view.width) * 4,
                        &both.values[(std::size_t(y) * std::size_t(width) + std::size_t(left)) * 4]);
        left += view.width;
    }
    writePngPreview(path, both, exposure, display);
}

/// The parts a frame's output writes from its pixels: the image's, and its views' that are parts of their own.
std::vector<Image*> partsWritten(Image& image)
{
    std::vector<Image*> parts{&image};
    for (Image& view : image.viewParts)
        parts.push_back(&view);
    return parts;
}

std::vector<float> frameMask(const Image& view, const std::string& viewPath, const MaskSettings& mask,
                             const Image* maskFile, const std::string& maskPath)
{
    const auto named = [](const std::string& path, const auto& read)
    {
        try
        {
            return read();
        }
        catch (const HostError& e)
        {
            throw HostError(path + ": " + e.what());
        }
    };
    if (!maskFile)
        return named(viewPath, [&] { return maskChannel(view, mask.source).values; });
    const auto windowOf = [](const Image& image, bool display)
    {
        const Box2i& data = image.layout.dataWindow;
        const Box2i window = data.empty() ? Box2i{0, 0, image.width - 1, image.height - 1} : data;
        return display && !image.layout.displayWindow.empty() ? image.layout.displayWindow : window;
    };
    const auto text = [](const Box2i& b)
    {
        return std::to_string(b.minX) + "," + std::to_string(b.minY) + " .. " + std::to_string(b.maxX) + "," +
               std::to_string(b.maxY);
    };
    const Box2i frame = windowOf(view, true), matteFrame = windowOf(*maskFile, true);
    if (frame.minX != matteFrame.minX || frame.minY != matteFrame.minY || frame.maxX != matteFrame.maxX ||
        frame.maxY != matteFrame.maxY)
        throw HostError(maskPath + ": a mask of display window " + text(matteFrame) + ", not the frame's " +
                        text(frame));
    const Channel* channel = named(maskPath, [&] { return &maskChannel(*maskFile, ""); });
    const Box2i data = windowOf(view, false), matteData = windowOf(*maskFile, false);
    std::vector<float> values(std::size_t(view.width) * std::size_t(view.height), 0.0f);
    for (int y = std::max(data.minY, matteData.minY); y <= std::min(data.maxY, matteData.maxY); ++y)
        for (int x = std::max(data.minX, matteData.minX); x <= std::min(data.maxX, matteData.maxX); ++x)
            values[std::size_t(y - data.minY) * std::size_t(view.width) + std::size_t(x - data.minX)] =
                channel->values[std::size_t(y - matteData.minY) * std::size_t(maskFile->width) +
                                std::size_t(x - matteData.minX)];
    return values;
}

} // namespace fftb
