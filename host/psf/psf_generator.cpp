// SPDX-License-Identifier: MIT
// Physically based PSFs: the aperture on a grid, |FFT|^2 with FFTW, per-wavelength resampling, CIE 1931 to Rec.709.
#include "psf/psf_generator.h"

#include "psf/psf.h"

#include "host_error.h"

#include <fftw3.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <numbers>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace fftb
{
namespace
{

// ---------------------------------------------------------------------------------------------------------------------
// Parameters: ranges, messages, header attributes.

/// One parameter as the tool and the EXR header name it, and its value as text.
struct Field
{
    const char* flag;
    std::string value;
};

std::vector<Field> fieldsOf(const PsfParams& p)
{
    const ApertureParams& a = p.aperture;
    return {
        {"size", std::to_string(p.sizeTexels)},
        {"airy-radius", psfValueText(p.airyRadiusTexels)},
        {"wavelengths", std::to_string(p.wavelengths)},
        {"monochromatic", psfValueText(p.monochromaticNm)},
        {"blades", std::to_string(a.blades)},
        {"blade-rotation", psfValueText(a.bladeRotationDeg)},
        {"blade-curvature", psfValueText(a.bladeCurvature)},
        {"obstruction", psfValueText(a.obstruction)},
        {"vanes", std::to_string(a.vanes)},
        {"vane-width", psfValueText(a.vaneWidth)},
        {"vane-angle", psfValueText(a.vaneAngleDeg)},
        {"dust", std::to_string(a.dust)},
        {"scratches", std::to_string(a.scratches)},
        {"corona", psfValueText(a.corona)},
        {"halo-radius", psfValueText(a.haloRadius)},
        {"seed", std::to_string(a.seed)},
        {"fade", psfValueText(p.fade)},
        {"glare", psfValueText(p.glare)},
    };
}

// ---------------------------------------------------------------------------------------------------------------------
// The aperture. Coordinates are in units of the aperture's radius (its circumscribed circle is the unit circle), y up.
// Each part gives a signed distance to its edge; a sample's coverage is clamp(0.5 + distance in samples), the area
// of a straight edge inside a one-sample box across it: the edges are antialiased, so the pattern's far field is not
// the staircase's.

double coverage(double signedDistanceSamples)
{
    return std::clamp(0.5 + signedDistanceSamples, 0.0, 1.0);
}

/// The iris, the obstruction and the vanes: everything but the occluders, evaluated per sample.
class Stop
{
  public:
    explicit Stop(const ApertureParams& a) : blades_(a.blades), obstruction_(a.obstruction), vaneHalfWidth_(a.vaneWidth)
    {
        const double rotation = a.bladeRotationDeg * std::numbers::pi / 180.0;
        if (blades_ > 0)
        {
            // Edge k joins tips k and k + 1 (tip 0 at 90 degrees); h is its distance from the centre, a its half
            // length.
            h_ = std::cos(std::numbers::pi / blades_);
            a_ = std::sin(std::numbers::pi / blades_);
            // An edge of curvature c is an arc of radius 1 / c through both tips. The inside test
            // |p - centre|^2 <= (1 / c)^2, divided by the distance from the centre to the arc's centre, reads
            // h - q - k (|p - h n|^2 - a^2) / 2 >= 0 (q = p.n, k = c / sqrt(1 - c^2 a^2)): the half-plane q <= h at
            // c = 0, the unit circle at c = 1, with no division by c.
            const double c = a.bladeCurvature;
            k_ = c / std::sqrt(1.0 - c * c * a_ * a_);
            for (int e = 0; e < blades_; ++e)
            {
                const double angle = std::numbers::pi / 2.0 + rotation + 2.0 * std::numbers::pi * (e + 0.5) / blades_;
                normals_.push_back({std::cos(angle), std::sin(angle)});
            }
        }
        const double vaneAngle = a.vaneAngleDeg * std::numbers::pi / 180.0;
        for (int v = 0; v < a.vanes; ++v)
        {
            const double angle = vaneAngle + 2.0 * std::numbers::pi * v / a.vanes;
            vanes_.push_back({std::cos(angle), std::sin(angle)});
        }
    }

    /// Transmission at (x, y); samplesPerUnit converts distances to samples.
    double operator()(double x, double y, double samplesPerUnit) const
    {
        const double r = std::sqrt(x * x + y * y);
        double t = coverage(irisDistance(x, y, r) * samplesPerUnit);
        if (t <= 0.0)
            return 0.0;
        if (obstruction_ > 0.0)
            t *= coverage((r - obstruction_) * samplesPerUnit);
        for (const auto& d : vanes_)
        {
            const double along = x * d[0] + y * d[1];
            const double across = std::abs(x * d[1] - y * d[0]);
            t *= coverage(((along >= 0.0 ? across : r) - vaneHalfWidth_) * samplesPerUnit);
        }
        return t;
    }

  private:
    double irisDistance(double x, double y, double r) const
    {
        if (blades_ == 0)
            return 1.0 - r;
        // The nearest edge decides; its value over its gradient's length is the distance to first order.
        double nearest = std::numeric_limits<double>::infinity();
        std::size_t which = 0;
        const double r2 = x * x + y * y;
        for (std::size_t e = 0; e < normals_.size(); ++e)
        {
            const double q = x * normals_[e][0] + y * normals_[e][1];
            const double f = h_ - q - 0.5 * k_ * (r2 - 2.0 * h_ * q + h_ * h_ - a_ * a_);
            if (f < nearest)
            {
                nearest = f;
                which = e;
            }
        }
        const double gx = (1.0 - k_ * h_) * normals_[which][0] + k_ * x;
        const double gy = (1.0 - k_ * h_) * normals_[which][1] + k_ * y;
        return nearest / std::sqrt(gx * gx + gy * gy);
    }

    int blades_;
    double obstruction_;
    double vaneHalfWidth_;
    double h_ = 0.0, a_ = 0.0, k_ = 0.0;
    std::vector<std::array<double, 2>> normals_;
    std::vector<std::array<double, 2>> vanes_;
};

/// Samples from the centre to beyond the aperture's last non-zero sample, for a radius of `radius` samples.
int apertureReach(double radius)
{
    return int(std::ceil(radius)) + 2;
}

/// The aperture on a grid: `size` x `size` samples at `values[j * stride + i]`, its centre at sample (size / 2,
/// size / 2) and its radius `radius` samples; the grid is zero outside the aperture.
class ApertureGrid
{
  public:
    ApertureGrid(double* values, std::size_t stride, int size, double radius)
        : values_(values), stride_(stride), size_(size), centre_(size / 2), radius_(radius)
    {
    }

    void drawStop(const Stop& stop)
    {
        const int reach = apertureReach(radius_);
        const double limit2 = (1.0 + 2.0 / radius_) * (1.0 + 2.0 / radius_);
        for (int j = std::max(centre_ - reach, 0); j <= std::min(centre_ + reach, size_ - 1); ++j)
        {
            const double y = (centre_ - j) / radius_;
            for (int i = std::max(centre_ - reach, 0); i <= std::min(centre_ + reach, size_ - 1); ++i)
            {
                const double x = (i - centre_) / radius_;
                at(i, j) = x * x + y * y > limit2 ? 0.0 : stop(x, y, radius_);
            }
        }
    }

    void occlude(const Occluder& o)
    {
        if (o.segment)
            occludeSegment(o);
        else
            occludeDisc(o);
    }

  private:
    void occludeDisc(const Occluder& d)
    {
        const double reach = d.width * radius_ + 1.0;
        const double ci = centre_ + d.ax * radius_, cj = centre_ - d.ay * radius_;
        for (int j = rowFrom(cj - reach); j <= rowTo(cj + reach); ++j)
            for (int i = rowFrom(ci - reach); i <= rowTo(ci + reach); ++i)
            {
                const double dist = std::hypot((i - centre_) / radius_ - d.ax, (centre_ - j) / radius_ - d.ay);
                at(i, j) *= 1.0 - d.opacity * coverage((d.width - dist) * radius_);
            }
    }

    void occludeSegment(const Occluder& s)
    {
        const double length = std::hypot(s.bx - s.ax, s.by - s.ay);
        const double ux = (s.bx - s.ax) / length, uy = (s.by - s.ay) / length;
        const double reach = s.width + 1.5 / radius_; // in units
        const double yLo = std::min(s.ay, s.by) - reach, yHi = std::max(s.ay, s.by) + reach;
        const double xLo = std::min(s.ax, s.bx) - reach, xHi = std::max(s.ax, s.bx) + reach;
        for (int j = rowFrom(centre_ - yHi * radius_); j <= rowTo(centre_ - yLo * radius_); ++j)
        {
            const double y = (centre_ - j) / radius_;
            double lo = xLo, hi = xHi;
            // Along a row, only samples within `reach` of the line can be covered: an interval unless the line is
            // nearly horizontal (then the box is only a few rows high).
            if (std::abs(uy) > 0.1)
            {
                const double x0 = s.ax + (y - s.ay) * ux / uy, half = reach / std::abs(uy);
                lo = std::max(lo, x0 - half);
                hi = std::min(hi, x0 + half);
            }
            for (int i = rowFrom(centre_ + lo * radius_); i <= rowTo(centre_ + hi * radius_); ++i)
            {
                const double px = (i - centre_) / radius_ - s.ax, py = y - s.ay;
                const double along = std::clamp(px * ux + py * uy, 0.0, length);
                const double dist = std::hypot(px - along * ux, py - along * uy);
                at(i, j) *= 1.0 - s.opacity * coverage((s.width - dist) * radius_);
            }
        }
    }

    double& at(int i, int j) { return values_[std::size_t(j) * stride_ + std::size_t(i)]; }
    int rowFrom(double v) const { return std::max(int(std::floor(v)), 0); }
    int rowTo(double v) const { return std::min(int(std::ceil(v)), size_ - 1); }

    double* values_;
    std::size_t stride_;
    int size_;
    int centre_;
    double radius_;
};

/// Draws the whole aperture of `p` on the grid (zeroed by the caller): the stop, then its occluders.
void drawAperture(const PsfParams& p, const PsfSampling& s, double* values, std::size_t stride)
{
    ApertureGrid grid(values, stride, s.fftSize, s.apertureDiameterSamples / 2.0);
    grid.drawStop(Stop(p.aperture));
    for (const Occluder& occluder : occludersOf(p, s))
        grid.occlude(occluder);
}

// ---------------------------------------------------------------------------------------------------------------------
// Diffraction and resampling.

struct FftwFree
{
    void operator()(double* p) const { fftw_free(p); }
};

/// |F(aperture)|^2 on the N x N grid of frequency bins, the zero frequency at (N / 2, N / 2), summing to 1.
std::vector<float> diffractionPattern(const PsfParams& p, const PsfSampling& s)
{
    const int n = s.fftSize;
    const std::size_t stride = 2 * (std::size_t(n) / 2 + 1); // in-place real-to-complex rows
    std::unique_ptr<double[], FftwFree> grid(fftw_alloc_real(std::size_t(n) * stride));
    if (!grid)
        throw std::bad_alloc();
    // The 2D transform as its two passes, rows then columns, so that the rows outside the aperture, all zero, are
    // skipped: a quarter of the time with the default padding, the same numbers.
    const int half = n / 2, reach = apertureReach(s.apertureDiameterSamples / 2.0);
    const int firstRow = std::max(half - reach, 0), rows = std::min(half + reach, n - 1) - firstRow + 1;
    double* aperture = grid.get() + std::size_t(firstRow) * stride;
    auto* spectrum = reinterpret_cast<fftw_complex*>(grid.get());
    const int columns = half + 1;
    // FFTW's planner (making and destroying plans) is not thread-safe, fftw_execute is: PSFs may be generated on
    // several threads at once (a Bloomer made on each of several Python threads).
    static std::mutex planner;
    std::unique_lock plannerLock(planner);
    const std::array<fftw_plan, 2> plans = {fftw_plan_many_dft_r2c(1, &n, rows, aperture, nullptr, 1, int(stride),
                                                                   reinterpret_cast<fftw_complex*>(aperture), nullptr,
                                                                   1, columns, FFTW_ESTIMATE),
                                            fftw_plan_many_dft(1, &n, columns, spectrum, nullptr, columns, 1, spectrum,
                                                               nullptr, columns, 1, FFTW_FORWARD, FFTW_ESTIMATE)};
    const auto destroy = [&plans]
    {
        for (const fftw_plan plan : plans)
            if (plan)
                fftw_destroy_plan(plan);
    };
    if (!plans[0] || !plans[1])
    {
        destroy();
        throw HostError("psf: FFTW could not plan a " + std::to_string(n) + "^2 transform");
    }
    plannerLock.unlock();
    std::fill(grid.get(), grid.get() + std::size_t(n) * stride, 0.0);
    drawAperture(p, s, grid.get(), stride);
    for (const fftw_plan plan : plans)
        fftw_execute(plan);
    plannerLock.lock();
    destroy();

    // The aperture is real, so |F(-k)| = |F(k)|: each row of the half spectrum gives its row and, reversed, the
    // mirrored row. Column kx goes to half + kx (kx = half wraps to 0), its mirror to half - kx.
    std::vector<float> pattern(std::size_t(n) * n);
    const auto power = [](const fftw_complex& c) { return float(c[0] * c[0] + c[1] * c[1]); };
    for (int ky = 0; ky < n; ++ky)
    {
        const fftw_complex* in = spectrum + std::size_t(ky) * (stride / 2);
        float* row = pattern.data() + std::size_t((ky + half) % n) * n;
        float* mirror = pattern.data() + std::size_t((n - ky + half) % n) * n;
        for (int kx = 0; kx < half; ++kx)
            row[half + kx] = power(in[kx]);
        row[0] = power(in[half]);
        for (int kx = 1; kx <= half; ++kx)
            mirror[half - kx] = power(in[kx]);
        mirror[half] = power(in[0]);
    }
    double total = 0.0;
    for (const float v : pattern)
        total += v;
    const float scale = float(1.0 / total);
    for (float& v : pattern)
        v *= scale;
    return pattern;
}

/// Integral of the unit tent max(0, 1 - |t|) from -infinity to t.
double tentIntegral(double t)
{
    if (t <= -1.0)
        return 0.0;
    if (t <= 0.0)
        return 0.5 * (t + 1.0) * (t + 1.0);
    if (t < 1.0)
        return 1.0 - 0.5 * (1.0 - t) * (1.0 - t);
    return 1.0;
}

/// For each output texel along an axis, the run of bins it integrates and their weights; every run has the same
/// length (the longest, padded with zero weights) so the inner loops have a fixed trip count.
struct AxisTaps
{
    int count = 0;               // bins per run
    std::vector<int> first;      // first bin of texel x's run
    std::vector<double> weights; // count per texel
};

/// Texel x covers bins [(x - K/2 - 1/2) s, (x - K/2 + 1/2) s] around bin N/2 (s bins per texel): the weights are the
/// integrals of the linear interpolation between bin centres over that footprint. They sum to s per texel and tile
/// the axis, so the texels together keep the pattern's energy.
AxisTaps axisTaps(int k, int n, double binsPerTexel)
{
    const auto footprint = [&](int x) { return (x - k / 2 - 0.5) * binsPerTexel; };
    AxisTaps taps;
    // Bin j's tent spans [j - 1, j + 1]: bins floor(lo) .. ceil(hi) are the ones that overlap the footprint.
    for (int x = 0; x < k; ++x)
    {
        const double lo = footprint(x);
        taps.count = std::max(taps.count, int(std::ceil(lo + binsPerTexel)) - int(std::floor(lo)) + 1);
    }
    taps.weights.assign(std::size_t(k) * std::size_t(taps.count), 0.0);
    for (int x = 0; x < k; ++x)
    {
        const double lo = footprint(x), hi = lo + binsPerTexel;
        // The sampling keeps every footprint two bins inside the grid; the clamp only guards the padding.
        const int j0 = std::clamp(int(std::floor(lo)) + n / 2, 0, n - taps.count);
        taps.first.push_back(j0);
        for (int t = 0; t < taps.count; ++t)
        {
            const double j = j0 + t - n / 2;
            taps.weights[std::size_t(x) * std::size_t(taps.count) + std::size_t(t)] =
                tentIntegral(hi - j) - tentIntegral(lo - j);
        }
    }
    return taps;
}

/// One row of bins resampled along x: out[x] = sum_t weight[x][t] bins[first[x] + t], with a fixed run length.
template <int Count> void resampleRow(const float* bins, const AxisTaps& taps, double* out, int k)
{
    for (int x = 0; x < k; ++x)
    {
        const float* in = bins + taps.first[std::size_t(x)];
        const double* weight = taps.weights.data() + std::size_t(x) * Count;
        double v = 0.0;
        for (int t = 0; t < Count; ++t)
            v += weight[t] * in[t];
        out[x] = v;
    }
}

void resampleRow(const float* bins, const AxisTaps& taps, double* out, int k)
{
    switch (taps.count)
    {
    case 2:
        return resampleRow<2>(bins, taps, out, k);
    case 3:
        return resampleRow<3>(bins, taps, out, k);
    case 4:
        return resampleRow<4>(bins, taps, out, k);
    case 5:
        return resampleRow<5>(bins, taps, out, k);
    case 6:
        return resampleRow<6>(bins, taps, out, k);
    default:
        break;
    }
    for (int x = 0; x < k; ++x)
    {
        const float* in = bins + taps.first[std::size_t(x)];
        const double* weight = taps.weights.data() + std::size_t(x) * std::size_t(taps.count);
        double v = 0.0;
        for (int t = 0; t < taps.count; ++t)
            v += weight[t] * in[t];
        out[x] = v;
    }
}

/// The texels that are computed, RGB interleaved: the pattern is symmetric about its centre, so texel (x, y) of rows
/// 1..K/2-1 equals texel (K - x, K - y), except in column 0, whose partner would be column K.
class HalfKernel
{
  public:
    explicit HalfKernel(int k)
        : k_(k), lower_(std::size_t(k / 2) * std::size_t(k) * 3, 0.0), top_(std::size_t(k) * 3, 0.0),
          left_(std::size_t(k / 2) * 3, 0.0)
    {
    }

    /// Rows 0 and K/2..K-1, K RGB texels each.
    double* row(int y) { return const_cast<double*>(std::as_const(*this).row(y)); }
    const double* row(int y) const
    {
        return y == 0 ? top_.data() : lower_.data() + std::size_t(y - k_ / 2) * std::size_t(k_) * 3;
    }
    /// Column 0 of rows 1..K/2-1.
    double* left(int y) { return left_.data() + std::size_t(y) * 3; }
    const double* left(int y) const { return left_.data() + std::size_t(y) * 3; }

  private:
    int k_;
    std::vector<double> lower_;
    std::vector<double> top_;
    std::vector<double> left_;
};

/// One wavelength's resampling: its weights and the bins each output texel integrates.
struct Resampling
{
    std::array<double, 3> rgbWeight;
    AxisTaps taps;
};

/// Adds every wavelength's resampled pattern, times its RGB weights, to output rows y0..y1-1 of `sums` (rows 0 and
/// K/2..K-1), separably: along x for the bin rows the band needs, then along y. The band's rows stay in cache while
/// the wavelengths are summed into them in a fixed order.
void accumulateBand(const std::vector<float>& pattern, int n, int k, const std::vector<Resampling>& wavelengths, int y0,
                    int y1, HalfKernel& sums)
{
    std::vector<double> rows; // the band's bin rows, resampled along x
    std::vector<double> line(std::size_t(k), 0.0);
    for (const Resampling& w : wavelengths)
    {
        const AxisTaps& taps = w.taps;
        const std::size_t count = std::size_t(taps.count);
        const int lo = taps.first[std::size_t(y0)], hi = taps.first[std::size_t(y1 - 1)] + taps.count - 1;
        rows.resize(std::size_t(hi - lo + 1) * std::size_t(k));
        for (int j = lo; j <= hi; ++j)
            resampleRow(pattern.data() + std::size_t(j) * std::size_t(n), taps,
                        rows.data() + std::size_t(j - lo) * std::size_t(k), k);
        for (int y = y0; y < y1; ++y)
        {
            std::fill(line.begin(), line.end(), 0.0);
            for (std::size_t t = 0; t < count; ++t)
            {
                const double weight = taps.weights[std::size_t(y) * count + t];
                const double* in = rows.data() + (std::size_t(taps.first[std::size_t(y)] - lo) + t) * std::size_t(k);
                for (int x = 0; x < k; ++x)
                    line[std::size_t(x)] += weight * in[x];
            }
            double* out = sums.row(y);
            const double g0 = w.rgbWeight[0], g1 = w.rgbWeight[1], g2 = w.rgbWeight[2];
            for (int x = 0; x < k; ++x)
            {
                const double v = line[std::size_t(x)];
                out[3 * x] += g0 * v;
                out[3 * x + 1] += g1 * v;
                out[3 * x + 2] += g2 * v;
            }
        }
    }
}

/// Adds every wavelength's texels (0, y), y = 1..K/2-1, to `sums`: the column without a mirrored partner.
void accumulateLeftColumn(const std::vector<float>& pattern, int n, int k, const std::vector<Resampling>& wavelengths,
                          HalfKernel& sums)
{
    for (const Resampling& w : wavelengths)
    {
        const AxisTaps& taps = w.taps;
        const std::size_t count = std::size_t(taps.count);
        for (int y = 1; y < k / 2; ++y)
        {
            double v = 0.0;
            for (std::size_t ty = 0; ty < count; ++ty)
            {
                const float* in = pattern.data() + (std::size_t(taps.first[std::size_t(y)]) + ty) * std::size_t(n) +
                                  std::size_t(taps.first[0]);
                double across = 0.0;
                for (std::size_t tx = 0; tx < count; ++tx)
                    across += taps.weights[tx] * in[tx];
                v += taps.weights[std::size_t(y) * count + ty] * across;
            }
            double* out = sums.left(y);
            for (int c = 0; c < 3; ++c)
                out[c] += w.rgbWeight[std::size_t(c)] * v;
        }
    }
}

/// Runs work(0) .. work(jobs - 1), on two threads where the machine has two cores.
void runJobs(int jobs, const std::function<void(int)>& work)
{
    if (std::thread::hardware_concurrency() < 2 || jobs < 2)
    {
        for (int i = 0; i < jobs; ++i)
            work(i);
        return;
    }
    std::exception_ptr failure;
    std::thread helper(
        [&]
        {
            try
            {
                for (int i = 1; i < jobs; i += 2)
                    work(i);
            }
            catch (...)
            {
                failure = std::current_exception();
            }
        });
    try
    {
        for (int i = 0; i < jobs; i += 2)
            work(i);
    }
    catch (...)
    {
        helper.join();
        throw;
    }
    helper.join();
    if (failure)
        std::rethrow_exception(failure);
}

/// The PSF of psf_model.h's PsfParams::fade and glare from the K x K diffraction pattern `diffraction` (RGB
/// interleaved, >= 0): fade (1 - glare) D / sum(fade D) + glare G / sum(G) per channel, fade psfFade and G glareScatter
/// at the texel's distance from the centre texel (K / 2, K / 2) tapered over the outer half of the radius (psfFade of
/// kGlareTaperFade).
Texels withEnvelope(const std::vector<double>& diffraction, int k, const PsfParams& params)
{
    const int reach = (k - 1) / 2;
    const double degrees = glareDegreesPerTexel(params.airyRadiusTexels);
    std::vector<double> fade(std::size_t(k) * std::size_t(k)), glare(fade.size());
    std::array<double, 3> diffractionSum{};
    double glareSum = 0.0;
    for (int y = 0; y < k; ++y)
        for (int x = 0; x < k; ++x)
        {
            const std::size_t i = std::size_t(y) * std::size_t(k) + std::size_t(x);
            const double dx = x - k / 2, dy = y - k / 2;
            const double rho = psfRadius(dx, dy, reach, reach);
            fade[i] = psfFade(rho, params.fade);
            glare[i] = psfFade(rho, kGlareTaperFade) * glareScatter(std::hypot(dx, dy) * degrees);
            glareSum += glare[i];
            for (std::size_t c = 0; c < 3; ++c)
                diffractionSum[c] += fade[i] * diffraction[3 * i + c];
        }
    Texels psf(k, k, 3);
    for (int y = 0; y < k; ++y)
        for (int x = 0; x < k; ++x)
        {
            const std::size_t i = std::size_t(y) * std::size_t(k) + std::size_t(x);
            for (std::size_t c = 0; c < 3; ++c)
            {
                const double d = diffractionSum[c] > 0.0 ? fade[i] * diffraction[3 * i + c] / diffractionSum[c] : 0.0;
                psf.at(x, y, int(c)) = float((1.0 - params.glare) * d + params.glare * glare[i] / glareSum);
            }
        }
    return psf;
}

} // namespace

void validatePsfParams(const PsfParams& p)
{
    if (PsfParamError e; !checkPsfParams(p, &e))
        throw HostError("psf: " + e.field + " = " + psfValueText(e.value) + " is outside " + e.range +
                        " (fftbloom-psf --" + e.flag + ")");
}

PsfSampling psfSampling(const PsfParams& params)
{
    validatePsfParams(params);
    return psfSamplingOf(params);
}

Texels generateAperture(const PsfParams& params)
{
    const PsfSampling s = psfSampling(params);
    // The aperture's square on the grid, with a sample of margin: centre sample N / 2 goes to size / 2.
    const int size = 2 * (int(std::ceil(s.apertureDiameterSamples / 2.0)) + 2);
    std::vector<double> grid(std::size_t(s.fftSize) * s.fftSize, 0.0);
    drawAperture(params, s, grid.data(), std::size_t(s.fftSize));
    Texels out(size, size, 1);
    const int offset = s.fftSize / 2 - size / 2;
    for (int j = 0; j < size; ++j)
        for (int i = 0; i < size; ++i)
            out.at(i, j, 0) = float(grid[std::size_t(j + offset) * s.fftSize + std::size_t(i + offset)]);
    return out;
}

Texels generatePsf(const PsfParams& params)
{
    const PsfSampling s = psfSampling(params);
    const int k = params.sizeTexels;
    const std::vector<float> pattern = diffractionPattern(params, s);
    const std::vector<Wavelength> wavelengths = wavelengthsOf(params);

    std::vector<Resampling> resamplings;
    for (const Wavelength& w : wavelengths)
        resamplings.push_back({w.rgbWeight, axisTaps(k, s.fftSize, s.binsPerTexel * kPsfReferenceNm / w.nm)});

    // Bands of output rows are independent and each sums the wavelengths in the same order: the texels do not
    // depend on which thread computed them, nor on the number of cores.
    constexpr int kBand = 32;
    std::vector<std::array<int, 2>> bands = {{0, 1}};
    for (int y0 = k / 2; y0 < k; y0 += kBand)
        bands.push_back({y0, std::min(y0 + kBand, k)});
    HalfKernel sum(k);
    runJobs(int(bands.size()) + 1,
            [&](int job)
            {
                if (job == int(bands.size()))
                    accumulateLeftColumn(pattern, s.fftSize, k, resamplings, sum);
                else
                    accumulateBand(pattern, s.fftSize, k, resamplings, bands[std::size_t(job)][0],
                                   bands[std::size_t(job)][1], sum);
            });

    // Spectral colours outside the Rec.709 gamut sum to negative values where one hue dominates: clamped to 0.
    const auto forEachRow = [&](auto&& visit)
    {
        for (int y = 0; y < k; ++y)
            if (y == 0 || y >= k / 2)
                visit(y, sum.row(y), false);
            else
                visit(y, sum.row(k - y), true);
    };
    std::vector<double> diffraction(std::size_t(k) * std::size_t(k) * 3);
    forEachRow(
        [&](int y, const double* row, bool mirrored)
        {
            for (int x = 0; x < k; ++x)
            {
                const double* texel = !mirrored ? row + 3 * x : x == 0 ? sum.left(y) : row + 3 * (k - x);
                for (int c = 0; c < 3; ++c)
                    diffraction[(std::size_t(y) * std::size_t(k) + std::size_t(x)) * 3 + std::size_t(c)] =
                        std::max(texel[c], 0.0);
            }
        });
    Texels psf = withEnvelope(diffraction, k, params);
    normalizePsf(psf);
    return psf;
}

Image psfImage(const Texels& psf, const PsfParams& params)
{
    if (psf.components != 3 || psf.width <= 0 || psf.height <= 0)
        throw HostError("psf: " + std::to_string(psf.width) + "x" + std::to_string(psf.height) + " texels with " +
                        std::to_string(psf.components) + " components; expected RGB");
    Image image;
    image.width = psf.width;
    image.height = psf.height;
    const char* names[] = {"R", "G", "B"};
    for (int c = 0; c < 3; ++c)
    {
        Channel channel;
        channel.name = names[c];
        channel.type = PixelType::Float;
        channel.values.resize(std::size_t(psf.width) * psf.height);
        for (std::size_t i = 0; i < channel.values.size(); ++i)
            channel.values[i] = psf.values[i * 3 + std::size_t(c)];
        image.channels.push_back(std::move(channel));
    }
    // A PSF's low mantissa bits are noise to a compressor: ZIP saves 4% of a 1024^2 kernel and takes a second.
    image.layout.compression = Compression::None;
    const auto add = [&image](const std::string& name, const std::string& value) {
        image.layout.attributes.push_back({name, "string", std::vector<unsigned char>(value.begin(), value.end())});
    };
    add("fftbloom.psf.model",
        "Fraunhofer |F(aperture)|^2; CIE 1931 2deg (Wyman 2013); linear Rec.709; Spencer 1995 glare; v2");
    for (const Field& f : fieldsOf(params))
        add(std::string("fftbloom.psf.") + f.flag, f.value);
    return image;
}

double pupilDiameterMm(double luminance)
{
    return 4.9 - 3.0 * std::tanh(0.4 * (std::log10(luminance) + 1.0));
}

double pupilAiryRadius(double airyRadiusTexels, double luminance)
{
    return airyRadiusTexels * pupilDiameterMm(100.0) / pupilDiameterMm(luminance);
}

int psfGenerationSize(int size, double airyRadiusTexels)
{
    int generated = 64;
    while (generated < 2048 && generated < size)
        generated *= 2;
    while (generated < 2048 && airyRadiusTexels * generated / size < 1.0)
        generated *= 2;
    while (generated > 64 && airyRadiusTexels * generated / size > std::min(16.0, generated / 8.0))
        generated /= 2;
    return generated;
}

Texels defaultPsf(int size, const PsfParams& design)
{
    if (size < 2)
        throw HostError("kernel: size " + std::to_string(size) + " is below 2");
    PsfParams params = design;
    params.sizeTexels = psfGenerationSize(size, design.airyRadiusTexels);
    params.airyRadiusTexels =
        std::clamp(design.airyRadiusTexels * params.sizeTexels / size, 1.0, std::min(16.0, params.sizeTexels / 8.0));
    Texels psf = generatePsf(params);
    if (size != params.sizeTexels)
        psf = resamplePsf(psf, size);
    normalizePsf(psf);
    return psf;
}

} // namespace fftb
