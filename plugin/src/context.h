// SPDX-License-Identifier: MIT
// The object behind FftbContext: the device, the twiddle table, the scratch for its maximum extents and the pipelines
// its plans and kernels share.
#pragma once

#include "device.h"
#include "kernel.h"
#include "pipelines.h"
#include "recipe.h"

#include <memory>
#include <mutex>
#include <set>

namespace fftb
{

class BloomPlan;

/// The scratch the passes use: the context's own buffer, or a range of the engine's (FftbScratchInfo).
struct Scratch
{
    Buffer owned;
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;
    VkDeviceSize size = 0;
};

class Context
{
  public:
    explicit Context(const FftbContextCreateInfo& info);
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    void resize(const FftbResizeInfo& info);
    /// fftbCreateKernel: the kernel, and with an FftbKernelGeneratorInfo its generator's pipelines (generate.cpp).
    Kernel* createKernel(const FftbKernelInfo& info);

    const std::shared_ptr<const Device>& device() const { return device_; }
    const Extents& maxExtents() const { return max_; }
    FftbLengthPolicy lengthPolicy() const { return lengths_; }
    const Scratch& scratch() const { return scratch_; }
    Pipelines& pipelines() { return *pipelines_; }
    const Pipelines& pipelines() const { return *pipelines_; }

    /// The plans made on the context: a plan adds itself when made and removes itself when destroyed; the context's
    /// destruction orphans those left (BloomPlan::orphan). Safe from several threads (plans are made on workers).
    void addPlan(BloomPlan* plan);
    void removePlan(BloomPlan* plan);

  private:
    /// Destroys what the context created; safe on a partly constructed context.
    void destroy();
    /// The scratch for `extents`: the chained FftbScratchInfo's (checked), or a new buffer.
    Scratch makeScratch(const Extents& extents, const void* chain) const;

    std::shared_ptr<const Device> device_;
    Extents max_;
    FftbLengthPolicy lengths_ = FFTB_LENGTH_POLICY_MIXED_RADIX; ///< FftbPlannerInfo
    Scratch scratch_;
    Buffer twiddles_;
    std::unique_ptr<Pipelines> pipelines_;
    std::mutex plansMutex_;
    std::set<BloomPlan*> plans_;
};

/// fftbCmdGenerateKernel (generate.cpp): the GPU PSF generator's passes for `kernel`, made on `context`, recorded into
/// `commandBuffer`; throws Failure on an error.
void cmdGenerateKernel(const Context& context, VkCommandBuffer commandBuffer, const FftbApertureInfo& info,
                       Kernel& kernel);

} // namespace fftb
