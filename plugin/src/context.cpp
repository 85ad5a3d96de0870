// SPDX-License-Identifier: MIT
// Context creation: the device, the scratch, the twiddle table, the pipelines; resizing; kernels.
#include "context.h"

#include "bloom_plan.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

namespace fftb
{

Context::Context(const FftbContextCreateInfo& info)
    : device_(std::make_shared<const Device>(info)), max_(extentsOf(info))
{
    if (auto planner = findInChain<FftbPlannerInfo>(info.pNext, FFTB_STRUCTURE_TYPE_PLANNER_INFO))
        lengths_ = planner->lengthPolicy;
    try
    {
        scratch_ = makeScratch(max_, info.pNext);
        // Every FFT length's table, 2.5 MiB in all: a plan of any extent reads its lengths' tables.
        const TwiddleTables& tables = twiddleTables();
        twiddles_ =
            device_->createBuffer(VkDeviceSize(sizeof(float)) * 2 * tables.totalElements, true, "fftbloom: twiddles");
        tables.write(static_cast<float*>(twiddles_.mapped));
        pipelines_ = std::make_unique<Pipelines>(device_, info.pipelineCache, twiddles_.buffer);
    }
    catch (...)
    {
        destroy();
        throw;
    }
}

Context::~Context()
{
    {
        const std::lock_guard<std::mutex> lock(plansMutex_);
        for (BloomPlan* plan : plans_)
            plan->orphan();
        plans_.clear();
    }
    destroy();
}

void Context::addPlan(BloomPlan* plan)
{
    const std::lock_guard<std::mutex> lock(plansMutex_);
    plans_.insert(plan);
}

void Context::removePlan(BloomPlan* plan)
{
    const std::lock_guard<std::mutex> lock(plansMutex_);
    plans_.erase(plan);
}

void Context::destroy()
{
    pipelines_.reset();
    device_->destroyBuffer(twiddles_);
    device_->destroyBuffer(scratch_.owned);
}

Scratch Context::makeScratch(const Extents& extents, const void* chain) const
{
    ScratchSizes sizes;
    std::string reason;
    if (!scratchSizes(extents.width, extents.height, extents.scratchKernelWidth(), extents.scratchKernelHeight(),
                      lengths_, &sizes, &reason, extents.views))
        throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS, "maxWidth, maxHeight: " + reason};
    // Shaders index the scratch with 32-bit element offsets and bind it whole.
    const VkDeviceSize bytes = sizes.scratchBytes;
    const VkPhysicalDeviceLimits& limits = device_->properties.limits;
    if (bytes > limits.maxStorageBufferRange)
        throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS,
                      "maxWidth, maxHeight, maxKernelResolution*, maxKernelExtent*, maxViews: the scratch needs " +
                          std::to_string(bytes) + " bytes, past the device's maxStorageBufferRange of " +
                          std::to_string(limits.maxStorageBufferRange)};
    if (auto next = findInChain<FftbScratchInfo>(chain, FFTB_STRUCTURE_TYPE_SCRATCH_INFO))
    {
        if (!next->buffer)
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "FftbScratchInfo.buffer: VK_NULL_HANDLE"};
        if (next->offset % limits.minStorageBufferOffsetAlignment != 0)
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                          "FftbScratchInfo.offset: " + std::to_string(next->offset) +
                              " is not a multiple of minStorageBufferOffsetAlignment (" +
                              std::to_string(limits.minStorageBufferOffsetAlignment) + ")"};
        if (next->size < bytes)
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                          "FftbScratchInfo.size: " + std::to_string(next->size) + " bytes, the maximum extents need " +
                              std::to_string(bytes) + " (fftbGetMemoryRequirements)"};
        Scratch s;
        s.buffer = next->buffer;
        s.offset = next->offset;
        s.size = std::min<VkDeviceSize>(next->size, limits.maxStorageBufferRange);
        return s;
    }
    Scratch s;
    s.owned = device_->createBuffer(bytes, false, "fftbloom: scratch");
    s.buffer = s.owned.buffer;
    s.size = s.owned.sizeBytes;
    return s;
}

void Context::resize(const FftbResizeInfo& info)
{
    const Extents extents = extentsOf(info);
    // The new scratch first: on failure the context keeps the old one and stays usable.
    Scratch scratch = makeScratch(extents, info.pNext);
    device_->destroyBuffer(scratch_.owned);
    scratch_ = scratch;
    max_ = extents;
}

Kernel* Context::createKernel(const FftbKernelInfo& info)
{
    if (info.width == 0 || info.height == 0)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                      "kernelInfo.width, height: " + std::to_string(info.width) + "x" + std::to_string(info.height) +
                          " is empty"};
    if (info.width > max_.kernelWidth || info.height > max_.kernelHeight)
        throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS,
                      "kernelInfo.width, height: " + std::to_string(info.width) + "x" + std::to_string(info.height) +
                          " outside 1x1 .. " + std::to_string(max_.kernelWidth) + "x" +
                          std::to_string(max_.kernelHeight) +
                          " (the context's maximum kernel resolution, maxKernelResolutionWidth x Height)"};
    auto kernel = std::make_unique<Kernel>(device_, info, max_, lengths_);
    if (const std::vector<PipelineKey> generator = kernel->generatorPipelines(); !generator.empty())
        pipelines_->compile(generator);
    return kernel.release();
}

} // namespace fftb
