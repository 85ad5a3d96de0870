// SPDX-License-Identifier: MIT
// Files: the image opened (EXR, .hdr; a placeholder scene when there is none), the output saved (EXR and PNG) and the
// window's screenshot written (PNG).
#include "viewer_internal.h"

#include "image/image_io.h"
#include "image/scrub.h"
#include "vulkan/vulkan_device.h"

#include <stb_image_write.h>

#include <cstring>
#include <filesystem>

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

bool Viewer::loadImage(const std::string& path)
{
    Texels rgba;
    ImageLayout layout;
    try
    {
        const Image image = readImage(path);
        rgba = toRgba(image);
        layout = image.layout;
    }
    catch (const std::exception& e)
    {
        message_ = e.what();
        return false;
    }
    const ScrubCounts scrubbed = scrubRgb(rgba, kDefaultScrubMax);
    if (!loadScene(std::move(rgba), path, layout))
        return false;
    if (scrubbed.total() > 0)
        notice_ = std::to_string(scrubbed.nan) + " NaN, " + std::to_string(scrubbed.negative) + " negative and " +
                  std::to_string(scrubbed.clamped) + " values above 65504 replaced before the bloom";
    return true;
}

void Viewer::save()
{
    const uint32_t w = input_.width, h = input_.height;
    checkVulkan(vkDeviceWaitIdle(wd_.device()), "vkDeviceWaitIdle");
    if (saveTarget_.width != w || saveTarget_.height != h)
    {
        destroy(saveTarget_);
        saveTarget_ =
            createImage(w, h, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
        updateDisplaySets();
    }
    VulkanBuffer hdr = createHostBuffer(VkDeviceSize(w) * h * 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VulkanBuffer ldr = createHostBuffer(VkDeviceSize(w) * h * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    const VulkanImage& out = nodes_[0].output;
    submitNow(
        [&](VkCommandBuffer cb)
        {
            VulkanDevice::transition(cb, saveTarget_.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, 0,
                                     VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
            DisplayConstants pc = displayConstants({w, h}, {w, h});
            pc.encodeSrgb = 1; // a PNG holds sRGB-encoded values whatever the swapchain does
            recordDisplay(cb, kSetSave, pc);
            recordImageReadback(cb, saveTarget_.image, w, h, ldr.buffer);
            recordImageReadback(cb, out.image, w, h, hdr.buffer);
        });
    Image image;
    image.width = int(w);
    image.height = int(h);
    // The input's windows, compression and attributes, and the settings that made the bloom (as a settings file).
    image.layout = sceneLayout_;
    std::vector<Attribute>& attributes = image.layout.attributes;
    std::erase_if(attributes, [](const Attribute& a) { return a.name == kSettingsAttribute; });
    std::string settings;
    for (const std::string& line : presetLines(settings_))
        settings += line + "\n";
    attributes.push_back({kSettingsAttribute, "string", std::vector<unsigned char>(settings.begin(), settings.end())});
    const float* texels = static_cast<const float*>(hdr.mapped);
    for (int c = 0; c < 4; ++c)
    {
        Channel channel{std::string(1, "RGBA"[c]), PixelType::Half, std::vector<float>(size_t(w) * h)};
        for (size_t i = 0; i < channel.values.size(); ++i)
            channel.values[i] = texels[i * 4 + size_t(c)];
        image.channels.push_back(std::move(channel));
    }
    std::vector<unsigned char> png(static_cast<const unsigned char*>(ldr.mapped),
                                   static_cast<const unsigned char*>(ldr.mapped) + size_t(w) * h * 4);
    destroy(hdr);
    destroy(ldr);

    const std::string stem = std::filesystem::path(sceneName_).stem().string() + "-bloom";
    std::string base = stem;
    for (int n = 2; std::filesystem::exists(base + ".exr") || std::filesystem::exists(base + ".png"); ++n)
        base = stem + "-" + std::to_string(n);
    try
    {
        writeExr(base + ".exr", image);
        if (!stbi_write_png((base + ".png").c_str(), int(w), int(h), 4, png.data(), int(w) * 4))
            throw ViewerError(base + ".png: cannot write the PNG");
        notice_ = "saved " + (std::filesystem::current_path() / base).string() + ".exr and .png";
        message_.clear();
    }
    catch (const std::exception& e)
    {
        message_ = e.what();
    }
}

void Viewer::writeScreenshot(const std::string& path)
{
    const VkExtent2D e = wd_.swapchainExtent();
    std::vector<unsigned char> rgba(size_t(e.width) * e.height * 4);
    std::memcpy(rgba.data(), readback_.mapped, rgba.size());
    const VkFormat format = wd_.swapchainFormat();
    const bool bgra = format == VK_FORMAT_B8G8R8A8_UNORM || format == VK_FORMAT_B8G8R8A8_SRGB;
    for (size_t i = 0; i < rgba.size(); i += 4)
    {
        if (bgra)
            std::swap(rgba[i], rgba[i + 2]);
        rgba[i + 3] = 255; // the window is opaque
    }
    if (!stbi_write_png(path.c_str(), int(e.width), int(e.height), 4, rgba.data(), int(e.width) * 4))
        throw ViewerError(path + ": cannot write the PNG");
}

} // namespace fftb::viewer
