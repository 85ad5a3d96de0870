// SPDX-License-Identifier: MIT
// The PSF model both generators share: parameter ranges, the grid's sampling, the occluders, the wavelengths.
#include "psf_model.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace fftb
{
namespace
{

/// The smallest even n' >= n whose prime factors are 2, 3, 5 and 7: sizes FFTW and the plugin transform fast.
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

/// CIE 1931 2-degree colour matching functions at `nm`: Wyman, Sloan and Shirley 2013, equation 2.
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

} // namespace

std::string psfValueText(double v)
{
    std::array<char, 32> text{};
    const auto result = std::to_chars(text.data(), text.data() + text.size(), v);
    return std::string(text.data(), result.ptr);
}

bool checkPsfParams(const PsfParams& p, PsfParamError* error)
{
    bool ok = true;
    const auto fail = [&](const char* field, const char* flag, double value, const std::string& range)
    {
        if (ok)
            *error = {field, flag, value, range};
        ok = false;
    };
    const auto check =
        [&](const char* field, const char* flag, double value, double lo, double hi, const char* unit = "")
    {
        if (!(value >= lo && value <= hi)) // also catches NaN
            fail(field, flag, value, psfValueText(lo) + ".." + psfValueText(hi) + unit);
    };
    const int k = p.sizeTexels;
    if (k < 64 || k > 2048 || (k & (k - 1)) != 0)
        fail("sizeTexels", "size", k, "64..2048, a power of two");
    check("airyRadiusTexels", "airy-radius", p.airyRadiusTexels, 1.0, std::min(k / 8.0, 16.0),
          " texels (at most 16 and size / 8)");
    check("wavelengths", "wavelengths", p.wavelengths, 16, 256);
    if (p.monochromaticNm != 0.0)
        check("monochromaticNm", "monochromatic", p.monochromaticNm, kPsfShortestNm, kPsfLongestNm,
              " nm, or 0 for the spectral PSF");
    const ApertureParams& a = p.aperture;
    if (a.blades != 0 && (a.blades < 3 || a.blades > 16))
        fail("aperture.blades", "blades", a.blades, "0 (circle) or 3..16");
    check("aperture.bladeRotationDeg", "blade-rotation", a.bladeRotationDeg, -360.0, 360.0, " degrees");
    check("aperture.bladeCurvature", "blade-curvature", a.bladeCurvature, 0.0, 1.0);
    check("aperture.obstruction", "obstruction", a.obstruction, 0.0, 0.9);
    check("aperture.vanes", "vanes", a.vanes, 0, 8);
    check("aperture.vaneWidth", "vane-width", a.vaneWidth, 0.001, 0.1);
    check("aperture.vaneAngleDeg", "vane-angle", a.vaneAngleDeg, -360.0, 360.0, " degrees");
    check("aperture.dust", "dust", a.dust, 0, 5000);
    check("aperture.scratches", "scratches", a.scratches, 0, 200);
    check("aperture.corona", "corona", a.corona, 0.0, 1.0);
    check("aperture.haloRadius", "halo-radius", a.haloRadius, 0.1, 0.8);
    check("fade", "fade", p.fade, 0.0, 1.0);
    check("glare", "glare", p.glare, 0.0, 1.0);
    return ok;
}

double psfRadius(double dx, double dy, int reachX, int reachY)
{
    const auto along = [](double d, int reach) { return reach > 0 ? d / reach : d == 0.0 ? 0.0 : 2.0; };
    return std::hypot(along(dx, reachX), along(dy, reachY));
}

double psfFade(double rho, double fade)
{
    if (fade <= 0.0)
        return 1.0;
    if (rho >= 1.0)
        return 0.0;
    const double start = 1.0 - std::min(fade, 1.0);
    return rho <= start ? 1.0 : 0.5 + 0.5 * std::cos(std::numbers::pi * (rho - start) / fade);
}

double glareScatter(double degrees)
{
    const double t = degrees + 0.02;
    return 0.478 * 20.91 / (t * t * t) + 0.138 * 72.37 / (t * t);
}

double glareDegreesPerTexel(double airyRadiusTexels)
{
    return kAiryNull * kPsfReferenceNm * 1e-9 / (kGlarePupilMm * 1e-3) * 180.0 / std::numbers::pi / airyRadiusTexels;
}

PsfSampling psfSamplingOf(const PsfParams& p)
{
    // Zero padding N / D: |F|^2 is the transform of the aperture's autocorrelation, whose support is 2D wide, so
    // N >= 2D samples it without aliasing. Beyond that, pad until a texel spans 1.5 bins at 550 nm, so that every
    // wavelength up to 780 nm has at least a bin per texel and linear interpolation between bins follows the rings.
    const double padding = std::max(2.0, 1.5 * p.airyRadiusTexels / kAiryNull);
    const double binsPerTexel = kAiryNull * padding / p.airyRadiusTexels;
    // The shortest wavelength reaches farthest into the pattern: the border texel's footprint plus the reach of the
    // interpolation (and a bin of margin) must lie on the grid, centred at N / 2.
    const double reach = (p.sizeTexels / 2.0 + 0.5) * binsPerTexel * kPsfReferenceNm / kPsfShortestNm + 2.0;
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

int psfFftSizeBound(int sizeTexels)
{
    const double bins = 2.0 * kAiryNull;
    const double reach = (sizeTexels / 2.0 + 0.5) * bins * kPsfReferenceNm / kPsfShortestNm + 2.0;
    return fftFriendly(int(std::ceil(std::max(2.0 * reach, 1.5 / kAiryNull * 1024.0))));
}

int psfOccluderBound(int sizeTexels)
{
    return 5000 + 200 + 1500 + std::max(8, int(std::ceil(std::numbers::pi * 0.925 * kAiryNull * 0.8 * sizeTexels)) + 1);
}

std::vector<Wavelength> wavelengthsOf(const PsfParams& p)
{
    if (p.monochromaticNm > 0.0)
        return {{p.monochromaticNm, {1.0, 1.0, 1.0}}};
    std::vector<Wavelength> out;
    const double step = (kPsfLongestNm - kPsfShortestNm) / p.wavelengths;
    for (int i = 0; i < p.wavelengths; ++i)
    {
        const double nm = kPsfShortestNm + (i + 0.5) * step;
        const auto rgb = xyzToRec709(cie1931(nm));
        out.push_back({nm, {rgb[0] * step, rgb[1] * step, rgb[2] * step}});
    }
    return out;
}

std::vector<Occluder> occludersOf(const PsfParams& p, const PsfSampling& s)
{
    const ApertureParams& a = p.aperture;
    std::vector<Occluder> occluders;
    const auto disc = [&](double x, double y, double radius) { occluders.push_back({false, x, y, 0, 0, radius, 1.0}); };
    Random dustRandom(a.seed, 1);
    for (int k = 0; k < a.dust; ++k)
    {
        const auto c = dustRandom.inDisc();
        // Radius in units of the aperture's radius = diameter as a fraction of D: 0.4%..1.6% of D.
        disc(c[0], c[1], 0.004 + 0.012 * dustRandom.uniform());
    }
    Random scratchRandom(a.seed, 2);
    for (int k = 0; k < a.scratches; ++k)
    {
        const auto c = scratchRandom.inDisc();
        const double phi = std::numbers::pi * scratchRandom.uniform();
        const double half = 0.5 * (0.2 + 0.6 * scratchRandom.uniform());  // 10%..40% of D long
        const double halfWidth = 0.001 + 0.002 * scratchRandom.uniform(); // 0.1%..0.3% of D wide
        const double dx = half * std::cos(phi), dy = half * std::sin(phi);
        occluders.push_back({true, c[0] - dx, c[1] - dy, c[0] + dx, c[1] + dy, halfWidth, 1.0});
    }
    if (a.corona > 0.0)
    {
        Random eyeRandom(a.seed, 3);
        // Lens fibres: a radial grating on the rim, 0.85..1 of the radius. A grating of period P samples diffracts
        // to P^-1 cycles per sample, N / P bins: the period puts the halo at haloRadius of the half size.
        const double radius = s.apertureDiameterSamples / 2.0;
        const double haloBins = a.haloRadius * (p.sizeTexels / 2.0) * s.binsPerTexel;
        const double periodUnits = s.fftSize / haloBins / radius;
        constexpr double kInner = 0.85, kMid = 0.925;
        const int fibres = std::max(8, int(std::lround(2.0 * std::numbers::pi * kMid / periodUnits)));
        for (int k = 0; k < fibres; ++k)
        {
            // A slight irregularity of the fibres, as in a real lens, keeps the ring from being perfectly sharp.
            const double phi = 2.0 * std::numbers::pi * (k + 0.2 * (eyeRandom.uniform() - 0.5)) / fibres;
            const double cx = std::cos(phi), cy = std::sin(phi);
            occluders.push_back({true, kInner * cx, kInner * cy, 1.02 * cx, 1.02 * cy, periodUnits / 4.0, a.corona});
        }
        // Particles in the lens: small, many, each diffracting into a wide disc; together the needles of the corona.
        const int particles = int(std::lround(1500.0 * a.corona));
        for (int k = 0; k < particles; ++k)
        {
            const auto c = eyeRandom.inDisc();
            disc(c[0], c[1], 0.001 + 0.002 * eyeRandom.uniform());
        }
    }
    return occluders;
}

} // namespace fftb
