// The context behind FftbContext: Vulkan objects, scratch buffers, pipeline and descriptor caches.
#pragma once

#include "dispatch.h"
#include "fftbloom/fftbloom.h"
#include "plan.h"
#include "shared/fftb_shared.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace fftb
{

/// Thrown inside the plugin, turned into an FftbResult and a message at the C API boundary.
struct Failure
{
    FftbResult result;
    VkResult vkResult;
    std::string message;
};

/// The passes, in the order of FFTBLOOM_SHADERS (cmake/Shaders.cmake).
enum class Pass : uint32_t
{
    KernelFftFirst,
    KernelFftSecond,
    ImageFftFirst,
    ImageFftSecondConvolveIfftSecond,
    ImageIfftFirstComposite,
    Count,
};

struct Buffer
{
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize sizeBytes = 0;
    void* mapped = nullptr; ///< host-visible buffers stay mapped
};

/// Which kernel spectrum the spectrum buffer holds; recomputed when it differs from the frame's need.
struct SpectrumKey
{
    bool valid = false;
    bool firstAxisIsX = true;
    uint32_t spectrumLength1 = 0;
    uint32_t spectrumLength2 = 0;
    bool operator==(const SpectrumKey&) const = default;
};

class Context
{
  public:
    explicit Context(const FftbContextCreateInfo& info);
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    void setKernel(const FftbKernelInfo& info);
    void cmdBloom(VkCommandBuffer commandBuffer, const FftbBloomInfo& info);
    void report(FftbResult result, VkResult vkResult, const std::string& message) const;

  private:
    void check(VkResult result, const char* call) const;
    Buffer createBuffer(VkDeviceSize sizeBytes, bool hostVisible);
    void destroyBuffer(Buffer& buffer);
    void createLayouts();
    VkPipeline pipeline(Pass pass, uint32_t fftLength);
    VkDescriptorSet nextDescriptorSet(VkImageView input, VkImageLayout inputLayout, VkImageView output);
    void dispatch(VkCommandBuffer cb, Pass pass, uint32_t fftLength, uint32_t groupsX, uint32_t groupsY,
                  const FftbPushConstants& push);
    void barrier(VkCommandBuffer cb) const;

    VulkanFunctions vk_;
    VkDevice device_;
    VkPhysicalDevice physicalDevice_;
    VkPhysicalDeviceProperties properties_{};
    const VkAllocationCallbacks* allocator_;
    PFN_fftbMessageCallback callback_;
    void* callbackUserData_;
    uint32_t maxWidth_, maxHeight_, maxKernelWidth_, maxKernelHeight_;
    LengthPolicy lengths_ = LengthPolicy::MixedRadix; ///< FftbPlannerInfo

    VkSampler sampler_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout pipelineLayout_ = VK_NULL_HANDLE;
    VkDescriptorPool descriptorPool_ = VK_NULL_HANDLE;
    VkShaderModule modules_[uint32_t(Pass::Count)] = {};
    std::map<std::pair<Pass, uint32_t>, VkPipeline> pipelines_;
    std::vector<VkDescriptorSet> descriptorSets_; ///< one per frame in flight, written in turn
    uint32_t nextDescriptorSet_ = 0;

    Buffer twiddles_, intermediate_, kernelTexels_, kernelSpectrum_;

    bool hasKernel_ = false;
    uint32_t kernelWidth_ = 0, kernelHeight_ = 0;
    SpectrumMode spectrumMode_ = SpectrumMode::Resampled;
    uint32_t interpolation_ = FFTB_GPU_INTERPOLATION_CUBIC; ///< FftbPushConstants::interpolation
    SpectrumKey spectrumKey_;
};

} // namespace fftb
