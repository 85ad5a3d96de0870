// SPDX-License-Identifier: MIT
// The shared device: loading entry points, buffers, barriers in both synchronization models, debug labels.
#include "device.h"

#include <algorithm>
#include <atomic>

namespace fftb
{

Device::Device(const FftbContextCreateInfo& info)
    : device(info.device), physicalDevice(info.physicalDevice), allocator(nullptr), callback_(info.messageCallback),
      callbackUserData_(info.messageUserData)
{
    if (info.allocator)
    {
        allocatorCopy_ = *info.allocator;
        allocator = &allocatorCopy_;
    }
    if (const char* missing = vk.load(info.instance, info.device, info.getInstanceProcAddr, info.getDeviceProcAddr))
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, std::string("get*ProcAddr: no ") + missing};
    vk.vkGetPhysicalDeviceProperties(physicalDevice, &properties);
    vk.vkGetPhysicalDeviceMemoryProperties(physicalDevice, &memoryProperties);
    // What a device can enable, not what it did (that cannot be queried): a device without it cannot have it.
    VkPhysicalDeviceFeatures features{};
    vk.vkGetPhysicalDeviceFeatures(physicalDevice, &features);
    if (!features.shaderStorageImageWriteWithoutFormat)
        throw Failure{FFTB_ERROR_UNSUPPORTED, VK_SUCCESS,
                      std::string(properties.deviceName) +
                          " does not support shaderStorageImageWriteWithoutFormat (the output is a storage image of "
                          "any format)"};
    if (properties.apiVersion < VK_API_VERSION_1_1)
        throw Failure{FFTB_ERROR_UNSUPPORTED, VK_SUCCESS,
                      std::string(properties.deviceName) + " supports Vulkan " +
                          std::to_string(VK_API_VERSION_MAJOR(properties.apiVersion)) + "." +
                          std::to_string(VK_API_VERSION_MINOR(properties.apiVersion)) + ", 1.1 is required"};

    if (auto next = findInChain<FftbBufferAllocatorInfo>(info.pNext, FFTB_STRUCTURE_TYPE_BUFFER_ALLOCATOR_INFO))
    {
        if (!next->allocate || !next->free)
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "FftbBufferAllocatorInfo.allocate, free: NULL"};
        bufferAllocator_ = *next;
    }
    cmdPushDescriptorSet =
        reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(info.getDeviceProcAddr(device, "vkCmdPushDescriptorSetKHR"));
    if (!cmdPushDescriptorSet)
        throw Failure{FFTB_ERROR_UNSUPPORTED, VK_SUCCESS,
                      "device: VK_KHR_push_descriptor is not enabled (getDeviceProcAddr has no "
                      "vkCmdPushDescriptorSetKHR); every pass pushes its descriptors"};

    if (auto next = findInChain<FftbDeviceFeaturesInfo>(info.pNext, FFTB_STRUCTURE_TYPE_DEVICE_FEATURES_INFO))
    {
        if (next->synchronization2)
        {
            auto load = [&](const char* name)
            { return reinterpret_cast<PFN_vkCmdPipelineBarrier2>(info.getDeviceProcAddr(device, name)); };
            cmdPipelineBarrier2_ = load("vkCmdPipelineBarrier2");
            if (!cmdPipelineBarrier2_)
                cmdPipelineBarrier2_ = load("vkCmdPipelineBarrier2KHR");
            if (!cmdPipelineBarrier2_)
                throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                              "FftbDeviceFeaturesInfo.synchronization2: getDeviceProcAddr has no vkCmdPipelineBarrier2 "
                              "or vkCmdPipelineBarrier2KHR"};
        }
        if (next->debugUtils)
        {
            cmdBeginDebugUtilsLabel_ = reinterpret_cast<PFN_vkCmdBeginDebugUtilsLabelEXT>(
                info.getInstanceProcAddr(info.instance, "vkCmdBeginDebugUtilsLabelEXT"));
            cmdEndDebugUtilsLabel_ = reinterpret_cast<PFN_vkCmdEndDebugUtilsLabelEXT>(
                info.getInstanceProcAddr(info.instance, "vkCmdEndDebugUtilsLabelEXT"));
            setDebugUtilsObjectName_ = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(
                info.getInstanceProcAddr(info.instance, "vkSetDebugUtilsObjectNameEXT"));
            if (!cmdBeginDebugUtilsLabel_ || !cmdEndDebugUtilsLabel_ || !setDebugUtilsObjectName_)
                throw Failure{
                    FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                    "FftbDeviceFeaturesInfo.debugUtils: getInstanceProcAddr has no "
                    "vkCmdBeginDebugUtilsLabelEXT, vkCmdEndDebugUtilsLabelEXT or vkSetDebugUtilsObjectNameEXT"};
        }
        if (next->pipelineExecutableInfo)
        {
            getPipelineExecutableProperties = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
                info.getDeviceProcAddr(device, "vkGetPipelineExecutablePropertiesKHR"));
            getPipelineExecutableStatistics = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
                info.getDeviceProcAddr(device, "vkGetPipelineExecutableStatisticsKHR"));
            if (!getPipelineExecutableProperties || !getPipelineExecutableStatistics)
                throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                              "FftbDeviceFeaturesInfo.pipelineExecutableInfo: getDeviceProcAddr has no "
                              "vkGetPipelineExecutableStatisticsKHR (VK_KHR_pipeline_executable_properties)"};
        }
    }
}

namespace
{

/// Why `type` is refused when it is of an older ABI than FFTB_ABI; empty otherwise. ABI 1's structure types had no ABI
/// part (1 .. 17).
std::string olderAbi(FftbStructureType type)
{
    const uint32_t abi = std::max(uint32_t(type) >> 16, 1u);
    if (abi >= FFTB_ABI)
        return {};
    return "structure type " + std::to_string(uint32_t(type)) + " is of fftbloom ABI " + std::to_string(abi) +
           ", this library's is " + std::to_string(FFTB_ABI) +
           ": rebuild the program against this library's fftbloom.h";
}

} // namespace

void checkChain(const void* chain, std::initializer_list<FftbStructureType> allowed, const char* field)
{
    for (auto h = static_cast<const ChainHeader*>(chain); h; h = static_cast<const ChainHeader*>(h->pNext))
        if (std::find(allowed.begin(), allowed.end(), h->sType) == allowed.end())
        {
            const std::string older = olderAbi(h->sType);
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                          std::string(field) + ": " +
                              (older.empty() ? "structure type " + std::to_string(uint32_t(h->sType)) +
                                                   " is not allowed in this chain"
                                             : older)};
        }
}

void checkStructureType(FftbStructureType type, FftbStructureType expected, const std::string& field, const char* name)
{
    if (type == expected)
        return;
    const std::string older = olderAbi(type);
    throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                  field + ": " + (older.empty() ? std::string("not ") + name : older)};
}

void Device::report(FftbResult result, VkResult vkResult, const std::string& message) const
{
    if (callback_)
        callback_(result, vkResult, message.c_str(), callbackUserData_);
}

void Device::check(VkResult result, const char* call) const
{
    if (result == VK_SUCCESS)
        return;
    FftbResult r = FFTB_ERROR_VULKAN;
    if (result == VK_ERROR_OUT_OF_HOST_MEMORY)
        r = FFTB_ERROR_OUT_OF_HOST_MEMORY;
    else if (result == VK_ERROR_OUT_OF_DEVICE_MEMORY)
        r = FFTB_ERROR_OUT_OF_DEVICE_MEMORY;
    throw Failure{r, result, std::string(call) + " failed with VkResult " + std::to_string(int(result))};
}

Buffer Device::createBuffer(VkDeviceSize sizeBytes, bool hostVisible, const std::string& name,
                            VkBufferUsageFlags extraUsage) const
{
    Buffer b;
    b.sizeBytes = std::max<VkDeviceSize>(sizeBytes, 16);
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | extraUsage;
    if (bufferAllocator_.allocate)
    {
        const VkResult result = bufferAllocator_.allocate(bufferAllocator_.userData, b.sizeBytes, usage,
                                                          hostVisible ? VK_TRUE : VK_FALSE, &b.buffer, &b.mapped);
        check(result, "FftbBufferAllocatorInfo.allocate");
        if (!b.buffer || (hostVisible && !b.mapped))
            throw Failure{FFTB_ERROR_VULKAN, VK_SUCCESS,
                          "FftbBufferAllocatorInfo.allocate: returned VK_SUCCESS without a buffer or a mapping"};
        b.engine = true;
        setName(VK_OBJECT_TYPE_BUFFER, uint64_t(b.buffer), name);
        return b;
    }
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = b.sizeBytes;
    bci.usage = usage;
    bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    check(vk.vkCreateBuffer(device, &bci, allocator, &b.buffer), "vkCreateBuffer");
    VkMemoryRequirements req;
    vk.vkGetBufferMemoryRequirements(device, b.buffer, &req);
    // Host-visible buffers (the twiddle tables, kernel texels) are written once by the host and read by every bloom:
    // device-local memory the host can map (resizable BAR) where the device has it, else host memory.
    const VkMemoryPropertyFlags required =
        hostVisible ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                    : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    uint32_t type = UINT32_MAX;
    for (const VkMemoryPropertyFlags wanted : {required | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, required})
        for (uint32_t i = 0; i < memoryProperties.memoryTypeCount && type == UINT32_MAX; ++i)
            if ((req.memoryTypeBits & (1u << i)) && (memoryProperties.memoryTypes[i].propertyFlags & wanted) == wanted)
                type = i;
    try
    {
        if (type == UINT32_MAX)
            throw Failure{FFTB_ERROR_UNSUPPORTED, VK_SUCCESS, "no memory type for a storage buffer"};
        VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        mai.allocationSize = req.size;
        mai.memoryTypeIndex = type;
        check(vk.vkAllocateMemory(device, &mai, allocator, &b.memory), "vkAllocateMemory");
        check(vk.vkBindBufferMemory(device, b.buffer, b.memory, 0), "vkBindBufferMemory");
        if (hostVisible)
            check(vk.vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory");
    }
    catch (...)
    {
        destroyBuffer(b);
        throw;
    }
    setName(VK_OBJECT_TYPE_BUFFER, uint64_t(b.buffer), name);
    setName(VK_OBJECT_TYPE_DEVICE_MEMORY, uint64_t(b.memory), name);
    return b;
}

void Device::setName(VkObjectType type, uint64_t handle, const std::string& name) const
{
    if (!setDebugUtilsObjectName_)
        return;
    VkDebugUtilsObjectNameInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
    info.objectType = type;
    info.objectHandle = handle;
    info.pObjectName = name.c_str();
    // A name is a convenience: a failure to set one fails nothing.
    setDebugUtilsObjectName_(device, &info);
}

void Device::cmdComputeBarrier(VkCommandBuffer cb) const
{
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vk.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb,
                            0, nullptr, 0, nullptr);
}

Buffer Device::createCompletionWord(const std::string& name) const
{
    Buffer word = createBuffer(2 * sizeof(uint32_t), true, name,
                               VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    auto* words = static_cast<volatile uint32_t*>(word.mapped);
    words[0] = 0;
    words[1] = 0;
    return word;
}

bool Device::completed(const Buffer& word, uint32_t value, uint32_t tag) const
{
    const auto* words = static_cast<const volatile uint32_t*>(word.mapped);
    return words[0] == value && words[1] == tag;
}

uint32_t Device::valueOf(const Buffer& word) const
{
    return *static_cast<const volatile uint32_t*>(word.mapped);
}

void Device::cmdComplete(VkCommandBuffer cb, const Buffer& word, uint32_t value, const Buffer& tagSource,
                         VkDeviceSize tagOffset) const
{
    // After the passes, and after the writes of the word and of the tag's source by command buffers submitted
    // earlier.
    VkMemoryBarrier before{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    before.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    before.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    vk.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                            VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &before, 0, nullptr, 0, nullptr);
    if (tagSource.buffer)
    {
        vk.vkCmdUpdateBuffer(cb, word.buffer, 0, sizeof value, &value);
        const VkBufferCopy tag{tagOffset, sizeof(uint32_t), sizeof(uint32_t)};
        vk.vkCmdCopyBuffer(cb, tagSource.buffer, word.buffer, 1, &tag);
    }
    else
    {
        const uint32_t words[2] = {value, 0};
        vk.vkCmdUpdateBuffer(cb, word.buffer, 0, sizeof words, words);
    }
    VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    toHost.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vk.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0, nullptr,
                            0, nullptr);
}

uint32_t nextCompletionValue()
{
    static std::atomic<uint32_t> last{0};
    uint32_t value = ++last;
    return value ? value : ++last;
}

void Device::destroyBuffer(Buffer& b) const
{
    if (b.engine)
        bufferAllocator_.free(bufferAllocator_.userData, b.buffer);
    else if (b.buffer)
        vk.vkDestroyBuffer(device, b.buffer, allocator);
    if (b.memory)
        vk.vkFreeMemory(device, b.memory, allocator);
    b = Buffer{};
}

VkPipelineStageFlags legacyStages(VkPipelineStageFlags2 stages)
{
    constexpr VkPipelineStageFlags2 transfer = VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_RESOLVE_BIT |
                                               VK_PIPELINE_STAGE_2_BLIT_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT;
    constexpr VkPipelineStageFlags2 vertexInput =
        VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT | VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT;
    VkPipelineStageFlags legacy = VkPipelineStageFlags(stages & 0xFFFFFFFFu);
    if (stages & transfer)
        legacy |= VK_PIPELINE_STAGE_TRANSFER_BIT;
    if (stages & vertexInput)
        legacy |= VK_PIPELINE_STAGE_VERTEX_INPUT_BIT;
    if (stages & ~(VkPipelineStageFlags2(0xFFFFFFFFu) | transfer | vertexInput))
        legacy |= VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    return legacy;
}

VkAccessFlags legacyAccess(VkAccessFlags2 access)
{
    constexpr VkAccessFlags2 reads = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
    constexpr VkAccessFlags2 writes = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
    VkAccessFlags legacy = VkAccessFlags(access & 0xFFFFFFFFu);
    if (access & reads)
        legacy |= VK_ACCESS_SHADER_READ_BIT;
    if (access & writes)
        legacy |= VK_ACCESS_SHADER_WRITE_BIT;
    if (access & ~(VkAccessFlags2(0xFFFFFFFFu) | reads | writes))
        legacy |= VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    return legacy;
}

void Device::cmdImageBarriers(VkCommandBuffer cb, const ImageBarrier (&barriers)[2]) const
{
    constexpr uint32_t count = 2;
    if (cmdPipelineBarrier2_)
    {
        VkImageMemoryBarrier2 b2[2];
        for (uint32_t i = 0; i < count; ++i)
        {
            b2[i] = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
            b2[i].srcStageMask = barriers[i].srcStages;
            b2[i].srcAccessMask = barriers[i].srcAccess;
            b2[i].dstStageMask = barriers[i].dstStages;
            b2[i].dstAccessMask = barriers[i].dstAccess;
            b2[i].oldLayout = barriers[i].oldLayout;
            b2[i].newLayout = barriers[i].newLayout;
            b2[i].srcQueueFamilyIndex = barriers[i].srcFamily;
            b2[i].dstQueueFamilyIndex = barriers[i].dstFamily;
            b2[i].image = barriers[i].image;
            b2[i].subresourceRange = barriers[i].range;
        }
        VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
        dependency.imageMemoryBarrierCount = count;
        dependency.pImageMemoryBarriers = b2;
        cmdPipelineBarrier2_(cb, &dependency);
        return;
    }
    VkImageMemoryBarrier b1[2];
    VkPipelineStageFlags src = 0, dst = 0;
    for (uint32_t i = 0; i < count; ++i)
    {
        b1[i] = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
        b1[i].srcAccessMask = legacyAccess(barriers[i].srcAccess);
        b1[i].dstAccessMask = legacyAccess(barriers[i].dstAccess);
        b1[i].oldLayout = barriers[i].oldLayout;
        b1[i].newLayout = barriers[i].newLayout;
        b1[i].srcQueueFamilyIndex = barriers[i].srcFamily;
        b1[i].dstQueueFamilyIndex = barriers[i].dstFamily;
        b1[i].image = barriers[i].image;
        b1[i].subresourceRange = barriers[i].range;
        src |= legacyStages(barriers[i].srcStages);
        dst |= legacyStages(barriers[i].dstStages);
    }
    // Without synchronization2 an empty stage mask is invalid: NONE becomes TOP_OF_PIPE before, BOTTOM_OF_PIPE after.
    if (!src)
        src = VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT;
    if (!dst)
        dst = VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;
    vk.vkCmdPipelineBarrier(cb, src, dst, 0, 0, nullptr, 0, nullptr, count, b1);
}

void Device::cmdBeginLabel(VkCommandBuffer cb, const char* name) const
{
    if (!cmdBeginDebugUtilsLabel_)
        return;
    VkDebugUtilsLabelEXT label{VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
    label.pLabelName = name;
    cmdBeginDebugUtilsLabel_(cb, &label);
}

void Device::cmdEndLabel(VkCommandBuffer cb) const
{
    if (cmdEndDebugUtilsLabel_)
        cmdEndDebugUtilsLabel_(cb);
}

} // namespace fftb
