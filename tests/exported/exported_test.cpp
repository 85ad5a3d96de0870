// SPDX-License-Identifier: MIT
// The bloom with the passes that fftbloom-shaders exports as FFTBLOOM_EXPORT (vulkan-glsl or vulkan-hlsl, SPIRV-Cross),
// compiled back to SPIR-V by glslang and embedded in a build of the plugin's own code: on lavapipe with validation on,
// against the double-precision CPU reference and against the native plugin, which runs in the fftbloom CLI's own
// process (the two plugins define the same symbols, so they never share one program). One executable per export.
#include "gpu_test_support.h"
#include "image/image_io.h"
#include "image/scrub.h"
#include "plan.h"
#include "psf/psf.h"
#include "psf/psf_generator.h"
#include "reference.h"
#include "settings/setting_names.h"

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <string>
#include <tuple>

namespace fftb::test
{
namespace
{

namespace fs = std::filesystem;

/// The exported and the native passes are fp32 code of the same math; only the SPIR-V that runs differs.
/// max |exported - native| over texels and R, G, B, relative to the native frame's largest value of that channel.
constexpr double kExportedVsNative = 1e-6;

constexpr int kKernelSize = 64; ///< the CLI's default PSF at --kernel-size 64
constexpr int kWidth = 200, kHeight = 150;

enum class Source
{
    Synthetic, ///< randomFrame: values in [0, 1) and highlights at 50
    Sample,    ///< a crop of the CandleGlass sample around its brightest texel
};

using Param = std::tuple<Source, FftbPadding, FftbSpectrumMode>;

std::string paramName(const ::testing::TestParamInfo<Param>& info)
{
    const auto& [source, padding, spectrum] = info.param;
    return std::string(source == Source::Synthetic ? "synthetic" : "candle_glass") +
           (padding != FFTB_PADDING_MIRROR ? "_zero" : "_mirror") +
           (spectrum == FFTB_SPECTRUM_MODE_EXACT ? "_exact" : "_resampled");
}

// Keeps gtest from printing the parameters as raw bytes in test listings.
void PrintTo(const Param& param, std::ostream* os)
{
    *os << paramName(::testing::TestParamInfo<Param>(param, 0));
}

std::string quote(const std::string& s)
{
    return "'" + s + "'";
}

/// kWidth x kHeight RGBA, scrubbed as the CLI scrubs its input, so that both plugins see the same values.
Texels frameFor(Source source)
{
    Texels frame;
    if (source == Source::Synthetic)
        frame = randomFrame(kWidth, kHeight, 21);
    else
    {
        const char* dir = std::getenv("FFTBLOOM_SAMPLES_DIR");
        const std::string path = std::string(dir ? dir : FFTBLOOM_SAMPLES_DIR) + "/CandleGlass.exr";
        if (!fs::exists(path))
            return {};
        const Texels full = toRgba(readImage(path));
        int bx = 0, by = 0;
        float best = -1.0f;
        for (int y = 0; y < full.height; ++y)
            for (int x = 0; x < full.width; ++x)
                if (full.at(x, y, 0) + full.at(x, y, 1) + full.at(x, y, 2) > best)
                {
                    best = full.at(x, y, 0) + full.at(x, y, 1) + full.at(x, y, 2);
                    bx = x;
                    by = y;
                }
        const int x0 = std::clamp(bx - kWidth / 2, 0, std::max(0, full.width - kWidth));
        const int y0 = std::clamp(by - kHeight / 2, 0, std::max(0, full.height - kHeight));
        frame = Texels(std::min(kWidth, full.width), std::min(kHeight, full.height), 4);
        for (int y = 0; y < frame.height; ++y)
            for (int x = 0; x < frame.width; ++x)
                for (int c = 0; c < 4; ++c)
                    frame.at(x, y, c) = full.at(x0 + x, y0 + y, c);
    }
    scrubRgb(frame, kDefaultScrubMax);
    return frame;
}

/// `frame` as a float OpenEXR with channels R, G, B, A.
Image toImage(const Texels& frame)
{
    Image image{frame.width, frame.height, {}, {}};
    for (int c = 0; c < 4; ++c)
    {
        Channel channel{std::string(1, "RGBA"[c]), PixelType::Float, {}};
        channel.values.resize(std::size_t(frame.width) * frame.height);
        for (int y = 0; y < frame.height; ++y)
            for (int x = 0; x < frame.width; ++x)
                channel.values[std::size_t(y) * frame.width + x] = frame.at(x, y, c);
        image.channels.push_back(std::move(channel));
    }
    return image;
}

class Exported : public ::testing::TestWithParam<Param>
{
  protected:
    void SetUp() override
    {
        dir_ = fs::path(::testing::TempDir()) /
               (std::string("fftbloom_exported_") + FFTBLOOM_EXPORT + "_" + paramName({GetParam(), 0}));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    /// The native plugin's bloom of `frame`: the fftbloom CLI, validation on, with the default PSF at kKernelSize and
    /// no glare far field (the runner here blooms with the kernel alone). Empty when the run failed (the failure is
    /// recorded).
    Texels native(const Texels& frame, const BloomSettings& s) const
    {
        const fs::path input = dir_ / "in.exr", output = dir_ / "out.exr", err = dir_ / "err.txt";
        writeExr(input.string(), toImage(frame));
        const std::string command =
            quote(FFTBLOOM_CLI_PATH) + " --validate -q " + quote(input.string()) + " -o " + quote(output.string()) +
            " --kernel-size " + std::to_string(kKernelSize) + " --padding " +
            settingName(s.plan.padding, kPaddingNames) + " --spectrum " +
            (s.kernel.spectrum == FFTB_SPECTRUM_MODE_EXACT ? "exact" : "resampled") +
            " --axis auto --sharpen 0 --output bloom --pixel-type float --glare-reach 0 --kernel-span " +
            kernelSpanText(s.plan.kernelSpan) + " 2>" + quote(err.string());
        const int status = std::system(command.c_str());
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        {
            ADD_FAILURE() << command << " failed (status " << status << ")";
            return {};
        }
        return toRgba(readImage(output.string()));
    }

  private:
    fs::path dir_;
};

TEST_P(Exported, MatchesReferenceAndNativePlugin)
{
    const auto& [source, padding, spectrum] = GetParam();
    const Texels frame = frameFor(source);
    if (frame.values.empty())
    {
        GTEST_SKIP() << "CandleGlass.exr missing: run assets/fetch_samples.sh";
    }
    BloomSettings s;
    s.plan.padding = padding;
    s.plan.kernelSpan = {}; // native: the runner gets the texels, not the generated PSF's auto span
    s.kernel.spectrum = spectrum;
    s.frame.output = FFTB_OUTPUT_MODE_BLOOM;
    s.kernel.sizeTexels = kKernelSize;
    Texels kernel = defaultPsf(kKernelSize, s.kernel.psfDesign()); // the generated PSF the CLI makes at that size
    normalizePsf(kernel);

    const Texels exported = runner().bloom(frame, kernel, s);
    ASSERT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
    const double toReference = relativeError(exported, referenceFor(frame, kernel, s));
    EXPECT_LE(toReference, Tolerance::kFp32) << describe(frame.width, frame.height, s);

    const Texels nativeBloom = native(frame, s);
    ASSERT_EQ(nativeBloom.width, frame.width);
    ASSERT_EQ(nativeBloom.height, frame.height);
    const double toNative = relativeError(exported, nativeBloom);
    EXPECT_LE(toNative, kExportedVsNative) << describe(frame.width, frame.height, s);
    std::printf("%s, %s: max |exported - reference| / peak = %.3g, max |exported - native| / peak = %.3g\n",
                FFTBLOOM_EXPORT, describe(frame.width, frame.height, s).c_str(), toReference, toNative);
}

INSTANTIATE_TEST_SUITE_P(Modes, Exported,
                         ::testing::Combine(::testing::Values(Source::Synthetic, Source::Sample),
                                            ::testing::Values(FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR),
                                            ::testing::Values(FFTB_SPECTRUM_MODE_EXACT, FFTB_SPECTRUM_MODE_RESAMPLED)),
                         paramName);

} // namespace
} // namespace fftb::test
