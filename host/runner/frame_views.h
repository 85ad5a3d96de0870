// SPDX-License-Identifier: MIT
// The views of a frame's image as the bloom takes them (docs/exr.md, "Views"), the parts its output writes, and its
// previews.
#pragma once

#include "image/image.h"
#include "image/ocio_display.h"
#include "settings/bloom_settings.h"

#include <cstddef>
#include <string>
#include <vector>

namespace fftb
{

/// In a preview's path, a view's name: a PNG per view of a stereo frame (Nuke's %V; --preview-pattern's {view}), "main"
/// for a frame of one view. Without it a stereo frame's views are side by side in one PNG.
inline constexpr const char* kViewToken = "%V";

/// Calls `action(view, k)` for each view k of `image` the bloom takes, in order: the image itself, each of its
/// viewLayers (the image with that layer), each of its viewParts.
template <typename Action> void forEachView(Image& image, const Action& action)
{
    action(image, std::size_t(0));
    std::size_t k = 1;
    const std::string own = image.layer;
    for (const auto& view : image.viewLayers)
    {
        image.layer = view.second;
        action(image, k++);
    }
    image.layer = own;
    for (Image& part : image.viewParts)
        action(part, k++);
}

/// The matte of `view`, read from `viewPath` (MaskSettings, maskChannel), one value per texel of its data window:
/// `maskFile`'s A, Y or R where it is given (read from `maskPath` with ImageSelection::matte), placed by data windows,
/// 0 outside its own; else the view's channel or layer mask.source. Throws HostError naming the mask file when its
/// display window is not the view's (the same frame size) or it has no A, Y or R, or naming `viewPath` and the channel
/// or layer when the view has none.
std::vector<float> frameMask(const Image& view, const std::string& viewPath, const MaskSettings& mask,
                             const Image* maskFile, const std::string& maskPath);

/// The names of the views forEachView goes through, of a stereo image; empty for an image of one view.
std::vector<std::string> viewNames(const Image& image);

/// The parts a frame's output writes from its pixels: the image's, and its views' that are parts of their own.
std::vector<Image*> partsWritten(Image& image);

/// The preview of `image` at `path` (writePngPreview, through `display` when given): each view at its display window,
/// side by side in one PNG (left to right in their order, black below a shorter one), or a PNG per view with
/// kViewToken in `path` its name. Throws HostError naming the file.
void writePreviews(const std::string& path, Image& image, float exposure, const OcioDisplay* display);

} // namespace fftb
