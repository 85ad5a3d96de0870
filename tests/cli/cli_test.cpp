// The fftbloom binary end to end: exit codes, one-line errors that name the file at fault, all-or-nothing output.
#include "image_io.h"

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <set>

namespace fs = std::filesystem;

namespace fftb
{
namespace
{

struct CliResult
{
    int code = -1;
    std::string out;
    std::string err;
};

std::string readBytes(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const fs::path& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

/// Single-quoted for /bin/sh; the temp dir may hold spaces.
std::string quote(const fs::path& path)
{
    std::string quoted = "'";
    for (const char c : path.string())
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

/// Positive values with a fixed seed and one bright texel, so the bloom has something to spread.
Image makeImage(int width, int height, const std::vector<std::string>& names, PixelType type)
{
    std::mt19937 random(42);
    std::uniform_real_distribution<float> value(0.0f, 2.0f);
    Image image{width, height, {}};
    for (const auto& name : names)
    {
        Channel channel{name, type, std::vector<float>(std::size_t(width) * std::size_t(height))};
        for (float& v : channel.values)
            v = value(random);
        channel.values[std::size_t(width) + 3] = 50.0f;
        image.channels.push_back(std::move(channel));
    }
    return image;
}

const Channel& channel(const Image& image, const std::string& name)
{
    const int index = image.find(name);
    EXPECT_GE(index, 0) << "no channel " << name;
    return image.channels.at(std::size_t(index));
}

class CliTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
        dir = fs::path(::testing::TempDir()) / ("fftbloom_cli_" + name);
        // Captured streams live beside the folder so that its listing shows only what the CLI wrote.
        streams = fs::path(::testing::TempDir()) / ("fftbloom_cli_" + name + "_");
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    void TearDown() override
    {
        fs::remove_all(dir);
        fs::remove(streams.string() + "out");
        fs::remove(streams.string() + "err");
    }

    fs::path file(const std::string& name) const { return dir / name; }

    std::set<std::string> listing() const
    {
        std::set<std::string> names;
        for (const auto& entry : fs::directory_iterator(dir))
            names.insert(entry.path().filename().string());
        return names;
    }

    /// Runs the CLI with validation on, so that any validation message fails the run too.
    CliResult run(const std::string& args) const
    {
        const std::string out = streams.string() + "out";
        const std::string err = streams.string() + "err";
        const std::string command =
            quote(FFTBLOOM_CLI_PATH) + " --validate " + args + " >" + quote(out) + " 2>" + quote(err);
        const int status = std::system(command.c_str());
        CliResult result;
        result.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        result.out = readBytes(out);
        result.err = readBytes(err);
        return result;
    }

    /// Small kernel: lavapipe runs the FFTs on the CPU.
    CliResult bloom(const fs::path& input, const fs::path& output, const std::string& extra = "") const
    {
        return run(quote(input) + " -o " + quote(output) + " --kernel-size 8 " + extra);
    }

    /// The run failed with one stderr line holding `names` and `reason`, and left the folder as it was.
    void expectRefused(const CliResult& r, const std::set<std::string>& before, const std::string& names,
                       const std::string& reason) const
    {
        EXPECT_NE(r.code, 0) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "stderr:\n" << r.err;
        EXPECT_TRUE(!r.err.empty() && r.err.back() == '\n') << "stderr:\n" << r.err;
        EXPECT_NE(r.err.find(names), std::string::npos) << "stderr does not name " << names << ": " << r.err;
        EXPECT_NE(r.err.find(reason), std::string::npos) << "stderr lacks \"" << reason << "\": " << r.err;
        EXPECT_FALSE(fs::exists(file("out.exr")));
        EXPECT_EQ(listing(), before) << "the CLI left files behind";
    }

    /// A valid 24x16 RGB input in the test folder.
    fs::path writeInput(const std::string& name = "in.exr", PixelType type = PixelType::Half) const
    {
        writeExr(file(name).string(), makeImage(24, 16, {"R", "G", "B"}, type));
        return file(name);
    }

    fs::path dir;
    fs::path streams;
};

TEST_F(CliTest, MissingInputIsNamed)
{
    const auto before = listing();
    expectRefused(bloom(file("absent.exr"), file("out.exr")), before, "absent.exr", "no such file");
}

TEST_F(CliTest, TextFileIsNotAnImage)
{
    writeBytes(file("notes.exr"), "these are notes, not pixels\n");
    const auto before = listing();
    expectRefused(bloom(file("notes.exr"), file("out.exr")), before, "notes.exr", "not an OpenEXR");
}

TEST_F(CliTest, TruncatedExrIsRefused)
{
    const std::string bytes = readBytes(writeInput());
    writeBytes(file("in.exr"), bytes.substr(0, bytes.size() / 2));
    const auto before = listing();
    expectRefused(bloom(file("in.exr"), file("out.exr")), before, "in.exr", "truncated");
}

TEST_F(CliTest, UnsupportedCompressionIsNamed)
{
    std::string bytes = readBytes(writeInput());
    const std::string attribute("compression\0compression\0", 24);
    const std::size_t at = bytes.find(attribute);
    ASSERT_NE(at, std::string::npos);
    bytes[at + attribute.size() + 4] = 6; // after the 4-byte attribute size: B44
    writeBytes(file("in.exr"), bytes);
    const auto before = listing();
    expectRefused(bloom(file("in.exr"), file("out.exr")), before, "in.exr", "unsupported compression B44");
}

TEST_F(CliTest, NanPixelIsNamed)
{
    // Float channels: a NaN survives storage bit for bit.
    Image image = makeImage(24, 16, {"R", "G", "B"}, PixelType::Float);
    image.channels[std::size_t(image.find("G"))].values[2 * 24 + 3] = std::numeric_limits<float>::quiet_NaN();
    writeExr(file("in.exr").string(), image);
    const auto before = listing();
    expectRefused(bloom(file("in.exr"), file("out.exr")), before, "in.exr: pixel (3, 2) channel G", "NaN");
}

TEST_F(CliTest, InfinitePixelIsNamed)
{
    Image image = makeImage(24, 16, {"R", "G", "B"}, PixelType::Float);
    image.channels[std::size_t(image.find("R"))].values[1 * 24 + 5] = std::numeric_limits<float>::infinity();
    writeExr(file("in.exr").string(), image);
    const auto before = listing();
    expectRefused(bloom(file("in.exr"), file("out.exr")), before, "in.exr: pixel (5, 1) channel R", "infinite");
}

TEST_F(CliTest, KernelSizeNotPowerOfTwoIsUsageError)
{
    writeInput();
    const auto before = listing();
    const CliResult r = run(quote(file("in.exr")) + " -o " + quote(file("out.exr")) + " --kernel-size 100");
    expectRefused(r, before, "--kernel-size", "power of two");
    EXPECT_EQ(r.code, 2);
}

TEST_F(CliTest, FrameTooLargeIsRefusedBeforeVulkan)
{
    writeExr(file("wide.exr").string(), makeImage(5000, 8, {"R", "G", "B"}, PixelType::Half));
    const auto before = listing();
    // --device 99 would fail first if the runner were created before planning.
    const CliResult r = bloom(file("wide.exr"), file("out.exr"), "--device 99");
    expectRefused(r, before, "wide.exr", "too large");
    EXPECT_NE(r.err.find("longer than 4096"), std::string::npos) << r.err;
}

TEST_F(CliTest, MissingKernelFileIsNamed)
{
    writeInput();
    const auto before = listing();
    expectRefused(bloom(file("in.exr"), file("out.exr"), "--kernel " + quote(file("psf.exr"))), before, "psf.exr",
                  "no such file");
}

TEST_F(CliTest, Fp16PrecisionIsRefused)
{
    writeInput();
    const auto before = listing();
    expectRefused(bloom(file("in.exr"), file("out.exr"), "--precision fp16"), before, "--precision", "not supported");
}

TEST_F(CliTest, OutputEqualToInputLeavesInputUntouched)
{
    const std::string original = readBytes(writeInput());
    const auto before = listing();
    // Through "./" so that only resolution, not string equality, shows they are the same file.
    expectRefused(bloom(file("in.exr"), dir / "." / "in.exr"), before, "in.exr", "is the input file");
    EXPECT_EQ(readBytes(file("in.exr")), original) << "the input was modified";
}

TEST_F(CliTest, OutputIntoMissingFolderIsNamed)
{
    writeInput();
    const auto before = listing();
    expectRefused(bloom(file("in.exr"), file("absent") / "out.exr"), before, "absent/out.exr", "no such folder");
}

TEST_F(CliTest, DeviceIndexOutOfRangeIsNamed)
{
    writeInput();
    const auto before = listing();
    expectRefused(bloom(file("in.exr"), file("out.exr"), "--device 99"), before, "--device", "no device 99");
}

TEST_F(CliTest, ExtraChannelsPassThroughInOrderAndType)
{
    writeExr(file("in.exr").string(), makeImage(24, 16, {"R", "G", "B", "A", "Z"}, PixelType::Half));
    const CliResult r = bloom(file("in.exr"), file("out.exr"));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const Image in = readImage(file("in.exr").string());
    const Image out = readImage(file("out.exr").string());
    ASSERT_EQ(out.width, 24);
    ASSERT_EQ(out.height, 16);
    ASSERT_EQ(out.channels.size(), in.channels.size());
    for (std::size_t c = 0; c < in.channels.size(); ++c)
    {
        EXPECT_EQ(out.channels[c].name, in.channels[c].name) << "channel " << c;
        EXPECT_EQ(out.channels[c].type, PixelType::Half) << "channel " << out.channels[c].name;
    }
    EXPECT_EQ(channel(out, "A").values, channel(in, "A").values);
    EXPECT_EQ(channel(out, "Z").values, channel(in, "Z").values);
    EXPECT_NE(channel(out, "R").values, channel(in, "R").values) << "R was not bloomed";
    EXPECT_EQ(listing(), (std::set<std::string>{"in.exr", "out.exr"}));
}

TEST_F(CliTest, PixelTypeFloatWritesFloatChannels)
{
    writeExr(file("in.exr").string(), makeImage(24, 16, {"R", "G", "B", "A"}, PixelType::Half));
    const CliResult r = bloom(file("in.exr"), file("out.exr"), "--pixel-type float");
    ASSERT_EQ(r.code, 0) << r.err;
    const Image out = readImage(file("out.exr").string());
    ASSERT_EQ(out.channels.size(), 4u);
    for (const Channel& c : out.channels)
        EXPECT_EQ(c.type, PixelType::Float) << "channel " << c.name;
}

TEST_F(CliTest, FullSharpeningOfExactSpectrumIsIdentity)
{
    // Float in and out: half storage alone would exceed the tolerance.
    writeInput("in.exr", PixelType::Float);
    const CliResult r = bloom(file("in.exr"), file("out.exr"), "--output bloom --spectrum exact --sharpen 1");
    ASSERT_EQ(r.code, 0) << r.err;
    const Image in = readImage(file("in.exr").string());
    const Image out = readImage(file("out.exr").string());
    for (const char* name : {"R", "G", "B"})
    {
        const std::vector<float>& a = channel(in, name).values;
        const std::vector<float>& b = channel(out, name).values;
        ASSERT_EQ(a.size(), b.size());
        double peak = 0.0, worst = 0.0;
        for (std::size_t i = 0; i < a.size(); ++i)
        {
            peak = std::max(peak, double(std::abs(a[i])));
            worst = std::max(worst, double(std::abs(b[i] - a[i])));
        }
        EXPECT_LE(worst, 1e-5 * peak) << "channel " << name << ": max error " << worst / peak << " of the peak";
    }
}

TEST_F(CliTest, PreviewIsPng)
{
    writeInput();
    const CliResult r = bloom(file("in.exr"), file("out.exr"), "--preview " + quote(file("preview.png")));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::exists(file("out.exr")));
    EXPECT_EQ(readBytes(file("preview.png")).substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST_F(CliTest, HelpListsEveryOption)
{
    const CliResult r = run("--help");
    EXPECT_EQ(r.code, 0) << r.err;
    for (const char* option : {"--kernel ", "--kernel-size", "--padding", "--axis", "--spectrum", "--sharpen",
                               "--output", "--intensity", "--precision", "--device", "--pixel-type", "-o "})
        EXPECT_NE(r.out.find(option), std::string::npos) << option << " missing from --help:\n" << r.out;
}

} // namespace
} // namespace fftb
