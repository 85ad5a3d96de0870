// SPDX-License-Identifier: MIT
// The default look across frame sizes: the generated PSF's auto span (a fraction of the diagonal), so that a proxy
// looks like its full frame; its glare reaching across the frame.
#include "cli_fixture.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace fftb
{
namespace
{

/// A black RGB frame of `scale` times 960 x 540 with lights of 1000, 300 and 50 at (200, 150), (700, 300) and
/// (480, 470) of the 960 x 540 frame, each a scale x scale block.
Image proxyLights(int scale)
{
    const int width = 960 * scale, height = 540 * scale;
    Image image{width, height, {}};
    for (const char* name : {"R", "G", "B"})
    {
        Channel channel{name, PixelType::Float, std::vector<float>(std::size_t(width) * height, 0.0f)};
        for (const auto& [x, y, value] : {std::tuple{200, 150, 1000.0f}, {700, 300, 300.0f}, {480, 470, 50.0f}})
            for (int dy = 0; dy < scale; ++dy)
                for (int dx = 0; dx < scale; ++dx)
                    channel.values[std::size_t(y * scale + dy) * width + std::size_t(x * scale + dx)] = value;
        image.channels.push_back(std::move(channel));
    }
    std::reverse(image.channels.begin(), image.channels.end()); // B, G, R: OpenEXR's order
    return image;
}

// The default look at 960 x 540 and at 1920 x 1080: the glow of the half frame against the full frame's glow averaged
// over 2 x 2 texels, within 3e-5 of the peak (measured 1.3e-5 on lavapipe: the glare's far field is convolved at 1/8
// of each frame, so on the half frame its texels cover twice the picture; without it, 7.7e-8: at half the span, exact
// mode's tent resampling of the kernel is the 2 x 2 average of its texels); at --kernel-span native the same kernel is
// twice as large on the half frame, far outside it.
TEST_F(CliTest, TheDefaultLookOfAHalfFrameIsTheHalfOfTheFullFramesLook)
{
    writeExr(file("half.exr").string(), proxyLights(1));
    writeExr(file("full.exr").string(), proxyLights(2));
    const std::string glow = " --output bloom --pixel-type float";
    for (const char* name : {"half", "full"})
    {
        const CliResult r =
            run(quote(file(std::string(name) + ".exr")) + " -o " + quote(file(std::string(name) + "_glow.exr")) + glow);
        ASSERT_EQ(r.code, 0) << name << ": " << r.err;
    }
    const Image half = readImage(file("half_glow.exr").string());
    const Image full = readImage(file("full_glow.exr").string());
    const auto differenceToFull = [&full](const Image& proxy)
    {
        double peak = 0.0, worst = 0.0;
        for (const char* name : {"R", "G", "B"})
        {
            const std::vector<float>& h = channel(proxy, name).values;
            const std::vector<float>& f = channel(full, name).values;
            for (int y = 0; y < 540; ++y)
                for (int x = 0; x < 960; ++x)
                {
                    const std::size_t at = std::size_t(2 * y) * 1920 + std::size_t(2 * x);
                    const double mean = 0.25 * (double(f[at]) + f[at + 1] + f[at + 1920] + f[at + 1921]);
                    peak = std::max(peak, mean);
                    worst = std::max(worst, std::fabs(h[std::size_t(y) * 960 + std::size_t(x)] - mean));
                }
        }
        return worst / peak;
    };
    const double difference = differenceToFull(half);
    std::printf("default look, 960 x 540 against 1920 x 1080: max difference / peak %.3g\n", difference);
    EXPECT_LE(difference, 3e-5);
    const CliResult r =
        run(quote(file("half.exr")) + " -o " + quote(file("native.exr")) + glow + " --kernel-span native");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_GT(differenceToFull(readImage(file("native.exr").string())), 0.05) << "native: a fixed size in pixels";
}

/// A black 1920 x 1080 RGB frame with one light of 1e6 at its centre texel (960, 540).
Image centreLight()
{
    Image image{1920, 1080, {}};
    for (const char* name : {"B", "G", "R"})
    {
        Channel channel{name, PixelType::Float, std::vector<float>(std::size_t(1920) * 1080, 0.0f)};
        channel.values[std::size_t(540) * 1920 + 960] = 1e6f;
        image.channels.push_back(std::move(channel));
    }
    return image;
}

// The default glare reaches across the frame (a far field past the kernel, docs/kernels.md "Glare"): a light of 1e6
// at the centre of 1920 x 1080 lights every texel of the frame's four 32 x 32 corners, and the glow's radial profile
// (G's mean over rings one pixel wide) falls without a step, from 20 pixels out to the edge: between neighbouring
// rings log P changes by no more than 2.5 / r plus 0.02 (a power law r^-2 changes by 2 / r; a far field of twice or
// half its weight would step by log 2 = 0.69 at the kernel's border, 128 pixels out). With --glare-reach 0 the
// corners hold the FFT's round-off only (measured 1.1e-5, against 5e-4 lit).
TEST_F(CliTest, ABrightLightsGlareReachesTheCornersWithoutAStep)
{
    writeExr(file("light.exr").string(), centreLight());
    const std::string glow = " --output bloom --pixel-type float";
    ASSERT_EQ(run(quote(file("light.exr")) + " -o " + quote(file("glow.exr")) + glow).code, 0);
    ASSERT_EQ(run(quote(file("light.exr")) + " -o " + quote(file("near.exr")) + glow + " --glare-reach 0").code, 0);
    const std::vector<float> g = channel(readImage(file("glow.exr").string()), "G").values;
    const std::vector<float> near = channel(readImage(file("near.exr").string()), "G").values;
    double dimmest = 1e30, nearBrightest = 0.0;
    for (const auto& [x0, y0] : {std::pair{0, 0}, {1888, 0}, {0, 1048}, {1888, 1048}})
        for (int y = y0; y < y0 + 32; ++y)
            for (int x = x0; x < x0 + 32; ++x)
            {
                dimmest = std::min(dimmest, double(g[std::size_t(y) * 1920 + std::size_t(x)]));
                nearBrightest = std::max(nearBrightest, double(near[std::size_t(y) * 1920 + std::size_t(x)]));
            }
    std::printf("corners: dimmest texel %.3g (light 1e6); without the far field the brightest %.3g\n", dimmest,
                nearBrightest);
    EXPECT_GT(dimmest, 0.0);
    EXPECT_LT(nearBrightest, 0.1 * dimmest) << "the kernel alone reaches no corner: its round-off at most";
    std::vector<double> sum(1102, 0.0);
    std::vector<int> count(sum.size(), 0);
    for (int y = 0; y < 1080; ++y)
        for (int x = 0; x < 1920; ++x)
        {
            const auto r = std::size_t(std::lround(std::hypot(x - 960.0, y - 540.0)));
            sum[r] += g[std::size_t(y) * 1920 + std::size_t(x)];
            ++count[r];
        }
    double worst = 0.0;
    int worstAt = 0;
    for (int r = 20; r < 1080; ++r)
    {
        const double step = std::fabs(std::log(sum[r + 1] / count[r + 1]) - std::log(sum[r] / count[r]));
        if (step - 2.5 / r > worst)
            worst = step - 2.5 / r, worstAt = r;
    }
    std::printf("radial profile: largest step past 2.5 / r %.3g at r = %d\n", worst, worstAt);
    EXPECT_LE(worst, 0.02) << "at r = " << worstAt;
}

} // namespace
} // namespace fftb
