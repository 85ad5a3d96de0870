// SPDX-License-Identifier: MIT
// Checks the default PSF's shape, PSF normalization and its errors, resampling, and loading from a file.
#include "host_error.h"
#include "image/image_io.h"
#include "psf/psf.h"
#include "psf/psf_generator.h"
#include "psf_model.h"
#include "settings/kernel_texels.h"
#include "texel_test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <numbers>
#include <string>
#include <unistd.h>
#include <vector>

namespace fftb
{
namespace
{

using test::channelSum;

/// Fraction of a channel's energy within `radius` texels of (cx, cy).
double encircledEnergy(const Texels& t, int c, double cx, double cy, double radius)
{
    double inside = 0.0;
    for (int y = 0; y < t.height; ++y)
        for (int x = 0; x < t.width; ++x)
            if (std::hypot(x - cx, y - cy) <= radius)
                inside += t.at(x, y, c);
    return inside / channelSum(t, c);
}

void expectPeakAt(const Texels& t, int px, int py, const std::string& what)
{
    for (int c = 0; c < t.components; ++c)
    {
        int bx = -1, by = -1;
        float best = -std::numeric_limits<float>::infinity();
        for (int y = 0; y < t.height; ++y)
            for (int x = 0; x < t.width; ++x)
                if (t.at(x, y, c) > best)
                {
                    best = t.at(x, y, c);
                    bx = x;
                    by = y;
                }
        EXPECT_EQ(bx, px) << what << " channel " << c;
        EXPECT_EQ(by, py) << what << " channel " << c;
    }
}

std::string errorOf(Texels t)
{
    try
    {
        normalizePsf(t);
    }
    catch (const HostError& e)
    {
        return e.what();
    }
    return "no error";
}

TEST(DefaultPsf, IsTheGeneratedPsfAtAnySize)
{
    // Generated at 64: generatePsf's texels with the default parameters, unchanged up to a common factor per channel,
    // out to the border (no fade).
    PsfParams params;
    params.sizeTexels = 64;
    const Texels generated = generatePsf(params), native = defaultPsf(64);
    for (int c = 0; c < 3; ++c)
    {
        const double factor = native.at(32, 32, c) / double(generated.at(32, 32, c));
        for (int y = 0; y < 64; ++y)
            for (int x = 0; x < 64; ++x)
                ASSERT_NEAR(native.at(x, y, c), factor * generated.at(x, y, c), 1e-5 * native.at(32, 32, c))
                    << x << ", " << y;
        EXPECT_NEAR(channelSum(native, c), 1.0, 1e-4);
    }
    // Other sizes: resampled from the nearest generated size, the peak kept at the centre, unit sums.
    for (int size : {2, 3, 17, 100})
    {
        const Texels psf = defaultPsf(size);
        ASSERT_EQ(psf.width, size);
        ASSERT_EQ(psf.height, size);
        expectPeakAt(psf, size / 2, size / 2, "size " + std::to_string(size));
        for (int c = 0; c < 3; ++c)
            EXPECT_NEAR(channelSum(psf, c), 1.0, 1e-4) << "size " << size << " channel " << c;
    }
    EXPECT_THROW(defaultPsf(1), HostError);
}

TEST(NormalizePsf, GivesUnitSumPerChannel)
{
    Texels psf(5, 4, 3);
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 5; ++x)
            for (int c = 0; c < 3; ++c)
                psf.at(x, y, c) = float((x + 1) * (y + 2) * (c + 1) * (c + 1));
    const float ratio = psf.at(3, 2, 1) / psf.at(1, 1, 1);
    normalizePsf(psf);
    for (int c = 0; c < 3; ++c)
        EXPECT_NEAR(channelSum(psf, c), 1.0, 1e-6);
    EXPECT_FLOAT_EQ(psf.at(3, 2, 1) / psf.at(1, 1, 1), ratio);
}

TEST(NormalizePsf, NamesTheFaultyTexelOrChannel)
{
    Texels psf(4, 3, 3);
    std::fill(psf.values.begin(), psf.values.end(), 1.0f);

    Texels negative = psf;
    negative.at(2, 1, 1) = -0.5f;
    EXPECT_EQ(errorOf(negative), "kernel: texel (2, 1) channel G is -0.5, not a finite non-negative value");

    Texels nan = psf;
    nan.at(0, 2, 2) = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(errorOf(nan).rfind("kernel: texel (0, 2) channel B is nan", 0), 0u) << errorOf(nan);

    Texels inf = psf;
    inf.at(3, 0, 0) = std::numeric_limits<float>::infinity();
    EXPECT_EQ(errorOf(inf).rfind("kernel: texel (3, 0) channel R is inf", 0), 0u) << errorOf(inf);

    Texels zero = psf;
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 4; ++x)
            zero.at(x, y, 2) = 0.0f;
    EXPECT_EQ(errorOf(zero), "kernel: channel B sums to 0");

    EXPECT_EQ(errorOf(Texels(0, 0, 3)), "kernel: channel R sums to 0");
}

TEST(ResamplePsf, KeepsPeakAtCentreAndEnergyDistribution)
{
    const Texels big = defaultPsf(256);
    const Texels small = defaultPsf(64);
    const Texels shrunk = resamplePsf(big, 64);
    const Texels grown = resamplePsf(small, 256);
    ASSERT_EQ(shrunk.width, 64);
    ASSERT_EQ(shrunk.height, 64);
    ASSERT_EQ(grown.width, 256);
    expectPeakAt(shrunk, 32, 32, "256 -> 64");
    expectPeakAt(grown, 128, 128, "64 -> 256");
    for (int c = 0; c < 3; ++c)
    {
        EXPECT_NEAR(channelSum(shrunk, c), channelSum(big, c), 1e-3 * channelSum(big, c));
        EXPECT_NEAR(channelSum(grown, c), channelSum(small, c), 1e-2 * channelSum(small, c));
        // The same physical radius holds the same share of energy: 48 texels at 256 are 12 at 64.
        for (double r256 : {16.0, 48.0, 96.0})
        {
            const double before = encircledEnergy(big, c, 128, 128, r256);
            const double after = encircledEnergy(shrunk, c, 32, 32, r256 / 4.0);
            EXPECT_NEAR(after, before, 0.01) << "256 -> 64, channel " << c << ", radius " << r256;
        }
        for (double r64 : {4.0, 12.0, 24.0})
        {
            const double before = encircledEnergy(small, c, 32, 32, r64);
            const double after = encircledEnergy(grown, c, 128, 128, r64 * 4.0);
            EXPECT_NEAR(after, before, 0.01) << "64 -> 256, channel " << c << ", radius " << r64;
        }
    }
}

TEST(ResamplePsf, IdentityAtTheSameSizeAndExactBoxAverage)
{
    const Texels psf = defaultPsf(32);
    const Texels same = resamplePsf(psf, 32);
    for (std::size_t i = 0; i < psf.values.size(); ++i)
        ASSERT_EQ(same.values[i], psf.values[i]) << i;

    // Halving 8 -> 4: output texel o is centred on input 2o and its box [2o - 1, 2o + 1] takes half of texels
    // 2o - 1 and 2o + 1 and all of texel 2o.
    Texels ramp(8, 8, 3);
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x)
            for (int c = 0; c < 3; ++c)
                ramp.at(x, y, c) = float(x + 1);
    const Texels half = resamplePsf(ramp, 4);
    // Along y the factor is 2 (a flat column integrates to twice its value); along x 0.5 * 4 + 5 + 0.5 * 6 = 10.
    EXPECT_FLOAT_EQ(half.at(2, 2, 0), 20.0f);
    EXPECT_FLOAT_EQ(half.at(1, 2, 0), 2.0f * (0.5f * 2 + 3 + 0.5f * 4));
}

TEST(ResamplePsf, NonSquareInputMapsCentreToCentre)
{
    Texels psf(9, 20, 3);
    for (int c = 0; c < 3; ++c)
        psf.at(4, 10, c) = 1.0f;
    for (int size : {6, 16, 33})
    {
        const Texels out = resamplePsf(psf, size);
        expectPeakAt(out, size / 2, size / 2, "9x20 -> " + std::to_string(size));
    }
}

TEST(LoadPsf, ReadsRgbAndDropsAlpha)
{
    Image image;
    image.width = 3;
    image.height = 2;
    for (const char* name : {"A", "B", "G", "R"})
    {
        Channel ch;
        ch.name = name;
        ch.type = PixelType::Float;
        for (int i = 0; i < 6; ++i)
            ch.values.push_back(float(i) + (name[0] == 'R'   ? 10.0f
                                            : name[0] == 'G' ? 20.0f
                                            : name[0] == 'B' ? 30.0f
                                                             : 0.5f));
        image.channels.push_back(ch);
    }
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("fftbloom_psf_test_" + std::to_string(getpid()) + ".exr");
    writeExr(path.string(), image);
    const Texels psf = loadPsf(path.string());
    std::filesystem::remove(path);
    ASSERT_EQ(psf.components, 3);
    ASSERT_EQ(psf.width, 3);
    ASSERT_EQ(psf.height, 2);
    EXPECT_EQ(psf.at(2, 1, 0), 15.0f);
    EXPECT_EQ(psf.at(2, 1, 1), 25.0f);
    EXPECT_EQ(psf.at(0, 1, 2), 33.0f);
}

TEST(LoadPsf, MissingFileNamesThePath)
{
    try
    {
        loadPsf("/nonexistent/psf.exr");
        FAIL() << "no error";
    }
    catch (const HostError& e)
    {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/psf.exr"), std::string::npos) << e.what();
    }
}

/// Writes `psf` (RGB) as an EXR in the temporary directory and returns its path.
std::string writePsfFile(const Texels& psf, const std::string& name)
{
    Image image;
    image.width = psf.width;
    image.height = psf.height;
    for (int c = 0; c < 3; ++c)
    {
        Channel ch;
        ch.name = std::string(1, "RGB"[c]);
        ch.type = PixelType::Float;
        for (int y = 0; y < psf.height; ++y)
            for (int x = 0; x < psf.width; ++x)
                ch.values.push_back(psf.at(x, y, c));
        image.channels.push_back(ch);
    }
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("fftbloom_" + name + "_" + std::to_string(getpid()) + ".exr");
    writeExr(path.string(), image);
    return path.string();
}

/// A size x size PSF of the same value everywhere: all its light reaches the border.
Texels flatPsf(int size)
{
    Texels psf(size, size, 3);
    std::fill(psf.values.begin(), psf.values.end(), 1.0f);
    return psf;
}

TEST(PsfFade, RaisedCosineFromOneToZeroOverTheOuterFraction)
{
    EXPECT_EQ(psfFade(1.3, 0.0), 1.0) << "no fade: the kernel as it is, corners included";
    EXPECT_EQ(psfFade(0.75, 0.25), 1.0);
    EXPECT_NEAR(psfFade(0.875, 0.25), 0.5, 1e-12);
    EXPECT_EQ(psfFade(1.0, 0.25), 0.0);
    EXPECT_EQ(psfFade(1.2, 0.25), 0.0);
    // Continuous with its slope at both ends: within (pi e / f)^2 / 4 of flat e past them.
    const double e = 1e-3, bound = std::pow(std::numbers::pi * e / 0.25, 2) / 4.0 * 1.01;
    EXPECT_NEAR(psfFade(0.75 + e, 0.25), 1.0, bound);
    EXPECT_NEAR(psfFade(1.0 - e, 0.25), 0.0, bound);
    // Border texels are at rho 1 or more; the centre texel at 0, also of a 1- or 2-texel side.
    EXPECT_EQ(psfRadius(-128, 0, 127, 127), 128.0 / 127.0);
    EXPECT_EQ(psfRadius(127, 0, 127, 127), 1.0);
    EXPECT_EQ(psfRadius(0, 0, 0, 0), 0.0);
    EXPECT_EQ(psfRadius(-1, 0, 0, 0), 2.0);
}

TEST(KernelFile, LightAtItsBorderWarnsUnlessFaded)
{
    const std::string path = writePsfFile(flatPsf(64), "flat_psf");
    const KernelFile plain = loadKernelFile(path, 32, 0.0);
    EXPECT_NE(plain.warning.find(path), std::string::npos) << plain.warning;
    EXPECT_NE(plain.warning.find("% of its light lies in its outer ring"), std::string::npos) << plain.warning;
    EXPECT_NE(plain.warning.find("kernel-fade"), std::string::npos) << plain.warning;
    EXPECT_EQ(plain.warning.find('\n'), std::string::npos) << "one line: " << plain.warning;
    EXPECT_EQ(plain.fileWidth, 64);
    EXPECT_EQ(plain.texels.width, 32);
    // A flat 64^2 file has about 1 - pi (0.95 * 31)^2 / 64^2 = 33 % of its light past rho 0.95 (31 texels to its
    // border).
    EXPECT_NE(plain.warning.find(": 33 %"), std::string::npos) << plain.warning;

    const KernelFile faded = loadKernelFile(path, 32, 0.25);
    std::filesystem::remove(path);
    EXPECT_TRUE(faded.warning.empty()) << faded.warning;
    double border = 0.0;
    for (int i = 0; i < 32; ++i)
        border = std::max({border, double(faded.texels.at(i, 0, 1)), double(faded.texels.at(0, i, 1)),
                           double(faded.texels.at(i, 31, 1)), double(faded.texels.at(31, i, 1))});
    EXPECT_EQ(border, 0.0);
    EXPECT_NEAR(channelSum(faded.texels, 1), 1.0, 1e-6);
    EXPECT_EQ(faded.texels.at(16, 16, 1), faded.texels.at(20, 16, 1)) << "flat inside 0.75 of the radius";
}

TEST(KernelFile, TheGeneratedPsfUnfadedWarnsFadedNot)
{
    PsfParams unfaded;
    unfaded.sizeTexels = 128;
    unfaded.airyRadiusTexels = 1.0;
    unfaded.fade = 0.0;
    unfaded.glare = 0.0;
    PsfParams faded = unfaded;
    faded.fade = kDefaultPsfFade;
    const std::string path = writePsfFile(generatePsf(unfaded), "unfaded_psf");
    const KernelFile file = loadKernelFile(path, 128, 0.0);
    std::filesystem::remove(path);
    EXPECT_NE(file.warning.find("% of its light lies in its outer ring"), std::string::npos) << file.warning;
    EXPECT_LE(outerRingEnergy(generatePsf(faded)), kOuterRingWarning);
}

// The kernel texels of the CLI, the viewer and the Python module (makeKernelTexels): the generated PSF at native span;
// a PSF file and the same texels given as an array alike, at the file's own extent; the settings' span kept unless it
// is native; an unreadable file named.
TEST(KernelTexels, TheGeneratedPsfAFileAndAnArrayAlike)
{
    KernelSettings generated;
    generated.sizeTexels = 64;
    const KernelTexels psf = makeKernelTexels(generated);
    EXPECT_TRUE(psf.nativeSpan.native());
    EXPECT_TRUE(psf.warning.empty()) << psf.warning;
    EXPECT_EQ(psf.texels.values, defaultPsf(64, generated.psfDesign()).values);

    Texels wide(48, 24, 3); // a Gaussian of 2 texels' sigma: no light near the border, no warning
    for (int y = 0; y < wide.height; ++y)
        for (int x = 0; x < wide.width; ++x)
            for (int c = 0; c < 3; ++c)
                wide.at(x, y, c) = float(std::exp(-((x - 24) * (x - 24) + (y - 12) * (y - 12)) / 8.0));
    const std::string path = writePsfFile(wide, "wide_psf");
    KernelSettings fromFile;
    fromFile.file = path;
    fromFile.sizeTexels = 32;
    const KernelTexels file = makeKernelTexels(fromFile);
    KernelSettings fromArray;
    fromArray.sizeTexels = 32;
    const KernelTexels array = makeKernelTexels(fromArray, &wide);
    EXPECT_TRUE(file.warning.empty()) << file.warning;
    EXPECT_EQ(file.texels.width, 32);
    EXPECT_EQ(file.texels.values, array.texels.values);
    EXPECT_EQ(file.nativeSpan, (KernelSpan{FFTB_KERNEL_SPAN_PIXELS, 48.0f})) << "the file's larger side, in pixels";
    EXPECT_EQ(array.nativeSpan, file.nativeSpan);
    EXPECT_EQ(file.spanOn(KernelSpan{}), file.nativeSpan);
    const KernelSpan diagonal{FFTB_KERNEL_SPAN_FRAME_DIAGONAL, 0.25f};
    EXPECT_EQ(file.spanOn(diagonal), diagonal);

    fromFile.file = path + ".missing";
    std::filesystem::remove(path);
    try
    {
        makeKernelTexels(fromFile);
        ADD_FAILURE() << "a missing file was read";
    }
    catch (const HostError& e)
    {
        EXPECT_NE(std::string(e.what()).find(fromFile.file), std::string::npos) << e.what();
    }
}

// A negative texel is refused naming it at every kernel size, before resampling could average it away (a 9x9 kernel
// with one texel of -0.001 was accepted at 8, 16 and 32 texels).
TEST(KernelFile, ANegativeTexelIsRefusedAtEveryKernelSize)
{
    Texels psf(9, 9, 3);
    std::fill(psf.values.begin(), psf.values.end(), 1.0f);
    psf.at(2, 4, 1) = -0.001f;
    for (const int size : {8, 9, 16, 32})
    {
        try
        {
            kernelFromPsf("psf.exr", psf, size, 0.0);
            ADD_FAILURE() << "accepted at kernel size " << size;
        }
        catch (const HostError& e)
        {
            EXPECT_EQ(std::string(e.what()),
                      "psf.exr: kernel: texel (2, 4) channel G is -0.001, not a finite non-negative value");
        }
    }
}

TEST(KernelFile, CompactKernelsNeitherWarnNorChange)
{
    Texels delta(1, 1, 3);
    std::fill(delta.values.begin(), delta.values.end(), 2.0f);
    const std::string deltaPath = writePsfFile(delta, "delta_psf");
    const KernelFile faded = loadKernelFile(deltaPath, 1, 1.0);
    std::filesystem::remove(deltaPath);
    EXPECT_TRUE(faded.warning.empty()) << faded.warning;
    EXPECT_EQ(faded.texels.values, std::vector<float>(3, 1.0f)) << "a 1x1 kernel's texel is its centre";

    const Texels psf = defaultPsf(64);
    EXPECT_LE(outerRingEnergy(psf), kOuterRingWarning) << "the generated PSF fades: nothing to warn about";
    const std::string path = writePsfFile(psf, "default_psf");
    const KernelFile file = loadKernelFile(path, 64, 0.0);
    std::filesystem::remove(path);
    EXPECT_TRUE(file.warning.empty()) << file.warning;
    EXPECT_EQ(file.texels.values, psf.values);
}

} // namespace
} // namespace fftb
