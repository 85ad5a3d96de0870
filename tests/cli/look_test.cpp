// SPDX-License-Identifier: MIT
// The default look across frame sizes: the generated PSF's auto span (a fraction of the diagonal), so that a proxy
// looks like its full frame.
#include "cli_fixture.h"

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
// over 2 x 2 texels, within 1e-5 of the peak (fp32; measured 7.7e-8 on lavapipe: at half the span, exact mode's tent
// resampling of the kernel is the 2 x 2 average of its texels); at --kernel-span native the same kernel is twice as
// large on the half frame, far outside it.
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
    EXPECT_LE(difference, 1e-5);
    const CliResult r =
        run(quote(file("half.exr")) + " -o " + quote(file("native.exr")) + glow + " --kernel-span native");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_GT(differenceToFull(readImage(file("native.exr").string())), 0.05) << "native: a fixed size in pixels";
}

} // namespace
} // namespace fftb
