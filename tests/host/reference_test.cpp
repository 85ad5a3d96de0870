// SPDX-License-Identifier: MIT
// Checks the CPU reference against a direct convolution sum and the identities the bloom must satisfy.
#include "host_error.h"
#include "plan.h"
#include "reference.h"
#include "texel_test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

namespace fftb
{
namespace
{

using test::channelPlane;
using test::channelSum;
using test::oneHotKernel;
using test::randomTexels;

/// GL_MIRRORED_REPEAT written independently of the planner and the reference.
int mirror(int q, int length)
{
    const int period = 2 * length;
    const int m = ((q % period) + period) % period;
    return m < length ? m : period - 1 - m;
}

/// out(p) = sum_j k(j) in(p - j + c), summed directly in double.
std::vector<double> directConvolution(const Texels& in, const Texels& k, FftbPadding padding)
{
    std::vector<double> out(std::size_t(in.width) * in.height * 3, 0.0);
    const int cx = k.width / 2, cy = k.height / 2;
    for (int c = 0; c < 3; ++c)
        for (int py = 0; py < in.height; ++py)
            for (int px = 0; px < in.width; ++px)
            {
                double sum = 0.0;
                for (int jy = 0; jy < k.height; ++jy)
                    for (int jx = 0; jx < k.width; ++jx)
                    {
                        int qx = px - jx + cx, qy = py - jy + cy;
                        const bool inside = qx >= 0 && qx < in.width && qy >= 0 && qy < in.height;
                        if (!inside && padding != FFTB_PADDING_MIRROR)
                            continue;
                        qx = mirror(qx, in.width);
                        qy = mirror(qy, in.height);
                        sum += double(k.at(jx, jy, c)) * double(in.at(qx, qy, c));
                    }
                out[(std::size_t(py) * in.width + px) * 3 + c] = sum;
            }
    return out;
}

/// Largest difference between float results and double expectations, relative to the largest expectation.
/// The reference returns float texels, so agreement is bounded by float rounding (2^-24 relative per value).
double relativeError(const Texels& got, const std::vector<double>& want)
{
    double peak = 0.0, err = 0.0;
    for (std::size_t i = 0; i < want.size(); ++i)
    {
        peak = std::max(peak, std::abs(want[i]));
        err = std::max(err, std::abs(double(got.values[i]) - want[i]));
    }
    return peak > 0.0 ? err / peak : err;
}

std::vector<double> asDouble(const Texels& t)
{
    return std::vector<double>(t.values.begin(), t.values.end());
}

constexpr double kFloatTolerance = 4.0 * std::numeric_limits<float>::epsilon();

/// A hand-built axis plan with padded length n and spectrum length s (0: exact, s = n).
AxisPlan axis(uint32_t l, uint32_t k, uint32_t n, FftbPadding padding, uint32_t s = 0)
{
    AxisPlan a;
    a.imageLength = l;
    a.kernelLength = k;
    a.kernelCentre = k / 2;
    a.paddedLength = n;
    a.spectrumLength = s == 0 ? n : s;
    // The convolution reads c texels past the far edge and K - 1 - c before the near one.
    a.mirrorSplit = padding != FFTB_PADDING_MIRROR ? n : l + a.kernelCentre + (n - l - (k - 1)) / 2;
    return a;
}

Plan handPlan(const Texels& frame, const Texels& kernel, FftbPadding padding, uint32_t nx, uint32_t ny,
              bool firstAxisIsX = true, uint32_t sx = 0, uint32_t sy = 0)
{
    Plan p;
    p.padding = padding;
    p.spectrum = sx == 0 ? FFTB_SPECTRUM_MODE_EXACT : FFTB_SPECTRUM_MODE_RESAMPLED;
    p.firstAxisIsX = firstAxisIsX;
    const AxisPlan x = axis(uint32_t(frame.width), uint32_t(kernel.width), nx, padding, sx);
    const AxisPlan y = axis(uint32_t(frame.height), uint32_t(kernel.height), ny, padding, sy);
    p.first = firstAxisIsX ? x : y;
    p.second = firstAxisIsX ? y : x;
    return p;
}

/// The interpolation argument where the plan is exact and it is not read.
constexpr FftbSpectrumInterpolation kUnused = FFTB_SPECTRUM_INTERPOLATION_CUBIC;

std::string name(FftbPadding p)
{
    return p != FFTB_PADDING_MIRROR ? "zero" : "mirror";
}

TEST(ReferenceConvolution, MatchesDirectSum)
{
    const Texels frame = randomTexels(13, 7, 4, 1);
    for (const auto& [kw, kh] : std::vector<std::pair<int, int>>{{5, 4}, {8, 8}, {3, 7}, {1, 1}, {16, 2}, {20, 11}})
    {
        const Texels kernel = randomTexels(kw, kh, 3, uint32_t(kw * 31 + kh), -0.5f, 1.0f);
        for (FftbPadding padding : {FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR})
        {
            const double err =
                relativeError(referenceConvolution(frame, kernel, padding), directConvolution(frame, kernel, padding));
            EXPECT_LT(err, kFloatTolerance) << kw << "x" << kh << " " << name(padding);
        }
    }
}

TEST(ReferenceWrappedConvolution, MatchesTheDirectSumWhenPaddedEnoughAndWrapsAroundOtherwise)
{
    const Texels frame = randomTexels(13, 7, 3, 21);
    const Texels kernel = randomTexels(5, 4, 3, 22, -0.5f, 1.0f);
    const std::vector<double> want = directConvolution(frame, kernel, FFTB_PADDING_ZERO);
    const std::vector<double> in = channelPlane(frame, 1), k = channelPlane(kernel, 1);
    const PlaneView framePlane{in.data(), 13, 7}, kernelPlane{k.data(), 5, 4};
    for (uint32_t y = 0; y < 7; ++y)
        for (uint32_t x = 0; x < 13; ++x)
            EXPECT_NEAR(referenceWrappedConvolutionAt(framePlane, kernelPlane, 13 + 4, 7 + 3, x, y),
                        want[(size_t(y) * 13 + x) * 3 + 1], 1e-12)
                << x << "," << y;
    // Padded to the frame's own extent, a one-hot off the centre by (2, 1) shifts circularly.
    const Texels shift = oneHotKernel(5, 4, 2 + 2, 2 + 1);
    const std::vector<double> s = channelPlane(shift, 0);
    for (uint32_t y = 0; y < 7; ++y)
        for (uint32_t x = 0; x < 13; ++x)
            EXPECT_EQ(referenceWrappedConvolutionAt(framePlane, {s.data(), 5, 4}, 13, 7, x, y),
                      in[size_t((y + 7 - 1) % 7) * 13 + (x + 13 - 2) % 13])
                << x << "," << y;
}

TEST(ReferenceConvolution, CentredOneHotIsIdentity)
{
    const Texels frame = randomTexels(13, 7, 3, 2);
    for (const auto& [kw, kh] : std::vector<std::pair<int, int>>{{5, 4}, {8, 8}, {1, 1}})
        for (FftbPadding padding : {FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR})
        {
            const Texels out = referenceConvolution(frame, oneHotKernel(kw, kh, kw / 2, kh / 2), padding);
            EXPECT_LT(relativeError(out, asDouble(frame)), kFloatTolerance) << kw << "x" << kh << " " << name(padding);
        }
}

TEST(ReferenceConvolution, OffCentreOneHotShifts)
{
    const int w = 13, h = 7;
    Texels frame(w, h, 3);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < 3; ++c)
                frame.at(x, y, c) = float(1 + x + 100 * y + 10000 * c);
    // Kernel 8x6, centre (4, 3); the one-hot at (4 + 2, 3 - 1) shifts by s = (2, -1): out(p) = in(p - s).
    const int sx = 2, sy = -1;
    const Texels kernel = oneHotKernel(8, 6, 4 + sx, 3 + sy);
    for (FftbPadding padding : {FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR})
    {
        const Texels out = referenceConvolution(frame, kernel, padding);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                for (int c = 0; c < 3; ++c)
                {
                    const int qx = x - sx, qy = y - sy;
                    const bool inside = qx >= 0 && qx < w && qy >= 0 && qy < h;
                    float want = 0.0f;
                    if (inside || padding == FFTB_PADDING_MIRROR)
                        want = frame.at(mirror(qx, w), mirror(qy, h), c);
                    ASSERT_NEAR(out.at(x, y, c), want, 1e-6 * std::abs(want) + 1e-9)
                        << name(padding) << " at (" << x << ", " << y << ", " << c << ")";
                }
    }
    // Spot-check the mirror rule at the corners: (0, 6) reads (-2, 7) -> (1, 6); (1, 6) reads (-1, 7) -> (0, 6).
    const Texels mirrored = referenceConvolution(frame, kernel, FFTB_PADDING_MIRROR);
    EXPECT_FLOAT_EQ(mirrored.at(0, 6, 0), frame.at(1, 6, 0));
    EXPECT_FLOAT_EQ(mirrored.at(1, 6, 0), frame.at(0, 6, 0));
    EXPECT_NEAR(referenceConvolution(frame, kernel, FFTB_PADDING_ZERO).at(1, 6, 0), 0.0f, 1e-9);
}

// The kernel scaled in space (plan.h, "Kernel scale in space"): the identity at sigma = 1; a lone texel magnified
// twice spreads by the tent of half-width 2 over its three nearest offsets, 1/4 1/2 1/4 per axis; every scale keeps
// each channel's sum and no value is negative.
TEST(ReferenceScaledKernel, IsTheIdentityAtScaleOneAndKeepsTheMassWithoutNegativeValues)
{
    Texels kernel(5, 3, 3);
    for (size_t i = 0; i < kernel.values.size(); ++i)
        kernel.values[i] = float((i * 7919) % 13) / 13.0f;
    const Texels same = referenceScaledKernel(kernel, 1.0, 5, 3);
    EXPECT_EQ(same.values, kernel.values);

    Texels lone(5, 5, 3);
    lone.at(2, 2, 0) = 1.0f;
    const Texels twice = referenceScaledKernel(lone, 2.0, 10, 10);
    const double expected[] = {0.25, 0.5, 0.25}; // offsets -1, 0, 1 from the centre texel 5
    for (int y = 0; y < 10; ++y)
        for (int x = 0; x < 10; ++x)
        {
            const bool inside = std::abs(x - 5) <= 1 && std::abs(y - 5) <= 1;
            const double want = inside ? expected[x - 4] * expected[y - 4] : 0.0;
            EXPECT_NEAR(twice.at(x, y, 0), want, 1e-7) << x << ", " << y;
        }

    for (const double sigma : {0.37, 1.7, 4.0})
    {
        const int width = int(std::ceil(sigma * 5)), height = int(std::ceil(sigma * 3));
        const Texels scaled = referenceScaledKernel(kernel, sigma, width, height);
        for (int c = 0; c < 3; ++c)
        {
            double before = 0.0, after = 0.0;
            for (int y = 0; y < kernel.height; ++y)
                for (int x = 0; x < kernel.width; ++x)
                    before += kernel.at(x, y, c);
            for (int y = 0; y < height; ++y)
                for (int x = 0; x < width; ++x)
                {
                    after += scaled.at(x, y, c);
                    EXPECT_GE(scaled.at(x, y, c), 0.0f);
                }
            EXPECT_NEAR(after, before, 1e-5 * before) << "sigma " << sigma << ", channel " << c;
        }
    }
}

TEST(ReferenceConvolution, RejectsBadShapes)
{
    EXPECT_THROW(referenceConvolution(Texels(4, 4, 2), Texels(3, 3, 3), FFTB_PADDING_ZERO), std::runtime_error);
    EXPECT_THROW(referenceConvolution(Texels(4, 4, 4), Texels(0, 3, 3), FFTB_PADDING_ZERO), std::runtime_error);
}

struct SpectralCase
{
    int w, h, kw, kh;
    FftbPadding padding;
    bool firstAxisIsX;
};

TEST(ReferenceSpectral, ExactEqualsLinearWhenPaddingSuffices)
{
    const std::vector<SpectralCase> cases = {
        {13, 7, 5, 4, FFTB_PADDING_ZERO, true},    {13, 7, 5, 4, FFTB_PADDING_MIRROR, false},
        {13, 7, 8, 8, FFTB_PADDING_ZERO, false},   {13, 7, 8, 8, FFTB_PADDING_MIRROR, true},
        {5, 3, 16, 16, FFTB_PADDING_ZERO, true},   {4, 3, 17, 16, FFTB_PADDING_ZERO, false},
        {9, 9, 8, 8, FFTB_PADDING_MIRROR, true},   {10, 6, 7, 3, FFTB_PADDING_MIRROR, false},
        {20, 12, 9, 6, FFTB_PADDING_MIRROR, true},
    };
    for (const SpectralCase& t : cases)
    {
        const Texels frame = randomTexels(t.w, t.h, 4, uint32_t(t.w + 7 * t.h));
        const Texels kernel = randomTexels(t.kw, t.kh, 3, uint32_t(t.kw * 13 + t.kh), 0.0f, 1.0f);
        const uint32_t nx = paddedLength(uint32_t(t.w), uint32_t(t.kw), t.padding, true);
        const uint32_t ny = paddedLength(uint32_t(t.h), uint32_t(t.kh), t.padding, false);
        // Also the smallest non-power-of-two length that suffices: no slack at all.
        const uint32_t marginX = t.padding != FFTB_PADDING_MIRROR ? uint32_t(t.kw / 2) : uint32_t(t.kw - 1);
        const uint32_t marginY = t.padding != FFTB_PADDING_MIRROR ? uint32_t(t.kh / 2) : uint32_t(t.kh - 1);
        const Texels linear = referenceConvolution(frame, kernel, t.padding);
        for (const auto& [px, py] :
             std::vector<std::pair<uint32_t, uint32_t>>{{nx, ny}, {uint32_t(t.w) + marginX, uint32_t(t.h) + marginY}})
        {
            const Plan plan = handPlan(frame, kernel, t.padding, px, py, t.firstAxisIsX);
            const double err =
                relativeError(referenceSpectralConvolution(frame, kernel, plan, 0.0, kUnused), asDouble(linear));
            EXPECT_LT(err, kFloatTolerance) << t.w << "x" << t.h << " * " << t.kw << "x" << t.kh << " "
                                            << name(t.padding) << " N " << px << "x" << py;
        }
    }
}

TEST(ReferenceSpectral, ExactWithTooLittlePaddingWrapsAround)
{
    // N = L + K/2 - 1 along x under zero padding: the kernel's far tail wraps onto the image, so this must differ.
    const Texels frame = randomTexels(12, 6, 3, 5);
    const Texels kernel = randomTexels(9, 5, 3, 6);
    const Plan plan = handPlan(frame, kernel, FFTB_PADDING_ZERO, 12 + 4 - 1, 6 + 2);
    const double err = relativeError(referenceSpectralConvolution(frame, kernel, plan, 0.0, kUnused),
                                     asDouble(referenceConvolution(frame, kernel, FFTB_PADDING_ZERO)));
    EXPECT_GT(err, 1e-3);
}

TEST(ReferenceSpectral, PlannerPlansMatchLinear)
{
    // The planner's own plans (split points included), at sizes where the mirror padding has no slack.
    for (const auto& [w, h, kw, kh] :
         std::vector<std::array<uint32_t, 4>>{{9, 9, 8, 8}, {13, 7, 4, 10}, {30, 20, 9, 8}})
        for (FftbPadding padding : {FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR})
        {
            PlanRequest request;
            request.imageWidth = w;
            request.imageHeight = h;
            request.kernelWidth = kw;
            request.kernelHeight = kh;
            request.padding = padding;
            request.spectrum = FFTB_SPECTRUM_MODE_EXACT;
            Plan plan;
            std::string error;
            ASSERT_TRUE(makePlan(request, &plan, &error)) << error;
            const Texels frame = randomTexels(int(w), int(h), 4, w * 3 + h);
            const Texels kernel = randomTexels(int(kw), int(kh), 3, kw + kh);
            const double err = relativeError(referenceSpectralConvolution(frame, kernel, plan, 0.0, kUnused),
                                             asDouble(referenceConvolution(frame, kernel, padding)));
            EXPECT_LT(err, kFloatTolerance) << w << "x" << h << " * " << kw << "x" << kh << " " << name(padding);
        }
}

TEST(ReferenceSpectral, ResampledWithFullLengthSpectrumIsExact)
{
    const Texels frame = randomTexels(13, 7, 3, 8);
    const Texels kernel = randomTexels(6, 5, 3, 9);
    for (FftbPadding padding : {FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR})
    {
        const uint32_t nx = paddedLength(13, 6, padding, true), ny = paddedLength(7, 5, padding, false);
        const Texels exact =
            referenceSpectralConvolution(frame, kernel, handPlan(frame, kernel, padding, nx, ny), 0.3, kUnused);
        for (FftbSpectrumInterpolation interpolation :
             {FFTB_SPECTRUM_INTERPOLATION_LINEAR, FFTB_SPECTRUM_INTERPOLATION_CUBIC})
        {
            const Texels resampled = referenceSpectralConvolution(
                frame, kernel, handPlan(frame, kernel, padding, nx, ny, false, nx, ny), 0.3, interpolation);
            EXPECT_LT(relativeError(resampled, asDouble(exact)), kFloatTolerance) << name(padding);
        }
    }
}

/// The spatial factor that tent sampling of an S-point spectrum at k * S / N (N = m S) applies to the S-periodic
/// kernel: h(n) = k_S(n mod S) * T(n), T(n) = (sin(pi n / S) / (m sin(pi n / N)))^2, T(0) = 1. It follows from
/// the convolution theorem: zero-stuffing by m in frequency tiles the kernel m times; the tent of half-width m is
/// the squared box of width m, whose inverse DFT is the Fejer kernel.
double fejer(int n, int s, int nLength)
{
    if (n % nLength == 0)
        return 1.0;
    const double m = double(nLength) / s;
    const double r = std::sin(std::numbers::pi * n / s) / (m * std::sin(std::numbers::pi * n / nLength));
    return r * r;
}

/// Keys' cubic convolution kernel with a = -1/2 (Keys 1981, eq. 15), written out piecewise.
double keys(double t)
{
    t = std::abs(t);
    if (t < 1.0)
        return 1.5 * t * t * t - 2.5 * t * t + 1.0;
    if (t < 2.0)
        return -0.5 * t * t * t + 2.5 * t * t - 4.0 * t + 2.0;
    return 0.0;
}

/// The same spatial factor for any symmetric interpolator w of support (-2, 2) at N = m S:
/// W(n) = (1 / m) sum over integers r of w(r / m) cos(2 pi r n / N). Interpolating X at k / m and taking the
/// inverse DFT gives k_S(n mod S) W(n): the offsets r = k - m i separate from the bins i. With w the tent this
/// is the Fejer kernel above.
double cubicWindow(int n, int s, int nLength)
{
    const int m = nLength / s;
    double sum = 0.0;
    for (int r = -2 * m; r <= 2 * m; ++r)
        sum += keys(double(r) / m) * std::cos(2.0 * std::numbers::pi * r * n / nLength);
    return sum / m;
}

TEST(ReferenceSpectral, ResampledIsWindowedPeriodicKernel)
{
    // Independent model of resampled mode: circular convolution over the padded frame with
    // h(n) = k_S(n mod S) T1(n1) T2(n2), T the window of the interpolator. It keeps the DC gain (T(0) = 1) but
    // leaves attenuated kernel copies every S texels: the ringing of "FFT Bloom Optimized to the Bone".
    const int w = 11, h = 6, nx = 32, ny = 16, sx = 8, sy = 4;
    const Texels frame = randomTexels(w, h, 3, 14, 0.0f, 4.0f);
    const Texels kernel = randomTexels(7, 4, 3, 15);
    for (FftbSpectrumInterpolation interpolation :
         {FFTB_SPECTRUM_INTERPOLATION_LINEAR, FFTB_SPECTRUM_INTERPOLATION_CUBIC})
        for (FftbPadding padding : {FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR})
        {
            const auto window = interpolation == FFTB_SPECTRUM_INTERPOLATION_LINEAR ? fejer : cubicWindow;
            const Plan plan = handPlan(frame, kernel, padding, nx, ny, false, sx, sy);
            const AxisPlan& ax = plan.second;
            const AxisPlan& ay = plan.first;
            std::vector<double> want(std::size_t(w) * h * 3, 0.0);
            for (int c = 0; c < 3; ++c)
            {
                std::vector<double> periodic(std::size_t(sx) * sy, 0.0);
                for (int y = 0; y < kernel.height; ++y)
                    for (int x = 0; x < kernel.width; ++x)
                        periodic[std::size_t((y - kernel.height / 2 + sy) % sy) * sx +
                                 (x - kernel.width / 2 + sx) % sx] += kernel.at(x, y, c);
                for (int py = 0; py < h; ++py)
                    for (int px = 0; px < w; ++px)
                    {
                        double sum = 0.0;
                        for (int n2 = 0; n2 < ny; ++n2)
                            for (int n1 = 0; n1 < nx; ++n1)
                            {
                                // The padded frame at (p - n) mod N, built from the hand plan's split points.
                                const int fx = (px - n1 + nx) % nx, fy = (py - n2 + ny) % ny;
                                int qx = fx < w ? fx : (fx < int(ax.mirrorSplit) ? fx : fx - nx);
                                int qy = fy < h ? fy : (fy < int(ay.mirrorSplit) ? fy : fy - ny);
                                if (padding != FFTB_PADDING_MIRROR && (qx >= w || qy >= h))
                                    continue;
                                qx = mirror(qx, w);
                                qy = mirror(qy, h);
                                sum += periodic[std::size_t(n2 % sy) * sx + n1 % sx] * window(n1, sx, nx) *
                                       window(n2, sy, ny) * frame.at(qx, qy, c);
                            }
                        want[(std::size_t(py) * w + px) * 3 + c] = sum;
                    }
            }
            const Texels got = referenceSpectralConvolution(frame, kernel, plan, 0.0, interpolation);
            const char* label = interpolation == FFTB_SPECTRUM_INTERPOLATION_LINEAR ? " linear" : " cubic";
            EXPECT_LT(relativeError(got, want), kFloatTolerance) << name(padding) << label;
            // The copies are really there: resampled differs from exact by far more than rounding.
            const Plan exactPlan = handPlan(frame, kernel, padding, nx, ny);
            EXPECT_GT(
                relativeError(got, asDouble(referenceSpectralConvolution(frame, kernel, exactPlan, 0.0, kUnused))),
                1e-2)
                << name(padding) << label;
        }
}

TEST(ReferenceSpectral, ResampledKeepsDcGain)
{
    // On a canvas as large as the padded frame nothing is cropped, so the output's sum is the input's sum times
    // the spectrum at frequency 0, which tent sampling reads exactly: the kernel's sum.
    const Texels frame = randomTexels(32, 16, 3, 16);
    const Texels kernel = randomTexels(8, 8, 3, 17);
    const Plan plan = handPlan(frame, kernel, FFTB_PADDING_ZERO, 32, 16, true, 8, 8);
    for (FftbSpectrumInterpolation interpolation :
         {FFTB_SPECTRUM_INTERPOLATION_LINEAR, FFTB_SPECTRUM_INTERPOLATION_CUBIC})
    {
        const Texels out = referenceSpectralConvolution(frame, kernel, plan, 0.25, interpolation);
        for (int c = 0; c < 3; ++c)
        {
            const double want = channelSum(frame, c) * (0.75 * channelSum(kernel, c) + 0.25);
            EXPECT_NEAR(channelSum(out, c), want, 1e-6 * want) << "channel " << c;
        }
    }
}

TEST(ReferenceSpectral, FullSharpenIsIdentity)
{
    const Texels frame = randomTexels(13, 7, 4, 11, 0.0f, 10.0f);
    const Texels kernel = randomTexels(9, 6, 3, 12);
    std::vector<double> rgb;
    for (std::size_t i = 0; i < frame.values.size(); ++i)
        if (i % 4 != 3)
            rgb.push_back(frame.values[i]);
    for (FftbPadding padding : {FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR})
        for (uint32_t s : {0u, 8u})
        {
            const Plan plan = handPlan(frame, kernel, padding, 32, 16, s == 0, s, s);
            for (FftbSpectrumInterpolation interpolation :
                 {FFTB_SPECTRUM_INTERPOLATION_LINEAR, FFTB_SPECTRUM_INTERPOLATION_CUBIC})
                EXPECT_LT(relativeError(referenceSpectralConvolution(frame, kernel, plan, 1.0, interpolation), rgb),
                          kFloatTolerance)
                    << name(padding) << " S " << s;
        }
}

TEST(ReferenceSpectral, CentredOneHotIsIdentityInBothModes)
{
    const Texels frame = randomTexels(13, 7, 3, 13);
    const Texels kernel = oneHotKernel(8, 8, 4, 4);
    for (uint32_t s : {0u, 8u})
    {
        const Plan plan = handPlan(frame, kernel, FFTB_PADDING_MIRROR, 32, 16, true, s, s);
        for (FftbSpectrumInterpolation interpolation :
             {FFTB_SPECTRUM_INTERPOLATION_LINEAR, FFTB_SPECTRUM_INTERPOLATION_CUBIC})
            EXPECT_LT(
                relativeError(referenceSpectralConvolution(frame, kernel, plan, 0.0, interpolation), asDouble(frame)),
                kFloatTolerance)
                << "S " << s;
    }
}

// The prefilter (FftbBloomInfo::prefilterThreshold): p = rgb * max(q, b - T) / b, b = max(r, g, b),
// q = clamp(b - T + k, 0, 2k)^2 / (4k + 1e-5), then max(p) capped at C.
std::array<double, 3> prefiltered(std::array<double, 3> rgb, double threshold, double knee, double clamp = 0.0)
{
    std::array<double, 3> p{};
    referencePrefilter(rgb.data(), Prefilter{float(threshold), float(knee), float(clamp)}, p.data());
    return p;
}

// A kernel scale sigma reads the interpolated spectrum at sigma * k * S / N: with a centred one-hot kernel (spectrum 1
// everywhere) and sigma = 2 that is an ideal low-pass, 1 up to |sigma k S / N| = S / 2 and 0 past it, not the periodic
// spectrum's 1 everywhere. N equals the image here, so the frame's cosines are exact DFT bins.
TEST(ReferenceSpectral, ScaledSpectrumIsZeroPastTheStoredNyquist)
{
    constexpr double kPi = std::numbers::pi;
    const int w = 32, h = 16;
    Texels frame(w, h, 3);
    std::vector<double> expected(std::size_t(w) * h * 3);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
        {
            const double kept = std::cos(2 * kPi * 6 * x / w) + // x bin 6: sigma u = 2 * 6 * 8 / 32 = 3 <= 4
                                std::cos(2 * kPi * 8 * x / w) * std::cos(2 * kPi * 4 * y / h);  // exactly S / 2 on both
            const double cut = std::cos(2 * kPi * 12 * x / w) * std::cos(2 * kPi * 3 * y / h) + // x: 6 > 4
                               std::cos(2 * kPi * 16 * x / w) +                                 // x Nyquist: 8 > 4
                               std::cos(2 * kPi * 2 * x / w) * std::cos(2 * kPi * 5 * y / h);   // y: 5 > 4
            for (int c = 0; c < 3; ++c)
            {
                frame.at(x, y, c) = float(kept + cut);
                expected[(std::size_t(y) * w + x) * 3 + c] = double(frame.at(x, y, c)) - cut;
            }
        }
    Plan plan = handPlan(frame, oneHotKernel(8, 8, 4, 4), FFTB_PADDING_ZERO, w, h, true, 8, 8);
    plan.kernelScale = 2.0;
    for (FftbSpectrumInterpolation interpolation :
         {FFTB_SPECTRUM_INTERPOLATION_LINEAR, FFTB_SPECTRUM_INTERPOLATION_CUBIC})
        EXPECT_LT(relativeError(referenceSpectralConvolution(frame, oneHotKernel(8, 8, 4, 4), plan, 0.0, interpolation),
                                expected),
                  kFloatTolerance * 8);
}

// As sigma goes to 0 the kernel shrinks to a point: K(sigma f) -> K(0) = 1, the identity. A scale of exactly 1 is the
// unscaled kernel.
TEST(ReferenceSpectral, ScaleOfOneIsTheKernelAndATinyScaleIsTheIdentity)
{
    const Texels frame = randomTexels(21, 13, 3, 5);
    const Texels kernel = randomTexels(8, 6, 3, 6, 0.01f, 1.0f);
    double sums[3] = {};
    for (std::size_t i = 0; i < kernel.values.size(); ++i)
        sums[i % 3] += kernel.values[i];
    Texels unit = kernel;
    for (std::size_t i = 0; i < unit.values.size(); ++i)
        unit.values[i] = float(kernel.values[i] / sums[i % 3]);
    Plan plan = handPlan(frame, unit, FFTB_PADDING_MIRROR, 40, 24, false, 8, 8);
    const Texels unscaled = referenceSpectralConvolution(frame, unit, plan, 0.0, FFTB_SPECTRUM_INTERPOLATION_CUBIC);
    plan.kernelScale = 1.0;
    EXPECT_EQ(referenceSpectralConvolution(frame, unit, plan, 0.0, FFTB_SPECTRUM_INTERPOLATION_CUBIC).values,
              unscaled.values);
    plan.kernelScale = 1e-9;
    EXPECT_LT(relativeError(referenceSpectralConvolution(frame, unit, plan, 0.0, FFTB_SPECTRUM_INTERPOLATION_CUBIC),
                            asDouble(frame)),
              1e-6);
    plan.spectrum = FFTB_SPECTRUM_MODE_EXACT;
    EXPECT_THROW(referenceSpectralConvolution(frame, unit, plan, 0.0, kUnused), HostError);
}

TEST(ReferencePrefilter, ThresholdZeroIsTheIdentity)
{
    for (const std::array<double, 3> rgb : {std::array<double, 3>{0.3, 2.0, 1e-7},
                                            {0.0, 0.0, 0.0},
                                            {-1.0, 0.5, 7.0},
                                            {1e-9, 0.0, 0.0},
                                            {-2.0, -3.0, -1e-3}})
        EXPECT_EQ(prefiltered(rgb, 0.0, 0.0), rgb) << rgb[0] << " " << rgb[1] << " " << rgb[2];
}

TEST(ReferencePrefilter, BelowTheKneeIsBlack)
{
    // b = 0.8 < T - k = 1.0 - 0.1 (the settings are floats: 0.1f is not 0.1, so b = 0.9 would sit on the edge).
    EXPECT_EQ(prefiltered({0.8, 0.2, 0.5}, 1.0, 0.1), (std::array<double, 3>{0.0, 0.0, 0.0}));
    // Hard threshold: b = T is black too.
    EXPECT_EQ(prefiltered({1.0, 0.2, 0.5}, 1.0, 0.0), (std::array<double, 3>{0.0, 0.0, 0.0}));
}

TEST(ReferencePrefilter, AboveTheKneeSubtractsTheThresholdFromTheBrightness)
{
    const std::array<double, 3> rgb{1.0, 4.0, 2.5};
    for (double knee : {0.0, 0.5, 1.0})
    {
        const std::array<double, 3> p = prefiltered(rgb, 1.0, knee);
        for (int c = 0; c < 3; ++c)
            EXPECT_NEAR(p[c], rgb[c] * (4.0 - 1.0) / 4.0, 1e-12) << "knee " << knee << " channel " << c;
    }
}

TEST(ReferencePrefilter, TheKneeIsContinuousAtBothEnds)
{
    const double threshold = 2.0, knee = 0.5;
    const auto weightAt = [&](double b) { return prefiltered({b, 0.5 * b, 0.25 * b}, threshold, knee)[0] / b; };
    const double eps = 1e-9;
    for (double end : {threshold - knee, threshold + knee})
        EXPECT_NEAR(weightAt(end - eps), weightAt(end + eps), 1e-6) << "at b = " << end;
    // Between the ends the weight is the parabola (b - T + k)^2 / 4k, within the 1e-5 in its denominator.
    const double b = threshold;
    EXPECT_NEAR(weightAt(b) * b, knee * knee / (4.0 * knee), 1e-5);
    EXPECT_GT(weightAt(b), 0.0);
    // The soft knee never passes less light than the hard threshold, max(b - T, 0).
    for (double v = threshold - knee; v <= threshold + knee; v += 0.01)
        EXPECT_GE(weightAt(v) * v + 1e-12, std::max(v - threshold, 0.0)) << "b = " << v;
}

TEST(ReferencePrefilter, ClampCapsTheBrightnessAndKeepsTheHue)
{
    const std::array<double, 3> rgb{8.0, 2.0, 4.0};
    const std::array<double, 3> p = prefiltered(rgb, 0.0, 0.0, 2.0);
    EXPECT_DOUBLE_EQ(std::max({p[0], p[1], p[2]}), 2.0);
    for (int c = 0; c < 3; ++c)
        EXPECT_DOUBLE_EQ(p[c] / rgb[c], 0.25) << "channel " << c;
    // Below the clamp nothing changes; with a threshold the clamp applies to the thresholded value.
    EXPECT_EQ(prefiltered({1.0, 0.5, 0.25}, 0.0, 0.0, 2.0), (std::array<double, 3>{1.0, 0.5, 0.25}));
    const std::array<double, 3> q = prefiltered(rgb, 1.0, 0.0, 2.0);
    EXPECT_DOUBLE_EQ(q[0], 2.0);
    EXPECT_DOUBLE_EQ(q[1], 0.5);
}

TEST(ReferenceOutput, CompositesFollowTheirFormulas)
{
    Texels frame(2, 1, 4);
    frame.values = {3.0f, 1.0f, 0.5f, 0.7f, 0.2f, 0.1f, 0.0f, 1.0f};
    Texels bloom(2, 1, 3);
    bloom.values = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f};
    const Prefilter prefilter{1.0f, 0.0f, 0.0f};
    const Texels b = referenceOutput(frame, bloom, prefilter, FFTB_OUTPUT_MODE_BLOOM, 0.5);
    EXPECT_EQ(b.values, bloom.values);
    const Texels composite = referenceOutput(frame, bloom, prefilter, FFTB_OUTPUT_MODE_COMPOSITE, 0.5);
    // Texel 0: b = 3, p = rgb * 2 / 3; texel 1 is below the threshold, p = 0.
    EXPECT_NEAR(composite.at(0, 0, 0), 3.0 + 0.5 * (1.0 - 2.0), 1e-6);
    EXPECT_NEAR(composite.at(0, 0, 1), 1.0 + 0.5 * (2.0 - 2.0 / 3.0), 1e-6);
    EXPECT_NEAR(composite.at(1, 0, 0), 0.2 + 0.5 * 4.0, 1e-6);
    const Texels additive = referenceOutput(frame, bloom, prefilter, FFTB_OUTPUT_MODE_ADDITIVE, 0.5);
    EXPECT_NEAR(additive.at(0, 0, 2), 0.5 + 0.5 * 3.0, 1e-6);
    EXPECT_NEAR(additive.at(1, 0, 2), 0.0 + 0.5 * 6.0, 1e-6);
}

// A flat frame's zero-padded bloom divided by the indicator's is the frame again, to its corners, for any kernel;
// weights under 1/16 divide by 1/16.
TEST(ReferenceNormalized, KeepsAFlatFrameFlatAndFloorsTheWeights)
{
    Texels flat(9, 7, 3);
    std::fill(flat.values.begin(), flat.values.end(), 0.25f);
    Texels ones(9, 7, 3);
    std::fill(ones.values.begin(), ones.values.end(), 1.0f);
    const Texels kernel = randomTexels(5, 4, 3, 9, 0.0f, 1.0f);
    const Texels bloom = referenceConvolution(flat, kernel, FFTB_PADDING_ZERO);
    const Texels weights = referenceConvolution(ones, kernel, FFTB_PADDING_ZERO);
    EXPECT_LT(weights.at(0, 0, 0), 0.9f * weights.at(4, 3, 0)) << "the corner's weight is below the centre's";
    const Texels normalized = referenceNormalized(bloom, weights);
    for (float v : normalized.values)
        ASSERT_NEAR(v, 0.25f, 1e-6f);
    Texels small(1, 1, 3);
    small.values = {0.01f, 0.5f, 2.0f};
    Texels value(1, 1, 3);
    value.values = {1.0f, 1.0f, 1.0f};
    const Texels floored = referenceNormalized(value, small);
    EXPECT_FLOAT_EQ(floored.at(0, 0, 0), 16.0f);
    EXPECT_FLOAT_EQ(floored.at(0, 0, 1), 2.0f);
    EXPECT_FLOAT_EQ(floored.at(0, 0, 2), 0.5f);
    EXPECT_THROW(referenceNormalized(value, weights), HostError);
}

} // namespace
} // namespace fftb
