// SPDX-License-Identifier: MIT
// Making a bloom plan, and what it tells without recording: its description and its passes' statistics.
#include "bloom_plan.h"

#include <cstring>

namespace fftb
{

BloomPlan::BloomPlan(Context& context, const FftbBloomPlanCreateInfo& info)
    : context_(&context), device_(context.device()), kernel_(kernelOf(info.kernel))
{
    const Device& device = *context.device();
    if (kernel_->device().device != device.device)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "createInfo.kernel: created on another VkDevice"};
    const KernelShape shape{kernel_->width(), kernel_->height(), kernel_->mode(), kernel_->resampling()};
    Refusal refusal;
    if (!resolveRecipe(info, context.maxExtents(), shape, context.lengthPolicy(), context.pipelines().limits(),
                       &recipe_, &refusal))
        throw Failure{refusal.result, VK_SUCCESS, refusal.reason};
    checkScratch();
    context.pipelines().compile(recipe_.pipelines);
    spectrumPasses_ = context.pipelines().compiled(recipe_.spectrumPasses);
    borderWeightPasses_ = context.pipelines().compiled(recipe_.borderWeightPasses);
    framePasses_ = context.pipelines().compiled(recipe_.framePasses);
    kernel_->reserve(recipe_.plan, this);
    try
    {
        // 3 W H fp32 is less than the scratch's 3 (N1 / 2 + 1) L2 complex fp32 (N1 >= L1), within
        // maxStorageBufferRange.
        if (recipe_.normalized)
        {
            const std::string name =
                "fftbloom: plan " + std::to_string(info.width) + "x" + std::to_string(info.height) + " border weights";
            borderWeights_ = device.createBuffer(recipe_.borderWeightBytes, false, name);
            weightsWord_ = device.createCompletionWord(name + " computed");
        }
        context.addPlan(this);
    }
    catch (...)
    {
        // No destructor runs for a constructor that throws.
        device.destroyBuffer(borderWeights_);
        device.destroyBuffer(weightsWord_);
        kernel_->release(recipe_.plan, this);
        throw;
    }
}

BloomPlan::~BloomPlan()
{
    if (context_)
        context_->removePlan(this);
    if (kernel_)
        kernel_->release(recipe_.plan, this);
    device_->destroyBuffer(borderWeights_);
    device_->destroyBuffer(weightsWord_);
}

Kernel& BloomPlan::kernel() const
{
    if (!kernel_)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                      "plan: its kernel was destroyed (fftbDestroyKernel); only fftbDestroyBloomPlan takes it"};
    return *kernel_;
}

void BloomPlan::orphan()
{
    device_->destroyBuffer(borderWeights_);
    device_->destroyBuffer(weightsWord_);
    spectrumPasses_.clear();
    borderWeightPasses_.clear();
    framePasses_.clear();
    context_ = nullptr;
}

void BloomPlan::checkContext() const
{
    if (!context_)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                      "plan: its context was destroyed (fftbDestroyContext); only fftbDestroyBloomPlan takes it"};
}

void BloomPlan::checkScratch() const
{
    const Scratch& scratch = context_->scratch();
    if (recipe_.scratchBytes > scratch.size)
        throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS,
                      "plan: needs " + std::to_string(recipe_.scratchBytes) +
                          " bytes of scratch, the context's holds " + std::to_string(scratch.size) +
                          " (fftbResizeContext made it smaller: make the plan again)"};
}

void BloomPlan::describe(FftbBloomPlanDescription* d) const
{
    const Plan& plan = recipe_.plan;
    void* pNext = d->pNext;
    *d = FftbBloomPlanDescription{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION, pNext};
    d->input = {VkImageLayout(recipe_.inputLayout), VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                VK_ACCESS_2_SHADER_SAMPLED_READ_BIT};
    d->output = {VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT};
    d->scratch = {VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT};
    d->scratchBytes = recipe_.scratchBytes;
    d->spectrumBytes = spectrumBufferBytes(recipe_.spectrumChannelElements);
    d->borderWeightBytes = recipe_.borderWeightBytes;
    const Kernel::Binding kernel = this->kernel().bind(plan);
    d->spectrumPassCount = kernel.computeSpectrum ? uint32_t(recipe_.spectrumPasses.size()) : 0;
    d->borderWeightPassCount = needsBorderWeights(kernel) ? uint32_t(recipe_.borderWeightPasses.size()) : 0;
    d->passCount = uint32_t(recipe_.framePasses.size()) + d->spectrumPassCount + d->borderWeightPassCount;
    d->paddedWidth = plan.firstAxisIsX ? plan.first.paddedLength : plan.second.paddedLength;
    d->paddedHeight = plan.firstAxisIsX ? plan.second.paddedLength : plan.first.paddedLength;
    d->axisOrder = plan.firstAxisIsX ? FFTB_AXIS_ORDER_X_FIRST : FFTB_AXIS_ORDER_Y_FIRST;
    d->kernelExtentWidth = plan.firstAxisIsX ? plan.first.scaledKernelLength : plan.second.scaledKernelLength;
    d->kernelExtentHeight = plan.firstAxisIsX ? plan.second.scaledKernelLength : plan.first.scaledKernelLength;
    d->kernelScale = plan.kernelScale;
    d->modelledCost = costOf(plan.first, plan.second);
}

FftbResult BloomPlan::passStatistics(uint32_t* count, FftbPassStatistic* statistics) const
{
    const Device& device = *device_;
    if (!device.getPipelineExecutableStatistics)
        throw Failure{FFTB_ERROR_UNSUPPORTED, VK_SUCCESS,
                      "fftbGetPassStatistics: the context was created without "
                      "FftbDeviceFeaturesInfo::pipelineExecutableInfo"};
    uint32_t total = 0;
    for (uint32_t number = 1; number <= 3; ++number)
    {
        const PipelineKey& key = recipe_.framePasses[number - 1].pipeline;
        VkPipelineInfoKHR pipelineInfo{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
        pipelineInfo.pipeline = context_->pipelines().get(key);
        uint32_t executables = 0;
        device.check(device.getPipelineExecutableProperties(device.device, &pipelineInfo, &executables, nullptr),
                     "vkGetPipelineExecutablePropertiesKHR");
        for (uint32_t e = 0; e < executables; ++e)
        {
            VkPipelineExecutableInfoKHR executable{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
            executable.pipeline = pipelineInfo.pipeline;
            executable.executableIndex = e;
            uint32_t n = 0;
            device.check(device.getPipelineExecutableStatistics(device.device, &executable, &n, nullptr),
                         "vkGetPipelineExecutableStatisticsKHR");
            std::vector<VkPipelineExecutableStatisticKHR> values(n,
                                                                 {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
            device.check(device.getPipelineExecutableStatistics(device.device, &executable, &n, values.data()),
                         "vkGetPipelineExecutableStatisticsKHR");
            for (uint32_t i = 0; i < n; ++i, ++total)
            {
                if (!statistics || total >= *count)
                    continue;
                const VkPipelineExecutableStatisticKHR& v = values[i];
                FftbPassStatistic& out = statistics[total];
                out = FftbPassStatistic{FFTB_STRUCTURE_TYPE_PASS_STATISTIC, nullptr, number, key.fftLength,
                                        context_->pipelines().workgroupSizeOf(key)};
                std::memcpy(out.name, v.name, sizeof out.name);
                std::memcpy(out.description, v.description, sizeof out.description);
                switch (v.format)
                {
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
                    out.value = v.value.b32 ? 1.0 : 0.0;
                    break;
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
                    out.value = double(v.value.i64);
                    break;
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
                    out.value = double(v.value.u64);
                    break;
                default:
                    out.value = v.value.f64;
                    break;
                }
            }
        }
    }
    if (!statistics)
    {
        *count = total;
        return FFTB_SUCCESS;
    }
    const bool complete = total <= *count;
    *count = std::min(*count, total);
    return complete ? FFTB_SUCCESS : FFTB_INCOMPLETE;
}

} // namespace fftb
