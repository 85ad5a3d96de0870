// SPDX-License-Identifier: MIT
// Ringing of the resampled spectrum on the sample photographs: each interpolation against the exact spectrum, printed
// as the rows of docs/kernels.md's table ("Measured ringing"); cubic must beat bilinear. The suite runs K = 128;
// FFTBLOOM_RINGING_SIZES=128,256,512,1024 in the environment prints the whole table (minutes per size on lavapipe).
#include "gpu_test_support.h"
#include "image/image_io.h"
#include "plan.h"
#include "psf/psf.h"
#include "psf/psf_generator.h"
#include "reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <ostream>
#include <string>
#include <vector>

namespace fftb::test
{
namespace
{

const char* const kSamples[] = {"CandleGlass", "Desk", "GoldenGate", "Ocean", "StillLife", "WideColorGamut"};

/// The error of a resampled bloom against the exact one, relative to the exact bloom's peak over R, G, B.
struct Ringing
{
    double max = 0.0; ///< max |resampled - exact| / peak
    double rms = 0.0; ///< sqrt(mean (resampled - exact)^2) / peak, over every texel and channel
};

Ringing ringingOf(const Texels& resampled, const Texels& exact)
{
    double peak = 0.0, worst = 0.0, squares = 0.0;
    for (int y = 0; y < exact.height; ++y)
        for (int x = 0; x < exact.width; ++x)
            for (int c = 0; c < 3; ++c)
            {
                const double e = double(exact.at(x, y, c));
                const double d = double(resampled.at(x, y, c)) - e;
                peak = std::max(peak, std::fabs(e));
                worst = std::max(worst, std::fabs(d));
                squares += d * d;
            }
    const double rms = std::sqrt(squares / (3.0 * double(exact.width) * double(exact.height)));
    return {worst / peak, rms / peak};
}

/// Halves a frame with a 2 x 2 box (odd last rows and columns dropped): a quarter of the lavapipe time.
Texels halved(const Texels& t)
{
    Texels out(t.width / 2, t.height / 2, t.components);
    for (int y = 0; y < out.height; ++y)
        for (int x = 0; x < out.width; ++x)
            for (int c = 0; c < t.components; ++c)
                out.at(x, y, c) = 0.25f * (t.at(2 * x, 2 * y, c) + t.at(2 * x + 1, 2 * y, c) +
                                           t.at(2 * x, 2 * y + 1, c) + t.at(2 * x + 1, 2 * y + 1, c));
    return out;
}

const std::vector<Texels>& sampleFrames()
{
    static const std::vector<Texels> frames = []
    {
        // FFTBLOOM_SAMPLES_DIR in the environment points elsewhere, e.g. on a machine the build tree was copied to.
        const char* dir = std::getenv("FFTBLOOM_SAMPLES_DIR");
        std::vector<Texels> loaded;
        for (const char* name : kSamples)
        {
            const std::string path = std::string(dir ? dir : FFTBLOOM_SAMPLES_DIR) + "/" + name + ".exr";
            if (std::filesystem::exists(path))
                loaded.push_back(halved(toRgba(readImage(path))));
        }
        return loaded;
    }();
    return frames;
}

enum class Psf
{
    Default, ///< defaultPsf: faded to zero over the outer half of its radius
    Unfaded, ///< generatePsf with the default parameters: the spikes run out to the border
};

struct RingingCase
{
    Psf psf;
    int size;
};

class ResampledSpectrum : public ::testing::TestWithParam<RingingCase>
{
};

std::string caseName(const ::testing::TestParamInfo<RingingCase>& param)
{
    return std::string(param.param.psf == Psf::Default ? "default" : "unfaded") + "_" +
           std::to_string(param.param.size);
}

// Keeps gtest from printing the parameters as raw bytes in test listings.
void PrintTo(const RingingCase& c, std::ostream* os)
{
    *os << caseName(::testing::TestParamInfo<RingingCase>(c, 0));
}

/// The plan's resampled spectrum extent times `factor` along both axes: the reference then measures a spectrum
/// oversampled by that factor, which the GPU does not implement.
Plan oversampledPlan(const Texels& frame, const Texels& kernel, const BloomSettings& s, uint32_t factor)
{
    Plan plan;
    const PlanRequest request{uint32_t(frame.width),   uint32_t(frame.height), uint32_t(kernel.width),
                              uint32_t(kernel.height), toPlan(s.padding),      toPlan(s.axisOrder),
                              SpectrumMode::Resampled};
    EXPECT_TRUE(makePlan(request, &plan, nullptr));
    plan.first.spectrumLength *= factor;
    plan.second.spectrumLength *= factor;
    return plan;
}

// Per sample and interpolation, the bloom with the resampled spectrum against the bloom with the exact one, both on
// the GPU. The worst sample's row is the table's. Oversampled variants (S doubled) come from the double-precision
// reference against the same exact GPU bloom, whose own error (1e-5) is far below the ringing.
TEST_P(ResampledSpectrum, CubicRingsLessThanLinear)
{
    const auto& [psfKind, size] = GetParam();
    const std::vector<Texels>& frames = sampleFrames();
    ASSERT_EQ(frames.size(), std::size(kSamples)) << "sample photographs missing: run assets/fetch_samples.sh";
    Texels kernel;
    if (psfKind == Psf::Default)
        kernel = defaultPsf(size);
    else
    {
        PsfParams params;
        params.sizeTexels = size;
        kernel = generatePsf(params);
        normalizePsf(kernel);
    }
    BloomSettings s;
    s.output = FFTB_OUTPUT_MODE_BLOOM;
    Ringing worst[4]; // linear, cubic on the GPU; linear, cubic at 2 S in the reference
    for (std::size_t i = 0; i < frames.size(); ++i)
    {
        const Texels& frame = frames[i];
        s.spectrum = FFTB_SPECTRUM_MODE_EXACT;
        const Texels exact = runner().bloom(frame, kernel, s);
        s.spectrum = FFTB_SPECTRUM_MODE_RESAMPLED;
        Ringing r[4];
        int column = 0;
        for (SpectrumInterpolation interpolation : {SpectrumInterpolation::Linear, SpectrumInterpolation::Cubic})
        {
            s.interpolation = toPublic(interpolation);
            r[column++] = ringingOf(runner().bloom(frame, kernel, s), exact);
        }
        const Plan doubled = oversampledPlan(frame, kernel, s, 2);
        for (SpectrumInterpolation interpolation : {SpectrumInterpolation::Linear, SpectrumInterpolation::Cubic})
            r[column++] = ringingOf(referenceSpectralConvolution(frame, kernel, doubled, 0.0, interpolation), exact);
        std::printf("%-14s %dx%d K %4d: max/RMS linear %.2e/%.2e cubic %.2e/%.2e; at 2S linear %.2e/%.2e cubic "
                    "%.2e/%.2e\n",
                    kSamples[i], frame.width, frame.height, size, r[0].max, r[0].rms, r[1].max, r[1].rms, r[2].max,
                    r[2].rms, r[3].max, r[3].rms);
        EXPECT_LT(r[1].max, r[0].max) << kSamples[i] << " kernel " << size;
        for (int c = 0; c < 4; ++c)
            worst[c] = {std::max(worst[c].max, r[c].max), std::max(worst[c].rms, r[c].rms)};
    }
    std::printf("| %s | %d | %.2e | %.2e | %.2e | %.2e | %.2e | %.2e | %.2e | %.2e |\n",
                psfKind == Psf::Default ? "default" : "unfaded", size, worst[0].max, worst[0].rms, worst[1].max,
                worst[1].rms, worst[2].max, worst[2].rms, worst[3].max, worst[3].rms);
    EXPECT_LT(worst[1].max, worst[0].max) << "kernel " << size;
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

/// Both PSFs at each kernel size of FFTBLOOM_RINGING_SIZES (comma-separated, each 8 .. 4096), default 128.
std::vector<RingingCase> ringingCases()
{
    const char* sizes = std::getenv("FFTBLOOM_RINGING_SIZES");
    std::vector<int> list;
    for (const char* p = sizes ? sizes : "128"; *p != '\0';)
    {
        char* end = nullptr;
        const long size = std::strtol(p, &end, 10);
        if (end == p || size < 8 || size > 4096 || (*end != ',' && *end != '\0'))
        {
            std::fprintf(stderr, "FFTBLOOM_RINGING_SIZES=%s: expected kernel sizes 8 .. 4096, comma-separated\n", sizes);
            std::exit(2);
        }
        list.push_back(int(size));
        p = *end == ',' ? end + 1 : end;
    }
    std::vector<RingingCase> cases;
    for (Psf psf : {Psf::Default, Psf::Unfaded})
        for (int size : list)
            cases.push_back({psf, size});
    return cases;
}

INSTANTIATE_TEST_SUITE_P(Samples, ResampledSpectrum, ::testing::ValuesIn(ringingCases()), caseName);

} // namespace
} // namespace fftb::test
