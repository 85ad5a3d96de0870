// SPDX-License-Identifier: MIT
// Checks the physical PSF generator against closed-form diffraction: the Airy pattern, an annular aperture's encircled
// energy, polygon spikes; and its normalization, colour, determinism, parameter checks and EXR header.
#include "host_error.h"
#include "image/image_io.h"
#include "psf/psf_generator.h"
#include "texel_test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <numbers>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fftb
{
namespace
{

using test::channelPlane;
using test::channelSum;

constexpr double kJ1FirstZero = 3.8317059702075125;

/// The diffraction pattern alone: no fade, no glare.
PsfParams diffraction()
{
    PsfParams p;
    p.fade = 0.0;
    p.glare = 0.0;
    return p;
}

PsfParams monochromatic(int size, double airyRadius, int blades)
{
    PsfParams p = diffraction();
    p.sizeTexels = size;
    p.airyRadiusTexels = airyRadius;
    p.aperture.blades = blades;
    p.monochromaticNm = 550.0;
    return p;
}

/// The amplitude of the Fraunhofer pattern of an annulus (outer radius 1, inner radius eps) at x = pi D sin(theta) /
/// lambda, 1 at the centre: [2 J1(x) / x - eps^2 2 J1(eps x) / (eps x)] / (1 - eps^2) (Born and Wolf, 8.5.2).
double annulusAmplitude(double x, double eps)
{
    const auto disc = [](double v) { return v < 1e-9 ? 1.0 : 2.0 * std::cyl_bessel_j(1.0, v) / v; };
    return (disc(x) - eps * eps * disc(eps * x)) / (1.0 - eps * eps);
}

/// The closed-form PSF of `size` texels for an annulus whose clear (eps = 0) Airy radius is `airyRadius` texels,
/// averaged over each texel's area with 8 x 8 samples as a sensor integrates it, centre texel (size / 2, size / 2).
/// The radial intensity is tabulated every 1/256 texel and interpolated linearly.
std::vector<double> annulusModel(int size, double airyRadius, double eps)
{
    constexpr double kStep = 1.0 / 256.0;
    std::vector<double> table(std::size_t(size / kStep) + 2);
    for (std::size_t i = 0; i < table.size(); ++i)
    {
        const double a = annulusAmplitude(kJ1FirstZero * double(i) * kStep / airyRadius, eps);
        table[i] = a * a;
    }
    std::vector<double> out(std::size_t(size) * size);
    const int c = size / 2;
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x)
        {
            double sum = 0.0;
            for (int sy = 0; sy < 8; ++sy)
                for (int sx = 0; sx < 8; ++sx)
                {
                    const double r = std::hypot(x - c + (sx + 0.5) / 8.0 - 0.5, y - c + (sy + 0.5) / 8.0 - 0.5);
                    const double u = r / kStep;
                    const std::size_t i = std::size_t(u);
                    sum += table[i] + (u - double(i)) * (table[i + 1] - table[i]);
                }
            out[std::size_t(y) * size + std::size_t(x)] = sum / 64.0;
        }
    return out;
}

struct RadialSample
{
    double radius; // mean radius of the texel centres in the ring
    double value;  // mean texel value
};

/// The mean over the texels whose centres lie in each ring [i w, (i + 1) w) around the centre texel, out to `outer`;
/// rings that hold no texel centre are left out.
std::vector<RadialSample> radialProfile(const std::vector<double>& texels, int size, double width, double outer)
{
    const int rings = int(outer / width);
    std::vector<double> radius(std::size_t(rings), 0.0), value(std::size_t(rings), 0.0), count(std::size_t(rings), 0.0);
    const int c = size / 2;
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x)
        {
            const double r = std::hypot(x - c, y - c);
            const int ring = int(r / width);
            if (ring < rings)
            {
                radius[std::size_t(ring)] += r;
                value[std::size_t(ring)] += texels[std::size_t(y) * size + std::size_t(x)];
                count[std::size_t(ring)] += 1.0;
            }
        }
    std::vector<RadialSample> profile;
    for (std::size_t i = 0; i < radius.size(); ++i)
        if (count[i] > 0.0)
            profile.push_back({radius[i] / count[i], value[i] / count[i]});
    return profile;
}

/// Radius of the profile's smallest value between `from` and `to`, refined by the parabola through it and its
/// neighbours.
double minimumRadius(const std::vector<RadialSample>& profile, double from, double to)
{
    std::size_t best = 0;
    for (std::size_t i = 1; i + 1 < profile.size(); ++i)
        if (profile[i].radius >= from && profile[i].radius <= to &&
            (best == 0 || profile[i].value < profile[best].value))
            best = i;
    const RadialSample a = profile[best - 1], b = profile[best], c = profile[best + 1];
    // Vertex of the parabola through three points with unequal spacing.
    const double num = (b.radius - a.radius) * (b.radius - a.radius) * (b.value - c.value) -
                       (b.radius - c.radius) * (b.radius - c.radius) * (b.value - a.value);
    const double den = (b.radius - a.radius) * (b.value - c.value) - (b.radius - c.radius) * (b.value - a.value);
    return b.radius - 0.5 * num / den;
}

double largestValue(const std::vector<RadialSample>& profile, double from, double to)
{
    double best = 0.0;
    for (const RadialSample& s : profile)
        if (s.radius >= from && s.radius <= to)
            best = std::max(best, s.value);
    return best;
}

/// Share of the light within `radius` texels of the centre among the light within `outer` texels.
double encircledShare(const std::vector<double>& texels, int size, double radius, double outer)
{
    double inside = 0.0, total = 0.0;
    const int c = size / 2;
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x)
        {
            const double r = std::hypot(x - c, y - c), v = texels[std::size_t(y) * size + std::size_t(x)];
            inside += r <= radius ? v : 0.0;
            total += r <= outer ? v : 0.0;
        }
    return inside / total;
}

// FFTW's planner is not thread-safe: PSFs generated on several threads at once (a Bloomer made on each of several
// Python threads) must each be the PSF one thread alone makes, without a refusal or a crash.
TEST(GeneratedPsf, SeveralThreadsGenerateAtOnceAsOneAlone)
{
    const PsfParams params = monochromatic(64, 2.0, 0);
    const Texels alone = generatePsf(params);
    std::vector<std::string> errors(4);
    std::vector<Texels> results(errors.size());
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < results.size(); ++t)
        threads.emplace_back(
            [&, t]
            {
                try
                {
                    for (int i = 0; i < 16; ++i)
                        results[t] = generatePsf(params);
                }
                catch (const std::exception& e)
                {
                    errors[t] = e.what();
                }
            });
    for (std::thread& thread : threads)
        thread.join();
    for (std::size_t t = 0; t < results.size(); ++t)
    {
        EXPECT_EQ(errors[t], "") << "thread " << t;
        EXPECT_EQ(results[t].values, alone.values) << "thread " << t;
    }
}

TEST(GeneratedPsf, CircularApertureGivesTheAiryPattern)
{
    // Airy radius 8 texels at 550 nm: the first dark ring of [2 J1(x) / x]^2 at x = 3.8317 lies 8 texels out, the
    // first bright ring (x = 5.1356, 1.75% of the peak) 10.7 texels out. Both patterns are averaged over the texels.
    const int size = 256;
    const double r0 = 8.0;
    const std::vector<double> psf = channelPlane(generatePsf(monochromatic(size, r0, 0)), 0);
    const std::vector<double> model = annulusModel(size, r0, 0.0);
    const std::vector<RadialSample> got = radialProfile(psf, size, 0.25, 3.0 * r0);
    const std::vector<RadialSample> want = radialProfile(model, size, 0.25, 3.0 * r0);

    const double nullGot = minimumRadius(got, 0.5 * r0, 1.5 * r0);
    EXPECT_NEAR(nullGot, r0, 0.25) << "first dark ring, texels";
    const double nullWant = minimumRadius(want, 0.5 * r0, 1.5 * r0);
    EXPECT_NEAR(nullGot, nullWant, 0.1) << "first dark ring vs the texel-averaged Airy pattern";

    const int c = size / 2;
    const double peakGot = psf[std::size_t(c) * size + c], peakWant = model[std::size_t(c) * size + c];
    const double ratioGot = largestValue(got, 1.1 * r0, 1.7 * r0) / peakGot;
    const double ratioWant = largestValue(want, 1.1 * r0, 1.7 * r0) / peakWant;
    EXPECT_NEAR(ratioGot / ratioWant, 1.0, 0.03)
        << "first bright ring over the peak: " << ratioGot << ", Airy " << ratioWant;
    EXPECT_NEAR(ratioWant, 0.0175, 0.002) << "the texel-averaged model itself";

    // Texel by texel, out to three Airy radii, relative to the peak.
    double worst = 0.0;
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x)
            if (std::hypot(x - c, y - c) <= 3.0 * r0)
            {
                const std::size_t i = std::size_t(y) * size + std::size_t(x);
                worst = std::max(worst, std::abs(psf[i] / peakGot - model[i] / peakWant));
            }
    EXPECT_LT(worst, 0.01) << "largest texel difference from the Airy pattern, relative to the peak";
}

TEST(GeneratedPsf, CentralObstructionMovesEnergyFromTheCoreToTheRings)
{
    // An annulus of obstruction ratio eps keeps less of its light inside the clear aperture's first dark ring: 84%
    // without obstruction, 49% at eps = 0.5, by integrating the closed form (Born and Wolf 8.5.2).
    const int size = 256;
    const double r0 = 8.0, outer = size / 2 - 1;
    PsfParams clear = monochromatic(size, r0, 0);
    PsfParams obstructed = clear;
    obstructed.aperture.obstruction = 0.5;
    const std::vector<double> clearPsf = channelPlane(generatePsf(clear), 0);
    const std::vector<double> obstructedPsf = channelPlane(generatePsf(obstructed), 1);
    const std::vector<double> clearModel = annulusModel(size, r0, 0.0);
    const std::vector<double> obstructedModel = annulusModel(size, r0, 0.5);
    for (const double radius : {0.5 * r0, r0, 2.0 * r0, 4.0 * r0})
    {
        const double gotClear = encircledShare(clearPsf, size, radius, outer);
        const double gotObstructed = encircledShare(obstructedPsf, size, radius, outer);
        EXPECT_NEAR(gotClear, encircledShare(clearModel, size, radius, outer), 0.005) << "clear, radius " << radius;
        EXPECT_NEAR(gotObstructed, encircledShare(obstructedModel, size, radius, outer), 0.005)
            << "obstructed, radius " << radius;
    }
    const double core = encircledShare(clearPsf, size, r0, outer);
    const double obstructedCore = encircledShare(obstructedPsf, size, r0, outer);
    EXPECT_LT(obstructedCore, core - 0.2) << "clear " << core << ", obstructed " << obstructedCore;
    // The light goes to the rings: more of it between 1.5 and 4 Airy radii.
    const auto rings = [&](const std::vector<double>& t)
    { return encircledShare(t, size, 4.0 * r0, outer) - encircledShare(t, size, 1.5 * r0, outer); };
    EXPECT_GT(rings(obstructedPsf), 2.0 * rings(clearPsf));
}

/// Circular runs of angle bins (2 degrees each, counter-clockwise on screen from +x) whose light, summed over the
/// annulus 40..100 texels, exceeds ten times the median bin; the centre angle of each run in degrees.
std::vector<double> spikeAngles(const Texels& psf)
{
    constexpr int kBins = 180;
    std::vector<double> energy(kBins, 0.0);
    const int c = psf.width / 2;
    for (int y = 0; y < psf.height; ++y)
        for (int x = 0; x < psf.width; ++x)
        {
            const double r = std::hypot(x - c, y - c);
            if (r < 40.0 || r > 100.0)
                continue;
            double degrees = std::atan2(double(c - y), double(x - c)) * 180.0 / std::numbers::pi;
            degrees += degrees < 0.0 ? 360.0 : 0.0;
            energy[std::size_t(std::min(int(degrees / 2.0), kBins - 1))] += psf.at(x, y, 1);
        }
    std::vector<double> sorted = energy;
    std::nth_element(sorted.begin(), sorted.begin() + kBins / 2, sorted.end());
    const double threshold = 10.0 * sorted[kBins / 2];
    const auto above = [&](int i) { return energy[std::size_t((i + kBins) % kBins)] > threshold; };
    int start = 0;
    while (start < kBins && above(start))
        ++start; // begin outside a run, so a run across 0 degrees counts once
    std::vector<double> angles;
    for (int i = start; i < start + kBins; ++i)
        if (above(i) && !above(i - 1))
        {
            int end = i;
            while (above(end + 1))
                ++end;
            // Bins i..end span 2i..2(end + 1) degrees: the centre is at i + end + 1 degrees.
            angles.push_back(std::fmod(double(i + end + 1), 360.0));
        }
    return angles;
}

TEST(GeneratedPsf, BladesGiveNSpikesForEvenNAnd2NForOddN)
{
    for (const int blades : {3, 4, 5, 6, 7, 8})
    {
        PsfParams p = diffraction();
        p.sizeTexels = 256;
        p.aperture.blades = blades;
        const std::vector<double> angles = spikeAngles(generatePsf(p));
        const int expected = blades % 2 == 0 ? blades : 2 * blades;
        EXPECT_EQ(int(angles.size()), expected) << blades << " blades";
        // Each spike runs along an edge's normal: the edge normals are at 90 + (k + 1/2) 360 / N degrees and their
        // opposites (one tip at 90 degrees).
        for (const double a : angles)
        {
            double nearest = 360.0;
            for (int k = 0; k < 2 * blades; ++k)
            {
                const double normal = 90.0 + (k + 0.5) * 360.0 / blades + (k >= blades ? 180.0 : 0.0);
                const double d = std::abs(std::remainder(a - normal, 360.0));
                nearest = std::min(nearest, d);
            }
            EXPECT_LT(nearest, 1.5) << blades << " blades: a spike at " << a << " degrees";
        }
    }
}

TEST(GeneratedPsf, SpiderVanesGiveSpikesPerpendicularToThem)
{
    // A vane is a thin bar from the centre to the rim: its light goes into a spike pair perpendicular to it. Four
    // vanes make two bars through the centre (four spikes), three make six.
    for (const int vanes : {3, 4})
    {
        PsfParams p = diffraction();
        p.sizeTexels = 256;
        p.aperture.blades = 0;
        p.aperture.vanes = vanes;
        p.aperture.vaneWidth = 0.02;
        p.aperture.vaneAngleDeg = 10.0;
        const std::vector<double> angles = spikeAngles(generatePsf(p));
        EXPECT_EQ(int(angles.size()), vanes % 2 == 0 ? vanes : 2 * vanes) << vanes << " vanes";
        for (const double a : angles)
        {
            double nearest = 360.0;
            for (int k = 0; k < vanes; ++k)
                for (const double side : {90.0, 270.0})
                    nearest = std::min(nearest, std::abs(std::remainder(a - (10.0 + k * 360.0 / vanes + side), 360.0)));
            EXPECT_LT(nearest, 1.5) << vanes << " vanes: a spike at " << a << " degrees";
        }
    }
}

TEST(GeneratedPsf, LensFibresPutTheHaloAtItsRadiusRedOutside)
{
    // The fibres are a grating: first-order diffraction at lambda / period, chosen to fall at haloRadius of the half
    // size at 550 nm (64 texels here); longer wavelengths diffract farther, so the ring is red outside, blue inside.
    PsfParams p = diffraction();
    p.sizeTexels = 256;
    p.aperture.blades = 0;
    p.aperture.haloRadius = 0.5;
    const Texels clear = generatePsf(p);
    p.aperture.corona = 1.0;
    const Texels eye = generatePsf(p);
    double ringRadius[3] = {0.0, 0.0, 0.0};
    for (int ch = 0; ch < 3; ++ch)
    {
        // Where the eye's light exceeds the clear pupil's most, between 0.5 and 1.5 times the halo radius.
        std::vector<double> excess = channelPlane(eye, ch);
        const std::vector<double> base = channelPlane(clear, ch);
        for (std::size_t i = 0; i < excess.size(); ++i)
            excess[i] -= base[i];
        const std::vector<RadialSample> profile = radialProfile(excess, p.sizeTexels, 1.0, 100.0);
        double best = -1.0;
        for (const RadialSample& s : profile)
            if (s.radius >= 32.0 && s.radius <= 96.0 && s.value > best)
            {
                best = s.value;
                ringRadius[ch] = s.radius;
            }
    }
    EXPECT_NEAR(ringRadius[1], 64.0, 6.0) << "green halo radius, texels";
    EXPECT_GT(ringRadius[0], ringRadius[1]) << "red " << ringRadius[0] << ", green " << ringRadius[1];
    EXPECT_GT(ringRadius[1], ringRadius[2]) << "green " << ringRadius[1] << ", blue " << ringRadius[2];
}

TEST(GeneratedPsf, EachChannelSumsToOneWithThePeakAtTheCentre)
{
    PsfParams a = diffraction();
    a.sizeTexels = 64;
    PsfParams b = diffraction();
    b.sizeTexels = 128;
    b.airyRadiusTexels = 3.5;
    b.aperture.blades = 5;
    b.aperture.bladeRotationDeg = 13.0;
    b.aperture.bladeCurvature = 0.4;
    b.aperture.obstruction = 0.3;
    b.aperture.vanes = 3;
    b.aperture.dust = 40;
    b.aperture.scratches = 3;
    PsfParams c = diffraction();
    c.sizeTexels = 512;
    c.aperture.blades = 0;
    c.aperture.corona = 0.5;
    for (const PsfParams& p : {a, b, c})
    {
        const Texels psf = generatePsf(p);
        const int k = p.sizeTexels;
        ASSERT_EQ(psf.width, k);
        ASSERT_EQ(psf.height, k);
        ASSERT_EQ(psf.components, 3);
        for (int ch = 0; ch < 3; ++ch)
        {
            EXPECT_NEAR(channelSum(psf, ch), 1.0, 1e-5) << "size " << k << ", channel " << ch;
            int best = 0;
            for (int i = 0; i < k * k; ++i)
            {
                const float v = psf.values[std::size_t(i) * 3 + std::size_t(ch)];
                ASSERT_TRUE(std::isfinite(v) && v >= 0.0f) << "texel " << i;
                if (v > psf.values[std::size_t(best) * 3 + std::size_t(ch)])
                    best = i;
            }
            EXPECT_EQ(best % k, k / 2) << "size " << k << ", channel " << ch;
            EXPECT_EQ(best / k, k / 2) << "size " << k << ", channel " << ch;
        }
    }
}

TEST(GeneratedPsf, RedSpreadsWiderThanGreenThanBlue)
{
    // Diffraction angles grow with the wavelength: the second moment sum r^2 PSF is largest in red.
    for (const int blades : {0, 6})
    {
        PsfParams p = diffraction();
        p.sizeTexels = 256;
        p.aperture.blades = blades;
        const Texels psf = generatePsf(p);
        double moment[3] = {0.0, 0.0, 0.0};
        const int c = p.sizeTexels / 2;
        for (int y = 0; y < psf.height; ++y)
            for (int x = 0; x < psf.width; ++x)
                for (int ch = 0; ch < 3; ++ch)
                    moment[ch] += double((x - c) * (x - c) + (y - c) * (y - c)) * psf.at(x, y, ch);
        EXPECT_GT(moment[0], 1.1 * moment[2]) << blades << " blades: R " << moment[0] << ", B " << moment[2];
        EXPECT_GT(moment[0], moment[1]) << blades << " blades";
        EXPECT_GT(moment[1], moment[2]) << blades << " blades";
    }
}

TEST(GeneratedPsf, SameSeedSameTexelsOtherSeedOthers)
{
    PsfParams p = diffraction();
    p.sizeTexels = 128;
    p.aperture.dust = 60;
    p.aperture.scratches = 4;
    p.aperture.corona = 0.3;
    p.aperture.seed = 7;
    const Texels first = generatePsf(p);
    const Texels again = generatePsf(p);
    EXPECT_EQ(first.values, again.values);
    p.aperture.seed = 8;
    const Texels other = generatePsf(p);
    ASSERT_EQ(first.values.size(), other.values.size());
    std::size_t differing = 0;
    for (std::size_t i = 0; i < first.values.size(); ++i)
        differing += first.values[i] != other.values[i] ? 1 : 0;
    EXPECT_GT(differing, first.values.size() / 2) << "texels that changed with the seed";

    // Without random parts the seed changes nothing.
    PsfParams plain = diffraction();
    plain.sizeTexels = 64;
    const Texels one = generatePsf(plain);
    plain.aperture.seed = 99;
    EXPECT_EQ(one.values, generatePsf(plain).values);
}

TEST(GeneratedPsf, MirrorSymmetricApertureGivesAMirrorSymmetricPsf)
{
    // With a tip at 90 degrees a hexagon is symmetric about the vertical axis; so is its diffraction pattern.
    PsfParams p = diffraction();
    p.sizeTexels = 128;
    const Texels psf = generatePsf(p);
    const int k = p.sizeTexels;
    double worst = 0.0;
    for (int ch = 0; ch < 3; ++ch)
    {
        const float peak = psf.at(k / 2, k / 2, ch);
        for (int y = 0; y < k; ++y)
            for (int x = 1; x < k; ++x)
                worst = std::max(worst, double(std::abs(psf.at(x, y, ch) - psf.at(k - x, y, ch)) / peak));
    }
    EXPECT_LT(worst, 1e-6);
}

TEST(PsfParamsCheck, OutOfRangeValuesNameTheFieldAndTheOption)
{
    struct Case
    {
        std::function<void(PsfParams&)> change;
        const char* field;
        const char* option;
    };
    const Case cases[] = {
        {[](PsfParams& p) { p.sizeTexels = 32; }, "sizeTexels", "--size"},
        {[](PsfParams& p) { p.sizeTexels = 4096; }, "sizeTexels", "--size"},
        {[](PsfParams& p) { p.sizeTexels = 384; }, "sizeTexels", "--size"},
        {[](PsfParams& p) { p.airyRadiusTexels = 0.5; }, "airyRadiusTexels", "--airy-radius"},
        {[](PsfParams& p) { p.airyRadiusTexels = 65.0; }, "airyRadiusTexels", "--airy-radius"}, // size 512: 1..64
        {[](PsfParams& p) { p.airyRadiusTexels = std::nan(""); }, "airyRadiusTexels", "--airy-radius"},
        {[](PsfParams& p) { p.wavelengths = 15; }, "wavelengths", "--wavelengths"},
        {[](PsfParams& p) { p.monochromaticNm = 300.0; }, "monochromaticNm", "--monochromatic"},
        {[](PsfParams& p) { p.aperture.blades = 2; }, "aperture.blades", "--blades"},
        {[](PsfParams& p) { p.aperture.blades = 17; }, "aperture.blades", "--blades"},
        {[](PsfParams& p) { p.aperture.blades = -1; }, "aperture.blades", "--blades"},
        {[](PsfParams& p) { p.aperture.bladeRotationDeg = 400.0; }, "aperture.bladeRotationDeg", "--blade-rotation"},
        {[](PsfParams& p) { p.aperture.bladeCurvature = 1.5; }, "aperture.bladeCurvature", "--blade-curvature"},
        {[](PsfParams& p) { p.aperture.obstruction = 0.95; }, "aperture.obstruction", "--obstruction"},
        {[](PsfParams& p) { p.aperture.vanes = 9; }, "aperture.vanes", "--vanes"},
        {[](PsfParams& p) { p.aperture.vaneWidth = 0.2; }, "aperture.vaneWidth", "--vane-width"},
        {[](PsfParams& p) { p.aperture.vaneAngleDeg = -361.0; }, "aperture.vaneAngleDeg", "--vane-angle"},
        {[](PsfParams& p) { p.aperture.dust = -1; }, "aperture.dust", "--dust"},
        {[](PsfParams& p) { p.aperture.scratches = 201; }, "aperture.scratches", "--scratches"},
        {[](PsfParams& p) { p.aperture.corona = 2.0; }, "aperture.corona", "--corona"},
        {[](PsfParams& p) { p.aperture.haloRadius = 0.9; }, "aperture.haloRadius", "--halo-radius"},
    };
    for (const Case& c : cases)
    {
        PsfParams p = diffraction();
        c.change(p);
        std::string message = "no error";
        try
        {
            generatePsf(p);
        }
        catch (const HostError& e)
        {
            message = e.what();
        }
        EXPECT_NE(message.find(std::string(c.field) + " = "), std::string::npos) << message;
        EXPECT_NE(message.find(c.option), std::string::npos) << message;
    }
    EXPECT_NO_THROW(validatePsfParams(PsfParams{}));
    PsfParams edges = diffraction();
    edges.sizeTexels = 64;
    edges.airyRadiusTexels = 8.0;
    edges.aperture.blades = 16;
    edges.aperture.obstruction = 0.9;
    edges.aperture.vanes = 8;
    edges.monochromaticNm = 780.0;
    EXPECT_NO_THROW(validatePsfParams(edges));
}

TEST(PsfImage, WritesEveryParameterToTheExrHeader)
{
    PsfParams p = diffraction();
    p.sizeTexels = 64;
    p.airyRadiusTexels = 2.5;
    p.wavelengths = 20;
    p.aperture.blades = 7;
    p.aperture.bladeRotationDeg = -12.5;
    p.aperture.bladeCurvature = 0.25;
    p.aperture.obstruction = 0.2;
    p.aperture.vanes = 3;
    p.aperture.vaneWidth = 0.02;
    p.aperture.vaneAngleDeg = 45.0;
    p.aperture.dust = 12;
    p.aperture.scratches = 2;
    p.aperture.corona = 0.1;
    p.aperture.haloRadius = 0.3;
    p.aperture.seed = 4242;
    const Texels psf = generatePsf(p);
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("fftbloom_psf_generator_test_" + std::to_string(getpid()) + ".exr");
    writeExr(path.string(), psfImage(psf, p));
    const Image image = readImage(path.string());
    std::filesystem::remove(path);

    const std::pair<const char*, const char*> expected[] = {
        {"size", "64"},     {"airy-radius", "2.5"},      {"wavelengths", "20"},       {"monochromatic", "0"},
        {"blades", "7"},    {"blade-rotation", "-12.5"}, {"blade-curvature", "0.25"}, {"obstruction", "0.2"},
        {"vanes", "3"},     {"vane-width", "0.02"},      {"vane-angle", "45"},        {"dust", "12"},
        {"scratches", "2"}, {"corona", "0.1"},           {"halo-radius", "0.3"},      {"seed", "4242"},
    };
    for (const auto& [flag, value] : expected)
    {
        const std::string name = std::string("fftbloom.psf.") + flag;
        const auto it = std::find_if(image.layout.attributes.begin(), image.layout.attributes.end(),
                                     [&](const Attribute& a) { return a.name == name; });
        ASSERT_NE(it, image.layout.attributes.end()) << name;
        EXPECT_EQ(it->type, "string") << name;
        EXPECT_EQ(std::string(it->value.begin(), it->value.end()), value) << name;
    }
    ASSERT_EQ(image.width, 64);
    ASSERT_EQ(image.height, 64);
    const Texels back = toRgba(image);
    for (int y = 0; y < 64; ++y)
        for (int x = 0; x < 64; ++x)
            for (int c = 0; c < 3; ++c)
                ASSERT_EQ(back.at(x, y, c), psf.at(x, y, c)) << x << ", " << y << ", " << c;
}

TEST(GeneratedAperture, HasTheAreaOfItsShape)
{
    // The transmission sums to the shape's area in samples: a hexagon inscribed in a circle of radius R has area
    // (3 sqrt(3) / 2) R^2; an obstruction of ratio eps removes pi (eps R)^2.
    PsfParams p = diffraction();
    p.sizeTexels = 256;
    p.aperture.obstruction = 0.3;
    const Texels aperture = generateAperture(p);
    const double radius = psfSampling(p).apertureDiameterSamples / 2.0;
    double area = 0.0;
    for (const float v : aperture.values)
        area += v;
    const double expected = (1.5 * std::sqrt(3.0) - std::numbers::pi * 0.09) * radius * radius;
    EXPECT_NEAR(area / expected, 1.0, 0.002);
}

TEST(PupilTest, MoonAndSpencerDiameterAndTheAiryRadiusItGives)
{
    // D = 4.9 - 3 tanh(0.4 (log10 L + 1)) mm: 4.9 at 0.1 cd/m^2, 7.9 and 1.9 in the limits; tanh(1.2) = 0.83365460701.
    EXPECT_NEAR(pupilDiameterMm(0.1), 4.9, 1e-12);
    EXPECT_NEAR(pupilDiameterMm(100.0), 4.9 - 3.0 * 0.8336546070121552, 1e-12);
    EXPECT_NEAR(pupilDiameterMm(1e-12), 7.9, 1e-3);
    EXPECT_NEAR(pupilDiameterMm(1e12), 1.9, 1e-3);
    for (double l = 1e-4; l < 1e6; l *= 10.0)
        EXPECT_GT(pupilDiameterMm(l), pupilDiameterMm(l * 10.0)) << l;
    // The Airy radius 1.22 lambda / D: as set at 100 cd/m^2, smaller for the wider, dark-adapted pupil.
    EXPECT_DOUBLE_EQ(pupilAiryRadius(2.0, 100.0), 2.0);
    EXPECT_NEAR(pupilAiryRadius(2.0, 0.1), 2.0 * pupilDiameterMm(100.0) / 4.9, 1e-12);
    EXPECT_LT(pupilAiryRadius(2.0, 1.0), 2.0);
    EXPECT_GT(pupilAiryRadius(2.0, 10000.0), 2.0);
}

/// The light of channel `c` along the row through the centre, from the centre texel to the right border.
std::vector<double> spikeProfile(const Texels& psf, int c)
{
    std::vector<double> v;
    for (int x = psf.width / 2; x < psf.width; ++x)
        v.push_back(psf.at(x, psf.height / 2, c));
    return v;
}

// The six-blade PSF's horizontal spikes run out to the border at an Airy radius of K / 128 (the default 2 at K = 256):
// faded, they end before the kernel's square (its border ring at most 1e-5 of the peak) without a step: the largest
// step between neighbours in the outer quarter, the border's step to the 0 beyond it included, is at most 0.4 of the
// spike's own (its decay and fringes) in the 16 texels just inside it. Unfaded they stop at the border: the same
// checks fail.
TEST(GeneratedPsf, DefaultFadesToZeroBeforeTheBorderWithoutAStep)
{
    const int k = 128;
    PsfParams faded;
    faded.sizeTexels = k;
    faded.airyRadiusTexels = 1.0;
    PsfParams unfaded = faded;
    unfaded.fade = 0.0;
    for (const PsfParams& p : {faded, unfaded})
    {
        const bool fades = p.fade > 0.0;
        SCOPED_TRACE(fades ? "faded" : "unfaded");
        const Texels psf = generatePsf(p);
        for (int c = 0; c < 3; ++c)
        {
            double peak = 0.0, border = 0.0;
            for (int y = 0; y < k; ++y)
                for (int x = 0; x < k; ++x)
                {
                    peak = std::max(peak, double(psf.at(x, y, c)));
                    if (x == 0 || y == 0 || x == k - 1 || y == k - 1)
                        border = std::max(border, double(psf.at(x, y, c)));
                }
            std::vector<double> spike = spikeProfile(psf, c);
            spike.push_back(0.0);
            const std::size_t start = std::size_t(0.75 * (k / 2 - 1));
            const auto largestStep = [&](std::size_t from, std::size_t to)
            {
                double step = 0.0;
                for (std::size_t r = from; r < to; ++r)
                    step = std::max(step, std::abs(spike[r + 1] - spike[r]));
                return step;
            };
            const double inside = largestStep(start - 16, start), outer = largestStep(start, spike.size() - 1);
            std::printf("%s channel %d: border %.2e of the peak; largest step in the outer quarter %.3f of the spike's "
                        "own just inside it\n",
                        fades ? "faded" : "unfaded", c, border / peak, outer / inside);
            if (fades)
            {
                EXPECT_LE(border, 1e-5 * peak) << "channel " << c;
                EXPECT_LE(outer, 0.4 * inside) << "channel " << c;
            }
            else
            {
                EXPECT_GT(border, 1e-6 * peak) << "channel " << c;
                EXPECT_GT(outer, 0.4 * inside) << "channel " << c;
            }
        }
    }
}

// The glare takes its share of each channel's light as Spencer et al. 1995's photopic scatter, 0.478 f1 + 0.138 f2
// (f1 = 20.91 / (theta + 0.02)^3, f2 = 72.37 / (theta + 0.02)^2, theta in degrees; 1.2197 lambda / 3 mm per Airy
// radius), tapered by 0.5 + 0.5 cos(pi rho) over the kernel's radius: with and without glare, the difference is that
// profile, the same in R, G and B, summing to the share.
TEST(GeneratedPsf, GlareTakesItsShareAsSpencersPhotopicScatter)
{
    const int k = 64;
    const double share = 0.4, airy = 2.0;
    PsfParams plain = diffraction();
    plain.sizeTexels = k;
    plain.airyRadiusTexels = airy;
    PsfParams glaring = plain;
    glaring.glare = share;
    const Texels a = generatePsf(plain), b = generatePsf(glaring);
    const double degreesPerTexel = kJ1FirstZero / std::numbers::pi * 550e-9 / 3e-3 * 180.0 / std::numbers::pi / airy;
    std::vector<double> expected(std::size_t(k) * k);
    double total = 0.0;
    for (int y = 0; y < k; ++y)
        for (int x = 0; x < k; ++x)
        {
            const double r = std::hypot(x - k / 2, y - k / 2), rho = r / (k / 2 - 1);
            const double t = r * degreesPerTexel + 0.02;
            // 1 out to half the radius, then a raised cosine to 0 at it (psfFade(rho, 1/2)).
            const double taper = rho <= 0.5  ? 1.0
                                 : rho < 1.0 ? 0.5 + 0.5 * std::cos(2.0 * std::numbers::pi * (rho - 0.5))
                                             : 0.0;
            expected[std::size_t(y) * k + x] = taper * (0.478 * 20.91 / (t * t * t) + 0.138 * 72.37 / (t * t));
            total += expected[std::size_t(y) * k + x];
        }
    double worst = 0.0;
    for (int c = 0; c < 3; ++c)
    {
        double sum = 0.0;
        for (int y = 0; y < k; ++y)
            for (int x = 0; x < k; ++x)
            {
                const double glare = double(b.at(x, y, c)) - (1.0 - share) * double(a.at(x, y, c));
                const double want = share * expected[std::size_t(y) * k + x] / total;
                worst = std::max(worst,
                                 std::abs(glare - want) / (share * expected[std::size_t(k / 2) * k + k / 2] / total));
                sum += glare;
            }
        EXPECT_NEAR(sum, share, 1e-5) << "channel " << c;
    }
    EXPECT_LE(worst, 1e-5) << "of the glare's peak";
}

} // namespace
} // namespace fftb
