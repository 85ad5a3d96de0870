// SPDX-License-Identifier: MIT
// Planning math for one bloom: padded lengths, mirror split points, axis order by cost, spectrum extents.
#include "plan.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace fftb
{

uint32_t pow2Ceil(uint32_t n)
{
    uint32_t p = 2;
    while (p < n)
        p <<= 1;
    return p;
}

namespace
{

bool isSharedFftLength(uint32_t length)
{
    if (length < 2 || length > kMaxSharedFftLength)
        return false;
    for (const uint32_t p : {2u, 3u, 5u, 7u})
        while (length % p == 0)
            length /= p;
    return length == 1;
}

/// A long line's split: register radix R, shared length M = N / R, workgroup size T. All zero when none exists.
struct LongSplit
{
    uint32_t radix = 0, sharedLength = 0, workgroupSize = 0;
};

/// The smallest workgroup size T <= maxInvocations that divides M = `sharedLength` (the register stage combines
/// positions n + m M, which must then share an invocation) with `length` / T <= `elements`; 0 when none does.
uint32_t longWorkgroupSize(uint32_t length, uint32_t sharedLength, uint32_t elements, uint32_t maxInvocations)
{
    const uint32_t least = (length + elements - 1) / elements;
    for (uint32_t t = least; t <= std::min({sharedLength, kMaxWorkgroupSize, maxInvocations}); ++t)
        if (sharedLength % t == 0)
            return t;
    return 0;
}

LongSplit longSplitOf(uint32_t length, uint32_t maxInvocations = kMaxWorkgroupSize)
{
    if (length <= kMaxSharedFftLength || length > kMaxFftLength)
        return {};
    // The smallest R leaves the longest sub-lines: fewest idle invocations in their Stockham stages.
    for (const uint32_t radix : {2u, 3u, 4u, 5u, 7u, 8u})
    {
        if (length % radix != 0 || !isSharedFftLength(length / radix) ||
            longWorkgroupSize(length, length / radix, kMaxElementsPerInvocation, kMaxWorkgroupSize) == 0)
            continue;
        const uint32_t m = length / radix;
        // kPreferredLongElementsPerInvocation where the device allows the invocations, else up to
        // kMaxElementsPerInvocation.
        uint32_t t = longWorkgroupSize(length, m, kPreferredLongElementsPerInvocation, maxInvocations);
        if (t == 0)
            t = longWorkgroupSize(length, m, kMaxElementsPerInvocation, maxInvocations);
        return {radix, m, t};
    }
    return {};
}

} // namespace

bool isFftLength(uint32_t length)
{
    return isSharedFftLength(length) || longSplitOf(length).radix != 0;
}

uint32_t sharedLengthOf(uint32_t length)
{
    return isSharedFftLength(length) ? length : longSplitOf(length).sharedLength;
}

uint32_t residentWarpsOf(uint32_t workgroupSize)
{
    const uint32_t warps = (workgroupSize + 31) / 32;
    const uint32_t byRegisters = kModelRegistersPerSm / (kModelRegistersPerInvocation * warps * 32);
    const uint32_t byInvocations = kModelInvocationsPerSm / (warps * 32);
    return std::min({byRegisters, byInvocations, kModelWorkgroupsPerSm}) * warps;
}

uint32_t workgroupSizeOf(uint32_t length, uint32_t maxInvocations)
{
    if (!isSharedFftLength(length))
    {
        return longSplitOf(length, maxInvocations).workgroupSize;
    }
    const auto sizeFor = [length](uint32_t elements)
    {
        const uint32_t size = (length + elements - 1) / elements;
        return size <= 32 ? size : (size + 31) / 32 * 32;
    };
    // Up to the smallest radix, every stage's butterflies fit one round of the workgroup.
    uint32_t smallestRadix = kMaxHeldElementsPerInvocation;
    for (const uint32_t radix : radicesOf(length))
        smallestRadix = std::min(smallestRadix, radix);
    uint32_t best = 0, bestWarps = 0;
    for (uint32_t elements = kPreferredElementsPerInvocation;
         elements <= std::max(kPreferredElementsPerInvocation, smallestRadix); ++elements)
    {
        const uint32_t size = sizeFor(elements);
        if (size > maxInvocations)
            continue;
        const uint32_t warps = residentWarpsOf(size);
        if (warps > bestWarps)
        {
            best = size;
            bestWarps = warps;
        }
    }
    if (best != 0)
        return best;
    for (uint32_t elements = std::max(kPreferredElementsPerInvocation, smallestRadix) + 1;
         elements <= kMaxElementsPerInvocation; ++elements)
        if (sizeFor(elements) <= maxInvocations)
            return sizeFor(elements);
    return 0;
}

std::vector<uint32_t> radicesOf(uint32_t length)
{
    std::vector<uint32_t> radices;
    const uint32_t shared = sharedLengthOf(length);
    if (shared != length)
        radices.push_back(length / shared);
    for (uint32_t rest = shared; rest > 1;)
    {
        uint32_t radix = 7;
        for (const uint32_t r : {8u, 4u, 2u, 3u, 5u})
            if (rest % r == 0)
            {
                radix = r;
                break;
            }
        radices.push_back(radix);
        rest /= radix;
    }
    return radices;
}

std::array<uint32_t, kSpecializationConstantCount>
specializationOf(uint32_t length, uint32_t workgroupSize, bool halfStorage, uint32_t rowLength, bool multiView)
{
    const uint32_t shared = sharedLengthOf(length);
    std::array<uint32_t, kSpecializationConstantCount> values{length,
                                                              workgroupSize,
                                                              twiddleTables().offsetOf(length),
                                                              shared,
                                                              twiddleTables().offsetOf(shared),
                                                              halfStorage ? 1u : 0u};
    const std::vector<uint32_t> radices = radicesOf(shared);
    for (uint32_t i = 0; i < kMaxSharedStages; ++i)
        values[kSpecializationFirstRadix + i] = i < radices.size() ? radices[i] : 1;
    values[kSpecializationFirstRadix + kMaxSharedStages] = rowLength;
    values[kSpecializationMultiView] = multiView ? 1u : 0u;
    return values;
}

double fftLengthCost(uint32_t length)
{
    double stages = 0.0;
    for (const uint32_t r : radicesOf(length))
        stages += 1.0 + r / 10.0;
    return length * stages;
}

uint32_t TwiddleTables::offsetOf(uint32_t length) const
{
    const auto it = std::lower_bound(lengths.begin(), lengths.end(), length);
    return offsets[size_t(it - lengths.begin())];
}

void TwiddleTables::write(float* destination) const
{
    for (size_t i = 0; i < lengths.size(); ++i)
        for (uint32_t m = 0; m < twiddleTableElements(lengths[i]); ++m)
        {
            double re, im;
            twiddleEntry(lengths[i], m, &re, &im);
            destination[2 * (offsets[i] + m)] = float(re);
            destination[2 * (offsets[i] + m) + 1] = float(im);
        }
}

uint32_t twiddleTableElements(uint32_t length)
{
    if (length <= kMaxSharedFftLength)
        return length;
    return kTwiddleFineElements + (length + kTwiddleFineElements - 1) / kTwiddleFineElements;
}

void twiddleEntry(uint32_t length, uint32_t index, double* re, double* im)
{
    uint64_t m = index;
    if (length > kMaxSharedFftLength && index >= kTwiddleFineElements)
        m = uint64_t(index - kTwiddleFineElements) * kTwiddleFineElements;
    // Reduced modulo the length before scaling, so the angle stays within one turn.
    const double angle = -2.0 * std::numbers::pi * double(m % length) / length;
    *re = std::cos(angle);
    *im = std::sin(angle);
}

const TwiddleTables& twiddleTables()
{
    static const TwiddleTables tables = []
    {
        TwiddleTables t;
        for (uint32_t n = 2; n <= kMaxFftLength; ++n)
            if (isFftLength(n))
            {
                t.lengths.push_back(n);
                t.offsets.push_back(t.totalElements);
                t.totalElements += twiddleTableElements(n);
            }
        return t;
    }();
    return tables;
}

uint32_t paddedLength(uint32_t imageLength, uint32_t kernelLength, Padding padding, bool even, LengthPolicy lengths)
{
    const uint64_t margin = padding == Padding::Zero ? kernelLength / 2 : uint64_t(kernelLength) - 1;
    const uint64_t needed = std::max<uint64_t>(uint64_t(imageLength) + margin, 2);
    if (needed > kMaxFftLength)
        return 0;
    uint32_t best = 0;
    const uint32_t first = lengths == LengthPolicy::PowerOfTwo ? pow2Ceil(uint32_t(needed)) : uint32_t(needed);
    for (uint32_t n = first; n <= pow2Ceil(uint32_t(needed)); ++n)
        if (isFftLength(n) && (!even || n % 2 == 0) && (best == 0 || fftLengthCost(n) < fftLengthCost(best)))
            best = n;
    return best;
}

double kernelSpan(const KernelScale& scale, uint32_t imageWidth, uint32_t imageHeight)
{
    switch (scale.unit)
    {
    case KernelScaleUnit::Native:
        break;
    case KernelScaleUnit::Pixels:
        return double(scale.value);
    case KernelScaleUnit::FrameDiagonal:
        return double(scale.value) * std::hypot(double(imageWidth), double(imageHeight));
    }
    return 0.0;
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

AxisPlan planAxis(uint32_t imageLength, uint32_t kernelLength, uint32_t scaledLength, const PlanRequest& request,
                  bool first)
{
    AxisPlan a;
    a.imageLength = imageLength;
    a.kernelLength = kernelLength;
    a.kernelCentre = kernelLength / 2;
    a.scaledKernelLength = scaledLength;
    const Padding padding = request.padding;
    a.paddedLength = paddedLength(imageLength, scaledLength, padding, first, request.lengths);
    if (a.paddedLength == 0)
        return a;
    if (padding == Padding::Zero)
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
    a.spectrumLength = request.spectrum == SpectrumMode::Exact ? a.paddedLength
                                                               : request.spectrumOversampling * pow2Ceil(kernelLength);
    return a;
}

double fftCost(double lines, uint32_t length)
{
    return lines * fftLengthCost(length);
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
        return fail("kernel resolution: " + std::to_string(request.kernelWidth) + "x" +
                    std::to_string(request.kernelHeight) + " is empty");
    if (request.kernelWidth > kMaxKernelLength || request.kernelHeight > kMaxKernelLength)
        return fail("kernel resolution: " + std::to_string(request.kernelWidth) + "x" +
                    std::to_string(request.kernelHeight) + " exceeds " + std::to_string(kMaxKernelLength));
    if (request.spectrumOversampling < 1 || request.spectrumOversampling > kMaxSpectrumOversampling)
        return fail("spectrum oversampling: " + std::to_string(request.spectrumOversampling) + " is not 1 .. " +
                    std::to_string(kMaxSpectrumOversampling));
    const KernelScale& scale = request.kernelScale;
    const uint32_t larger = std::max(request.kernelWidth, request.kernelHeight);
    double span = 0.0;
    if (!scale.native())
    {
        if (scale.unit != KernelScaleUnit::Pixels && scale.unit != KernelScaleUnit::FrameDiagonal)
            return fail("kernel scale: unknown unit");
        if (!(scale.value > 0.0f) || !std::isfinite(scale.value))
            return fail("kernel scale: " + std::to_string(scale.value) + " is not finite and > 0");
        if (request.spectrum == SpectrumMode::Exact)
            return fail("kernel scale: needs the resampled spectrum mode");
        span = kernelSpan(scale, request.imageWidth, request.imageHeight);
    }
    const bool half = request.halfResolution;
    if (half && request.spectrum == SpectrumMode::Exact)
        return fail("half resolution: needs the resampled spectrum mode (the kernel at half its extent)");
    const uint32_t scaledWidth = scaledKernelLength(request.kernelWidth, larger, span);
    const uint32_t scaledHeight = scaledKernelLength(request.kernelHeight, larger, span);
    if (scaledWidth > kMaxKernelLength || scaledHeight > kMaxKernelLength)
        return fail("kernel scale: the kernel's extent on the frame " + std::to_string(scaledWidth) + "x" +
                    std::to_string(scaledHeight) + " exceeds " + std::to_string(kMaxKernelLength));
    // Half resolution: a frame pixel is half a pixel of the downsampled frame, so the kernel spans half as many.
    const double halfSpan = (scale.native() ? double(larger) : span) / 2.0;
    const uint32_t planWidth = half ? (request.imageWidth + 1) / 2 : request.imageWidth;
    const uint32_t planHeight = half ? (request.imageHeight + 1) / 2 : request.imageHeight;
    const uint32_t planKernelWidth = half ? scaledKernelLength(request.kernelWidth, larger, halfSpan) : scaledWidth;
    const uint32_t planKernelHeight = half ? scaledKernelLength(request.kernelHeight, larger, halfSpan) : scaledHeight;

    const auto axis = [&](bool isX, bool first)
    {
        AxisPlan a = isX ? planAxis(planWidth, request.kernelWidth, planKernelWidth, request, first)
                         : planAxis(planHeight, request.kernelHeight, planKernelHeight, request, first);
        a.frameLength = isX ? request.imageWidth : request.imageHeight;
        return a;
    };
    const std::string marginText = std::string(scale.native() ? " + kernel" : " + scaled kernel") +
                                   (request.padding == Padding::Zero ? "/2" : " - 1");
    if (axis(true, true).paddedLength == 0)
        return fail("image width: " + std::to_string(request.imageWidth) + marginText + " needs an FFT longer than " +
                    std::to_string(kMaxFftLength));
    if (axis(false, true).paddedLength == 0)
        return fail("image height: " + std::to_string(request.imageHeight) + marginText + " needs an FFT longer than " +
                    std::to_string(kMaxFftLength));

    Plan p;
    p.padding = request.padding;
    p.spectrum = request.spectrum;
    p.kernelScale = half ? halfSpan / larger : scale.native() ? 1.0 : span / larger;
    p.halfResolution = half;
    // The first axis must be even, so its length can differ from the one it would get as the second axis.
    const AxisPlan xFirst[2] = {axis(true, true), axis(false, false)};
    const AxisPlan yFirst[2] = {axis(false, true), axis(true, false)};
    switch (request.axisOrder)
    {
    case AxisOrder::XFirst:
        p.firstAxisIsX = true;
        break;
    case AxisOrder::YFirst:
        p.firstAxisIsX = false;
        break;
    case AxisOrder::Auto:
        p.firstAxisIsX = costOf(xFirst[0], xFirst[1]) <= costOf(yFirst[0], yFirst[1]);
        break;
    }
    p.first = p.firstAxisIsX ? xFirst[0] : yFirst[0];
    p.second = p.firstAxisIsX ? xFirst[1] : yFirst[1];
    *plan = p;
    return true;
}

const Plan* PlanCache::get(const PlanRequest& request, std::string* error)
{
    for (auto entry = entries_.begin(); entry != entries_.end(); ++entry)
        if (entry->first == request)
            return &entry->second;
    Plan plan;
    if (!makePlan(request, &plan, error))
        return nullptr;
    ++plansMade_;
    if (entries_.size() == kCapacity)
        entries_.erase(entries_.begin());
    entries_.emplace_back(request, plan);
    return &entries_.back().second;
}

uint32_t intermediateBlocks(uint32_t halfLines)
{
    return (halfLines + kIntermediateBlockLines - 1) / kIntermediateBlockLines;
}

uint64_t intermediateIndex(uint32_t channel, uint32_t k1, uint32_t halfLines, uint32_t v, uint32_t lineCount,
                           uint32_t view)
{
    const uint64_t block =
        (uint64_t(view) * 3 + channel) * intermediateBlocks(halfLines) + k1 / kIntermediateBlockLines;
    return (block * lineCount + v) * kIntermediateBlockLines + k1 % kIntermediateBlockLines;
}

uint64_t intermediateElements(const Plan& plan, uint32_t views)
{
    const uint64_t frame = uint64_t(3) * views * intermediateBlocks(plan.halfSpectrumLines()) *
                           kIntermediateBlockLines * plan.second.imageLength;
    const uint64_t kernelLines = std::min(plan.second.kernelLength, plan.second.spectrumLength);
    const uint64_t kernel =
        uint64_t(3) * intermediateBlocks(plan.first.spectrumLength / 2 + 1) * kIntermediateBlockLines * kernelLines;
    return std::max(frame, kernel);
}

uint32_t rowLengthOf(const Plan& plan)
{
    const uint32_t row = plan.second.spectrumLength;
    const bool longer = plan.spectrum == SpectrumMode::Resampled && row > sharedLengthOf(plan.second.paddedLength);
    return longer && row <= kMaxSharedFftLength ? row : 0;
}

uint64_t tapTableEntries(const Plan& plan)
{
    if (plan.spectrum != SpectrumMode::Resampled)
        return 0;
    return uint64_t(plan.second.paddedLength) + 1 + plan.halfSpectrumLines();
}

uint64_t tapTableStart(const Plan& plan, uint32_t elementBytes, uint32_t views)
{
    return (intermediateElements(plan, views) * elementBytes + 15) / 16;
}

uint64_t halfResolutionBloomStart(const Plan& plan, uint32_t elementBytes, uint32_t views)
{
    static_assert(kTapTableEntryBytes % 16 == 0);
    return tapTableStart(plan, elementBytes, views) + tapTableEntries(plan) * (kTapTableEntryBytes / 16);
}

uint64_t scratchBytes(const Plan& plan, uint32_t elementBytes, uint32_t views)
{
    if (plan.halfResolution)
        return (halfResolutionBloomStart(plan, elementBytes, views) +
                uint64_t(views) * plan.first.imageLength * plan.second.imageLength) *
               16;
    return tapTableEntries(plan) == 0
               ? intermediateElements(plan, views) * elementBytes
               : tapTableStart(plan, elementBytes, views) * 16 + tapTableEntries(plan) * kTapTableEntryBytes;
}

uint64_t spectrumElements(const Plan& plan)
{
    return uint64_t(3) * (plan.first.spectrumLength / 2 + 1) * plan.second.spectrumLength;
}

bool scratchSizes(uint32_t maxWidth, uint32_t maxHeight, uint32_t maxKernelWidth, uint32_t maxKernelHeight,
                  LengthPolicy lengths, ScratchSizes* sizes, std::string* error, uint32_t maxViews)
{
    ScratchSizes s;
    bool anyPlan = false;
    for (Padding padding : {Padding::Zero, Padding::Mirror})
        for (AxisOrder order : {AxisOrder::XFirst, AxisOrder::YFirst})
            for (const auto& [mode, half] :
                 {std::pair{SpectrumMode::Resampled, false}, std::pair{SpectrumMode::Exact, false},
                  std::pair{SpectrumMode::Resampled, true}})
            {
                Plan plan;
                PlanRequest request{maxWidth, maxHeight, maxKernelWidth, maxKernelHeight,
                                    padding,  order,     mode,           lengths};
                request.halfResolution = half;
                if (!makePlan(request, &plan, nullptr))
                    continue;
                anyPlan = anyPlan || !half; // maximum extents no full-resolution bloom fits are refused
                s.scratchBytes = std::max(s.scratchBytes, scratchBytes(plan, 8, maxViews));
                s.spectrumElements = std::max(s.spectrumElements, spectrumElements(plan));
            }
    if (!anyPlan)
    {
        // Zero padding needs the least: when it fails, its reason is the one to give.
        PlanRequest request{maxWidth, maxHeight, maxKernelWidth, maxKernelHeight};
        request.lengths = lengths;
        Plan plan;
        makePlan(request, &plan, error);
        return false;
    }
    *sizes = s;
    return true;
}

uint64_t spectrumSlotElements(uint32_t maxWidth, uint32_t maxHeight, uint32_t kernelWidth, uint32_t kernelHeight,
                              AxisOrder axisOrder, SpectrumMode mode, uint32_t oversampling, LengthPolicy lengths)
{
    uint64_t elements = 0;
    for (Padding padding : {Padding::Zero, Padding::Mirror})
    {
        Plan plan;
        PlanRequest request{maxWidth, maxHeight, kernelWidth, kernelHeight, padding, axisOrder, mode, lengths};
        request.spectrumOversampling = oversampling;
        if (makePlan(request, &plan, nullptr))
            elements = std::max(elements, spectrumElements(plan));
    }
    return elements;
}

} // namespace fftb
