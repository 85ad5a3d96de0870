// SPDX-License-Identifier: MIT
// The layout and sizes of a plan's buffers.
#include "plan.h"

#include <algorithm>

namespace fftb
{

uint32_t intermediateBlocks(uint32_t halfLines)
{
    return (halfLines + FFTB_INTERMEDIATE_BLOCK_LINES - 1) / FFTB_INTERMEDIATE_BLOCK_LINES;
}

uint64_t intermediateIndex(uint32_t channel, uint32_t k1, uint32_t halfLines, uint32_t v, uint32_t lineCount,
                           uint32_t view)
{
    const uint64_t block =
        (uint64_t(view) * 3 + channel) * intermediateBlocks(halfLines) + k1 / FFTB_INTERMEDIATE_BLOCK_LINES;
    return (block * lineCount + v) * FFTB_INTERMEDIATE_BLOCK_LINES + k1 % FFTB_INTERMEDIATE_BLOCK_LINES;
}

namespace
{

/// Complex fp32 elements of the kernel's first-axis transform, which the kernel spectrum's passes keep in the
/// intermediate: always fp32, whatever the plan's storage precision.
uint64_t kernelTransformElements(const Plan& plan)
{
    const uint64_t kernelLines = std::min(placedKernelLength(plan, plan.second), plan.second.spectrumLength);
    return uint64_t(3) * intermediateBlocks(plan.first.spectrumLength / 2 + 1) * FFTB_INTERMEDIATE_BLOCK_LINES *
           kernelLines;
}

/// Complex fp32 elements of one channel of the kernel spectrum at the frame's frequencies: (N1 / 2 + 1) N2.
uint64_t frameSpectrumElements(const Plan& plan)
{
    return uint64_t(plan.first.paddedLength / 2 + 1) * plan.second.paddedLength;
}

/// Elements up to a multiple of kSpectrumChannelAlignment.
uint64_t alignChannel(uint64_t elements)
{
    return (elements + kSpectrumChannelAlignment - 1) / kSpectrumChannelAlignment * kSpectrumChannelAlignment;
}

} // namespace

uint64_t intermediateElements(const Plan& plan, uint32_t views)
{
    const uint64_t frame = uint64_t(3) * views * intermediateBlocks(plan.halfSpectrumLines()) *
                           FFTB_INTERMEDIATE_BLOCK_LINES * plan.second.imageLength;
    return std::max(frame, kernelTransformElements(plan));
}

uint64_t reducedBloomStart(const Plan& plan, uint32_t elementBytes, uint32_t views)
{
    return (intermediateElements(plan, views) * elementBytes + 15) / 16;
}

uint64_t scratchBytes(const Plan& plan, uint32_t elementBytes, uint32_t views)
{
    // The kernel spectrum's passes store fp32 even in a plan of fp16 storage.
    const uint64_t kernel = kernelTransformElements(plan) * 8;
    if (plan.reduction > 1)
        return std::max(kernel, (reducedBloomStart(plan, elementBytes, views) +
                                 uint64_t(views) * plan.first.imageLength * plan.second.imageLength) *
                                    16);
    return std::max(kernel, intermediateElements(plan, views) * elementBytes);
}

uint64_t resolvedSpectrumStart(const Plan& plan)
{
    if (plan.spectrum != FFTB_SPECTRUM_MODE_RESAMPLED)
        return 0;
    return uint64_t(plan.first.spectrumLength / 2 + 1) * plan.second.spectrumLength;
}

uint64_t spectrumChannelElements(const Plan& plan)
{
    return alignChannel(resolvedSpectrumStart(plan) + frameSpectrumElements(plan));
}

bool scratchSizes(uint32_t maxWidth, uint32_t maxHeight, uint32_t maxKernelWidth, uint32_t maxKernelHeight,
                  FftbLengthPolicy lengths, ScratchSizes* sizes, std::string* error, uint32_t maxViews)
{
    ScratchSizes s;
    bool anyPlan = false;
    for (FftbPadding padding : {FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR})
        for (FftbAxisOrder order : {FFTB_AXIS_ORDER_X_FIRST, FFTB_AXIS_ORDER_Y_FIRST})
            for (const auto& [mode, half] :
                 {std::pair{FFTB_SPECTRUM_MODE_RESAMPLED, false}, std::pair{FFTB_SPECTRUM_MODE_EXACT, false},
                  std::pair{FFTB_SPECTRUM_MODE_RESAMPLED, true}})
            {
                Plan plan;
                PlanRequest request{maxWidth, maxHeight, maxKernelWidth, maxKernelHeight,
                                    padding,  order,     mode,           lengths};
                request.reduction = half ? 2 : 1; // the largest reduced image: the most scratch
                if (!makePlan(request, &plan, nullptr))
                    continue;
                anyPlan = anyPlan || !half; // maximum extents no full-resolution bloom fits are refused
                s.scratchBytes = std::max(s.scratchBytes, scratchBytes(plan, 8, maxViews));
                if (!half) // a far field's window after the plan's scratch
                {
                    PlanRequest far{maxWidth, maxHeight, maxKernelWidth,           maxKernelHeight,
                                    padding,  order,     FFTB_SPECTRUM_MODE_EXACT, lengths};
                    far.reduction = 8;
                    far.kernelSpanUnit = FFTB_KERNEL_SPAN_PIXELS;
                    far.kernelSpan = 8.0f * float(std::max(maxKernelWidth, maxKernelHeight));
                    Plan farPlan;
                    if (makePlan(far, &farPlan, nullptr))
                        s.scratchBytes = std::max(s.scratchBytes, farFieldWindow(scratchBytes(plan, 8, maxViews)) +
                                                                      scratchBytes(farPlan, 8, maxViews));
                }
                if (mode == FFTB_SPECTRUM_MODE_EXACT)
                    s.spectrumChannelElements = std::max(s.spectrumChannelElements, spectrumChannelElements(plan));
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

uint64_t spectrumSlotChannelElements(uint32_t maxWidth, uint32_t maxHeight, uint32_t kernelWidth, uint32_t kernelHeight,
                                     uint32_t kernelExtentWidth, uint32_t kernelExtentHeight, FftbAxisOrder axisOrder,
                                     FftbSpectrumMode mode, uint32_t oversampling, FftbLengthPolicy lengths)
{
    uint64_t elements = 0;
    for (FftbPadding padding : {FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR})
    {
        // The stored spectrum's lengths follow the kernel's texels, the frame's padded lengths its extent.
        Plan stored, framed;
        PlanRequest request{maxWidth, maxHeight, kernelWidth, kernelHeight, padding, axisOrder, mode, lengths};
        request.spectrumOversampling = oversampling;
        if (!makePlan(request, &stored, nullptr))
            continue;
        request.kernelWidth = std::max(kernelWidth, kernelExtentWidth);
        request.kernelHeight = std::max(kernelHeight, kernelExtentHeight);
        if (!makePlan(request, &framed, nullptr))
            framed = stored;
        elements = std::max(elements, alignChannel(resolvedSpectrumStart(stored) + frameSpectrumElements(framed)));
    }
    return elements;
}

} // namespace fftb
