// Point spread functions: the generated default glare PSF, loading, resampling and per-channel normalization.
#include "psf.h"

#include "host_error.h"
#include "image_io.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

namespace fftb
{
namespace
{

// Wavelengths of the R, G, B primaries over the reference (green) wavelength. Diffraction angles scale linearly
// with wavelength (Airy radius 1.22 lambda / D; Goodman, Introduction to Fourier Optics, ch. 4), so every
// length of the PSF is multiplied by this ratio.
constexpr std::array<double, 3> kWavelengthRatio = {600.0 / 550.0, 1.0, 450.0 / 550.0};

// Energy fractions of the three parts, each normalized on the grid first so the fractions are exact.
constexpr double kCoreEnergy = 0.90;
constexpr double kHaloEnergy = 0.07;
constexpr double kStreakEnergy = 0.03;

constexpr double kCoreSigmaTexels = 0.6;           // green core standard deviation
constexpr double kHaloRadiusPerSize = 1.0 / 64.0;  // halo scale radius r0 as a fraction of the PSF size
constexpr double kStreakWidthTexels = 0.5;         // green streak cross-section standard deviation
constexpr double kStreakOnsetTexels = 1.0;         // streak falloff 1 / (1 + r / r1) starts at r1
constexpr double kStreakLengthPerSize = 1.0 / 5.0; // Gaussian length envelope, as a fraction of the PSF size
constexpr int kStreakLines = 3;                    // six rays: three lines through the centre, 60 degrees apart

// Texels are integrated over their area with 3 x 3 samples placed symmetrically about the texel centre, so the
// thin core and streaks do not alias and the PSF stays exactly symmetric under a 180 degree rotation.
constexpr std::array<double, 3> kSubsample = {-1.0 / 3.0, 0.0, 1.0 / 3.0};

struct Parts
{
    double core = 0.0;
    double halo = 0.0;
    double streaks = 0.0;
};

/// exp(-x) for x >= 0, flushed to 0 where it is below 1e-26 of the peak: skips most of the work far from the core
/// and the streaks, and depends only on x, so the symmetry is kept.
double decay(double x)
{
    return x > 60.0 ? 0.0 : std::exp(-x);
}

/// The three parts at one channel's scale (wavelength ratio), with the per-size constants computed once.
class PartsAt
{
  public:
    PartsAt(double scale, double size)
        : coreInvTwoSigma2_(1.0 / (2.0 * sq(kCoreSigmaTexels * scale))),
          haloInvR02_(1.0 / sq(std::max(size * kHaloRadiusPerSize, 1.0) * scale)),
          streakInvTwoWidth2_(1.0 / (2.0 * sq(kStreakWidthTexels * scale))),
          streakInvOnset_(1.0 / (kStreakOnsetTexels * scale)),
          streakInvLength2_(1.0 / sq(std::max(size * kStreakLengthPerSize, 1.0) * scale))
    {
        for (int m = 0; m < kStreakLines; ++m)
        {
            const double theta = m * std::numbers::pi / kStreakLines;
            sin_[m] = std::sin(theta);
            cos_[m] = std::cos(theta);
        }
    }

    Parts operator()(double dx, double dy) const
    {
        const double r2 = dx * dx + dy * dy;
        Parts p;
        p.core = decay(r2 * coreInvTwoSigma2_);
        // A Moffat profile with beta = 1.5, (1 + r^2 / r0^2)^-1.5: finite energy and a long power-law tail, the
        // shape of scattered light around a bright source.
        const double h = 1.0 + r2 * haloInvR02_;
        p.halo = 1.0 / (h * std::sqrt(h));
        // Streaks: the Fraunhofer pattern of a hexagonal (6-blade) aperture has spikes perpendicular to its edges
        // (Goodman, ch. 4). They fall as 1 / r here, slower than a single edge's 1 / r^2, so they stay visible.
        double across = 0.0;
        for (int m = 0; m < kStreakLines; ++m)
            across += decay(sq(dx * sin_[m] - dy * cos_[m]) * streakInvTwoWidth2_);
        if (across > 0.0)
            p.streaks = across * decay(r2 * streakInvLength2_) / (1.0 + std::sqrt(r2) * streakInvOnset_);
        return p;
    }

  private:
    static double sq(double v) { return v * v; }

    double coreInvTwoSigma2_;
    double haloInvR02_;
    double streakInvTwoWidth2_;
    double streakInvOnset_;
    double streakInvLength2_;
    std::array<double, kStreakLines> sin_{};
    std::array<double, kStreakLines> cos_{};
};

std::string channelName(int c)
{
    static const char* const names[] = {"R", "G", "B", "A"};
    return c < 4 ? names[c] : std::to_string(c);
}

std::string format(double v)
{
    std::ostringstream s;
    s << v;
    return s.str();
}

struct Tap
{
    int index;
    double weight;
};

/// Per output texel, the input texels and weights along one axis. Output texel o is centred on input position
/// u = (o - out / 2) * f + in / 2 (f = in / out), which maps centre texel to centre texel. Weights are scaled so
/// the sum over the axis is kept: a box of width f integrates the input when shrinking; bilinear interpolation is
/// multiplied by f when enlarging.
std::vector<std::vector<Tap>> axisTaps(int in, int out)
{
    const double f = double(in) / out;
    std::vector<std::vector<Tap>> taps(out);
    for (int o = 0; o < out; ++o)
    {
        const double u = double(o - out / 2) * f + in / 2;
        if (f > 1.0)
        {
            // Input texel i covers [i - 1/2, i + 1/2); the footprints of neighbouring outputs tile the axis.
            const double lo = u - f / 2.0, hi = u + f / 2.0;
            for (int i = int(std::floor(lo + 0.5)); i <= int(std::ceil(hi - 0.5)); ++i)
            {
                const double overlap = std::min(i + 0.5, hi) - std::max(i - 0.5, lo);
                if (overlap > 0.0 && i >= 0 && i < in)
                    taps[o].push_back({i, overlap});
            }
        }
        else
        {
            const double clamped = std::clamp(u, 0.0, double(in - 1));
            const int i0 = int(std::floor(clamped));
            const int i1 = std::min(i0 + 1, in - 1);
            const double t = clamped - i0;
            taps[o].push_back({i0, (1.0 - t) * f});
            if (t > 0.0)
                taps[o].push_back({i1, t * f});
        }
    }
    return taps;
}

} // namespace

Texels generateDefaultPsf(int size)
{
    if (size < 2)
        throw HostError("kernel: size " + std::to_string(size) + " is below 2");
    const int centre = size / 2;
    const std::size_t count = std::size_t(size) * size;
    Texels psf(size, size, 3);
    for (int c = 0; c < 3; ++c)
    {
        const PartsAt evaluate(kWavelengthRatio[c], size);
        std::vector<Parts> parts(count);
        Parts total;
        for (int y = 0; y < size; ++y)
            for (int x = 0; x < size; ++x)
            {
                Parts sum;
                for (double oy : kSubsample)
                    for (double ox : kSubsample)
                    {
                        const Parts p = evaluate(x - centre + ox, y - centre + oy);
                        sum.core += p.core;
                        sum.halo += p.halo;
                        sum.streaks += p.streaks;
                    }
                parts[std::size_t(y) * size + x] = sum;
                total.core += sum.core;
                total.halo += sum.halo;
                total.streaks += sum.streaks;
            }
        for (int y = 0; y < size; ++y)
            for (int x = 0; x < size; ++x)
            {
                const Parts& p = parts[std::size_t(y) * size + x];
                psf.at(x, y, c) = float(kCoreEnergy * p.core / total.core + kHaloEnergy * p.halo / total.halo +
                                        kStreakEnergy * p.streaks / total.streaks);
            }
    }
    return psf;
}

Texels loadPsf(const std::string& path)
{
    const Texels rgba = toRgba(readImage(path));
    if (rgba.width <= 0 || rgba.height <= 0)
        throw HostError(path + ": empty image");
    Texels psf(rgba.width, rgba.height, 3);
    for (int y = 0; y < rgba.height; ++y)
        for (int x = 0; x < rgba.width; ++x)
            for (int c = 0; c < 3; ++c)
                psf.at(x, y, c) = rgba.at(x, y, c);
    return psf;
}

Texels resamplePsf(const Texels& psf, int size)
{
    if (size < 1)
        throw HostError("kernel: size " + std::to_string(size) + " is below 1");
    if (psf.width <= 0 || psf.height <= 0 || psf.components <= 0)
        throw HostError("kernel: empty point spread function");
    const int components = psf.components;
    const auto tapsX = axisTaps(psf.width, size);
    const auto tapsY = axisTaps(psf.height, size);

    // Separable: along x into size x height, then along y.
    std::vector<double> rows(std::size_t(size) * psf.height * components, 0.0);
    for (int y = 0; y < psf.height; ++y)
        for (int o = 0; o < size; ++o)
            for (const Tap& t : tapsX[o])
                for (int c = 0; c < components; ++c)
                    rows[(std::size_t(y) * size + o) * components + c] += t.weight * psf.at(t.index, y, c);
    Texels out(size, size, components);
    for (int o = 0; o < size; ++o)
        for (int x = 0; x < size; ++x)
            for (int c = 0; c < components; ++c)
            {
                double v = 0.0;
                for (const Tap& t : tapsY[o])
                    v += t.weight * rows[(std::size_t(t.index) * size + x) * components + c];
                out.at(x, o, c) = float(v);
            }
    return out;
}

void normalizePsf(Texels& psf)
{
    const int components = psf.components;
    if (components <= 0)
        throw HostError("kernel: no channels");
    std::vector<double> sums(components, 0.0);
    for (int y = 0; y < psf.height; ++y)
        for (int x = 0; x < psf.width; ++x)
            for (int c = 0; c < components; ++c)
            {
                const float v = psf.at(x, y, c);
                if (!std::isfinite(v) || v < 0.0f)
                    throw HostError("kernel: texel (" + std::to_string(x) + ", " + std::to_string(y) + ") channel " +
                                    channelName(c) + " is " + format(v) + ", not a finite non-negative value");
                sums[c] += v;
            }
    for (int c = 0; c < components; ++c)
        if (!std::isfinite(sums[c]) || !(sums[c] > 0.0))
            throw HostError("kernel: channel " + channelName(c) + " sums to " + format(sums[c]));
    for (int y = 0; y < psf.height; ++y)
        for (int x = 0; x < psf.width; ++x)
            for (int c = 0; c < components; ++c)
                psf.at(x, y, c) = float(psf.at(x, y, c) / sums[c]);
}

} // namespace fftb
