// SPDX-License-Identifier: MIT
// Double-precision CPU reference of the bloom convolution: linear (FFTW, no wrap-around) and the GPU's spectral math.
#include "reference.h"

#include "host_error.h"

#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <numbers>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace fftb
{
namespace
{

struct FftwFree
{
    void operator()(void* p) const { fftw_free(p); }
};
using RealBuffer = std::unique_ptr<double[], FftwFree>;
using ComplexBuffer = std::unique_ptr<fftw_complex[], FftwFree>;

RealBuffer allocReal(std::size_t count)
{
    auto* p = static_cast<double*>(fftw_malloc(sizeof(double) * count));
    if (!p)
        throw HostError("reference: out of host memory");
    return RealBuffer(p);
}

ComplexBuffer allocComplex(std::size_t count)
{
    auto* p = static_cast<fftw_complex*>(fftw_malloc(sizeof(fftw_complex) * count));
    if (!p)
        throw HostError("reference: out of host memory");
    return ComplexBuffer(p);
}

class FftwPlan
{
  public:
    explicit FftwPlan(fftw_plan plan) : plan_(plan)
    {
        if (!plan_)
            throw HostError("reference: FFTW could not plan the transform");
    }
    FftwPlan(const FftwPlan&) = delete;
    FftwPlan& operator=(const FftwPlan&) = delete;
    ~FftwPlan() { fftw_destroy_plan(plan_); }
    void execute() const { fftw_execute(plan_); }

  private:
    fftw_plan plan_;
};

/// A 2D real-to-complex / complex-to-real pair of width x height (x contiguous), sharing one real and one
/// half-spectrum buffer, so every channel reuses the same plans.
struct RealTransform2d
{
    int width;
    int height;
    int halfWidth;
    RealBuffer real;
    ComplexBuffer spectrum;
    FftwPlan forward;
    FftwPlan inverse;

    RealTransform2d(int w, int h)
        : width(w), height(h), halfWidth(w / 2 + 1), real(allocReal(std::size_t(w) * h)),
          spectrum(allocComplex(std::size_t(halfWidth) * h)),
          // FFTW_ESTIMATE leaves the buffers untouched while planning; MEASURE would overwrite them.
          forward(fftw_plan_dft_r2c_2d(h, w, real.get(), spectrum.get(), FFTW_ESTIMATE)),
          inverse(fftw_plan_dft_c2r_2d(h, w, spectrum.get(), real.get(), FFTW_ESTIMATE))
    {
    }

    std::size_t texels() const { return std::size_t(width) * height; }
    std::size_t bins() const { return std::size_t(halfWidth) * height; }
};

void checkInputs(const Texels& frame, const Texels& kernel)
{
    if (frame.width <= 0 || frame.height <= 0 || frame.components < 3)
        throw HostError("reference: frame must be non-empty with 3 or 4 components");
    if (kernel.width <= 0 || kernel.height <= 0 || (kernel.components != 1 && kernel.components < 3))
        throw HostError("reference: kernel must be non-empty with 1, 3 or 4 components");
    if (frame.values.size() != std::size_t(frame.width) * frame.height * frame.components ||
        kernel.values.size() != std::size_t(kernel.width) * kernel.height * kernel.components)
        throw HostError("reference: texel count does not match the extent");
}

/// A one-component kernel applies to all three colour channels.
int kernelComponent(const Texels& kernel, int c)
{
    return kernel.components == 1 ? 0 : c;
}

int64_t floorMod(int64_t a, int64_t m)
{
    const int64_t r = a % m;
    return r < 0 ? r + m : r;
}

/// Reads the image along one axis at any integer position under the padding rule of referenceConvolution.
int64_t linearSource(int64_t q, int length, FftbPadding padding)
{
    if (q >= 0 && q < length)
        return q;
    if (padding != FFTB_PADDING_MIRROR)
        return -1;
    // GL_MIRRORED_REPEAT, written out here rather than shared with the planner so the two stay independent.
    const int64_t m = floorMod(q, 2 * int64_t(length));
    return m < length ? m : 2 * int64_t(length) - 1 - m;
}

} // namespace

Texels referenceConvolution(const Texels& frame, const Texels& kernel, FftbPadding padding)
{
    checkInputs(frame, kernel);
    const int w = frame.width, h = frame.height;
    const int kw = kernel.width, kh = kernel.height;
    const int cx = kw / 2, cy = kh / 2;
    // out(p) = sum_j k(j) in(p - j + c) reads in(q) for q in [-(K-1-c), L-1+c]: L + K - 1 samples per axis. With
    // the kernel at [0, K), a circular convolution of that length has no wrap-around at n = p + K - 1.
    const int mw = w + kw - 1, mh = h + kh - 1;
    const int beforeX = kw - 1 - cx, beforeY = kh - 1 - cy;

    RealTransform2d image(mw, mh);
    RealTransform2d psf(mw, mh);
    std::vector<int64_t> srcX(mw), srcY(mh);
    for (int m = 0; m < mw; ++m)
        srcX[m] = linearSource(int64_t(m) - beforeX, w, padding);
    for (int m = 0; m < mh; ++m)
        srcY[m] = linearSource(int64_t(m) - beforeY, h, padding);

    Texels out(w, h, 3);
    const double scale = 1.0 / double(image.texels());
    for (int c = 0; c < 3; ++c)
    {
        for (int y = 0; y < mh; ++y)
            for (int x = 0; x < mw; ++x)
                image.real[std::size_t(y) * mw + x] =
                    (srcX[x] < 0 || srcY[y] < 0) ? 0.0 : double(frame.at(int(srcX[x]), int(srcY[y]), c));
        std::fill_n(psf.real.get(), psf.texels(), 0.0);
        for (int y = 0; y < kh; ++y)
            for (int x = 0; x < kw; ++x)
                psf.real[std::size_t(y) * mw + x] = double(kernel.at(x, y, kernelComponent(kernel, c)));
        image.forward.execute();
        psf.forward.execute();
        for (std::size_t i = 0; i < image.bins(); ++i)
        {
            const std::complex<double> a(image.spectrum[i][0], image.spectrum[i][1]);
            const std::complex<double> b(psf.spectrum[i][0], psf.spectrum[i][1]);
            const std::complex<double> p = a * b;
            image.spectrum[i][0] = p.real();
            image.spectrum[i][1] = p.imag();
        }
        image.inverse.execute();
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                out.at(x, y, c) = float(image.real[std::size_t(y + kh - 1) * mw + std::size_t(x + kw - 1)] * scale);
    }
    return out;
}

namespace
{

/// The half spectrum of a real S1 x S2 array, readable at any integer frequency through Hermitian symmetry.
struct HalfSpectrum
{
    const RealTransform2d& t;

    std::complex<double> at(int64_t kx, int64_t ky) const
    {
        int64_t x = floorMod(kx, t.width), y = floorMod(ky, t.height);
        bool conjugate = false;
        if (x >= t.halfWidth)
        {
            // X(-k) = conj(X(k)) for a real signal.
            x = t.width - x;
            y = floorMod(-y, t.height);
            conjugate = true;
        }
        const fftw_complex& v = t.spectrum[std::size_t(y) * t.halfWidth + std::size_t(x)];
        return conjugate ? std::complex<double>(v[0], -v[1]) : std::complex<double>(v[0], v[1]);
    }

    /// Bilinear (tent) interpolation at continuous frequency (u, v), periodic in S: the sampling rule of the
    /// resampled spectrum mode ("FFT Bloom Optimized to the Bone"). Symmetric under (u, v) -> (-u, -v), so it keeps
    /// Hermitian symmetry.
    std::complex<double> bilinear(double u, double v) const
    {
        const double fu = std::floor(u), fv = std::floor(v);
        const double tu = u - fu, tv = v - fv;
        const auto iu = int64_t(fu), iv = int64_t(fv);
        return (1.0 - tv) * ((1.0 - tu) * at(iu, iv) + tu * at(iu + 1, iv)) +
               tv * ((1.0 - tu) * at(iu, iv + 1) + tu * at(iu + 1, iv + 1));
    }

    /// Keys' cubic convolution (1981, a = -1/2) at continuous frequency (u, v), periodic in S: the sum over the
    /// 4 x 4 bins within distance 2 of keysWeight(u - i) keysWeight(v - j) X(i, j). Symmetric like bilinear.
    std::complex<double> cubic(double u, double v) const
    {
        const auto iu = int64_t(std::floor(u)), iv = int64_t(std::floor(v));
        std::complex<double> sum = 0.0;
        for (int64_t j = iv - 1; j <= iv + 2; ++j)
        {
            std::complex<double> row = 0.0;
            for (int64_t i = iu - 1; i <= iu + 2; ++i)
                row += keysWeight(u - double(i)) * at(i, j);
            sum += keysWeight(v - double(j)) * row;
        }
        return sum;
    }

    static double keysWeight(double t)
    {
        constexpr double a = -0.5;
        t = std::abs(t);
        if (t <= 1.0)
            return ((a + 2.0) * t - (a + 3.0)) * t * t + 1.0;
        if (t < 2.0)
            return ((a * t - 5.0 * a) * t + 8.0 * a) * t - 4.0 * a;
        return 0.0;
    }

    std::complex<double> interpolate(double u, double v, FftbSpectrumInterpolation interpolation) const
    {
        return interpolation == FFTB_SPECTRUM_INTERPOLATION_CUBIC ? cubic(u, v) : bilinear(u, v);
    }
};

/// The kernel's own spectrum, its DTFT K(fx, fy) = sum over texels of k(x, y) exp(-2 pi i (fx (x - cx) + fy (y - cy))),
/// at every pair of the frequencies fx[a], fy[b] (cycles per texel): what the ES interpolation with deapodization
/// approximates. Separable: K1 K2 |fx| operations up front, K2 per value.
class KernelDtft
{
  public:
    KernelDtft(const Texels& kernel, int channel, int64_t cx, int64_t cy, const std::vector<double>& fx,
               const std::vector<double>& fy)
        : height_(std::size_t(kernel.height)), columns_(fx.size()), rows_(height_ * columns_),
          phasesY_(fy.size() * height_)
    {
        const int component = kernelComponent(kernel, channel);
        for (std::size_t a = 0; a < fx.size(); ++a)
        {
            std::vector<std::complex<double>> phase(std::size_t(kernel.width));
            for (int x = 0; x < kernel.width; ++x)
                phase[std::size_t(x)] = std::polar(1.0, -2.0 * std::numbers::pi * fx[a] * double(x - cx));
            for (int y = 0; y < kernel.height; ++y)
            {
                std::complex<double> sum = 0.0;
                for (int x = 0; x < kernel.width; ++x)
                    sum += double(kernel.at(x, y, component)) * phase[std::size_t(x)];
                rows_[std::size_t(y) * columns_ + a] = sum;
            }
        }
        for (std::size_t b = 0; b < fy.size(); ++b)
            for (int y = 0; y < kernel.height; ++y)
                phasesY_[b * height_ + std::size_t(y)] =
                    std::polar(1.0, -2.0 * std::numbers::pi * fy[b] * double(y - cy));
    }

    std::complex<double> at(std::size_t a, std::size_t b) const
    {
        std::complex<double> sum = 0.0;
        for (std::size_t y = 0; y < height_; ++y)
            sum += phasesY_[b * height_ + y] * rows_[y * columns_ + a];
        return sum;
    }

  private:
    std::size_t height_, columns_;
    std::vector<std::complex<double>> rows_;    ///< [y][a]: each row's transform at fx[a]
    std::vector<std::complex<double>> phasesY_; ///< [b][y]
};

/// Signed frequency of DFT bin i of length n, in [-n/2, n/2).
int64_t signedFrequency(int64_t i, int64_t n)
{
    return i < n - n / 2 ? i : i - n;
}

} // namespace

double referenceWrappedConvolutionAt(PlaneView frame, PlaneView kernel, uint32_t paddedWidth, uint32_t paddedHeight,
                                     uint32_t x, uint32_t y)
{
    const auto cx = int64_t(kernel.width / 2), cy = int64_t(kernel.height / 2);
    const auto wp = int64_t(paddedWidth), hp = int64_t(paddedHeight);
    double sum = 0.0;
    for (int64_t jy = 0; jy < int64_t(kernel.height); ++jy)
        for (int64_t jx = 0; jx < int64_t(kernel.width); ++jx)
        {
            const int64_t qx = ((int64_t(x) - jx + cx) % wp + wp) % wp;
            const int64_t qy = ((int64_t(y) - jy + cy) % hp + hp) % hp;
            if (qx >= int64_t(frame.width) || qy >= int64_t(frame.height))
                continue; // zero padding
            sum += kernel.values[size_t(jy) * kernel.width + size_t(jx)] *
                   frame.values[size_t(qy) * frame.width + size_t(qx)];
        }
    return sum;
}

Texels referenceSpectralConvolution(const Texels& frame, const Texels& kernel, const Plan& plan, double sharpen,
                                    FftbSpectrumInterpolation interpolation)
{
    checkInputs(frame, kernel);
    const AxisPlan& ax = plan.firstAxisIsX ? plan.first : plan.second;
    const AxisPlan& ay = plan.firstAxisIsX ? plan.second : plan.first;
    const int w = frame.width, h = frame.height;
    if (ax.imageLength != uint32_t(w) || ay.imageLength != uint32_t(h) || ax.kernelLength != uint32_t(kernel.width) ||
        ay.kernelLength != uint32_t(kernel.height))
        throw HostError("reference: plan extents do not match the frame and kernel");
    if (ax.paddedLength < uint32_t(w) || ay.paddedLength < uint32_t(h) || ax.spectrumLength == 0 ||
        ay.spectrumLength == 0)
        throw HostError("reference: plan has a padded or spectrum length too small");
    const int nx = int(ax.paddedLength), ny = int(ay.paddedLength);
    const int sx = int(ax.spectrumLength), sy = int(ay.spectrumLength);
    const auto cx = int64_t(ax.kernelCentre), cy = int64_t(ay.kernelCentre);
    const double sigma = plan.kernelScale;
    if (!(sigma > 0.0) || !std::isfinite(sigma) || (sigma != 1.0 && plan.spectrum == FFTB_SPECTRUM_MODE_EXACT))
        throw HostError("reference: the kernel scale must be finite, > 0, and 1 in exact mode");

    RealTransform2d image(nx, ny);
    RealTransform2d psf(sx, sy);
    std::vector<int64_t> srcX(nx), srcY(ny);
    for (int p = 0; p < nx; ++p)
        srcX[p] = paddedSource(uint32_t(p), ax, plan.padding);
    for (int p = 0; p < ny; ++p)
        srcY[p] = paddedSource(uint32_t(p), ay, plan.padding);

    Texels out(w, h, 3);
    const double scale = 1.0 / double(image.texels());
    const HalfSpectrum kernelSpectrum{psf};
    // ES: the frequencies the DTFT is read at, cycles per texel: each half-spectrum column and each row, then the
    // other side of an even length's Nyquist bin.
    std::vector<double> fx(std::size_t(image.halfWidth) + 1), fy(std::size_t(ny) + 1);
    for (int ix = 0; ix < image.halfWidth; ++ix)
        fx[std::size_t(ix)] = sigma * double(signedFrequency(ix, nx)) / nx;
    for (int iy = 0; iy < ny; ++iy)
        fy[std::size_t(iy)] = sigma * double(signedFrequency(iy, ny)) / ny;
    fx.back() = -fx[std::size_t(nx / 2)];
    fy.back() = -fy[std::size_t(ny / 2)];
    for (int c = 0; c < 3; ++c)
    {
        std::optional<KernelDtft> dtft;
        if (interpolation == FFTB_SPECTRUM_INTERPOLATION_ES)
            dtft.emplace(kernel, c, cx, cy, fx, fy);
        for (int y = 0; y < ny; ++y)
            for (int x = 0; x < nx; ++x)
                image.real[std::size_t(y) * nx + x] =
                    (srcX[x] < 0 || srcY[y] < 0) ? 0.0 : double(frame.at(int(srcX[x]), int(srcY[y]), c));
        // Accumulating (not overwriting) keeps a kernel longer than S exact: it is the S-periodic sum of the
        // kernel, whose DFT samples the kernel's continuous spectrum at multiples of 1/S.
        std::fill_n(psf.real.get(), psf.texels(), 0.0);
        for (int y = 0; y < kernel.height; ++y)
            for (int x = 0; x < kernel.width; ++x)
                psf.real[std::size_t(floorMod(y - cy, sy)) * sx + std::size_t(floorMod(x - cx, sx))] +=
                    double(kernel.at(x, y, kernelComponent(kernel, c)));
        image.forward.execute();
        psf.forward.execute();
        for (int iy = 0; iy < ny; ++iy)
        {
            const double v = sigma * double(signedFrequency(iy, ny)) * sy / ny;
            for (int ix = 0; ix < image.halfWidth; ++ix)
            {
                const double u = sigma * double(signedFrequency(ix, nx)) * sx / nx;
                // The scaled kernel k(x / sigma) / sigma^2 has the spectrum K(sigma f): one period of the
                // interpolated spectrum, zero past its Nyquist (a band-limited kernel, not a periodic one). An even
                // length's Nyquist bin is the frequency +N/2 and -N/2 at once: the mean of the two readings (they
                // differ once sigma != 1) keeps the response Hermitian.
                const int sidesX = 2 * ix == nx ? 2 : 1, sidesY = 2 * iy == ny ? 2 : 1;
                std::complex<double> sampled = 0.0;
                for (int i = 0; i < sidesX; ++i)
                    for (int j = 0; j < sidesY; ++j)
                    {
                        const double uu = i == 0 ? u : -u, vv = j == 0 ? v : -v;
                        if (2.0 * std::abs(uu) > sx || 2.0 * std::abs(vv) > sy)
                            continue;
                        sampled += dtft ? dtft->at(i == 0 ? std::size_t(ix) : fx.size() - 1,
                                                   j == 0 ? std::size_t(iy) : fy.size() - 1)
                                        : kernelSpectrum.interpolate(uu, vv, interpolation);
                    }
                sampled /= double(sidesX * sidesY);
                const std::complex<double> response = (1.0 - sharpen) * sampled + sharpen;
                fftw_complex& f = image.spectrum[std::size_t(iy) * image.halfWidth + ix];
                const std::complex<double> product = std::complex<double>(f[0], f[1]) * response;
                f[0] = product.real();
                f[1] = product.imag();
            }
        }
        // The product is Hermitian (see bilinear and cubic), so the complex-to-real inverse is the whole real part.
        image.inverse.execute();
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                out.at(x, y, c) = float(image.real[std::size_t(y) * nx + x] * scale);
    }
    return out;
}

void referencePrefilter(const double rgb[3], const Prefilter& prefilter, double out[3])
{
    const double threshold = prefilter.threshold, knee = prefilter.knee, cap = prefilter.clamp;
    double weight = 1.0;
    if (threshold > 0.0)
    {
        const double brightness = std::max({rgb[0], rgb[1], rgb[2]});
        // The soft knee: a parabola from 0 at b = T - k to (b - T) with slope 1 at b = T + k.
        const double t = std::clamp(brightness - threshold + knee, 0.0, 2.0 * knee);
        const double quadratic = t * t / (4.0 * knee + 1e-5);
        weight = std::max(quadratic, brightness - threshold) / std::max(brightness, 1e-5);
    }
    for (int c = 0; c < 3; ++c)
        out[c] = rgb[c] * weight;
    const double peak = std::max({out[0], out[1], out[2]});
    if (cap > 0.0 && peak > cap)
        for (int c = 0; c < 3; ++c)
            out[c] *= cap / peak;
}

double referenceMaskWeight(double alpha, FftbSourceMask mask)
{
    if (mask == FFTB_SOURCE_MASK_NONE)
        return 1.0;
    const double m = alpha >= 0.0 ? std::min(alpha, 1.0) : 0.0;
    return mask == FFTB_SOURCE_MASK_ONE_MINUS_ALPHA ? 1.0 - m : m;
}

Texels referencePrefilter(const Texels& frame, const Prefilter& prefilter)
{
    if (frame.components < 3)
        throw HostError("reference: frame must have 3 or 4 components");
    Texels out = frame;
    const std::size_t texels = std::size_t(frame.width) * std::size_t(frame.height);
    for (std::size_t i = 0; i < texels; ++i)
    {
        const std::size_t base = i * std::size_t(frame.components);
        const double rgb[3] = {frame.values[base], frame.values[base + 1], frame.values[base + 2]};
        double p[3];
        referencePrefilter(rgb, prefilter, p);
        const double m = referenceMaskWeight(frame.components == 4 ? frame.values[base + 3] : 1.0, prefilter.mask);
        for (int c = 0; c < 3; ++c)
            out.values[base + c] = float(m * p[c]);
    }
    return out;
}

Texels referenceScaledKernel(const Texels& kernel, double sigma, int width, int height)
{
    if (kernel.components < 3 || !(sigma > 0.0) || width < 1 || height < 1)
        throw HostError("reference: a scaled kernel needs 3 components, sigma > 0 and a non-empty extent");
    // weights[d * K + x]: the share of source texel x that lands on placed texel d, each column summing to 1.
    const auto weightsOf = [sigma](int sourceLength, int placedLength)
    {
        const double reach = std::max(sigma, 1.0);
        std::vector<double> weights(std::size_t(placedLength) * sourceLength, 0.0);
        for (int x = 0; x < sourceLength; ++x)
        {
            const double q = sigma * (x - sourceLength / 2);
            double sum = 0.0;
            for (int d = 0; d < placedLength; ++d)
            {
                const double w = std::max(0.0, 1.0 - std::abs(d - placedLength / 2 - q) / reach);
                weights[std::size_t(d) * sourceLength + x] = w;
                sum += w;
            }
            for (int d = 0; d < placedLength && sum > 0.0; ++d)
                weights[std::size_t(d) * sourceLength + x] /= sum;
        }
        return weights;
    };
    const std::vector<double> wx = weightsOf(kernel.width, width), wy = weightsOf(kernel.height, height);
    Texels out(width, height, 3);
    std::vector<double> rows(std::size_t(kernel.height) * width); // x scaled, y not yet
    for (int c = 0; c < 3; ++c)
    {
        for (int y = 0; y < kernel.height; ++y)
            for (int d = 0; d < width; ++d)
            {
                double sum = 0.0;
                for (int x = 0; x < kernel.width; ++x)
                    sum += wx[std::size_t(d) * kernel.width + x] * kernel.at(x, y, c);
                rows[std::size_t(y) * width + d] = sum;
            }
        for (int e = 0; e < height; ++e)
            for (int d = 0; d < width; ++d)
            {
                double sum = 0.0;
                for (int y = 0; y < kernel.height; ++y)
                    sum += wy[std::size_t(e) * kernel.height + y] * rows[std::size_t(y) * width + d];
                out.at(d, e, c) = float(sum);
            }
    }
    return out;
}

Texels referenceDownsample(const Texels& frame, int reduction)
{
    if (frame.components < 3)
        throw HostError("reference: frame must have 3 or more components");
    const int f = reduction;
    Texels out((frame.width + f - 1) / f, (frame.height + f - 1) / f, 3);
    for (int y = 0; y < out.height; ++y)
        for (int x = 0; x < out.width; ++x)
            for (int c = 0; c < 3; ++c)
            {
                double sum = 0.0;
                for (int j = 0; j < f; ++j)
                    for (int i = 0; i < f; ++i)
                        sum += frame.at(std::min(f * x + i, frame.width - 1), std::min(f * y + j, frame.height - 1), c);
                out.at(x, y, c) = float(sum / (f * f));
            }
    return out;
}

Texels referenceUpsample(const Texels& bloom, int width, int height, int reduction)
{
    if (bloom.components < 3)
        throw HostError("reference: bloom must have 3 or more components");
    // The two texels and the weight of the second along one axis, for frame texel `i`.
    const auto taps = [reduction](int i, int length)
    {
        const double p = std::max((i + 0.5) / reduction - 0.5, 0.0);
        const int a = std::min(int(std::floor(p)), length - 1);
        return std::tuple{a, std::min(a + 1, length - 1), p - a};
    };
    Texels out(width, height, 3);
    for (int y = 0; y < height; ++y)
    {
        const auto [y0, y1, fy] = taps(y, bloom.height);
        for (int x = 0; x < width; ++x)
        {
            const auto [x0, x1, fx] = taps(x, bloom.width);
            for (int c = 0; c < 3; ++c)
            {
                const double top = (1.0 - fx) * bloom.at(x0, y0, c) + fx * bloom.at(x1, y0, c);
                const double bottom = (1.0 - fx) * bloom.at(x0, y1, c) + fx * bloom.at(x1, y1, c);
                out.at(x, y, c) = float((1.0 - fy) * top + fy * bottom);
            }
        }
    }
    return out;
}

Texels referenceNormalized(const Texels& bloom, const Texels& weights)
{
    if (bloom.width != weights.width || bloom.height != weights.height || bloom.components < 3 ||
        weights.components < 3)
        throw HostError("reference: bloom and weights must have the same extent and 3 or more components");
    Texels out(bloom.width, bloom.height, 3);
    for (int y = 0; y < bloom.height; ++y)
        for (int x = 0; x < bloom.width; ++x)
            for (int c = 0; c < 3; ++c)
                out.at(x, y, c) =
                    float(double(bloom.at(x, y, c)) / std::max(double(weights.at(x, y, c)), FFTB_MIN_BORDER_WEIGHT));
    return out;
}

Texels referenceOutput(const Texels& frame, const Texels& bloom, const Prefilter& prefilter, FftbOutputMode mode,
                       double intensity, const std::array<double, 3>& tint)
{
    if (frame.width != bloom.width || frame.height != bloom.height || frame.components < 3 || bloom.components < 3)
        throw HostError("reference: frame and bloom must have the same extent and 3 or 4 components");
    Texels out(frame.width, frame.height, 3);
    for (int y = 0; y < frame.height; ++y)
        for (int x = 0; x < frame.width; ++x)
        {
            const double in[3] = {frame.at(x, y, 0), frame.at(x, y, 1), frame.at(x, y, 2)};
            double p[3];
            referencePrefilter(in, prefilter, p);
            const double m = referenceMaskWeight(frame.components == 4 ? frame.at(x, y, 3) : 1.0, prefilter.mask);
            for (int c = 0; c < 3; ++c)
            {
                p[c] *= m;
                const double b = tint[std::size_t(c)] * bloom.at(x, y, c);
                const double v = mode == FFTB_OUTPUT_MODE_BLOOM       ? b
                                 : mode == FFTB_OUTPUT_MODE_COMPOSITE ? in[c] + intensity * (b - p[c])
                                                                      : in[c] + intensity * b;
                out.at(x, y, c) = float(v);
            }
        }
    return out;
}

} // namespace fftb
