// SPDX-License-Identifier: MIT
// The settings table: each setting reads back what it prints, takes its range's bounds, refuses what lies past them
// (NaN and Inf included) with a reason naming the setting and the value, and leaves the settings as they were.
#include "settings/kernel_span.h"
#include "settings/presets.h"
#include "settings/setting_table.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace fftb
{
namespace
{

/// The lines of the default settings: what a refused value must leave.
std::vector<std::string> defaultLines()
{
    return settingLines(BloomSettings{});
}

TEST(SettingTable, EverySettingReadsItsPrintedDefaultBack)
{
    std::set<std::string> names;
    for (const SettingEntry& entry : settingTable())
    {
        EXPECT_TRUE(names.insert(entry.name).second) << entry.name << " is in the table twice";
        const std::string text = entry.print(BloomSettings{});
        BloomSettings bloom;
        std::string reason;
        ASSERT_TRUE(entry.parse(text, bloom, &reason)) << entry.name << "=" << text << ": " << reason;
        EXPECT_EQ(entry.print(bloom), text) << entry.name;
        EXPECT_EQ(settingLines(bloom), defaultLines()) << entry.name << "=" << text;
    }
    for (const char* name : {"intensity",
                             "tint",
                             "sharpen",
                             "output",
                             "threshold",
                             "knee",
                             "bloom-clamp",
                             "padding",
                             "axis",
                             "spectrum",
                             "spectrum-interpolation",
                             "interpolation-width",
                             "spectrum-oversampling",
                             "precision",
                             "resolution",
                             "kernel-size",
                             "kernel-span",
                             "kernel-rotation",
                             "kernel-centre-offset",
                             "kernel",
                             "blades",
                             "blade-curvature",
                             "obstruction",
                             "vanes",
                             "airy-radius",
                             "corona",
                             "seed",
                             "animate"})
        EXPECT_TRUE(names.count(name)) << name << " is not in the table";
}

TEST(SettingTable, LinesRoundTripExactly)
{
    BloomSettings bloom;
    std::string error;
    for (const char* line : {"intensity=0.1",
                             "tint=1,0.30000001,1e-07",
                             "sharpen=0.3333333",
                             "output=additive",
                             "threshold=1e9",
                             "knee=0.7",
                             "bloom-clamp=123.456",
                             "padding=mirror",
                             "axis=y",
                             "spectrum=resampled",
                             "spectrum-interpolation=cubic",
                             "interpolation-width=4",
                             "spectrum-oversampling=1",
                             "precision=fp16",
                             "resolution=half",
                             "kernel-size=2048",
                             "kernel-span=0.123456789diag",
                             "kernel-rotation=-12.75",
                             "kernel-centre-offset=0.1,-0.2",
                             "kernel-fade=0.125",
                             "blades=7",
                             "blade-curvature=0.1",
                             "obstruction=0.3",
                             "vanes=3",
                             "airy-radius=2.5",
                             "glare=0.45",
                             "corona=0.2",
                             "seed=42",
                             "animate=true"})
        ASSERT_TRUE(applySettingLine(line, bloom, &error)) << line << ": " << error;
    const std::vector<std::string> lines = settingLines(bloom);
    BloomSettings readBloom;
    for (const std::string& line : lines)
        ASSERT_TRUE(applySettingLine(line, readBloom, &error)) << line << ": " << error;
    EXPECT_EQ(settingLines(readBloom), lines);
    EXPECT_EQ(readBloom.frame.tint[1], 0.30000001f);
    EXPECT_EQ(readBloom.kernel.sizeTexels, 2048);
    EXPECT_TRUE(readBloom.kernel == bloom.kernel);
    EXPECT_TRUE(readBloom == bloom);

    // A kernel file has no generated PSF's settings; "generated" is the generated PSF again.
    ASSERT_TRUE(applySettingLine("kernel=my psf.exr", bloom, &error)) << error;
    const std::vector<std::string> withFile = settingLines(bloom);
    EXPECT_EQ(withFile.back(), "kernel=my psf.exr");
    for (const std::string& line : withFile)
        EXPECT_NE(line.rfind("blades=", 0), 0u) << line;
    ASSERT_TRUE(applySettingLine("kernel=generated", bloom, &error)) << error;
    EXPECT_TRUE(bloom.kernel.file.empty());
}

// One range per setting: each bound taken, the value just past it refused with a reason naming the setting and the
// value, and the settings left as they were.
TEST(SettingTable, RangesTakeTheirBoundsAndRefuseWhatLiesPastThem)
{
    const struct
    {
        const char* name;
        std::vector<const char*> accepted;
        std::vector<const char*> refused;
    } cases[] = {
        {"intensity", {"0", "1000000000", "1e9"}, {"-0.0001", "1000000001", "", "1,2", "0.5x", " 1"}},
        {"tint", {"0,0,0", "1000000000,1000000000,1000000000"}, {"1000000001,1,1", "-0.0001,1,1", "1,1", "1,1,1,1"}},
        {"sharpen", {"0", "1"}, {"-0.0001", "1.0001"}},
        {"output", {"bloom", "composite", "additive"}, {"screen", ""}},
        {"threshold", {"0", "1000000000"}, {"-0.0001", "1000000001"}},
        {"knee", {"0", "1000000000"}, {"-0.0001", "1000000001"}},
        {"bloom-clamp", {"0", "1000000000"}, {"-0.0001", "1000000001"}},
        {"padding", {"zero-normalized", "zero", "mirror"}, {"wrap", "1"}},
        {"axis", {"auto", "x", "y"}, {"z"}},
        {"spectrum", {"resampled", "exact"}, {"2"}},
        {"spectrum-interpolation", {"es", "cubic", "linear"}, {"nearest"}},
        {"interpolation-width", {"0", "2", "8"}, {"1", "9", "-1", "2.5"}},
        {"spectrum-oversampling", {"0", "1", "2"}, {"3", "-1"}},
        {"precision", {"fp32", "fp16"}, {"bf16"}},
        {"resolution", {"full", "half"}, {"quarter"}},
        {"kernel-size", {"2", "16", "1024", "2048", "4096"}, {"1", "8192", "100", "0", "-2"}},
        {"kernel-span", {"native", "4096px", "0.001px", "0.25diag", "200diag"}, {"4096.001px", "0px", "-1diag", "300"}},
        {"kernel-rotation", {"-1000000", "1000000"}, {"-1000000.1", "1000000.1"}},
        {"kernel-centre-offset", {"-1,1", "1,-1"}, {"1.001,0", "0,-1.001", "0.5", "0,0,0"}},
        {"kernel", {"psf.exr", "generated"}, {""}},
        {"blades", {"0", "3", "16"}, {"1", "2", "17", "-1"}},
        {"blade-curvature", {"0", "1"}, {"-0.0001", "1.0001"}},
        {"obstruction", {"0", "0.9"}, {"-0.0001", "0.9001"}},
        {"vanes", {"0", "8"}, {"-1", "9"}},
        {"airy-radius", {"1", "16"}, {"0.9999", "16.0001"}},
        {"corona", {"0", "1"}, {"-0.0001", "1.0001"}},
        {"glare", {"0", "1"}, {"-0.0001", "1.0001"}},
        {"kernel-fade", {"0", "1", "auto"}, {"-0.0001", "1.0001", "nan", "Auto"}},
        {"preset", {"none", "camera", "soft-glow", "eye", "unreal"}, {"", "Camera", "nope"}},
        {"seed", {"0", "1000000000"}, {"-1", "1000000001"}},
        {"animate", {"true", "false"}, {"yes", "1"}},
    };
    for (const auto& c : cases)
    {
        for (const char* value : c.accepted)
        {
            BloomSettings bloom;
            std::string error;
            EXPECT_TRUE(applySettingLine(std::string(c.name) + "=" + value, bloom, &error))
                << c.name << "=" << value << ": " << error;
        }
        for (const char* value : c.refused)
        {
            BloomSettings bloom;
            std::string error;
            EXPECT_FALSE(applySettingLine(std::string(c.name) + "=" + value, bloom, &error)) << c.name << "=" << value;
            EXPECT_EQ(error.rfind(std::string(c.name) + ": ", 0), 0u) << "names the setting: " << error;
            EXPECT_NE(error.find(value), std::string::npos) << "names the value: " << error;
            EXPECT_EQ(error.find('\n'), std::string::npos) << error;
            EXPECT_EQ(settingLines(bloom), defaultLines()) << c.name << "=" << value << " changed a setting";
        }
    }
}

// A preset sets the settings its lines name, over what was set before it, and leaves the others; later lines change
// it; it is not printed (its settings are), so a file of settingLines reads back the same without it.
TEST(SettingTable, PresetsSetTheirSettingsAndLaterLinesChangeThem)
{
    for (const Preset& preset : presets())
    {
        SCOPED_TRACE(preset.name);
        BloomSettings bloom;
        std::string error;
        ASSERT_TRUE(applySettingLine("threshold=2", bloom, &error)) << error;
        ASSERT_TRUE(applySettingLine("kernel=psf.exr", bloom, &error)) << error;
        ASSERT_TRUE(applySettingLine(std::string("preset=") + preset.name, bloom, &error)) << error;
        const std::vector<std::string> lines = settingLines(bloom);
        for (const std::string line : preset.lines)
        {
            if (line != "kernel=generated") // printed for a file only
            {
                EXPECT_NE(std::find(lines.begin(), lines.end(), line), lines.end()) << line << " is set";
            }
        }
        EXPECT_EQ(bloom.frame.prefilter.threshold, 2.0f) << "a setting the preset does not name is kept";
        EXPECT_TRUE(bloom.kernel.file.empty()) << "every preset is of the generated PSF";
        for (const std::string& line : lines)
            EXPECT_NE(line.rfind("preset=", 0), 0u) << "never printed: " << line;
        ASSERT_TRUE(applySettingLine("glare=0.125", bloom, &error)) << error;
        EXPECT_EQ(bloom.kernel.glare, 0.125);
    }
    const Preset* camera = findPreset("camera");
    ASSERT_NE(camera, nullptr);
    BloomSettings bloom;
    std::string error;
    ASSERT_TRUE(applySettingLine("preset=camera", bloom, &error)) << error;
    EXPECT_EQ(bloom.kernel.aperture.blades, 6);
    EXPECT_EQ(bloom.plan.kernelSpan.unit, FFTB_KERNEL_SPAN_FRAME_DIAGONAL);
    EXPECT_FALSE(applySettingLine("preset=sunset", bloom, &error));
    EXPECT_NE(error.find("'sunset' is not a preset: none, camera, soft-glow, eye, unreal"), std::string::npos) << error;
    EXPECT_EQ(findPreset("sunset"), nullptr);
}

TEST(SettingTable, NumbersAreFinite)
{
    for (const char* name : {"intensity", "sharpen", "threshold", "knee", "bloom-clamp", "kernel-rotation",
                             "blade-curvature", "obstruction", "airy-radius", "corona"})
        for (const char* value : {"nan", "NaN", "inf", "-inf", "infinity", "1e999"})
        {
            BloomSettings bloom;
            std::string error;
            EXPECT_FALSE(applySettingLine(std::string(name) + "=" + value, bloom, &error)) << name << "=" << value;
            EXPECT_NE(error.find("finite"), std::string::npos) << error;
        }
    for (const char* line :
         {"tint=1,nan,1", "tint=inf,1,1", "kernel-centre-offset=nan,0", "kernel-span=infpx", "kernel-span=nandiag"})
    {
        BloomSettings bloom;
        std::string error;
        EXPECT_FALSE(applySettingLine(line, bloom, &error)) << line;
    }
}

TEST(SettingTable, UnknownNamesAndLinesWithoutAValueAreRefused)
{
    BloomSettings bloom;
    std::string error;
    EXPECT_FALSE(applySettingLine("glow=1", bloom, &error));
    EXPECT_NE(error.find("'glow'"), std::string::npos) << error;
    EXPECT_FALSE(applySettingLine("intensity", bloom, &error));
    EXPECT_NE(error.find("name=value"), std::string::npos) << error;
    EXPECT_EQ(findSetting("clamp"), nullptr) << "the CLI's own --clamp is no bloom setting";
    EXPECT_FALSE(applySettingLine("kernel-extent=256px", bloom, &error));
    EXPECT_EQ(error, "'kernel-extent' is now 'kernel-span'") << "a renamed setting names its new name";
    EXPECT_EQ(settingLines(bloom), defaultLines());
}

TEST(SettingTable, HelpLinesNameTheFormAndTheRange)
{
    EXPECT_EQ(settingHelpLine(*findSetting("kernel-size")).rfind("kernel-size=N (", 0), 0u);
    EXPECT_NE(settingHelpLine(*findSetting("kernel-size")).find("2..4096"), std::string::npos);
    EXPECT_NE(settingHelpLine(*findSetting("intensity")).find("0..1000000000"), std::string::npos);
}

// A kernel file at native span keeps its own extent: its larger side in pixels, native when the kernel is sampled at
// the file's own size, and any other span as given.
TEST(KernelSpan, AKernelFileAtNativeSpansItsOwnExtent)
{
    EXPECT_EQ(fileKernelSpan({}, 512, 256, 256), (KernelSpan{FFTB_KERNEL_SPAN_PIXELS, 512.0f}));
    EXPECT_EQ(fileKernelSpan({}, 1, 1, 16), (KernelSpan{FFTB_KERNEL_SPAN_PIXELS, 1.0f}));
    EXPECT_TRUE(fileKernelSpan({}, 200, 256, 256).native());
    const KernelSpan diagonal{FFTB_KERNEL_SPAN_FRAME_DIAGONAL, 0.25f};
    EXPECT_EQ(fileKernelSpan(diagonal, 512, 512, 256), diagonal);
}

} // namespace
} // namespace fftb
