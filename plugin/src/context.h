// SPDX-License-Identifier: MIT
// The object behind FftbContext: pipelines, descriptor sets, the twiddle table and the scratch of one view.
#pragma once

#include "device.h"
#include "kernel.h"
#include "plan.h"
#include "shared/fftb_shared.h"

#include <cstdint>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

namespace fftb
{

/// The passes, in the order of FFTBLOOM_SHADERS (plugin/cmake/Shaders.cmake).
enum class Pass : uint32_t
{
    KernelFftFirst,
    KernelFftSecond,
    ImageFftFirst,
    ImageFftSecondConvolveIfftSecond,
    ImageIfftFirstComposite,
    Count,
};

/// The scratch the passes use: the context's own buffer, or a range of the engine's (FftbScratchInfo).
struct Scratch
{
    Buffer owned;
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;
    VkDeviceSize size = 0;
};

/// Normalized convolution's border weights (FFTB_PADDING_ZERO_NORMALIZED): sized for the context's maximum extent on
/// first use, and what they were last computed for.
struct BorderWeights
{
    Buffer buffer;
    uint64_t kernelSerial = 0; ///< Kernel::serial(); 0 when none were computed
    Plan plan;
    bool halfStorage = false;
    bool holds(uint64_t serial, const Plan& p, bool half) const
    {
        return kernelSerial == serial && plan == p && halfStorage == half;
    }
};

/// Maximum extents of a context (FftbContextCreateInfo, FftbResizeInfo).
struct Extents
{
    uint32_t width, height, kernelWidth, kernelHeight;
};

class Context
{
  public:
    explicit Context(const FftbContextCreateInfo& info);
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    void resize(const FftbResizeInfo& info);
    Kernel* createKernel(const FftbKernelInfo& info);
    void describe(const FftbBloomInfo& info, FftbNodeDescription* description);
    /// fftbGetPassStatistics: FFTB_SUCCESS or FFTB_INCOMPLETE; throws Failure on an error.
    FftbResult passStatistics(const FftbBloomInfo& info, uint32_t* count, FftbPassStatistic* statistics);
    void cmdBloom(VkCommandBuffer commandBuffer, const FftbBloomInfo& info);
    const Device& device() const { return *device_; }

  private:
    /// Destroys what the context created; safe on a partly constructed context.
    void destroy();
    /// The scratch for `extents`: the chained FftbScratchInfo's (checked), or a new buffer.
    Scratch makeScratch(const Extents& extents, const void* chain) const;
    void createLayouts();
    /// Checks `info` and returns its plan, planned once per request (plans_).
    const Plan& plan(const FftbBloomInfo& info);
    /// The pipeline of `pass` for FFTs of `fftLength`; `halfStorage`: the image passes' fp16 intermediate
    /// (FFTB_STORAGE_PRECISION_FLOAT16; the kernel passes always store fp32); `rowLength`: pass 2's rowLengthOf.
    VkPipeline pipeline(Pass pass, uint32_t fftLength, bool halfStorage, uint32_t rowLength = 0);
    /// Invocations per workgroup of an FFT of `fftLength` on this device (workgroupSizeOf at its limits).
    uint32_t workgroupSizeFor(uint32_t fftLength) const;
    VkDescriptorSet nextDescriptorSet(const FftbBloomInfo& info, const Kernel::Binding& kernel);
    /// Whether a bloom with `info`, planned as `plan`, first computes the border weights.
    bool needsBorderWeights(const FftbBloomInfo& info, const Plan& plan) const;
    /// Passes 1-3 with `push`, a barrier between each; `stamp` writes a timestamp after each.
    template <typename Stamp>
    void imagePasses(VkCommandBuffer cb, const Plan& plan, bool half, const FftbPushConstants& push, Stamp stamp);
    void dispatch(VkCommandBuffer cb, Pass pass, uint32_t fftLength, bool half, uint32_t rowLength, uint32_t groupsX,
                  uint32_t groupsY, const FftbPushConstants& push);
    void barrier(VkCommandBuffer cb) const;
    void checkImageBarriers(const FftbImageBarrierInfo& images) const;
    /// The FftbImageBarrierInfo barriers before the first pass (`before`) or after the last.
    void cmdImageBarriers(VkCommandBuffer cb, const FftbImageBarrierInfo& images, VkImageLayout readLayout,
                          bool before) const;

    std::shared_ptr<const Device> device_;
    const VulkanFunctions& vk_;
    Extents max_;
    LengthPolicy lengths_ = LengthPolicy::MixedRadix; ///< FftbPlannerInfo
    Scratch scratch_;
    BorderWeights borderWeights_;
    PlanCache plans_;

    VkSampler sampler_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout pipelineLayout_ = VK_NULL_HANDLE;
    VkDescriptorPool descriptorPool_ = VK_NULL_HANDLE;
    VkShaderModule modules_[uint32_t(Pass::Count)] = {};
    std::map<std::tuple<Pass, uint32_t, bool, uint32_t>, VkPipeline> pipelines_;
    std::vector<VkDescriptorSet> descriptorSets_; ///< one per frame in flight, written in turn
    uint32_t nextDescriptorSet_ = 0;
    Buffer twiddles_;
};

} // namespace fftb
