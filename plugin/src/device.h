// SPDX-License-Identifier: MIT
// The device a context and its kernels share: entry points, properties, features, buffers, failures.
#pragma once

#include "dispatch.h"
#include "fftbloom/fftbloom_generator.h"

#include <initializer_list>
#include <string>

namespace fftb
{

/// Thrown inside the plugin, turned into an FftbResult and a message at the C API boundary.
struct Failure
{
    FftbResult result;
    VkResult vkResult;
    std::string message;
};

/// The head every chainable fftbloom structure starts with.
struct ChainHeader
{
    FftbStructureType sType;
    const void* pNext;
};

/// The first structure of `type` in a pNext chain, or nullptr.
template <typename T> const T* findInChain(const void* chain, FftbStructureType type)
{
    for (auto h = static_cast<const ChainHeader*>(chain); h; h = static_cast<const ChainHeader*>(h->pNext))
        if (h->sType == type)
            return reinterpret_cast<const T*>(h);
    return nullptr;
}

/// Throws FFTB_ERROR_INVALID_ARGUMENT naming `field` when the chain holds a structure of a type not in `allowed`.
void checkChain(const void* chain, std::initializer_list<FftbStructureType> allowed, const char* field);

/// Throws FFTB_ERROR_INVALID_ARGUMENT naming `field` unless `type` is `expected`, whose enumerator is `name`. A
/// structure type of an older ABI than this library's (FFTB_ABI) is named as such: the program was built against an
/// older fftbloom.h.
void checkStructureType(FftbStructureType type, FftbStructureType expected, const std::string& field, const char* name);

struct Buffer
{
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize sizeBytes = 0;
    void* mapped = nullptr; ///< host-visible buffers stay mapped
    bool engine = false;    ///< made by the engine's FftbBufferAllocatorInfo: released through it
};

/// Everything taken from FftbContextCreateInfo that does not depend on extents. Immutable after construction, so
/// contexts and kernels share it across threads.
class Device
{
  public:
    explicit Device(const FftbContextCreateInfo& info);
    Device(const Device&) = delete; // `allocator` points into the object
    Device& operator=(const Device&) = delete;

    /// Throws a Failure naming `call` when `result` is not VK_SUCCESS (out-of-memory results keep their meaning).
    void check(VkResult result, const char* call) const;
    /// A storage buffer (with `extraUsage` too) of at least `sizeBytes`, device-local, or host-visible, coherent and
    /// mapped; it and its memory named `name` (setName).
    Buffer createBuffer(VkDeviceSize sizeBytes, bool hostVisible, const std::string& name,
                        VkBufferUsageFlags extraUsage = 0) const;
    /// Names a Vulkan object for debuggers and validation messages when the instance has VK_EXT_debug_utils
    /// (FftbDeviceFeaturesInfo::debugUtils); names start with "fftbloom: ".
    void setName(VkObjectType type, uint64_t handle, const std::string& name) const;
    void destroyBuffer(Buffer& buffer) const;
    /// Calls the message callback, if any.
    void report(FftbResult result, VkResult vkResult, const std::string& message) const;

    /// A barrier on one image, recorded in either synchronization model (FftbDeviceFeaturesInfo::synchronization2).
    struct ImageBarrier
    {
        VkImage image;
        VkImageSubresourceRange range;
        VkImageLayout oldLayout, newLayout;
        VkPipelineStageFlags2 srcStages;
        VkAccessFlags2 srcAccess;
        VkPipelineStageFlags2 dstStages;
        VkAccessFlags2 dstAccess;
        /// A queue family ownership transfer's families, or VK_QUEUE_FAMILY_IGNORED twice for none.
        uint32_t srcFamily = VK_QUEUE_FAMILY_IGNORED;
        uint32_t dstFamily = VK_QUEUE_FAMILY_IGNORED;
    };
    /// Records the two barriers of an FftbImageBarrierInfo (input and output) in one command.
    void cmdImageBarriers(VkCommandBuffer cb, const ImageBarrier (&barriers)[2]) const;
    /// A barrier between compute passes: their shader reads and writes before it, before those after it.
    void cmdComputeBarrier(VkCommandBuffer cb) const;
    /// Completion words: how the plugin knows that something it computes once (a kernel spectrum, border weights)
    /// exists, without trusting the order command buffers were recorded in (an engine may drop a command buffer, or
    /// submit command buffers in another order). A word is a host-visible buffer the passes' command buffer writes
    /// `value` to after them (cmdComplete); the result exists once the host reads `value` back (completed). A command
    /// buffer never submitted writes nothing, so the next one records the passes again. Values start at 1
    /// (nextCompletionValue). A word holds a value and a tag, which names what the passes read when they executed
    /// (the generation of a kernel's texels, Kernel::bind); a new word holds 0 and 0.
    Buffer createCompletionWord(const std::string& name) const;
    bool completed(const Buffer& word, uint32_t value, uint32_t tag = 0) const;
    /// The value `word` holds now.
    uint32_t valueOf(const Buffer& word) const;
    /// Records, after the passes before it, the write of `value` to `word`, visible to the host once it executed; its
    /// tag is 0, or copied then from the 4 bytes of `tagSource` at `tagOffset` (when tagSource.buffer is set).
    void cmdComplete(VkCommandBuffer cb, const Buffer& word, uint32_t value, const Buffer& tagSource = {},
                     VkDeviceSize tagOffset = 0) const;
    /// Opens and closes a debug label when the instance has VK_EXT_debug_utils (FftbDeviceFeaturesInfo::debugUtils).
    void cmdBeginLabel(VkCommandBuffer cb, const char* name) const;
    void cmdEndLabel(VkCommandBuffer cb) const;

    VulkanFunctions vk;
    VkDevice device;
    VkPhysicalDevice physicalDevice;
    const VkAllocationCallbacks* allocator; ///< &allocatorCopy_, or nullptr
    VkPhysicalDeviceProperties properties{};
    VkPhysicalDeviceMemoryProperties memoryProperties{};

  private:
    VkAllocationCallbacks allocatorCopy_{}; ///< the caller's callbacks, copied: its struct need not outlive the call
    FftbBufferAllocatorInfo bufferAllocator_{}; ///< the engine's buffer allocator, when chained (allocate set)
    PFN_fftbMessageCallback callback_;
    void* callbackUserData_;
    PFN_vkCmdPipelineBarrier2 cmdPipelineBarrier2_ = nullptr;            ///< set with synchronization2
    PFN_vkCmdBeginDebugUtilsLabelEXT cmdBeginDebugUtilsLabel_ = nullptr; ///< set with debugUtils
    PFN_vkCmdEndDebugUtilsLabelEXT cmdEndDebugUtilsLabel_ = nullptr;
    PFN_vkSetDebugUtilsObjectNameEXT setDebugUtilsObjectName_ = nullptr;

  public:
    /// VK_KHR_push_descriptor's, which every pass records its descriptors with.
    PFN_vkCmdPushDescriptorSetKHR cmdPushDescriptorSet = nullptr;
    /// Set with FftbDeviceFeaturesInfo::pipelineExecutableInfo: pipelines capture their statistics.
    PFN_vkGetPipelineExecutablePropertiesKHR getPipelineExecutableProperties = nullptr;
    PFN_vkGetPipelineExecutableStatisticsKHR getPipelineExecutableStatistics = nullptr;
};

/// A value no completion word of this process held before (Device::completed), never 0.
uint32_t nextCompletionValue();

/// Vulkan 1.0 equivalents of synchronization2 flags past bit 31 (FftbDeviceFeaturesInfo::synchronization2).
VkPipelineStageFlags legacyStages(VkPipelineStageFlags2 stages);
VkAccessFlags legacyAccess(VkAccessFlags2 access);

} // namespace fftb
