// SPDX-License-Identifier: MIT
// Checks the default PSF's shape, PSF normalization and its errors, resampling, and loading from a file.
#include "host_error.h"
#include "image/image_io.h"
#include "psf/psf.h"
#include "psf/psf_generator.h"
#include "texel_test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
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

} // namespace
} // namespace fftb
