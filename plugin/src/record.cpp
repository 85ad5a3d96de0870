// Setting the kernel and recording the passes of one bloom.
#include "context.h"

#include <cmath>
#include <cstring>

namespace fftb
{

void Context::setKernel(const FftbKernelInfo& info)
{
    if (info.width == 0 || info.height == 0 || info.width > maxKernelWidth_ || info.height > maxKernelHeight_)
        throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS,
                      "kernel width, height: " + std::to_string(info.width) + "x" + std::to_string(info.height) +
                          " outside 1x1 .. " + std::to_string(maxKernelWidth_) + "x" +
                          std::to_string(maxKernelHeight_) + " (the context's maximum kernel extent)"};
    if (info.spectrumMode != FFTB_SPECTRUM_MODE_RESAMPLED && info.spectrumMode != FFTB_SPECTRUM_MODE_EXACT)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "spectrumMode: unknown value"};
    if (info.interpolation != FFTB_SPECTRUM_INTERPOLATION_CUBIC &&
        info.interpolation != FFTB_SPECTRUM_INTERPOLATION_LINEAR)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "interpolation: unknown value"};
    const size_t texels = size_t(info.width) * info.height;
    double sums[3] = {0.0, 0.0, 0.0};
    for (size_t i = 0; i < texels * 3; ++i)
    {
        const float v = info.texels[i];
        if (!std::isfinite(v) || v < 0.0f)
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                          "texels: texel (" + std::to_string((i / 3) % info.width) + ", " +
                              std::to_string((i / 3) / info.width) + ") is negative, NaN or infinite"};
        sums[i % 3] += v;
    }
    for (int c = 0; c < 3; ++c)
        if (!(sums[c] > 0.0) || !std::isfinite(sums[c]))
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                          "texels: channel " + std::to_string(c) + " sums to " + std::to_string(sums[c]) +
                              ", cannot be normalized"};
    // Planar on the device: each channel's lines are contiguous for the kernel's first pass.
    auto* planar = static_cast<float*>(kernelTexels_.mapped);
    for (size_t i = 0; i < texels; ++i)
        for (int c = 0; c < 3; ++c)
            planar[c * texels + i] = float(info.texels[i * 3 + c] / sums[c]);
    kernelWidth_ = info.width;
    kernelHeight_ = info.height;
    spectrumMode_ = info.spectrumMode == FFTB_SPECTRUM_MODE_EXACT ? SpectrumMode::Exact : SpectrumMode::Resampled;
    interpolation_ = info.interpolation == FFTB_SPECTRUM_INTERPOLATION_LINEAR ? FFTB_GPU_INTERPOLATION_LINEAR
                                                                              : FFTB_GPU_INTERPOLATION_CUBIC;
    spectrumKey_ = SpectrumKey{};
    hasKernel_ = true;
}

void Context::barrier(VkCommandBuffer cb) const
{
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vk_.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb,
                             0, nullptr, 0, nullptr);
}

void Context::dispatch(VkCommandBuffer cb, Pass pass, uint32_t fftLength, uint32_t groupsX, uint32_t groupsY,
                       const FftbPushConstants& push)
{
    vk_.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline(pass, fftLength));
    vk_.vkCmdPushConstants(cb, pipelineLayout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
    vk_.vkCmdDispatch(cb, groupsX, groupsY, 1);
}

void Context::cmdBloom(VkCommandBuffer cb, const FftbBloomInfo& info)
{
    if (!hasKernel_)
        throw Failure{FFTB_ERROR_NO_KERNEL, VK_SUCCESS, "no kernel: call fftbSetKernel first"};
    if (!info.inputView || !info.outputView)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "inputView, outputView: VK_NULL_HANDLE"};
    if (info.inputLayout != VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL && info.inputLayout != VK_IMAGE_LAYOUT_GENERAL)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                      "inputLayout: must be VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL or VK_IMAGE_LAYOUT_GENERAL"};
    if (info.width == 0 || info.height == 0 || info.width > maxWidth_ || info.height > maxHeight_)
        throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS,
                      "width, height: " + std::to_string(info.width) + "x" + std::to_string(info.height) +
                          " outside 1x1 .. " + std::to_string(maxWidth_) + "x" + std::to_string(maxHeight_) +
                          " (the context's maximum extent)"};
    if (info.padding != FFTB_PADDING_ZERO && info.padding != FFTB_PADDING_MIRROR)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "padding: unknown value"};
    if (info.axisOrder > FFTB_AXIS_ORDER_Y_FIRST || info.outputMode > FFTB_OUTPUT_MODE_COMPOSITE)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "axisOrder or outputMode: unknown value"};
    if (!(info.sharpen >= 0.0f && info.sharpen <= 1.0f))
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "sharpen: must lie in [0, 1]"};
    if (!(info.intensity >= 0.0f) || !std::isfinite(info.intensity))
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "intensity: must be finite and >= 0"};

    PlanRequest request{info.width, info.height, kernelWidth_, kernelHeight_};
    request.padding = info.padding == FFTB_PADDING_MIRROR ? Padding::Mirror : Padding::Zero;
    request.axisOrder = info.axisOrder == FFTB_AXIS_ORDER_X_FIRST   ? AxisOrder::XFirst
                        : info.axisOrder == FFTB_AXIS_ORDER_Y_FIRST ? AxisOrder::YFirst
                                                                    : AxisOrder::Auto;
    request.spectrum = spectrumMode_;
    request.lengths = lengths_;
    Plan plan;
    std::string reason;
    if (!makePlan(request, &plan, &reason))
        throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS, reason};
    const AxisPlan& a = plan.first;
    const AxisPlan& b = plan.second;

    FftbPushConstants push{};
    push.imageLength1 = a.imageLength;
    push.imageLength2 = b.imageLength;
    push.paddedLength1 = a.paddedLength;
    push.paddedLength2 = b.paddedLength;
    push.mirrorSplit1 = a.mirrorSplit;
    push.mirrorSplit2 = b.mirrorSplit;
    push.kernelLength1 = a.kernelLength;
    push.kernelLength2 = b.kernelLength;
    push.kernelCentre1 = a.kernelCentre;
    push.kernelCentre2 = b.kernelCentre;
    push.spectrumLength1 = a.spectrumLength;
    push.spectrumLength2 = b.spectrumLength;
    push.firstAxisIsX = plan.firstAxisIsX ? 1u : 0u;
    push.padding = plan.padding == Padding::Mirror ? FFTB_GPU_PADDING_MIRROR : FFTB_GPU_PADDING_ZERO;
    push.resampled = plan.spectrum == SpectrumMode::Resampled ? 1u : 0u;
    push.outputMode = info.outputMode == FFTB_OUTPUT_MODE_COMPOSITE ? FFTB_GPU_OUTPUT_COMPOSITE : FFTB_GPU_OUTPUT_BLOOM;
    push.sharpen = info.sharpen;
    push.intensity = info.intensity;
    push.scale = float(1.0 / (double(a.paddedLength) * double(b.paddedLength)));
    push.spectrumTwiddleOffset1 = twiddleTables().offsetOf(a.spectrumLength);
    push.interpolation = interpolation_;

    const FftbTimestampInfo* timestamps = nullptr;
    for (auto* next = static_cast<const FftbStructureType*>(info.pNext); next;
         next = static_cast<const FftbStructureType*>(reinterpret_cast<const FftbTimestampInfo*>(next)->pNext))
    {
        if (*next != FFTB_STRUCTURE_TYPE_TIMESTAMP_INFO)
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "bloomInfo.pNext: unknown structure type"};
        timestamps = reinterpret_cast<const FftbTimestampInfo*>(next);
        if (!timestamps->queryPool)
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "FftbTimestampInfo.queryPool: VK_NULL_HANDLE"};
    }
    uint32_t stamp = 0;
    const auto writeTimestamp = [&]
    {
        if (timestamps)
            vk_.vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps->queryPool,
                                    timestamps->firstQuery + stamp++);
    };

    // Pipelines first, so that a device limit (workgroup size, shared memory) is reported before anything is recorded.
    pipeline(Pass::KernelFftFirst, a.spectrumLength);
    pipeline(Pass::KernelFftSecond, b.spectrumLength);
    pipeline(Pass::ImageFftFirst, a.paddedLength);
    pipeline(Pass::ImageFftSecondConvolveIfftSecond, b.paddedLength);
    pipeline(Pass::ImageIfftFirstComposite, a.paddedLength);

    const VkDescriptorSet set = nextDescriptorSet(info.inputView, info.inputLayout, info.outputView);
    vk_.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipelineLayout_, 0, 1, &set, 0, nullptr);
    // Orders this bloom after earlier use of the context's buffers (the previous frame's pass 3 reads).
    barrier(cb);
    writeTimestamp();

    const SpectrumKey key{true, plan.firstAxisIsX, a.spectrumLength, b.spectrumLength};
    if (!(spectrumKey_ == key))
    {
        const uint32_t kernelLines = std::min(b.kernelLength, b.spectrumLength);
        dispatch(cb, Pass::KernelFftFirst, a.spectrumLength, (kernelLines + 1) / 2, 1, push);
        barrier(cb);
        dispatch(cb, Pass::KernelFftSecond, b.spectrumLength, a.spectrumLength / 2 + 1, 3, push);
        barrier(cb);
        spectrumKey_ = key;
    }
    writeTimestamp();
    dispatch(cb, Pass::ImageFftFirst, a.paddedLength, (b.imageLength + 1) / 2, 1, push);
    writeTimestamp();
    barrier(cb);
    dispatch(cb, Pass::ImageFftSecondConvolveIfftSecond, b.paddedLength, plan.halfSpectrumLines(), 3, push);
    writeTimestamp();
    barrier(cb);
    dispatch(cb, Pass::ImageIfftFirstComposite, a.paddedLength, (b.imageLength + 1) / 2, 1, push);
    writeTimestamp();
}

} // namespace fftb
