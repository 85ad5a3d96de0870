// SPDX-License-Identifier: MIT
// fftbloom --animate: each frame's kernel made on the GPU, seeded by --seed plus the frame number, so the glare
// flickers from frame to frame, a frame blooms alike in any run, and the seed a static kernel used gives its kernel.
#include "cli_fixture.h"

#include <algorithm>
#include <cmath>

namespace fftb
{
namespace
{

/// max |a - b| over the R, G, B of two outputs, over their largest value.
double relativeDifference(const fs::path& a, const fs::path& b)
{
    const Image x = readImage(a.string()), y = readImage(b.string());
    double largest = 0.0, difference = 0.0;
    for (const char* c : {"R", "G", "B"})
    {
        const std::vector<float>& u = channel(x, c).values;
        const std::vector<float>& v = channel(y, c).values;
        EXPECT_EQ(u.size(), v.size());
        for (std::size_t i = 0; i < std::min(u.size(), v.size()); ++i)
        {
            largest = std::max(largest, double(std::abs(v[i])));
            difference = std::max(difference, double(std::abs(u[i] - v[i])));
        }
    }
    return difference / largest;
}

TEST_F(CliTest, AnimatedKernelsFlickerPerFrameAndAreTheSameInAnyRun)
{
    const Image frame = makeImage(40, 32, {"R", "G", "B"}, PixelType::Float);
    for (const char* name : {"shot.1001.exr", "shot.1002.exr", "plain.exr"})
        writeExr(file(name).string(), frame);
    fs::create_directories(file("out"));
    // Airy radius 4 of 256: 1 texel at kernel-size 64, the least the GPU generator takes.
    const std::string eye =
        " --blades 0 --corona 0.8 --seed 5 --kernel-size 64 --airy-radius 4 --output bloom --padding zero";
    const CliResult shot = run(quote(file("shot.1001.exr")) + " " + quote(file("shot.1002.exr")) + " --out-dir " +
                               quote(file("out")) + " --animate" + eye);
    ASSERT_EQ(shot.code, 0) << shot.err;
    // The same texels, another seed: the particles moved.
    EXPECT_GT(relativeDifference(file("out/shot.1001.exr"), file("out/shot.1002.exr")), 1e-4);
    // Frame 1002 alone, in a run of its own: the same kernel, the same output.
    const CliResult alone = run(quote(file("shot.1002.exr")) + " -o " + quote(file("alone.exr")) + " --animate" + eye);
    ASSERT_EQ(alone.code, 0) << alone.err;
    EXPECT_EQ(relativeDifference(file("alone.exr"), file("out/shot.1002.exr")), 0.0);
    // A name without a frame number is its place in the list, 0 here: seed 5, as the static generated kernel's.
    const CliResult animated =
        run(quote(file("plain.exr")) + " -o " + quote(file("animated.exr")) + " --animate" + eye);
    const CliResult still = run(quote(file("plain.exr")) + " -o " + quote(file("static.exr")) + eye);
    ASSERT_EQ(animated.code, 0) << animated.err;
    ASSERT_EQ(still.code, 0) << still.err;
    EXPECT_LT(relativeDifference(file("animated.exr"), file("static.exr")), 1e-5);
    // The kernel is made at --kernel-size on the GPU: a power of two in 64..2048.
    const CliResult small =
        run(quote(file("plain.exr")) + " -o " + quote(file("small.exr")) + " --animate --kernel-size 32");
    EXPECT_EQ(small.code, 2);
    EXPECT_NE(small.err.find("--animate: the kernel is made on the GPU at kernel-size"), std::string::npos)
        << small.err;
    EXPECT_FALSE(fs::exists(file("small.exr")));
    // Made on the GPU at kernel-size 64, an Airy radius of 2 (of 256) is half a texel, below the GPU generator's range:
    // refused naming it, not clamped while the provenance records the value given.
    const CliResult fine = run(quote(file("plain.exr")) + " -o " + quote(file("fine.exr")) +
                               " --animate --airy-radius 2 --kernel-size 64");
    EXPECT_EQ(fine.code, 2);
    EXPECT_NE(fine.err.find("--airy-radius 2: made on the GPU at kernel-size 64, the first dark ring is 0.5 of its "
                            "texels"),
              std::string::npos)
        << fine.err;
    EXPECT_FALSE(fs::exists(file("fine.exr")));
}

} // namespace
} // namespace fftb
