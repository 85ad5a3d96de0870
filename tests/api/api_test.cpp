// SPDX-License-Identifier: MIT
// The C API's argument checks and result codes, and the lifetimes of plans, kernels and images across frames, on a
// lavapipe device with the Khronos validation layer and its synchronization validation on.
#include "copy_barriers.h"
#include "vulkan/loaded_libraries.h"

#include <fftbloom/fftbloom_generator.h>

#include <gtest/gtest.h>

#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace
{

/// What the plugin reported through PFN_fftbMessageCallback.
struct Message
{
    FftbResult result;
    VkResult vkResult;
    std::string text;
};

/// Records every message: the plugin calls the callback for failures only.
void recordMessage(FftbResult result, VkResult vkResult, const char* message, void* userData)
{
    static_cast<std::vector<Message>*>(userData)->push_back({result, vkResult, message ? message : "(null)"});
}

VKAPI_ATTR VkBool32 VKAPI_CALL recordValidation(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                                const VkDebugUtilsMessengerCallbackDataEXT* data, void* userData)
{
    static_cast<std::vector<std::string>*>(userData)->emplace_back(data->pMessage ? data->pMessage : "(null)");
    return VK_FALSE;
}

bool hasLayer(const char* name)
{
    uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, nullptr);
    std::vector<VkLayerProperties> layers(count);
    vkEnumerateInstanceLayerProperties(&count, layers.data());
    for (const VkLayerProperties& layer : layers)
        if (std::strcmp(layer.layerName, name) == 0)
            return true;
    return false;
}

bool hasDeviceExtension(VkPhysicalDevice physicalDevice, const char* name)
{
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(physicalDevice, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateDeviceExtensionProperties(physicalDevice, nullptr, &count, extensions.data());
    for (const VkExtensionProperties& extension : extensions)
        if (std::strcmp(extension.extensionName, name) == 0)
            return true;
    return false;
}

/// Kernel texels (RGB, 0.1 .. 1) that differ from texel to texel, channel to channel and seed to seed: the bloom of
/// another kernel, or of this one mirrored, differs from this one's.
std::vector<float> unevenTexels(uint32_t width, uint32_t height, uint32_t seed)
{
    std::vector<float> texels(size_t(width) * height * 3);
    for (size_t i = 0; i < texels.size(); ++i)
        texels[i] = 0.1f + float((i * 7 + seed * 13) % 17) / 18.0f;
    return texels;
}

/// The kernel info of `texels` (width x height, kept alive by the caller) in FFTB_SPECTRUM_MODE_EXACT: its bloom is the
/// linear convolution to fp32 accuracy.
FftbKernelInfo exactKernelInfo(const std::vector<float>& texels, uint32_t width, uint32_t height)
{
    FftbKernelInfo info{FFTB_STRUCTURE_TYPE_KERNEL_INFO};
    info.width = width;
    info.height = height;
    info.texels = texels.data();
    info.spectrumMode = FFTB_SPECTRUM_MODE_EXACT;
    return info;
}

/// A Vulkan 1.1 instance with validation, a device on lavapipe, and the small objects the calls need.
/// Every validation warning or error is collected and fails the test at teardown.
class ApiTest : public ::testing::Test
{
  protected:
    /// The extent of the frames the GPU tests bloom.
    static constexpr uint32_t kFrame = 16;

    /// An image, its memory and its 2D view.
    struct Image
    {
        VkImage image = VK_NULL_HANDLE;
        VkDeviceMemory memory = VK_NULL_HANDLE;
        VkImageView view = VK_NULL_HANDLE;
    };

    /// A host-visible, coherent buffer, mapped.
    struct HostBuffer
    {
        VkBuffer buffer = VK_NULL_HANDLE;
        VkDeviceMemory memory = VK_NULL_HANDLE;
        float* mapped = nullptr;
    };

    /// One frame on the GPU: a black kFrame x kFrame input with a single light of 1 at (lightX, lightY), uploaded from
    /// a host buffer, and an output read back into another.
    struct GpuFrame
    {
        uint32_t lightX = 0, lightY = 0;
        Image input, output;
        HostBuffer upload, readback;
    };

    void SetUp() override
    {
        const char* layer = "VK_LAYER_KHRONOS_validation";
        // Without the layer the test would pass while checking nothing it promises.
        ASSERT_TRUE(hasLayer(layer)) << layer << " is not installed (Debian: vulkan-validationlayers)";

        VkDebugUtilsMessengerCreateInfoEXT messengerInfo{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
        messengerInfo.messageSeverity =
            VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
        messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                    VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                    VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
        messengerInfo.pfnUserCallback = recordValidation;
        messengerInfo.pUserData = &validationMessages_;

        VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
        app.pApplicationName = "fftbloom-api-tests";
        app.apiVersion = VK_API_VERSION_1_1;
        const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
        // Synchronization validation too: hazards (SYNC-HAZARD-*) are validation errors, collected like the others.
        const VkValidationFeatureEnableEXT enabledFeatures[] = {
            VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
        VkValidationFeaturesEXT validationFeatures{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
        validationFeatures.pNext = &messengerInfo; // also covers vkCreateInstance and vkDestroyInstance
        validationFeatures.enabledValidationFeatureCount = 1;
        validationFeatures.pEnabledValidationFeatures = enabledFeatures;
        VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
        ici.pNext = &validationFeatures;
        ici.pApplicationInfo = &app;
        ici.enabledLayerCount = 1;
        ici.ppEnabledLayerNames = &layer;
        ici.enabledExtensionCount = 2;
        ici.ppEnabledExtensionNames = extensions;
        ASSERT_EQ(vkCreateInstance(&ici, nullptr, &instance_), VK_SUCCESS);
        fftb::keepLoadedLibrariesUntilExit(); // the layer and the drivers, for leak reports that name them
        const auto createMessenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
        ASSERT_NE(createMessenger, nullptr);
        ASSERT_EQ(createMessenger(instance_, &messengerInfo, nullptr, &messenger_), VK_SUCCESS);

        uint32_t count = 0;
        vkEnumeratePhysicalDevices(instance_, &count, nullptr);
        std::vector<VkPhysicalDevice> devices(count);
        vkEnumeratePhysicalDevices(instance_, &count, devices.data());
        for (VkPhysicalDevice d : devices)
        {
            VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
            VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
            props.pNext = &driver;
            vkGetPhysicalDeviceProperties2(d, &props);
            if (driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE)
                physicalDevice_ = d;
        }
        ASSERT_NE(physicalDevice_, VK_NULL_HANDLE) << "no lavapipe device (Debian: mesa-vulkan-drivers)";
        ASSERT_TRUE(hasDeviceExtension(physicalDevice_, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME));

        vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice_, &count, nullptr);
        std::vector<VkQueueFamilyProperties> families(count);
        vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice_, &count, families.data());
        for (uint32_t i = 0; i < count && queueFamily_ == UINT32_MAX; ++i)
            if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
                queueFamily_ = i;
        ASSERT_NE(queueFamily_, UINT32_MAX) << "no compute queue";
        ASSERT_EQ(createDevice(true, &device_), VK_SUCCESS);
        vkGetDeviceQueue(device_, queueFamily_, 0, &queue_);
    }

    void TearDown() override
    {
        if (device_)
        {
            // After a failed assertion, work may still be pending, and waiting for an event.
            for (VkEvent event : events_)
                vkSetEvent(device_, event);
            vkDeviceWaitIdle(device_);
        }
        for (FftbBloomPlan plan : plans_)
            fftbDestroyBloomPlan(plan);
        for (FftbKernel kernel : kernels_)
            fftbDestroyKernel(kernel);
        fftbDestroyKernel(kernel_);
        fftbDestroyContext(context_);
        if (device_)
        {
            for (VkImageView view : views_)
                vkDestroyImageView(device_, view, nullptr);
            for (VkImage image : images_)
                vkDestroyImage(device_, image, nullptr);
            for (VkBuffer buffer : buffers_)
                vkDestroyBuffer(device_, buffer, nullptr);
            for (VkDeviceMemory memory : memories_)
                vkFreeMemory(device_, memory, nullptr);
            for (VkFence fence : fences_)
                vkDestroyFence(device_, fence, nullptr);
            for (VkEvent event : events_)
                vkDestroyEvent(device_, event, nullptr);
            if (commandPool_)
                vkDestroyCommandPool(device_, commandPool_, nullptr);
            vkDestroyDevice(device_, nullptr);
        }
        if (messenger_)
        {
            const auto destroyMessenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
                vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
            destroyMessenger(instance_, messenger_, nullptr);
        }
        if (instance_)
            vkDestroyInstance(instance_, nullptr);
        EXPECT_EQ(validationMessages_.size(), 0u) << "validation messages:";
        for (const std::string& m : validationMessages_)
            ADD_FAILURE() << "validation: " << m;
    }

    /// A device on physicalDevice_ with one compute queue and the feature fftbloom needs, and with the extension it
    /// needs when `pushDescriptor`.
    VkResult createDevice(bool pushDescriptor, VkDevice* device) const
    {
        const float priority = 1.0f;
        VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
        qci.queueFamilyIndex = queueFamily_;
        qci.queueCount = 1;
        qci.pQueuePriorities = &priority;
        // The plugin's output is a storage image of any format, and every pass pushes its descriptors:
        // FftbContextCreateInfo requires both.
        VkPhysicalDeviceFeatures features{};
        features.shaderStorageImageWriteWithoutFormat = VK_TRUE;
        const char* extension = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
        VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
        dci.queueCreateInfoCount = 1;
        dci.pQueueCreateInfos = &qci;
        dci.pEnabledFeatures = &features;
        dci.enabledExtensionCount = pushDescriptor ? 1 : 0;
        dci.ppEnabledExtensionNames = &extension;
        return vkCreateDevice(physicalDevice_, &dci, nullptr, device);
    }

    /// Valid settings for a small context; tests break one field at a time.
    FftbContextCreateInfo validCreateInfo()
    {
        FftbContextCreateInfo info{};
        info.sType = FFTB_STRUCTURE_TYPE_CONTEXT_CREATE_INFO;
        info.instance = instance_;
        info.physicalDevice = physicalDevice_;
        info.device = device_;
        info.getInstanceProcAddr = vkGetInstanceProcAddr;
        info.getDeviceProcAddr = vkGetDeviceProcAddr;
        info.maxWidth = 64;
        info.maxHeight = 48;
        info.maxKernelResolutionWidth = 16;
        info.maxKernelResolutionHeight = 8;
        info.messageCallback = recordMessage;
        info.messageUserData = &messages_;
        return info;
    }

    /// Creates context_ from validCreateInfo(); expects success and silence.
    void createContext()
    {
        const FftbContextCreateInfo info = validCreateInfo();
        ASSERT_EQ(fftbCreateContext(&info, &context_), FFTB_SUCCESS);
        ASSERT_NE(context_, nullptr);
        ASSERT_TRUE(messages_.empty()) << messages_[0].text;
    }

    /// A kernel of `width` x `height` texels, all ones (a box blur), kept alive in kernelTexels_.
    FftbKernelInfo kernel(uint32_t width, uint32_t height)
    {
        kernelTexels_.assign(size_t(width) * height * 3, 1.0f);
        FftbKernelInfo info{};
        info.sType = FFTB_STRUCTURE_TYPE_KERNEL_INFO;
        info.width = width;
        info.height = height;
        info.texels = kernelTexels_.data();
        info.spectrumMode = FFTB_SPECTRUM_MODE_RESAMPLED;
        return info;
    }

    /// fftbCreateKernel of `info` on context_ into kernel_ (the previous one destroyed, with the plans).
    FftbResult createKernel(const FftbKernelInfo& info)
    {
        destroyPlans();
        fftbDestroyKernel(kernel_);
        kernel_ = nullptr;
        return fftbCreateKernel(context_, &info, &kernel_);
    }

    /// A kernel of `info` on context_ besides kernel_, destroyed at teardown unless destroyKernel is called first.
    FftbKernel addKernel(const FftbKernelInfo& info)
    {
        FftbKernel made = nullptr;
        EXPECT_EQ(fftbCreateKernel(context_, &info, &made), FFTB_SUCCESS);
        if (made)
            kernels_.push_back(made);
        return made;
    }

    void destroyKernel(FftbKernel kernel)
    {
        kernels_.erase(std::find(kernels_.begin(), kernels_.end(), kernel));
        fftbDestroyKernel(kernel);
    }

    /// Valid plan settings within validCreateInfo()'s extents, for kernel_.
    FftbBloomPlanCreateInfo validPlanInfo() const
    {
        FftbBloomPlanCreateInfo info{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_CREATE_INFO};
        info.kernel = kernel_;
        info.width = 16;
        info.height = 16;
        info.inputLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        info.padding = FFTB_PADDING_ZERO;
        info.axisOrder = FFTB_AXIS_ORDER_AUTO;
        return info;
    }

    /// fftbCreateBloomPlan of `info` on `context` (context_ when null) into `*plan`; a plan made is destroyed at
    /// teardown, or by destroyPlan or destroyPlans, before any kernel or context.
    FftbResult createPlan(const FftbBloomPlanCreateInfo& info, FftbBloomPlan* plan, FftbContext context = nullptr)
    {
        int sentinel = 0;
        *plan = reinterpret_cast<FftbBloomPlan>(&sentinel); // any non-null value, to see it cleared on failure
        const FftbResult result = fftbCreateBloomPlan(context ? context : context_, &info, plan);
        EXPECT_EQ(result == FFTB_SUCCESS, *plan != nullptr) << "a plan exactly when it succeeds";
        if (*plan)
            plans_.push_back(*plan);
        return result;
    }

    /// A plan of `info` on context_; expects success and silence.
    FftbBloomPlan plan(const FftbBloomPlanCreateInfo& info)
    {
        FftbBloomPlan made = nullptr;
        EXPECT_EQ(createPlan(info, &made), FFTB_SUCCESS) << (messages_.empty() ? "" : messages_[0].text);
        return made;
    }

    /// Creates context_ and an exact 5 x 5 kernel of `texels`; a plan of it with FFTB_PADDING_ZERO_NORMALIZED, whose
    /// blooms compute the kernel spectrum and the border weights first, or nullptr.
    FftbBloomPlan normalizedPlanOf(const std::vector<float>& texels)
    {
        createContext();
        EXPECT_EQ(createKernel(exactKernelInfo(texels, 5, 5)), FFTB_SUCCESS);
        FftbBloomPlanCreateInfo planInfo = validPlanInfo();
        planInfo.padding = FFTB_PADDING_ZERO_NORMALIZED;
        return plan(planInfo);
    }

    void destroyPlan(FftbBloomPlan plan)
    {
        plans_.erase(std::find(plans_.begin(), plans_.end(), plan));
        fftbDestroyBloomPlan(plan);
    }

    void destroyPlans()
    {
        for (FftbBloomPlan plan : plans_)
            fftbDestroyBloomPlan(plan);
        plans_.clear();
    }

    /// Expects exactly one message since the last check, with `result` and naming `field`; then forgets it.
    void expectOneMessage(FftbResult result, const std::string& field)
    {
        ASSERT_EQ(messages_.size(), 1u) << "message callback calls";
        EXPECT_EQ(messages_[0].result, result) << messages_[0].text;
        EXPECT_EQ(messages_[0].vkResult, VK_SUCCESS) << messages_[0].text;
        EXPECT_NE(messages_[0].text.find(field), std::string::npos)
            << "message \"" << messages_[0].text << "\" does not name " << field;
        messages_.clear();
    }

    /// Expects fftbCmdBloom and fftbCmdPrepareKernel with `plan` to return `result`, each with one message naming
    /// `field`.
    void expectRecordingRefused(FftbBloomPlan plan, FftbResult result, const std::string& field)
    {
        const VkCommandBuffer cb = beginCommandBuffer();
        const FftbBloomInfo bloom = validBloomInfo();
        EXPECT_EQ(fftbCmdBloom(plan, cb, &bloom), result);
        expectOneMessage(result, field);
        EXPECT_EQ(fftbCmdPrepareKernel(plan, cb), result);
        expectOneMessage(result, field);
        endCommandBuffer(cb);
    }

    /// Memory for `requirements` with `flags`, freed at teardown unless released first (destroyImage,
    /// destroyHostBuffer).
    VkDeviceMemory allocate(const VkMemoryRequirements& requirements, VkMemoryPropertyFlags flags)
    {
        VkPhysicalDeviceMemoryProperties props;
        vkGetPhysicalDeviceMemoryProperties(physicalDevice_, &props);
        uint32_t type = 0;
        while (type < props.memoryTypeCount && (!(requirements.memoryTypeBits & (1u << type)) ||
                                                (props.memoryTypes[type].propertyFlags & flags) != flags))
            ++type;
        EXPECT_LT(type, props.memoryTypeCount) << "no memory type with flags " << flags;
        VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        mai.allocationSize = requirements.size;
        mai.memoryTypeIndex = type;
        VkDeviceMemory memory = VK_NULL_HANDLE;
        EXPECT_EQ(vkAllocateMemory(device_, &mai, nullptr, &memory), VK_SUCCESS);
        memories_.push_back(memory);
        return memory;
    }

    /// Destroys `handle` with `destroy` and forgets it in `owned`.
    template <typename Handle, typename Destroy>
    void release(std::vector<Handle>& owned, Handle& handle, Destroy destroy)
    {
        if (!handle)
            return;
        owned.erase(std::find(owned.begin(), owned.end(), handle));
        destroy(device_, handle, nullptr);
        handle = VK_NULL_HANDLE;
    }

    /// A 2D RGBA32F image of `size` x `size` texels with `usage`, bound to memory of its own, and its view.
    Image createImage(VkImageUsageFlags usage, uint32_t size)
    {
        VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
        ici.imageType = VK_IMAGE_TYPE_2D;
        ici.format = VK_FORMAT_R32G32B32A32_SFLOAT;
        ici.extent = {size, size, 1};
        ici.mipLevels = 1;
        ici.arrayLayers = 1;
        ici.samples = VK_SAMPLE_COUNT_1_BIT;
        ici.tiling = VK_IMAGE_TILING_OPTIMAL;
        ici.usage = usage;
        ici.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
        ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        Image image;
        EXPECT_EQ(vkCreateImage(device_, &ici, nullptr, &image.image), VK_SUCCESS);
        images_.push_back(image.image);
        // A view needs bound memory (VUID-VkImageViewCreateInfo-image-01020).
        VkMemoryRequirements requirements;
        vkGetImageMemoryRequirements(device_, image.image, &requirements);
        image.memory = allocate(requirements, 0);
        EXPECT_EQ(vkBindImageMemory(device_, image.image, image.memory, 0), VK_SUCCESS);
        VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        vci.image = image.image;
        vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
        vci.format = ici.format;
        vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        EXPECT_EQ(vkCreateImageView(device_, &vci, nullptr, &image.view), VK_SUCCESS);
        views_.push_back(image.view);
        return image;
    }

    void destroyImage(Image& image)
    {
        release(views_, image.view, vkDestroyImageView);
        release(images_, image.image, vkDestroyImage);
        release(memories_, image.memory, vkFreeMemory);
    }

    /// A 16 x 16 view the bloom could read or write; never used by the GPU, so left in its initial layout.
    /// The extent of createView's views: at least that of every plan the tests record a bloom of.
    static constexpr uint32_t kViewExtent = 256;
    VkImageView createView()
    {
        return createImage(VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT, kViewExtent).view;
    }

    /// A host-visible, coherent buffer of `bytes` with `usage`, mapped.
    HostBuffer createHostBuffer(VkDeviceSize bytes, VkBufferUsageFlags usage)
    {
        VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        bci.size = bytes;
        bci.usage = usage;
        HostBuffer b;
        EXPECT_EQ(vkCreateBuffer(device_, &bci, nullptr, &b.buffer), VK_SUCCESS);
        buffers_.push_back(b.buffer);
        VkMemoryRequirements requirements;
        vkGetBufferMemoryRequirements(device_, b.buffer, &requirements);
        b.memory = allocate(requirements, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
        EXPECT_EQ(vkBindBufferMemory(device_, b.buffer, b.memory, 0), VK_SUCCESS);
        void* mapped = nullptr;
        EXPECT_EQ(vkMapMemory(device_, b.memory, 0, VK_WHOLE_SIZE, 0, &mapped), VK_SUCCESS);
        b.mapped = static_cast<float*>(mapped);
        return b;
    }

    void destroyHostBuffer(HostBuffer& b)
    {
        release(buffers_, b.buffer, vkDestroyBuffer);
        release(memories_, b.memory, vkFreeMemory);
    }

    /// The images and buffers of a frame whose single light lies at (lightX, lightY).
    GpuFrame createFrame(uint32_t lightX, uint32_t lightY)
    {
        GpuFrame f;
        f.lightX = lightX;
        f.lightY = lightY;
        const VkDeviceSize bytes = VkDeviceSize(kFrame) * kFrame * 4 * sizeof(float);
        f.upload = createHostBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
        f.readback = createHostBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
        for (uint32_t i = 0; i < kFrame * kFrame * 4; ++i)
            f.upload.mapped[i] = i % 4 == 3 || i / 4 == lightY * kFrame + lightX ? 1.0f : 0.0f;
        f.input = createImage(VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, kFrame);
        f.output = createImage(VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, kFrame);
        return f;
    }

    void destroyFrame(GpuFrame& f)
    {
        destroyImage(f.input);
        destroyImage(f.output);
        destroyHostBuffer(f.upload);
        destroyHostBuffer(f.readback);
    }

    /// Records the upload of `f`'s input, its bloom with `plan` in `mode` at `intensity` (the plugin moving the
    /// images between their layouts) and the readback of its output, which the host may read once `cb` completed.
    void recordFrame(VkCommandBuffer cb, FftbBloomPlan plan, const GpuFrame& f,
                     FftbOutputMode mode = FFTB_OUTPUT_MODE_BLOOM, float intensity = 0.0f)
    {
        const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        VkImageMemoryBarrier toCopy{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
        toCopy.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        toCopy.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        toCopy.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        toCopy.srcQueueFamilyIndex = toCopy.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        toCopy.image = f.input.image;
        toCopy.subresourceRange = range;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                             nullptr, 1, &toCopy);
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.imageExtent = {kFrame, kFrame, 1};
        vkCmdCopyBufferToImage(cb, f.upload.buffer, f.input.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);

        FftbImageBarrierInfo barriers = betweenCopies(f.input.image, f.output.image, range);
        FftbBloomInfo bloom{FFTB_STRUCTURE_TYPE_BLOOM_INFO};
        bloom.pNext = &barriers;
        bloom.inputView = f.input.view;
        bloom.outputView = f.output.view;
        bloom.inputExtent = bloom.outputExtent = {kFrame, kFrame};
        bloom.outputMode = mode;
        bloom.intensity = intensity;
        EXPECT_EQ(fftbCmdBloom(plan, cb, &bloom), FFTB_SUCCESS) << (messages_.empty() ? "" : messages_[0].text);

        vkCmdCopyImageToBuffer(cb, f.output.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, f.readback.buffer, 1, &region);
        VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        toHost.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0, nullptr,
                             0, nullptr);
    }

    /// Expects the output of `f`, bloomed in exact mode, to be the kernel of `texels` (width x height) normalized per
    /// channel with its centre texel on the light, and 0 elsewhere: the bloom of one texel of 1 is the kernel. With
    /// FFTB_PADDING_ZERO_NORMALIZED too, for a light at least twice the kernel's half extent from every edge: the
    /// border weights are 1 wherever its bloom reaches.
    void expectTheKernelAtTheLight(const GpuFrame& f, const std::vector<float>& texels, uint32_t width, uint32_t height)
    {
        double sums[3] = {};
        for (size_t i = 0; i < texels.size(); ++i)
            sums[i % 3] += texels[i];
        double peak = 0.0, error = 0.0;
        for (int y = 0; y < int(kFrame); ++y)
            for (int x = 0; x < int(kFrame); ++x)
                for (int c = 0; c < 3; ++c)
                {
                    const int kx = x - int(f.lightX) + int(width / 2), ky = y - int(f.lightY) + int(height / 2);
                    const bool inside = kx >= 0 && ky >= 0 && kx < int(width) && ky < int(height);
                    const double expected = inside ? texels[(size_t(ky) * width + size_t(kx)) * 3 + c] / sums[c] : 0.0;
                    peak = std::max(peak, expected);
                    error = std::max(error, std::abs(f.readback.mapped[(y * kFrame + x) * 4 + c] - expected));
                }
        EXPECT_LE(error, 1e-4 * peak) << "the bloom of the light at (" << f.lightX << ", " << f.lightY << ")";
    }

    /// Expects the output of `f` to be that of `reference`, within 1e-5 of its peak.
    void expectTheOutputOf(const GpuFrame& f, const GpuFrame& reference)
    {
        double peak = 0.0, error = 0.0;
        for (uint32_t i = 0; i < kFrame * kFrame * 4; ++i)
            if (i % 4 != 3)
            {
                peak = std::max(peak, double(std::abs(reference.readback.mapped[i])));
                error = std::max(error, double(std::abs(f.readback.mapped[i] - reference.readback.mapped[i])));
            }
        EXPECT_LE(error, 1e-5 * peak) << "the bloom of the light at (" << f.lightX << ", " << f.lightY << ")";
    }

    /// A 64 x 64 kernel made on the GPU from no texels, in exact mode (the bloom of one light is the kernel).
    static FftbKernelInfo generatedKernelInfo()
    {
        static const FftbKernelGeneratorInfo generator{FFTB_STRUCTURE_TYPE_KERNEL_GENERATOR_INFO};
        FftbKernelInfo info{FFTB_STRUCTURE_TYPE_KERNEL_INFO, &generator};
        info.width = info.height = 64;
        info.spectrumMode = FFTB_SPECTRUM_MODE_EXACT;
        return info;
    }

    /// Creates context_ for 64 x 64 kernels and kernel_ of generatedKernelInfo(); a plan of `kernel` (kernel_ when
    /// null) with FFTB_PADDING_ZERO_NORMALIZED, whose blooms compute the spectrum and the border weights first.
    FftbBloomPlan generatedPlan(FftbKernel kernel = nullptr)
    {
        if (!context_)
        {
            FftbContextCreateInfo create = validCreateInfo();
            create.maxKernelResolutionWidth = create.maxKernelResolutionHeight = 64;
            EXPECT_EQ(fftbCreateContext(&create, &context_), FFTB_SUCCESS);
            EXPECT_EQ(createKernel(generatedKernelInfo()), FFTB_SUCCESS);
        }
        FftbBloomPlanCreateInfo planInfo = validPlanInfo();
        planInfo.kernel = kernel ? kernel : kernel_;
        planInfo.padding = FFTB_PADDING_ZERO_NORMALIZED;
        return plan(planInfo);
    }

    /// A frame with its light at (7, 9) bloomed with another kernel of generatedKernelInfo(), generated from
    /// `aperture` by a command buffer that completed before the bloom was recorded: what the generated kernel blooms.
    GpuFrame generatedBloom(const FftbApertureInfo& aperture)
    {
        const FftbKernel reference = addKernel(generatedKernelInfo());
        const FftbBloomPlan referencePlan = generatedPlan(reference);
        VkCommandBuffer cb = beginCommandBuffer();
        EXPECT_EQ(fftbCmdGenerateKernel(context_, cb, &aperture, reference), FFTB_SUCCESS);
        submitAndWait(cb);
        GpuFrame f = createFrame(7, 9);
        cb = beginCommandBuffer();
        recordFrame(cb, referencePlan, f);
        submitAndWait(cb);
        EXPECT_LT(f.readback.mapped[(9 * kFrame + 7) * 4], 0.9f) << "the generated kernel is no unit impulse";
        return f;
    }

    /// Records the generation of kernel_ from `aperture` and then a bloom of `f` with `plan` into another command
    /// buffer, submitted after it (`generationFirst`) or before. That bloom was recorded before the generation
    /// executed: expects the kernel's own texels, a unit impulse. Then expects 3 frames bloomed after it to be what a
    /// kernel generated from `aperture` blooms (generatedBloom).
    void generateThenBloom(FftbBloomPlan plan, GpuFrame& f, const FftbApertureInfo& aperture, bool generationFirst)
    {
        const VkCommandBuffer generation = beginCommandBuffer();
        ASSERT_EQ(fftbCmdGenerateKernel(context_, generation, &aperture, kernel_), FFTB_SUCCESS);
        const VkCommandBuffer bloom = beginCommandBuffer();
        recordFrame(bloom, plan, f);
        submitAndWait(generationFirst ? generation : bloom);
        submitAndWait(generationFirst ? bloom : generation);
        expectTheKernelAtTheLight(f, {1.0f, 1.0f, 1.0f}, 1, 1);
        GpuFrame reference = generatedBloom(aperture);
        for (int frame = 0; frame < 3; ++frame)
        {
            const VkCommandBuffer cb = beginCommandBuffer();
            recordFrame(cb, plan, f);
            submitAndWait(cb);
            expectTheOutputOf(f, reference);
        }
        destroyFrame(reference);
    }

    /// An aperture of six blades, its other fields the defaults.
    static FftbApertureInfo sixBlades()
    {
        FftbApertureInfo aperture{FFTB_STRUCTURE_TYPE_APERTURE_INFO};
        aperture.blades = 6;
        return aperture;
    }

    /// A primary command buffer in the recording state.
    VkCommandBuffer beginCommandBuffer()
    {
        if (!commandPool_)
        {
            VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
            cpci.queueFamilyIndex = queueFamily_;
            EXPECT_EQ(vkCreateCommandPool(device_, &cpci, nullptr, &commandPool_), VK_SUCCESS);
        }
        VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        cbai.commandPool = commandPool_;
        cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        cbai.commandBufferCount = 1;
        VkCommandBuffer cb = VK_NULL_HANDLE;
        EXPECT_EQ(vkAllocateCommandBuffers(device_, &cbai, &cb), VK_SUCCESS);
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        EXPECT_EQ(vkBeginCommandBuffer(cb, &begin), VK_SUCCESS);
        return cb;
    }

    /// Ends and frees `cb` without submitting it: the failing calls under test record nothing.
    void endCommandBuffer(VkCommandBuffer cb)
    {
        EXPECT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
        vkFreeCommandBuffers(device_, commandPool_, 1, &cb);
    }

    /// An unsignaled fence, destroyed at teardown.
    VkFence createFence()
    {
        VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        VkFence fence = VK_NULL_HANDLE;
        EXPECT_EQ(vkCreateFence(device_, &fci, nullptr, &fence), VK_SUCCESS);
        fences_.push_back(fence);
        return fence;
    }

    /// An unset event, destroyed at teardown (which sets it first, so that no command buffer is left waiting).
    VkEvent createEvent()
    {
        VkEventCreateInfo eci{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
        VkEvent event = VK_NULL_HANDLE;
        EXPECT_EQ(vkCreateEvent(device_, &eci, nullptr, &event), VK_SUCCESS);
        events_.push_back(event);
        return event;
    }

    /// Ends `cb` and submits it, signalling `fence`.
    void submit(VkCommandBuffer cb, VkFence fence)
    {
        ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
        VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cb;
        ASSERT_EQ(vkQueueSubmit(queue_, 1, &si, fence), VK_SUCCESS);
    }

    /// Waits for `fence` and makes it unsignaled again, then frees `cb`, which signalled it.
    void wait(VkFence fence, VkCommandBuffer cb)
    {
        ASSERT_EQ(vkWaitForFences(device_, 1, &fence, VK_TRUE, UINT64_MAX), VK_SUCCESS);
        ASSERT_EQ(vkResetFences(device_, 1, &fence), VK_SUCCESS);
        vkFreeCommandBuffers(device_, commandPool_, 1, &cb);
    }

    /// Submits `cb` and waits for it to complete.
    void submitAndWait(VkCommandBuffer cb)
    {
        if (!fence_)
            fence_ = createFence();
        submit(cb, fence_);
        wait(fence_, cb);
    }

    /// Valid per-frame settings for a plan of one view: views it could read and write, the bloom alone.
    FftbBloomInfo validBloomInfo()
    {
        FftbBloomInfo info{};
        info.sType = FFTB_STRUCTURE_TYPE_BLOOM_INFO;
        info.inputView = createView();
        info.outputView = createView();
        info.inputExtent = info.outputExtent = {kViewExtent, kViewExtent};
        info.outputMode = FFTB_OUTPUT_MODE_BLOOM;
        info.intensity = 1.0f;
        info.sharpen = 0.0f;
        return info;
    }

    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice_ = VK_NULL_HANDLE;
    uint32_t queueFamily_ = UINT32_MAX;
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    VkCommandPool commandPool_ = VK_NULL_HANDLE;
    VkFence fence_ = VK_NULL_HANDLE;
    std::vector<VkImage> images_;
    std::vector<VkBuffer> buffers_;
    std::vector<VkDeviceMemory> memories_;
    std::vector<VkImageView> views_;
    std::vector<VkFence> fences_;
    std::vector<VkEvent> events_;
    FftbContext context_ = nullptr;
    FftbKernel kernel_ = nullptr;
    std::vector<FftbKernel> kernels_;
    std::vector<FftbBloomPlan> plans_;
    std::vector<float> kernelTexels_;
    std::vector<Message> messages_;
    std::vector<std::string> validationMessages_;
};

TEST_F(ApiTest, CreateRejectsNullArguments)
{
    int sentinel = 0;
    FftbContext context = reinterpret_cast<FftbContext>(&sentinel); // any non-null value, to see it cleared
    EXPECT_EQ(fftbCreateContext(nullptr, &context), FFTB_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(context, nullptr) << "the output handle is cleared on failure";
    const FftbContextCreateInfo info = validCreateInfo();
    EXPECT_EQ(fftbCreateContext(&info, nullptr), FFTB_ERROR_INVALID_ARGUMENT);
}

TEST_F(ApiTest, CreateRejectsWrongSType)
{
    FftbContextCreateInfo info = validCreateInfo();
    info.sType = FFTB_STRUCTURE_TYPE_KERNEL_INFO;
    EXPECT_EQ(fftbCreateContext(&info, &context_), FFTB_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(context_, nullptr);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "sType");
}

TEST_F(ApiTest, AStructureOfAnOlderHeaderIsRefusedNamingTheRebuild)
{
    // fftbloom 0.6.0's header (ABI 1) numbered the structure types 1 .. 17: FftbContextCreateInfo was 1,
    // FftbPlannerInfo 5.
    FftbContextCreateInfo info = validCreateInfo();
    info.sType = FftbStructureType(1);
    EXPECT_EQ(fftbCreateContext(&info, &context_), FFTB_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(context_, nullptr);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "sType: structure type 1 is of fftbloom ABI 1, this library's is " +
                                                      std::to_string(FFTB_ABI) +
                                                      ": rebuild the program against this library's fftbloom.h");
    // In a chain, and without a device.
    info = validCreateInfo();
    info.device = VK_NULL_HANDLE;
    FftbPlannerInfo planner{};
    planner.sType = FftbStructureType(5);
    info.pNext = &planner;
    FftbMemoryRequirements requirements{FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS};
    EXPECT_EQ(fftbGetMemoryRequirements(&info, &requirements), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "createInfo.pNext: structure type 5 is of fftbloom ABI 1");
}

TEST_F(ApiTest, CreateRejectsZeroMaxExtents)
{
    FftbContextCreateInfo info = validCreateInfo();
    info.maxWidth = 0;
    EXPECT_EQ(fftbCreateContext(&info, &context_), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "maxWidth");
    info = validCreateInfo();
    info.maxHeight = 0;
    EXPECT_EQ(fftbCreateContext(&info, &context_), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "maxHeight");
    info = validCreateInfo();
    info.maxKernelResolutionWidth = 0;
    EXPECT_EQ(fftbCreateContext(&info, &context_), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "maxKernelResolutionWidth");
    info = validCreateInfo();
    info.maxKernelResolutionHeight = 0;
    EXPECT_EQ(fftbCreateContext(&info, &context_), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "maxKernelResolutionHeight");
    EXPECT_EQ(context_, nullptr);
}

TEST_F(ApiTest, CreateRejectsKernelWiderThanTheLongestFft)
{
    FftbContextCreateInfo info = validCreateInfo();
    info.maxKernelResolutionWidth = 5000;
    EXPECT_EQ(fftbCreateContext(&info, &context_), FFTB_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(context_, nullptr);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "maxKernelResolutionWidth");
}

TEST_F(ApiTest, CreateChecksThePlannerInfoChain)
{
    FftbContextCreateInfo info = validCreateInfo();
    FftbPlannerInfo planner{FFTB_STRUCTURE_TYPE_PLANNER_INFO};
    info.pNext = &planner;
    for (const int unknown : {2, -1, INT32_MIN}) // stored as an engine's stale or corrupt value would be
    {
        std::memcpy(&planner.lengthPolicy, &unknown, sizeof unknown);
        EXPECT_EQ(fftbCreateContext(&info, &context_), FFTB_ERROR_INVALID_ARGUMENT) << unknown;
        expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "lengthPolicy");
    }
    planner.sType = FFTB_STRUCTURE_TYPE_TIMESTAMP_INFO;
    planner.lengthPolicy = FFTB_LENGTH_POLICY_POWER_OF_TWO;
    EXPECT_EQ(fftbCreateContext(&info, &context_), FFTB_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(context_, nullptr);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "pNext");
    planner.sType = FFTB_STRUCTURE_TYPE_PLANNER_INFO;
    EXPECT_EQ(fftbCreateContext(&info, &context_), FFTB_SUCCESS);
    EXPECT_NE(context_, nullptr);
}

TEST_F(ApiTest, CreateAndDestroyAreClean)
{
    createContext();
    fftbDestroyContext(context_);
    context_ = nullptr;
    createContext(); // a second context on the same device, after the first is gone
    // NULL handles are ignored.
    fftbDestroyBloomPlan(nullptr);
    fftbDestroyKernel(nullptr);
    fftbDestroyContext(nullptr);
    EXPECT_TRUE(messages_.empty());
    // TearDown destroys it; the validation layer reports any object left behind at vkDestroyDevice.
}

TEST_F(ApiTest, CreateReturnsUnsupportedOnADeviceWithoutPushDescriptors)
{
    // Every pass pushes its descriptors: a device created without VK_KHR_push_descriptor cannot run them.
    VkDevice device = VK_NULL_HANDLE;
    ASSERT_EQ(createDevice(false, &device), VK_SUCCESS);
    FftbContextCreateInfo info = validCreateInfo();
    info.device = device;
    EXPECT_EQ(fftbCreateContext(&info, &context_), FFTB_ERROR_UNSUPPORTED);
    EXPECT_EQ(context_, nullptr);
    expectOneMessage(FFTB_ERROR_UNSUPPORTED, "VK_KHR_push_descriptor");
    vkDestroyDevice(device, nullptr);
}

TEST_F(ApiTest, CreateRejectsExtentsNeedingAnFftLongerThan16384)
{
    // 16200 + 512 / 2 texels of zero padding need an FFT longer than 16384 along x, whichever axis order or padding.
    FftbContextCreateInfo info = validCreateInfo();
    info.maxWidth = 16200;
    info.maxKernelResolutionWidth = 512;
    info.maxKernelResolutionHeight = 512;
    EXPECT_EQ(fftbCreateContext(&info, &context_), FFTB_ERROR_DEVICE_LIMIT);
    EXPECT_EQ(context_, nullptr);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "maxWidth");
}

TEST_F(ApiTest, CreateKernelRejectsNegativeTexel)
{
    createContext();
    FftbKernelInfo info = kernel(4, 3);
    kernelTexels_[(1 * 4 + 2) * 3 + 1] = -0.5f; // texel (2, 1), green
    EXPECT_EQ(createKernel(info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "texel (2, 1)");
}

TEST_F(ApiTest, CreateKernelRejectsNaN)
{
    createContext();
    FftbKernelInfo info = kernel(4, 3);
    kernelTexels_[(2 * 4 + 3) * 3 + 0] = std::numeric_limits<float>::quiet_NaN(); // texel (3, 2), red
    EXPECT_EQ(createKernel(info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "texel (3, 2)");
    info = kernel(4, 3);
    kernelTexels_[2] = std::numeric_limits<float>::infinity(); // texel (0, 0), blue
    EXPECT_EQ(createKernel(info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "texel (0, 0)");
}

TEST_F(ApiTest, CreateKernelRejectsAllZeroChannel)
{
    createContext();
    FftbKernelInfo info = kernel(4, 3);
    for (size_t i = 2; i < kernelTexels_.size(); i += 3)
        kernelTexels_[i] = 0.0f; // blue sums to 0: it cannot be normalized to unit sum
    EXPECT_EQ(createKernel(info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "channel 2");
}

TEST_F(ApiTest, CreateKernelRejectsNullAndWrongSType)
{
    createContext();
    EXPECT_EQ(fftbCreateKernel(context_, nullptr, &kernel_), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "kernelInfo");
    FftbKernelInfo info = kernel(1, 1);
    info.sType = FFTB_STRUCTURE_TYPE_BLOOM_INFO;
    EXPECT_EQ(createKernel(info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "sType");
    info = kernel(1, 1);
    info.texels = nullptr;
    EXPECT_EQ(createKernel(info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "texels");
}

TEST_F(ApiTest, CreateKernelRejectsUnknownInterpolation)
{
    createContext();
    FftbKernelInfo info = kernel(4, 3);
    for (const int unknown : {3, -1, INT32_MIN}) // stored as an engine's stale or corrupt value would be
    {
        std::memcpy(&info.interpolation, &unknown, sizeof unknown);
        EXPECT_EQ(createKernel(info), FFTB_ERROR_INVALID_ARGUMENT) << unknown;
        expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "interpolation");
    }
    for (FftbSpectrumInterpolation interpolation :
         {FFTB_SPECTRUM_INTERPOLATION_ES, FFTB_SPECTRUM_INTERPOLATION_CUBIC, FFTB_SPECTRUM_INTERPOLATION_LINEAR})
    {
        info.interpolation = interpolation;
        EXPECT_EQ(createKernel(info), FFTB_SUCCESS);
    }
    EXPECT_TRUE(messages_.empty());
}

TEST_F(ApiTest, CreateKernelRejectsInterpolationWidthsAndOversamplingOutOfRange)
{
    createContext();
    const struct
    {
        FftbSpectrumInterpolation interpolation;
        uint32_t width, oversampling;
        const char* field;
    } refused[] = {{FFTB_SPECTRUM_INTERPOLATION_ES, 9, 0, "interpolationWidth"},
                   {FFTB_SPECTRUM_INTERPOLATION_ES, 1, 0, "interpolationWidth"},
                   {FFTB_SPECTRUM_INTERPOLATION_CUBIC, 2, 0, "interpolationWidth"},
                   {FFTB_SPECTRUM_INTERPOLATION_ES, 0, 3, "spectrumOversampling"}};
    for (const auto& c : refused)
    {
        FftbKernelInfo info = kernel(4, 3);
        info.interpolation = c.interpolation;
        info.interpolationWidth = c.width;
        info.spectrumOversampling = c.oversampling;
        EXPECT_EQ(createKernel(info), FFTB_ERROR_INVALID_ARGUMENT);
        expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, c.field);
    }
    FftbKernelInfo info = kernel(4, 3);
    info.interpolationWidth = 5;
    info.spectrumOversampling = 1;
    EXPECT_EQ(createKernel(info), FFTB_SUCCESS);
    EXPECT_TRUE(messages_.empty());
}

TEST_F(ApiTest, CreateKernelRejectsKernelLargerThanTheMaximum)
{
    createContext();
    FftbKernelInfo info = kernel(17, 8); // validCreateInfo allows 16 x 8
    EXPECT_EQ(createKernel(info), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "width");
    info = kernel(16, 9);
    EXPECT_EQ(createKernel(info), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "height");
    for (const uint32_t width : {0u, 16u})
    {
        info = kernel(16, 8); // an empty kernel is not a device's limit: fftbCreateKernel documents INVALID_ARGUMENT
        info.width = width;
        info.height = 8 - width / 2;
        EXPECT_EQ(createKernel(info), FFTB_ERROR_INVALID_ARGUMENT);
        expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, width == 0 ? "0x8 is empty" : "16x0 is empty");
    }
    info = kernel(16, 8);
    EXPECT_EQ(createKernel(info), FFTB_SUCCESS);
    EXPECT_TRUE(messages_.empty());
}

TEST_F(ApiTest, CreateBloomPlanWithoutKernel)
{
    createContext();
    FftbBloomPlan plan = nullptr;
    EXPECT_EQ(createPlan(validPlanInfo(), &plan), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "kernel");
    // A rejected kernel leaves no handle behind.
    FftbKernelInfo kernelInfo = kernel(2, 2);
    kernelTexels_[0] = -1.0f;
    EXPECT_EQ(createKernel(kernelInfo), FFTB_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(kernel_, nullptr);
    messages_.clear();
}

TEST_F(ApiTest, CreateBloomPlanRejectsExtentLargerThanTheContexts)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    FftbBloomPlanCreateInfo info = validPlanInfo();
    FftbBloomPlan plan = nullptr;
    info.width = 65; // maxWidth is 64
    EXPECT_EQ(createPlan(info, &plan), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "width");
    info.width = 16;
    info.height = 49; // maxHeight is 48
    EXPECT_EQ(createPlan(info, &plan), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "height");
}

// fftbCreateBloomPlan checks every field once, naming it, before it compiles or allocates anything.
TEST_F(ApiTest, CreateBloomPlanRejectsABadFieldNamingIt)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    int sentinel = 0;
    FftbBloomPlan plan = reinterpret_cast<FftbBloomPlan>(&sentinel);
    EXPECT_EQ(fftbCreateBloomPlan(context_, nullptr, &plan), FFTB_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(plan, nullptr) << "the output handle is cleared on failure";
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "createInfo: NULL");
    const FftbBloomPlanCreateInfo valid = validPlanInfo();
    EXPECT_EQ(fftbCreateBloomPlan(context_, &valid, nullptr), FFTB_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(fftbCreateBloomPlan(nullptr, &valid, &plan), FFTB_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(messages_.empty()) << "without a plan to return or a context, there is no callback to call";

    static const FftbPlannerInfo stranger{FFTB_STRUCTURE_TYPE_PLANNER_INFO};
    const struct
    {
        void (*set)(FftbBloomPlanCreateInfo&);
        FftbResult result;
        const char* field;
    } cases[] = {
        {[](FftbBloomPlanCreateInfo& i) { i.sType = FFTB_STRUCTURE_TYPE_BLOOM_INFO; }, FFTB_ERROR_INVALID_ARGUMENT,
         "createInfo.sType"},
        {[](FftbBloomPlanCreateInfo& i) { i.pNext = &stranger; }, FFTB_ERROR_INVALID_ARGUMENT, "createInfo.pNext"},
        {[](FftbBloomPlanCreateInfo& i) { i.inputLayout = VK_IMAGE_LAYOUT_UNDEFINED; }, FFTB_ERROR_INVALID_ARGUMENT,
         "inputLayout"},
        {[](FftbBloomPlanCreateInfo& i) { i.width = 0; }, FFTB_ERROR_INVALID_ARGUMENT, "width"},
        {[](FftbBloomPlanCreateInfo& i) { i.viewCount = FFTB_MAX_VIEWS + 1; }, FFTB_ERROR_DEVICE_LIMIT,
         "viewCount: 9 views, more than the context's maxViews 1"},
        {[](FftbBloomPlanCreateInfo& i) { i.viewCount = 2; }, FFTB_ERROR_DEVICE_LIMIT, "maxViews 1"},
        {[](FftbBloomPlanCreateInfo& i) { i.padding = FftbPadding(3); }, FFTB_ERROR_INVALID_ARGUMENT, "padding"},
        {[](FftbBloomPlanCreateInfo& i) { i.axisOrder = FftbAxisOrder(3); }, FFTB_ERROR_INVALID_ARGUMENT, "axisOrder"},
        {[](FftbBloomPlanCreateInfo& i) { i.storagePrecision = FftbStoragePrecision(2); }, FFTB_ERROR_INVALID_ARGUMENT,
         "storagePrecision"},
        {[](FftbBloomPlanCreateInfo& i) { i.resolution = FftbBloomResolution(4); }, FFTB_ERROR_INVALID_ARGUMENT,
         "resolution"},
        {[](FftbBloomPlanCreateInfo& i) { i.kernelSpanUnit = FftbKernelSpanUnit(3); }, FFTB_ERROR_INVALID_ARGUMENT,
         "kernelSpanUnit"},
        {[](FftbBloomPlanCreateInfo& i)
         {
             i.kernelSpanUnit = FFTB_KERNEL_SPAN_PIXELS;
             i.kernelSpan = std::numeric_limits<float>::quiet_NaN();
         },
         FFTB_ERROR_INVALID_ARGUMENT, "kernelSpan"},
    };
    for (const auto& c : cases)
    {
        FftbBloomPlanCreateInfo info = validPlanInfo();
        c.set(info);
        EXPECT_EQ(createPlan(info, &plan), c.result) << c.field;
        expectOneMessage(c.result, c.field);
    }
    EXPECT_TRUE(plans_.empty());
}

TEST_F(ApiTest, CreateRejectsMoreViewsThanTheMaximum)
{
    FftbContextCreateInfo info = validCreateInfo();
    info.maxViews = FFTB_MAX_VIEWS + 1;
    EXPECT_EQ(fftbCreateContext(&info, &context_), FFTB_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(context_, nullptr);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "maxViews");
    // The scratch holds a spectrum per view.
    FftbMemoryRequirements one{FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS}, two{FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS};
    info.maxViews = 0;
    ASSERT_EQ(fftbGetMemoryRequirements(&info, &one), FFTB_SUCCESS);
    info.maxViews = 2;
    ASSERT_EQ(fftbGetMemoryRequirements(&info, &two), FFTB_SUCCESS);
    EXPECT_GT(two.scratchBytes, one.scratchBytes + one.scratchBytes / 2);
    EXPECT_LE(two.scratchBytes, 2 * one.scratchBytes);
    EXPECT_EQ(two.borderWeightBytes, one.borderWeightBytes) << "the views share the border weights";
}

// A plan of several views takes its views from an FftbMultiViewInfo of exactly its view count, and only from it.
TEST_F(ApiTest, CmdBloomChecksTheMultiViewInfoNamingTheField)
{
    FftbContextCreateInfo createInfo = validCreateInfo();
    createInfo.maxViews = 2;
    ASSERT_EQ(fftbCreateContext(&createInfo, &context_), FFTB_SUCCESS);
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    FftbBloomPlanCreateInfo planInfo = validPlanInfo();
    planInfo.viewCount = 3;
    FftbBloomPlan stereo = nullptr;
    EXPECT_EQ(createPlan(planInfo, &stereo), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "viewCount: 3 views, more than the context's maxViews 2");
    planInfo.viewCount = 2;
    stereo = plan(planInfo);
    ASSERT_NE(stereo, nullptr);
    FftbBloomPlanDescription node{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    ASSERT_EQ(fftbDescribeBloomPlan(stereo, &node), FFTB_SUCCESS);
    FftbBloomInfo info = validBloomInfo();
    const VkImageView inputs[2] = {info.inputView, createView()}, outputs[2] = {info.outputView, createView()};
    const VkCommandBuffer cb = beginCommandBuffer();
    EXPECT_EQ(fftbCmdBloom(stereo, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "bloomInfo.pNext: no FftbMultiViewInfo, for a plan of 2 views");
    FftbMultiViewInfo views{FFTB_STRUCTURE_TYPE_MULTI_VIEW_INFO};
    views.viewCount = 2;
    views.pInputViews = inputs;
    views.pOutputViews = outputs;
    info.pNext = &views;
    EXPECT_EQ(fftbCmdBloom(stereo, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "inputView, outputView: must be VK_NULL_HANDLE");
    info.inputView = info.outputView = VK_NULL_HANDLE;
    struct Case
    {
        uint32_t viewCount;
        bool nullArray, nullView;
        const char* field;
    };
    for (const Case& c : {Case{0, false, false, "FftbMultiViewInfo.viewCount: 0, the plan's is 2"},
                          Case{1, false, false, "FftbMultiViewInfo.viewCount: 1, the plan's is 2"},
                          Case{3, false, false, "FftbMultiViewInfo.viewCount: 3, the plan's is 2"},
                          Case{2, true, false, "pInputViews, pOutputViews: NULL"},
                          Case{2, false, true, "pInputViews[1], pOutputViews[1]"}})
    {
        const VkImageView withNull[2] = {inputs[0], VK_NULL_HANDLE};
        views.viewCount = c.viewCount;
        views.pInputViews = c.nullArray ? nullptr : c.nullView ? withNull : inputs;
        EXPECT_EQ(fftbCmdBloom(stereo, cb, &info), FFTB_ERROR_INVALID_ARGUMENT) << c.field;
        expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, c.field);
    }
    // Aliased views: the passes would write what they read, or one view's result over another's.
    views.viewCount = 2;
    views.pInputViews = inputs;
    const VkImageView twice[2] = {outputs[0], outputs[0]}, anInput[2] = {outputs[0], inputs[0]};
    for (const auto& [aliased, field] : {std::pair{twice, "pOutputViews[1]: the same view as pOutputViews[0]"},
                                         std::pair{anInput, "pOutputViews[1]: the same view as pInputViews[0]"}})
    {
        views.pOutputViews = aliased;
        EXPECT_EQ(fftbCmdBloom(stereo, cb, &info), FFTB_ERROR_INVALID_ARGUMENT) << field;
        expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, field);
    }
    views.pOutputViews = outputs;
    EXPECT_EQ(fftbCmdBloom(stereo, cb, &info), FFTB_SUCCESS);
    EXPECT_TRUE(messages_.empty());
    endCommandBuffer(cb);
}

TEST_F(ApiTest, CmdBloomRefusesAMultiViewInfoForAPlanOfOneView)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    for (uint32_t viewCount : {0u, 1u}) // both mean one view
    {
        FftbBloomPlanCreateInfo planInfo = validPlanInfo();
        planInfo.viewCount = viewCount;
        const FftbBloomPlan single = plan(planInfo);
        ASSERT_NE(single, nullptr);
        FftbBloomInfo info = validBloomInfo();
        const VkImageView inputs[1] = {info.inputView}, outputs[1] = {info.outputView};
        FftbMultiViewInfo views{FFTB_STRUCTURE_TYPE_MULTI_VIEW_INFO};
        views.viewCount = 1;
        views.pInputViews = inputs;
        views.pOutputViews = outputs;
        info.pNext = &views;
        const VkCommandBuffer cb = beginCommandBuffer();
        EXPECT_EQ(fftbCmdBloom(single, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
        expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "an FftbMultiViewInfo, for a plan of one view");
        info.inputView = info.outputView = VK_NULL_HANDLE; // as a bloom of several views gives them
        EXPECT_EQ(fftbCmdBloom(single, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
        expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "an FftbMultiViewInfo, for a plan of one view");
        info.pNext = nullptr;
        EXPECT_EQ(fftbCmdBloom(single, cb, &info), FFTB_ERROR_INVALID_ARGUMENT) << "and no views at all";
        expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "inputView, outputView: VK_NULL_HANDLE");
        info.inputView = info.outputView = createView(); // the passes would write the frame they read
        EXPECT_EQ(fftbCmdBloom(single, cb, &info), FFTB_ERROR_INVALID_ARGUMENT) << "one view as input and output";
        expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "outputView: the same view as inputView");
        endCommandBuffer(cb);
    }
}

TEST_F(ApiTest, CmdBloomRejectsSharpenOutsideUnitInterval)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    const FftbBloomPlan bloomPlan = plan(validPlanInfo());
    FftbBloomInfo info = validBloomInfo();
    const VkCommandBuffer cb = beginCommandBuffer();
    for (float sharpen : {1.5f, -0.25f, std::numeric_limits<float>::quiet_NaN()})
    {
        info.sharpen = sharpen;
        EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &info), FFTB_ERROR_INVALID_ARGUMENT) << "sharpen " << sharpen;
        expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "sharpen");
    }
    endCommandBuffer(cb);
}

TEST_F(ApiTest, CmdBloomRejectsANegativeOrNonFiniteTintAndTakesAnyOther)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    const FftbBloomPlan bloomPlan = plan(validPlanInfo());
    const VkCommandBuffer cb = beginCommandBuffer();
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    for (float bad : {-0.5f, nan, inf})
        for (int c = 0; c < 3; ++c)
        {
            FftbBloomInfo info = validBloomInfo();
            info.tint[0] = info.tint[1] = info.tint[2] = 1.0f;
            info.tint[c] = bad;
            info.tintEnabled = VK_TRUE;
            EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &info), FFTB_ERROR_INVALID_ARGUMENT) << "tint[" << c << "] " << bad;
            expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "tint");
        }
    FftbBloomInfo info = validBloomInfo();
    info.tint[0] = 8.0f; // above 1, and a zero channel
    info.tintEnabled = VK_TRUE;
    EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &info), FFTB_SUCCESS);
    endCommandBuffer(cb);
    EXPECT_TRUE(messages_.empty());
}

TEST_F(ApiTest, CreateKernelRejectsABadPlacementNamingTheField)
{
    createContext();
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    const struct
    {
        float rotation, u, v;
        const char* field;
    } cases[] = {{nan, 0.0f, 0.0f, "rotationDegrees"}, {inf, 0.0f, 0.0f, "rotationDegrees"},
                 {0.0f, 1.5f, 0.0f, "centreOffsetU"},  {0.0f, nan, 0.0f, "centreOffsetU"},
                 {0.0f, 0.0f, -2.0f, "centreOffsetV"}, {0.0f, 1.0f, 1.0f, "centreOffsetU, centreOffsetV"}};
    for (const auto& c : cases)
    {
        FftbKernelInfo info = kernel(3, 3);
        info.rotationDegrees = c.rotation;
        info.centreOffsetU = c.u;
        info.centreOffsetV = c.v;
        EXPECT_EQ(createKernel(info), FFTB_ERROR_INVALID_ARGUMENT) << c.field;
        expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, c.field);
    }
    FftbKernelInfo info = kernel(3, 3);
    info.rotationDegrees = 725.0f;
    info.centreOffsetU = -0.25f;
    EXPECT_EQ(createKernel(info), FFTB_SUCCESS);
    EXPECT_TRUE(messages_.empty());
}

// A kernel made on the GPU needs no texels at creation: with an FftbKernelGeneratorInfo and NULL texels it is a unit
// impulse at its centre texel until fftbCmdGenerateKernel replaces it, so a bloom with it is the frame itself. Without
// a generator NULL texels are refused.
TEST_F(ApiTest, AGeneratedKernelNeedsNoTexelsAndIsTheIdentityUntilGenerated)
{
    FftbContextCreateInfo create = validCreateInfo();
    create.maxKernelResolutionWidth = create.maxKernelResolutionHeight = 64;
    ASSERT_EQ(fftbCreateContext(&create, &context_), FFTB_SUCCESS);
    FftbKernelInfo info{FFTB_STRUCTURE_TYPE_KERNEL_INFO};
    info.width = info.height = 64;
    EXPECT_EQ(createKernel(info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "kernelInfo.texels: NULL");
    FftbKernelGeneratorInfo generator{FFTB_STRUCTURE_TYPE_KERNEL_GENERATOR_INFO};
    info.pNext = &generator;
    info.centreOffsetU = 0.75f; // moves no impulse
    for (const FftbSpectrumMode mode : {FFTB_SPECTRUM_MODE_EXACT, FFTB_SPECTRUM_MODE_RESAMPLED})
    {
        SCOPED_TRACE(mode);
        info.spectrumMode = mode;
        ASSERT_EQ(createKernel(info), FFTB_SUCCESS) << (messages_.empty() ? "" : messages_[0].text);
        const FftbBloomPlan bloomPlan = plan(validPlanInfo());
        ASSERT_NE(bloomPlan, nullptr);
        GpuFrame frame = createFrame(7, 9);
        const VkCommandBuffer cb = beginCommandBuffer();
        recordFrame(cb, bloomPlan, frame);
        submitAndWait(cb);
        expectTheKernelAtTheLight(frame, {1.0f, 1.0f, 1.0f}, 1, 1);
        destroyFrame(frame);
    }
    EXPECT_TRUE(messages_.empty()) << messages_[0].text;
}

// A generation recorded and never submitted leaves the kernel its own texels (a unit impulse for NULL texels); one
// that executes is used by the blooms recorded after it.
TEST_F(ApiTest, ADroppedGenerationLeavesLaterFramesRight)
{
    const FftbBloomPlan bloomPlan = generatedPlan();
    ASSERT_NE(bloomPlan, nullptr);
    const FftbApertureInfo aperture = sixBlades();
    const VkCommandBuffer dropped = beginCommandBuffer();
    ASSERT_EQ(fftbCmdGenerateKernel(context_, dropped, &aperture, kernel_), FFTB_SUCCESS);
    endCommandBuffer(dropped); // never submitted
    GpuFrame f = createFrame(7, 9);
    for (int frame = 0; frame < 3; ++frame)
    {
        const VkCommandBuffer cb = beginCommandBuffer();
        recordFrame(cb, bloomPlan, f);
        submitAndWait(cb);
        expectTheKernelAtTheLight(f, {1.0f, 1.0f, 1.0f}, 1, 1);
    }
    generateThenBloom(bloomPlan, f, aperture, true);
    EXPECT_TRUE(messages_.empty()) << messages_[0].text;
    destroyFrame(f);
}

// A bloom recorded after a generation and executed before it reads the kernel's own texels; the frames recorded after
// the generation executed read the generated ones, and a later generation's command buffer blooms with its texels.
TEST_F(ApiTest, AGenerationSubmittedAfterALaterBloomIsUsedByTheFramesAfterIt)
{
    const FftbBloomPlan bloomPlan = generatedPlan();
    ASSERT_NE(bloomPlan, nullptr);
    GpuFrame f = createFrame(7, 9);
    generateThenBloom(bloomPlan, f, sixBlades(), false);
    // Once one executed, a bloom recorded after a generation in its command buffer reads the texels it generated.
    FftbApertureInfo fiveBlades = sixBlades();
    fiveBlades.blades = 5;
    GpuFrame reference = generatedBloom(fiveBlades);
    const VkCommandBuffer cb = beginCommandBuffer();
    ASSERT_EQ(fftbCmdGenerateKernel(context_, cb, &fiveBlades, kernel_), FFTB_SUCCESS);
    recordFrame(cb, bloomPlan, f);
    submitAndWait(cb);
    expectTheOutputOf(f, reference);
    destroyFrame(reference);
    EXPECT_TRUE(messages_.empty()) << messages_[0].text;
    destroyFrame(f);
}

TEST_F(ApiTest, CmdGenerateKernelChecksItsArgumentsNamingTheField)
{
    FftbContextCreateInfo create = validCreateInfo();
    create.maxKernelResolutionWidth = create.maxKernelResolutionHeight = 64;
    ASSERT_EQ(fftbCreateContext(&create, &context_), FFTB_SUCCESS);
    // The generator is set up when the kernel is made, for one Airy radius: K x K texels, K a power of two.
    FftbKernelGeneratorInfo generator{FFTB_STRUCTURE_TYPE_KERNEL_GENERATOR_INFO};
    FftbKernelInfo generated = kernel(48, 48);
    generated.pNext = &generator;
    EXPECT_EQ(createKernel(generated), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "a generated kernel (FftbKernelGeneratorInfo) is K x K, K a power "
                                                  "of two in 64..2048");
    generated = kernel(64, 64);
    generated.pNext = &generator;
    generator.airyRadiusTexels = 9.0f; // at most K / 8
    EXPECT_EQ(createKernel(generated), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "FftbKernelGeneratorInfo.airyRadiusTexels");

    const VkCommandBuffer cb = beginCommandBuffer();
    FftbApertureInfo aperture{FFTB_STRUCTURE_TYPE_APERTURE_INFO};
    aperture.blades = 6;
    ASSERT_EQ(createKernel(kernel(64, 64)), FFTB_SUCCESS);
    EXPECT_EQ(fftbCmdGenerateKernel(context_, cb, &aperture, kernel_), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "kernel: created without an FftbKernelGeneratorInfo");
    generator.airyRadiusTexels = 0.0f; // 2 texels
    ASSERT_EQ(createKernel(generated), FFTB_SUCCESS);
    EXPECT_EQ(fftbCmdGenerateKernel(context_, cb, &aperture, nullptr), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "kernel: VK_NULL_HANDLE");
    EXPECT_EQ(fftbCmdGenerateKernel(context_, cb, nullptr, kernel_), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "apertureInfo: NULL");
    FftbApertureInfo wrongType = aperture;
    wrongType.sType = FFTB_STRUCTURE_TYPE_BLOOM_INFO;
    EXPECT_EQ(fftbCmdGenerateKernel(context_, cb, &wrongType, kernel_), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "FFTB_STRUCTURE_TYPE_APERTURE_INFO");
    const struct
    {
        void (*set)(FftbApertureInfo&);
        const char* field;
    } cases[] = {
        {[](FftbApertureInfo& a) { a.blades = 2; }, "apertureInfo.blades"},
        {[](FftbApertureInfo& a) { a.airyRadiusTexels = 9.0f; }, "apertureInfo.airyRadiusTexels"},
        {[](FftbApertureInfo& a) { a.airyRadiusTexels = 3.0f; },
         "apertureInfo.airyRadiusTexels: 3.000000, not the kernel's FftbKernelGeneratorInfo.airyRadiusTexels"},
        {[](FftbApertureInfo& a) { a.corona = std::numeric_limits<float>::quiet_NaN(); }, "apertureInfo.corona"},
        {[](FftbApertureInfo& a) { a.dust = 5001; }, "apertureInfo.dust"},
        {[](FftbApertureInfo& a) { a.wavelengths = 8; }, "apertureInfo.wavelengths"},
        {[](FftbApertureInfo& a) { a.fade = std::numeric_limits<float>::quiet_NaN(); }, "apertureInfo.fade"},
        {[](FftbApertureInfo& a) { a.glare = 1.5f; }, "apertureInfo.glare"},
        {[](FftbApertureInfo& a)
         {
             static const FftbPlannerInfo stranger{FFTB_STRUCTURE_TYPE_PLANNER_INFO};
             a.pNext = &stranger;
         },
         "apertureInfo.pNext"},
        {[](FftbApertureInfo& a)
         {
             static const FftbTimestampInfo noPool{FFTB_STRUCTURE_TYPE_TIMESTAMP_INFO};
             a.pNext = &noPool;
         },
         "FftbTimestampInfo.queryPool"}};
    for (const auto& c : cases)
    {
        FftbApertureInfo bad = aperture;
        c.set(bad);
        EXPECT_EQ(fftbCmdGenerateKernel(context_, cb, &bad, kernel_), FFTB_ERROR_INVALID_ARGUMENT) << c.field;
        expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, c.field);
    }
    // Zeros are the defaults: an Airy radius of 2 texels, as the kernel's generator has, and 32 wavelengths.
    EXPECT_EQ(fftbCmdGenerateKernel(context_, cb, &aperture, kernel_), FFTB_SUCCESS);
    EXPECT_TRUE(messages_.empty());
    endCommandBuffer(cb);
}

TEST_F(ApiTest, CmdBloomRejectsABadPrefilterNamingTheField)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    const FftbBloomPlan bloomPlan = plan(validPlanInfo());
    const VkCommandBuffer cb = beginCommandBuffer();
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    for (float threshold : {-0.5f, nan, inf})
    {
        FftbBloomInfo info = validBloomInfo();
        info.prefilterThreshold = threshold;
        EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &info), FFTB_ERROR_INVALID_ARGUMENT) << "threshold " << threshold;
        expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "prefilterThreshold");
    }
    for (float knee : {-0.5f, nan, 1.5f})
    {
        FftbBloomInfo info = validBloomInfo();
        info.prefilterThreshold = 1.0f;
        info.prefilterKnee = knee;
        EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &info), FFTB_ERROR_INVALID_ARGUMENT) << "knee " << knee;
        expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "prefilterKnee");
    }
    for (float clamp : {-1.0f, nan, inf})
    {
        FftbBloomInfo info = validBloomInfo();
        info.prefilterClamp = clamp;
        EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &info), FFTB_ERROR_INVALID_ARGUMENT) << "clamp " << clamp;
        expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "prefilterClamp");
    }
    FftbBloomInfo info = validBloomInfo();
    info.prefilterThreshold = 1.0f;
    info.prefilterKnee = 1.0f; // the widest knee allowed
    info.prefilterClamp = 10.0f;
    info.outputMode = FFTB_OUTPUT_MODE_ADDITIVE;
    EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &info), FFTB_SUCCESS);
    info.outputMode = FftbOutputMode(3);
    EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "outputMode");
    endCommandBuffer(cb);
    // The storage precision is the plan's.
    FftbBloomPlanCreateInfo planInfo = validPlanInfo();
    planInfo.storagePrecision = FFTB_STORAGE_PRECISION_FLOAT16;
    EXPECT_NE(plan(planInfo), nullptr);
    planInfo.storagePrecision = FftbStoragePrecision(2);
    FftbBloomPlan refused = nullptr;
    EXPECT_EQ(createPlan(planInfo, &refused), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "storagePrecision");
}

// Every zero field of the plan's and the frame's info is the documented default, or refused naming the field where no
// default is safe (docs/integration.md, "Per-frame settings").
static_assert(FFTB_PADDING_ZERO_NORMALIZED == 0 && FFTB_AXIS_ORDER_AUTO == 0 && FFTB_OUTPUT_MODE_COMPOSITE == 0 &&
                  FFTB_KERNEL_SPAN_NATIVE == 0 && FFTB_STORAGE_PRECISION_FLOAT32 == 0 &&
                  FFTB_SPECTRUM_MODE_EXACT == 0 && FFTB_SPECTRUM_INTERPOLATION_ES == 0 &&
                  FFTB_LENGTH_POLICY_MIXED_RADIX == 0 && FFTB_BLOOM_RESOLUTION_FULL == 0,
              "the defaults the header documents are the zero values");

TEST_F(ApiTest, AZeroInitializedBloomInfoIsTheCompositeOrRefusedNamingTheField)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    FftbBloomPlanCreateInfo planInfo{};
    planInfo.sType = FFTB_STRUCTURE_TYPE_BLOOM_PLAN_CREATE_INFO;
    planInfo.kernel = kernel_;
    planInfo.width = 16;
    planInfo.height = 16;
    FftbBloomPlan bloomPlan = nullptr;
    EXPECT_EQ(createPlan(planInfo, &bloomPlan), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "inputLayout");
    planInfo.inputLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    bloomPlan = plan(planInfo);
    ASSERT_NE(bloomPlan, nullptr);
    FftbBloomPlanDescription description{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    ASSERT_EQ(fftbDescribeBloomPlan(bloomPlan, &description), FFTB_SUCCESS);
    EXPECT_EQ(description.borderWeightPassCount, 3u) << "padding 0 is the normalized zero padding";
    EXPECT_EQ(description.borderWeightBytes, VkDeviceSize(3) * 16 * 16 * 4);

    const VkCommandBuffer cb = beginCommandBuffer();
    FftbBloomInfo info{};
    info.sType = FFTB_STRUCTURE_TYPE_BLOOM_INFO;
    info.inputView = createView();
    info.outputView = createView();
    info.inputExtent = info.outputExtent = {kViewExtent, kViewExtent};
    EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &info), FFTB_SUCCESS) << "a composite of intensity 0: the input";
    info.outputMode = FFTB_OUTPUT_MODE_ADDITIVE;
    EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &info), FFTB_SUCCESS);
    info.intensity = -0.25f;
    EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "intensity");
    info.outputMode = FFTB_OUTPUT_MODE_BLOOM; // intensity is not read
    EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &info), FFTB_SUCCESS);
    info.outputMode = FftbOutputMode(0);
    info.intensity = 0.25f;
    EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &info), FFTB_SUCCESS);
    endCommandBuffer(cb);
}

/// Counts the Vulkan calls that compile or allocate, passing them on: what the plugin makes in each of its calls.
struct CreationCounter
{
    static inline PFN_vkCreateComputePipelines createComputePipelines = nullptr;
    static inline PFN_vkCreateBuffer createBuffer = nullptr;
    static inline PFN_vkAllocateMemory allocateMemory = nullptr;
    static inline int pipelines = 0, buffers = 0, allocations = 0;

    static VKAPI_ATTR VkResult VKAPI_CALL countPipelines(VkDevice device, VkPipelineCache cache, uint32_t count,
                                                         const VkComputePipelineCreateInfo* infos,
                                                         const VkAllocationCallbacks* allocator, VkPipeline* out)
    {
        pipelines += int(count);
        return createComputePipelines(device, cache, count, infos, allocator, out);
    }
    static VKAPI_ATTR VkResult VKAPI_CALL countBuffer(VkDevice device, const VkBufferCreateInfo* info,
                                                      const VkAllocationCallbacks* allocator, VkBuffer* out)
    {
        ++buffers;
        return createBuffer(device, info, allocator, out);
    }
    static VKAPI_ATTR VkResult VKAPI_CALL countAllocation(VkDevice device, const VkMemoryAllocateInfo* info,
                                                          const VkAllocationCallbacks* allocator, VkDeviceMemory* out)
    {
        ++allocations;
        return allocateMemory(device, info, allocator, out);
    }
    static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL getDeviceProcAddr(VkDevice device, const char* name)
    {
        const PFN_vkVoidFunction function = vkGetDeviceProcAddr(device, name);
        if (std::strcmp(name, "vkCreateComputePipelines") == 0)
        {
            createComputePipelines = reinterpret_cast<PFN_vkCreateComputePipelines>(function);
            return reinterpret_cast<PFN_vkVoidFunction>(&countPipelines);
        }
        if (std::strcmp(name, "vkCreateBuffer") == 0)
        {
            createBuffer = reinterpret_cast<PFN_vkCreateBuffer>(function);
            return reinterpret_cast<PFN_vkVoidFunction>(&countBuffer);
        }
        if (std::strcmp(name, "vkAllocateMemory") == 0)
        {
            allocateMemory = reinterpret_cast<PFN_vkAllocateMemory>(function);
            return reinterpret_cast<PFN_vkVoidFunction>(&countAllocation);
        }
        return function;
    }
    static int total() { return pipelines + buffers + allocations; }
    static void reset() { pipelines = buffers = allocations = 0; }
};

// fftbCreateBloomPlan compiles the pipelines and allocates the buffers of the plan's blooms; recording one compiles and
// allocates nothing, and the bloom it records runs as it is.
// fftbDestroyContext with plans alive orphans them: their GPU objects go with the context's, every later call but
// fftbDestroyBloomPlan is refused naming the plan, and destroying them afterwards is clean (the sanitized suite runs
// this under AddressSanitizer: the plan read its freed context).
TEST_F(ApiTest, AContextDestroyedBeforeItsPlansOrphansThem)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    FftbBloomPlanCreateInfo planInfo = validPlanInfo();
    planInfo.padding = FFTB_PADDING_ZERO_NORMALIZED; // border weights: a buffer of the plan's own
    const FftbBloomPlan orphan = plan(planInfo);
    const FftbBloomPlan other = plan(validPlanInfo());
    ASSERT_NE(orphan, nullptr);
    ASSERT_NE(other, nullptr);
    fftbDestroyContext(context_);
    context_ = nullptr;

    FftbBloomPlanDescription description{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    EXPECT_EQ(fftbDescribeBloomPlan(orphan, &description), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "plan: its context was destroyed");
    uint32_t count = 0;
    EXPECT_EQ(fftbGetPassStatistics(orphan, &count, nullptr), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "plan");
    const VkCommandBuffer cb = beginCommandBuffer();
    EXPECT_EQ(fftbCmdPrepareKernel(orphan, cb), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "plan");
    FftbBloomInfo info{FFTB_STRUCTURE_TYPE_BLOOM_INFO};
    info.inputView = createView();
    info.outputView = createView();
    EXPECT_EQ(fftbCmdBloom(other, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "plan");
    endCommandBuffer(cb);
    destroyPlan(orphan); // `other` at teardown
    EXPECT_TRUE(messages_.empty()) << messages_[0].text;
}

// A bloom faded out by its intensity needs no special case in the engine: at intensity 0 both composites write the
// input's texels, bit for bit, alpha included.
TEST_F(ApiTest, AnIntensityOfZeroWritesTheInputInBothComposites)
{
    createContext();
    ASSERT_EQ(createKernel(exactKernelInfo(unevenTexels(5, 5, 0), 5, 5)), FFTB_SUCCESS);
    FftbBloomPlanCreateInfo planInfo = validPlanInfo();
    planInfo.padding = FFTB_PADDING_ZERO_NORMALIZED;
    const FftbBloomPlan bloomPlan = plan(planInfo);
    ASSERT_NE(bloomPlan, nullptr);
    GpuFrame frame = createFrame(7, 9);
    for (const FftbOutputMode mode : {FFTB_OUTPUT_MODE_COMPOSITE, FFTB_OUTPUT_MODE_ADDITIVE})
    {
        std::fill(frame.readback.mapped, frame.readback.mapped + kFrame * kFrame * 4, -1.0f);
        const VkCommandBuffer cb = beginCommandBuffer();
        recordFrame(cb, bloomPlan, frame, mode, 0.0f);
        submitAndWait(cb);
        for (uint32_t i = 0; i < kFrame * kFrame * 4; ++i)
            ASSERT_EQ(frame.readback.mapped[i], frame.upload.mapped[i]) << "output mode " << mode << ", float " << i;
    }
    destroyFrame(frame);
    EXPECT_TRUE(messages_.empty()) << messages_[0].text;
}

TEST_F(ApiTest, CreateBloomPlanCompilesSoARecordedBloomNeedsNothingMore)
{
    FftbContextCreateInfo info = validCreateInfo();
    info.getDeviceProcAddr = &CreationCounter::getDeviceProcAddr;
    ASSERT_EQ(fftbCreateContext(&info, &context_), FFTB_SUCCESS);
    const std::vector<float> texels = unevenTexels(5, 5, 0);
    ASSERT_EQ(createKernel(exactKernelInfo(texels, 5, 5)), FFTB_SUCCESS);
    FftbBloomPlanCreateInfo planInfo = validPlanInfo();
    planInfo.padding = FFTB_PADDING_ZERO_NORMALIZED; // border weights, which the first bloom computes
    CreationCounter::reset();
    const FftbBloomPlan first = plan(planInfo);
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(CreationCounter::pipelines, 5) << "the kernel spectrum's 2 passes and the bloom's 3";
    EXPECT_EQ(CreationCounter::buffers, 4)
        << "the kernel spectrum and the border weights, each with its completion word";
    EXPECT_EQ(CreationCounter::allocations, 4);
    FftbBloomPlanDescription node{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    ASSERT_EQ(fftbDescribeBloomPlan(first, &node), FFTB_SUCCESS);
    EXPECT_EQ(node.passCount, 8u) << "the kernel spectrum and the border weights come first";

    GpuFrame frame = createFrame(7, 9);
    CreationCounter::reset();
    VkCommandBuffer cb = beginCommandBuffer();
    EXPECT_EQ(fftbCmdPrepareKernel(first, cb), FFTB_SUCCESS);
    recordFrame(cb, first, frame);
    EXPECT_EQ(CreationCounter::total(), 0) << "recording compiles and allocates nothing";
    submitAndWait(cb);
    expectTheKernelAtTheLight(frame, texels, 5, 5);

    // A second plan of the same settings shares the context's pipelines and the kernel's spectrum; its border
    // weights are its own.
    const FftbBloomPlan second = plan(planInfo);
    ASSERT_NE(second, nullptr);
    EXPECT_EQ(CreationCounter::pipelines, 0);
    EXPECT_EQ(CreationCounter::buffers, 2);
    ASSERT_EQ(fftbDescribeBloomPlan(second, &node), FFTB_SUCCESS);
    EXPECT_EQ(node.spectrumPassCount, 0u);
    EXPECT_EQ(node.borderWeightPassCount, 3u);
    CreationCounter::reset();
    cb = beginCommandBuffer();
    recordFrame(cb, second, frame);
    EXPECT_EQ(CreationCounter::total(), 0);
    submitAndWait(cb);
    expectTheKernelAtTheLight(frame, texels, 5, 5);
    EXPECT_TRUE(messages_.empty()) << "no note, no failure: " << messages_[0].text;
}

// fftbCreateBloomPlan and fftbCreateKernel are the calls that may overlap others on a context: one worker makes a plan
// of the same kernel (at another extent: a spectrum of its own), another a kernel made on the GPU (the generator's
// pipelines compiled), while this thread describes and records 100 blooms with a plan made before, through the
// engine's pipeline cache.
TEST_F(ApiTest, APlanAndAKernelAreMadeOnWorkersWhileAnotherRecords)
{
    VkPipelineCacheCreateInfo cacheInfo{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    VkPipelineCache cache = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreatePipelineCache(device_, &cacheInfo, nullptr, &cache), VK_SUCCESS);
    FftbContextCreateInfo info = validCreateInfo();
    info.maxKernelResolutionWidth = info.maxKernelResolutionHeight = 64; // a generated kernel's smallest size
    info.pipelineCache = cache;
    ASSERT_EQ(fftbCreateContext(&info, &context_), FFTB_SUCCESS);
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    const FftbBloomPlan small = plan(validPlanInfo());
    ASSERT_NE(small, nullptr);
    FftbBloomPlanCreateInfo largeInfo = validPlanInfo();
    largeInfo.width = 60; // other FFT lengths
    largeInfo.height = 45;
    FftbBloomPlan large = nullptr;
    FftbResult planMade = FFTB_ERROR_VULKAN;
    std::thread planWorker([&] { planMade = fftbCreateBloomPlan(context_, &largeInfo, &large); });
    FftbKernelGeneratorInfo generator{FFTB_STRUCTURE_TYPE_KERNEL_GENERATOR_INFO};
    FftbKernelInfo generatedInfo = kernel(64, 64);
    generatedInfo.pNext = &generator;
    FftbKernel generated = nullptr;
    FftbResult kernelMade = FFTB_ERROR_VULKAN;
    std::thread kernelWorker([&] { kernelMade = fftbCreateKernel(context_, &generatedInfo, &generated); });
    const FftbBloomInfo bloom = validBloomInfo();
    const VkCommandBuffer cb = beginCommandBuffer();
    FftbBloomPlanDescription description{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    for (int i = 0; i < 100; ++i)
    {
        EXPECT_EQ(fftbDescribeBloomPlan(small, &description), FFTB_SUCCESS);
        EXPECT_EQ(fftbCmdBloom(small, cb, &bloom), FFTB_SUCCESS);
    }
    planWorker.join();
    kernelWorker.join();
    ASSERT_EQ(planMade, FFTB_SUCCESS);
    plans_.push_back(large);
    ASSERT_EQ(kernelMade, FFTB_SUCCESS);
    kernels_.push_back(generated);
    EXPECT_EQ(fftbCmdBloom(large, cb, &bloom), FFTB_SUCCESS);
    FftbApertureInfo aperture{FFTB_STRUCTURE_TYPE_APERTURE_INFO};
    EXPECT_EQ(fftbCmdGenerateKernel(context_, cb, &aperture, generated), FFTB_SUCCESS);
    FftbBloomPlanCreateInfo generatedPlanInfo = validPlanInfo();
    generatedPlanInfo.kernel = generated;
    EXPECT_EQ(fftbCmdBloom(plan(generatedPlanInfo), cb, &bloom), FFTB_SUCCESS);
    EXPECT_TRUE(messages_.empty()) << messages_[0].text;
    endCommandBuffer(cb);
    destroyPlans();
    fftbDestroyContext(context_);
    context_ = nullptr;
    vkDestroyPipelineCache(device_, cache, nullptr);
}

TEST_F(ApiTest, APreparedKernelSpectrumLeavesTheBloomOnlyItsThreePasses)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    FftbBloomPlanCreateInfo planInfo = validPlanInfo();
    planInfo.padding = FFTB_PADDING_MIRROR;
    const FftbBloomPlan bloomPlan = plan(planInfo);
    ASSERT_NE(bloomPlan, nullptr);
    FftbBloomPlanDescription before{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    ASSERT_EQ(fftbDescribeBloomPlan(bloomPlan, &before), FFTB_SUCCESS);
    EXPECT_EQ(before.spectrumPassCount, 3u) << "two FFTs and the resolution at the frame's frequencies";
    VkCommandBuffer cb = beginCommandBuffer();
    ASSERT_EQ(fftbCmdPrepareKernel(bloomPlan, cb), FFTB_SUCCESS);
    FftbBloomPlanDescription after{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    ASSERT_EQ(fftbDescribeBloomPlan(bloomPlan, &after), FFTB_SUCCESS);
    EXPECT_EQ(after.spectrumPassCount, 3u) << "recorded, not executed: a bloom recorded now records it too";
    submitAndWait(cb);
    ASSERT_EQ(fftbDescribeBloomPlan(bloomPlan, &after), FFTB_SUCCESS);
    EXPECT_EQ(after.spectrumPassCount, 0u);
    EXPECT_EQ(after.passCount, 3u);
    cb = beginCommandBuffer();
    EXPECT_EQ(fftbCmdPrepareKernel(bloomPlan, cb), FFTB_SUCCESS) << "prepared already: records nothing";
    const FftbBloomInfo bloom = validBloomInfo();
    EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &bloom), FFTB_SUCCESS);
    EXPECT_TRUE(messages_.empty()) << messages_[0].text;
    EXPECT_EQ(fftbCmdPrepareKernel(bloomPlan, VK_NULL_HANDLE), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "commandBuffer");
    EXPECT_EQ(fftbCmdPrepareKernel(nullptr, cb), FFTB_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(messages_.empty()) << "a null plan has no callback to call";
    endCommandBuffer(cb);
}

// What a bloom computes once (the kernel spectrum, the border weights) exists once a command buffer that computed it
// executed, not once one recorded it: an engine may drop a recorded command buffer (a frame abandoned on a swapchain
// resize) or submit command buffers in another order than it recorded them.
TEST_F(ApiTest, ADroppedFirstBloomLeavesLaterFramesRight)
{
    const std::vector<float> texels = unevenTexels(5, 5, 1);
    const FftbBloomPlan bloomPlan = normalizedPlanOf(texels);
    ASSERT_NE(bloomPlan, nullptr);
    GpuFrame f = createFrame(8, 7);
    VkCommandBuffer dropped = beginCommandBuffer();
    ASSERT_EQ(fftbCmdPrepareKernel(bloomPlan, dropped), FFTB_SUCCESS);
    recordFrame(dropped, bloomPlan, f);
    endCommandBuffer(dropped); // never submitted
    for (int frame = 0; frame < 10; ++frame)
    {
        const VkCommandBuffer cb = beginCommandBuffer();
        recordFrame(cb, bloomPlan, f);
        submitAndWait(cb);
        expectTheKernelAtTheLight(f, texels, 5, 5);
    }
    FftbBloomPlanDescription node{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    ASSERT_EQ(fftbDescribeBloomPlan(bloomPlan, &node), FFTB_SUCCESS);
    EXPECT_EQ(node.passCount, 3u) << "computed once a command buffer that computed them executed";
    EXPECT_TRUE(messages_.empty()) << messages_[0].text;
    destroyFrame(f);
}

TEST_F(ApiTest, BloomsSubmittedInAnotherOrderThanRecordedAreRight)
{
    const std::vector<float> texels = unevenTexels(5, 5, 2);
    const FftbBloomPlan bloomPlan = normalizedPlanOf(texels);
    ASSERT_NE(bloomPlan, nullptr);
    GpuFrame a = createFrame(8, 7), b = createFrame(7, 8);
    const VkCommandBuffer first = beginCommandBuffer();
    recordFrame(first, bloomPlan, a);
    const VkCommandBuffer second = beginCommandBuffer();
    recordFrame(second, bloomPlan, b);
    submitAndWait(second);
    submitAndWait(first);
    expectTheKernelAtTheLight(a, texels, 5, 5);
    expectTheKernelAtTheLight(b, texels, 5, 5);
    EXPECT_TRUE(messages_.empty()) << messages_[0].text;
    destroyFrame(a);
    destroyFrame(b);
}

// Two plans of one kernel at different padded extents (a second context pads to powers of two) take turns, recorded
// before any executes and submitted in reverse: each keeps its own spectrum, so neither bloom reads the other's.
TEST_F(ApiTest, PlansOfOneKernelTakingTurnsKeepTheirOwnSpectra)
{
    createContext();
    const std::vector<float> texels = unevenTexels(5, 5, 4);
    ASSERT_EQ(createKernel(exactKernelInfo(texels, 5, 5)), FFTB_SUCCESS);
    FftbPlannerInfo planner{FFTB_STRUCTURE_TYPE_PLANNER_INFO};
    planner.lengthPolicy = FFTB_LENGTH_POLICY_POWER_OF_TWO;
    FftbContextCreateInfo info = validCreateInfo();
    info.pNext = &planner;
    FftbContext powers = nullptr;
    ASSERT_EQ(fftbCreateContext(&info, &powers), FFTB_SUCCESS);
    FftbBloomPlan zero = plan(validPlanInfo()), powerOfTwo = nullptr;
    ASSERT_NE(zero, nullptr);
    ASSERT_EQ(createPlan(validPlanInfo(), &powerOfTwo, powers), FFTB_SUCCESS);
    FftbBloomPlanDescription a{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION},
        b{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    ASSERT_EQ(fftbDescribeBloomPlan(zero, &a), FFTB_SUCCESS);
    ASSERT_EQ(fftbDescribeBloomPlan(powerOfTwo, &b), FFTB_SUCCESS);
    ASSERT_NE(std::pair(a.paddedWidth, a.paddedHeight), std::pair(b.paddedWidth, b.paddedHeight))
        << "the two plans read spectra of different extents";
    std::vector<GpuFrame> frames;
    std::vector<VkCommandBuffer> cbs;
    for (const FftbBloomPlan turn : {zero, powerOfTwo, powerOfTwo, zero})
    {
        frames.push_back(createFrame(8, 7));
        cbs.push_back(beginCommandBuffer());
        recordFrame(cbs.back(), turn, frames.back());
    }
    for (size_t i = cbs.size(); i-- > 0;) // the last recorded first
    {
        submitAndWait(cbs[i]);
        expectTheKernelAtTheLight(frames[i], texels, 5, 5);
    }
    EXPECT_TRUE(messages_.empty()) << messages_[0].text;
    for (GpuFrame& f : frames)
        destroyFrame(f);
    destroyPlan(powerOfTwo);
    fftbDestroyContext(powers);
}

// fftbDestroyKernel before a plan made with it: the plan refuses every call but its destruction, naming the reason.
TEST_F(ApiTest, AKernelDestroyedBeforeItsPlanLeavesItRefusingCalls)
{
    createContext();
    const FftbKernel other = addKernel(kernel(3, 3));
    FftbBloomPlanCreateInfo planInfo = validPlanInfo();
    planInfo.kernel = other;
    const FftbBloomPlan bloomPlan = plan(planInfo);
    ASSERT_NE(bloomPlan, nullptr);
    destroyKernel(other);
    FftbBloomPlanDescription node{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    EXPECT_EQ(fftbDescribeBloomPlan(bloomPlan, &node), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "its kernel was destroyed");
    expectRecordingRefused(bloomPlan, FFTB_ERROR_INVALID_ARGUMENT, "its kernel was destroyed");
    destroyPlan(bloomPlan);
}

TEST_F(ApiTest, CmdBloomRejectsNullAndWrongSType)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    const FftbBloomPlan bloomPlan = plan(validPlanInfo());
    FftbBloomInfo info = validBloomInfo();
    const VkCommandBuffer cb = beginCommandBuffer();
    EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, nullptr), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "bloomInfo");
    EXPECT_EQ(fftbCmdBloom(bloomPlan, VK_NULL_HANDLE, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "commandBuffer");
    info.sType = FFTB_STRUCTURE_TYPE_KERNEL_INFO;
    EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "sType");
    EXPECT_EQ(fftbCmdBloom(nullptr, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(messages_.empty()) << "a null plan has no callback to call";
    FftbBloomPlanDescription node{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    EXPECT_EQ(fftbDescribeBloomPlan(nullptr, &node), FFTB_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(fftbDescribeBloomPlan(bloomPlan, nullptr), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "description");
    node.sType = FFTB_STRUCTURE_TYPE_BLOOM_INFO;
    EXPECT_EQ(fftbDescribeBloomPlan(bloomPlan, &node), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "description.sType");
    endCommandBuffer(cb);
}

TEST_F(ApiTest, ViewsSmallerThanThePlanAreRefusedNamingTheField)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    FftbBloomPlanCreateInfo planInfo = validPlanInfo();
    planInfo.width = 16;
    planInfo.height = 12;
    const FftbBloomPlan bloomPlan = plan(planInfo);
    const VkCommandBuffer cb = beginCommandBuffer();
    FftbBloomInfo info = validBloomInfo();
    info.inputExtent = {15, 12};
    EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "inputExtent: 15 x 12, smaller than the plan's 16 x 12");
    info.inputExtent = {16, 12};
    info.outputExtent = {kViewExtent, 11};
    EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "outputExtent: 256 x 11");
    info.outputExtent = {};
    EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &info), FFTB_ERROR_INVALID_ARGUMENT) << "no extent given";
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "outputExtent: 0 x 0");
    // Exactly the plan's, and larger: the passes use the top-left width x height.
    info.outputExtent = {16, 12};
    EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &info), FFTB_SUCCESS);
    info.inputExtent = info.outputExtent = {kViewExtent, kViewExtent};
    EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &info), FFTB_SUCCESS);
    EXPECT_TRUE(messages_.empty());
    endCommandBuffer(cb);
}

TEST_F(ApiTest, MemoryRequirementsNeedNoDeviceAndGrowWithTheExtents)
{
    FftbContextCreateInfo info = validCreateInfo();
    info.instance = VK_NULL_HANDLE;
    info.physicalDevice = VK_NULL_HANDLE;
    info.device = VK_NULL_HANDLE;
    FftbMemoryRequirements small{FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS};
    ASSERT_EQ(fftbGetMemoryRequirements(&info, &small), FFTB_SUCCESS);
    // 64 x 48 frames, 16 x 8 kernels: the frame's half spectrum holds at least 3 x (64 / 2 + 1) x 48 complex floats.
    EXPECT_GE(small.scratchBytes, VkDeviceSize(3) * 33 * 48 * 8);
    EXPECT_GE(small.exactSpectrumBytes, VkDeviceSize(3) * 33 * 48 * 8);
    // 16 x 8 oversampled twice, 32 x 16: its stored half spectrum is largest with y as the first (halved) axis,
    // 3 x (16/2 + 1) x 32; then the spectrum at the frame's frequencies, as large as the exact mode's.
    EXPECT_GT(small.resampledSpectrumBytes, VkDeviceSize(3) * (16 / 2 + 1) * 32 * 8);
    EXPECT_LE(small.resampledSpectrumBytes, VkDeviceSize(3) * (32 / 2 + 1) * 32 * 8 + small.exactSpectrumBytes);
    EXPECT_EQ(small.kernelTexelBytes, VkDeviceSize(3) * 16 * 8 * 4);
    EXPECT_GT(small.twiddleBytes, 0u);
    EXPECT_EQ(small.borderWeightBytes, VkDeviceSize(3) * 64 * 48 * 4) << "a plan of the largest frame's";
    info.maxWidth = 1920;
    info.maxHeight = 1080;
    FftbMemoryRequirements large{FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS};
    ASSERT_EQ(fftbGetMemoryRequirements(&info, &large), FFTB_SUCCESS);
    EXPECT_GT(large.scratchBytes, small.scratchBytes);
    EXPECT_GT(large.exactSpectrumBytes, small.exactSpectrumBytes);
    EXPECT_GT(large.resampledSpectrumBytes, small.resampledSpectrumBytes) << "resolved at the frame's frequencies";
    EXPECT_EQ(large.twiddleBytes, small.twiddleBytes);
    EXPECT_TRUE(messages_.empty());
    info.maxWidth = 16200;
    info.maxKernelResolutionWidth = 512;
    EXPECT_EQ(fftbGetMemoryRequirements(&info, &large), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "maxWidth");
    large.sType = FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION;
    info = validCreateInfo();
    EXPECT_EQ(fftbGetMemoryRequirements(&info, &large), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "sType");
}

TEST_F(ApiTest, AKernelSpectrumPastMaxStorageBufferRangeIsBoundAChannelAtATime)
{
    // A 4K frame with a 512 x 512 kernel: its resampled spectrum, resolved at the padded extent, is larger than
    // lavapipe's maxStorageBufferRange (128 MiB); each channel's third, bound on its own, is within it.
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(physicalDevice_, &properties);
    FftbContextCreateInfo info = validCreateInfo();
    info.maxWidth = 3840;
    info.maxHeight = 2160;
    info.maxKernelResolutionWidth = info.maxKernelResolutionHeight = 512;
    FftbMemoryRequirements requirements{FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS};
    ASSERT_EQ(fftbGetMemoryRequirements(&info, &requirements), FFTB_SUCCESS);
    ASSERT_GT(requirements.resampledSpectrumBytes, properties.limits.maxStorageBufferRange);
    EXPECT_LE(requirements.resampledSpectrumBytes / 3, properties.limits.maxStorageBufferRange);
    ASSERT_EQ(fftbCreateContext(&info, &context_), FFTB_SUCCESS);
    EXPECT_EQ(createKernel(kernel(512, 512)), FFTB_SUCCESS);
    EXPECT_TRUE(messages_.empty()) << messages_[0].text;
}

TEST_F(ApiTest, KernelResolutionAndKernelExtentHaveTheirOwnMaxima)
{
    // A context for kernels of up to 16 x 8 texels shown up to 64 x 64 pixels on the frame.
    FftbContextCreateInfo info = validCreateInfo();
    FftbMemoryRequirements native{FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS}, scaled = native;
    ASSERT_EQ(fftbGetMemoryRequirements(&info, &native), FFTB_SUCCESS);
    info.maxKernelExtentWidth = info.maxKernelExtentHeight = 64;
    ASSERT_EQ(fftbGetMemoryRequirements(&info, &scaled), FFTB_SUCCESS);
    EXPECT_GT(scaled.scratchBytes, native.scratchBytes) << "the padding is sized for the extent";
    EXPECT_EQ(scaled.kernelTexelBytes, native.kernelTexelBytes) << "the texels for the resolution";
    EXPECT_GT(scaled.resampledSpectrumBytes, native.resampledSpectrumBytes) << "resolved at the padded extent";
    ASSERT_EQ(fftbCreateContext(&info, &context_), FFTB_SUCCESS);
    EXPECT_EQ(createKernel(kernel(32, 8)), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "maxKernelResolutionWidth");
    ASSERT_EQ(createKernel(kernel(16, 8)), FFTB_SUCCESS);
    FftbBloomPlanCreateInfo planInfo = validPlanInfo();
    planInfo.kernelSpanUnit = FFTB_KERNEL_SPAN_PIXELS;
    planInfo.kernelSpan = 65.0f;
    FftbBloomPlan bloomPlan = nullptr;
    EXPECT_EQ(createPlan(planInfo, &bloomPlan), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "maxKernelExtentWidth");
    planInfo.kernelSpan = 64.0f; // 64 x 32 pixels: within the extent, four times the resolution
    bloomPlan = plan(planInfo);
    ASSERT_NE(bloomPlan, nullptr);
    FftbBloomPlanDescription node{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    ASSERT_EQ(fftbDescribeBloomPlan(bloomPlan, &node), FFTB_SUCCESS);
    EXPECT_EQ(node.kernelExtentWidth, 64u);
    destroyPlans();
    fftbDestroyKernel(kernel_);
    kernel_ = nullptr;
    fftbDestroyContext(context_);
    context_ = nullptr;

    // An extent smaller than the resolution bounds native kernels too; past 4096 it is refused.
    info.maxKernelExtentWidth = info.maxKernelExtentHeight = 4;
    ASSERT_EQ(fftbCreateContext(&info, &context_), FFTB_SUCCESS);
    ASSERT_EQ(createKernel(kernel(16, 8)), FFTB_SUCCESS);
    planInfo = validPlanInfo();
    EXPECT_EQ(createPlan(planInfo, &bloomPlan), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "maxKernelExtentWidth");
    FftbResizeInfo resize{FFTB_STRUCTURE_TYPE_RESIZE_INFO};
    resize.maxWidth = 64;
    resize.maxHeight = 48;
    resize.maxKernelResolutionWidth = 16;
    resize.maxKernelResolutionHeight = 8;
    resize.maxKernelExtentWidth = 5000;
    EXPECT_EQ(fftbResizeContext(context_, &resize), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "maxKernelExtentWidth");
    resize.maxKernelExtentWidth = 0; // the resolution's
    ASSERT_EQ(fftbResizeContext(context_, &resize), FFTB_SUCCESS);
    EXPECT_NE(plan(planInfo), nullptr);
}

TEST_F(ApiTest, ResizeGrowsTheExtentAndKeepsTheOldOneOnFailure)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    FftbBloomPlanCreateInfo info = validPlanInfo();
    info.width = 100; // maxWidth is 64
    info.height = 48;
    FftbBloomPlan wide = nullptr;
    EXPECT_EQ(createPlan(info, &wide), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "width");

    FftbResizeInfo resize{FFTB_STRUCTURE_TYPE_RESIZE_INFO};
    resize.maxWidth = 16200; // needs an FFT longer than 16384 with a 512 kernel
    resize.maxHeight = 48;
    resize.maxKernelResolutionWidth = resize.maxKernelResolutionHeight = 512;
    EXPECT_EQ(fftbResizeContext(context_, &resize), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "maxWidth");
    EXPECT_EQ(createPlan(info, &wide), FFTB_ERROR_DEVICE_LIMIT) << "the old extent is kept";
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "width");
    info.width = 64;
    const FftbBloomPlan full = plan(info);
    ASSERT_NE(full, nullptr) << "and still works";

    resize.maxWidth = 100;
    resize.maxKernelResolutionWidth = 16;
    resize.maxKernelResolutionHeight = 8;
    ASSERT_EQ(fftbResizeContext(context_, &resize), FFTB_SUCCESS);
    info.width = 100;
    wide = plan(info);
    ASSERT_NE(wide, nullptr);
    FftbBloomPlanDescription node{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    ASSERT_EQ(fftbDescribeBloomPlan(wide, &node), FFTB_SUCCESS);
    EXPECT_GE(node.paddedWidth, 100u + 3 / 2);
    // The kernel was made for 64-wide frames: its resampled spectrum grew for the wider plan's frequencies.
    FftbMemoryRequirements made{FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS};
    const FftbContextCreateInfo createInfo = validCreateInfo();
    ASSERT_EQ(fftbGetMemoryRequirements(&createInfo, &made), FFTB_SUCCESS);
    EXPECT_GT(node.spectrumBytes, made.resampledSpectrumBytes);
    const FftbBloomInfo wideBloom = validBloomInfo();
    const VkCommandBuffer grown = beginCommandBuffer();
    EXPECT_EQ(fftbCmdBloom(wide, grown, &wideBloom), FFTB_SUCCESS);
    EXPECT_EQ(fftbCmdBloom(full, grown, &wideBloom), FFTB_SUCCESS);
    endCommandBuffer(grown);
    resize.sType = FFTB_STRUCTURE_TYPE_KERNEL_INFO;
    EXPECT_EQ(fftbResizeContext(context_, &resize), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "sType");

    // Smaller again: the plan made for the larger extent records no more, the one within the new extent does.
    resize.sType = FFTB_STRUCTURE_TYPE_RESIZE_INFO;
    resize.maxWidth = 64;
    ASSERT_EQ(fftbResizeContext(context_, &resize), FFTB_SUCCESS);
    expectRecordingRefused(wide, FFTB_ERROR_DEVICE_LIMIT, "fftbResizeContext");
    const FftbBloomInfo bloom = validBloomInfo();
    const VkCommandBuffer cb = beginCommandBuffer();
    EXPECT_EQ(fftbCmdBloom(full, cb, &bloom), FFTB_SUCCESS);
    endCommandBuffer(cb);
}

TEST_F(ApiTest, DescribeBloomPlanReportsUsesPassesAndSizes)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(16, 8)), FFTB_SUCCESS);
    FftbBloomPlanCreateInfo info = validPlanInfo();
    info.width = 40;
    info.height = 30;
    info.inputLayout = VK_IMAGE_LAYOUT_GENERAL;
    info.axisOrder = FFTB_AXIS_ORDER_Y_FIRST;
    info.padding = FFTB_PADDING_ZERO_NORMALIZED;
    const FftbBloomPlan bloomPlan = plan(info);
    ASSERT_NE(bloomPlan, nullptr);
    FftbBloomPlanDescription node{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    ASSERT_EQ(fftbDescribeBloomPlan(bloomPlan, &node), FFTB_SUCCESS);
    EXPECT_EQ(node.input.layout, VK_IMAGE_LAYOUT_GENERAL);
    EXPECT_EQ(node.input.stageMask, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    EXPECT_EQ(node.input.accessMask, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    EXPECT_EQ(node.output.layout, VK_IMAGE_LAYOUT_GENERAL);
    EXPECT_EQ(node.output.accessMask, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    EXPECT_EQ(node.axisOrder, FFTB_AXIS_ORDER_Y_FIRST);
    // Zero padding: at least L + K/2 along each axis.
    EXPECT_GE(node.paddedWidth, 40u + 16 / 2);
    EXPECT_GE(node.paddedHeight, 30u + 8 / 2);
    // The first (real-packed) axis is y: the scratch holds its half spectrum for every image column.
    EXPECT_GE(node.scratchBytes, VkDeviceSize(3) * (node.paddedHeight / 2 + 1) * 40 * 8);
    FftbMemoryRequirements requirements{FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS};
    const FftbContextCreateInfo createInfo = validCreateInfo();
    ASSERT_EQ(fftbGetMemoryRequirements(&createInfo, &requirements), FFTB_SUCCESS);
    EXPECT_LE(node.scratchBytes, requirements.scratchBytes);
    EXPECT_EQ(node.spectrumPassCount, 3u) << "a new kernel's spectrum is computed by its first bloom";
    EXPECT_EQ(node.borderWeightPassCount, 3u) << "FFTB_PADDING_ZERO_NORMALIZED, the default: weights first";
    EXPECT_EQ(node.passCount, 9u);
    EXPECT_EQ(node.borderWeightBytes, VkDeviceSize(3) * 40 * 30 * 4) << "the plan's frame's";
    EXPECT_LE(node.borderWeightBytes, requirements.borderWeightBytes);
    EXPECT_EQ(node.kernelExtentWidth, 16u) << "native: the kernel's resolution";
    EXPECT_EQ(node.kernelExtentHeight, 8u);
    EXPECT_EQ(node.kernelScale, 1.0);
    EXPECT_GT(node.modelledCost, 0.0);
    FftbBloomPlanCreateInfo halfInfo = info;
    halfInfo.storagePrecision = FFTB_STORAGE_PRECISION_FLOAT16;
    const FftbBloomPlan half = plan(halfInfo);
    ASSERT_NE(half, nullptr);
    FftbBloomPlanDescription halfNode{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    ASSERT_EQ(fftbDescribeBloomPlan(half, &halfNode), FFTB_SUCCESS);
    // fp16 storage: 4 bytes per complex element of the half spectrum, not 8.
    EXPECT_EQ(2 * halfNode.scratchBytes, node.scratchBytes) << "the half spectrum";

    const VkCommandBuffer cb = beginCommandBuffer();
    ASSERT_EQ(fftbCmdPrepareKernel(bloomPlan, cb), FFTB_SUCCESS);
    ASSERT_EQ(fftbDescribeBloomPlan(bloomPlan, &node), FFTB_SUCCESS);
    EXPECT_EQ(node.spectrumPassCount, 3u) << "recorded, not executed: the next bloom records the passes too";
    submitAndWait(cb);
    ASSERT_EQ(fftbDescribeBloomPlan(bloomPlan, &node), FFTB_SUCCESS);
    EXPECT_EQ(node.passCount, 6u) << "the spectrum computed once; the border weights by the first bloom";
    // The spectrum belongs to the kernel, the border weights to the plan.
    ASSERT_EQ(fftbDescribeBloomPlan(half, &node), FFTB_SUCCESS);
    EXPECT_EQ(node.spectrumPassCount, 0u) << "the kernel holds the spectrum of this extent and axis order";
    EXPECT_EQ(node.borderWeightPassCount, 3u) << "this plan's weights are not computed yet";
    for (FftbPadding padding : {FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR})
    {
        FftbBloomPlanCreateInfo other = info;
        other.padding = padding;
        const FftbBloomPlan unnormalized = plan(other);
        ASSERT_NE(unnormalized, nullptr);
        ASSERT_EQ(fftbDescribeBloomPlan(unnormalized, &node), FFTB_SUCCESS);
        EXPECT_EQ(node.borderWeightPassCount, 0u) << "no border weights without normalization";
        EXPECT_EQ(node.borderWeightBytes, 0u);
    }
    info.axisOrder = FFTB_AXIS_ORDER_X_FIRST;
    const FftbBloomPlan xFirst = plan(info);
    ASSERT_NE(xFirst, nullptr);
    ASSERT_EQ(fftbDescribeBloomPlan(xFirst, &node), FFTB_SUCCESS);
    EXPECT_EQ(node.passCount, 9u) << "the other axis order has a spectrum and weights of its own";
    EXPECT_TRUE(messages_.empty());
}

TEST_F(ApiTest, PassStatisticsNeedTheDeclaredFeatureAndCheckTheirArguments)
{
    createContext(); // without FftbDeviceFeaturesInfo::pipelineExecutableInfo
    ASSERT_EQ(createKernel(kernel(16, 8)), FFTB_SUCCESS);
    const FftbBloomPlan bloomPlan = plan(validPlanInfo());
    ASSERT_NE(bloomPlan, nullptr);
    uint32_t count = 7;
    EXPECT_EQ(fftbGetPassStatistics(bloomPlan, &count, nullptr), FFTB_ERROR_UNSUPPORTED);
    EXPECT_EQ(count, 7u) << "nothing written on failure";
    expectOneMessage(FFTB_ERROR_UNSUPPORTED, "pipelineExecutableInfo");
    EXPECT_EQ(fftbGetPassStatistics(bloomPlan, nullptr, nullptr), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "count");
    EXPECT_EQ(fftbGetPassStatistics(nullptr, &count, nullptr), FFTB_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(messages_.empty()) << "a null plan has no callback to call";
}

TEST_F(ApiTest, DescribeBloomPlanGivesEachAxisOrdersModelledCostAutoPickingTheSmaller)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(16, 8)), FFTB_SUCCESS);
    FftbBloomPlanCreateInfo info = validPlanInfo();
    info.width = 64;
    info.height = 7;
    FftbBloomPlanDescription chosen{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION},
        x{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION}, y{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    for (auto [order, node] : {std::pair{FFTB_AXIS_ORDER_AUTO, &chosen}, std::pair{FFTB_AXIS_ORDER_X_FIRST, &x},
                               std::pair{FFTB_AXIS_ORDER_Y_FIRST, &y}})
    {
        info.axisOrder = order;
        const FftbBloomPlan bloomPlan = plan(info);
        ASSERT_NE(bloomPlan, nullptr);
        ASSERT_EQ(fftbDescribeBloomPlan(bloomPlan, node), FFTB_SUCCESS);
    }
    EXPECT_NE(x.modelledCost, y.modelledCost);
    EXPECT_EQ(chosen.modelledCost, std::min(x.modelledCost, y.modelledCost));
    EXPECT_EQ(chosen.axisOrder, x.modelledCost <= y.modelledCost ? FFTB_AXIS_ORDER_X_FIRST : FFTB_AXIS_ORDER_Y_FIRST);
    EXPECT_TRUE(messages_.empty());
}

TEST(KernelExtent, IsTheResolutionAtNativeScaleAndCeilSigmaKOtherwise)
{
    FftbBloomPlanCreateInfo info{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_CREATE_INFO};
    info.width = 300;
    info.height = 400; // diagonal 500
    uint32_t w = 0, h = 0;
    ASSERT_EQ(fftbGetKernelExtent(&info, 64, 32, &w, &h), FFTB_SUCCESS);
    EXPECT_EQ(w, 64u);
    EXPECT_EQ(h, 32u);
    info.kernelSpanUnit = FFTB_KERNEL_SPAN_PIXELS;
    info.kernelSpan = 100.0f; // sigma 100 / 64: 32 texels span 50 pixels
    ASSERT_EQ(fftbGetKernelExtent(&info, 64, 32, &w, &h), FFTB_SUCCESS);
    EXPECT_EQ(w, 100u);
    EXPECT_EQ(h, 50u);
    info.kernelSpanUnit = FFTB_KERNEL_SPAN_FRAME_DIAGONAL;
    info.kernelSpan = 0.201f; // 100.5 pixels
    ASSERT_EQ(fftbGetKernelExtent(&info, 32, 64, &w, &h), FFTB_SUCCESS);
    EXPECT_EQ(w, 51u);
    EXPECT_EQ(h, 101u);
    info.kernelSpan = -1.0f;
    EXPECT_EQ(fftbGetKernelExtent(&info, 32, 64, &w, &h), FFTB_ERROR_INVALID_ARGUMENT);
    info.kernelSpan = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(fftbGetKernelExtent(&info, 32, 64, &w, &h), FFTB_ERROR_INVALID_ARGUMENT);
    info.kernelSpan = 1.0f;
    for (const int unknown : {3, -1, INT32_MIN})
    {
        info.kernelSpanUnit = FftbKernelSpanUnit(unknown);
        EXPECT_EQ(fftbGetKernelExtent(&info, 32, 64, &w, &h), FFTB_ERROR_INVALID_ARGUMENT) << unknown;
    }
    info.kernelSpanUnit = FFTB_KERNEL_SPAN_NATIVE;
    EXPECT_EQ(fftbGetKernelExtent(&info, 0, 64, &w, &h), FFTB_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(fftbGetKernelExtent(&info, 32, 64, nullptr, &h), FFTB_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(fftbGetKernelExtent(nullptr, 32, 64, &w, &h), FFTB_ERROR_INVALID_ARGUMENT);
    info.width = 0;
    EXPECT_EQ(fftbGetKernelExtent(&info, 32, 64, &w, &h), FFTB_ERROR_INVALID_ARGUMENT);
    info.width = 300;
    for (FftbStructureType wrong : {FFTB_STRUCTURE_TYPE_BLOOM_INFO, FFTB_STRUCTURE_TYPE_KERNEL_INFO})
    {
        info.sType = wrong;
        EXPECT_EQ(fftbGetKernelExtent(&info, 32, 64, &w, &h), FFTB_ERROR_INVALID_ARGUMENT);
    }
}

TEST_F(ApiTest, CreateBloomPlanChecksTheKernelScaleNamingTheField)
{
    createContext(); // maximum kernel resolution and extent 16 x 8
    ASSERT_EQ(createKernel(kernel(8, 4)), FFTB_SUCCESS);
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    FftbBloomPlanDescription node{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    FftbBloomPlanCreateInfo info = validPlanInfo(); // 16 x 16: diagonal 22.6
    FftbBloomPlan bloomPlan = nullptr;
    for (const FftbKernelSpanUnit unit : {FFTB_KERNEL_SPAN_PIXELS, FFTB_KERNEL_SPAN_FRAME_DIAGONAL})
        for (const float scale : {0.0f, -2.0f, nan, inf, -inf})
        {
            info.kernelSpanUnit = unit;
            info.kernelSpan = scale;
            EXPECT_EQ(createPlan(info, &bloomPlan), FFTB_ERROR_INVALID_ARGUMENT) << unit << " " << scale;
            expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "kernelSpan: must be finite and > 0");
        }
    info.kernelSpanUnit = FftbKernelSpanUnit(3);
    info.kernelSpan = 4.0f;
    EXPECT_EQ(createPlan(info, &bloomPlan), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "kernelSpanUnit");
    // The scaled extent, 17 x 9 or 23 x 12, is past the context's maximum kernel extent of 16 x 8.
    info.kernelSpanUnit = FFTB_KERNEL_SPAN_PIXELS;
    info.kernelSpan = 16.5f;
    EXPECT_EQ(createPlan(info, &bloomPlan), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "kernelSpan: the kernel's extent on the frame 17x9");
    info.kernelSpanUnit = FFTB_KERNEL_SPAN_FRAME_DIAGONAL;
    info.kernelSpan = 1.0f;
    EXPECT_EQ(createPlan(info, &bloomPlan), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "kernelSpan");
    info.kernelSpan = 3.0e38f; // the span overflows to infinity
    EXPECT_EQ(createPlan(info, &bloomPlan), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "kernelSpan");
    info.kernelSpan = 0.5f; // 11.3 pixels: 12 x 6
    bloomPlan = plan(info);
    ASSERT_NE(bloomPlan, nullptr);
    ASSERT_EQ(fftbDescribeBloomPlan(bloomPlan, &node), FFTB_SUCCESS);
    EXPECT_EQ(node.kernelExtentWidth, 12u);
    EXPECT_EQ(node.kernelExtentHeight, 6u);
    EXPECT_DOUBLE_EQ(node.kernelScale, double(0.5f) * std::hypot(16.0, 16.0) / 8.0);
    info.kernelSpanUnit = FFTB_KERNEL_SPAN_PIXELS;
    info.kernelSpan = 16.0f; // exactly the maximum
    EXPECT_NE(plan(info), nullptr);
    info.kernelSpan = 0.25f; // smaller than a texel
    bloomPlan = plan(info);
    ASSERT_NE(bloomPlan, nullptr);
    ASSERT_EQ(fftbDescribeBloomPlan(bloomPlan, &node), FFTB_SUCCESS);
    EXPECT_EQ(node.kernelExtentWidth, 1u);
    EXPECT_EQ(node.kernelExtentHeight, 1u);
    info.kernelSpanUnit = FFTB_KERNEL_SPAN_NATIVE;
    info.kernelSpan = nan; // not read
    EXPECT_NE(plan(info), nullptr);
    EXPECT_TRUE(messages_.empty());

    // Both spectrum modes scale (exact mode in space).
    for (const FftbSpectrumMode mode : {FFTB_SPECTRUM_MODE_EXACT, FFTB_SPECTRUM_MODE_RESAMPLED})
    {
        FftbKernelInfo k = kernel(8, 4);
        k.spectrumMode = mode;
        ASSERT_EQ(createKernel(k), FFTB_SUCCESS);
        info = validPlanInfo();
        info.kernelSpanUnit = FFTB_KERNEL_SPAN_PIXELS;
        info.kernelSpan = 8.0f;
        EXPECT_NE(plan(info), nullptr) << mode;
        EXPECT_TRUE(messages_.empty());
    }
}

// FFTB_BLOOM_RESOLUTION_HALF plans the downsampled frame with the kernel at half its extent, adds the upsampling pass,
// in both spectrum modes, and an unknown value is refused naming the field.
TEST_F(ApiTest, HalfResolutionPlansTheDownsampledFrameOrIsRefusedNamingTheField)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(16, 8)), FFTB_SUCCESS);
    FftbBloomPlanCreateInfo info = validPlanInfo();
    info.width = 41;
    info.height = 30;
    info.padding = FFTB_PADDING_ZERO;
    FftbBloomPlanDescription full{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION},
        half{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    const FftbBloomPlan fullPlan = plan(info);
    ASSERT_NE(fullPlan, nullptr);
    ASSERT_EQ(fftbDescribeBloomPlan(fullPlan, &full), FFTB_SUCCESS);
    info.resolution = FFTB_BLOOM_RESOLUTION_HALF;
    const FftbBloomPlan halfPlan = plan(info);
    ASSERT_NE(halfPlan, nullptr);
    ASSERT_EQ(fftbDescribeBloomPlan(halfPlan, &half), FFTB_SUCCESS);
    EXPECT_EQ(half.passCount, full.passCount + 1) << "pass 4 upsamples and composites";
    EXPECT_EQ(half.kernelScale, 0.5) << "a frame pixel is half a pixel of the downsampled frame";
    EXPECT_EQ(half.kernelExtentWidth, 8u);
    EXPECT_EQ(half.kernelExtentHeight, 4u);
    // Zero padding: at least ceil(L / 2) + K / 4 along each axis, less than the full frame needs.
    EXPECT_GE(half.paddedWidth, 21u + 8 / 2);
    EXPECT_GE(half.paddedHeight, 15u + 4 / 2);
    EXPECT_LT(half.paddedWidth, full.paddedWidth);
    EXPECT_LT(half.scratchBytes, full.scratchBytes);
    FftbMemoryRequirements requirements{FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS};
    const FftbContextCreateInfo createInfo = validCreateInfo();
    ASSERT_EQ(fftbGetMemoryRequirements(&createInfo, &requirements), FFTB_SUCCESS);
    EXPECT_LE(half.scratchBytes, requirements.scratchBytes);
    const VkCommandBuffer cb = beginCommandBuffer();
    const FftbBloomInfo bloom = validBloomInfo();
    EXPECT_EQ(fftbCmdBloom(halfPlan, cb, &bloom), FFTB_SUCCESS);
    endCommandBuffer(cb);
    info.resolution = FftbBloomResolution(4);
    FftbBloomPlan refused = nullptr;
    EXPECT_EQ(createPlan(info, &refused), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "resolution");

    FftbKernelInfo resampled = kernel(8, 4);
    resampled.spectrumMode = FFTB_SPECTRUM_MODE_RESAMPLED;
    ASSERT_EQ(createKernel(resampled), FFTB_SUCCESS);
    info = validPlanInfo();
    info.resolution = FFTB_BLOOM_RESOLUTION_HALF;
    EXPECT_NE(plan(info), nullptr);
    EXPECT_TRUE(messages_.empty());
}

TEST_F(ApiTest, DescribeBloomPlanReportsThePaddingOfTheScaledKernel)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(8, 4)), FFTB_SUCCESS);
    FftbBloomPlanCreateInfo info = validPlanInfo();
    info.width = 40;
    info.height = 30;
    info.padding = FFTB_PADDING_MIRROR;
    FftbBloomPlanDescription native{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    ASSERT_EQ(fftbDescribeBloomPlan(plan(info), &native), FFTB_SUCCESS);
    info.kernelSpanUnit = FFTB_KERNEL_SPAN_PIXELS;
    info.kernelSpan = 16.0f; // 16 x 8 pixels: mirror padding needs L + 15 and L + 7
    FftbBloomPlanDescription scaled{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    ASSERT_EQ(fftbDescribeBloomPlan(plan(info), &scaled), FFTB_SUCCESS);
    EXPECT_GE(scaled.paddedWidth, 40u + 15);
    EXPECT_GE(scaled.paddedHeight, 30u + 7);
    EXPECT_GE(native.paddedWidth, 40u + 7);
    EXPECT_GE(native.paddedHeight, 30u + 3);
    // The scratch and the resampled spectrum stay within what the context was sized for.
    FftbMemoryRequirements requirements{FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS};
    const FftbContextCreateInfo createInfo = validCreateInfo();
    ASSERT_EQ(fftbGetMemoryRequirements(&createInfo, &requirements), FFTB_SUCCESS);
    EXPECT_LE(scaled.scratchBytes, requirements.scratchBytes);
    EXPECT_GT(scaled.spectrumBytes, native.spectrumBytes) << "the stored spectrum resolved at the larger padding";
    EXPECT_TRUE(messages_.empty());
}

TEST_F(ApiTest, ScratchInfoIsChecked)
{
    FftbContextCreateInfo info = validCreateInfo();
    FftbMemoryRequirements requirements{FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS};
    ASSERT_EQ(fftbGetMemoryRequirements(&info, &requirements), FFTB_SUCCESS);
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(physicalDevice_, &properties);
    const VkDeviceSize alignment = properties.limits.minStorageBufferOffsetAlignment;
    ASSERT_GT(alignment, 1u) << "the misaligned case below needs an alignment above 1";

    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = requirements.scratchBytes + alignment;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    VkBuffer buffer = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateBuffer(device_, &bci, nullptr, &buffer), VK_SUCCESS);
    FftbScratchInfo scratch{FFTB_STRUCTURE_TYPE_SCRATCH_INFO};
    info.pNext = &scratch;
    EXPECT_EQ(fftbCreateContext(&info, &context_), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "FftbScratchInfo.buffer");
    scratch.buffer = buffer;
    scratch.offset = alignment / 2;
    scratch.size = requirements.scratchBytes;
    EXPECT_EQ(fftbCreateContext(&info, &context_), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "FftbScratchInfo.offset");
    scratch.offset = alignment;
    scratch.size = requirements.scratchBytes - 8;
    EXPECT_EQ(fftbCreateContext(&info, &context_), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "FftbScratchInfo.size");
    EXPECT_EQ(context_, nullptr);
    vkDestroyBuffer(device_, buffer, nullptr);
}

TEST_F(ApiTest, ImageBarrierInfoIsChecked)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    const FftbBloomPlan bloomPlan = plan(validPlanInfo());
    FftbImageBarrierInfo images{FFTB_STRUCTURE_TYPE_IMAGE_BARRIER_INFO};
    FftbBloomInfo info = validBloomInfo();
    info.pNext = &images;
    const VkCommandBuffer cb = beginCommandBuffer();
    EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "inputImage");
    images.inputImage = images_[0];
    images.outputImage = images_[1];
    images.inputLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    images.outputNewLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "outputNewLayout");
    FftbPlannerInfo stranger{FFTB_STRUCTURE_TYPE_PLANNER_INFO};
    info.pNext = &stranger;
    EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "bloomInfo.pNext");
    endCommandBuffer(cb);
}

TEST_F(ApiTest, KernelFromOneContextServesAnotherAndOutlivesIt)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(4, 4)), FFTB_SUCCESS);
    FftbContextCreateInfo info = validCreateInfo();
    info.maxKernelResolutionWidth = info.maxKernelResolutionHeight = 3;
    FftbContext small = nullptr;
    ASSERT_EQ(fftbCreateContext(&info, &small), FFTB_SUCCESS);
    FftbBloomPlan bloomPlan = nullptr;
    EXPECT_EQ(createPlan(validPlanInfo(), &bloomPlan, small), FFTB_ERROR_DEVICE_LIMIT) << "4 x 4 past its 3 x 3";
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "maximum kernel resolution");
    fftbDestroyContext(small);

    info = validCreateInfo();
    FftbContext other = nullptr;
    ASSERT_EQ(fftbCreateContext(&info, &other), FFTB_SUCCESS);
    fftbDestroyContext(context_);
    context_ = nullptr;
    ASSERT_EQ(createPlan(validPlanInfo(), &bloomPlan, other), FFTB_SUCCESS);
    const FftbBloomInfo bloom = validBloomInfo();
    const VkCommandBuffer cb = beginCommandBuffer();
    EXPECT_EQ(fftbCmdBloom(bloomPlan, cb, &bloom), FFTB_SUCCESS);
    endCommandBuffer(cb);
    destroyPlan(bloomPlan);
    fftbDestroyContext(other);
    EXPECT_TRUE(messages_.empty());
}

/// Counts the debug labels the plugin opens and closes, forwarding them to the layer.
struct LabelCounter
{
    static inline PFN_vkCmdBeginDebugUtilsLabelEXT begin = nullptr;
    static inline PFN_vkCmdEndDebugUtilsLabelEXT end = nullptr;
    static inline std::vector<std::string> opened;
    static inline int closed = 0;

    static VKAPI_ATTR void VKAPI_CALL countBegin(VkCommandBuffer cb, const VkDebugUtilsLabelEXT* label)
    {
        opened.emplace_back(label->pLabelName);
        begin(cb, label);
    }
    static VKAPI_ATTR void VKAPI_CALL countEnd(VkCommandBuffer cb)
    {
        ++closed;
        end(cb);
    }
    static inline PFN_vkSetDebugUtilsObjectNameEXT setName = nullptr;
    static inline std::vector<std::pair<VkObjectType, std::string>> names;

    static VKAPI_ATTR VkResult VKAPI_CALL recordName(VkDevice device, const VkDebugUtilsObjectNameInfoEXT* info)
    {
        names.emplace_back(info->objectType, info->pObjectName);
        return setName(device, info);
    }
    static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL getInstanceProcAddr(VkInstance instance, const char* name)
    {
        if (std::strcmp(name, "vkSetDebugUtilsObjectNameEXT") == 0)
        {
            setName = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(vkGetInstanceProcAddr(instance, name));
            return reinterpret_cast<PFN_vkVoidFunction>(&recordName);
        }
        if (std::strcmp(name, "vkCmdBeginDebugUtilsLabelEXT") == 0)
        {
            begin = reinterpret_cast<PFN_vkCmdBeginDebugUtilsLabelEXT>(vkGetInstanceProcAddr(instance, name));
            return reinterpret_cast<PFN_vkVoidFunction>(&countBegin);
        }
        if (std::strcmp(name, "vkCmdEndDebugUtilsLabelEXT") == 0)
        {
            end = reinterpret_cast<PFN_vkCmdEndDebugUtilsLabelEXT>(vkGetInstanceProcAddr(instance, name));
            return reinterpret_cast<PFN_vkVoidFunction>(&countEnd);
        }
        return vkGetInstanceProcAddr(instance, name);
    }
};

/// Declares VK_EXT_debug_utils in `info` through `features` (the fixture's instance enables it), with LabelCounter's
/// entry points.
void declareDebugUtils(FftbContextCreateInfo& info, FftbDeviceFeaturesInfo& features)
{
    features = {FFTB_STRUCTURE_TYPE_DEVICE_FEATURES_INFO};
    features.debugUtils = VK_TRUE;
    info.pNext = &features;
    info.getInstanceProcAddr = &LabelCounter::getInstanceProcAddr;
}

TEST_F(ApiTest, DebugLabelsWrapTheCallAndEveryPassWhenDeclared)
{
    FftbContextCreateInfo info = validCreateInfo();
    FftbDeviceFeaturesInfo features;
    declareDebugUtils(info, features);
    ASSERT_EQ(fftbCreateContext(&info, &context_), FFTB_SUCCESS);
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    const FftbBloomPlan labelled = plan(validPlanInfo());
    const FftbBloomInfo bloom = validBloomInfo();
    LabelCounter::opened.clear();
    LabelCounter::closed = 0;
    const VkCommandBuffer cb = beginCommandBuffer();
    ASSERT_EQ(fftbCmdBloom(labelled, cb, &bloom), FFTB_SUCCESS);
    // The call's own label, then the three kernel-spectrum passes (a new kernel) and the three passes.
    ASSERT_EQ(LabelCounter::opened.size(), 7u);
    EXPECT_EQ(LabelCounter::opened[0], "fftbloom");
    for (size_t i = 1; i < 7; ++i)
        EXPECT_EQ(LabelCounter::opened[i].rfind("fftbloom: ", 0), 0u) << LabelCounter::opened[i];
    EXPECT_NE(LabelCounter::opened[5].find("pass 2"), std::string::npos);
    EXPECT_EQ(LabelCounter::closed, 7);
    endCommandBuffer(cb);

    // Undeclared, no label is recorded even though the instance could.
    destroyPlans();
    fftbDestroyKernel(kernel_);
    kernel_ = nullptr;
    fftbDestroyContext(context_);
    info.pNext = nullptr;
    ASSERT_EQ(fftbCreateContext(&info, &context_), FFTB_SUCCESS);
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    const FftbBloomPlan plain = plan(validPlanInfo());
    LabelCounter::opened.clear();
    const VkCommandBuffer cb2 = beginCommandBuffer();
    ASSERT_EQ(fftbCmdBloom(plain, cb2, &bloom), FFTB_SUCCESS);
    EXPECT_TRUE(LabelCounter::opened.empty());
    endCommandBuffer(cb2);
}

TEST_F(ApiTest, DebugNamesNameEveryBufferAndPipelineWhenDeclared)
{
    FftbContextCreateInfo info = validCreateInfo();
    FftbDeviceFeaturesInfo features;
    declareDebugUtils(info, features);
    LabelCounter::names.clear();
    ASSERT_EQ(fftbCreateContext(&info, &context_), FFTB_SUCCESS);
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    FftbBloomPlanCreateInfo planInfo = validPlanInfo();
    planInfo.padding = FFTB_PADDING_ZERO_NORMALIZED;
    plan(planInfo);
    const auto named = [](VkObjectType type, const std::string& name) {
        return std::count(LabelCounter::names.begin(), LabelCounter::names.end(), std::pair{type, name});
    };
    const std::string frame = std::to_string(planInfo.width) + "x" + std::to_string(planInfo.height);
    for (const std::string& name :
         std::vector<std::string>{"fftbloom: twiddles", "fftbloom: scratch", "fftbloom: kernel 3x3 texels",
                                  "fftbloom: plan " + frame + " border weights"})
    {
        EXPECT_EQ(named(VK_OBJECT_TYPE_BUFFER, name), 1) << name;
        EXPECT_EQ(named(VK_OBJECT_TYPE_DEVICE_MEMORY, name), 1) << name;
    }
    EXPECT_EQ(named(VK_OBJECT_TYPE_BUFFER, "fftbloom: kernel 3x3 spectrum, x first") +
                  named(VK_OBJECT_TYPE_BUFFER, "fftbloom: kernel 3x3 spectrum, y first"),
              1);
    // The plan's pipelines: its kernel spectrum's, and passes 1 to 3.
    size_t pipelines = 0;
    for (const auto& [type, name] : LabelCounter::names)
    {
        EXPECT_EQ(name.rfind("fftbloom: ", 0), 0u) << name;
        if (type == VK_OBJECT_TYPE_PIPELINE)
        {
            ++pipelines;
            EXPECT_NE(name.find("(FFT length "), std::string::npos) << name;
        }
    }
    EXPECT_GE(pipelines, 5u);

    // Undeclared, nothing is named even though the instance could.
    destroyPlans();
    fftbDestroyKernel(kernel_);
    kernel_ = nullptr;
    fftbDestroyContext(context_);
    info.pNext = nullptr;
    LabelCounter::names.clear();
    ASSERT_EQ(fftbCreateContext(&info, &context_), FFTB_SUCCESS);
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    planInfo.kernel = kernel_;
    plan(planInfo);
    EXPECT_TRUE(LabelCounter::names.empty());
}

/// VkAllocationCallbacks that fail every allocation while `failing` is set.
struct FailingAllocator
{
    static inline bool failing = false;
    static void* VKAPI_CALL allocate(void*, size_t size, size_t alignment, VkSystemAllocationScope)
    {
        return failing ? nullptr : std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
    }
    static void* VKAPI_CALL reallocate(void*, void* original, size_t size, size_t alignment, VkSystemAllocationScope)
    {
        if (failing)
            return nullptr;
        void* copy = std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
        if (copy && original)
        {
            std::memcpy(copy, original, std::min(size, malloc_usable_size(original)));
            std::free(original);
        }
        return copy;
    }
    static void VKAPI_CALL release(void*, void* memory) { std::free(memory); }
    static VkAllocationCallbacks callbacks()
    {
        VkAllocationCallbacks c{};
        c.pfnAllocation = allocate;
        c.pfnReallocation = reallocate;
        c.pfnFree = release;
        return c;
    }
};

TEST_F(ApiTest, ResizeOutOfMemoryKeepsTheContextUsableAtItsOldSize)
{
    FftbContextCreateInfo info = validCreateInfo();
    const VkAllocationCallbacks callbacks = FailingAllocator::callbacks();
    info.allocator = &callbacks;
    ASSERT_EQ(fftbCreateContext(&info, &context_), FFTB_SUCCESS);
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    FftbResizeInfo resize{FFTB_STRUCTURE_TYPE_RESIZE_INFO};
    resize.maxWidth = 200;
    resize.maxHeight = 100;
    resize.maxKernelResolutionWidth = 16;
    resize.maxKernelResolutionHeight = 8;
    FailingAllocator::failing = true;
    const FftbResult result = fftbResizeContext(context_, &resize);
    FailingAllocator::failing = false;
    // The layer reports the failed vkCreateBuffer's result, as it should; that one message is the expected one.
    ASSERT_EQ(validationMessages_.size(), 1u);
    EXPECT_NE(validationMessages_[0].find("VK_ERROR_OUT_OF_HOST_MEMORY"), std::string::npos) << validationMessages_[0];
    validationMessages_.clear();
    EXPECT_EQ(result, FFTB_ERROR_OUT_OF_HOST_MEMORY);
    ASSERT_EQ(messages_.size(), 1u);
    EXPECT_EQ(messages_[0].vkResult, VK_ERROR_OUT_OF_HOST_MEMORY) << "the message carries the failed call's VkResult";
    EXPECT_NE(messages_[0].text.find("vkCreateBuffer"), std::string::npos) << messages_[0].text;
    messages_.clear();
    FftbBloomPlanCreateInfo planInfo = validPlanInfo();
    planInfo.width = 64;
    planInfo.height = 48;
    const FftbBloomPlan old = plan(planInfo);
    ASSERT_NE(old, nullptr) << "the old maximum extent is still planned";
    const FftbBloomInfo bloom = validBloomInfo();
    const VkCommandBuffer cb = beginCommandBuffer();
    EXPECT_EQ(fftbCmdBloom(old, cb, &bloom), FFTB_SUCCESS) << "and records";
    endCommandBuffer(cb);
    planInfo.width = 200;
    FftbBloomPlan wide = nullptr;
    EXPECT_EQ(createPlan(planInfo, &wide), FFTB_ERROR_DEVICE_LIMIT) << "the new one was not taken";
    messages_.clear();
    ASSERT_EQ(fftbResizeContext(context_, &resize), FFTB_SUCCESS) << "and it grows once memory is back";
}

/// An instance whose devices report no shaderStorageImageWriteWithoutFormat, as one without it would.
struct WithoutFeature
{
    static inline PFN_vkGetPhysicalDeviceFeatures features = nullptr;
    static VKAPI_ATTR void VKAPI_CALL getFeatures(VkPhysicalDevice device, VkPhysicalDeviceFeatures* out)
    {
        features(device, out);
        out->shaderStorageImageWriteWithoutFormat = VK_FALSE;
    }
    static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL getInstanceProcAddr(VkInstance instance, const char* name)
    {
        if (std::strcmp(name, "vkGetPhysicalDeviceFeatures") == 0)
        {
            features = reinterpret_cast<PFN_vkGetPhysicalDeviceFeatures>(vkGetInstanceProcAddr(instance, name));
            return reinterpret_cast<PFN_vkVoidFunction>(&getFeatures);
        }
        return vkGetInstanceProcAddr(instance, name);
    }
};

TEST_F(ApiTest, CreateNamesAMissingDeviceFeature)
{
    FftbContextCreateInfo info = validCreateInfo();
    info.getInstanceProcAddr = &WithoutFeature::getInstanceProcAddr;
    EXPECT_EQ(fftbCreateContext(&info, &context_), FFTB_ERROR_UNSUPPORTED);
    EXPECT_EQ(context_, nullptr);
    expectOneMessage(FFTB_ERROR_UNSUPPORTED, "shaderStorageImageWriteWithoutFormat");
}

// The kernel spectrum's passes bind buffers only: after the images of a bloom are destroyed, a new kernel is prepared
// and bloomed into new images.
TEST_F(ApiTest, DestroyedImagesThenPrepareKernel)
{
    createContext();
    const std::vector<float> firstTexels = unevenTexels(5, 5, 0), secondTexels = unevenTexels(5, 5, 1);
    ASSERT_EQ(createKernel(exactKernelInfo(firstTexels, 5, 5)), FFTB_SUCCESS);
    const FftbBloomPlan first = plan(validPlanInfo());
    ASSERT_NE(first, nullptr);
    GpuFrame x = createFrame(5, 6);
    VkCommandBuffer cb = beginCommandBuffer();
    recordFrame(cb, first, x);
    submitAndWait(cb);
    expectTheKernelAtTheLight(x, firstTexels, 5, 5);
    destroyFrame(x);

    FftbBloomPlanCreateInfo planInfo = validPlanInfo();
    planInfo.kernel = addKernel(exactKernelInfo(secondTexels, 5, 5));
    const FftbBloomPlan second = plan(planInfo);
    ASSERT_NE(second, nullptr);
    GpuFrame y = createFrame(10, 8);
    cb = beginCommandBuffer();
    EXPECT_EQ(fftbCmdPrepareKernel(second, cb), FFTB_SUCCESS);
    recordFrame(cb, second, y);
    submitAndWait(cb);
    expectTheKernelAtTheLight(y, secondTexels, 5, 5);
    EXPECT_TRUE(messages_.empty()) << messages_[0].text;
}

// Nothing a bloom records is rewritten by the next: command buffers that prepare the kernel and bloom with the same
// plan are recorded while the earlier ones are pending, and all run.
TEST_F(ApiTest, SeveralFramesInFlightOfOnePlan)
{
    createContext();
    const std::vector<float> texels = unevenTexels(5, 5, 2);
    ASSERT_EQ(createKernel(exactKernelInfo(texels, 5, 5)), FFTB_SUCCESS);
    FftbBloomPlanCreateInfo planInfo = validPlanInfo();
    planInfo.padding = FFTB_PADDING_ZERO_NORMALIZED; // border weights, computed by the first bloom, read by all
    const FftbBloomPlan bloomPlan = plan(planInfo);
    ASSERT_NE(bloomPlan, nullptr);
    // The first command buffer waits for an event the host sets once every one is submitted: none completes before.
    const VkEvent start = createEvent();
    constexpr int kPending = 3;
    GpuFrame frames[kPending];
    VkCommandBuffer cbs[kPending];
    VkFence fences[kPending];
    for (int i = 0; i < kPending; ++i)
    {
        frames[i] = createFrame(4 + 3 * uint32_t(i), 11 - 3 * uint32_t(i));
        fences[i] = createFence();
        cbs[i] = beginCommandBuffer();
        if (i == 0)
            vkCmdWaitEvents(cbs[i], 1, &start, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, nullptr,
                            0, nullptr, 0, nullptr);
        EXPECT_EQ(fftbCmdPrepareKernel(bloomPlan, cbs[i]), FFTB_SUCCESS);
        recordFrame(cbs[i], bloomPlan, frames[i]);
        submit(cbs[i], fences[i]);
    }
    for (VkFence fence : fences)
        EXPECT_EQ(vkGetFenceStatus(device_, fence), VK_NOT_READY);
    ASSERT_EQ(vkSetEvent(device_, start), VK_SUCCESS);
    for (int i = 0; i < kPending; ++i)
    {
        wait(fences[i], cbs[i]);
        expectTheKernelAtTheLight(frames[i], texels, 5, 5);
    }
    EXPECT_TRUE(messages_.empty()) << messages_[0].text;
}

// An engine's loop: every frame makes its images, records its bloom and submits it, then retires the frame before it
// (its fence, its images); the kernel changes twice, its plan made before the frame that first uses it and the old
// kernel and plan destroyed once their last frame completed. Every frame's output is the bloom of its light.
TEST_F(ApiTest, EngineLoopRecreatesImagesAndChangesTheKernel)
{
    createContext();
    constexpr uint32_t kFrames = 60, kFramesPerKernel = 20, kKernel = 5;
    struct Generation
    {
        std::vector<float> texels;
        FftbKernel kernel = nullptr;
        FftbBloomPlan plan = nullptr;
    };
    std::vector<Generation> generations;
    struct InFlight
    {
        uint32_t index = 0;
        GpuFrame frame;
        VkCommandBuffer cb = VK_NULL_HANDLE;
        VkFence fence = VK_NULL_HANDLE;
    };
    const VkFence fences[2] = {createFence(), createFence()};
    uint32_t checked = 0;
    // Waits for `f`, checks its output, destroys its images, and its kernel and plan after their last frame.
    const auto retire = [&](InFlight& f)
    {
        wait(f.fence, f.cb);
        Generation& g = generations[f.index / kFramesPerKernel];
        expectTheKernelAtTheLight(f.frame, g.texels, kKernel, kKernel);
        ++checked;
        destroyFrame(f.frame);
        if (f.index % kFramesPerKernel == kFramesPerKernel - 1)
        {
            destroyPlan(g.plan);
            destroyKernel(g.kernel);
        }
    };
    std::optional<InFlight> previous;
    for (uint32_t i = 0; i < kFrames; ++i)
    {
        if (i % kFramesPerKernel == 0)
        {
            Generation& g = generations.emplace_back();
            g.texels = unevenTexels(kKernel, kKernel, 3 + i / kFramesPerKernel);
            g.kernel = addKernel(exactKernelInfo(g.texels, kKernel, kKernel));
            FftbBloomPlanCreateInfo planInfo = validPlanInfo();
            planInfo.kernel = g.kernel;
            planInfo.padding = FFTB_PADDING_ZERO_NORMALIZED;
            g.plan = plan(planInfo);
            ASSERT_NE(g.plan, nullptr);
        }
        // The light wanders over texels 4 .. 11, where the border weights are 1 wherever its bloom reaches.
        InFlight current{i, createFrame(4 + i % 8, 4 + (i / 8 + i) % 8), beginCommandBuffer(), fences[i % 2]};
        recordFrame(current.cb, generations.back().plan, current.frame);
        submit(current.cb, current.fence);
        if (previous)
            retire(*previous);
        previous = current;
    }
    retire(*previous);
    EXPECT_EQ(checked, kFrames);
    EXPECT_EQ(generations.size(), 3u);
    EXPECT_TRUE(plans_.empty() && kernels_.empty()) << "each kernel and plan destroyed after its last frame";
    EXPECT_TRUE(messages_.empty()) << messages_[0].text;
}

/// An engine's buffer allocator (FftbBufferAllocatorInfo): each buffer with memory of its own, counted.
struct EngineAllocator
{
    VkDevice device = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    std::map<VkBuffer, VkDeviceMemory> live;
    int made = 0, hostVisible = 0;
    bool fail = false; ///< the next allocations return VK_ERROR_OUT_OF_DEVICE_MEMORY

    static VkResult allocate(void* user, VkDeviceSize size, VkBufferUsageFlags usage, VkBool32 host, VkBuffer* buffer,
                             void** mapped)
    {
        auto& self = *static_cast<EngineAllocator*>(user);
        if (self.fail)
            return VK_ERROR_OUT_OF_DEVICE_MEMORY;
        VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        bci.size = size;
        bci.usage = usage;
        if (VkResult r = vkCreateBuffer(self.device, &bci, nullptr, buffer); r != VK_SUCCESS)
            return r;
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(self.device, *buffer, &req);
        VkPhysicalDeviceMemoryProperties props;
        vkGetPhysicalDeviceMemoryProperties(self.physicalDevice, &props);
        const VkMemoryPropertyFlags flags =
            host ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                 : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
        uint32_t type = 0;
        while (type < props.memoryTypeCount &&
               (!(req.memoryTypeBits & (1u << type)) || (props.memoryTypes[type].propertyFlags & flags) != flags))
            ++type;
        VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        mai.allocationSize = req.size;
        mai.memoryTypeIndex = type;
        VkDeviceMemory memory = VK_NULL_HANDLE;
        vkAllocateMemory(self.device, &mai, nullptr, &memory);
        vkBindBufferMemory(self.device, *buffer, memory, 0);
        if (host)
            vkMapMemory(self.device, memory, 0, VK_WHOLE_SIZE, 0, mapped);
        self.live[*buffer] = memory;
        ++self.made;
        self.hostVisible += host ? 1 : 0;
        return VK_SUCCESS;
    }
    static void free(void* user, VkBuffer buffer)
    {
        auto& self = *static_cast<EngineAllocator*>(user);
        const auto it = self.live.find(buffer);
        ASSERT_NE(it, self.live.end()) << "a buffer the allocator did not make";
        vkDestroyBuffer(self.device, buffer, nullptr);
        vkFreeMemory(self.device, it->second, nullptr);
        self.live.erase(it);
    }
};

// With an FftbBufferAllocatorInfo every buffer the context, its kernel and plan keep comes from the engine, and goes
// back to it when they are destroyed; the bloom is the same; a refused allocation is the plugin's out-of-memory error.
TEST_F(ApiTest, EveryBufferComesFromTheEnginesAllocatorWhenGiven)
{
    EngineAllocator engine;
    engine.device = device_;
    engine.physicalDevice = physicalDevice_;
    FftbBufferAllocatorInfo allocator{FFTB_STRUCTURE_TYPE_BUFFER_ALLOCATOR_INFO};
    allocator.allocate = EngineAllocator::allocate;
    allocator.free = EngineAllocator::free;
    allocator.userData = &engine;
    FftbContextCreateInfo info = validCreateInfo();
    info.pNext = &allocator;
    ASSERT_EQ(fftbCreateContext(&info, &context_), FFTB_SUCCESS) << messages_[0].text;
    EXPECT_EQ(engine.made, 2) << "the scratch and the twiddle table";
    EXPECT_EQ(engine.hostVisible, 1) << "the twiddle table";
    const std::vector<float> texels = unevenTexels(5, 5, 3);
    ASSERT_EQ(createKernel(exactKernelInfo(texels, 5, 5)), FFTB_SUCCESS);
    EXPECT_EQ(engine.made, 3) << "the kernel's texels";
    FftbBloomPlanCreateInfo planInfo = validPlanInfo();
    planInfo.padding = FFTB_PADDING_ZERO_NORMALIZED;
    const FftbBloomPlan normalized = plan(planInfo);
    ASSERT_NE(normalized, nullptr);
    EXPECT_EQ(engine.made, 7) << "the kernel's spectrum and the plan's border weights, each with its completion word";
    GpuFrame f = createFrame(8, 7);
    VkCommandBuffer cb = beginCommandBuffer();
    recordFrame(cb, normalized, f);
    submitAndWait(cb);
    expectTheKernelAtTheLight(f, texels, 5, 5);
    EXPECT_EQ(engine.made, 7) << "recording allocates nothing";

    engine.fail = true;
    planInfo.axisOrder = FFTB_AXIS_ORDER_Y_FIRST; // a plan of the other axis order needs the other spectrum slot
    FftbBloomPlan refused = nullptr;
    messages_.clear();
    EXPECT_EQ(createPlan(planInfo, &refused), FFTB_ERROR_OUT_OF_DEVICE_MEMORY);
    EXPECT_EQ(refused, nullptr);

    destroyPlans();
    fftbDestroyKernel(kernel_);
    kernel_ = nullptr;
    fftbDestroyContext(context_);
    context_ = nullptr;
    EXPECT_TRUE(engine.live.empty()) << engine.live.size() << " buffers not given back";
}

TEST_F(ApiTest, MemoryRequirementsCountTheGeneratorOfTheLargestGeneratedKernel)
{
    FftbContextCreateInfo info = validCreateInfo(); // a 16 x 8 maximum resolution holds no generated kernel
    FftbMemoryRequirements small{FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS};
    ASSERT_EQ(fftbGetMemoryRequirements(&info, &small), FFTB_SUCCESS);
    EXPECT_EQ(small.generatorBytes, 0u);
    info.maxKernelResolutionWidth = info.maxKernelResolutionHeight = 300; // holds 256 x 256
    FftbMemoryRequirements k256{FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS};
    ASSERT_EQ(fftbGetMemoryRequirements(&info, &k256), FFTB_SUCCESS);
    // At least the 3 K^2 fp32 generated texels and a pattern grid of twice the kernel: (2 K)^2 32-bit words.
    EXPECT_GE(k256.generatorBytes, 3ull * 256 * 256 * 4 + 4ull * 512 * 512);
    info.maxKernelResolutionWidth = info.maxKernelResolutionHeight = 1024;
    FftbMemoryRequirements k1024{FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS};
    ASSERT_EQ(fftbGetMemoryRequirements(&info, &k1024), FFTB_SUCCESS);
    EXPECT_GT(k1024.generatorBytes, k256.generatorBytes);
}

TEST(Api, ResultToStringNamesEveryCode)
{
// Each code with its own spelling: the string is the enumerator's name.
#define FFTB_RESULTS(X)                                                                                                \
    X(FFTB_SUCCESS)                                                                                                    \
    X(FFTB_ERROR_INVALID_ARGUMENT)                                                                                     \
    X(FFTB_ERROR_UNSUPPORTED)                                                                                          \
    X(FFTB_ERROR_DEVICE_LIMIT)                                                                                         \
    X(FFTB_ERROR_OUT_OF_HOST_MEMORY)                                                                                   \
    X(FFTB_ERROR_OUT_OF_DEVICE_MEMORY)                                                                                 \
    X(FFTB_ERROR_VULKAN)                                                                                               \
    X(FFTB_INCOMPLETE)
#define FFTB_RESULT_ENTRY(code) std::make_pair(code, std::string(#code)),
    const std::pair<FftbResult, std::string> results[] = {FFTB_RESULTS(FFTB_RESULT_ENTRY)};
#undef FFTB_RESULT_ENTRY
#undef FFTB_RESULTS
    std::set<std::string> names;
    for (const auto& [code, spelling] : results)
    {
        const char* name = fftbResultToString(code);
        ASSERT_NE(name, nullptr) << spelling;
        EXPECT_EQ(std::string(name), spelling);
        names.insert(name);
    }
    EXPECT_EQ(names.size(), std::size(results)) << "names are not distinct";
    // 2 and 3 are no codes but lie in the enum's range of values, so the conversion is defined in C++.
    for (int value : {2, 3})
    {
        const char* unknown = fftbResultToString(static_cast<FftbResult>(value));
        ASSERT_NE(unknown, nullptr);
        EXPECT_EQ(names.count(unknown), 0u) << value << " borrows a real code's name";
    }
}

TEST(Api, VersionMatchesHeader)
{
    EXPECT_EQ(fftbGetVersion(), FFTB_VERSION);
    EXPECT_EQ(FFTB_VERSION, FFTB_MAKE_VERSION(FFTB_VERSION_MAJOR, FFTB_VERSION_MINOR, FFTB_VERSION_PATCH));
    EXPECT_EQ(fftbGetVersion() >> 22, uint32_t(FFTB_VERSION_MAJOR));
    EXPECT_EQ((fftbGetVersion() >> 12) & 0x3FFu, uint32_t(FFTB_VERSION_MINOR));
    EXPECT_EQ(fftbGetVersion() & 0xFFFu, uint32_t(FFTB_VERSION_PATCH));
}

} // namespace
