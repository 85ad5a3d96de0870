// Planning math for one bloom: padded lengths, mirror split points, axis order by cost, spectrum extents.
#include "plan.h"

#include <algorithm>
#include <cmath>

namespace fftb
{

uint32_t pow2Ceil(uint32_t n)
{
    uint32_t p = 2;
    while (p < n)
        p <<= 1;
    return p;
}

uint32_t paddedLength(uint32_t imageLength, uint32_t kernelLength, Padding padding)
{
    const uint64_t margin = padding == Padding::Zero ? kernelLength / 2 : uint64_t(kernelLength) - 1;
    const uint64_t needed = uint64_t(imageLength) + margin;
    if (needed > kMaxFftLength)
        return 0;
    return pow2Ceil(uint32_t(needed));
}

uint32_t mirroredRepeat(int64_t position, uint32_t length)
{
    const int64_t period = 2 * int64_t(length);
    int64_t m = position % period;
    if (m < 0)
        m += period;
    return uint32_t(m < length ? m : period - 1 - m);
}

int64_t paddedSource(uint32_t p, const AxisPlan& axis, Padding padding)
{
    if (p < axis.imageLength)
        return p;
    if (padding == Padding::Zero)
        return -1;
    // Past the split the position stands for one before the near edge, N periodic.
    const int64_t position = p < axis.mirrorSplit ? int64_t(p) : int64_t(p) - axis.paddedLength;
    return mirroredRepeat(position, axis.imageLength);
}

namespace
{

AxisPlan planAxis(uint32_t imageLength, uint32_t kernelLength, Padding padding, SpectrumMode spectrum)
{
    AxisPlan a;
    a.imageLength = imageLength;
    a.kernelLength = kernelLength;
    a.kernelCentre = kernelLength / 2;
    a.paddedLength = paddedLength(imageLength, kernelLength, padding);
    if (padding == Padding::Zero)
    {
        a.mirrorSplit = a.paddedLength;
    }
    else
    {
        // out(p) = sum_j k(j) in(p - j + c) reads up to c texels past the image and K - 1 - c before it.
        // Slack is split evenly between the two.
        const uint32_t after = a.kernelCentre;
        const uint32_t slack = a.paddedLength - imageLength - (kernelLength - 1);
        a.mirrorSplit = imageLength + after + slack / 2;
    }
    a.spectrumLength = spectrum == SpectrumMode::Exact ? a.paddedLength : pow2Ceil(kernelLength);
    return a;
}

double fftCost(double lines, uint32_t length)
{
    return lines * length * std::log2(double(length));
}

} // namespace

double costOf(const AxisPlan& first, const AxisPlan& second)
{
    // Pass 1 and 3 transform pairs of image lines along the first axis; pass 2 transforms each half-spectrum
    // line twice along the second. Memory: the intermediate is written, read, written and read once each.
    const double pairLines = std::ceil(second.imageLength / 2.0);
    const double halfLines = first.paddedLength / 2 + 1;
    const double butterflies =
        2.0 * fftCost(pairLines, first.paddedLength) + 2.0 * fftCost(halfLines, second.paddedLength);
    const double intermediateTexels = 4.0 * halfLines * second.imageLength;
    return butterflies + 8.0 * intermediateTexels;
}

bool makePlan(const PlanRequest& request, Plan* plan, std::string* error)
{
    const auto fail = [&](const std::string& reason)
    {
        if (error)
            *error = reason;
        return false;
    };
    if (request.imageWidth == 0 || request.imageHeight == 0)
        return fail("image extent: " + std::to_string(request.imageWidth) + "x" + std::to_string(request.imageHeight) +
                    " is empty");
    if (request.kernelWidth == 0 || request.kernelHeight == 0)
        return fail("kernel extent: " + std::to_string(request.kernelWidth) + "x" +
                    std::to_string(request.kernelHeight) + " is empty");
    if (request.kernelWidth > kMaxFftLength || request.kernelHeight > kMaxFftLength)
        return fail("kernel extent: " + std::to_string(request.kernelWidth) + "x" +
                    std::to_string(request.kernelHeight) + " exceeds " + std::to_string(kMaxFftLength));

    const AxisPlan x = planAxis(request.imageWidth, request.kernelWidth, request.padding, request.spectrum);
    const AxisPlan y = planAxis(request.imageHeight, request.kernelHeight, request.padding, request.spectrum);
    const char* marginText = request.padding == Padding::Zero ? " + kernel/2" : " + kernel - 1";
    if (x.paddedLength == 0)
        return fail("image width: " + std::to_string(request.imageWidth) + marginText + " needs an FFT longer than " +
                    std::to_string(kMaxFftLength));
    if (y.paddedLength == 0)
        return fail("image height: " + std::to_string(request.imageHeight) + marginText + " needs an FFT longer than " +
                    std::to_string(kMaxFftLength));

    Plan p;
    p.padding = request.padding;
    p.spectrum = request.spectrum;
    switch (request.axisOrder)
    {
    case AxisOrder::XFirst:
        p.firstAxisIsX = true;
        break;
    case AxisOrder::YFirst:
        p.firstAxisIsX = false;
        break;
    case AxisOrder::Auto:
        p.firstAxisIsX = costOf(x, y) <= costOf(y, x);
        break;
    }
    p.first = p.firstAxisIsX ? x : y;
    p.second = p.firstAxisIsX ? y : x;
    *plan = p;
    return true;
}

} // namespace fftb
