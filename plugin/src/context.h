// SPDX-License-Identifier: MIT
// The object behind FftbContext: pipelines, descriptor sets, the twiddle table and the scratch of one view.
#pragma once

#include "device.h"
#include "kernel.h"
#include "plan.h"
#include "shared/fftb_shared.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
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
    ImageUpsampleComposite, ///< half resolution only; no FFT: its pipeline's key has FFT length 0
    PsfApertureFft,         ///< fftbCmdGenerateKernel: the aperture's rows and their FFT
    PsfPatternFft,          ///< its columns' FFT and the diffraction pattern
    PsfSpectralRgb,         ///< the pattern over each texel at every wavelength; no FFT
    PsfNormalize,           ///< unit sum per channel and deapodization; no FFT
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

/// Maximum extents of a context (FftbContextCreateInfo, FftbResizeInfo): the frame's, the kernel's resolution in
/// texels and its extent on the frame in pixels (0 in the info: the resolution's).
struct Extents
{
    uint32_t width, height, kernelWidth, kernelHeight, kernelExtentWidth, kernelExtentHeight;
    uint32_t views; ///< the most views of one bloom (FftbMultiViewInfo), >= 1
    /// The kernel lengths the scratch is sized for: per axis the larger of the resolution (the kernel's first-axis
    /// transform) and the extent (the frame's padding).
    uint32_t scratchKernelWidth() const { return std::max(kernelWidth, kernelExtentWidth); }
    uint32_t scratchKernelHeight() const { return std::max(kernelHeight, kernelExtentHeight); }
};

/// The maximum extents of an FftbContextCreateInfo or FftbResizeInfo.
template <typename Info> Extents extentsOf(const Info& info)
{
    return {info.maxWidth,
            info.maxHeight,
            info.maxKernelResolutionWidth,
            info.maxKernelResolutionHeight,
            info.maxKernelExtentWidth ? info.maxKernelExtentWidth : info.maxKernelResolutionWidth,
            info.maxKernelExtentHeight ? info.maxKernelExtentHeight : info.maxKernelResolutionHeight,
            info.maxViews ? info.maxViews : 1};
}

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
    /// fftbCmdBloom: FFTB_SUCCESS, or FFTB_NOT_READY (nothing recorded); throws Failure on an error.
    FftbResult cmdBloom(VkCommandBuffer commandBuffer, const FftbBloomInfo& info);
    /// fftbCmdPrepareKernel: as cmdBloom, recording the kernel spectrum passes only.
    FftbResult cmdPrepareKernel(VkCommandBuffer commandBuffer, const FftbBloomInfo& info);
    /// fftbCmdGenerateKernel (generate.cpp); throws Failure on an error.
    void cmdGenerateKernel(VkCommandBuffer commandBuffer, const FftbApertureInfo& info, Kernel& kernel);
    /// fftbPreparePipelines; may run on another thread than the other calls.
    void preparePipelines(const FftbBloomInfo& info);
    const Device& device() const { return *device_; }

  private:
    /// Destroys what the context created; safe on a partly constructed context.
    void destroy();
    /// The scratch for `extents`: the chained FftbScratchInfo's (checked), or a new buffer.
    Scratch makeScratch(const Extents& extents, const void* chain) const;
    void createLayouts();
    /// Checks `info` and returns its plan, planned once per request (plans_, under planMutex_).
    Plan plan(const FftbBloomInfo& info);
    /// The views `info` blooms: its FftbMultiViewInfo's viewCount (checked against FFTB_MAX_VIEWS and maxViews), or 1.
    uint32_t viewCountOf(const FftbBloomInfo& info) const;
    /// A pipeline's specialization: the pass, its FFT length, the image passes' fp16 intermediate
    /// (FFTB_STORAGE_PRECISION_FLOAT16; the kernel passes always store fp32), pass 2's rowLengthOf, and whether the
    /// frame passes bloom several views (FftbMultiViewInfo).
    using PipelineKey = std::tuple<Pass, uint32_t, bool, uint32_t, bool>;
    /// The pipelines a bloom planned as `plan` binds: five, six at half resolution.
    static std::vector<PipelineKey> pipelinesOf(const Plan& plan, bool halfStorage, bool multiView);
    /// The pipeline of `key`, compiled now if it is not yet (pipelines_, under pipelineMutex_; compiled outside it).
    VkPipeline pipeline(const PipelineKey& key);
    /// Compiles the pipeline of `key` from `cpci` and adds it, or destroys it for one another thread added meanwhile.
    VkPipeline createPipeline(const PipelineKey& key, const VkComputePipelineCreateInfo& cpci);
    VkPipeline pipeline(Pass pass, uint32_t fftLength, bool halfStorage, uint32_t rowLength = 0)
    {
        return pipeline(PipelineKey{pass, fftLength, halfStorage, rowLength, false});
    }
    /// Before recording: the pipelines of `plan` are compiled; false when some are not and the context may not
    /// compile while recording (FFTB_CONTEXT_CREATE_NO_COMPILE_WHILE_RECORDING_BIT). A compile is reported.
    bool pipelinesReady(const Plan& plan, bool halfStorage, bool multiView, const char* call);
    /// Invocations per workgroup of an FFT of `fftLength` on this device (workgroupSizeOf at its limits).
    uint32_t workgroupSizeFor(uint32_t fftLength) const;
    /// The next descriptor set, with the buffers and the views of `info`: its FftbMultiViewInfo's, if chained, for a
    /// bloom (`bloom`); else its inputView and outputView, if given.
    VkDescriptorSet nextDescriptorSet(const FftbBloomInfo& info, const Kernel::Binding& kernel, bool bloom);
    /// The next descriptor set, with the generator's buffer as the intermediate, the kernel's texels and the twiddles.
    VkDescriptorSet generatorDescriptorSet(const Kernel::Generation& buffers);
    /// The push constants of every pass of a bloom with `info`, planned as `plan`.
    FftbPushConstants pushConstantsOf(const FftbBloomInfo& info, const Plan& plan) const;
    /// The two passes that compute the kernel spectrum of `plan`, a barrier after each.
    void kernelPasses(VkCommandBuffer cb, const Plan& plan, const FftbPushConstants& push);
    /// Whether a bloom with `info`, planned as `plan`, first computes the border weights.
    bool needsBorderWeights(const FftbBloomInfo& info, const Plan& plan) const;
    /// Passes 1-3 (and 4 at half resolution) with `push`, a barrier between each, over `views` views (one workgroup
    /// grid layer each) with the pipelines for several views when `multiView`; `stamp` writes a timestamp after
    /// each.
    template <typename Stamp>
    void imagePasses(VkCommandBuffer cb, const Plan& plan, bool half, bool multiView, uint32_t views,
                     const FftbPushConstants& push, Stamp stamp);
    /// Binds the pipeline of `key`, pushes `pushBytes` of `push` and dispatches groupsX x groupsY x groupsZ
    /// workgroups, in a debug label naming the pass.
    void dispatch(VkCommandBuffer cb, const PipelineKey& key, uint32_t groupsX, uint32_t groupsY, uint32_t groupsZ,
                  const void* push, uint32_t pushBytes);
    void dispatch(VkCommandBuffer cb, const PipelineKey& key, uint32_t groupsX, uint32_t groupsY, uint32_t groupsZ,
                  const FftbPushConstants& push)
    {
        dispatch(cb, key, groupsX, groupsY, groupsZ, &push, sizeof(push));
    }
    void barrier(VkCommandBuffer cb) const;
    void checkImageBarriers(const FftbImageBarrierInfo& images) const;
    /// The FftbImageBarrierInfo barriers before the first pass (`before`) or after the last.
    void cmdImageBarriers(VkCommandBuffer cb, const FftbImageBarrierInfo& images, VkImageLayout readLayout,
                          bool before) const;

    std::shared_ptr<const Device> device_;
    const VulkanFunctions& vk_;
    Extents max_;
    LengthPolicy lengths_ = LengthPolicy::MixedRadix; ///< FftbPlannerInfo
    FftbContextCreateFlags flags_ = 0;
    VkPipelineCache pipelineCache_ = VK_NULL_HANDLE; ///< the engine's, or VK_NULL_HANDLE
    Scratch scratch_;
    BorderWeights borderWeights_;
    std::mutex planMutex_; ///< guards plans_: fftbPreparePipelines plans on another thread
    PlanCache plans_;

    VkSampler sampler_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout pipelineLayout_ = VK_NULL_HANDLE;
    VkDescriptorPool descriptorPool_ = VK_NULL_HANDLE;
    VkShaderModule modules_[uint32_t(Pass::Count)] = {};
    std::mutex pipelineMutex_; ///< guards pipelines_
    std::map<PipelineKey, VkPipeline> pipelines_;
    std::vector<VkDescriptorSet> descriptorSets_; ///< one per frame in flight, written in turn
    uint32_t nextDescriptorSet_ = 0;
    /// The PSF generator's passes bind only buffers (the intermediate: its own buffer, the kernel's texels, the
    /// twiddles): a layout of those alone, so that binding its sets never reads image views a bloom left behind, which
    /// may be destroyed since. One set per frame in flight, written in turn.
    VkDescriptorSetLayout generatorSetLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout generatorPipelineLayout_ = VK_NULL_HANDLE;
    std::vector<VkDescriptorSet> generatorSets_;
    uint32_t nextGeneratorSet_ = 0;
    /// The pipeline layout of `pass`: the generator's for the PSF passes, else the bloom's.
    VkPipelineLayout layoutOf(Pass pass) const
    {
        return pass >= Pass::PsfApertureFft ? generatorPipelineLayout_ : pipelineLayout_;
    }
    Buffer twiddles_;
};

} // namespace fftb
