// SPDX-License-Identifier: MIT
// Previews through an OpenColorIO display transform: a config whose only view is a gamma of 2 (y = sqrt(x)), so the
// expected PNG values follow from the formula, not from OpenColorIO.
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
