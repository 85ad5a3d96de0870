// Shared pieces of the GPU tests.
#include "gpu_test_support.h"

#include "psf/kernel_extent.h"
#include "reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace fftb::test
{

GpuRunner& runner()
{
    static GpuRunner instance(RunnerOptions{-1, true});
    return instance;
}

Texels randomFrame(int width, int height, uint32_t seed, float peak)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    Texels t(width, height, 4);
    for (float& v : t.values)
        v = u(rng);
    for (int i = 0; i < std::max(1, width * height / 200); ++i)
    {
        const int x = int(rng() % uint32_t(width)), y = int(rng() % uint32_t(height));
        for (int c = 0; c < 3; ++c)
            t.at(x, y, c) = peak;
    }
    return t;
}

double relativeError(const Texels& gpu, const Texels& reference)
{
    double worst = 0.0;
    for (int c = 0; c < 3; ++c)
    {
        double peak = 0.0, error = 0.0;
        for (int y = 0; y < reference.height; ++y)
            for (int x = 0; x < reference.width; ++x)
            {
                peak = std::max(peak, std::fabs(double(reference.at(x, y, c))));
                error = std::max(error, std::fabs(double(gpu.at(x, y, c)) - double(reference.at(x, y, c))));
            }
        worst = std::max(worst, peak > 0.0 ? error / peak : error);
    }
    return worst;
}

std::string describe(int width, int height, const BloomSettings& s)
{
    const char* axis = s.axisOrder == AxisOrder::XFirst   ? "x-first"
                       : s.axisOrder == AxisOrder::YFirst ? "y-first"
                                                          : "auto";
    return std::to_string(width) + "x" + std::to_string(height) +
           (s.padding == Padding::Mirror ? " mirror " : " zero ") + axis +
           (s.spectrum == SpectrumMode::Exact                  ? " exact"
            : s.interpolation == SpectrumInterpolation::Linear ? " resampled linear"
                                                               : " resampled cubic") +
           (s.kernelScale.native() ? std::string() : " kernel extent " + kernelExtentText(s.kernelScale));
}

Texels referenceFor(const Texels& frame, const Texels& kernel, const BloomSettings& s)
{
    if (s.spectrum == SpectrumMode::Exact)
        return referenceConvolution(frame, kernel, s.padding);
    Plan plan;
    std::string error;
    PlanRequest request{uint32_t(frame.width),
                        uint32_t(frame.height),
                        uint32_t(kernel.width),
                        uint32_t(kernel.height),
                        s.padding,
                        s.axisOrder,
                        s.spectrum};
    request.kernelScale = s.kernelScale;
    EXPECT_TRUE(makePlan(request, &plan, &error)) << error;
    return referenceSpectralConvolution(frame, kernel, plan, s.sharpen, s.interpolation);
}

} // namespace fftb::test
