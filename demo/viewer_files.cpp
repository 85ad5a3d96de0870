// SPDX-License-Identifier: MIT
// Files: the image read (EXR, .hdr; a placeholder scene when there is none) and the output written (EXR and PNG). The
// viewer's state is not touched here.
#include "viewer_internal.h"

#include "image/image_io.h"
#include "image/scrub.h"
#include "runner/frame_views.h"
#include "runner/frames.h"
#include "runner/restore.h"

#include <stb_image_write.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <optional>

namespace fftb::viewer
{

Texels placeholderScene()
{
    Texels t(640, 400, 4);
    for (int y = 0; y < t.height; ++y)
        for (int x = 0; x < t.width; ++x)
        {
            const float g = 0.02f + 0.03f * float(y) / float(t.height);
            t.at(x, y, 0) = g;
            t.at(x, y, 1) = g;
            t.at(x, y, 2) = 1.5f * g;
            t.at(x, y, 3) = 1.0f;
        }
    const int lights[][2] = {{160, 130}, {320, 200}, {480, 270}, {200, 300}, {450, 110}};
    const float colours[][3] = {{400, 300, 200}, {800, 800, 800}, {100, 200, 500}, {500, 150, 80}, {200, 450, 200}};
    for (int i = 0; i < 5; ++i)
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
                for (int c = 0; c < 3; ++c)
                    t.at(lights[i][0] + dx, lights[i][1] + dy, c) = colours[i][c];
    return t;
}

SceneFile readScene(const std::string& path, const ImageSelection& selection, const MaskSettings& mask)
{
    const Image image = readImage(path, selection);
    SceneFile scene{toRgba(image), image.layout};
    scene.original = scene.rgba;
    const ScrubCounts scrubbed = scrubRgb(scene.rgba, kDefaultScrubMax);
    if (scrubbed.total() == 0)
        scene.original = Texels();
    else
        scene.notice = std::to_string(scrubbed.nan) + " NaN, " + std::to_string(scrubbed.negative) + " negative and " +
                       std::to_string(scrubbed.clamped) + " values above 65504 replaced before the bloom";
    for (const Channel& channel : image.channels)
    {
        scene.masks.push_back(channel.name);
        if (const std::size_t dot = channel.name.rfind('.'); dot != std::string::npos)
            scene.masks.push_back(channel.name.substr(0, dot));
    }
    std::sort(scene.masks.begin(), scene.masks.end());
    scene.masks.erase(std::unique(scene.masks.begin(), scene.masks.end()), scene.masks.end());
    if (!mask.active())
        return scene;
    std::optional<Image> file;
    std::string filePath = mask.source;
    if (mask.isFile())
    {
        if (const std::optional<FramePattern> pattern = findFramePattern(mask.source))
        {
            const std::optional<int> frame = frameNumberIn(FrameInput{path});
            if (!frame)
                throw ViewerError("mask " + mask.source + ": " + path + " has no frame number for its placeholder");
            filePath = framePath(*pattern, *frame);
        }
        file = readImage(filePath, {.matte = true});
    }
    for (std::size_t i = 0; i + 3 < scene.rgba.values.size(); i += 4)
        scene.alpha.push_back(scene.rgba.values[i + 3]);
    setMaskAlpha(scene.rgba, frameMask(image, path, mask, file ? &*file : nullptr, filePath));
    return scene;
}

std::string savedName(const std::string& scene, int n)
{
    const std::string file = std::filesystem::path(scene).filename().string();
    const std::string tag = n < 2 ? "_bloom" : "_bloom-" + std::to_string(n);
    const std::string name = std::filesystem::path(file).stem().string();
    const bool numbered = !name.empty() && std::isdigit(static_cast<unsigned char>(name.back()));
    return outputPathFor(numbered ? "{stem}" + tag + ".{frame}" : "{name}" + tag, FrameInput{file, "", 0});
}

std::string writeOutput(const SavedOutput& saved, const Scene& scene, const Settings& settings)
{
    const uint32_t w = saved.width, h = saved.height;
    Image image;
    image.width = int(w);
    image.height = int(h);
    // The input's windows, compression and attributes, and the settings that made the bloom (as a settings file).
    image.layout = scene.layout;
    std::string file;
    for (const std::string& line : settingLines(settings.bloom))
        file += line + "\n";
    image.layout.attributes =
        inheritedAttributes(image.layout.attributes,
                            {{kSettingsAttribute, "string", std::vector<unsigned char>(file.begin(), file.end())}});
    Texels rgba(int(w), int(h), 4);
    rgba.values = saved.rgba;
    if (!scene.original.values.empty())
        restoreUnbloomed(rgba, scene.original, kDefaultScrubMax, saved.frame);
    clampBloomRoundOff(rgba, saved.frame);
    for (std::size_t i = 0; i < scene.alpha.size(); ++i) // the file's alpha, not the mask the plugin read there
        rgba.values[i * 4 + 3] = scene.alpha[i];
    const float* texels = rgba.values.data();
    for (int c = 0; c < 4; ++c)
    {
        Channel channel{std::string(1, "RGBA"[c]), PixelType::Half, std::vector<float>(size_t(w) * h)};
        for (size_t i = 0; i < channel.values.size(); ++i)
            channel.values[i] = texels[i * 4 + size_t(c)];
        image.channels.push_back(std::move(channel));
    }
    const std::vector<unsigned char>& png = saved.srgb;

    std::string base = savedName(scene.name, 1);
    for (int n = 2; std::filesystem::exists(base + ".exr") || std::filesystem::exists(base + ".png"); ++n)
        base = savedName(scene.name, n);
    writeExr(base + ".exr", image);
    if (!stbi_write_png((base + ".png").c_str(), int(w), int(h), 4, png.data(), int(w) * 4))
        throw ViewerError(base + ".png: cannot write the PNG");
    return "saved " + (std::filesystem::current_path() / base).string() + ".exr and .png";
}

} // namespace fftb::viewer
