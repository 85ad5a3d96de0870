// Physically based PSFs: the aperture on a grid, |FFT|^2 with FFTW, per-wavelength resampling, CIE 1931 to Rec.709.
#include "psf_generator.h"

#include "host_error.h"

#include <fftw3.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <exception>
#include <limits>
#include <memory>
#include <numbers>
#include <string>
#include <thread>
#include <vector>

namespace fftb
{
namespace
{

constexpr double kReferenceNm = 550.0; // the wavelength at which airyRadiusTexels and haloRadius hold
constexpr double kShortestNm = 380.0;
constexpr double kLongestNm = 780.0;
// First zero of J1 over pi: the Airy pattern's first dark ring lies at 1.2197 lambda / D.
constexpr double kAiryNull = 3.8317059702075125 / std::numbers::pi;

// ---------------------------------------------------------------------------------------------------------------------
// Parameters: ranges, messages, header attributes.

std::string number(double v)
{
    std::array<char, 32> text{};
    const auto result = std::to_chars(text.data(), text.data() + text.size(), v);
    return std::string(text.data(), result.ptr);
}

[[noreturn]] void outOfRange(const char* field, const char* flag, double value, const std::string& range)
{
    throw HostError("psf: " + std::string(field) + " = " + number(value) + " is outside " + range +
                    " (fftbloom-psf --" + flag + ")");
}

void checkRange(const char* field, const char* flag, double value, double lo, double hi, const char* unit = "")
{
    if (!(value >= lo && value <= hi)) // also catches NaN
        outOfRange(field, flag, value, number(lo) + ".." + number(hi) + unit);
}

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
        {"airy-radius", number(p.airyRadiusTexels)},
        {"wavelengths", std::to_string(p.wavelengths)},
        {"monochromatic", number(p.monochromaticNm)},
        {"blades", std::to_string(a.blades)},
        {"blade-rotation", number(a.bladeRotationDeg)},
        {"blade-curvature", number(a.bladeCurvature)},
        {"obstruction", number(a.obstruction)},
        {"vanes", std::to_string(a.vanes)},
        {"vane-width", number(a.vaneWidth)},
        {"vane-angle", number(a.vaneAngleDeg)},
        {"dust", std::to_string(a.dust)},
        {"scratches", std::to_string(a.scratches)},
        {"corona", number(a.corona)},
        {"halo-radius", number(a.haloRadius)},
        {"seed", std::to_string(a.seed)},
    };
}

/// The smallest even n' >= n whose prime factors are 2, 3, 5 and 7: sizes FFTW transforms fast.
int fftFriendly(int n)
{
    for (int m = std::max(n + (n & 1), 2);; m += 2)
    {
        int r = m;
        for (int f : {2, 3, 5, 7})
            while (r % f == 0)
                r /= f;
        if (r == 1)
            return m;
    }
}

PsfSampling samplingOf(const PsfParams& p)
{
    // Zero padding N / D: |F|^2 is the transform of the aperture's autocorrelation, whose support is 2D wide, so
    // N >= 2D samples it without aliasing. Beyond that, pad until a texel spans 1.5 bins at 550 nm, so that every
    // wavelength up to 780 nm has at least a bin per texel and linear interpolation between bins follows the rings.
    const double padding = std::max(2.0, 1.5 * p.airyRadiusTexels / kAiryNull);
    const double binsPerTexel = kAiryNull * padding / p.airyRadiusTexels;
    // The shortest wavelength reaches farthest into the pattern: the border texel's footprint plus the reach of the
    // interpolation (and a bin of margin) must lie on the grid, centred at N / 2.
    const double reach = (p.sizeTexels / 2.0 + 0.5) * binsPerTexel * kReferenceNm / kShortestNm + 2.0;
    // The aperture needs enough samples for its blades, vanes and particles: 256 across, fewer for a large Airy
    // radius (whose broad pattern shows less of the detail), which would otherwise need a large grid.
    const double minDiameter = std::clamp(1024.0 / p.airyRadiusTexels, 64.0, 256.0);
    const double needed = std::max(2.0 * reach, padding * minDiameter);
    PsfSampling s;
    s.fftSize = fftFriendly(int(std::ceil(needed)));
    s.apertureDiameterSamples = s.fftSize / padding;
    s.binsPerTexel = binsPerTexel;
    return s;
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

/// SplitMix64 (Steele, Lea and Flood 2014): a fixed sequence for a seed on every platform, unlike std distributions.
class Random
{
  public:
    Random(std::uint32_t seed, std::uint64_t stream) : state_(seed * 0x9E3779B97F4A7C15ull ^ (stream << 32 | stream)) {}

    double uniform() // [0, 1)
    {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return double((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
    }

    /// A point uniformly distributed over the unit disc.
    std::array<double, 2> inDisc()
    {
        const double r = std::sqrt(uniform()), phi = 2.0 * std::numbers::pi * uniform();
        return {r * std::cos(phi), r * std::sin(phi)};
    }

  private:
    std::uint64_t state_;
};

struct Disc
{
    double x, y, radius, opacity;
};

struct Segment
{
    double ax, ay, bx, by, halfWidth, opacity;
};

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
        const int reach = int(std::ceil(radius_)) + 2;
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

    void occlude(const Disc& d)
    {
        const double reach = d.radius * radius_ + 1.0;
        const double ci = centre_ + d.x * radius_, cj = centre_ - d.y * radius_;
        for (int j = rowFrom(cj - reach); j <= rowTo(cj + reach); ++j)
            for (int i = rowFrom(ci - reach); i <= rowTo(ci + reach); ++i)
            {
                const double dist = std::hypot((i - centre_) / radius_ - d.x, (centre_ - j) / radius_ - d.y);
                at(i, j) *= 1.0 - d.opacity * coverage((d.radius - dist) * radius_);
            }
    }

    void occlude(const Segment& s)
    {
        const double length = std::hypot(s.bx - s.ax, s.by - s.ay);
        const double ux = (s.bx - s.ax) / length, uy = (s.by - s.ay) / length;
        const double reach = s.halfWidth + 1.5 / radius_; // in units
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
                at(i, j) *= 1.0 - s.opacity * coverage((s.halfWidth - dist) * radius_);
            }
        }
    }

  private:
    double& at(int i, int j) { return values_[std::size_t(j) * stride_ + std::size_t(i)]; }
    int rowFrom(double v) const { return std::max(int(std::floor(v)), 0); }
    int rowTo(double v) const { return std::min(int(std::ceil(v)), size_ - 1); }

    double* values_;
    std::size_t stride_;
    int size_;
    int centre_;
    double radius_;
};

/// Draws the whole aperture of `p` on the grid (zeroed by the caller).
void drawAperture(const PsfParams& p, const PsfSampling& s, double* values, std::size_t stride)
{
    const ApertureParams& a = p.aperture;
    const double radius = s.apertureDiameterSamples / 2.0;
    ApertureGrid grid(values, stride, s.fftSize, radius);
    grid.drawStop(Stop(a));

    // Each kind of occluder has its own random stream, so adding scratches does not move the dust.
    Random dustRandom(a.seed, 1);
    for (int k = 0; k < a.dust; ++k)
    {
        const auto c = dustRandom.inDisc();
        // Radius in units of the aperture's radius = diameter as a fraction of D: 0.4%..1.6% of D.
        grid.occlude(Disc{c[0], c[1], 0.004 + 0.012 * dustRandom.uniform(), 1.0});
    }
    Random scratchRandom(a.seed, 2);
    for (int k = 0; k < a.scratches; ++k)
    {
        const auto c = scratchRandom.inDisc();
        const double phi = std::numbers::pi * scratchRandom.uniform();
        const double half = 0.5 * (0.2 + 0.6 * scratchRandom.uniform());  // 10%..40% of D long
        const double halfWidth = 0.001 + 0.002 * scratchRandom.uniform(); // 0.1%..0.3% of D wide
        const double dx = half * std::cos(phi), dy = half * std::sin(phi);
        grid.occlude(Segment{c[0] - dx, c[1] - dy, c[0] + dx, c[1] + dy, halfWidth, 1.0});
    }
    if (a.corona > 0.0)
    {
        Random eyeRandom(a.seed, 3);
        // Lens fibres: a radial grating on the rim, 0.85..1 of the radius. A grating of period P samples diffracts
        // to P^-1 cycles per sample, N / P bins: the period puts the halo at haloRadius of the half size.
        const double haloBins = a.haloRadius * (p.sizeTexels / 2.0) * s.binsPerTexel;
        const double periodUnits = s.fftSize / haloBins / radius;
        constexpr double kInner = 0.85, kMid = 0.925;
        const int fibres = std::max(8, int(std::lround(2.0 * std::numbers::pi * kMid / periodUnits)));
        for (int k = 0; k < fibres; ++k)
        {
            // A slight irregularity of the fibres, as in a real lens, keeps the ring from being perfectly sharp.
            const double phi = 2.0 * std::numbers::pi * (k + 0.2 * (eyeRandom.uniform() - 0.5)) / fibres;
            const double cx = std::cos(phi), cy = std::sin(phi);
            grid.occlude(Segment{kInner * cx, kInner * cy, 1.02 * cx, 1.02 * cy, periodUnits / 4.0, a.corona});
        }
        // Particles in the lens: small, many, each diffracting into a wide disc; together the needles of the corona.
        const int particles = int(std::lround(1500.0 * a.corona));
        for (int k = 0; k < particles; ++k)
        {
            const auto c = eyeRandom.inDisc();
            grid.occlude(Disc{c[0], c[1], 0.001 + 0.002 * eyeRandom.uniform(), 1.0});
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------------
// Colour.

/// CIE 1931 2-degree colour matching functions at `nm`: the multi-lobe piecewise Gaussian fit of Wyman, Sloan and
/// Shirley 2013, "Simple Analytic Approximations to the CIE XYZ Color Matching Functions", JCGT 2(2), equation 2.
std::array<double, 3> cie1931(double nm)
{
    const auto g = [nm](double mu, double below, double above)
    {
        const double t = (nm - mu) / (nm < mu ? below : above);
        return std::exp(-0.5 * t * t);
    };
    return {1.056 * g(599.8, 37.9, 31.0) + 0.362 * g(442.0, 16.0, 26.7) - 0.065 * g(501.1, 20.4, 26.2),
            0.821 * g(568.8, 46.9, 40.5) + 0.286 * g(530.9, 16.3, 31.1),
            1.217 * g(437.0, 11.8, 36.0) + 0.681 * g(459.0, 26.0, 13.8)};
}

/// XYZ to linear sRGB / Rec.709 primaries, D65 white: IEC 61966-2-1:1999.
std::array<double, 3> xyzToRec709(const std::array<double, 3>& v)
{
    return {3.2406 * v[0] - 1.5372 * v[1] - 0.4986 * v[2], -0.9689 * v[0] + 1.8758 * v[1] + 0.0415 * v[2],
            0.0557 * v[0] - 0.2040 * v[1] + 1.0570 * v[2]};
}

struct Wavelength
{
    double nm;
    std::array<double, 3> rgbWeight; // may be negative: the clamp comes after the sum
};

std::vector<Wavelength> wavelengthsOf(const PsfParams& p)
{
    if (p.monochromaticNm > 0.0)
        return {{p.monochromaticNm, {1.0, 1.0, 1.0}}};
    std::vector<Wavelength> out;
    const double step = (kLongestNm - kShortestNm) / p.wavelengths;
    for (int i = 0; i < p.wavelengths; ++i)
    {
        const double nm = kShortestNm + (i + 0.5) * step;
        const auto rgb = xyzToRec709(cie1931(nm));
        out.push_back({nm, {rgb[0] * step, rgb[1] * step, rgb[2] * step}});
    }
    return out;
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
    const fftw_plan plan =
        fftw_plan_dft_r2c_2d(n, n, grid.get(), reinterpret_cast<fftw_complex*>(grid.get()), FFTW_ESTIMATE);
    if (!plan)
        throw HostError("psf: FFTW could not plan a " + std::to_string(n) + "^2 transform");
    std::fill(grid.get(), grid.get() + std::size_t(n) * stride, 0.0);
    drawAperture(p, s, grid.get(), stride);
    fftw_execute(plan);
    fftw_destroy_plan(plan);

    // The aperture is real, so |F(-k)| = |F(k)|: each row of the half spectrum gives its row and, reversed, the
    // mirrored row. Column kx goes to half + kx (kx = half wraps to 0), its mirror to half - kx.
    std::vector<float> pattern(std::size_t(n) * n);
    const auto* spectrum = reinterpret_cast<const fftw_complex*>(grid.get());
    const int half = n / 2;
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

/// For each output texel along an axis, the run of bins it integrates and their weights.
struct AxisTaps
{
    std::vector<int> first;      // first bin of texel x's run
    std::vector<int> count;      // bins in the run
    std::vector<std::size_t> at; // offset of the run's weights in `weights`
    std::vector<double> weights;
};

/// Texel x covers bins [(x - K/2 - 1/2) s, (x - K/2 + 1/2) s] around bin N/2 (s bins per texel): the weights are the
/// integrals of the linear interpolation between bin centres over that footprint. They sum to s per texel and tile
/// the axis, so the texels together keep the pattern's energy.
AxisTaps axisTaps(int k, int n, double binsPerTexel)
{
    AxisTaps taps;
    for (int x = 0; x < k; ++x)
    {
        const double lo = (x - k / 2 - 0.5) * binsPerTexel, hi = lo + binsPerTexel;
        // Bin j's tent spans [j - 1, j + 1]: bins floor(lo) .. ceil(hi) are the ones that overlap the footprint.
        const int j0 = std::max(int(std::floor(lo)) + n / 2, 0);
        const int j1 = std::min(int(std::ceil(hi)) + n / 2, n - 1);
        taps.first.push_back(j0);
        taps.count.push_back(j1 - j0 + 1);
        taps.at.push_back(taps.weights.size());
        for (int j = j0; j <= j1; ++j)
            taps.weights.push_back(tentIntegral(hi - (j - n / 2)) - tentIntegral(lo - (j - n / 2)));
    }
    return taps;
}

/// Adds weight[c] times the pattern resampled for one wavelength to the K x K accumulators. Only the texels without a
/// partner at (K - x, K - y) and rows K/2..K-1 are computed: the pattern is symmetric about its centre, and
/// mirrorHalf fills in the rest once all wavelengths are summed.
void accumulate(const std::vector<float>& pattern, int n, int k, const Wavelength& w, double binsPerTexelAtReference,
                std::array<std::vector<double>, 3>& sums)
{
    const AxisTaps taps = axisTaps(k, n, binsPerTexelAtReference * kReferenceNm / w.nm);
    const auto add = [&](int x, int y, double v)
    {
        for (int c = 0; c < 3; ++c)
            sums[std::size_t(c)][std::size_t(y) * k + std::size_t(x)] += w.rgbWeight[std::size_t(c)] * v;
    };
    std::vector<double> rows; // a band's bin rows, resampled along x
    std::vector<double> line(std::size_t(k), 0.0);
    // Separable: along x for the bin rows the band needs, then along y.
    const auto band = [&](int y0, int y1)
    {
        const int lo = taps.first[y0], hi = taps.first[y1 - 1] + taps.count[y1 - 1] - 1;
        rows.assign(std::size_t(hi - lo + 1) * k, 0.0);
        for (int j = lo; j <= hi; ++j)
        {
            const float* in = pattern.data() + std::size_t(j) * n;
            double* out = rows.data() + std::size_t(j - lo) * k;
            for (int x = 0; x < k; ++x)
            {
                const float* bins = in + taps.first[x];
                const double* weight = taps.weights.data() + taps.at[x];
                double v = 0.0;
                for (int t = 0; t < taps.count[x]; ++t)
                    v += weight[t] * bins[t];
                out[x] = v;
            }
        }
        for (int y = y0; y < y1; ++y)
        {
            std::fill(line.begin(), line.end(), 0.0);
            const double* weight = taps.weights.data() + taps.at[y];
            for (int t = 0; t < taps.count[y]; ++t)
            {
                const double* in = rows.data() + std::size_t(taps.first[y] + t - lo) * k;
                for (int x = 0; x < k; ++x)
                    line[std::size_t(x)] += weight[t] * in[x];
            }
            for (int c = 0; c < 3; ++c)
            {
                double* out = sums[std::size_t(c)].data() + std::size_t(y) * k;
                const double g = w.rgbWeight[std::size_t(c)];
                for (int x = 0; x < k; ++x)
                    out[x] += g * line[std::size_t(x)];
            }
        }
    };
    constexpr int kBand = 32;
    band(0, 1);
    for (int y0 = k / 2; y0 < k; y0 += kBand)
        band(y0, std::min(y0 + kBand, k));
    for (int y = 1; y < k / 2; ++y)
    {
        double v = 0.0;
        for (int ty = 0; ty < taps.count[y]; ++ty)
        {
            const float* in = pattern.data() + std::size_t(taps.first[y] + ty) * n + taps.first[0];
            const double* weight = taps.weights.data() + taps.at[0];
            double across = 0.0;
            for (int tx = 0; tx < taps.count[0]; ++tx)
                across += weight[tx] * in[tx];
            v += taps.weights[taps.at[y] + std::size_t(ty)] * across;
        }
        add(0, y, v);
    }
}

/// Texels (x, y) with 0 < x < K and 0 < y < K/2 from their partners (K - x, K - y).
void mirrorHalf(std::vector<double>& texels, int k)
{
    for (int y = 1; y < k / 2; ++y)
        for (int x = 1; x < k; ++x)
            texels[std::size_t(y) * k + std::size_t(x)] = texels[std::size_t(k - y) * k + std::size_t(k - x)];
}

} // namespace

void validatePsfParams(const PsfParams& p)
{
    const int k = p.sizeTexels;
    if (k < 64 || k > 2048 || (k & (k - 1)) != 0)
        outOfRange("sizeTexels", "size", k, "64..2048, a power of two");
    checkRange("airyRadiusTexels", "airy-radius", p.airyRadiusTexels, 1.0, std::min(k / 8.0, 16.0),
               " texels (at most 16 and size / 8)");
    checkRange("wavelengths", "wavelengths", p.wavelengths, 16, 256);
    if (p.monochromaticNm != 0.0)
        checkRange("monochromaticNm", "monochromatic", p.monochromaticNm, kShortestNm, kLongestNm,
                   " nm, or 0 for the spectral PSF");
    const ApertureParams& a = p.aperture;
    if (a.blades != 0 && (a.blades < 3 || a.blades > 16))
        outOfRange("aperture.blades", "blades", a.blades, "0 (circle) or 3..16");
    checkRange("aperture.bladeRotationDeg", "blade-rotation", a.bladeRotationDeg, -360.0, 360.0, " degrees");
    checkRange("aperture.bladeCurvature", "blade-curvature", a.bladeCurvature, 0.0, 1.0);
    checkRange("aperture.obstruction", "obstruction", a.obstruction, 0.0, 0.9);
    checkRange("aperture.vanes", "vanes", a.vanes, 0, 8);
    checkRange("aperture.vaneWidth", "vane-width", a.vaneWidth, 0.001, 0.1);
    checkRange("aperture.vaneAngleDeg", "vane-angle", a.vaneAngleDeg, -360.0, 360.0, " degrees");
    checkRange("aperture.dust", "dust", a.dust, 0, 5000);
    checkRange("aperture.scratches", "scratches", a.scratches, 0, 200);
    checkRange("aperture.corona", "corona", a.corona, 0.0, 1.0);
    checkRange("aperture.haloRadius", "halo-radius", a.haloRadius, 0.1, 0.8);
}

PsfSampling psfSampling(const PsfParams& params)
{
    validatePsfParams(params);
    return samplingOf(params);
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

    // Two fixed halves of the wavelengths, summed in a fixed order: the texels do not depend on the thread count.
    constexpr int kSlots = 2;
    std::array<std::array<std::vector<double>, 3>, kSlots> sums;
    for (auto& slot : sums)
        for (auto& channel : slot)
            channel.assign(std::size_t(k) * k, 0.0);
    const auto work = [&](int slot)
    {
        for (std::size_t i = std::size_t(slot); i < wavelengths.size(); i += kSlots)
            accumulate(pattern, s.fftSize, k, wavelengths[i], s.binsPerTexel, sums[std::size_t(slot)]);
    };
    if (std::thread::hardware_concurrency() >= 2 && wavelengths.size() > 1)
    {
        std::exception_ptr failure;
        std::thread helper(
            [&]
            {
                try
                {
                    work(1);
                }
                catch (...)
                {
                    failure = std::current_exception();
                }
            });
        try
        {
            work(0);
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
    else
    {
        for (int slot = 0; slot < kSlots; ++slot)
            work(slot);
    }

    // Spectral colours outside the Rec.709 gamut sum to negative values where one hue dominates: clamped to 0.
    Texels psf(k, k, 3);
    for (int c = 0; c < 3; ++c)
    {
        double total = 0.0;
        std::vector<double>& sum = sums[0][std::size_t(c)];
        for (std::size_t i = 0; i < sum.size(); ++i)
            sum[i] += sums[1][std::size_t(c)][i];
        mirrorHalf(sum, k);
        for (std::size_t i = 0; i < sum.size(); ++i)
        {
            sum[i] = std::max(sum[i], 0.0);
            total += sum[i];
        }
        for (std::size_t i = 0; i < sum.size(); ++i)
            psf.values[i * 3 + std::size_t(c)] = float(sum[i] / total);
    }
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
    add("fftbloom.psf.model", "Fraunhofer |F(aperture)|^2; CIE 1931 2deg (Wyman 2013); linear Rec.709; v1");
    for (const Field& f : fieldsOf(params))
        add(std::string("fftbloom.psf.") + f.flag, f.value);
    return image;
}

} // namespace fftb
