// SPDX-License-Identifier: MIT
// Planning math for one bloom: padded lengths, mirror split points, axis order by cost, spectrum extents.
#include "plan.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace fftb
{

uint32_t paddedLength(uint32_t imageLength, uint32_t kernelLength, FftbPadding padding, bool even,
                      FftbLengthPolicy lengths)
{
    const uint64_t margin = padding != FFTB_PADDING_MIRROR ? kernelLength / 2 : uint64_t(kernelLength) - 1;
    const uint64_t needed = std::max<uint64_t>(uint64_t(imageLength) + margin, 2);
    if (needed > FFTB_MAX_FFT_LENGTH)
        return 0;
    uint32_t best = 0;
    const uint32_t first = lengths == FFTB_LENGTH_POLICY_POWER_OF_TWO ? pow2Ceil(uint32_t(needed)) : uint32_t(needed);
    for (uint32_t n = first; n <= pow2Ceil(uint32_t(needed)); ++n)
        if (isFftLength(n) && (!even || n % 2 == 0) && (best == 0 || fftLengthCost(n) < fftLengthCost(best)))
            best = n;
    return best;
}

std::string kernelScaleOf(const FftbKernelSpanUnit& unit, float span, uint32_t frameWidth, uint32_t frameHeight,
                          uint32_t kernelWidth, uint32_t kernelHeight, KernelScale* scale)
{
    if (!knownEnum(unit, FFTB_KERNEL_SPAN_FRAME_DIAGONAL))
        return "kernelSpanUnit: unknown value";
    const uint32_t larger = std::max(kernelWidth, kernelHeight);
    KernelScale s;
    if (unit == FFTB_KERNEL_SPAN_NATIVE)
        s.spanPixels = double(larger);
    else if (!(span > 0.0f) || !std::isfinite(span))
        return "kernelSpan: must be finite and > 0";
    else if (unit == FFTB_KERNEL_SPAN_PIXELS)
        s.spanPixels = double(span);
    else
        s.spanPixels = double(span) * std::hypot(double(frameWidth), double(frameHeight));
    s.sigma = unit == FFTB_KERNEL_SPAN_NATIVE ? 1.0 : s.spanPixels / larger;
    s.extentWidth = scaledKernelLength(kernelWidth, larger, s.spanPixels);
    s.extentHeight = scaledKernelLength(kernelHeight, larger, s.spanPixels);
    *scale = s;
    return "";
}

uint32_t scaledKernelLength(uint32_t kernelLength, uint32_t largerKernelLength, double span)
{
    if (!(span > 0.0))
        return kernelLength;
    // Along the larger axis the span itself, so that e.g. a span of exactly 256 pixels is 256, not 257 after a
    // rounding of span / K * K.
    const double extent =
        std::ceil(kernelLength == largerKernelLength ? span : span * kernelLength / largerKernelLength);
    return extent >= double(UINT32_MAX) ? UINT32_MAX : std::max(uint32_t(extent), 1u);
}

uint32_t mirroredRepeat(int64_t position, uint32_t length)
{
    const int64_t period = 2 * int64_t(length);
    int64_t m = position % period;
    if (m < 0)
        m += period;
    return uint32_t(m < length ? m : period - 1 - m);
}

int64_t paddedSource(uint32_t p, const AxisPlan& axis, FftbPadding padding)
{
    if (p < axis.imageLength)
        return p;
    if (padding != FFTB_PADDING_MIRROR)
        return -1;
    // Past the split the position stands for one before the near edge, N periodic.
    const int64_t position = p < axis.mirrorSplit ? int64_t(p) : int64_t(p) - axis.paddedLength;
    return mirroredRepeat(position, axis.imageLength);
}

namespace
{

AxisPlan planAxis(uint32_t imageLength, uint32_t kernelLength, uint32_t scaledLength, const PlanRequest& request,
                  bool first)
{
    AxisPlan a;
    a.imageLength = imageLength;
    a.kernelLength = kernelLength;
    a.kernelCentre = kernelLength / 2;
    a.scaledKernelLength = scaledLength;
    const FftbPadding padding = request.padding;
    a.paddedLength = paddedLength(imageLength, scaledLength, padding, first, request.lengths);
    if (a.paddedLength == 0)
        return a;
    if (padding != FFTB_PADDING_MIRROR)
    {
        a.mirrorSplit = a.paddedLength;
    }
    else
    {
        // out(p) = sum_j k(j) in(p - j + c) reads up to c texels past the image and K - 1 - c before it; a scaled
        // kernel about K' / 2 and K' - 1 - K' / 2. Slack is split evenly between the two.
        const uint32_t after = scaledLength / 2;
        const uint32_t slack = a.paddedLength - imageLength - (scaledLength - 1);
        a.mirrorSplit = imageLength + after + slack / 2;
    }
    a.spectrumLength = request.spectrum == FFTB_SPECTRUM_MODE_EXACT
                           ? a.paddedLength
                           : request.spectrumOversampling * pow2Ceil(kernelLength);
    return a;
}

double fftCost(double lines, uint32_t length)
{
    return lines * fftLengthCost(length);
}

} // namespace

uint32_t placedKernelLength(const Plan& plan, const AxisPlan& axis)
{
    return plan.spectrum == FFTB_SPECTRUM_MODE_EXACT ? axis.scaledKernelLength : axis.kernelLength;
}

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

uint32_t reducedKernelLength(const KernelScale& scale, uint32_t kernelLength, uint32_t largerKernelLength,
                             uint32_t reduction)
{
    // A frame pixel is 1 / f pixel of the downsampled frame, so the kernel spans 1 / f as many.
    return scaledKernelLength(kernelLength, largerKernelLength, scale.spanPixels / reduction);
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
    if (request.reduction != 1 && request.reduction != 2 && request.reduction != 4 && request.reduction != 8)
        return fail("reduction: " + std::to_string(request.reduction) + " is not 1, 2, 4 or 8");
    if (request.kernelWidth == 0 || request.kernelHeight == 0)
        return fail("kernel resolution: " + std::to_string(request.kernelWidth) + "x" +
                    std::to_string(request.kernelHeight) + " is empty");
    if (request.kernelWidth > FFTB_MAX_KERNEL_LENGTH || request.kernelHeight > FFTB_MAX_KERNEL_LENGTH)
        return fail("kernel resolution: " + std::to_string(request.kernelWidth) + "x" +
                    std::to_string(request.kernelHeight) + " exceeds " + std::to_string(FFTB_MAX_KERNEL_LENGTH));
    if (request.spectrumOversampling < 1 || request.spectrumOversampling > kMaxSpectrumOversampling)
        return fail("spectrum oversampling: " + std::to_string(request.spectrumOversampling) + " is not 1 .. " +
                    std::to_string(kMaxSpectrumOversampling));
    KernelScale scale;
    const std::string spanError = kernelScaleOf(request.kernelSpanUnit, request.kernelSpan, request.imageWidth,
                                                request.imageHeight, request.kernelWidth, request.kernelHeight, &scale);
    if (!spanError.empty())
        return fail(spanError);
    const uint32_t f = request.reduction;
    const uint32_t larger = std::max(request.kernelWidth, request.kernelHeight);
    const uint32_t planKernelWidth = reducedKernelLength(scale, request.kernelWidth, larger, f);
    const uint32_t planKernelHeight = reducedKernelLength(scale, request.kernelHeight, larger, f);
    if (planKernelWidth > FFTB_MAX_KERNEL_LENGTH || planKernelHeight > FFTB_MAX_KERNEL_LENGTH)
        return fail("kernelSpan: the kernel's extent on the frame" +
                    (f > 1 ? " downsampled " + std::to_string(f) + "x " : std::string(" ")) +
                    std::to_string(planKernelWidth) + "x" + std::to_string(planKernelHeight) + " exceeds " +
                    std::to_string(FFTB_MAX_KERNEL_LENGTH));
    const bool native = request.kernelSpanUnit == FFTB_KERNEL_SPAN_NATIVE;
    const uint32_t planWidth = (request.imageWidth + f - 1) / f;
    const uint32_t planHeight = (request.imageHeight + f - 1) / f;

    const auto axis = [&](bool isX, bool first)
    {
        AxisPlan a = isX ? planAxis(planWidth, request.kernelWidth, planKernelWidth, request, first)
                         : planAxis(planHeight, request.kernelHeight, planKernelHeight, request, first);
        a.frameLength = isX ? request.imageWidth : request.imageHeight;
        return a;
    };
    const std::string marginText = std::string(native ? " + kernel" : " + scaled kernel") +
                                   (request.padding != FFTB_PADDING_MIRROR ? "/2" : " - 1");
    if (axis(true, true).paddedLength == 0)
        return fail("image width: " + std::to_string(request.imageWidth) + marginText + " needs an FFT longer than " +
                    std::to_string(FFTB_MAX_FFT_LENGTH));
    if (axis(false, true).paddedLength == 0)
        return fail("image height: " + std::to_string(request.imageHeight) + marginText + " needs an FFT longer than " +
                    std::to_string(FFTB_MAX_FFT_LENGTH));

    Plan p;
    p.padding = request.padding;
    p.spectrum = request.spectrum;
    p.kernelScale = scale.sigma / f;
    p.reduction = f;
    // The first axis must be even, so its length can differ from the one it would get as the second axis.
    const AxisPlan xFirst[2] = {axis(true, true), axis(false, false)};
    const AxisPlan yFirst[2] = {axis(false, true), axis(true, false)};
    switch (request.axisOrder)
    {
    case FFTB_AXIS_ORDER_X_FIRST:
        p.firstAxisIsX = true;
        break;
    case FFTB_AXIS_ORDER_Y_FIRST:
        p.firstAxisIsX = false;
        break;
    default: // FFTB_AXIS_ORDER_AUTO
        p.firstAxisIsX = costOf(xFirst[0], xFirst[1]) <= costOf(yFirst[0], yFirst[1]);
        break;
    }
    p.first = p.firstAxisIsX ? xFirst[0] : yFirst[0];
    p.second = p.firstAxisIsX ? xFirst[1] : yFirst[1];
    *plan = p;
    return true;
}

} // namespace fftb
