// SPDX-License-Identifier: MIT
// The fftbloom binary on one frame: exit codes, one-line errors that name the file at fault, all-or-nothing output.
#include "cli_fixture.h"
#include "setting_edges.h"

#include "fftbloom/fftbloom.h"

#include <nlohmann/json.hpp>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

namespace fftb
{
namespace
{

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

TEST_F(CliTest, DeepExrIsRefusedByName)
{
    std::string bytes = readBytes(writeInput());
    bytes.at(5) = char(bytes.at(5) | 0x08); // the version field's non-image (deep) flag, bits 8 to 15 in byte 5
    writeBytes(file("in.exr"), bytes);
    const auto before = listing();
    expectRefused(bloom(file("in.exr"), file("out.exr")), before, "in.exr", "deep data");
}

TEST_F(CliTest, KernelSizeNotPowerOfTwoIsUsageError)
{
    writeInput();
    const auto before = listing();
    const CliResult r = run(quote(file("in.exr")) + " -o " + quote(file("out.exr")) + " --kernel-size 100");
    expectRefused(r, before, "--kernel-size", "power of two");
    EXPECT_EQ(r.code, 2);
}

// A kernel file's negative texel is refused naming it at a kernel size other than its own, as at its own.
TEST_F(CliTest, ANegativeKernelTexelIsRefusedAtAnyKernelSize)
{
    writeInput();
    Image psf = makeImage(9, 9, {"R", "G", "B"}, PixelType::Float);
    for (Channel& c : psf.channels)
        std::fill(c.values.begin(), c.values.end(), 1.0f);
    psf.channels[1].values[4 * 9 + 2] = -0.001f; // G
    writeExr(file("psf.exr").string(), psf);
    const auto before = listing();
    const CliResult r = run(quote(file("in.exr")) + " -o " + quote(file("out.exr")) + " --kernel " +
                            quote(file("psf.exr")) + " --kernel-size 16");
    expectRefused(r, before, "psf.exr", "texel (2, 4) channel G is -0.001");
    EXPECT_EQ(r.code, 2);
}

TEST_F(CliTest, FrameTooLargeFailsWithTheReason)
{
    writeExr(file("wide.exr").string(), makeImage(20000, 8, {"R", "G", "B"}, PixelType::Half));
    const auto before = listing();
    const CliResult r = bloom(file("wide.exr"), file("out.exr"));
    expectRefused(r, before, "wide.exr", "too large");
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("longer than 16384"), std::string::npos) << r.err;
}

TEST_F(CliTest, MissingKernelFileIsNamed)
{
    writeInput();
    const auto before = listing();
    expectRefused(bloom(file("in.exr"), file("out.exr"), "--kernel " + quote(file("psf.exr"))), before, "psf.exr",
                  "no such file");
}

TEST_F(CliTest, PrecisionPicksTheStorage)
{
    writeInput("in.exr", PixelType::Float);
    const auto bloomWith = [this](const std::string& name, const std::string& options)
    {
        const CliResult r = bloom(file("in.exr"), file(name), "--output bloom --pixel-type float " + options);
        EXPECT_EQ(r.code, 0) << r.err;
        return name;
    };
    const Image byDefault = readImage(file(bloomWith("default.exr", "")).string());
    const Image fp32 = readImage(file(bloomWith("fp32.exr", "--precision fp32")).string());
    const Image fp16 = readImage(file(bloomWith("fp16.exr", "--precision fp16")).string());
    for (const char* name : {"R", "G", "B"})
    {
        const std::vector<float>& a = channel(fp32, name).values;
        const std::vector<float>& b = channel(fp16, name).values;
        EXPECT_EQ(channel(byDefault, name).values, a) << "fp32 is the default";
        ASSERT_EQ(a.size(), b.size());
        double peak = 0.0, worst = 0.0;
        for (std::size_t i = 0; i < a.size(); ++i)
        {
            peak = std::max(peak, double(std::abs(a[i])));
            worst = std::max(worst, double(std::abs(b[i] - a[i])));
        }
        // fp16 rounds each stored bin to 11 significant bits: well above fp32's error, well below the bloom.
        EXPECT_GT(worst, 1e-6 * peak) << "channel " << name << ": fp16 storage gave the fp32 result";
        EXPECT_LE(worst, 1e-2 * peak) << "channel " << name << ": max difference " << worst / peak << " of the peak";
    }
    const auto before = listing();
    const CliResult r = bloom(file("in.exr"), file("out.exr"), "--precision bf16");
    expectRefused(r, before, "--precision", "bf16");
    EXPECT_EQ(r.code, 2);
}

TEST_F(CliTest, OutputEqualToInputLeavesInputUntouched)
{
    const std::string original = readBytes(writeInput());
    const auto before = listing();
    // Through "./" so that only resolution, not string equality, shows they are the same file.
    const CliResult r = bloom(file("in.exr"), dir / "." / "in.exr");
    expectRefused(r, before, "in.exr", "is the input");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(readBytes(file("in.exr")), original) << "the input was modified";
}

TEST_F(CliTest, OutputIntoMissingFolderIsNamed)
{
    writeInput();
    const auto before = listing();
    const CliResult r = bloom(file("in.exr"), file("absent") / "out.exr");
    expectRefused(r, before, "absent/out.exr", "no such folder");
    EXPECT_EQ(r.code, 2) << "found before anything runs";
}

// AddressSanitizer's allocator ends the process when memory runs out instead of throwing std::bad_alloc, and its
// shadow memory does not fit under an address-space limit: this test is built without the sanitizers only.
#if !defined(__SANITIZE_ADDRESS__)
/// A run-length encoded Radiance .hdr of `width` x `height` grey texels: a few bytes a line for any width.
void writeRunLengthHdr(const fs::path& path, int width, int height)
{
    std::string line = {2, 2, char(width >> 8), char(width & 255)};
    for (const int component : {128, 128, 128, 129}) // RGBE 0.5
        for (int left = width; left > 0; left -= 127)
            line += {char(128 + std::min(left, 127)), char(component)};
    std::string bytes =
        "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y " + std::to_string(height) + " +X " + std::to_string(width) + "\n";
    for (int y = 0; y < height; ++y)
        bytes += line;
    writeBytes(path, bytes);
}

TEST_F(CliTest, RunningOutOfMemoryIsOneLineNamingTheFile)
{
    // 8192 x 8192 texels take 4 MiB on disk and 768 MiB as float RGB: more than 1.5 GB of address space holds
    // beside the Vulkan driver.
    writeRunLengthHdr(file("huge.hdr"), 8192, 8192);
    writeInput();
    const auto limited = [&](const std::string& args)
    {
        const std::string err = streams.string() + "err";
        const int status = std::system(
            ("ulimit -v 1500000; exec " + quote(FFTBLOOM_CLI_PATH) + " --validate -q " + args + " 2>" + quote(err))
                .c_str());
        return CliResult{WIFEXITED(status) ? WEXITSTATUS(status) : -1, "", readBytes(err)};
    };
    const auto before = listing();
    const CliResult frame = limited(quote(file("huge.hdr")) + " -o " + quote(file("out.exr")) + " --kernel-size 8");
    expectRefused(frame, before, "huge.hdr", "not enough memory");
    EXPECT_EQ(frame.code, 1);
    const CliResult kernel = limited(quote(file("in.exr")) + " -o " + quote(file("out.exr")) + " --kernel " +
                                     quote(file("huge.hdr")) + " --kernel-size 8");
    expectRefused(kernel, before, "huge.hdr", "not enough memory");
    EXPECT_EQ(kernel.code, 2);
}
#endif

TEST_F(CliTest, DeviceIndexOutOfRangeIsNamed)
{
    writeInput();
    const auto before = listing();
    const CliResult r = bloom(file("in.exr"), file("out.exr"), "--device 99");
    expectRefused(r, before, "--device", "no device 99");
    EXPECT_EQ(r.code, 3);
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

/// Bloom against the direct double-precision convolution of the input with a kernel.
class ConvolutionTest : public CliTest
{
  protected:
    /// Blooms the float input in.exr with `args` (zero padding, bloom output) and compares it with the input convolved
    /// with `expected` (size x size, centre texel (size/2, size/2)), to 1e-5 of the peak.
    void expectBloomIsConvolution(const std::string& args, int size, const std::vector<double>& expected) const;
};

void ConvolutionTest::expectBloomIsConvolution(const std::string& args, int size,
                                               const std::vector<double>& expected) const
{
    const CliResult r = run(quote(file("in.exr")) + " -o " + quote(file("out.exr")) + " --overwrite " + args +
                            " --output bloom --padding zero --pixel-type float");
    ASSERT_EQ(r.code, 0) << r.err;
    const Image in = readImage(file("in.exr").string());
    const Image out = readImage(file("out.exr").string());
    for (const char* name : {"R", "G", "B"})
    {
        const std::vector<float>& a = channel(in, name).values;
        const std::vector<float>& b = channel(out, name).values;
        double peak = 0.0, worst = 0.0;
        for (int y = 0; y < in.height; ++y)
            for (int x = 0; x < in.width; ++x)
            {
                double sum = 0.0;
                for (int ky = 0; ky < size; ++ky)
                    for (int kx = 0; kx < size; ++kx)
                    {
                        const int sx = x - (kx - size / 2), sy = y - (ky - size / 2);
                        if (sx >= 0 && sx < in.width && sy >= 0 && sy < in.height)
                            sum += expected[std::size_t(ky * size + kx)] * a[std::size_t(sy * in.width + sx)];
                    }
                peak = std::max(peak, std::abs(sum));
                worst = std::max(worst, std::abs(b[std::size_t(y * in.width + x)] - sum));
            }
        EXPECT_LE(worst, 1e-5 * peak) << args << ", channel " << name << ": max error " << worst / peak
                                      << " of the peak";
    }
}

TEST_F(ConvolutionTest, FullSharpeningOfExactSpectrumIsIdentity)
{
    // Float in and out: half storage alone would exceed the tolerance.
    writeInput("in.exr", PixelType::Float);
    std::vector<double> identity(8 * 8, 0.0);
    identity[4 * 8 + 4] = 1.0;
    expectBloomIsConvolution("--kernel-size 8 --spectrum exact --sharpen 1", 8, identity);
}

TEST_F(ConvolutionTest, AOneHotKernelIsTheIdentityAtItsOwnSizeAndA1x1KernelAtEveryKernelSize)
{
    // A kernel file keeps its own extent on the frame at native span (fileKernelSpan): --kernel-size changes only how
    // finely it is sampled, so a 1 x 1 kernel, resampled to a 4 x 4 box or 16 x 16, still covers one pixel.
    writeInput("in.exr", PixelType::Float);
    Image oneHot = makeImage(16, 16, {"R", "G", "B"}, PixelType::Float);
    for (Channel& c : oneHot.channels)
    {
        std::fill(c.values.begin(), c.values.end(), 0.0f);
        c.values[8 * 16 + 8] = 1.0f;
    }
    writeExr(file("kernel.exr").string(), oneHot);
    const std::string kernel = "--kernel " + quote(file("kernel.exr"));
    std::vector<double> identity(16 * 16, 0.0);
    identity[8 * 16 + 8] = 1.0;
    expectBloomIsConvolution(kernel + " --kernel-size 16", 16, identity);

    const Image single{
        1, 1, {{"R", PixelType::Float, {1.0f}}, {"G", PixelType::Float, {1.0f}}, {"B", PixelType::Float, {1.0f}}}};
    writeExr(file("kernel.exr").string(), single);
    for (const char* size : {" --kernel-size 4", " --kernel-size 16"})
        expectBloomIsConvolution(kernel + size, 1, {1.0});
}

// A 24 x 24 Gaussian PSF file (standard deviation 4 texels) blooms a point light as widely at --kernel-size 8 as at 32:
// the spread along x (the bloom's variance) agrees within 15 %, where sampling the file's extent at the kernel size
// would make it 16 times larger at 32.
TEST_F(CliTest, AKernelFileKeepsItsExtentAtEveryKernelSize)
{
    Image light = makeImage(64, 64, {"R", "G", "B"}, PixelType::Float);
    for (Channel& c : light.channels)
    {
        std::fill(c.values.begin(), c.values.end(), 0.0f);
        c.values[32 * 64 + 32] = 1.0f;
    }
    writeExr(file("light.exr").string(), light);
    Image psf = makeImage(24, 24, {"R", "G", "B"}, PixelType::Float);
    for (Channel& c : psf.channels)
        for (int y = 0; y < 24; ++y)
            for (int x = 0; x < 24; ++x)
                c.values[std::size_t(y * 24 + x)] =
                    float(std::exp(-((x - 12) * (x - 12) + (y - 12) * (y - 12)) / 32.0));
    writeExr(file("psf.exr").string(), psf);
    const auto spreadAt = [this](int size)
    {
        const std::string out = "out" + std::to_string(size) + ".exr";
        const CliResult r =
            run(quote(file("light.exr")) + " -o " + quote(file(out)) + " --kernel " + quote(file("psf.exr")) +
                " --kernel-size " + std::to_string(size) + " --output bloom --padding zero --pixel-type float");
        EXPECT_EQ(r.code, 0) << r.err;
        const Image image = readImage(file(out).string());
        const std::vector<float>& v = channel(image, "R").values;
        double sum = 0.0, moment = 0.0;
        for (int y = 0; y < 64; ++y)
            for (int x = 0; x < 64; ++x)
            {
                const double value = v[std::size_t(y * 64 + x)];
                sum += value;
                moment += value * (x - 32) * (x - 32);
            }
        return moment / sum;
    };
    const double at8 = spreadAt(8), at32 = spreadAt(32);
    std::printf("variance along x: %.2f at --kernel-size 8, %.2f at 32 (the file's Gaussian: 16)\n", at8, at32);
    EXPECT_NEAR(at8 / at32, 1.0, 0.15);
}

// A kernel file whose light reaches its border: one warning line naming it and --kernel-fade; faded, the bloom of a
// point light is 0 on the kernel's border ring, and the warning is gone.
TEST_F(CliTest, AKernelFileLitToItsBorderWarnsAndKernelFadeFadesIt)
{
    Image light = makeImage(64, 64, {"R", "G", "B"}, PixelType::Float);
    for (Channel& c : light.channels)
    {
        std::fill(c.values.begin(), c.values.end(), 0.0f);
        c.values[32 * 64 + 32] = 1.0f;
    }
    writeExr(file("light.exr").string(), light);
    Image flat = makeImage(16, 16, {"R", "G", "B"}, PixelType::Float);
    for (Channel& c : flat.channels)
        std::fill(c.values.begin(), c.values.end(), 1.0f);
    writeExr(file("flat.exr").string(), flat);
    const auto bloomWith = [&](const std::string& out, const std::string& options)
    {
        const CliResult r =
            run(quote(file("light.exr")) + " -o " + quote(file(out)) + " --kernel " + quote(file("flat.exr")) +
                " --kernel-size 16 --output bloom --padding zero " + "--pixel-type float" + options);
        EXPECT_EQ(r.code, 0) << r.err;
        return std::pair{r.err, channel(readImage(file(out).string()), "G").values};
    };
    // The kernel's centre texel (8, 8) falls on the light; its border texels 7 to the right and 8 to the left.
    const auto [plainErr, plain] = bloomWith("plain.exr", "");
    const std::string warning = "fftbloom: warning: " + file("flat.exr").string() + ": ";
    EXPECT_NE(plainErr.find(warning), std::string::npos) << plainErr;
    EXPECT_NE(plainErr.find("kernel-fade"), std::string::npos) << plainErr;
    EXPECT_NEAR(plain[32 * 64 + 39], 1.0 / 256.0, 1e-6);
    const auto [fadedErr, faded] = bloomWith("faded.exr", " --kernel-fade 0.5");
    EXPECT_EQ(fadedErr.find("warning"), std::string::npos) << fadedErr;
    double sum = 0.0;
    for (const float v : faded)
        sum += v;
    EXPECT_NEAR(sum, 1.0, 1e-5);
    for (const int x : {24, 39})
        EXPECT_NEAR(faded[std::size_t(32 * 64 + x)], 0.0, 1e-7) << "x " << x;
    EXPECT_GT(faded[32 * 64 + 32], plain[32 * 64 + 32]);
}

// --preset NAME sets the settings of the one table its lines name, as those options would; an option given with it
// changes it; a name that is not a preset is a usage error naming it.
TEST_F(CliTest, APresetIsItsSettingsAndOptionsChangeIt)
{
    writeInput();
    const auto pixels = [this](const std::string& name, const std::string& options)
    {
        const CliResult r = run(quote(file("in.exr")) + " -o " + quote(file(name)) + " --pixel-type float " + options);
        EXPECT_EQ(r.code, 0) << r.err;
        return channel(readImage(file(name).string()), "R").values;
    };
    const std::vector<float> preset = pixels("preset.exr", "--preset soft-glow --kernel-size 64");
    const std::vector<float> options =
        pixels("options.exr", "--blades 0 --airy-radius 3 --glare 0.85 --kernel-span 0.35diag --kernel-size 64");
    EXPECT_EQ(preset, options);
    EXPECT_NE(pixels("plain.exr", "--kernel-size 64"), preset) << "the preset took effect";
    EXPECT_NE(pixels("changed.exr", "--preset soft-glow --kernel-size 64 --glare 0.2"), preset)
        << "an option after the preset changes it";
    const auto before = listing();
    const CliResult refused = bloom(file("in.exr"), file("out.exr"), "--preset sunset");
    EXPECT_EQ(refused.code, 2);
    EXPECT_NE(refused.err.find("'sunset' is not a preset: none, camera, soft-glow, eye, unreal"), std::string::npos)
        << refused.err;
    EXPECT_EQ(listing(), before);
}

// Settings files are regular files of at most 1 MiB, a report is appended only to a regular file that is empty or
// one of ours, and a --frames list is bounded before it is expanded: each refused at once, exit 2, nothing written,
// where a FIFO hung, /dev/zero grew without end and 10^9 frames took gigabytes.
TEST_F(CliTest, ReadsAreBoundedAndReportsAppendOnlyToOurs)
{
    writeInput();
    ASSERT_EQ(::mkfifo(file("fifo").c_str(), 0600), 0);
    std::ofstream(file("big.txt")).close();
    fs::resize_file(file("big.txt"), 2 << 20);
    std::ofstream(file("notes.txt")) << "my notes\n";
    std::ofstream(file("long_list.txt")).close();
    fs::resize_file(file("long_list.txt"), (std::uintmax_t(256) << 20) + 1); // sparse: no disk is used
    fs::create_symlink(file("nowhere") / "r.json", file("dangling.json"));   // passes every check, then open fails
    const auto before = listing();
    const struct
    {
        std::string options, reason;
    } cases[] = {
        {"--settings " + quote(file("fifo")), "fifo: not a regular file"},
        {"--settings /dev/zero", "/dev/zero: not a regular file"},
        {"--settings " + quote(file("big.txt")), "big.txt: 2097152 bytes, more than a settings file's 1048576"},
        {"--report " + quote(file("fifo")), "fifo: not a regular file; --report appends to a regular file"},
        {"--report " + quote(file("notes.txt")), "notes.txt: not a report of fftbloom"},
        {"--frames 0-999999999", "a frame list holds at most 1000000"},
        {"--list " + quote(file("long_list.txt")), "268435457 bytes, more than a list's 268435456"},
        {"--report " + quote(file("dangling.json")), "dangling.json: cannot be opened for the report"},
    };
    for (const auto& c : cases)
    {
        const CliResult r = run(quote(file("in.exr")) + " -o " + quote(file("out.exr")) + " " + c.options);
        EXPECT_EQ(r.code, 2) << c.options;
        EXPECT_NE(r.err.find(c.reason), std::string::npos) << c.options << ": " << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
    EXPECT_EQ(listing(), before);
    std::ifstream notes(file("notes.txt"));
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(notes), {}), "my notes\n");
}

// Every message is one line: control characters in names and values escaped (a newline cannot forge a line, an
// escape cannot clear the terminal), a long value cut; a settings file's errors name the file and the line.
TEST_F(CliTest, EveryMessageIsOneLineAndSettingsFilesNameTheirLines)
{
    writeInput();
    const auto oneCleanLine = [](const CliResult& r)
    {
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_EQ(r.err.rfind("fftbloom: ", 0), 0u) << r.err;
        EXPECT_TRUE(std::none_of(r.err.begin(), r.err.end() - 1,
                                 [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
            << r.err;
    };
    const auto before = listing();
    CliResult r = bloom(file("in.exr"), file("out.exr"), "--part " + quote("a\nfftbloom: forged\x1b[2J"));
    EXPECT_EQ(r.code, 1);
    oneCleanLine(r);
    EXPECT_NE(r.err.find("no part is called a\\nfftbloom: forged\\e[2J"), std::string::npos) << r.err;
    EXPECT_EQ(listing(), before);
    r = bloom(file("in.exr"), file("out.exr"), "--intensity 1" + std::string(100000, '0') + "x");
    EXPECT_EQ(r.code, 2);
    oneCleanLine(r);
    EXPECT_LT(r.err.size(), 1100u);
    EXPECT_NE(r.err.find("bytes cut"), std::string::npos) << r.err;

    struct Case
    {
        std::string text, options, reason;
    };
    const Case cases[] = {
        {"\x1b[2Jjunk\n", "", "s.txt:1: '\\e[2Jjunk' is not option=value"},
        {"[bloom]\nintensity=0.5\n", "", "s.txt:1: '[bloom]' is a section header"},
        {"# a look\n\nintensity = 0.5\nblades=2\n", "", "--settings " + file("s.txt").string() + ":4: --blades: 2"},
        {"intensity=0.5\nintensity=0.6\n", "", "s.txt:2: 'intensity' again (first on line 1)"},
        {"intensty=2\n", "", "s.txt:1: unknown option 'intensty'"},
        {"blades=5\n", "--blades 2", "fftbloom: --blades: 2"}, // the command line's value: not the file's
    };
    for (const Case& c : cases)
    {
        writeBytes(file("s.txt"), c.text);
        r = bloom(file("in.exr"), file("out.exr"), "--settings " + quote(file("s.txt")) + " " + c.options);
        EXPECT_EQ(r.code, 2) << c.text;
        oneCleanLine(r);
        EXPECT_NE(r.err.find(c.reason), std::string::npos) << c.text << ": " << r.err;
    }
    // A byte-order mark, CR LF line ends, spaces and quotes: the same settings.
    writeBytes(file("s.txt"), "\xEF\xBB\xBFintensity = \"0.5\"\r\nblades=5\r\n");
    r = run(quote(file("in.exr")) + " -o " + quote(file("out.exr")) + " --settings " + quote(file("s.txt")) +
            " --dry-run");
    EXPECT_EQ(r.code, 0) << r.err;
}

// The OpenColorIO config $OCIO names is read by the preview: a preview written onto it is refused, exit 2, the
// config left as it was (it was replaced by a PNG).
TEST_F(CliTest, ThePreviewNeverOverwritesTheOcioConfig)
{
    writeInput();
    std::ofstream(file("c.ocio")) << "ocio_profile_version: 2\n";
    ::setenv("OCIO", file("c.ocio").c_str(), 1);
    const CliResult r = bloom(file("in.exr"), file("out.exr"), "--preview " + quote(file("c.ocio")) + " --overwrite");
    ::unsetenv("OCIO");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("$OCIO " + file("c.ocio").string() + ": is read"), std::string::npos) << r.err;
    std::ifstream config(file("c.ocio"));
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(config), {}), "ocio_profile_version: 2\n");
    EXPECT_FALSE(fs::exists(file("out.exr")));
}

TEST_F(CliTest, SpectrumInterpolationPicksTheFilterItsWidthAndTheOversampling)
{
    writeInput();
    const auto bloomWith = [this](const std::string& name, const std::string& options)
    {
        const CliResult r = bloom(file("in.exr"), file(name), "--output bloom --spectrum resampled " + options);
        EXPECT_EQ(r.code, 0) << r.err;
        // The pixels: the files differ anyway, in the settings they record (provenance).
        return channel(readImage(file(name).string()), "R").values;
    };
    const std::vector<float> byDefault = bloomWith("default.exr", "");
    const std::vector<float> es = bloomWith("es.exr", "--spectrum-interpolation es --interpolation-width 8 "
                                                      "--spectrum-oversampling 2");
    const std::vector<float> es6 = bloomWith("es6.exr", "--interpolation-width 6");
    const std::vector<float> es1x = bloomWith("es1x.exr", "--spectrum-oversampling 1");
    const std::vector<float> cubic = bloomWith("cubic.exr", "--spectrum-interpolation cubic --interpolation-width 4");
    const std::vector<float> linear = bloomWith("linear.exr", "--spectrum-interpolation linear");
    EXPECT_EQ(byDefault, es) << "es, 8 taps, oversampling 2 is the default";
    for (const std::vector<float>* other : {&es6, &es1x, &cubic, &linear})
        EXPECT_NE(es, *other);
    EXPECT_NE(cubic, linear);
    const struct
    {
        const char* options;
        const char* option;
        const char* value;
    } refused[] = {{"--spectrum-interpolation nearest", "--spectrum-interpolation", "nearest"},
                   {"--interpolation-width 9", "--interpolation-width", "9"},
                   {"--spectrum-interpolation cubic --interpolation-width 6", "--interpolation-width", "6"},
                   {"--spectrum-oversampling 3", "--spectrum-oversampling", "3"}};
    for (const auto& c : refused)
    {
        const auto before = listing();
        const CliResult r = bloom(file("in.exr"), file("out.exr"), c.options);
        expectRefused(r, before, c.option, c.value);
        EXPECT_EQ(r.code, 2) << c.options;
    }
}

TEST_F(CliTest, KneeWiderThanThresholdIsUsageError)
{
    writeInput();
    const auto before = listing();
    const CliResult r = bloom(file("in.exr"), file("out.exr"), "--threshold 0.5 --knee 1");
    expectRefused(r, before, "--knee 1", "wider than threshold (0.5)");
    EXPECT_EQ(r.code, 2);
}

// --kernel-size sets how finely the generated PSF is sampled, not how it looks: at a fixed kernel span the radius that
// holds 90 % of a point light's bloom is the same at 128, 256 and 512 texels (airy-radius is in 256ths of the kernel's
// width): 19.1, 19.8 and 20.0 pixels. It was 29, 20 and 13 pixels while the Airy radius was in texels.
TEST_F(CliTest, KernelSizeSetsTheSamplingNotTheLook)
{
    constexpr int kSize = 320, kCentre = kSize / 2;
    Image image{kSize, kSize, {}};
    for (const char* name : {"R", "G", "B"})
    {
        Channel channel{name, PixelType::Float, std::vector<float>(std::size_t(kSize) * kSize, 0.0f)};
        channel.values[std::size_t(kCentre) * kSize + kCentre] = 10000.0f;
        image.channels.push_back(std::move(channel));
    }
    writeExr(file("light.exr").string(), image);
    std::vector<double> radii;
    for (const int size : {128, 256, 512})
    {
        const std::string out = "r" + std::to_string(size) + ".exr";
        const CliResult r = run(quote(file("light.exr")) + " -o " + quote(file(out)) + " --kernel-size " +
                                std::to_string(size) + " --kernel-span 256px --output bloom --padding zero");
        ASSERT_EQ(r.code, 0) << r.err;
        const Image bloom = readImage(file(out).string());
        const std::vector<float>& g = channel(bloom, "G").values;
        // The texels by their distance from the light, their light summed from the centre out until 90 % of the whole.
        std::vector<std::pair<double, double>> texels; // {radius, light}
        double total = 0.0;
        for (int y = 0; y < kSize; ++y)
            for (int x = 0; x < kSize; ++x)
            {
                texels.emplace_back(std::hypot(x - kCentre, y - kCentre), g[std::size_t(y) * kSize + std::size_t(x)]);
                total += texels.back().second;
            }
        std::sort(texels.begin(), texels.end());
        double within = 0.0, r90 = 0.0;
        for (const auto& [radius, light] : texels)
            if ((within += light) >= 0.9 * total)
            {
                r90 = radius;
                break;
            }
        radii.push_back(r90);
    }
    EXPECT_GT(radii[1], 4.0) << "a glow, not the light alone";
    for (const double r : radii)
        EXPECT_NEAR(r, radii[1], 0.05 * radii[1]) << radii[0] << ", " << radii[1] << ", " << radii[2];
}

// The glow alone has no texel below 0: the bloom of a frame without negative values by a kernel of texels >= 0 is
// >= 0, and the FFT's round-off below it (here down to -3e-5 without the clamp) is clamped.
TEST_F(CliTest, TheGlowAloneHasNoTexelBelowZero)
{
    Image image{64, 48, {}};
    for (const char* name : {"R", "G", "B"})
    {
        Channel channel{name, PixelType::Float, std::vector<float>(64 * 48, 0.05f)};
        channel.values[24 * 64 + 32] = 1000.0f;
        image.channels.push_back(std::move(channel));
    }
    writeExr(file("in.exr").string(), image);
    // Without the glare's far field, which lights every texel of so small a frame.
    const CliResult r =
        bloom(file("in.exr"), file("glow.exr"), "--output bloom --threshold 1 --pixel-type float --glare-reach 0");
    ASSERT_EQ(r.code, 0) << r.err;
    const Image glow = readImage(file("glow.exr").string());
    for (const char* name : {"R", "G", "B"})
    {
        const std::vector<float>& values = channel(glow, name).values;
        EXPECT_GE(*std::min_element(values.begin(), values.end()), 0.0f) << name;
        EXPECT_GT(values[24 * 64 + 32], 50.0f) << name << ": the light's glow";
        EXPECT_GT(std::count(values.begin(), values.end(), 0.0f), 0) << name << ": the threshold's dark texels";
    }
}

TEST_F(CliTest, TintMultipliesTheBloomPerChannel)
{
    writeInput("in.exr", PixelType::Float);
    ASSERT_EQ(bloom(file("in.exr"), file("white.exr"), "--output bloom").code, 0);
    const CliResult r = bloom(file("in.exr"), file("tinted.exr"), "--output bloom --tint 2.5,1,0");
    ASSERT_EQ(r.code, 0) << r.err;
    const Image white = readImage(file("white.exr").string());
    const Image tinted = readImage(file("tinted.exr").string());
    const std::vector<float>& r0 = channel(white, "R").values;
    const std::vector<float>& r1 = channel(tinted, "R").values;
    for (std::size_t i = 0; i < r0.size(); ++i)
        ASSERT_NEAR(r1[i], 2.5f * r0[i], 1e-6f * std::max(1.0f, std::fabs(r0[i]))) << "R at " << i;
    EXPECT_EQ(channel(tinted, "G").values, channel(white, "G").values);
    for (float b : channel(tinted, "B").values)
        ASSERT_EQ(b, 0.0f);
    // 0,0,0 is a black bloom (it read as white: the plugin took a zero tint for none).
    ASSERT_EQ(bloom(file("in.exr"), file("black.exr"), "--output bloom --tint 0,0,0").code, 0);
    const Image black = readImage(file("black.exr").string());
    for (const char* name : {"R", "G", "B"})
        for (float v : channel(black, name).values)
            ASSERT_EQ(v, 0.0f) << name;
    for (const char* bad : {"1,1", "1,1,1,1", "-1,1,1", "nan,1,1", "1,inf,1", "a,b,c"})
    {
        const auto before = listing();
        const CliResult refused = bloom(file("in.exr"), file("bad.exr"), std::string("--tint ") + bad);
        expectRefused(refused, before, "--tint", "");
        EXPECT_EQ(refused.code, 2) << bad;
    }
}

TEST_F(CliTest, KernelRotationAndCentreOffsetPlaceTheKernel)
{
    writeInput("in.exr", PixelType::Float);
    ASSERT_EQ(bloom(file("in.exr"), file("plain.exr"), "--output bloom").code, 0);
    ASSERT_EQ(bloom(file("in.exr"), file("turn.exr"), "--output bloom --kernel-rotation 360").code, 0);
    const CliResult r =
        bloom(file("in.exr"), file("placed.exr"), "--output bloom --kernel-rotation 30 --kernel-centre-offset 0.1,0");
    ASSERT_EQ(r.code, 0) << r.err;
    const Image plain = readImage(file("plain.exr").string());
    EXPECT_EQ(channel(readImage(file("turn.exr").string()), "R").values, channel(plain, "R").values)
        << "a whole turn moves texels exactly";
    EXPECT_NE(channel(readImage(file("placed.exr").string()), "R").values, channel(plain, "R").values);
    for (const char* bad : {"--kernel-rotation nan", "--kernel-rotation inf", "--kernel-centre-offset 0.5",
                            "--kernel-centre-offset 1.5,0", "--kernel-centre-offset 0,0,0"})
    {
        const auto before = listing();
        const CliResult refused = bloom(file("in.exr"), file("bad.exr"), bad);
        expectRefused(refused, before, std::string(bad).substr(0, std::string(bad).find(' ')), "");
        EXPECT_EQ(refused.code, 2) << bad;
    }
}

// A settings file gives options as the command line does; the command line overrides it; a misspelt or missing one
// is a usage error naming the file.
TEST_F(CliTest, SettingsFileGivesOptionsAndTheCommandLineOverridesIt)
{
    writeInput("in.exr", PixelType::Float);
    std::ofstream(file("preset.txt")) << "# a preset\n\noutput=bloom\ntint=2,1,1\nintensity=0.5\nblades=5\n";
    ASSERT_EQ(bloom(file("in.exr"), file("options.exr"), "--output bloom --tint 2,1,1 --blades 5").code, 0);
    const CliResult r = bloom(file("in.exr"), file("file.exr"), "--settings " + file("preset.txt").string());
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(channel(readImage(file("file.exr").string()), "R").values,
              channel(readImage(file("options.exr").string()), "R").values);
    ASSERT_EQ(bloom(file("in.exr"), file("tint1.exr"), "--output bloom --blades 5").code, 0);
    ASSERT_EQ(
        bloom(file("in.exr"), file("overridden.exr"), "--settings " + file("preset.txt").string() + " --tint 1,1,1")
            .code,
        0);
    EXPECT_EQ(channel(readImage(file("overridden.exr").string()), "R").values,
              channel(readImage(file("tint1.exr").string()), "R").values);
    std::ofstream(file("misspelt.txt")) << "intensty=2\n";
    auto before = listing();
    const CliResult misspelt = bloom(file("in.exr"), file("out.exr"), "--settings " + file("misspelt.txt").string());
    expectRefused(misspelt, before, "misspelt.txt", "intensty");
    EXPECT_EQ(misspelt.code, 2);
    before = listing();
    const CliResult missing = bloom(file("in.exr"), file("out.exr"), "--settings " + file("missing.txt").string());
    expectRefused(missing, before, "--settings", "missing.txt");
    EXPECT_EQ(missing.code, 2);
}

TEST_F(CliTest, GeneratedPsfOptionsShapeTheKernelAndAreCheckedAndNotWithAKernelFile)
{
    writeInput("in.exr", PixelType::Float);
    ASSERT_EQ(bloom(file("in.exr"), file("six.exr"), "--output bloom").code, 0);
    ASSERT_EQ(bloom(file("in.exr"), file("circle.exr"),
                    "--output bloom --blades 0 --obstruction 0.3 --vanes 4 "
                    "--airy-radius 3 --blade-curvature 0.5")
                  .code,
              0);
    EXPECT_NE(channel(readImage(file("circle.exr").string()), "R").values,
              channel(readImage(file("six.exr").string()), "R").values);
    for (const char* bad : {"--blades 2", "--blades 17", "--obstruction 0.95", "--vanes 9", "--airy-radius 0.5",
                            "--blade-curvature nan", "--blades 5 --kernel k.exr"})
    {
        const auto before = listing();
        const CliResult refused = bloom(file("in.exr"), file("out.exr"), bad);
        expectRefused(refused, before, std::string(bad).substr(0, std::string(bad).find(' ')), "");
        EXPECT_EQ(refused.code, 2) << bad;
    }
}

// Every numeric option is finite and in its documented range before anything runs (exit 2, the option and its bounds
// in plain digits named); none reaches the GPU as NaN, Inf or a wrapped negative.
TEST_F(CliTest, NumericOptionsAreFiniteAndInTheirRangeBeforeAnythingRuns)
{
    writeInput();
    for (const char* bad : {"--sharpen nan", "--sharpen 1.5", "--intensity nan", "--intensity -1", "--intensity 1e10",
                            "--threshold inf", "--knee nan", "--bloom-clamp 1e39", "--clamp nan", "--clamp 0",
                            "--clamp inf", "--exposure nan", "--exposure 100", "--tint 1,nan,1", "--shard -1/4",
                            "--shard 0/-1", "--shard 1/1", "--device -1", "--kernel-rotation inf"})
    {
        const auto before = listing();
        const CliResult r = bloom(file("in.exr"), file("out.exr"), bad);
        expectRefused(r, before, std::string(bad).substr(0, std::string(bad).find(' ')), "");
        EXPECT_EQ(r.code, 2) << bad;
    }
    const CliResult r = bloom(file("in.exr"), file("out.exr"), "--intensity 1e10");
    EXPECT_NE(r.err.find("[0, 1000000000]"), std::string::npos) << "the bound in plain digits: " << r.err;
}

// One range per setting, the settings table's: the CLI takes the largest values the viewer takes (and the viewer those
// the CLI takes: ViewerSettings.TakeTheValuesTheCliTakes), and a settings file as the viewer writes it, each value read
// whole.
TEST_F(CliTest, TakesEachSettingsRangeAndTheViewersSettingsFiles)
{
    writeInput("in.exr", PixelType::Float);
    CliResult r = bloom(file("in.exr"), file("largest.exr"),
                        "--intensity 1e9 --tint 1000000000,1,1 --threshold 1e9 --knee 1e9 --bloom-clamp 1e9");
    ASSERT_EQ(r.code, 0) << r.err;
    std::ofstream(file("viewer.txt")) << "intensity=1e+09\ntint=1,0.9,0.8\nkernel-centre-offset=0.25,-0.5\n"
                                         "threshold=1e+09\nkernel-size=8\nanimate=false\n";
    r = bloom(file("in.exr"), file("viewer.exr"), "--settings " + file("viewer.txt").string());
    ASSERT_EQ(r.code, 0) << r.err;
    const Image out = readImage(file("viewer.exr").string());
    std::string recorded;
    for (const Attribute& a : out.layout.attributes)
        if (a.name == "fftbloom.settings")
            recorded.assign(a.value.begin(), a.value.end());
    const nlohmann::json settings = nlohmann::json::parse(recorded);
    EXPECT_EQ(settings["tint"], nlohmann::json::array({1, 0.9, 0.8}));
    EXPECT_EQ(settings["kernel-centre-offset"], nlohmann::json::array({0.25, -0.5}));
    EXPECT_EQ(settings["intensity"], 1e9);
    EXPECT_EQ(settings["animate"], false);
}

// One table of settings at the edges of their rules and ranges (tests/support/setting_edges.txt), which the viewer and
// the Python module accept or refuse alike: each row as a settings file.
TEST_F(CliTest, SettingEdgesAreAcceptedOrRefusedAsTheViewerAndThePythonModuleDo)
{
    writeInput("in.exr", PixelType::Float);
    for (const test::SettingEdge& edge : test::settingEdges())
    {
        std::ofstream lines(file("edge.txt"));
        for (const std::string& keyValue : edge.keyValues)
            lines << keyValue << "\n";
        lines.close();
        const CliResult r = run(quote(file("in.exr")) + " -o " + quote(file("out.exr")) + " --settings " +
                                quote(file("edge.txt")) + " --dry-run");
        if (edge.refusal.empty())
            EXPECT_EQ(r.code, 0) << edge.settings << ": " << r.err;
        else
        {
            EXPECT_EQ(r.code, 2) << edge.settings;
            EXPECT_NE(r.err.find(edge.refusal), std::string::npos) << edge.settings << ": " << r.err;
        }
        EXPECT_FALSE(fs::exists(file("out.exr"))) << edge.settings;
    }
}

TEST_F(CliTest, UnknownOutputModeIsUsageError)
{
    writeInput();
    const auto before = listing();
    const CliResult r = bloom(file("in.exr"), file("out.exr"), "--output screen");
    expectRefused(r, before, "--output", "screen");
    EXPECT_EQ(r.code, 2);
}

TEST_F(CliTest, AdditiveWithEverythingBelowTheThresholdIsTheInput)
{
    // p = 0 everywhere, so in + intensity * bloom(p) is the input, bit for bit.
    writeInput("in.exr", PixelType::Float);
    const CliResult r =
        bloom(file("in.exr"), file("out.exr"), "--output additive --threshold 1e9 --knee 0.5 --bloom-clamp 2");
    ASSERT_EQ(r.code, 0) << r.err;
    const Image in = readImage(file("in.exr").string());
    const Image out = readImage(file("out.exr").string());
    for (const char* name : {"R", "G", "B"})
        EXPECT_EQ(channel(in, name).values, channel(out, name).values) << "channel " << name;
}

// A cropped frame's preview is its display window, as the frames beside it that fill it: the crop's texels where they
// lie, black around them.
TEST_F(CliTest, ACroppedFramesPreviewHasTheDisplayWindowsSize)
{
    Image image = makeImage(24, 16, {"R", "G", "B"}, PixelType::Half);
    image.layout.dataWindow = {10, 5, 33, 20};
    image.layout.displayWindow = {0, 0, 63, 47};
    writeExr(file("crop.exr").string(), image);
    const CliResult r = bloom(file("crop.exr"), file("out.exr"), "--preview " + quote(file("crop.png")));
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string png = readBytes(file("crop.png"));
    ASSERT_GE(png.size(), 24u);
    const auto bigEndian = [&](std::size_t at)
    {
        return int(uint8_t(png[at])) << 24 | int(uint8_t(png[at + 1])) << 16 | int(uint8_t(png[at + 2])) << 8 |
               int(uint8_t(png[at + 3]));
    };
    EXPECT_EQ(bigEndian(16), 64) << "IHDR width";
    EXPECT_EQ(bigEndian(20), 48) << "IHDR height";
}

// The preview says how it was made: the built-in tonemap without $OCIO; a config $OCIO names that cannot be read is a
// usage error naming it, before anything is written (OcioDisplayTest has the transform itself).
TEST_F(CliTest, PreviewIsPngAndSaysWhetherOpenColorIOMadeIt)
{
    writeInput();
    unsetenv("OCIO");
    CliResult r = bloom(file("in.exr"), file("out.exr"), "--preview " + quote(file("preview.png")));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::exists(file("out.exr")));
    EXPECT_EQ(readBytes(file("preview.png")).substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    EXPECT_NE(r.out.find("preview tonemapped by the built-in ACES fitted curve"), std::string::npos) << r.out;
    const auto before = listing();
    // A display, view or look (OcioDisplayTest picks them) needs a config and a preview.
    r = bloom(file("in.exr"), file("other.exr"), "--preview " + quote(file("other.png")) + " --ocio-look grade");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("look is chosen, but $OCIO names no config"), std::string::npos) << r.err;
    r = bloom(file("in.exr"), file("other.exr"), "--ocio-view film");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--ocio-view chooses the previews' display transform: it needs --preview"), std::string::npos)
        << r.err;
    setenv("OCIO", file("missing.ocio").c_str(), 1);
    r = bloom(file("in.exr"), file("other.exr"), "--preview " + quote(file("other.png")));
    unsetenv("OCIO");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("$OCIO=" + file("missing.ocio").string()), std::string::npos) << r.err;
    EXPECT_EQ(listing(), before);
    // Colour spaces defined through each other: OpenColorIO 2.1 overflows its stack making the processor.
    writeBytes(file("loop.ocio"), "ocio_profile_version: 2\n"
                                  "roles: {default: a, scene_linear: a}\n"
                                  "displays: {sRGB: [!<View> {name: v, colorspace: b}]}\n"
                                  "colorspaces:\n"
                                  "  - !<ColorSpace> {name: a}\n"
                                  "  - !<ColorSpace> {name: b, from_scene_reference: !<ColorSpaceTransform> "
                                  "{src: a, dst: c}}\n"
                                  "  - !<ColorSpace> {name: c, from_scene_reference: !<ColorSpaceTransform> "
                                  "{src: a, dst: b}}\n");
    const auto withLoop = listing();
    setenv("OCIO", file("loop.ocio").c_str(), 1);
    r = bloom(file("in.exr"), file("other.exr"), "--preview " + quote(file("other.png")));
    unsetenv("OCIO");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("$OCIO=" + file("loop.ocio").string() + ": OpenColorIO crashed reading it"), std::string::npos)
        << r.err;
    EXPECT_EQ(listing(), withLoop);
}

// A side output that cannot be written leaves the main output's previous file as it was (it used to remove it with
// --overwrite); a destination that is a directory is a usage error, never "skipped".
TEST_F(CliTest, AFailedPreviewLeavesThePreviousOutputAndDirectoriesAreNoDestinations)
{
    writeInput();
    ASSERT_EQ(bloom(file("in.exr"), file("out.exr"), "").code, 0);
    const std::string previous = readBytes(file("out.exr"));
    // A name of 255 bytes, the most a folder entry holds: its temporary's longer name cannot be created, a failure
    // that no check before the run can see (missing folders are found there).
    const std::string longest = std::string(251, 'p') + ".png";
    const CliResult r =
        bloom(file("in.exr"), file("out.exr"), "--overwrite --intensity 0.9 --preview " + quote(file(longest)));
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find(longest + ": cannot create a file beside it"), std::string::npos) << r.err;
    EXPECT_EQ(readBytes(file("out.exr")), previous) << "the previous output is untouched";
    fs::create_directory(file("folder.exr"));
    for (const std::string& options : {std::string(""), "--preview " + quote(file("folder.exr"))})
    {
        const auto before = listing();
        const CliResult refused = bloom(file("in.exr"), options.empty() ? file("folder.exr") : file("o2.exr"), options);
        EXPECT_EQ(refused.code, 2) << options << refused.err;
        EXPECT_NE(refused.err.find("is a directory"), std::string::npos) << refused.err;
        EXPECT_EQ(listing(), before);
    }
}

TEST_F(CliTest, KernelExtentOtherThanPixelsFractionOrNativeIsUsageError)
{
    writeInput();
    const auto before = listing();
    for (const char* bad : {"abc", "100", "px", "0px", "-5px", "+5px", "5000px", "1e2px", "nanpx", "infdiag", "0diag",
                            "0.5 diag", "0.5diagonal", "Native"})
    {
        const CliResult r = bloom(file("in.exr"), file("out.exr"), "--kernel-span '" + std::string(bad) + "'");
        expectRefused(r, before, "--kernel-span", bad);
        EXPECT_EQ(r.code, 2) << bad;
    }
    const CliResult r = bloom(file("in.exr"), file("out.exr"), "--kernel-span 4097px");
    expectRefused(r, before, "--kernel-span", "more than 4096 pixels");
}

TEST_F(CliTest, KernelExtentScalesInBothSpectrumModes)
{
    writeInput();
    for (const char* mode : {"exact", "resampled"})
        EXPECT_EQ(bloom(file("in.exr"), file("out.exr"),
                        std::string("--overwrite --spectrum ") + mode + " --kernel-span 12px")
                      .code,
                  0)
            << mode;
}

TEST_F(CliTest, HalfResolutionIsRefusedOnlyForAnUnknownValueAndChangesTheBloom)
{
    writeInput("in.exr", PixelType::Float);
    const auto before = listing();
    const CliResult quarter = bloom(file("in.exr"), file("out.exr"), "--resolution quarter");
    expectRefused(quarter, before, "--resolution", "");
    EXPECT_EQ(quarter.code, 2);
    ASSERT_EQ(bloom(file("in.exr"), file("full.exr"), "--resolution full").code, 0);
    ASSERT_EQ(bloom(file("in.exr"), file("default.exr")).code, 0);
    const CliResult r = bloom(file("in.exr"), file("half.exr"), "--resolution half");
    ASSERT_EQ(r.code, 0) << r.err;
    const Image full = readImage(file("full.exr").string());
    EXPECT_EQ(channel(readImage(file("default.exr").string()), "R").values, channel(full, "R").values)
        << "full resolution is the default";
    EXPECT_NE(channel(readImage(file("half.exr").string()), "R").values, channel(full, "R").values);
}

// --kernel-span <f>diag measures the display window (the whole picture), not the data window: a 24 x 16 data window
// inside a 48 x 32 display window blooms as with the pixels f sqrt(48^2 + 32^2), and unlike the same pixels with
// display window = data window.
TEST_F(CliTest, KernelSpanDiagonalIsTheDisplayWindows)
{
    Image overscan = makeImage(24, 16, {"R", "G", "B"}, PixelType::Float);
    overscan.layout.dataWindow = {0, 0, 23, 15};
    overscan.layout.displayWindow = {0, 0, 47, 31};
    writeExr(file("overscan.exr").string(), overscan);
    Image plain = overscan;
    plain.layout.displayWindow = plain.layout.dataWindow;
    writeExr(file("plain.exr").string(), plain);
    char pixels[32];
    std::snprintf(pixels, sizeof pixels, "%.9gpx", double(float(0.25 * std::sqrt(48.0 * 48.0 + 32.0 * 32.0))));
    ASSERT_EQ(bloom(file("overscan.exr"), file("diag.exr"), "--kernel-span 0.25diag").code, 0);
    ASSERT_EQ(bloom(file("overscan.exr"), file("px.exr"), "--kernel-span " + std::string(pixels)).code, 0);
    ASSERT_EQ(bloom(file("plain.exr"), file("plain_diag.exr"), "--kernel-span 0.25diag").code, 0);
    const Image diag = readImage(file("diag.exr").string());
    EXPECT_EQ(channel(diag, "R").values, channel(readImage(file("px.exr").string()), "R").values) << pixels;
    EXPECT_NE(channel(diag, "R").values, channel(readImage(file("plain_diag.exr").string()), "R").values);
}

// Every output records how it was made: the plugin's version, the options that shaped it as JSON (not the paths,
// shards or verbosity) and the kernel file with its SHA-256 (against sha256sum's); blooming an output again replaces
// the attributes instead of adding a second set.
TEST_F(CliTest, OutputsRecordTheVersionTheSettingsAndTheKernelFile)
{
    Image input = makeImage(24, 16, {"R", "G", "B"}, PixelType::Float);
    // What the software that wrote the input says of itself: kept under another name, not taken for the output's.
    for (const char* name : {"Software", "nuke/node_hash", "owner", "software"})
        input.layout.attributes.push_back({name, "string", {'x', 'y'}});
    writeExr(file("in.exr").string(), input);
    writeExr(file("psf.exr").string(), makeImage(8, 8, {"R", "G", "B"}, PixelType::Float));
    // The kernel named relative to the working folder: recorded absolute.
    const fs::path working = fs::current_path();
    fs::current_path(dir);
    CliResult r = bloom(file("in.exr"), file("out.exr"), " --kernel psf.exr --intensity 0.5 --resolution half -v");
    fs::current_path(working);
    const std::string kernel = " --kernel " + quote(file("psf.exr").string());
    ASSERT_EQ(r.code, 0) << r.err;
    const Image out = readImage(file("out.exr").string());
    const auto value = [&out](const std::string& name)
    {
        for (const Attribute& a : out.layout.attributes)
            if (a.name == name)
            {
                EXPECT_EQ(a.type, "string") << name;
                return std::string(a.value.begin(), a.value.end());
            }
        ADD_FAILURE() << "no attribute " << name;
        return std::string();
    };
    EXPECT_EQ(value("fftbloom.version"), std::to_string(FFTB_VERSION_MAJOR) + "." + std::to_string(FFTB_VERSION_MINOR) +
                                             "." + std::to_string(FFTB_VERSION_PATCH));
    EXPECT_EQ(value("software"), "fftbloom " + value("fftbloom.version"));
    EXPECT_EQ(value("fftbloom.input.Software"), "xy");
    EXPECT_EQ(value("fftbloom.input.software"), "xy");
    EXPECT_EQ(value("fftbloom.input.nuke/node_hash"), "xy");
    EXPECT_EQ(value("owner"), "xy");
    for (const Attribute& a : out.layout.attributes)
        EXPECT_TRUE(a.name != "Software" && a.name != "nuke/node_hash") << a.name << " kept";
    // Typed values: numbers, arrays of numbers, booleans and names.
    const nlohmann::json settings = nlohmann::json::parse(value("fftbloom.settings"));
    EXPECT_EQ(settings["intensity"], 0.5);
    EXPECT_EQ(settings["resolution"], "half");
    EXPECT_EQ(settings["kernel-size"], 8);
    EXPECT_EQ(settings["tint"], nlohmann::json::array({1, 1, 1})) << settings.dump();
    EXPECT_EQ(settings["clamp"], 65504);
    EXPECT_EQ(settings["padding"], "zero-normalized") << "defaults are recorded too";
    EXPECT_EQ(settings["kernel"], file("psf.exr").string());
    for (const char* leftOut : {"inputs", "o", "verbose", "shard", "report", "blades", "airy-radius", "glare"})
        EXPECT_FALSE(settings.contains(leftOut)) << leftOut << " in " << settings.dump();
    EXPECT_EQ(value("fftbloom.kernel"), file("psf.exr").string());
    FILE* pipe = popen(("sha256sum " + quote(file("psf.exr").string())).c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    char digest[65] = {};
    ASSERT_EQ(std::fread(digest, 1, 64, pipe), 64u);
    pclose(pipe);
    EXPECT_EQ(value("fftbloom.kernelSha256"), std::string(digest));

    r = bloom(file("out.exr"), file("again.exr"), kernel);
    ASSERT_EQ(r.code, 0) << r.err;
    const Image again = readImage(file("again.exr").string());
    EXPECT_EQ(std::count_if(again.layout.attributes.begin(), again.layout.attributes.end(),
                            [](const Attribute& a) { return a.name == "fftbloom.settings"; }),
              1);
    // The output's own software is now the input's: it replaces the fftbloom.input.software the output carried.
    const auto inherited = std::find_if(again.layout.attributes.begin(), again.layout.attributes.end(),
                                        [](const Attribute& a) { return a.name == "fftbloom.input.software"; });
    ASSERT_NE(inherited, again.layout.attributes.end());
    EXPECT_EQ(std::string(inherited->value.begin(), inherited->value.end()), value("software"));
}

TEST_F(CliTest, KernelExtentTooLargeForAFrameFailsItNamingTheScale)
{
    writeInput(); // 24 x 16: 200 diagonals are 5769 pixels, past the largest kernel extent
    const auto before = listing();
    const CliResult r = bloom(file("in.exr"), file("out.exr"), "--kernel-span 200diag");
    expectRefused(r, before, "in.exr", "kernel scale");
    EXPECT_EQ(r.code, 1);
}

// The default span is auto: the generated PSF spans 256 pixels on a 1920 x 1080 frame and the same fraction of any
// other diagonal, in whole pixels (3 on this 24 x 16 frame: 256 x 28.8 / 2202.9 = 3.35), whatever the kernel size; a
// PSF file keeps its own extent, as at native.
TEST_F(CliTest, KernelSpanChangesTheBloomAndAutoIsTheDefault)
{
    writeInput("in.exr", PixelType::Float);
    ASSERT_EQ(bloom(file("in.exr"), file("default.exr")).code, 0);
    for (const auto& [name, span] :
         {std::pair{"auto.exr", "auto"}, {"pixels.exr", "3px"}, {"native.exr", "native"}, {"wide.exr", "0.5diag"}})
    {
        const CliResult r = bloom(file("in.exr"), file(name), std::string("--kernel-span ") + span);
        ASSERT_EQ(r.code, 0) << span << ": " << r.err;
    }
    const Image reference = readImage(file("default.exr").string());
    const auto red = [this](const char* name) { return channel(readImage(file(name).string()), "R").values; };
    EXPECT_EQ(red("auto.exr"), channel(reference, "R").values);
    EXPECT_EQ(red("pixels.exr"), channel(reference, "R").values);
    EXPECT_NE(red("native.exr"), channel(reference, "R").values);
    EXPECT_NE(red("wide.exr"), channel(reference, "R").values);
    // A PSF file of the kernel size is native at auto.
    writeExr(file("psf.exr").string(), makeImage(8, 8, {"R", "G", "B"}, PixelType::Float));
    const std::string psf = " --kernel " + quote(file("psf.exr"));
    ASSERT_EQ(bloom(file("in.exr"), file("file_auto.exr"), psf).code, 0);
    ASSERT_EQ(bloom(file("in.exr"), file("file_native.exr"), psf + " --kernel-span native").code, 0);
    EXPECT_EQ(red("file_auto.exr"), red("file_native.exr"));
}

TEST_F(CliTest, HelpListsEveryOption)
{
    const CliResult r = run("--help");
    EXPECT_EQ(r.code, 0) << r.err;
    for (const char* option : {"--kernel ",
                               "--kernel-size",
                               "--padding",
                               "--axis",
                               "--spectrum",
                               "--spectrum-interpolation",
                               "--sharpen",
                               "--output",
                               "--intensity",
                               "--tint",
                               "--kernel-rotation",
                               "--settings",
                               "--blades",
                               "--airy-radius",
                               "--kernel-centre-offset",
                               "--precision",
                               "--device",
                               "--pixel-type",
                               "--animate",
                               "--corona",
                               "--seed",
                               "--part",
                               "--layer",
                               "--resolution",
                               "-o ",
                               "--out-dir",
                               "--list",
                               "--suffix",
                               "--overwrite",
                               "--report",
                               "--shard",
                               "--threads",
                               "--clamp",
                               "--verbose",
                               "--quiet",
                               "Exit codes",
                               "--threshold",
                               "--knee",
                               "--bloom-clamp",
                               "--kernel-span",
                               "--interpolation-width",
                               "--spectrum-oversampling"})
        EXPECT_NE(r.out.find(option), std::string::npos) << option << " missing from --help:\n" << r.out;
}

// fftbloom writes OpenEXR: an output named otherwise (-o bloom.png, an --output-pattern's .{ext} of an .hdr input) is
// refused before any frame, exit 2, pointing at the previews.
TEST_F(CliTest, AnOutputNotNamedExrIsRefusedPointingAtThePreview)
{
    writeInput();
    const auto before = listing();
    for (const std::string& output : {" -o " + quote(file("bloom.png")), " -o " + quote(file("bloom.exr.tif")),
                                      " --output-pattern " + quote(file("{stem}_b.png"))})
    {
        const CliResult r = run(quote(file("in.exr")) + output + " --kernel-size 8");
        EXPECT_EQ(r.code, 2) << output;
        EXPECT_NE(r.err.find("OpenEXR"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("--preview"), std::string::npos) << r.err;
        EXPECT_EQ(listing(), before) << output;
    }
    EXPECT_EQ(run(quote(file("in.exr")) + " -o " + quote(file("upper.EXR")) + " --kernel-size 8").code, 0);
}

// A byte that is no UTF-8 (a Latin-1 settings file) reaches stderr as \xHH: the text line holds no raw byte of it
// and the JSON line is JSON keeping it.
TEST_F(CliTest, BytesThatAreNotUtf8ReachTheLogEscaped)
{
    writeInput();
    writeBytes(file("s.txt"), "intensit\xe9=0.5\n");
    const std::string args = quote(file("in.exr")) + " -o " + quote(file("out.exr")) + " --settings " +
                             quote(file("s.txt")) + " --kernel-size 8";
    CliResult r = run(args);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("unknown option 'intensit\\xe9'"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\xe9'), std::string::npos) << r.err;
    r = run(args + " --log-format json");
    EXPECT_EQ(r.code, 2);
    const nlohmann::json line = nlohmann::json::parse(r.err, nullptr, false);
    ASSERT_FALSE(line.is_discarded()) << r.err;
    EXPECT_NE(line["message"].get<std::string>().find("'intensit\\xe9'"), std::string::npos) << r.err;
}

// An option or settings key renamed since (--kernel-extent is --kernel-span; the viewer's curvature= and composite=
// are blade-curvature= and output=) is an error naming the new name, on the command line and in a settings file.
TEST_F(CliTest, RenamedOptionsAreErrorsNamingTheirNewNames)
{
    writeInput();
    const auto before = listing();
    const std::string args = quote(file("in.exr")) + " -o " + quote(file("out.exr")) + " --kernel-size 8 ";
    for (const auto& [old, now] : {std::pair{"kernel-extent", "kernel-span"}, std::pair{"curvature", "blade-curvature"},
                                   std::pair{"composite", "output"}})
    {
        CliResult r = run(args + "--" + old + " 1");
        EXPECT_EQ(r.code, 2) << old;
        EXPECT_NE(r.err.find(std::string("--") + old + " is now --" + now), std::string::npos) << r.err;
        writeBytes(file("s.txt"), std::string("intensity=0.5\n") + old + "=1\n");
        r = run(args + "--settings " + quote(file("s.txt")));
        EXPECT_EQ(r.code, 2) << old;
        EXPECT_NE(r.err.find(":2: '" + std::string(old) + "' is now '" + now + "'"), std::string::npos) << r.err;
        fs::remove(file("s.txt"));
        EXPECT_EQ(listing(), before);
    }
}

} // namespace
} // namespace fftb
