// SPDX-License-Identifier: MIT
// fftbloom-viewer's screenshot mode: the PNG is the window, the bloom shows around highlights, errors are one line.
#include "image/image_io.h"
#include "setting_edges.h"
#include "settings.h"
#include "settings/setting_table.h"

#include <gtest/gtest.h>
#include <stb_image.h>
#include <stb_image_write.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fftb::viewer
{
namespace
{

namespace fs = std::filesystem;

constexpr int kWidth = 640;
constexpr int kHeight = 400;

/// `path` in single quotes for the shell (the test's paths hold no quote).
std::string shellQuoted(const fs::path& path)
{
    std::string q = "'";
    q += path.string();
    q += '\'';
    return q;
}

struct RunResult
{
    int code = -1;
    std::string err; ///< stderr
    std::string out; ///< stdout
};

std::string readFile(const fs::path& path)
{
    std::string text;
    if (FILE* f = std::fopen(path.c_str(), "rb"))
    {
        char buffer[4096];
        size_t n = 0;
        while ((n = std::fread(buffer, 1, sizeof(buffer), f)) > 0)
            text.append(buffer, n);
        std::fclose(f);
    }
    return text;
}

/// An 8-bit RGB screenshot.
struct Screenshot
{
    int width = 0;
    int height = 0;
    std::vector<unsigned char> rgb;
    const unsigned char* at(int x, int y) const { return &rgb[(size_t(y) * size_t(width) + size_t(x)) * 3]; }
    float luminance(int x, int y) const
    {
        const unsigned char* p = at(x, y);
        return 0.2126f * p[0] + 0.7152f * p[1] + 0.0722f * p[2];
    }
    /// How many of the 256 luminance levels occur: a blank or flat window has few.
    int levels() const
    {
        std::vector<int> histogram(256, 0);
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x)
                ++histogram[size_t(std::lround(luminance(x, y)))];
        return int(std::count_if(histogram.begin(), histogram.end(), [](int count) { return count > 0; }));
    }
    /// The largest difference of one channel from `other`'s (of the same size) over columns x0 .. width - 1.
    int largestDifferenceRightOf(const Screenshot& other, int x0) const
    {
        int largest = 0;
        for (int y = 0; y < height; ++y)
            for (int x = x0; x < width; ++x)
                for (int c = 0; c < 3; ++c)
                    largest = std::max(largest, std::abs(int(at(x, y)[c]) - int(other.at(x, y)[c])));
        return largest;
    }
    float brightest() const
    {
        float most = 0.0f;
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x)
                most = std::max(most, luminance(x, y));
        return most;
    }
};

class ViewerTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::temp_directory_path() / (std::string("fftbloom-viewer-test-") + info->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override
    {
        if (!HasFailure())
            fs::remove_all(dir_);
    }

    fs::path file(const std::string& name) const { return dir_ / name; }

    /// The .hdr scene as an OpenEXR with `layout` (windows, compression, attributes).
    fs::path writeExrScene(const ImageLayout& layout)
    {
        Image image = readImage(writeScene().string());
        image.layout = layout;
        const fs::path path = file("scene.exr");
        writeExr(path.string(), image);
        return path;
    }

    /// A 320 x 200 Radiance .hdr scene: a dim gradient with three point lights far brighter than white.
    fs::path writeScene(const std::string& name = "scene.hdr")
    {
        const int w = 320, h = 200;
        std::vector<float> rgb(size_t(w) * h * 3);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                for (int c = 0; c < 3; ++c)
                    rgb[(size_t(y) * w + x) * 3 + size_t(c)] = 0.02f + 0.05f * float(x) / float(w);
        for (const auto& [lx, ly] : lights_)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx)
                    for (int c = 0; c < 3; ++c)
                        rgb[(size_t(ly + dy) * w + size_t(lx + dx)) * 3 + size_t(c)] = 2000.0f;
        const fs::path path = file(name);
        EXPECT_TRUE(stbi_write_hdr(path.c_str(), w, h, 3, rgb.data()));
        return path;
    }

    /// Runs the viewer under xvfb-run with the validation layer on, with `environment` (NAME=VALUE ...) set;
    /// stdout and stderr captured.
    RunResult viewer(const std::string& arguments, const std::string& environment = "")
    {
        const fs::path out = file("stdout.txt");
        const fs::path err = file("stderr.txt");
        // In the test's folder: --save writes there. Xvfb -noreset: without it the server resets when the viewer
        // disconnects and signals xvfb-run (SIGUSR1) while xvfb-run removes its temporary folder; bookworm's dash
        // then now and then takes the successful rm for a failure and xvfb-run exits 5 with "problem while cleaning up
        // temporary directory" (6 runs in 100 of LostDeviceThatCannotBeRecreatedFailsWithOneLine; none in 160 with it).
        const std::string command = "cd " + shellQuoted(dir_) + " && " + environment + " " + XVFB_RUN_PATH +
                                    " -a -s '-screen 0 1280x1024x24 -noreset' " + FFTBLOOM_VIEWER_PATH +
                                    " --validate --size " + std::to_string(kWidth) + "x" + std::to_string(kHeight) +
                                    " " + arguments + " > " + shellQuoted(out) + " 2> " + shellQuoted(err);
        RunResult r;
        const int status = std::system(command.c_str());
        r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        r.out = readFile(out);
        r.err = readFile(err);
        return r;
    }

    /// The viewer's screenshot of `image` after `frames` frames (3 unless given), with `settings` and
    /// `environment` (as viewer()); the run must succeed without a message.
    Screenshot screenshot(const std::string& image, const std::string& name, const std::string& settings,
                          int frames = 3, const std::string& environment = "")
    {
        const fs::path png = file(name);
        const RunResult r = viewer(shellQuoted(image) + " --screenshot " + shellQuoted(png) + " --frames " +
                                       std::to_string(frames) + " --settings kernel-size=64 " + settings,
                                   environment);
        EXPECT_EQ(r.code, 0) << r.err;
        EXPECT_EQ(r.err, "");
        return load(png);
    }

    static Screenshot load(const fs::path& png)
    {
        Screenshot s;
        int channels = 0;
        unsigned char* pixels = stbi_load(png.c_str(), &s.width, &s.height, &channels, 3);
        EXPECT_NE(pixels, nullptr) << png;
        if (pixels)
        {
            s.rgb.assign(pixels, pixels + size_t(s.width) * size_t(s.height) * 3);
            stbi_image_free(pixels);
        }
        return s;
    }

    /// Every texel of the saved PNG `png` is `display` of the saved EXR's value (clamped to [0, 1], 8 bits), within
    /// 2 levels (the LUT's interpolation, the GPU's arithmetic).
    template <typename Display> static void expectDisplayed(const Image& saved, const fs::path& png, Display display)
    {
        const Screenshot s = load(png);
        ASSERT_EQ(s.width, saved.width);
        ASSERT_EQ(s.height, saved.height);
        int worst = 0;
        for (size_t i = 0; i < s.rgb.size(); ++i)
        {
            const float v = saved.channels[size_t(saved.find(std::string(1, "RGB"[i % 3])))].values[i / 3];
            const int expected = int(std::lround(255.0f * std::clamp(display(v), 0.0f, 1.0f)));
            worst = std::max(worst, std::abs(int(s.rgb[i]) - expected));
        }
        EXPECT_LE(worst, 2);
    }

    fs::path dir_;
    const std::array<std::pair<int, int>, 3> lights_ = {{{80, 60}, {200, 100}, {260, 160}}};
};

TEST_F(ViewerTest, ScreenshotIsTheWindowWithTheUi)
{
    const Screenshot s = screenshot(writeScene().string(), "composite.png", "show=composite");
    ASSERT_EQ(s.width, kWidth);
    ASSERT_EQ(s.height, kHeight);
    // Not blank: many distinct grey levels (the image, the panel and its text).
    EXPECT_GT(s.levels(), 32);
}

TEST_F(ViewerTest, BloomDiffersFromInputAroundHighlights)
{
    const std::string scene = writeScene().string();
    const Screenshot input = screenshot(scene, "input.png", "show=input ui=off exposure=2");
    const Screenshot bloom = screenshot(scene, "bloom.png", "show=bloom ui=off exposure=2");
    ASSERT_EQ(input.width, kWidth);
    ASSERT_EQ(bloom.width, kWidth);
    // The 320 x 200 scene is fitted to the 640 x 400 window: scale 2, no offset. Around each light, outside the
    // light itself, the bloom spreads light where the input is dim.
    double inputRing = 0.0, bloomRing = 0.0;
    int ringPixels = 0;
    for (const auto& [lx, ly] : lights_)
        for (int dy = -12; dy <= 12; ++dy)
            for (int dx = -12; dx <= 12; ++dx)
            {
                const int r2 = dx * dx + dy * dy;
                if (r2 < 5 * 5 || r2 > 12 * 12)
                    continue;
                const int x = 2 * lx + 1 + dx, y = 2 * ly + 1 + dy;
                inputRing += input.luminance(x, y);
                bloomRing += bloom.luminance(x, y);
                ++ringPixels;
            }
    inputRing /= ringPixels;
    bloomRing /= ringPixels;
    EXPECT_GT(bloomRing, inputRing + 20.0)
        << "mean luminance around the lights: input " << inputRing << ", bloom " << bloomRing;
    // Far from the lights the two views agree to within the bloom's faint veil.
    const float far = std::abs(bloom.luminance(600, 20) - input.luminance(600, 20));
    EXPECT_LT(far, 40.0f);
}

TEST_F(ViewerTest, DifferenceOfEqualSettingsIsBlackAndOfUnequalOnesIsNot)
{
    const std::string scene = writeScene().string();
    // B = A exactly (the same spectrum mode): two contexts computing the same bloom.
    const Screenshot same = screenshot(scene, "same.png", "show=difference ui=off b.spectrum=exact");
    ASSERT_EQ(same.width, kWidth);
    EXPECT_EQ(same.brightest(), 0.0f);
    // B without bloom (a threshold above every value: the composite is the input): the difference is A's bloom share,
    // bright around the lights.
    const Screenshot unequal = screenshot(scene, "unequal.png", "show=difference ui=off b.threshold=10000");
    ASSERT_EQ(unequal.width, kWidth);
    const auto [lx, ly] = lights_[1];
    EXPECT_GT(unequal.luminance(2 * lx + 1 + 8, 2 * ly + 1), 20.0f);
}

// A settings file the viewer saves blooms in the CLI as the same options given on its command line do.
TEST_F(ViewerTest, SavedSettingsDriveTheCliAsItsOwnOptionsDo)
{
    const std::string scene = writeScene().string();
    const fs::path preset = file("preset.txt");
    const RunResult saved =
        viewer(shellQuoted(scene) + " --screenshot " + shellQuoted(file("s.png")) +
               " --frames 1 --settings kernel-size=64 intensity=0.6 tint=1,0.8,0.6 padding=mirror knee=0.5 "
               "threshold=1 kernel-rotation=15 kernel-centre-offset=0.05,0 blades=5 --save-settings " +
               shellQuoted(preset));
    ASSERT_EQ(saved.code, 0) << saved.err;
    const auto cli = [&](const std::string& out, const std::string& options)
    {
        const std::string command = std::string(FFTBLOOM_CLI_PATH) + " -q --validate " + shellQuoted(scene) + " -o " +
                                    shellQuoted(file(out)) + " " + options + " 2> " + shellQuoted(file("cli.txt"));
        EXPECT_EQ(std::system(command.c_str()), 0) << command;
        return readImage(file(out).string());
    };
    const Image fromFile = cli("file.exr", "--settings " + shellQuoted(preset));
    const Image fromOptions = cli("options.exr", "--kernel-size 64 --intensity 0.6 --tint 1,0.8,0.6 --padding mirror "
                                                 "--knee 0.5 --threshold 1 --kernel-rotation 15 "
                                                 "--kernel-centre-offset 0.05,0 --blades 5");
    const Image plain = cli("plain.exr", "--kernel-size 64");
    ASSERT_EQ(fromFile.channels.size(), fromOptions.channels.size());
    for (size_t c = 0; c < fromFile.channels.size(); ++c)
        EXPECT_EQ(fromFile.channels[c].values, fromOptions.channels[c].values) << fromFile.channels[c].name;
    EXPECT_NE(fromFile.channels[0].values, plain.channels[0].values) << "the settings took effect";
    // The command line overrides the file.
    const Image overridden = cli("overridden.exr", "--settings " + shellQuoted(preset) + " --intensity 0");
    const Image input = readImage(scene);
    EXPECT_EQ(overridden.channels[0].values, input.channels[0].values) << "intensity 0: the input";
}

// An EXR whose display window is larger than its data window opens fitted to both, with the display window outlined.
TEST_F(ViewerTest, TheDisplayWindowIsFittedAndOutlined)
{
    ImageLayout layout;
    layout.dataWindow = {0, 0, 319, 199};
    layout.displayWindow = {-40, -20, 359, 219};
    const std::string scene = writeExrScene(layout).string();
    const Screenshot s = screenshot(scene, "display.png", "show=input ui=off");
    ASSERT_EQ(s.width, kWidth);
    // 400 x 240 texels fitted to 640 x 400: 0.625 texels a pixel, the display window from (0, 8) to (640, 392).
    const unsigned char* edge = s.at(320, 8);
    EXPECT_GT(edge[0], 200) << "the outline's yellow at the display window's top edge";
    EXPECT_GT(edge[1], 150);
    EXPECT_LT(edge[2], 80);
    const unsigned char* outside = s.at(320, 20);
    EXPECT_LT(outside[0], 40) << "between the display and the data window: the dark grey background";
    EXPECT_EQ(outside[0], outside[2]) << "grey, not the outline";
    EXPECT_GT(s.luminance(64 + 10, 40 + 10), 5.0f) << "the data window's texels from (64, 40)";
}

// Saving keeps the input's windows, compression and attributes and records the settings in the header.
TEST_F(ViewerTest, SavingKeepsTheInputsLayoutAndRecordsTheSettings)
{
    ImageLayout layout;
    layout.dataWindow = {10, 5, 329, 204};
    layout.displayWindow = {0, 0, 339, 209};
    layout.compression = Compression::Piz;
    layout.attributes.push_back({"owner", "string", {'f', 'i', 'l', 'm'}});
    const std::string scene = writeExrScene(layout).string();
    const RunResult r = viewer(shellQuoted(scene) + " --screenshot " + shellQuoted(file("s.png")) +
                               " --frames 1 --save --settings kernel-size=64 intensity=0.4 tint=1,0.5,0.5");
    ASSERT_EQ(r.code, 0) << r.err;
    const Image saved = readImage(file("scene_bloom.exr").string());
    EXPECT_EQ(saved.layout.compression, Compression::Piz);
    EXPECT_EQ(saved.layout.dataWindow.minX, 10);
    EXPECT_EQ(saved.layout.dataWindow.maxY, 204);
    EXPECT_EQ(saved.layout.displayWindow.maxX, 339);
    std::string owner, settings;
    for (const Attribute& a : saved.layout.attributes)
    {
        if (a.name == "owner")
            owner.assign(a.value.begin(), a.value.end());
        if (a.name == kSettingsAttribute)
            settings.assign(a.value.begin(), a.value.end());
    }
    EXPECT_EQ(owner, "film");
    EXPECT_NE(settings.find("intensity=0.4\n"), std::string::npos) << settings;
    EXPECT_NE(settings.find("tint=1,0.5,0.5\n"), std::string::npos) << settings;
}

// Of a single-part stereo file (multiView), view= picks the view shown; the first is shown without it.
TEST_F(ViewerTest, AStereoFilesViewIsPickedByName)
{
    Image image = readImage(writeScene().string());
    const int w = image.width;
    for (const char* c : {"R", "G", "B"})
    {
        std::vector<float> values = image.channels[size_t(image.find(c))].values;
        for (float& v : values)
            v = std::min(v, 0.1f); // the left view's lights out, its gradient kept
        values[size_t(150) * size_t(w) + 40] = 2000.0f;
        image.channels.push_back({std::string("right.") + c, PixelType::Float, values});
    }
    Attribute multiView{"multiView", "stringvector", {}};
    for (const std::string view : {"left", "right"})
    {
        const int32_t n = int32_t(view.size());
        const auto* bytes = reinterpret_cast<const unsigned char*>(&n);
        multiView.value.insert(multiView.value.end(), bytes, bytes + 4);
        multiView.value.insert(multiView.value.end(), view.begin(), view.end());
    }
    image.layout.attributes.push_back(multiView);
    const fs::path scene = file("stereo.exr");
    writeExr(scene.string(), image);
    // 320 x 200 texels fitted to the 640 x 400 window: texel (x, y) at pixel (2 x + 1, 2 y + 1).
    const Screenshot left = screenshot(scene.string(), "left.png", "show=input ui=off");
    const Screenshot right = screenshot(scene.string(), "right.png", "show=input ui=off view=right");
    EXPECT_GT(left.luminance(2 * 80 + 1, 2 * 60 + 1), 200.0f) << "the left view's light";
    EXPECT_LT(left.luminance(2 * 40 + 1, 2 * 150 + 1), 100.0f);
    EXPECT_GT(right.luminance(2 * 40 + 1, 2 * 150 + 1), 200.0f) << "the right view's light";
    EXPECT_LT(right.luminance(2 * 80 + 1, 2 * 60 + 1), 100.0f);
    const RunResult none = viewer(shellQuoted(scene.string()) + " --screenshot " + shellQuoted(file("none.png")) +
                                  " --frames 1 --settings view=centre");
    EXPECT_NE(none.code, 0);
    EXPECT_NE(none.err.find("no view centre (the views: left, right)"), std::string::npos) << none.err;
}

// A negative input texel, replaced by 0 for the bloom, is kept in the saved output as the CLI keeps it.
TEST_F(ViewerTest, SavingKeepsNegativeInputsAsTheCliDoes)
{
    Image image = readImage(writeScene().string());
    image.channels[size_t(image.find("R"))].values[size_t(10) * size_t(image.width) + 10] = -0.5f;
    const fs::path scene = file("negative.exr");
    writeExr(scene.string(), image);
    const RunResult r = viewer(shellQuoted(scene.string()) + " --screenshot " + shellQuoted(file("s.png")) +
                               " --frames 1 --save --settings kernel-size=64");
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string command = std::string(FFTBLOOM_CLI_PATH) + " -q --validate " + shellQuoted(scene.string()) +
                                " -o " + shellQuoted(file("cli.exr")) + " --kernel-size 64";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    const Image saved = readImage(file("negative_bloom.exr").string());
    const Image cli = readImage(file("cli.exr").string());
    const size_t at = size_t(10) * size_t(image.width) + 10;
    const float viewer = saved.channels[size_t(saved.find("R"))].values[at];
    const float written = cli.channels[size_t(cli.find("R"))].values[at];
    EXPECT_LT(viewer, -0.3f) << "(1 - intensity) of the input's -0.5 kept";
    EXPECT_NEAR(viewer, written, 1e-3f) << "as the CLI writes it (the viewer saves half floats)";
}

// A mask picked from the scene's layers (mask=matte: matte.A, 1 left of x = 160, 0 right of it) keeps the right
// half out of the bloom: the glow is the one of the scene with that half black. A saved output keeps the file's
// alpha (0.5), not the matte; b.mask is refused (the matte is the scene's).
TEST_F(ViewerTest, AMaskFromTheScenesLayersKeepsItsLightsOutOfTheBloom)
{
    Image image = readImage(writeScene().string());
    Image left = image;
    for (Channel& c : left.channels)
        for (int y = 0; y < image.height; ++y)
            for (int x = 160; x < image.width; ++x)
                c.values[size_t(y) * size_t(image.width) + size_t(x)] = 0.0f; // what m = 0 keeps out of the bloom
    Channel matte{"matte.A", PixelType::Half, std::vector<float>(size_t(image.width) * size_t(image.height))};
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x)
            matte.values[size_t(y) * size_t(image.width) + size_t(x)] = x < 160 ? 1.0f : 0.0f;
    image.channels.insert(image.channels.begin(),
                          {"A", PixelType::Half, std::vector<float>(matte.values.size(), 0.5f)});
    image.channels.push_back(matte);
    writeExr(file("masked.exr").string(), image);
    writeExr(file("left.exr").string(), left);
    const Screenshot masked = screenshot(file("masked.exr").string(), "masked.png", "ui=off show=bloom mask=matte");
    const Screenshot expected = screenshot(file("left.exr").string(), "left.png", "ui=off show=bloom");
    ASSERT_EQ(masked.width, kWidth);
    ASSERT_EQ(expected.width, kWidth);
    EXPECT_LE(masked.largestDifferenceRightOf(expected, 0), 1);
    const Screenshot unmasked = screenshot(file("masked.exr").string(), "unmasked.png", "ui=off show=bloom");
    EXPECT_GT(unmasked.largestDifferenceRightOf(expected, 0), 20) << "without the mask the right half's lights bloom";

    const RunResult r = viewer(shellQuoted(file("masked.exr").string()) + " --screenshot " +
                               shellQuoted(file("s.png")) + " --frames 1 --save --settings kernel-size=64 mask=matte");
    ASSERT_EQ(r.code, 0) << r.err;
    const Image saved = readImage(file("masked_bloom.exr").string());
    for (const float a : saved.channels[size_t(saved.find("A"))].values)
        ASSERT_EQ(a, 0.5f);
    const RunResult b = viewer(shellQuoted(file("masked.exr").string()) + " --screenshot " +
                               shellQuoted(file("b.png")) + " --frames 1 --settings b.mask=matte");
    EXPECT_EQ(b.code, 2);
    EXPECT_NE(b.err.find("b.mask: the mask is the scene's"), std::string::npos) << b.err;
}

// The generated PSF's glare reaches across the frame in the viewer as in the CLI (its far field, glare-reach): a light
// of 1e7 at the centre of a black 320 x 200 scene lights the screenshot's corners, which glare-reach=0 leaves dark.
TEST_F(ViewerTest, TheGlaresFarFieldLightsTheCorners)
{
    Image image{320, 200, {}};
    for (const char* name : {"B", "G", "R"})
    {
        Channel channel{name, PixelType::Float, std::vector<float>(size_t(320) * 200, 0.0f)};
        channel.values[size_t(100) * 320 + 160] = 1e7f;
        image.channels.push_back(std::move(channel));
    }
    writeExr(file("light.exr").string(), image);
    const Screenshot far = screenshot(file("light.exr").string(), "far.png", "ui=off show=bloom");
    const Screenshot near = screenshot(file("light.exr").string(), "near.png", "ui=off show=bloom glare-reach=0");
    ASSERT_EQ(far.width, kWidth);
    ASSERT_EQ(near.width, kWidth);
    float farDimmest = 255.0f, nearBrightest = 0.0f;
    for (const auto& [x0, y0] : {std::pair{0, 0}, {kWidth - 8, 0}, {0, kHeight - 8}, {kWidth - 8, kHeight - 8}})
        for (int y = y0; y < y0 + 8; ++y)
            for (int x = x0; x < x0 + 8; ++x)
            {
                farDimmest = std::min(farDimmest, far.luminance(x, y));
                nearBrightest = std::max(nearBrightest, near.luminance(x, y));
            }
    EXPECT_GT(farDimmest, 10.0f);
    EXPECT_LT(nearBrightest, 1.0f);
}

// The kernel's placement reaches the plugin: a whole turn moves no light, a centre offset moves the glow.
TEST_F(ViewerTest, KernelPlacementReachesTheBloom)
{
    const std::string scene = writeScene().string();
    const Screenshot turned = screenshot(
        scene, "turned.png", "show=difference ui=off kernel-rotation=360 b.kernel-rotation=0 b.spectrum=exact");
    ASSERT_EQ(turned.width, kWidth);
    EXPECT_EQ(turned.brightest(), 0.0f);
    const Screenshot moved =
        screenshot(scene, "moved.png",
                   "show=difference ui=off kernel-centre-offset=0.25,0 b.kernel-centre-offset=0,0 b.spectrum=exact");
    ASSERT_EQ(moved.width, kWidth);
    EXPECT_GT(moved.brightest(), 20.0f);
}

// The eye mode: the kernel made on the GPU every frame. Its first frame (seed + 0, the pupil at exposure 0 adapted to
// 100 cd/m^2: the Airy radius as set) is the generated PSF the CPU makes; another seed moves the particles.
TEST_F(ViewerTest, EyeModeIsTheGeneratedPsfMadeOnTheGpuAndFlickersWithTheSeed)
{
    const std::string scene = writeScene().string();
    const std::string eye = "ui=off show=difference compare=bloom blades=0 corona=0.8 seed=3 animate=true "
                            "airy-radius=4 kernel-span=native ";
    const Screenshot same = screenshot(scene, "same.png", eye + "difference-gain=0 b.animate=false", 1);
    const Screenshot moved = screenshot(scene, "moved.png", eye + "difference-gain=0 b.seed=4", 1);
    ASSERT_EQ(same.width, kWidth);
    ASSERT_EQ(moved.width, kWidth);
    std::printf("eye mode against the CPU's PSF: brightest difference %.1f; seed 3 against 4: %.1f\n",
                double(same.brightest()), double(moved.brightest()));
    EXPECT_LE(same.brightest(), 2.0f);   // measured 0 on lavapipe
    EXPECT_GT(moved.brightest(), 50.0f); // measured 209 on lavapipe
}

TEST_F(ViewerTest, SplitShowsAOnTheLeftAndBOnTheRight)
{
    const std::string scene = writeScene().string();
    // A: the bloom, B: the input (a threshold above every value), divider at 0.5; the middle light (x 200 of 320) is on
    // B's side.
    const Screenshot split = screenshot(scene, "split.png", "show=split ui=off exposure=2 b.threshold=10000");
    const Screenshot bloom = screenshot(scene, "bloomA.png", "show=composite ui=off exposure=2");
    const Screenshot input = screenshot(scene, "inputB.png", "show=input ui=off exposure=2");
    ASSERT_EQ(split.width, kWidth);
    const auto [ax, ay] = lights_[0]; // left half
    const auto [bx, by] = lights_[1]; // right half
    const int a[2] = {2 * ax + 1 + 8, 2 * ay + 1}, b[2] = {2 * bx + 1 + 8, 2 * by + 1};
    EXPECT_NEAR(split.luminance(a[0], a[1]), bloom.luminance(a[0], a[1]), 2.0f);
    EXPECT_NEAR(split.luminance(b[0], b[1]), input.luminance(b[0], b[1]), 2.0f);
    EXPECT_GT(bloom.luminance(b[0], b[1]), input.luminance(b[0], b[1]) + 10.0f);
}

TEST_F(ViewerTest, ThresholdAboveEveryValueLeavesTheCompositeAsTheInputAndAdditiveAddsLight)
{
    const std::string scene = writeScene().string();
    // The lights are 2000: nothing passes the prefilter, so the composite shows the input; at intensity 0 (taken as
    // the CLI takes it) both composites show it.
    const Screenshot dark = screenshot(scene, "threshold.png", "show=composite ui=off exposure=2 threshold=10000");
    const Screenshot input = screenshot(scene, "input.png", "show=input ui=off exposure=2");
    const Screenshot additive = screenshot(scene, "additive.png", "show=composite ui=off exposure=2 output=additive");
    const Screenshot none =
        screenshot(scene, "none.png", "show=composite ui=off exposure=2 output=additive intensity=0");
    ASSERT_EQ(dark.width, kWidth);
    ASSERT_EQ(none.width, kWidth);
    const auto [lx, ly] = lights_[1];
    const int x = 2 * lx + 1 + 8, y = 2 * ly + 1;
    EXPECT_NEAR(dark.luminance(x, y), input.luminance(x, y), 2.0f);
    EXPECT_GT(additive.luminance(x, y), input.luminance(x, y) + 10.0f);
    EXPECT_NEAR(none.luminance(x, y), input.luminance(x, y), 2.0f);
}

// A frame of a sequence is saved under the sequence's naming, shot.1001 as shot_bloom.1001.
TEST_F(ViewerTest, SaveWritesTheOutputAsExrAndPng)
{
    const std::string scene = writeScene("shot.1001.hdr").string();
    const RunResult r = viewer(shellQuoted(scene) + " --screenshot " + shellQuoted(file("window.png")) +
                               " --frames 2 --save --settings kernel-size=64");
    ASSERT_EQ(r.code, 0) << r.err;
    const Image saved = readImage(file("shot_bloom.1001.exr").string());
    EXPECT_EQ(saved.width, 320);
    EXPECT_EQ(saved.height, 200);
    for (const char* name : {"R", "G", "B", "A"})
        EXPECT_GE(saved.find(name), 0) << name;
    // The light's texel keeps most of its value in the composite (intensity 0.25).
    const auto [lx, ly] = lights_[0];
    const float red = saved.channels[size_t(saved.find("R"))].values[size_t(ly) * 320 + size_t(lx)];
    EXPECT_GT(red, 100.0f);
    // The PNG through the default tonemap, the CLI preview's without $OCIO: acesFitted, sRGB-encoded.
    expectDisplayed(saved, file("shot_bloom.1001.png"),
                    [](float v)
                    {
                        const float t = acesFitted(std::max(v, 0.0f));
                        return t <= 0.0031308f ? 12.92f * t : 1.055f * std::pow(t, 1.0f / 2.4f) - 0.055f;
                    });
}

// With $OCIO set, the viewer shows the config's default display and view, as the CLI's preview does: here a view
// that is a gamma of 2, so each saved PNG value is sqrt of the saved EXR's (through the viewer's 3D LUT).
TEST_F(ViewerTest, AnOcioConfigIsTheDefaultDisplayTransform)
{
    std::ofstream(file("config.ocio")) << "ocio_profile_version: 2\n"
                                          "roles: {default: linear, scene_linear: linear}\n"
                                          "displays: {test: [!<View> {name: gamma, colorspace: gamma}]}\n"
                                          "colorspaces:\n"
                                          "  - !<ColorSpace> {name: linear}\n"
                                          "  - !<ColorSpace> {name: gamma, from_scene_reference: !<ExponentTransform> "
                                          "{value: 2, direction: inverse}}\n";
    const std::string scene = writeScene("shot.hdr").string();
    const RunResult r = viewer(shellQuoted(scene) + " --screenshot " + shellQuoted(file("window.png")) +
                                   " --frames 2 --save --settings kernel-size=64",
                               "OCIO=" + shellQuoted(file("config.ocio")));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    expectDisplayed(readImage(file("shot_bloom.exr").string()), file("shot_bloom.png"),
                    [](float v) { return std::sqrt(std::max(v, 0.0f)); });
}

// The panel shows how the bloom looks; how it is computed (axis order, spectrum, storage, resolution, the plan) is
// under the "Advanced" fold, closed unless advanced=open: the panel's text (--print-panel) names those controls only
// when it is open, and the look's controls either way.
TEST_F(ViewerTest, TheAdvancedFoldHoldsTheEngineeringControlsAndIsClosedByDefault)
{
    const std::string scene = writeScene().string();
    const auto panelText = [&](const std::string& name, const std::string& settings)
    {
        const RunResult r = viewer(shellQuoted(scene) + " --screenshot " + shellQuoted(file(name + ".png")) +
                                   " --frames 2 --print-panel --settings kernel-size=64 " + settings);
        EXPECT_EQ(r.code, 0) << r.err;
        EXPECT_EQ(r.err, "");
        return r.out;
    };
    const std::string closed = panelText("closed", "");
    const std::string open = panelText("open", "advanced=open");
    // A row of the log: "{ value } Label" for a slider or a combo.
    for (const char* look : {"} Preset\n", "} Intensity\n", "} Tint\n", "} Threshold\n", "} Span\n", "} Blades\n"})
    {
        EXPECT_NE(closed.find(look), std::string::npos) << look << " in\n" << closed;
        EXPECT_NE(open.find(look), std::string::npos) << look << " in\n" << open;
    }
    for (const char* engineering : {"} Axis order\n", "} Spectrum\n", "} Storage\n", "} Resolution\n"})
    {
        EXPECT_EQ(closed.find(engineering), std::string::npos) << engineering << " in\n" << closed;
        EXPECT_NE(open.find(engineering), std::string::npos) << engineering << " in\n" << open;
    }
}

TEST_F(ViewerTest, ResizedWindowGivesAScreenshotOfTheNewSize)
{
    const RunResult r = viewer(shellQuoted(writeScene()) + " --resize 500x300 --screenshot " +
                               shellQuoted(file("resized.png")) + " --frames 4 --settings kernel-size=64");
    ASSERT_EQ(r.code, 0) << r.err;
    int w = 0, h = 0, n = 0;
    unsigned char* png = stbi_load(file("resized.png").c_str(), &w, &h, &n, 3);
    ASSERT_NE(png, nullptr);
    stbi_image_free(png);
    EXPECT_EQ(w, 500);
    EXPECT_EQ(h, 300);
}

TEST_F(ViewerTest, DroppedBadFileKeepsThePreviousImageAndAGoodOneReplacesIt)
{
    const fs::path scene = writeScene();
    FILE* f = std::fopen(file("truncated.exr").c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fputs("v/1\x01", f); // OpenEXR's magic number, then nothing
    std::fclose(f);
    const Screenshot before = screenshot(scene.string(), "before.png", "ui=off");
    const RunResult r = viewer(shellQuoted(scene) + " --drop " + shellQuoted(file("truncated.exr")) + " --screenshot " +
                               shellQuoted(file("after.png")) + " --frames 4 --settings kernel-size=64 ui=off");
    ASSERT_EQ(r.code, 0) << r.err;
    int w = 0, h = 0, n = 0;
    unsigned char* after = stbi_load(file("after.png").c_str(), &w, &h, &n, 3);
    ASSERT_NE(after, nullptr);
    ASSERT_EQ(w, before.width);
    ASSERT_EQ(h, before.height);
    EXPECT_EQ(std::memcmp(after, before.rgb.data(), before.rgb.size()), 0);
    stbi_image_free(after);
    // A readable file dropped the same way does replace the image.
    const std::vector<float> grey(64 * 48 * 3, 0.5f);
    ASSERT_TRUE(stbi_write_hdr(file("grey.hdr").c_str(), 64, 48, 3, grey.data()));
    const RunResult good = viewer(shellQuoted(scene) + " --drop " + shellQuoted(file("grey.hdr")) + " --screenshot " +
                                  shellQuoted(file("grey.png")) + " --frames 4 --settings kernel-size=64 ui=off");
    ASSERT_EQ(good.code, 0) << good.err;
    unsigned char* replaced = stbi_load(file("grey.png").c_str(), &w, &h, &n, 3);
    ASSERT_NE(replaced, nullptr);
    EXPECT_NE(std::memcmp(replaced, before.rgb.data(), before.rgb.size()), 0);
    stbi_image_free(replaced);
}

TEST_F(ViewerTest, KernelChangedWhileRunningMatchesTheKernelGivenAtStart)
{
    const std::string scene = writeScene().string();
    const Screenshot six = screenshot(scene, "six.png", "show=bloom ui=off exposure=2");
    const Screenshot circle = screenshot(scene, "circle.png", "show=bloom ui=off exposure=2 blades=0");
    const RunResult r = viewer(shellQuoted(scene) + " --screenshot " + shellQuoted(file("changed.png")) +
                               " --frames 4 --settings kernel-size=64 show=bloom ui=off exposure=2 --later blades=0");
    ASSERT_EQ(r.code, 0) << r.err;
    int w = 0, h = 0, n = 0;
    unsigned char* changed = stbi_load(file("changed.png").c_str(), &w, &h, &n, 3);
    ASSERT_NE(changed, nullptr);
    ASSERT_EQ(size_t(w) * size_t(h) * 3, circle.rgb.size());
    EXPECT_EQ(std::memcmp(changed, circle.rgb.data(), circle.rgb.size()), 0);
    EXPECT_NE(std::memcmp(changed, six.rgb.data(), six.rgb.size()), 0);
    stbi_image_free(changed);
}

// A plan-lifetime setting changed halfway while the bloom runs every frame (a new plan made while frames in flight
// still use the old one) blooms as the setting given at start does.
TEST_F(ViewerTest, PlanSettingChangedWhileRunningMatchesTheSettingGivenAtStart)
{
    const std::string scene = writeScene().string();
    const std::string settings = "show=bloom ui=off exposure=2 rerun=always";
    const Screenshot native = screenshot(scene, "native.png", settings);
    const Screenshot wider = screenshot(scene, "wider.png", settings + " kernel-span=128px", 4);
    const RunResult r = viewer(shellQuoted(scene) + " --screenshot " + shellQuoted(file("changed.png")) +
                               " --frames 4 --settings kernel-size=64 " + settings + " --later kernel-span=128px");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const Screenshot changed = load(file("changed.png"));
    ASSERT_EQ(changed.rgb.size(), wider.rgb.size());
    ASSERT_EQ(changed.rgb.size(), native.rgb.size());
    EXPECT_TRUE(changed.rgb == wider.rgb) << "the kernel extent given halfway";
    EXPECT_FALSE(changed.rgb == native.rgb) << "the native extent's bloom";
}

// The eye mode's pupil follows the exposure: an exposure changed halfway makes a new kernel for the new Airy radius
// while frames in flight still use the old one (destroyed once they have completed: the validation layer reports a
// kernel buffer destroyed in use), and the frames after it are those of a run started with that exposure.
TEST_F(ViewerTest, EyeModeExposureChangedWhileRunningMakesTheKernelOfTheNewPupil)
{
    const std::string scene = writeScene().string();
    // Airy radius 8 of 256: 2 texels at kernel-size 64, so that a brighter exposure's wider pupil makes it smaller.
    const std::string eye = "show=bloom ui=off blades=0 corona=0.8 seed=3 animate=true airy-radius=8";
    const Screenshot brighter = screenshot(scene, "brighter.png", eye + " exposure=2", 4);
    const RunResult r = viewer(shellQuoted(scene) + " --screenshot " + shellQuoted(file("changed.png")) +
                               " --frames 4 --settings kernel-size=64 " + eye + " --later exposure=2");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const Screenshot changed = load(file("changed.png"));
    ASSERT_EQ(changed.rgb.size(), brighter.rgb.size());
    EXPECT_TRUE(changed.rgb == brighter.rgb) << "the pupil adapted to exposure 2";
}

TEST_F(ViewerTest, KernelAndSpectrumViewsPeakAtTheCentre)
{
    const std::string scene = writeScene().string();
    // The 64 x 64 kernel fitted to the 640 x 400 window: 6.25 pixels a texel, its centre texel (32, 32) covers window
    // pixel (323, 203). Display values: log10 over 6 decades, 1 at the brightest channel of the peak (and at DC).
    for (const char* view : {"kernel", "spectrum"})
    {
        // Airy radius 8 of 256: 2 texels at kernel-size 64, a PSF wide enough that its spectrum falls off.
        const Screenshot s =
            screenshot(scene, std::string(view) + ".png", std::string("ui=off airy-radius=8 show=") + view);
        ASSERT_EQ(s.width, kWidth) << view;
        EXPECT_GT(s.luminance(323, 203), 200.0f) << view;
        EXPECT_LT(s.luminance(130, 10), s.luminance(323, 203) - 60.0f) << view;
    }
}

TEST_F(ViewerTest, DeltaKernelsFromFilesLeaveTheImageAsItIs)
{
    const std::string scene = writeScene().string();
    std::vector<float> delta(16 * 16 * 3, 0.0f);
    for (int c = 0; c < 3; ++c)
        delta[(8 * 16 + 8) * 3 + size_t(c)] = 1.0f; // the centre texel (w / 2, h / 2)
    ASSERT_TRUE(stbi_write_hdr(file("delta.hdr").c_str(), 16, 16, 3, delta.data()));
    // A 1 x 1 kernel keeps its one-pixel extent at any kernel size (fileKernelSpan): the identity at 16 texels too.
    const float one[3] = {1.0f, 1.0f, 1.0f};
    ASSERT_TRUE(stbi_write_hdr(file("single.hdr").c_str(), 1, 1, 3, one));
    const Screenshot input = screenshot(scene, "input.png", "show=input ui=off");
    for (const char* kernel : {"delta.hdr", "single.hdr"})
    {
        const Screenshot bloom = screenshot(scene, std::string(kernel) + ".png",
                                            "show=bloom ui=off kernel-size=16 kernel=" + file(kernel).string());
        ASSERT_EQ(bloom.rgb.size(), input.rgb.size());
        int largest = 0;
        for (size_t i = 0; i < input.rgb.size(); ++i)
            largest = std::max(largest, std::abs(int(bloom.rgb[i]) - int(input.rgb[i])));
        EXPECT_LE(largest, 2) << kernel << ": 8-bit levels";
    }
}

/// Pixels of the panel (left of kPanelRight) in the message's colour, ImVec4(1.0, 0.55, 0.4) over the panel's dark
/// background: red well above green and blue. The test scene is grey and its lights white, so the panel shows none
/// without a message.
constexpr int kPanelRight = 372; // the panel spans x 8 .. 368 at its default size
int messagePixels(const Screenshot& s)
{
    int count = 0;
    for (int y = 0; y < s.height; ++y)
        for (int x = 0; x < kPanelRight; ++x)
        {
            const unsigned char* p = s.at(x, y);
            count += p[0] > 120 && p[0] > p[1] + 40 && p[0] > p[2] + 60;
        }
    return count;
}

TEST_F(ViewerTest, LostDeviceIsRecreatedWithTheImageKeptAndAMessage)
{
    const std::string scene = writeScene().string();
    const Screenshot normal = screenshot(scene, "normal.png", "exposure=2", 8);
    // The test hook: the frame fence waits after the first 3 report VK_ERROR_DEVICE_LOST, so the loss is found at
    // the 4th frame and the last 5 frames run on the re-created device.
    const Screenshot lost = screenshot(scene, "lost.png", "exposure=2", 8, "FFTBLOOM_TEST_LOSE_DEVICE_AFTER=3");
    ASSERT_EQ(lost.width, kWidth);
    ASSERT_EQ(lost.height, kHeight);
    ASSERT_EQ(normal.width, kWidth);
    EXPECT_GT(lost.levels(), 32);
    // The panel says what happened, in the message colour, which the run without the loss does not show.
    EXPECT_EQ(messagePixels(normal), 0);
    EXPECT_GT(messagePixels(lost), 200);
    // Right of the panel the image is the scene bloomed again from the host copies on the new device: lavapipe
    // computes the same values, so a tolerance of 2 levels (of 255) is only for a driver that rounds differently.
    EXPECT_LE(lost.largestDifferenceRightOf(normal, kPanelRight), 2);
}

TEST_F(ViewerTest, LostDeviceThatCannotBeRecreatedFailsWithOneLine)
{
    const RunResult r = viewer(shellQuoted(writeScene()) + " --screenshot " + shellQuoted(file("out.png")) +
                                   " --frames 8 --settings kernel-size=64",
                               "FFTBLOOM_TEST_LOSE_DEVICE_AFTER=3 FFTBLOOM_TEST_DEVICE_STAYS_LOST=1");
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("device was lost"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("could not be re-created"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
    EXPECT_FALSE(fs::exists(file("out.png")));
}

TEST_F(ViewerTest, MinimizedWindowWaitsThenDrawsAsBefore)
{
    const std::string scene = writeScene().string();
    const Screenshot normal = screenshot(scene, "normal.png", "ui=off exposure=2", 6);
    // --minimize 1: after 3 of the 6 frames the window is iconified and the frame loop counts it as minimized for a
    // second. Xvfb has no window manager, so the iconify itself changes nothing there: what is tested is the frame
    // loop's minimized branch (it must wait for events rather than spin or draw) and the return to drawing with the
    // swapchain it had; not a surface whose extent drops to 0 x 0 (see Viewer::startMinimizing).
    const RunResult r = viewer(shellQuoted(scene) + " --minimize 1 --screenshot " + shellQuoted(file("minimized.png")) +
                               " --frames 6 --settings kernel-size=64 ui=off exposure=2");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    int passes = -1;
    double seconds = 0.0;
    ASSERT_EQ(std::sscanf(r.out.c_str(), "fftbloom-viewer: --minimize: %d pass(es) of the frame loop in %lf s", &passes,
                          &seconds),
              2)
        << r.out;
    EXPECT_EQ(seconds, 1.0);
    // The branch was taken, and it waited: one pass per wake-up (the timer's at the end, and any window event). A
    // loop that polled would make thousands in a second.
    EXPECT_GE(passes, 1);
    EXPECT_LE(passes, 20);
    const Screenshot minimized = load(file("minimized.png"));
    ASSERT_EQ(minimized.width, kWidth);
    ASSERT_EQ(minimized.height, kHeight);
    ASSERT_EQ(normal.width, kWidth);
    // The same frames as without the minimize: identical on lavapipe; 2 levels of 255 allowed for other drivers.
    EXPECT_LE(minimized.largestDifferenceRightOf(normal, 0), 2);
}

TEST_F(ViewerTest, UnreadableImageFailsWithOneLine)
{
    const fs::path bad = file("notes.exr");
    FILE* f = std::fopen(bad.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fputs("these are notes, not pixels\n", f);
    std::fclose(f);
    const RunResult r = viewer(shellQuoted(bad) + " --screenshot " + shellQuoted(file("out.png")) + " --frames 2");
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("notes.exr"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
    EXPECT_FALSE(fs::exists(file("out.png")));
}

// layer=NAME shows and saves that layer's channels, as the CLI's --layer; a layer the file lacks fails the screenshot
// with one line naming it.
TEST_F(ViewerTest, LayerKeyShowsThatLayerAndAMissingOneFailsWithOneLine)
{
    const int w = 160, h = 100;
    Image image;
    image.width = w;
    image.height = h;
    for (const char* name : {"B", "G", "R", "diffuse.B", "diffuse.G", "diffuse.R"})
    {
        Channel channel{name, PixelType::Float, std::vector<float>(size_t(w) * h, 0.02f)};
        if (std::string(name).rfind("diffuse.", 0) == 0)
            channel.values[size_t(50) * w + 80] = 2000.0f; // a light in the layer only
        image.channels.push_back(std::move(channel));
    }
    writeExr(file("layers.exr").string(), image);
    const RunResult r = viewer(shellQuoted(file("layers.exr")) + " --screenshot " + shellQuoted(file("a.png")) +
                               " --frames 2 --save --settings kernel-size=64 layer=diffuse");
    ASSERT_EQ(r.code, 0) << r.err;
    const Image saved = readImage(file("layers_bloom.exr").string());
    EXPECT_GT(saved.channels[size_t(saved.find("R"))].values[size_t(50) * w + 80], 100.0f) << "the layer's light";
    const RunResult missing = viewer(shellQuoted(file("layers.exr")) + " --screenshot " + shellQuoted(file("b.png")) +
                                     " --frames 2 --settings layer=specular");
    EXPECT_EQ(missing.code, 1);
    EXPECT_NE(missing.err.find("specular"), std::string::npos) << missing.err;
    EXPECT_EQ(missing.err.find('\n'), missing.err.size() - 1) << missing.err;
    EXPECT_FALSE(fs::exists(file("b.png")));
}

TEST_F(ViewerTest, KernelSettingsTheRulesRefuseFailTheStartWithOneLine)
{
    // Cubic interpolation has 4 taps: the rules between settings (checkSettings) refuse 8 before the plugin would, in
    // the CLI's words.
    const RunResult r = viewer(shellQuoted(writeScene()) + " --screenshot " + shellQuoted(file("out.png")) +
                               " --frames 2 --settings kernel-size=64 spectrum=resampled spectrum-interpolation=cubic "
                               "interpolation-width=8");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--settings: interpolation-width 8: cubic interpolation has 4 taps"), std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
    EXPECT_FALSE(fs::exists(file("out.png")));
}

TEST_F(ViewerTest, KernelSpanOfTheKernelsOwnSizeIsNativeAndALargerOneIsNot)
{
    const std::string scene = writeScene().string();
    // A: the 64-texel kernel at native scale; B (in A's exact mode): its 64 texels over 64 pixels (sigma 1), then
    // over a fifth of the 320 x 200 scene's diagonal (75 pixels, sigma 1.18).
    const Screenshot same =
        screenshot(scene, "same.png", "show=difference ui=off kernel-span=native b.spectrum=exact b.kernel-span=64px");
    ASSERT_EQ(same.width, kWidth);
    EXPECT_EQ(same.brightest(), 0.0f);
    const Screenshot wider =
        screenshot(scene, "wider.png",
                   "show=difference ui=off compare=bloom difference-gain=8 kernel-span=native b.spectrum=exact "
                   "b.kernel-span=0.2diag");
    ASSERT_EQ(wider.width, kWidth);
    const auto [lx, ly] = lights_[1];
    EXPECT_GT(wider.luminance(2 * lx + 1 + 8, 2 * ly + 1), 20.0f);
}

TEST_F(ViewerTest, UnknownSettingIsUsageError)
{
    const RunResult r = viewer("--screenshot " + shellQuoted(file("out.png")) + " --settings glow=3");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("glow"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
}

TEST(ViewerSettings, KeysParseAndRefuse)
{
    Settings s;
    std::string error;
    EXPECT_TRUE(applySetting(s, "show=bloom", &error));
    EXPECT_EQ(s.view, View::Bloom);
    EXPECT_TRUE(applySetting(s, "kernel-size=128", &error));
    EXPECT_EQ(s.bloom.kernel.sizeTexels, 128);
    EXPECT_FALSE(applySetting(s, "kernel-size=100", &error));
    EXPECT_NE(error.find("power of two"), std::string::npos) << error;
    EXPECT_FALSE(applySetting(s, "blades=2", &error));
    EXPECT_FALSE(applySetting(s, "exposure=nan", &error));
    EXPECT_FALSE(applySetting(s, "intensity", &error));
    EXPECT_NE(error.find("key=value"), std::string::npos) << error;
    EXPECT_TRUE(applySetting(s, "tonemap=reinhard", &error));
    EXPECT_EQ(s.tonemapper, Tonemapper::Reinhard);
    EXPECT_TRUE(applySetting(s, "show=split", &error));
    EXPECT_EQ(s.view, View::Split);
    EXPECT_TRUE(applySetting(s, "view=right", &error)) << error;
    EXPECT_EQ(s.selection.view, "right");
    EXPECT_FALSE(applySetting(s, "view=split", &error)) << "the display mode's key before it was show=";
    EXPECT_NE(error.find("show="), std::string::npos) << error;
    EXPECT_EQ(s.selection.view, "right");
    EXPECT_EQ(s.view, View::Split);
    EXPECT_FALSE(applySetting(s, "curvature=0.5", &error));
    EXPECT_NE(error.find("'curvature' is now 'blade-curvature'"), std::string::npos) << error;
    EXPECT_FALSE(applySetting(s, "split=2", &error));
    EXPECT_TRUE(applySetting(s, "kernel=generated", &error));
    EXPECT_TRUE(s.bloom.kernel.file.empty());
    EXPECT_TRUE(applySetting(s, "intensity=0", &error)) << error;
    EXPECT_EQ(s.bloom.frame.intensity, 0.0f) << "the composite of intensity 0 is the input, as the CLI writes it";
    EXPECT_TRUE(applySetting(s, "output=bloom", &error)) << error;
    EXPECT_EQ(s.view, View::Bloom) << "the CLI's bloom output is the bloom view";
    EXPECT_EQ(s.bloom.frame.output, FFTB_OUTPUT_MODE_COMPOSITE);
}

// The viewer takes every value the CLI takes: one range per setting (the settings table's), none of its own.
TEST(ViewerSettings, TakeTheValuesTheCliTakes)
{
    Settings s;
    std::string error;
    for (const char* kv :
         {"intensity=1e9", "tint=1000000000,0,1", "threshold=1000000000", "knee=1000000000", "bloom-clamp=1000000000",
          "kernel-size=2048", "kernel-size=4096", "kernel-size=2", "kernel-span=4096px",
          "spectrum-interpolation=linear", "interpolation-width=2", "spectrum-oversampling=1"})
        EXPECT_TRUE(applySetting(s, kv, &error)) << kv << ": " << error;
    EXPECT_EQ(s.bloom.frame.intensity, 1.0e9f);
    EXPECT_EQ(s.bloom.kernel.sizeTexels, 2);
    EXPECT_EQ(s.bloom.kernel.interpolation, FFTB_SPECTRUM_INTERPOLATION_LINEAR);
    for (const char* kv : {"intensity=1000000001", "kernel-size=8192", "kernel-span=4097px"})
    {
        EXPECT_FALSE(applySetting(s, kv, &error)) << kv;
        EXPECT_NE(error.find(kv), std::string::npos) << error;
    }
    // Every shared key of the viewer's --help is the settings table's line for it.
    const std::vector<std::string>& keys = settingKeys();
    for (const SettingEntry& entry : settingTable())
        EXPECT_NE(std::find(keys.begin(), keys.end(), settingHelpLine(entry)), keys.end()) << entry.name;
}

// Every bloom and kernel setting survives the settings file: its lines applied to defaults give the same lines.
TEST(ViewerSettings, SettingsLinesRoundTripAndNameTheCliOptions)
{
    Settings s;
    std::string error;
    for (const char* kv : {"intensity=1.7",
                           "tint=1,0.8,0.3",
                           "sharpen=0.125",
                           "output=additive",
                           "threshold=1.5",
                           "knee=0.25",
                           "bloom-clamp=40",
                           "padding=mirror",
                           "axis=y",
                           "spectrum=resampled",
                           "precision=fp16",
                           "resolution=half",
                           "kernel-size=128",
                           "kernel-span=0.25diag",
                           "kernel-rotation=-12.5",
                           "kernel-centre-offset=0.1,-0.2",
                           "blades=8",
                           "blade-curvature=0.3",
                           "obstruction=0.2",
                           "vanes=4",
                           "airy-radius=3.3",
                           "corona=0.4",
                           "seed=9",
                           "animate=true"})
        ASSERT_TRUE(applySetting(s, kv, &error)) << error;
    const std::vector<std::string> lines = settingLines(s.bloom);
    Settings read;
    for (const std::string& line : lines)
        ASSERT_TRUE(applySetting(read, line, &error)) << line << ": " << error;
    EXPECT_EQ(settingLines(read.bloom), lines);
    EXPECT_NE(std::find(lines.begin(), lines.end(), "tint=1,0.8,0.3"), lines.end());
    const std::string command = cliCommand(s, "my shot/in.exr", "out.exr");
    EXPECT_EQ(command.rfind("fftbloom 'my shot/in.exr' -o out.exr --intensity 1.7 --tint 1,0.8,0.3", 0), 0u) << command;
    EXPECT_NE(command.find(" --blade-curvature 0.3"), std::string::npos) << command;
    EXPECT_NE(command.find(" --resolution half"), std::string::npos) << command;
    EXPECT_EQ(command.find("--vanes 0"), std::string::npos) << "defaults are left out: " << command;
    EXPECT_NE(command.find(" --corona 0.4 --seed 9 --animate"), std::string::npos) << "a flag alone: " << command;
    EXPECT_EQ(cliCommand(Settings{}, "in.exr", "out.exr"), "fftbloom in.exr -o out.exr");
    s.bloom.kernel.file = "psf.exr";
    const std::vector<std::string> withFile = settingLines(s.bloom);
    EXPECT_EQ(withFile.back(), "kernel=psf.exr");
    EXPECT_EQ(
        std::count_if(withFile.begin(), withFile.end(), [](const std::string& l) { return l.rfind("blades", 0) == 0; }),
        0)
        << "a kernel file has no generated PSF's settings";
}

// preset=NAME, the panel's Preset menu, sets the settings the CLI's --preset sets; the saved lines and the CLI command
// name those settings, not the preset.
TEST(ViewerSettings, PresetKeySetsTheLooksSettingsAndTheCommandNamesThem)
{
    Settings s;
    std::string error;
    ASSERT_TRUE(applySetting(s, "preset=eye", &error)) << error;
    EXPECT_EQ(s.bloom.kernel.aperture.corona, 0.5);
    EXPECT_EQ(s.bloom.kernel.glare, 0.62);
    const std::vector<std::string> lines = settingLines(s.bloom);
    EXPECT_NE(std::find(lines.begin(), lines.end(), "kernel-span=0.2diag"), lines.end());
    const std::string command = cliCommand(s, "in.exr", "out.exr");
    EXPECT_NE(command.find(" --corona 0.5"), std::string::npos) << command;
    EXPECT_NE(command.find(" --glare 0.62"), std::string::npos) << command;
    EXPECT_EQ(command.find("--preset"), std::string::npos) << command;
    EXPECT_FALSE(applySetting(s, "preset=Eye", &error));
    EXPECT_NE(error.find("'Eye' is not a preset"), std::string::npos) << error;
}

TEST(ViewerSettings, SettingsFilesAreReadLineByLineAndWrittenWhole)
{
    const fs::path dir = fs::path(::testing::TempDir()) / "fftbloom_settings_file";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path path = dir / "settings.txt";
    Settings s;
    s.bloom.frame.intensity = 0.75f;
    std::string error;
    ASSERT_TRUE(writeSettingsFile(s, path.string(), {}, &error)) << error;
    Settings read;
    ASSERT_TRUE(applySettingsFile(read, path.string(), &error)) << error;
    EXPECT_EQ(read.bloom.frame.intensity, 0.75f);
    std::ofstream(path) << "# a comment\n\nintensity=0.5\npadding=wrap\n";
    EXPECT_FALSE(applySettingsFile(read, path.string(), &error));
    EXPECT_NE(error.find(path.string() + ":4:"), std::string::npos) << error;
    EXPECT_NE(error.find("padding"), std::string::npos) << error;
    EXPECT_EQ(read.bloom.frame.intensity, 0.5f) << "the lines before the bad one are applied";
    EXPECT_FALSE(applySettingsFile(read, (dir / "missing.txt").string(), &error));
    EXPECT_NE(error.find("missing.txt"), std::string::npos) << error;
    // Never over a file it reads; a failed write leaves the previous file.
    const fs::path image = dir / "image.exr";
    std::ofstream(image) << "not overwritten";
    EXPECT_FALSE(writeSettingsFile(s, image.string(), {image.string()}, &error));
    EXPECT_NE(error.find("image.exr"), std::string::npos) << error;
    std::ifstream kept(image);
    std::string text;
    std::getline(kept, text);
    EXPECT_EQ(text, "not overwritten");
    EXPECT_FALSE(writeSettingsFile(s, (dir / "no folder" / "p.txt").string(), {}, &error));
    EXPECT_FALSE(fs::exists(dir / "no folder"));
    fs::remove_all(dir);
}

// One table of settings at the edges of their rules and ranges (tests/support/setting_edges.txt), which the CLI and
// the Python module accept or refuse alike: each row as a settings file given to --settings.
TEST(ViewerSettings, SettingEdgesAreAcceptedOrRefusedAsTheCliAndThePythonModuleDo)
{
    const fs::path dir = fs::path(::testing::TempDir()) / "fftbloom_setting_edges";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path path = dir / "edge.txt";
    for (const test::SettingEdge& edge : test::settingEdges())
    {
        std::ofstream lines(path);
        for (const std::string& keyValue : edge.keyValues)
            lines << keyValue << "\n";
        lines.close();
        Settings s;
        std::string error;
        EXPECT_EQ(applySettingsFile(s, path.string(), &error), edge.refusal.empty()) << edge.settings << ": " << error;
        if (!edge.refusal.empty())
        {
            EXPECT_NE(error.find(edge.refusal), std::string::npos) << edge.settings << ": " << error;
        }
    }
    fs::remove_all(dir);
}

TEST(ViewerSettings, PrefilterAndCompositeKeys)
{
    Settings s;
    std::string error;
    EXPECT_TRUE(applySetting(s, "threshold=1.5", &error)) << error;
    EXPECT_EQ(s.bloom.frame.prefilter.threshold, 1.5f);
    EXPECT_TRUE(applySetting(s, "knee=0.5", &error)) << error;
    EXPECT_EQ(s.bloom.frame.prefilter.knee, 0.5f) << "the threshold's units, as the CLI's --knee";
    EXPECT_TRUE(applySetting(s, "knee=2", &error)) << error;
    EXPECT_EQ(s.bloom.frame.prefilter.knee, 2.0f) << "wider than the threshold: used as the threshold";
    EXPECT_TRUE(applySetting(s, "intensity=3.5", &error)) << error;
    EXPECT_EQ(s.bloom.frame.intensity, 3.5f);
    EXPECT_TRUE(applySetting(s, "tint=2,0.5,0", &error)) << error;
    EXPECT_EQ(s.bloom.frame.tint, (std::array<float, 3>{2.0f, 0.5f, 0.0f}));
    for (const char* bad : {"tint=1,1", "tint=1,1,1,1", "tint=-1,1,1", "tint=nan,1,1", "tint=1,,1", "tint=1,1,1,"})
        EXPECT_FALSE(applySetting(s, bad, &error)) << bad;
    EXPECT_EQ(s.bloom.frame.tint, (std::array<float, 3>{2.0f, 0.5f, 0.0f}))
        << "a refused value leaves the tint as it was";
    EXPECT_FALSE(applySetting(s, "intensity=-0.1", &error));
    EXPECT_TRUE(applySetting(s, "kernel-rotation=-30", &error)) << error;
    EXPECT_EQ(s.bloom.kernel.rotationDegrees, -30.0f);
    EXPECT_TRUE(applySetting(s, "kernel-centre-offset=0.25,-1", &error)) << error;
    EXPECT_EQ(s.bloom.kernel.centreOffset, (std::array<float, 2>{0.25f, -1.0f}));
    for (const char* bad : {"kernel-rotation=inf", "kernel-centre-offset=0.5", "kernel-centre-offset=1.5,0",
                            "kernel-centre-offset=0,0,0"})
        EXPECT_FALSE(applySetting(s, bad, &error)) << bad;
    EXPECT_EQ(s.bloom.kernel.centreOffset, (std::array<float, 2>{0.25f, -1.0f}));
    EXPECT_TRUE(applySetting(s, "bloom-clamp=20", &error)) << error;
    EXPECT_EQ(s.bloom.frame.prefilter.clamp, 20.0f);
    EXPECT_TRUE(applySetting(s, "output=additive", &error)) << error;
    EXPECT_EQ(s.bloom.frame.output, FFTB_OUTPUT_MODE_ADDITIVE);
    EXPECT_FALSE(applySetting(s, "threshold=-1", &error));
    EXPECT_NE(error.find("threshold"), std::string::npos) << error;
    EXPECT_FALSE(applySetting(s, "knee=-1", &error));
    EXPECT_FALSE(applySetting(s, "output=screen", &error));
}

TEST(ViewerSettings, PaddingAxisSpectrumAndPrecisionKeysCarryThePublicEnumsAndRefuseOtherNames)
{
    Settings s;
    std::string error;
    EXPECT_EQ(s.bloom.plan.storage, FFTB_STORAGE_PRECISION_FLOAT32);
    EXPECT_TRUE(applySetting(s, "precision=fp16", &error)) << error;
    EXPECT_EQ(s.bloom.plan.storage, FFTB_STORAGE_PRECISION_FLOAT16);
    EXPECT_TRUE(applySetting(s, "padding=mirror", &error)) << error;
    EXPECT_EQ(s.bloom.plan.padding, FFTB_PADDING_MIRROR);
    EXPECT_TRUE(applySetting(s, "axis=y", &error)) << error;
    EXPECT_EQ(s.bloom.plan.axisOrder, FFTB_AXIS_ORDER_Y_FIRST);
    EXPECT_EQ(s.bloom.kernel.spectrum, FFTB_SPECTRUM_MODE_EXACT) << "the default";
    EXPECT_TRUE(applySetting(s, "spectrum=resampled", &error)) << error;
    EXPECT_EQ(s.bloom.kernel.spectrum, FFTB_SPECTRUM_MODE_RESAMPLED);
    EXPECT_EQ(s.bloom.plan.resolution, FFTB_BLOOM_RESOLUTION_FULL);
    EXPECT_TRUE(applySetting(s, "resolution=half", &error)) << error;
    EXPECT_EQ(s.bloom.plan.resolution, FFTB_BLOOM_RESOLUTION_HALF);
    for (const char* bad :
         {"padding=wrap", "padding=1", "axis=z", "spectrum=2", "spectrum=", "precision=bf16", "resolution=quarter"})
    {
        EXPECT_FALSE(applySetting(s, bad, &error)) << bad;
        EXPECT_NE(error.find(std::string(bad).substr(0, std::string(bad).find('='))), std::string::npos) << error;
        EXPECT_NE(error.find(" is not "), std::string::npos) << error;
    }
    EXPECT_EQ(s.bloom.plan.padding, FFTB_PADDING_MIRROR);
    EXPECT_EQ(s.bloom.plan.axisOrder, FFTB_AXIS_ORDER_Y_FIRST);
    EXPECT_EQ(s.bloom.kernel.spectrum, FFTB_SPECTRUM_MODE_RESAMPLED);
    EXPECT_EQ(s.bloom.plan.storage, FFTB_STORAGE_PRECISION_FLOAT16);
}

TEST(ViewerSettings, KernelExtentKey)
{
    Settings s;
    std::string error;
    EXPECT_TRUE(s.bloom.plan.kernelSpan.native());
    EXPECT_TRUE(applySetting(s, "kernel-span=300px", &error)) << error;
    EXPECT_EQ(s.bloom.plan.kernelSpan.unit, FFTB_KERNEL_SPAN_PIXELS);
    EXPECT_EQ(s.bloom.plan.kernelSpan.value, 300.0f);
    EXPECT_TRUE(applySetting(s, "kernel-span=0.25diag", &error)) << error;
    EXPECT_EQ(s.bloom.plan.kernelSpan.unit, FFTB_KERNEL_SPAN_FRAME_DIAGONAL);
    EXPECT_EQ(s.bloom.plan.kernelSpan.value, 0.25f);
    EXPECT_TRUE(applySetting(s, "kernel-span=native", &error)) << error;
    EXPECT_TRUE(s.bloom.plan.kernelSpan.native());
    for (const char* bad : {"kernel-span=0px", "kernel-span=-1diag", "kernel-span=300", "kernel-span=5000px"})
    {
        EXPECT_FALSE(applySetting(s, bad, &error)) << bad;
        EXPECT_NE(error.find(bad), std::string::npos) << error;
    }
    EXPECT_TRUE(s.bloom.plan.kernelSpan.native());
}

} // namespace
} // namespace fftb::viewer
