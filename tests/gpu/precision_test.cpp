// SPDX-License-Identifier: MIT
// Storage precision (FftbStoragePrecision): fp16 storage against the double-precision reference, and the error each
// storage leaves in dark regions far from a sun at fp16's largest value, relative to the local value there: the
// rows of docs/kernels.md's table ("Storage precision"). The suite runs a 320x240 frame with a 64² kernel;
// FFTBLOOM_PRECISION_FULL=1 in the environment adds the table's 1920x1080 frame with a 256² kernel. The dark region
// is measured with the exact spectrum: the resampled one's periodic copies of the sun reach it, with negative lobes
// that bring the local value near zero at places (the image-quality issue of docs/kernels.md's "Spectrum
// resampling"), so relative errors there would measure those, not the storage.
#include "gpu_test_support.h"
#include "psf/psf.h"
#include "psf/psf_generator.h"
#include "reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <string>
#include <vector>

namespace fftb::test
{
namespace
{

/// fp16 storage against the double-precision reference, relative to the reference's peak per channel: each stored
/// bin is rounded to 11 significant bits, and the rounding of a line's bins adds up over its inverse FFT.
constexpr double kFp16Tolerance = 1e-3;

struct Fp16Case
{
    int width, height, kernel;
    FftbPadding padding;
    FftbAxisOrder axisOrder;
    FftbSpectrumMode spectrum;
};

class HalfStorage : public ::testing::TestWithParam<Fp16Case>
{
};

std::string fp16Name(const ::testing::TestParamInfo<Fp16Case>& param)
{
    const Fp16Case& c = param.param;
    return std::to_string(c.width) + "x" + std::to_string(c.height) + "_k" + std::to_string(c.kernel) +
           (c.padding == FFTB_PADDING_ZERO ? "_zero" : "_mirror") +
           (c.axisOrder == FFTB_AXIS_ORDER_X_FIRST   ? "_x"
            : c.axisOrder == FFTB_AXIS_ORDER_Y_FIRST ? "_y"
                                                     : "_auto") +
           (c.spectrum == FFTB_SPECTRUM_MODE_EXACT ? "_exact" : "_resampled");
}

// Keeps gtest from printing the parameters as raw bytes in test listings.
void PrintTo(const Fp16Case& c, std::ostream* os)
{
    *os << fp16Name(::testing::TestParamInfo<Fp16Case>(c, 0));
}

BloomSettings bloomOnly(FftbStoragePrecision storage)
{
    BloomSettings s;
    s.frame.output = FFTB_OUTPUT_MODE_BLOOM;
    s.plan.storage = storage;
    return s;
}

TEST_P(HalfStorage, MatchesTheReference)
{
    const Fp16Case& c = GetParam();
    BloomSettings s = bloomOnly(FFTB_STORAGE_PRECISION_FLOAT16);
    s.plan.padding = c.padding;
    s.plan.axisOrder = c.axisOrder;
    s.kernel.spectrum = c.spectrum;
    const Texels frame = randomFrame(c.width, c.height, 5);
    Texels kernel = randomKernel(c.kernel, c.kernel, 9);
    normalizePsf(kernel);
    const Texels reference = referenceFor(frame, kernel, s);
    const double half = relativeError(runner().bloom(frame, kernel, s), reference);
    EXPECT_LE(half, kFp16Tolerance) << describe(c.width, c.height, s);
    // The same frame in fp32 is far closer: the fp16 path is not the fp32 one.
    s.plan.storage = FFTB_STORAGE_PRECISION_FLOAT32;
    const double full = relativeError(runner().bloom(frame, kernel, s), reference);
    EXPECT_LE(full, Tolerance::kFp32) << describe(c.width, c.height, s);
    EXPECT_GT(half, 10.0 * full) << describe(c.width, c.height, s);
    std::printf("%s: fp16 %.1e, fp32 %.1e of the peak\n", fp16Name(::testing::TestParamInfo<Fp16Case>(c, 0)).c_str(),
                half, full);
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

// Each padding, axis order and spectrum mode once; 4200 texels along x are lines of the four-step path (past 4096).
INSTANTIATE_TEST_SUITE_P(
    Cases, HalfStorage,
    ::testing::Values(Fp16Case{64, 48, 16, FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_X_FIRST, FFTB_SPECTRUM_MODE_EXACT},
                      Fp16Case{37, 19, 8, FFTB_PADDING_MIRROR, FFTB_AXIS_ORDER_Y_FIRST, FFTB_SPECTRUM_MODE_RESAMPLED},
                      Fp16Case{640, 360, 64, FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_AUTO, FFTB_SPECTRUM_MODE_RESAMPLED},
                      Fp16Case{4200, 6, 8, FFTB_PADDING_MIRROR, FFTB_AXIS_ORDER_X_FIRST, FFTB_SPECTRUM_MODE_EXACT}),
    fp16Name);

/// A sun of `sun` x `sun` texels at fp16's largest value, 65504, at a quarter of the frame's width and height, on a
/// background of random values in [0.02, 1].
Texels sunFrame(int width, int height, int sun)
{
    Texels frame = randomFrame(width, height, 17, 1.0f);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            for (int c = 0; c < 3; ++c)
                frame.at(x, y, c) = 0.02f + 0.98f * frame.at(x, y, c);
    for (int y = height / 4; y < height / 4 + sun; ++y)
        for (int x = width / 4; x < width / 4 + sun; ++x)
            for (int c = 0; c < 3; ++c)
                frame.at(x, y, c) = 65504.0f;
    return frame;
}

/// The error of a bloom against the reference in the dark region: texels farther than the kernel's half extent
/// from every sun texel (the sun's light does not reach them in the linear convolution), relative to the
/// reference's value at each texel.
struct DarkError
{
    double max = 0.0;
    double rms = 0.0;
};

DarkError darkError(const Texels& gpu, const Texels& reference, int sun, int kernel)
{
    const int x0 = reference.width / 4, y0 = reference.height / 4, reach = kernel / 2 + 1;
    double worst = 0.0, squares = 0.0;
    long count = 0;
    for (int y = 0; y < reference.height; ++y)
        for (int x = 0; x < reference.width; ++x)
        {
            const int dx = std::max({x0 - x, x - (x0 + sun - 1), 0});
            const int dy = std::max({y0 - y, y - (y0 + sun - 1), 0});
            if (std::max(dx, dy) <= reach)
                continue;
            for (int c = 0; c < 3; ++c)
            {
                const double local = double(reference.at(x, y, c));
                const double e = std::fabs(double(gpu.at(x, y, c)) - local) / local;
                worst = std::max(worst, e);
                squares += e * e;
                ++count;
            }
        }
    return {worst, std::sqrt(squares / double(count))};
}

struct SunCase
{
    int width, height, sun, kernel;
};

/// Bounds of the error in the dark region, relative to the local value: two to three times the measured error.
struct DarkBound
{
    FftbStoragePrecision storage;
    float clamp;     ///< prefilter clamp C; 0: none
    double maxBound; ///< the largest max error the test accepts
    double rmsBound; ///< the largest RMS error it accepts
    double atLeast;  ///< the smallest RMS error it expects (0: none), so the claim that fp16 is unsafe stays true
};

// The table's rows, and what the suite asserts of each (at 320x240, sun 10², kernel 64²). A sun of 65504 leaves
// fp32's own rounding within about 2 % of the local value far from it (0.07 % RMS); fp16 storage swamps the dark
// region (errors of the order of the local value and many times it); a prefilter clamp of 64 brings fp16 to fp32's
// level there.
const DarkBound kDarkBounds[] = {
    {FFTB_STORAGE_PRECISION_FLOAT32, 0.0f, 0.05, 2e-3, 0.0},
    {FFTB_STORAGE_PRECISION_FLOAT16, 0.0f, 100.0, 3.0, 0.3},
    {FFTB_STORAGE_PRECISION_FLOAT16, 64.0f, 0.06, 2e-3, 0.0},
};

TEST(StoragePrecision, DarkRegionErrorBesideASun)
{
    std::vector<SunCase> cases = {{320, 240, 10, 64}};
    if (const char* full = std::getenv("FFTBLOOM_PRECISION_FULL"); full && std::string(full) == "1")
        cases.push_back({1920, 1080, 40, 256});
    for (const SunCase& c : cases)
    {
        const Texels frame = sunFrame(c.width, c.height, c.sun);
        const Texels kernel = defaultPsf(c.kernel);
        for (const DarkBound& row : kDarkBounds)
        {
            BloomSettings s = bloomOnly(row.storage);
            s.kernel.spectrum = FFTB_SPECTRUM_MODE_EXACT;
            s.frame.prefilter.clamp = row.clamp;
            const Texels reference = referenceFor(referencePrefilter(frame, toPlan(s.frame.prefilter)), kernel, s);
            const DarkError e = darkError(runner().bloom(frame, kernel, s), reference, c.sun, c.kernel);
            std::printf("| %dx%d, sun %d² at 65504, kernel %d² | %s | %s | %.1e | %.1e |\n", c.width, c.height, c.sun,
                        c.kernel, row.storage == FFTB_STORAGE_PRECISION_FLOAT16 ? "fp16" : "fp32",
                        row.clamp > 0.0f ? std::to_string(int(row.clamp)).c_str() : "none", e.max, e.rms);
            if (c.width != 320)
                continue; // the full size prints its row only
            EXPECT_LE(e.max, row.maxBound) << describe(c.width, c.height, s);
            EXPECT_LE(e.rms, row.rmsBound) << describe(c.width, c.height, s);
            EXPECT_GE(e.rms, row.atLeast) << describe(c.width, c.height, s);
        }
    }
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

} // namespace
} // namespace fftb::test
