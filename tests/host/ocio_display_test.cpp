// SPDX-License-Identifier: MIT
// Previews through an OpenColorIO display transform: a config whose default view is a gamma of 2 (y = sqrt(x)), with a
// linear view, a second display and a look that doubles the light, so the expected values follow from the formulas,
// not from OpenColorIO.
#include "host_error.h"
#include "image/image_io.h"
#include "image/ocio_display.h"

#include <gtest/gtest.h>
#include <stb_image.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace fftb
{
namespace
{

namespace fs = std::filesystem;

const char* const kConfig = R"(ocio_profile_version: 2
roles:
  default: linear
  scene_linear: linear
file_rules:
  - !<Rule> {name: Default, colorspace: linear}
displays:
  test:
    - !<View> {name: gamma, colorspace: gamma}
    - !<View> {name: linear, colorspace: linear}
  other:
    - !<View> {name: gamma, colorspace: gamma}
looks:
  - !<Look>
    name: brighter
    process_space: linear
    transform: !<MatrixTransform> {matrix: [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1]}
colorspaces:
  - !<ColorSpace>
    name: linear
  - !<ColorSpace>
    name: gamma
    from_scene_reference: !<ExponentTransform> {value: 2, direction: inverse}
)";

class OcioDisplayTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        fs::remove_all(folder_);
        fs::create_directories(folder_);
        std::ofstream(folder_ / "config.ocio") << kConfig;
    }
    void TearDown() override
    {
        unsetenv("OCIO");
        fs::remove_all(folder_);
    }
    fs::path folder_ = fs::temp_directory_path() / "fftbloom_ocio_display";
};

TEST_F(OcioDisplayTest, TheConfigsDefaultDisplayAndViewMapThePreview)
{
    setenv("OCIO", (folder_ / "config.ocio").c_str(), 1);
    const std::optional<OcioDisplay> display = OcioDisplay::fromEnvironment();
    ASSERT_TRUE(display);
    EXPECT_NE(display->description().find("display 'test', view 'gamma'"), std::string::npos) << display->description();
    float rgb[6] = {0.25f, 0.5f, 1.0f, 0.0f, 0.09f, 4.0f};
    display->apply(rgb, 2);
    for (const auto& [got, x] : {std::pair{rgb[0], 0.25}, std::pair{rgb[1], 0.5}, std::pair{rgb[4], 0.09}})
        EXPECT_NEAR(got, std::sqrt(x), 1e-5) << x;

    // 2 x 1 texels at exposure +1: 0.125 -> 0.25 -> 0.5 -> 128, 0.02 -> 0.04 -> 0.2 -> 51; past 1 clamps to 255.
    Image image{2, 1, {}};
    for (const char* name : {"R", "G", "B"})
        image.channels.push_back({name, PixelType::Float, {name[0] == 'B' ? 3.0f : 0.125f, 0.02f}});
    const fs::path png = folder_ / "preview.png";
    writePngPreview(png.string(), image, 1.0f, &*display);
    int w = 0, h = 0, n = 0;
    unsigned char* pixels = stbi_load(png.c_str(), &w, &h, &n, 3);
    ASSERT_NE(pixels, nullptr);
    EXPECT_EQ(pixels[0], 128);
    EXPECT_EQ(pixels[1], 128);
    EXPECT_EQ(pixels[2], 255);
    EXPECT_EQ(pixels[3], 51);
    stbi_image_free(pixels);
}

// --ocio-display, --ocio-view, --ocio-look: each name the config has picks its transform; one it has not is named
// with those it has.
TEST_F(OcioDisplayTest, ADisplayViewAndLookArePickedByName)
{
    setenv("OCIO", (folder_ / "config.ocio").c_str(), 1);
    const auto mapped = [](const OcioChoice& choice, float x)
    {
        const std::optional<OcioDisplay> display = OcioDisplay::fromEnvironment(choice);
        EXPECT_TRUE(display);
        float rgb[3] = {x, x, x};
        display->apply(rgb, 1);
        return rgb[1];
    };
    EXPECT_NEAR(mapped({"", "linear", ""}, 0.25f), 0.25f, 1e-6);
    EXPECT_NEAR(mapped({"other", "", ""}, 0.25f), 0.5f, 1e-5);
    EXPECT_NEAR(mapped({"", "", "brighter"}, 0.125f), 0.5f, 1e-5);
    EXPECT_NEAR(mapped({"test", "linear", "brighter"}, 0.125f), 0.25f, 1e-6);
    EXPECT_NE(OcioDisplay::fromEnvironment({"", "", "brighter"})->description().find("look 'brighter'"),
              std::string::npos);
    const struct
    {
        OcioChoice choice;
        const char* reason;
    } refused[] = {{{"nope", "", ""}, "no display 'nope' (the config's: test, other)"},
                   {{"other", "linear", ""}, "no view 'linear' of display 'other' (its views: gamma)"},
                   {{"", "", "nope"}, "no look 'nope' (the config's: brighter)"}};
    for (const auto& r : refused)
    {
        try
        {
            OcioDisplay::fromEnvironment(r.choice);
            ADD_FAILURE() << "accepted: " << r.reason;
        }
        catch (const HostError& e)
        {
            EXPECT_NE(std::string(e.what()).find(r.reason), std::string::npos) << e.what();
        }
    }
    unsetenv("OCIO");
    EXPECT_THROW(OcioDisplay::fromEnvironment({"", "", "brighter"}), HostError) << "a look without a config";
}

// The viewer's 3D LUT: nodes 0 (black), 2^0, 2^2 on each axis, red fastest, through y = sqrt(x).
TEST_F(OcioDisplayTest, TheLutSamplesTheTransformOnALog2Grid)
{
    setenv("OCIO", (folder_ / "config.ocio").c_str(), 1);
    const std::vector<float> lut = OcioDisplay::fromEnvironment()->lut(3, -2.0f, 2.0f);
    ASSERT_EQ(lut.size(), 27u * 4u);
    const float display[3] = {0.0f, 1.0f, 2.0f};
    for (int b = 0; b < 3; ++b)
        for (int g = 0; g < 3; ++g)
            for (int r = 0; r < 3; ++r)
            {
                const float* texel = &lut[std::size_t((b * 3 + g) * 3 + r) * 4];
                EXPECT_NEAR(texel[0], display[r], 1e-5) << r << g << b;
                EXPECT_NEAR(texel[1], display[g], 1e-5) << r << g << b;
                EXPECT_NEAR(texel[2], display[b], 1e-5) << r << g << b;
                EXPECT_EQ(texel[3], 1.0f);
            }
}

TEST_F(OcioDisplayTest, UnsetMeansNoneAndABadConfigIsNamed)
{
    unsetenv("OCIO");
    EXPECT_FALSE(OcioDisplay::fromEnvironment());
    setenv("OCIO", (folder_ / "missing.ocio").c_str(), 1);
    try
    {
        OcioDisplay::fromEnvironment();
        FAIL() << "a missing config was accepted";
    }
    catch (const HostError& e)
    {
        EXPECT_NE(std::string(e.what()).find("$OCIO=" + (folder_ / "missing.ocio").string()), std::string::npos)
            << e.what();
    }
}

} // namespace
} // namespace fftb
