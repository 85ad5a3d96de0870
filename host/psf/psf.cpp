// SPDX-License-Identifier: MIT
// Point spread functions: loading, resampling and per-channel normalization.
#include "psf/psf.h"

#include "host_error.h"
#include "image/image_io.h"
#include "psf_model.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace fftb
{
namespace
{

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

Texels loadPsf(const std::string& path)
{
    return psfFromImage(readImage(path));
}

Texels psfFromImage(const Image& image)
{
    const Texels rgba = toRgba(image);
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

void fadePsf(Texels& psf, double fade)
{
    if (fade <= 0.0)
        return;
    const int reachX = (psf.width - 1) / 2, reachY = (psf.height - 1) / 2;
    for (int y = 0; y < psf.height; ++y)
        for (int x = 0; x < psf.width; ++x)
        {
            const double w = psfFade(psfRadius(x - psf.width / 2, y - psf.height / 2, reachX, reachY), fade);
            for (int c = 0; c < psf.components; ++c)
                psf.at(x, y, c) = float(psf.at(x, y, c) * w);
        }
}

double outerRingEnergy(const Texels& psf)
{
    const int reachX = (psf.width - 1) / 2, reachY = (psf.height - 1) / 2;
    double outer = 0.0, total = 0.0;
    for (int y = 0; y < psf.height; ++y)
        for (int x = 0; x < psf.width; ++x)
        {
            double v = 0.0;
            for (int c = 0; c < psf.components; ++c)
                v += psf.at(x, y, c);
            total += v;
            if (psfRadius(x - psf.width / 2, y - psf.height / 2, reachX, reachY) > 0.95)
                outer += v;
        }
    return total > 0.0 ? outer / total : 0.0;
}

KernelFile loadKernelFile(const std::string& path, int sizeTexels, double fade)
{
    return kernelFromPsf(path, loadPsf(path), sizeTexels, fade);
}

KernelFile kernelFromPsf(const std::string& name, Texels psf, int sizeTexels, double fade)
{
    KernelFile kernel;
    kernel.fileWidth = psf.width;
    kernel.fileHeight = psf.height;
    if (const double outer = outerRingEnergy(psf); fade <= 0.0 && outer > kOuterRingWarning)
    {
        char share[32];
        std::snprintf(share, sizeof share, "%.2g", 100.0 * outer);
        kernel.warning = name + ": " + share +
                         " % of its light lies in its outer ring (beyond 0.95 of its radius) "
                         "and stops at the kernel's square; kernel-fade (e.g. 0.25) fades it out";
    }
    try
    {
        checkPsfTexels(psf); // before resampling, which would average a negative texel away
        kernel.texels =
            psf.width == sizeTexels && psf.height == sizeTexels ? std::move(psf) : resamplePsf(psf, sizeTexels);
        fadePsf(kernel.texels, fade);
        normalizePsf(kernel.texels);
    }
    catch (const HostError& e)
    {
        throw HostError(name + ": " + e.what());
    }
    return kernel;
}

void checkPsfTexels(const Texels& psf)
{
    for (int y = 0; y < psf.height; ++y)
        for (int x = 0; x < psf.width; ++x)
            for (int c = 0; c < psf.components; ++c)
            {
                const float v = psf.at(x, y, c);
                if (!std::isfinite(v) || v < 0.0f)
                    throw HostError("kernel: texel (" + std::to_string(x) + ", " + std::to_string(y) + ") channel " +
                                    channelName(c) + " is " + format(v) + ", not a finite non-negative value");
            }
}

void normalizePsf(Texels& psf)
{
    const int components = psf.components;
    if (components <= 0)
        throw HostError("kernel: no channels");
    checkPsfTexels(psf);
    std::vector<double> sums(components, 0.0);
    for (int y = 0; y < psf.height; ++y)
        for (int x = 0; x < psf.width; ++x)
            for (int c = 0; c < components; ++c)
                sums[c] += psf.at(x, y, c);
    for (int c = 0; c < components; ++c)
        if (!std::isfinite(sums[c]) || !(sums[c] > 0.0))
            throw HostError("kernel: channel " + channelName(c) + " sums to " + format(sums[c]));
    for (int y = 0; y < psf.height; ++y)
        for (int x = 0; x < psf.width; ++x)
            for (int c = 0; c < components; ++c)
                psf.at(x, y, c) = float(psf.at(x, y, c) / sums[c]);
}

} // namespace fftb
