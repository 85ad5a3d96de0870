// SPDX-License-Identifier: MIT
// The kernel's placement on the GPU (FftbKernelInfo::rotationDegrees, centreOffsetU, centreOffsetV) against the
// double-precision reference of a kernel moved or turned independently: by whole texels, and analytically.
#include "gpu_test_support.h"
#include "psf/psf.h"
#include "reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace fftb::test
{
namespace
{

// The kernel's point (c + o) falls on the light: the bloom is that of the kernel shifted by -o, k'(q) = k(q + o).
TEST(KernelPlacement, TheCentreOffsetMovesTheKernelOnTheLight)
{
    Texels kernel = randomKernel(9, 7, 81);
    normalizePsf(kernel);
    const int ox = 2, oy = -1;
    Texels shifted(kernel.width, kernel.height, 3);
    for (int y = 0; y < kernel.height; ++y)
        for (int x = 0; x < kernel.width; ++x)
            if (x + ox >= 0 && x + ox < kernel.width && y + oy >= 0 && y + oy < kernel.height)
                for (int c = 0; c < 3; ++c)
                    shifted.at(x, y, c) = kernel.at(x + ox, y + oy, c);
    normalizePsf(shifted);
    const Texels frame = randomFrame(41, 27, 82);
    for (FftbSpectrumMode spectrum : {FFTB_SPECTRUM_MODE_EXACT, FFTB_SPECTRUM_MODE_RESAMPLED})
    {
        BloomSettings s;
        s.kernel.spectrum = spectrum;
        s.frame.output = FFTB_OUTPUT_MODE_BLOOM;
        s.kernel.centreOffset = {float(ox) / float(kernel.width), float(oy) / float(kernel.height)};
        BloomSettings unplaced = s;
        unplaced.kernel.centreOffset = {0.0f, 0.0f};
        EXPECT_LE(relativeError(runner().bloom(frame, kernel, s), referenceFor(frame, shifted, unplaced)),
                  Tolerance::kFp32)
            << describe(frame.width, frame.height, s);
    }
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

// An anisotropic Gaussian turned 30 degrees counter-clockwise against the reference with the Gaussian evaluated at
// turned coordinates: equal up to the cubic resampling of a kernel 2.5 texels wide across (its tails fall to 3e-4 at
// the border).
TEST(KernelPlacement, ATurnedKernelBloomsAsTheTurnedPsf)
{
    const int n = 41;
    const double c = 20.0, theta = 30.0 * std::numbers::pi / 180.0;
    const auto gaussian = [](double x, double y) { return std::exp(-0.5 * (x * x / 25.0 + y * y / 6.25)); };
    Texels kernel(n, n, 3), turned(n, n, 3);
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x)
        {
            const double dx = x - c, dy = y - c;
            for (int ch = 0; ch < 3; ++ch)
            {
                kernel.at(x, y, ch) = float(gaussian(dx, dy));
                turned.at(x, y, ch) = float(
                    gaussian(dx * std::cos(theta) - dy * std::sin(theta), dx * std::sin(theta) + dy * std::cos(theta)));
            }
        }
    normalizePsf(kernel);
    normalizePsf(turned);
    const Texels frame = randomFrame(48, 40, 83);
    BloomSettings s;
    s.kernel.spectrum = FFTB_SPECTRUM_MODE_EXACT;
    s.frame.output = FFTB_OUTPUT_MODE_BLOOM;
    s.kernel.rotationDegrees = 30.0f;
    BloomSettings unplaced = s;
    unplaced.kernel.rotationDegrees = 0.0f;
    const Texels gpu = runner().bloom(frame, kernel, s);
    const double error = relativeError(gpu, referenceFor(frame, turned, unplaced));
    EXPECT_LE(error, 2e-3) << "turned 30 degrees";
    // Turned the other way, the error is that of a kernel 60 degrees off: the direction is checked.
    s.kernel.rotationDegrees = -30.0f;
    EXPECT_GT(relativeError(runner().bloom(frame, kernel, s), referenceFor(frame, turned, unplaced)), 10.0 * error);
    EXPECT_EQ(runner().validationMessageCount(), 0u) << runner().firstValidationMessage();
}

} // namespace
} // namespace fftb::test
