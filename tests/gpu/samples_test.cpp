// SPDX-License-Identifier: MIT
// Real OpenEXR sample photographs, bloomed with the default PSF on the GPU, against the CPU reference: a candle's
// highlights (README's picture), a daylight scene and one with colours outside Rec.709 (negative values).
#include "gpu_test_support.h"
#include "image/image_io.h"
#include "psf/psf.h"
#include "psf/psf_generator.h"
#include "reference.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace fftb::test
{
namespace
{

class Samples : public ::testing::TestWithParam<const char*>
{
};

TEST_P(Samples, DefaultPsfBloomMatchesReference)
{
    // FFTBLOOM_SAMPLES_DIR in the environment points elsewhere, e.g. on a machine the build tree was copied to.
    const char* dir = std::getenv("FFTBLOOM_SAMPLES_DIR");
    const std::string path = std::string(dir ? dir : FFTBLOOM_SAMPLES_DIR) + "/" + GetParam() + ".exr";
    ASSERT_TRUE(std::filesystem::exists(path)) << path << " missing: run assets/fetch_samples.sh";
    const Texels frame = toRgba(readImage(path));
    Texels kernel = defaultPsf(256);
    normalizePsf(kernel);
    BloomSettings s;
    s.kernel.spectrum = FFTB_SPECTRUM_MODE_EXACT;
    s.frame.output = FFTB_OUTPUT_MODE_BLOOM;
    const Texels gpu = runner().bloom(frame, kernel, s);
    const double error = relativeError(gpu, referenceConvolutionFor(frame, kernel, s.plan.padding));
    std::printf("%s %dx%d: max |gpu - ref| / max |ref| = %.3g, GPU %.1f ms\n", GetParam(), frame.width, frame.height,
                error, runner().lastGpuMilliseconds());
    EXPECT_LE(error, Tolerance::kFp32) << path;
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

INSTANTIATE_TEST_SUITE_P(OpenExr, Samples, ::testing::Values("CandleGlass", "GoldenGate", "WideColorGamut"));

} // namespace
} // namespace fftb::test
