// Instance, device and queue creation, device choice, and the buffer, image and submission helpers.
#include "vulkan_device.h"

#include "host_error.h"

#include <iterator>
#include <vector>

namespace fftb
{

namespace
{

void check(VkResult result, const char* call)
{
    if (result != VK_SUCCESS)
        throw HostError(std::string("Vulkan: ") + call + " failed with VkResult " + std::to_string(int(result)));
}

} // namespace

VulkanDevice::VulkanDevice(const VulkanDeviceOptions& options)
    : instance_(
          {"fftbloom", options.synchronization2 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_1, options.validation, {}}),
      loseDeviceAfterWaits_(options.loseDeviceAfterWaits)
{
    selectDevice(options.deviceIndex);

    uint32_t familyCount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(gpu_, &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(gpu_, &familyCount, families.data());
    queueFamily_ = UINT32_MAX;
    for (uint32_t i = 0; i < familyCount && queueFamily_ == UINT32_MAX; ++i)
        if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            queueFamily_ = i;
    if (queueFamily_ == UINT32_MAX)
        throw HostError(std::string("Vulkan: ") + properties_.deviceName + " has no compute queue");
    timestamps_ = families[queueFamily_].timestampValidBits > 0;

    VkPhysicalDeviceFeatures supported;
    vkGetPhysicalDeviceFeatures(gpu_, &supported);
    if (!supported.shaderStorageImageWriteWithoutFormat)
        throw HostError(std::string("Vulkan: ") + properties_.deviceName +
                        " lacks shaderStorageImageWriteWithoutFormat");
    VkPhysicalDeviceFeatures features{};
    features.shaderStorageImageWriteWithoutFormat = VK_TRUE;
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = queueFamily_;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    VkPhysicalDeviceVulkan13Features features13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    if (options.synchronization2)
    {
        VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        query.pNext = &features13;
        if (properties_.apiVersion >= VK_API_VERSION_1_3)
            vkGetPhysicalDeviceFeatures2(gpu_, &query);
        if (!features13.synchronization2)
            throw HostError(std::string("Vulkan: ") + properties_.deviceName + " lacks Vulkan 1.3 synchronization2");
        features13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
        features13.synchronization2 = VK_TRUE;
        dci.pNext = &features13;
    }
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.pEnabledFeatures = &features;
    check(vkCreateDevice(gpu_, &dci, nullptr, &device_), "vkCreateDevice");
    vkGetDeviceQueue(device_, queueFamily_, 0, &queue_);

    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = queueFamily_;
    check(vkCreateCommandPool(device_, &pci, nullptr, &pool_), "vkCreateCommandPool");
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    check(vkCreateFence(device_, &fci, nullptr, &fence_), "vkCreateFence");
}

VulkanDevice::~VulkanDevice()
{
    if (device_)
    {
        vkDeviceWaitIdle(device_);
        if (fence_)
            vkDestroyFence(device_, fence_, nullptr);
        if (pool_)
            vkDestroyCommandPool(device_, pool_, nullptr);
        vkDestroyDevice(device_, nullptr);
    }
}

void VulkanDevice::selectDevice(int index)
{
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance_.get(), &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(instance_.get(), &count, devices.data());
    if (count == 0)
        throw HostError("Vulkan: no physical device (install mesa-vulkan-drivers for lavapipe)");
    if (index >= 0)
    {
        if (uint32_t(index) >= count)
            throw HostError("--device: no device " + std::to_string(index) + " (" + std::to_string(count) +
                            " present, numbered from 0)");
        gpu_ = devices[size_t(index)];
    }
    else
    {
        for (VkPhysicalDeviceType wanted : {VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, VK_PHYSICAL_DEVICE_TYPE_CPU})
            for (VkPhysicalDevice d : devices)
            {
                VkPhysicalDeviceProperties p;
                vkGetPhysicalDeviceProperties(d, &p);
                if (!gpu_ && p.deviceType == wanted)
                    gpu_ = d;
            }
        if (!gpu_)
            gpu_ = devices[0];
    }
    vkGetPhysicalDeviceProperties(gpu_, &properties_);
    if (properties_.apiVersion < VK_API_VERSION_1_1)
        throw HostError(std::string("Vulkan: ") + properties_.deviceName + " supports only Vulkan 1.0");
}

uint32_t VulkanDevice::memoryType(uint32_t bits, VkMemoryPropertyFlags wanted) const
{
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(gpu_, &props);
    for (uint32_t i = 0; i < props.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (props.memoryTypes[i].propertyFlags & wanted) == wanted)
            return i;
    throw HostError("Vulkan: no suitable memory type");
}

VulkanDevice::Buffer VulkanDevice::createBuffer(VkDeviceSize sizeBytes, VkBufferUsageFlags usage, bool hostVisible)
{
    Buffer b;
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = sizeBytes;
    bci.usage = usage;
    check(vkCreateBuffer(device_, &bci, nullptr, &b.buffer), "vkCreateBuffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device_, b.buffer, &req);
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = memoryType(req.memoryTypeBits, hostVisible ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                                           VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                                                                     : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (VkResult r = vkAllocateMemory(device_, &mai, nullptr, &b.memory); r != VK_SUCCESS)
    {
        destroy(b);
        check(r, "vkAllocateMemory");
    }
    check(vkBindBufferMemory(device_, b.buffer, b.memory, 0), "vkBindBufferMemory");
    if (hostVisible)
        check(vkMapMemory(device_, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory");
    return b;
}

VulkanDevice::Image VulkanDevice::createImage(uint32_t width, uint32_t height, VkFormat format, VkImageUsageFlags usage)
{
    Image img;
    VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.imageType = VK_IMAGE_TYPE_2D;
    ici.format = format;
    ici.extent = {width, height, 1};
    ici.mipLevels = 1;
    ici.arrayLayers = 1;
    ici.samples = VK_SAMPLE_COUNT_1_BIT;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = usage;
    ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    check(vkCreateImage(device_, &ici, nullptr, &img.image), "vkCreateImage");
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(device_, img.image, &req);
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (VkResult r = vkAllocateMemory(device_, &mai, nullptr, &img.memory); r != VK_SUCCESS)
    {
        destroy(img);
        check(r, "vkAllocateMemory");
    }
    check(vkBindImageMemory(device_, img.image, img.memory, 0), "vkBindImageMemory");
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = img.image;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = format;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    check(vkCreateImageView(device_, &vci, nullptr, &img.view), "vkCreateImageView");
    return img;
}

void VulkanDevice::destroy(Buffer& b)
{
    if (b.buffer)
        vkDestroyBuffer(device_, b.buffer, nullptr);
    if (b.memory)
        vkFreeMemory(device_, b.memory, nullptr);
    b = Buffer{};
}

void VulkanDevice::destroy(Image& img)
{
    if (img.view)
        vkDestroyImageView(device_, img.view, nullptr);
    if (img.image)
        vkDestroyImage(device_, img.image, nullptr);
    if (img.memory)
        vkFreeMemory(device_, img.memory, nullptr);
    img = Image{};
}

VkQueryPool VulkanDevice::createTimestampPool(uint32_t count)
{
    VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qpci.queryCount = count;
    VkQueryPool pool = VK_NULL_HANDLE;
    check(vkCreateQueryPool(device_, &qpci, nullptr, &pool), "vkCreateQueryPool");
    return pool;
}

VkCommandBuffer VulkanDevice::beginCommands()
{
    VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbai.commandPool = pool_;
    cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbai.commandBufferCount = 1;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    check(vkAllocateCommandBuffers(device_, &cbai, &cb), "vkAllocateCommandBuffers");
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if (VkResult r = vkBeginCommandBuffer(cb, &begin); r != VK_SUCCESS)
    {
        vkFreeCommandBuffers(device_, pool_, 1, &cb);
        check(r, "vkBeginCommandBuffer");
    }
    return cb;
}

VulkanDevice::Submission VulkanDevice::submit(VkCommandBuffer cb)
{
    Submission submission{cb, VK_NULL_HANDLE};
    const VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkResult r = vkEndCommandBuffer(cb);
    if (r == VK_SUCCESS)
        r = vkCreateFence(device_, &fci, nullptr, &submission.fence);
    if (r == VK_SUCCESS)
    {
        VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cb;
        r = vkQueueSubmit(queue_, 1, &si, submission.fence);
    }
    if (r != VK_SUCCESS)
    {
        vkDeviceWaitIdle(device_); // a failed submission must not leave the buffer pending when freed
        vkDestroyFence(device_, submission.fence, nullptr);
        vkFreeCommandBuffers(device_, pool_, 1, &cb);
        check(r, "vkQueueSubmit");
    }
    return submission;
}

void VulkanDevice::wait(Submission& submission)
{
    if (!submission.commandBuffer)
        return;
    VkResult r = vkWaitForFences(device_, 1, &submission.fence, VK_TRUE, UINT64_MAX);
    if (r == VK_SUCCESS && loseDeviceAfterWaits_ >= 0 && waits_++ >= loseDeviceAfterWaits_)
        r = VK_ERROR_DEVICE_LOST;
    if (r != VK_SUCCESS)
        vkDeviceWaitIdle(device_); // a lost device must not leave the buffer pending when freed
    vkDestroyFence(device_, submission.fence, nullptr);
    vkFreeCommandBuffers(device_, pool_, 1, &submission.commandBuffer);
    submission = {};
    check(r, "vkWaitForFences");
}

void VulkanDevice::submitAndWait(VkCommandBuffer cb)
{
    Submission submission = submit(cb);
    wait(submission);
}

void VulkanDevice::uploadForCompute(VkCommandBuffer cb, VkBuffer source, VkImage image, uint32_t width, uint32_t height)
{
    const VkBufferImageCopy region{0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {width, height, 1}};
    transition(cb, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
               VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    vkCmdCopyBufferToImage(cb, source, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    transition(cb, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
               VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
               VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
}

void VulkanDevice::prepareComputeOutput(VkCommandBuffer cb, VkImage image)
{
    transition(cb, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, 0, VK_ACCESS_SHADER_WRITE_BIT,
               VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
}

void VulkanDevice::transition(VkCommandBuffer cb, VkImage image, VkImageLayout from, VkImageLayout to,
                              VkAccessFlags srcAccess, VkAccessFlags dstAccess, VkPipelineStageFlags srcStage,
                              VkPipelineStageFlags dstStage)
{
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcAccessMask = srcAccess;
    b.dstAccessMask = dstAccess;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(cb, srcStage, dstStage, 0, 0, nullptr, 0, nullptr, 1, &b);
}

} // namespace fftb
