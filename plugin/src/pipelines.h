// SPDX-License-Identifier: MIT
// A context's pipelines: the push-descriptor set layouts, pipeline layouts and shader modules of every pass, and the
// pipelines its plans and kernels compiled, shared by all of them.
#pragma once

#include "device.h"
#include "recipe.h"

#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace fftb
{

/// The resources one pass reads and writes, pushed as its descriptors (VK_KHR_push_descriptor) right before it.
struct PassResources
{
    VkBuffer intermediate = VK_NULL_HANDLE; ///< the scratch, or the generator's buffer
    VkDeviceSize intermediateOffset = 0;
    VkDeviceSize intermediateSize = VK_WHOLE_SIZE;
    VkBuffer kernelTexels = VK_NULL_HANDLE;
    VkBuffer kernelSpectrum = VK_NULL_HANDLE; ///< Bindings::Kernel and Bindings::Frame: 3 ranges, R, G, B
    VkDeviceSize kernelSpectrumChannelBytes = 0;
    VkBuffer borderWeights = VK_NULL_HANDLE; ///< Bindings::Frame: the plan's, or any buffer when it has none
    const VkImageView* inputViews = nullptr; ///< Bindings::Frame: `views` views each
    const VkImageView* outputViews = nullptr;
    uint32_t views = 0;
    VkImageLayout inputLayout = VK_IMAGE_LAYOUT_UNDEFINED;
};

/// A recipe's Dispatch with its compiled pipeline: what recording replays, without a lookup.
struct CompiledDispatch
{
    VkPipeline pipeline = VK_NULL_HANDLE;
    Pass pass = Pass::Count;
    std::array<uint32_t, 3> groups{1, 1, 1};
    bool timestampAfter = false;
};

class Pipelines
{
  public:
    Pipelines(std::shared_ptr<const Device> device, VkPipelineCache cache, VkBuffer twiddles);
    ~Pipelines();
    Pipelines(const Pipelines&) = delete;
    Pipelines& operator=(const Pipelines&) = delete;

    /// The device's limits, as recipes are checked against them.
    const DeviceLimits& limits() const { return limits_; }
    /// Compiles every pipeline of `keys` not compiled yet. Thread-safe: plans may be made on several threads.
    void compile(const std::vector<PipelineKey>& keys);
    /// Invocations per workgroup of the pipeline of `key`: its generated FFT's (generatedFftWorkgroupSize) where it has
    /// one, else workgroupSizeOf(key); 0 for a pass without an FFT.
    uint32_t workgroupSizeOf(const PipelineKey& key) const;
    /// The pipeline of `key`, which compile() made.
    VkPipeline get(const PipelineKey& key) const;
    /// `dispatches` with the pipelines compile() made for them.
    std::vector<CompiledDispatch> compiled(const std::vector<Dispatch>& dispatches) const;
    /// Binds `d.pipeline`, pushes the descriptors of `resources` its pass binds and `pushBytes` of `push`, and
    /// dispatches `d.groups` workgroups, in a debug label naming the pass.
    void dispatch(VkCommandBuffer cb, const CompiledDispatch& d, const PassResources& resources, const void* push,
                  uint32_t pushBytes) const;

  private:
    /// Destroys what the constructor created; safe on a partly constructed object.
    void destroy();
    void createLayouts();
    void pushDescriptors(VkCommandBuffer cb, Bindings bindings, const PassResources& resources) const;
    /// The shader module of `key`'s pass with its FFT generated for the key's length (compiled now), or
    /// VK_NULL_HANDLE where the pass runs the generic FFT (the embedded module).
    VkShaderModule generatedModule(const PipelineKey& key) const;

    std::shared_ptr<const Device> device_;
    const VulkanFunctions& vk_;
    VkPipelineCache cache_;
    VkBuffer twiddles_;
    DeviceLimits limits_;
    VkSampler sampler_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout setLayouts_[3] = {}; ///< by Bindings
    VkPipelineLayout pipelineLayouts_[3] = {}; ///< by Bindings
    VkShaderModule modules_[uint32_t(Pass::Count)] = {};
    mutable std::mutex mutex_; ///< guards pipelines_
    std::map<PipelineKey, VkPipeline> pipelines_;
};

} // namespace fftb
