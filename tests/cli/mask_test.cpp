// SPDX-License-Identifier: MIT
// --mask: a channel, a layer or a file per frame weighting what blooms (MaskSettings), and --mask-invert.
#include "cli_fixture.h"

namespace fftb
{
namespace
{

constexpr int kWidth = 64, kHeight = 48;

/// R, G, B black but for a light of 100 at (16, 24) and, unless `leftOnly`, one at (48, 24); extra channels
/// `extra` (name, value left of x = 32, value right of it).
Image twoLights(bool leftOnly, const std::vector<std::tuple<std::string, float, float>>& extra = {})
{
    Image image{kWidth, kHeight, {}};
    for (const char* name : {"R", "G", "B"})
    {
        Channel channel{name, PixelType::Float, std::vector<float>(kWidth * kHeight, 0.0f)};
        channel.values[24 * kWidth + 16] = 100.0f;
        if (!leftOnly)
            channel.values[24 * kWidth + 48] = 100.0f;
        image.channels.push_back(std::move(channel));
    }
    for (const auto& [name, left, right] : extra)
    {
        Channel channel{name, PixelType::Float, std::vector<float>(kWidth * kHeight)};
        for (int y = 0; y < kHeight; ++y)
            for (int x = 0; x < kWidth; ++x)
                channel.values[std::size_t(y * kWidth + x)] = x < 32 ? left : right;
        image.channels.push_back(std::move(channel));
    }
    std::sort(image.channels.begin(), image.channels.end(),
              [](const Channel& a, const Channel& b) { return a.name < b.name; });
    return image;
}

/// The largest difference of R, G, B between two outputs, over the peak of `b`.
double relativeDifference(const Image& a, const Image& b)
{
    double peak = 0.0, worst = 0.0;
    for (const char* name : {"R", "G", "B"})
    {
        const std::vector<float>& x = channel(a, name).values;
        const std::vector<float>& y = channel(b, name).values;
        for (std::size_t i = 0; i < y.size(); ++i)
        {
            peak = std::max(peak, double(std::fabs(y[i])));
            worst = std::max(worst, double(std::fabs(x[i] - y[i])));
        }
    }
    return worst / peak;
}

// The left light under a matte of 1, the right under 0: the glow is the left light's alone, whether the matte is a
// channel, a layer, a file (a lone A channel), or the inverse matte with --mask-invert; without a mask both bloom.
TEST_F(CliTest, AMaskedLightBloomsNotAtAllAndAnUnmaskedOneAsBefore)
{
    writeExr(file("in.exr").string(),
             twoLights(false, {{"matte.A", 1.0f, 0.0f}, {"holdout", 0.0f, 1.0f}, {"A", 1.0f, 1.0f}}));
    writeExr(file("left.exr").string(), twoLights(true));
    Image matte{kWidth, kHeight, {}};
    matte.channels.push_back(twoLights(true, {{"A", 1.0f, 0.0f}}).channels.front());
    ASSERT_EQ(matte.channels.front().name, "A");
    writeExr(file("matte.exr").string(), matte);
    const std::string common = " --output bloom --pixel-type float --kernel-span native";
    ASSERT_EQ(bloom(file("left.exr"), file("expected.exr"), common).code, 0);
    const Image expected = readImage(file("expected.exr").string());
    for (const std::string& mask : {std::string("--mask matte.A"), std::string("--mask matte"),
                                    "--mask " + quote(file("matte.exr")), std::string("--mask holdout --mask-invert")})
    {
        const CliResult r = bloom(file("in.exr"), file("out.exr"), common + " --overwrite " + mask);
        ASSERT_EQ(r.code, 0) << mask << ": " << r.err;
        EXPECT_LE(relativeDifference(readImage(file("out.exr").string()), expected), 1e-5) << mask;
    }
    ASSERT_EQ(bloom(file("in.exr"), file("out.exr"), common + " --overwrite").code, 0);
    EXPECT_GT(relativeDifference(readImage(file("out.exr").string()), expected), 0.1) << "no mask: both bloom";
}

// A mask file per frame: frame 1001's matte lets everything bloom, frame 1002's nothing, so its composite is its
// input. A name without a frame number for the placeholder, a channel the frame lacks and a mask of another frame
// size are refused naming them.
TEST_F(CliTest, AMaskFilePerFrameAndItsErrors)
{
    for (const int frame : {1001, 1002})
    {
        writeExr(file("in." + std::to_string(frame) + ".exr").string(), twoLights(false));
        Image matte{kWidth, kHeight, {}};
        matte.channels.push_back({"Y", PixelType::Half, std::vector<float>(kWidth * kHeight, frame == 1001)});
        writeExr(file("m." + std::to_string(frame) + ".exr").string(), matte);
    }
    const CliResult r = run(quote(file("in.####.exr")) + " -o " + quote(file("out.####.exr")) +
                            " --kernel-size 16 --pixel-type float --mask " + quote(file("m.####.exr")) + " --report " +
                            quote(file("report.jsonl")));
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string report = readBytes(file("report.jsonl"));
    EXPECT_NE(report.find("\"mask\":\"" + file("m.1002.exr").string() + "\""), std::string::npos) << report;
    const Image in = readImage(file("in.1002.exr").string());
    EXPECT_EQ(channel(readImage(file("out.1002.exr").string()), "R").values, channel(in, "R").values);
    EXPECT_GT(relativeDifference(readImage(file("out.1001.exr").string()), in), 0.01) << "frame 1001 blooms";

    writeExr(file("plain.exr").string(), twoLights(false));
    const std::set<std::string> before = listing();
    expectRefused(
        run(quote(file("plain.exr")) + " -o " + quote(file("out.exr")) + " --mask " + quote(file("m.####.exr"))),
        before, "plain.exr", "no frame number");
    const CliResult missing = bloom(file("plain.exr"), file("out.exr"), "--mask matte");
    EXPECT_NE(missing.code, 0);
    EXPECT_NE(missing.err.find("plain.exr: no channel or layer 'matte' for a mask (its channels: B, G, R)"),
              std::string::npos)
        << missing.err;
    Image small{32, 24, {{"A", PixelType::Half, std::vector<float>(32 * 24, 1.0f)}}};
    writeExr(file("small.exr").string(), small);
    const CliResult sized = bloom(file("plain.exr"), file("out.exr"), "--mask " + quote(file("small.exr")));
    EXPECT_NE(sized.code, 0);
    EXPECT_NE(sized.err.find("small.exr: a mask of display window 0,0 .. 31,23, not the frame's 0,0 .. 63,47"),
              std::string::npos)
        << sized.err;
    EXPECT_FALSE(fs::exists(file("out.exr")));
}

} // namespace
} // namespace fftb
