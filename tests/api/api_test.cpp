// SPDX-License-Identifier: MIT
// The C API's argument checks and result codes, on a lavapipe device with the Khronos validation layer on.
#include "vulkan/loaded_libraries.h"

#include <fftbloom/fftbloom.h>

#include <gtest/gtest.h>

#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
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

/// Records failures and FFTB_NOT_READY; the notes of FFTB_SUCCESS (pipelines compiled while recording) are
/// checked apart (recordEveryMessage).
void recordMessage(FftbResult result, VkResult vkResult, const char* message, void* userData)
{
    if (result != FFTB_SUCCESS)
        static_cast<std::vector<Message>*>(userData)->push_back({result, vkResult, message ? message : "(null)"});
}

void recordEveryMessage(FftbResult result, VkResult vkResult, const char* message, void* userData)
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

/// A Vulkan 1.1 instance with validation, a device on lavapipe, and the small objects the calls need.
/// Every validation warning or error is collected and fails the test at teardown.
class ApiTest : public ::testing::Test
{
  protected:
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

        vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice_, &count, nullptr);
        std::vector<VkQueueFamilyProperties> families(count);
        vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice_, &count, families.data());
        for (uint32_t i = 0; i < count && queueFamily_ == UINT32_MAX; ++i)
            if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
                queueFamily_ = i;
        ASSERT_NE(queueFamily_, UINT32_MAX) << "no compute queue";

        const float priority = 1.0f;
        VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
        qci.queueFamilyIndex = queueFamily_;
        qci.queueCount = 1;
        qci.pQueuePriorities = &priority;
        // The plugin's output is a storage image of any format: FftbContextCreateInfo requires this feature.
        VkPhysicalDeviceFeatures features{};
        features.shaderStorageImageWriteWithoutFormat = VK_TRUE;
        VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
        dci.queueCreateInfoCount = 1;
        dci.pQueueCreateInfos = &qci;
        dci.pEnabledFeatures = &features;
        ASSERT_EQ(vkCreateDevice(physicalDevice_, &dci, nullptr, &device_), VK_SUCCESS);
    }

    void TearDown() override
    {
        fftbDestroyKernel(kernel_);
        if (context_)
            fftbDestroyContext(context_);
        if (device_)
        {
            for (VkImageView view : views_)
                vkDestroyImageView(device_, view, nullptr);
            for (VkImage image : images_)
                vkDestroyImage(device_, image, nullptr);
            for (VkDeviceMemory memory : memories_)
                vkFreeMemory(device_, memory, nullptr);
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
        info.maxFramesInFlight = 2;
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

    /// fftbCreateKernel of `info` on context_ into kernel_ (the previous one destroyed).
    FftbResult createKernel(const FftbKernelInfo& info)
    {
        fftbDestroyKernel(kernel_);
        kernel_ = nullptr;
        return fftbCreateKernel(context_, &info, &kernel_);
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

    /// A 2D RGBA32F view the bloom could read or write; never used by the GPU here, so left in its initial layout.
    VkImageView createView()
    {
        VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
        ici.imageType = VK_IMAGE_TYPE_2D;
        ici.format = VK_FORMAT_R32G32B32A32_SFLOAT;
        ici.extent = {16, 16, 1};
        ici.mipLevels = 1;
        ici.arrayLayers = 1;
        ici.samples = VK_SAMPLE_COUNT_1_BIT;
        ici.tiling = VK_IMAGE_TILING_OPTIMAL;
        ici.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT;
        ici.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
        ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        VkImage image = VK_NULL_HANDLE;
        EXPECT_EQ(vkCreateImage(device_, &ici, nullptr, &image), VK_SUCCESS);
        images_.push_back(image);

        // A view needs bound memory (VUID-VkImageViewCreateInfo-image-01020).
        VkMemoryRequirements req;
        vkGetImageMemoryRequirements(device_, image, &req);
        VkPhysicalDeviceMemoryProperties props;
        vkGetPhysicalDeviceMemoryProperties(physicalDevice_, &props);
        uint32_t type = 0;
        while (type < props.memoryTypeCount && !(req.memoryTypeBits & (1u << type)))
            ++type;
        VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        mai.allocationSize = req.size;
        mai.memoryTypeIndex = type;
        VkDeviceMemory memory = VK_NULL_HANDLE;
        EXPECT_EQ(vkAllocateMemory(device_, &mai, nullptr, &memory), VK_SUCCESS);
        memories_.push_back(memory);
        EXPECT_EQ(vkBindImageMemory(device_, image, memory, 0), VK_SUCCESS);

        VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        vci.image = image;
        vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
        vci.format = ici.format;
        vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        VkImageView view = VK_NULL_HANDLE;
        EXPECT_EQ(vkCreateImageView(device_, &vci, nullptr, &view), VK_SUCCESS);
        views_.push_back(view);
        return view;
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

    /// Valid per-frame settings within validCreateInfo()'s extents.
    FftbBloomInfo validBloomInfo()
    {
        FftbBloomInfo info{};
        info.sType = FFTB_STRUCTURE_TYPE_BLOOM_INFO;
        info.kernel = kernel_;
        info.inputView = createView();
        info.inputLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        info.outputView = createView();
        info.width = 16;
        info.height = 16;
        info.padding = FFTB_PADDING_ZERO;
        info.axisOrder = FFTB_AXIS_ORDER_AUTO;
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
    VkCommandPool commandPool_ = VK_NULL_HANDLE;
    std::vector<VkImage> images_;
    std::vector<VkDeviceMemory> memories_;
    std::vector<VkImageView> views_;
    FftbContext context_ = nullptr;
    FftbKernel kernel_ = nullptr;
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

TEST_F(ApiTest, CreateRejectsTooManyFramesInFlight)
{
    FftbContextCreateInfo info = validCreateInfo();
    info.maxFramesInFlight = 17;
    EXPECT_EQ(fftbCreateContext(&info, &context_), FFTB_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(context_, nullptr);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "maxFramesInFlight");
}

TEST_F(ApiTest, CreateChecksThePlannerInfoChain)
{
    FftbContextCreateInfo info = validCreateInfo();
    FftbPlannerInfo planner{FFTB_STRUCTURE_TYPE_PLANNER_INFO};
    const int unknown = 2; // stored as an engine's stale or corrupt value would be
    std::memcpy(&planner.lengthPolicy, &unknown, sizeof unknown);
    info.pNext = &planner;
    EXPECT_EQ(fftbCreateContext(&info, &context_), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "lengthPolicy");
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
    // Both ends of maxFramesInFlight's documented range: 0 (the default, 3) and 16.
    FftbContextCreateInfo info = validCreateInfo();
    info.maxFramesInFlight = 0;
    ASSERT_EQ(fftbCreateContext(&info, &context_), FFTB_SUCCESS);
    fftbDestroyContext(context_);
    context_ = nullptr;
    info.maxFramesInFlight = 16;
    ASSERT_EQ(fftbCreateContext(&info, &context_), FFTB_SUCCESS);
    EXPECT_TRUE(messages_.empty());
    // TearDown destroys it; the validation layer reports any object left behind at vkDestroyDevice.
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
    const int unknown = 3; // stored as an engine's stale or corrupt value would be
    std::memcpy(&info.interpolation, &unknown, sizeof unknown);
    EXPECT_EQ(createKernel(info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "interpolation");
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
    info = kernel(16, 8);
    EXPECT_EQ(createKernel(info), FFTB_SUCCESS);
    EXPECT_TRUE(messages_.empty());
}

TEST_F(ApiTest, CmdBloomWithoutKernel)
{
    createContext();
    const FftbBloomInfo info = validBloomInfo();
    const VkCommandBuffer cb = beginCommandBuffer();
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "kernel");
    // A rejected kernel leaves no handle behind.
    FftbKernelInfo kernelInfo = kernel(2, 2);
    kernelTexels_[0] = -1.0f;
    EXPECT_EQ(createKernel(kernelInfo), FFTB_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(kernel_, nullptr);
    messages_.clear();
    endCommandBuffer(cb);
}

TEST_F(ApiTest, CmdBloomRejectsExtentLargerThanAtCreation)
{
    createContext();
    const FftbKernelInfo kernelInfo = kernel(3, 3);
    ASSERT_EQ(createKernel(kernelInfo), FFTB_SUCCESS);
    FftbBloomInfo info = validBloomInfo();
    const VkCommandBuffer cb = beginCommandBuffer();
    info.width = 65; // maxWidth is 64
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "width");
    info.width = 16;
    info.height = 49; // maxHeight is 48
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "height");
    endCommandBuffer(cb);
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
    EXPECT_LT(two.scratchBytes, 2 * one.scratchBytes);
    EXPECT_EQ(two.borderWeightBytes, one.borderWeightBytes) << "the views share the border weights";
}

TEST_F(ApiTest, CmdBloomChecksTheMultiViewInfoNamingTheField)
{
    FftbContextCreateInfo createInfo = validCreateInfo();
    createInfo.maxViews = 2;
    ASSERT_EQ(fftbCreateContext(&createInfo, &context_), FFTB_SUCCESS);
    const FftbKernelInfo kernelInfo = kernel(3, 3);
    ASSERT_EQ(createKernel(kernelInfo), FFTB_SUCCESS);
    FftbBloomInfo info = validBloomInfo();
    const VkImageView inputs[2] = {info.inputView, info.inputView}, outputs[2] = {info.outputView, info.outputView};
    FftbMultiViewInfo views{FFTB_STRUCTURE_TYPE_MULTI_VIEW_INFO};
    views.viewCount = 2;
    views.pInputViews = inputs;
    views.pOutputViews = outputs;
    info.pNext = &views;
    const VkCommandBuffer cb = beginCommandBuffer();
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "inputView, outputView: must be VK_NULL_HANDLE");
    info.inputView = info.outputView = VK_NULL_HANDLE;
    struct Case
    {
        uint32_t viewCount;
        bool nullArray, nullView;
        FftbResult result;
        const char* field;
    };
    for (const Case& c : {Case{0, false, false, FFTB_ERROR_INVALID_ARGUMENT, "FftbMultiViewInfo.viewCount: 0"},
                          Case{FFTB_MAX_VIEWS + 1, false, false, FFTB_ERROR_INVALID_ARGUMENT, "viewCount: 9 outside"},
                          Case{3, false, false, FFTB_ERROR_DEVICE_LIMIT, "maxViews 2"},
                          Case{2, true, false, FFTB_ERROR_INVALID_ARGUMENT, "pInputViews, pOutputViews: NULL"},
                          Case{2, false, true, FFTB_ERROR_INVALID_ARGUMENT, "pInputViews[1], pOutputViews[1]"}})
    {
        const VkImageView withNull[2] = {inputs[0], VK_NULL_HANDLE};
        views.viewCount = c.viewCount;
        views.pInputViews = c.nullArray ? nullptr : c.nullView ? withNull : inputs;
        EXPECT_EQ(fftbCmdBloom(context_, cb, &info), c.result) << c.field;
        expectOneMessage(c.result, c.field);
        if (c.nullArray || c.nullView)
            continue;
        FftbNodeDescription d{FFTB_STRUCTURE_TYPE_NODE_DESCRIPTION};
        EXPECT_EQ(fftbDescribeNode(context_, &info, &d), c.result) << c.field;
        expectOneMessage(c.result, c.field);
    }
    endCommandBuffer(cb);
}

TEST_F(ApiTest, CmdBloomRejectsSharpenOutsideUnitInterval)
{
    createContext();
    const FftbKernelInfo kernelInfo = kernel(3, 3);
    ASSERT_EQ(createKernel(kernelInfo), FFTB_SUCCESS);
    FftbBloomInfo info = validBloomInfo();
    const VkCommandBuffer cb = beginCommandBuffer();
    for (float sharpen : {1.5f, -0.25f, std::numeric_limits<float>::quiet_NaN()})
    {
        info.sharpen = sharpen;
        EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_INVALID_ARGUMENT) << "sharpen " << sharpen;
        expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "sharpen");
    }
    endCommandBuffer(cb);
}

TEST_F(ApiTest, CmdBloomRejectsANegativeOrNonFiniteTintAndTakesAnyOther)
{
    createContext();
    const FftbKernelInfo kernelInfo = kernel(3, 3);
    ASSERT_EQ(createKernel(kernelInfo), FFTB_SUCCESS);
    const VkCommandBuffer cb = beginCommandBuffer();
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    for (float bad : {-0.5f, nan, inf})
        for (int c = 0; c < 3; ++c)
        {
            FftbBloomInfo info = validBloomInfo();
            info.tint[0] = info.tint[1] = info.tint[2] = 1.0f;
            info.tint[c] = bad;
            EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_INVALID_ARGUMENT) << "tint[" << c << "] " << bad;
            expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "tint");
        }
    FftbBloomInfo info = validBloomInfo();
    info.tint[0] = 8.0f; // above 1, and a zero channel
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_SUCCESS);
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

TEST_F(ApiTest, CmdGenerateKernelChecksItsArgumentsNamingTheField)
{
    FftbContextCreateInfo create = validCreateInfo();
    create.maxKernelResolutionWidth = create.maxKernelResolutionHeight = 64;
    ASSERT_EQ(fftbCreateContext(&create, &context_), FFTB_SUCCESS);
    const VkCommandBuffer cb = beginCommandBuffer();
    FftbApertureInfo aperture{FFTB_STRUCTURE_TYPE_APERTURE_INFO};
    aperture.blades = 6;
    ASSERT_EQ(createKernel(kernel(48, 48)), FFTB_SUCCESS);
    EXPECT_EQ(fftbCmdGenerateKernel(context_, cb, &aperture, kernel_), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "a generated kernel is K x K, K a power of two in 64..2048");
    ASSERT_EQ(createKernel(kernel(64, 64)), FFTB_SUCCESS);
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
        {[](FftbApertureInfo& a) { a.corona = std::numeric_limits<float>::quiet_NaN(); }, "apertureInfo.corona"},
        {[](FftbApertureInfo& a) { a.dust = 5001; }, "apertureInfo.dust"},
        {[](FftbApertureInfo& a) { a.wavelengths = 8; }, "apertureInfo.wavelengths"}};
    for (const auto& c : cases)
    {
        FftbApertureInfo bad = aperture;
        c.set(bad);
        EXPECT_EQ(fftbCmdGenerateKernel(context_, cb, &bad, kernel_), FFTB_ERROR_INVALID_ARGUMENT) << c.field;
        expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, c.field);
    }
    // Zeros are the defaults: an Airy radius of 2 texels, 32 wavelengths.
    EXPECT_EQ(fftbCmdGenerateKernel(context_, cb, &aperture, kernel_), FFTB_SUCCESS);
    EXPECT_TRUE(messages_.empty());
    endCommandBuffer(cb);
}

TEST_F(ApiTest, CmdBloomRejectsABadPrefilterNamingTheField)
{
    createContext();
    const FftbKernelInfo kernelInfo = kernel(3, 3);
    ASSERT_EQ(createKernel(kernelInfo), FFTB_SUCCESS);
    const VkCommandBuffer cb = beginCommandBuffer();
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    for (float threshold : {-0.5f, nan, inf})
    {
        FftbBloomInfo info = validBloomInfo();
        info.prefilterThreshold = threshold;
        EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_INVALID_ARGUMENT) << "threshold " << threshold;
        expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "prefilterThreshold");
    }
    for (float knee : {-0.5f, nan, 1.5f})
    {
        FftbBloomInfo info = validBloomInfo();
        info.prefilterThreshold = 1.0f;
        info.prefilterKnee = knee;
        EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_INVALID_ARGUMENT) << "knee " << knee;
        expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "prefilterKnee");
    }
    for (float clamp : {-1.0f, nan, inf})
    {
        FftbBloomInfo info = validBloomInfo();
        info.prefilterClamp = clamp;
        EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_INVALID_ARGUMENT) << "clamp " << clamp;
        expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "prefilterClamp");
    }
    FftbBloomInfo info = validBloomInfo();
    info.prefilterThreshold = 1.0f;
    info.prefilterKnee = 1.0f; // the widest knee allowed
    info.prefilterClamp = 10.0f;
    info.outputMode = FFTB_OUTPUT_MODE_ADDITIVE;
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_SUCCESS);
    info.outputMode = FftbOutputMode(3);
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "outputMode");
    info.outputMode = FFTB_OUTPUT_MODE_ADDITIVE;
    info.storagePrecision = FFTB_STORAGE_PRECISION_FLOAT16;
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_SUCCESS);
    info.storagePrecision = FftbStoragePrecision(2);
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "storagePrecision");
    endCommandBuffer(cb);
}

// Every zero field of the per-frame info is the documented default, or refused naming the field where no default is
// safe (docs/integration.md, "Per-frame settings").
static_assert(FFTB_PADDING_ZERO_NORMALIZED == 0 && FFTB_AXIS_ORDER_AUTO == 0 && FFTB_OUTPUT_MODE_COMPOSITE == 0 &&
                  FFTB_KERNEL_SCALE_NATIVE == 0 && FFTB_STORAGE_PRECISION_FLOAT32 == 0 &&
                  FFTB_SPECTRUM_MODE_RESAMPLED == 0 && FFTB_SPECTRUM_INTERPOLATION_ES == 0 &&
                  FFTB_LENGTH_POLICY_MIXED_RADIX == 0 && FFTB_BLOOM_RESOLUTION_FULL == 0,
              "the defaults the header documents are the zero values");

TEST_F(ApiTest, AZeroInitializedBloomInfoIsTheCompositeOrRefusedNamingTheField)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    const VkCommandBuffer cb = beginCommandBuffer();
    FftbBloomInfo info{};
    info.sType = FFTB_STRUCTURE_TYPE_BLOOM_INFO;
    info.kernel = kernel_;
    info.inputView = createView();
    info.outputView = createView();
    info.width = 16;
    info.height = 16;
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "inputLayout");
    info.inputLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_INVALID_ARGUMENT)
        << "a composite of intensity 0 would return the input";
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "intensity");
    info.outputMode = FFTB_OUTPUT_MODE_ADDITIVE;
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "intensity");
    info.outputMode = FFTB_OUTPUT_MODE_BLOOM; // intensity is not read
    FftbNodeDescription description{FFTB_STRUCTURE_TYPE_NODE_DESCRIPTION};
    ASSERT_EQ(fftbDescribeNode(context_, &info, &description), FFTB_SUCCESS);
    EXPECT_EQ(description.borderWeightPassCount, 3u) << "padding 0 is the normalized zero padding";
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_SUCCESS);
    info.outputMode = FftbOutputMode(0);
    info.intensity = 0.25f;
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_SUCCESS);
    endCommandBuffer(cb);
}

TEST_F(ApiTest, RecordingCompilesWhatItLacksAndSaysHowLong)
{
    FftbContextCreateInfo info = validCreateInfo();
    info.messageCallback = recordEveryMessage;
    ASSERT_EQ(fftbCreateContext(&info, &context_), FFTB_SUCCESS);
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    const VkCommandBuffer cb = beginCommandBuffer();
    const FftbBloomInfo bloom = validBloomInfo();
    ASSERT_EQ(fftbCmdBloom(context_, cb, &bloom), FFTB_SUCCESS);
    ASSERT_EQ(messages_.size(), 1u) << "one note for the pipelines compiled while recording";
    EXPECT_EQ(messages_[0].result, FFTB_SUCCESS);
    EXPECT_NE(messages_[0].text.find("fftbCmdBloom: compiled 5 pipelines (FFT lengths "), std::string::npos)
        << messages_[0].text;
    EXPECT_NE(messages_[0].text.find(" ms; fftbPreparePipelines"), std::string::npos) << messages_[0].text;
    messages_.clear();
    ASSERT_EQ(fftbCmdBloom(context_, cb, &bloom), FFTB_SUCCESS);
    EXPECT_TRUE(messages_.empty()) << "the second bloom of an extent compiles nothing: " << messages_[0].text;
    endCommandBuffer(cb);
}

TEST_F(ApiTest, WithoutCompilingWhileRecordingABloomIsNotReadyUntilItsPipelinesArePrepared)
{
    VkPipelineCacheCreateInfo cacheInfo{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    VkPipelineCache cache = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreatePipelineCache(device_, &cacheInfo, nullptr, &cache), VK_SUCCESS);
    FftbContextCreateInfo info = validCreateInfo();
    info.flags = FFTB_CONTEXT_CREATE_NO_COMPILE_WHILE_RECORDING_BIT;
    info.pipelineCache = cache;
    info.maxViews = 2;
    info.maxFramesInFlight = 8; // every bloom below is recorded into one command buffer, each with a descriptor set
    ASSERT_EQ(fftbCreateContext(&info, &context_), FFTB_SUCCESS);
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    const VkCommandBuffer cb = beginCommandBuffer();
    FftbBloomInfo small = validBloomInfo();
    FftbBloomInfo large = validBloomInfo();
    large.width = 60; // other FFT lengths
    large.height = 45;
    for (FftbBloomInfo* bloom : {&small, &large})
    {
        EXPECT_EQ(fftbCmdBloom(context_, cb, bloom), FFTB_NOT_READY);
        expectOneMessage(FFTB_NOT_READY, "fftbPreparePipelines");
        EXPECT_EQ(fftbCmdPrepareKernel(context_, cb, bloom), FFTB_NOT_READY);
        expectOneMessage(FFTB_NOT_READY, "fftbCmdPrepareKernel");
    }
    ASSERT_EQ(fftbPreparePipelines(context_, 1, &small), FFTB_SUCCESS);
    // A worker prepares the large extent while this thread describes and records the small one: the one call that
    // may overlap others on a context.
    FftbResult prepared = FFTB_ERROR_VULKAN;
    std::thread worker([&] { prepared = fftbPreparePipelines(context_, 1, &large); });
    FftbNodeDescription description{FFTB_STRUCTURE_TYPE_NODE_DESCRIPTION};
    for (int i = 0; i < 50; ++i)
        EXPECT_EQ(fftbDescribeNode(context_, &small, &description), FFTB_SUCCESS);
    EXPECT_EQ(fftbCmdBloom(context_, cb, &small), FFTB_SUCCESS);
    worker.join();
    EXPECT_EQ(prepared, FFTB_SUCCESS);
    EXPECT_EQ(fftbCmdBloom(context_, cb, &large), FFTB_SUCCESS);
    EXPECT_TRUE(messages_.empty()) << messages_[0].text;
    // The passes of several views are compiled apart: prepared with an FftbMultiViewInfo of any view count.
    const VkImageView inputs[2] = {small.inputView, small.inputView}, outputs[2] = {small.outputView, small.outputView};
    FftbMultiViewInfo views{FFTB_STRUCTURE_TYPE_MULTI_VIEW_INFO};
    views.viewCount = 2;
    views.pInputViews = inputs;
    views.pOutputViews = outputs;
    FftbBloomInfo stereo = small;
    stereo.pNext = &views;
    stereo.inputView = stereo.outputView = VK_NULL_HANDLE;
    EXPECT_EQ(fftbCmdBloom(context_, cb, &stereo), FFTB_NOT_READY);
    expectOneMessage(FFTB_NOT_READY, "fftbPreparePipelines");
    views.viewCount = 1;
    ASSERT_EQ(fftbPreparePipelines(context_, 1, &stereo), FFTB_SUCCESS);
    views.viewCount = 2;
    EXPECT_EQ(fftbCmdBloom(context_, cb, &stereo), FFTB_SUCCESS);
    EXPECT_TRUE(messages_.empty()) << messages_[0].text;
    FftbBloomInfo wrong = small;
    wrong.sType = FFTB_STRUCTURE_TYPE_KERNEL_INFO;
    const FftbBloomInfo both[2] = {small, wrong};
    EXPECT_EQ(fftbPreparePipelines(context_, 2, both), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "bloomInfos[1].sType");
    EXPECT_EQ(fftbPreparePipelines(context_, 1, nullptr), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "bloomInfos");
    endCommandBuffer(cb);
    fftbDestroyKernel(kernel_);
    kernel_ = nullptr;
    fftbDestroyContext(context_);
    context_ = nullptr;
    vkDestroyPipelineCache(device_, cache, nullptr);
    info.flags = 0x2;
    EXPECT_EQ(fftbCreateContext(&info, &context_), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "flags");
}

TEST_F(ApiTest, APreparedKernelSpectrumLeavesTheBloomOnlyItsThreePasses)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    FftbBloomInfo bloom = validBloomInfo();
    bloom.padding = FFTB_PADDING_MIRROR;
    FftbNodeDescription before{FFTB_STRUCTURE_TYPE_NODE_DESCRIPTION};
    ASSERT_EQ(fftbDescribeNode(context_, &bloom, &before), FFTB_SUCCESS);
    EXPECT_EQ(before.spectrumPassCount, 2u);
    FftbBloomInfo noViews = bloom; // the views are not read
    noViews.inputView = VK_NULL_HANDLE;
    noViews.outputView = VK_NULL_HANDLE;
    const VkCommandBuffer cb = beginCommandBuffer();
    ASSERT_EQ(fftbCmdPrepareKernel(context_, cb, &noViews), FFTB_SUCCESS);
    FftbNodeDescription after{FFTB_STRUCTURE_TYPE_NODE_DESCRIPTION};
    ASSERT_EQ(fftbDescribeNode(context_, &bloom, &after), FFTB_SUCCESS);
    EXPECT_EQ(after.spectrumPassCount, 0u);
    EXPECT_EQ(after.passCount, 3u);
    EXPECT_EQ(fftbCmdPrepareKernel(context_, cb, &noViews), FFTB_SUCCESS) << "prepared already: records nothing";
    EXPECT_EQ(fftbCmdBloom(context_, cb, &bloom), FFTB_SUCCESS);
    EXPECT_TRUE(messages_.empty()) << messages_[0].text;
    EXPECT_EQ(fftbCmdPrepareKernel(context_, VK_NULL_HANDLE, &noViews), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "commandBuffer");
    endCommandBuffer(cb);
}

TEST_F(ApiTest, CmdBloomRejectsNullAndWrongSType)
{
    createContext();
    const FftbKernelInfo kernelInfo = kernel(3, 3);
    ASSERT_EQ(createKernel(kernelInfo), FFTB_SUCCESS);
    FftbBloomInfo info = validBloomInfo();
    const VkCommandBuffer cb = beginCommandBuffer();
    EXPECT_EQ(fftbCmdBloom(context_, cb, nullptr), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "bloomInfo");
    EXPECT_EQ(fftbCmdBloom(context_, VK_NULL_HANDLE, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "commandBuffer");
    info.sType = FFTB_STRUCTURE_TYPE_KERNEL_INFO;
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "sType");
    EXPECT_EQ(fftbCmdBloom(nullptr, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(messages_.empty()) << "a null context has no callback to call";
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
    // 16 x 8 oversampled twice, 32 x 16: its half spectrum is largest with y as the first (halved) axis,
    // 3 x (16/2 + 1) x 32.
    EXPECT_EQ(small.resampledSpectrumBytes, VkDeviceSize(3) * (16 / 2 + 1) * 32 * 8);
    EXPECT_EQ(small.kernelTexelBytes, VkDeviceSize(3) * 16 * 8 * 4);
    EXPECT_GT(small.twiddleBytes, 0u);
    info.maxWidth = 1920;
    info.maxHeight = 1080;
    FftbMemoryRequirements large{FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS};
    ASSERT_EQ(fftbGetMemoryRequirements(&info, &large), FFTB_SUCCESS);
    EXPECT_GT(large.scratchBytes, small.scratchBytes);
    EXPECT_GT(large.exactSpectrumBytes, small.exactSpectrumBytes);
    EXPECT_EQ(large.resampledSpectrumBytes, small.resampledSpectrumBytes) << "resampled spectra ignore the frame";
    EXPECT_EQ(large.twiddleBytes, small.twiddleBytes);
    EXPECT_TRUE(messages_.empty());
    info.maxWidth = 16200;
    info.maxKernelResolutionWidth = 512;
    EXPECT_EQ(fftbGetMemoryRequirements(&info, &large), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "maxWidth");
    large.sType = FFTB_STRUCTURE_TYPE_NODE_DESCRIPTION;
    info = validCreateInfo();
    EXPECT_EQ(fftbGetMemoryRequirements(&info, &large), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "sType");
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
    EXPECT_EQ(scaled.resampledSpectrumBytes, native.resampledSpectrumBytes);
    ASSERT_EQ(fftbCreateContext(&info, &context_), FFTB_SUCCESS);
    EXPECT_EQ(createKernel(kernel(32, 8)), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "maxKernelResolutionWidth");
    ASSERT_EQ(createKernel(kernel(16, 8)), FFTB_SUCCESS);
    FftbBloomInfo bloom = validBloomInfo();
    bloom.kernelScaleUnit = FFTB_KERNEL_SCALE_PIXELS;
    FftbNodeDescription node{FFTB_STRUCTURE_TYPE_NODE_DESCRIPTION};
    bloom.kernelScale = 64.0f; // 64 x 32 pixels: within the extent, four times the resolution
    ASSERT_EQ(fftbDescribeNode(context_, &bloom, &node), FFTB_SUCCESS);
    EXPECT_EQ(node.kernelExtentWidth, 64u);
    bloom.kernelScale = 65.0f;
    EXPECT_EQ(fftbDescribeNode(context_, &bloom, &node), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "maxKernelExtentWidth");
    fftbDestroyKernel(kernel_);
    kernel_ = nullptr;
    fftbDestroyContext(context_);
    context_ = nullptr;

    // An extent smaller than the resolution bounds native kernels too; past 4096 it is refused.
    info.maxKernelExtentWidth = info.maxKernelExtentHeight = 4;
    ASSERT_EQ(fftbCreateContext(&info, &context_), FFTB_SUCCESS);
    ASSERT_EQ(createKernel(kernel(16, 8)), FFTB_SUCCESS);
    bloom = validBloomInfo();
    EXPECT_EQ(fftbDescribeNode(context_, &bloom, &node), FFTB_ERROR_DEVICE_LIMIT);
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
    EXPECT_EQ(fftbDescribeNode(context_, &bloom, &node), FFTB_SUCCESS);
}

TEST_F(ApiTest, ResizeGrowsTheExtentAndKeepsTheOldOneOnFailure)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    FftbBloomInfo info = validBloomInfo();
    info.width = 100; // maxWidth is 64
    info.height = 48;
    FftbNodeDescription node{FFTB_STRUCTURE_TYPE_NODE_DESCRIPTION};
    EXPECT_EQ(fftbDescribeNode(context_, &info, &node), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "width");

    FftbResizeInfo resize{FFTB_STRUCTURE_TYPE_RESIZE_INFO};
    resize.maxWidth = 16200; // needs an FFT longer than 16384 with a 512 kernel
    resize.maxHeight = 48;
    resize.maxKernelResolutionWidth = resize.maxKernelResolutionHeight = 512;
    EXPECT_EQ(fftbResizeContext(context_, &resize), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "maxWidth");
    info.width = 64;
    EXPECT_EQ(fftbDescribeNode(context_, &info, &node), FFTB_SUCCESS) << "the old extent still works";
    info.width = 100;
    EXPECT_EQ(fftbDescribeNode(context_, &info, &node), FFTB_ERROR_DEVICE_LIMIT) << "and no more";
    messages_.clear();

    resize.maxWidth = 100;
    resize.maxKernelResolutionWidth = 16;
    resize.maxKernelResolutionHeight = 8;
    ASSERT_EQ(fftbResizeContext(context_, &resize), FFTB_SUCCESS);
    EXPECT_EQ(fftbDescribeNode(context_, &info, &node), FFTB_SUCCESS);
    EXPECT_GE(node.paddedWidth, 100u + 3 / 2);
    resize.sType = FFTB_STRUCTURE_TYPE_KERNEL_INFO;
    EXPECT_EQ(fftbResizeContext(context_, &resize), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "sType");
}

TEST_F(ApiTest, DescribeNodeReportsUsesPassesAndSizes)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(16, 8)), FFTB_SUCCESS);
    FftbBloomInfo info = validBloomInfo();
    info.width = 40;
    info.height = 30;
    info.inputLayout = VK_IMAGE_LAYOUT_GENERAL;
    info.axisOrder = FFTB_AXIS_ORDER_Y_FIRST;
    info.padding = FFTB_PADDING_ZERO_NORMALIZED;
    FftbNodeDescription node{FFTB_STRUCTURE_TYPE_NODE_DESCRIPTION};
    ASSERT_EQ(fftbDescribeNode(context_, &info, &node), FFTB_SUCCESS);
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
    EXPECT_EQ(node.spectrumPassCount, 2u) << "a new kernel's spectrum is computed by its first bloom";
    EXPECT_EQ(node.borderWeightPassCount, 3u) << "FFTB_PADDING_ZERO_NORMALIZED, the default: weights first";
    EXPECT_EQ(node.passCount, 8u);
    EXPECT_EQ(requirements.borderWeightBytes, VkDeviceSize(3) * createInfo.maxWidth * createInfo.maxHeight * 4);
    EXPECT_EQ(node.kernelExtentWidth, 16u) << "native: the kernel's resolution";
    EXPECT_EQ(node.kernelExtentHeight, 8u);
    EXPECT_EQ(node.kernelScale, 1.0);
    EXPECT_GT(node.modelledCost, 0.0);
    FftbBloomInfo half = info;
    half.storagePrecision = FFTB_STORAGE_PRECISION_FLOAT16;
    FftbNodeDescription halfNode{FFTB_STRUCTURE_TYPE_NODE_DESCRIPTION};
    ASSERT_EQ(fftbDescribeNode(context_, &half, &halfNode), FFTB_SUCCESS);
    // fp16 storage: 4 bytes per complex element of the half spectrum, not 8; pass 2's tap table is the same in both.
    const VkDeviceSize taps = VkDeviceSize(node.paddedWidth + 1 + node.paddedHeight / 2 + 1) * 48;
    ASSERT_GE(halfNode.scratchBytes, taps);
    EXPECT_NEAR(2.0 * double(halfNode.scratchBytes - taps), double(node.scratchBytes - taps), 32.0)
        << "the half spectrum, 16-byte aligned";

    const VkCommandBuffer cb = beginCommandBuffer();
    ASSERT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_SUCCESS);
    ASSERT_EQ(fftbDescribeNode(context_, &info, &node), FFTB_SUCCESS);
    EXPECT_EQ(node.passCount, 3u) << "the spectrum and the border weights are recorded once";
    FftbBloomInfo other = info;
    for (FftbPadding padding : {FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR})
    {
        other.padding = padding;
        ASSERT_EQ(fftbDescribeNode(context_, &other, &node), FFTB_SUCCESS);
        EXPECT_EQ(node.borderWeightPassCount, 0u) << "no border weights without normalization";
    }
    other = info;
    other.width = 41;
    ASSERT_EQ(fftbDescribeNode(context_, &other, &node), FFTB_SUCCESS);
    EXPECT_EQ(node.borderWeightPassCount, 3u) << "the weights follow the extent";
    EXPECT_EQ(node.spectrumPassCount, 0u) << "the resampled spectrum does not";
    other = info;
    other.kernelScaleUnit = FFTB_KERNEL_SCALE_PIXELS;
    other.kernelScale = 12.0f;
    ASSERT_EQ(fftbDescribeNode(context_, &other, &node), FFTB_SUCCESS);
    EXPECT_EQ(node.borderWeightPassCount, 3u) << "and the kernel scale";
    info.axisOrder = FFTB_AXIS_ORDER_X_FIRST;
    ASSERT_EQ(fftbDescribeNode(context_, &info, &node), FFTB_SUCCESS);
    EXPECT_EQ(node.passCount, 8u) << "the other axis order has a spectrum and weights of its own";
    endCommandBuffer(cb);
    EXPECT_TRUE(messages_.empty());
}

TEST_F(ApiTest, PassStatisticsNeedTheDeclaredFeatureAndCheckTheirArguments)
{
    createContext(); // without FftbDeviceFeaturesInfo::pipelineExecutableInfo
    ASSERT_EQ(createKernel(kernel(16, 8)), FFTB_SUCCESS);
    FftbBloomInfo info = validBloomInfo();
    uint32_t count = 7;
    EXPECT_EQ(fftbGetPassStatistics(context_, &info, &count, nullptr), FFTB_ERROR_UNSUPPORTED);
    EXPECT_EQ(count, 7u) << "nothing written on failure";
    expectOneMessage(FFTB_ERROR_UNSUPPORTED, "pipelineExecutableInfo");
    EXPECT_EQ(fftbGetPassStatistics(context_, &info, nullptr, nullptr), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "count");
    EXPECT_EQ(fftbGetPassStatistics(nullptr, &info, &count, nullptr), FFTB_ERROR_INVALID_ARGUMENT);
    info.sType = FFTB_STRUCTURE_TYPE_NODE_DESCRIPTION;
    EXPECT_EQ(fftbGetPassStatistics(context_, &info, &count, nullptr), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "bloomInfo.sType");
}

TEST_F(ApiTest, DescribeNodeGivesEachAxisOrdersModelledCostAutoPickingTheSmaller)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(16, 8)), FFTB_SUCCESS);
    FftbBloomInfo info = validBloomInfo();
    info.width = 64;
    info.height = 7;
    FftbNodeDescription chosen{FFTB_STRUCTURE_TYPE_NODE_DESCRIPTION}, x{FFTB_STRUCTURE_TYPE_NODE_DESCRIPTION},
        y{FFTB_STRUCTURE_TYPE_NODE_DESCRIPTION};
    ASSERT_EQ(fftbDescribeNode(context_, &info, &chosen), FFTB_SUCCESS);
    info.axisOrder = FFTB_AXIS_ORDER_X_FIRST;
    ASSERT_EQ(fftbDescribeNode(context_, &info, &x), FFTB_SUCCESS);
    info.axisOrder = FFTB_AXIS_ORDER_Y_FIRST;
    ASSERT_EQ(fftbDescribeNode(context_, &info, &y), FFTB_SUCCESS);
    EXPECT_NE(x.modelledCost, y.modelledCost);
    EXPECT_EQ(chosen.modelledCost, std::min(x.modelledCost, y.modelledCost));
    EXPECT_EQ(chosen.axisOrder, x.modelledCost <= y.modelledCost ? FFTB_AXIS_ORDER_X_FIRST : FFTB_AXIS_ORDER_Y_FIRST);
    EXPECT_TRUE(messages_.empty());
}

TEST(KernelExtent, IsTheResolutionAtNativeScaleAndCeilSigmaKOtherwise)
{
    FftbBloomInfo info{FFTB_STRUCTURE_TYPE_BLOOM_INFO};
    info.width = 300;
    info.height = 400; // diagonal 500
    uint32_t w = 0, h = 0;
    ASSERT_EQ(fftbGetKernelExtent(&info, 64, 32, &w, &h), FFTB_SUCCESS);
    EXPECT_EQ(w, 64u);
    EXPECT_EQ(h, 32u);
    info.kernelScaleUnit = FFTB_KERNEL_SCALE_PIXELS;
    info.kernelScale = 100.0f; // sigma 100 / 64: 32 texels span 50 pixels
    ASSERT_EQ(fftbGetKernelExtent(&info, 64, 32, &w, &h), FFTB_SUCCESS);
    EXPECT_EQ(w, 100u);
    EXPECT_EQ(h, 50u);
    info.kernelScaleUnit = FFTB_KERNEL_SCALE_FRAME_DIAGONAL;
    info.kernelScale = 0.201f; // 100.5 pixels
    ASSERT_EQ(fftbGetKernelExtent(&info, 32, 64, &w, &h), FFTB_SUCCESS);
    EXPECT_EQ(w, 51u);
    EXPECT_EQ(h, 101u);
    info.kernelScale = -1.0f;
    EXPECT_EQ(fftbGetKernelExtent(&info, 32, 64, &w, &h), FFTB_ERROR_INVALID_ARGUMENT);
    info.kernelScale = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(fftbGetKernelExtent(&info, 32, 64, &w, &h), FFTB_ERROR_INVALID_ARGUMENT);
    info.kernelScale = 1.0f;
    info.kernelScaleUnit = FftbKernelScaleUnit(3);
    EXPECT_EQ(fftbGetKernelExtent(&info, 32, 64, &w, &h), FFTB_ERROR_INVALID_ARGUMENT);
    info.kernelScaleUnit = FFTB_KERNEL_SCALE_NATIVE;
    EXPECT_EQ(fftbGetKernelExtent(&info, 0, 64, &w, &h), FFTB_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(fftbGetKernelExtent(&info, 32, 64, nullptr, &h), FFTB_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(fftbGetKernelExtent(nullptr, 32, 64, &w, &h), FFTB_ERROR_INVALID_ARGUMENT);
    info.sType = FFTB_STRUCTURE_TYPE_KERNEL_INFO;
    EXPECT_EQ(fftbGetKernelExtent(&info, 32, 64, &w, &h), FFTB_ERROR_INVALID_ARGUMENT);
}

TEST_F(ApiTest, CmdBloomChecksTheKernelScaleNamingTheField)
{
    createContext(); // maximum kernel resolution and extent 16 x 8
    ASSERT_EQ(createKernel(kernel(8, 4)), FFTB_SUCCESS);
    const VkCommandBuffer cb = beginCommandBuffer();
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    // Accepted settings are checked with fftbDescribeNode (the same checks): recording more blooms into one command
    // buffer than maxFramesInFlight would break the frames-in-flight rule.
    FftbNodeDescription node{FFTB_STRUCTURE_TYPE_NODE_DESCRIPTION};
    FftbBloomInfo info = validBloomInfo(); // 16 x 16: diagonal 22.6
    info.kernelScale = nan;
    EXPECT_EQ(fftbDescribeNode(context_, &info, &node), FFTB_SUCCESS) << "native: kernelScale is not read";
    for (const FftbKernelScaleUnit unit : {FFTB_KERNEL_SCALE_PIXELS, FFTB_KERNEL_SCALE_FRAME_DIAGONAL})
        for (const float scale : {0.0f, -2.0f, nan, inf, -inf})
        {
            info.kernelScaleUnit = unit;
            info.kernelScale = scale;
            EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_INVALID_ARGUMENT) << unit << " " << scale;
            expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "kernelScale: must be finite and > 0");
        }
    info.kernelScaleUnit = FftbKernelScaleUnit(3);
    info.kernelScale = 4.0f;
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "kernelScaleUnit");
    // The scaled extent, 17 x 9 or 23 x 12, is past the context's maximum kernel extent of 16 x 8.
    info.kernelScaleUnit = FFTB_KERNEL_SCALE_PIXELS;
    info.kernelScale = 16.5f;
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "kernelScale: the kernel's extent on the frame 17x9");
    info.kernelScaleUnit = FFTB_KERNEL_SCALE_FRAME_DIAGONAL;
    info.kernelScale = 1.0f;
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "kernelScale");
    info.kernelScale = 3.0e38f; // the span overflows to infinity
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_DEVICE_LIMIT);
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "kernelScale");
    info.kernelScale = 0.5f; // 11.3 pixels: 12 x 6
    EXPECT_EQ(fftbDescribeNode(context_, &info, &node), FFTB_SUCCESS);
    EXPECT_EQ(node.kernelExtentWidth, 12u);
    EXPECT_EQ(node.kernelExtentHeight, 6u);
    EXPECT_DOUBLE_EQ(node.kernelScale, double(0.5f) * std::hypot(16.0, 16.0) / 8.0);
    info.kernelScaleUnit = FFTB_KERNEL_SCALE_PIXELS;
    info.kernelScale = 16.0f; // exactly the maximum
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_SUCCESS);
    info.kernelScale = 0.25f; // smaller than a texel
    EXPECT_EQ(fftbDescribeNode(context_, &info, &node), FFTB_SUCCESS);
    EXPECT_TRUE(messages_.empty());
    endCommandBuffer(cb); // before its kernel is destroyed

    FftbKernelInfo exact = kernel(8, 4);
    exact.spectrumMode = FFTB_SPECTRUM_MODE_EXACT;
    ASSERT_EQ(createKernel(exact), FFTB_SUCCESS);
    info = validBloomInfo();
    info.kernelScaleUnit = FFTB_KERNEL_SCALE_PIXELS;
    info.kernelScale = 8.0f;
    const VkCommandBuffer exactCb = beginCommandBuffer();
    EXPECT_EQ(fftbCmdBloom(context_, exactCb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "FFTB_SPECTRUM_MODE_RESAMPLED");
    endCommandBuffer(exactCb);
}

// FFTB_BLOOM_RESOLUTION_HALF plans the downsampled frame with the kernel at half its extent, adds the upsampling pass,
// and is refused naming the field for an exact kernel or an unknown value.
TEST_F(ApiTest, HalfResolutionPlansTheDownsampledFrameOrIsRefusedNamingTheField)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(16, 8)), FFTB_SUCCESS);
    FftbBloomInfo info = validBloomInfo();
    info.width = 41;
    info.height = 30;
    info.padding = FFTB_PADDING_ZERO;
    FftbNodeDescription full{FFTB_STRUCTURE_TYPE_NODE_DESCRIPTION}, half{FFTB_STRUCTURE_TYPE_NODE_DESCRIPTION};
    ASSERT_EQ(fftbDescribeNode(context_, &info, &full), FFTB_SUCCESS);
    info.resolution = FFTB_BLOOM_RESOLUTION_HALF;
    ASSERT_EQ(fftbDescribeNode(context_, &info, &half), FFTB_SUCCESS);
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
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_SUCCESS);
    info.resolution = FftbBloomResolution(2);
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "resolution");
    endCommandBuffer(cb);

    FftbKernelInfo exact = kernel(8, 4);
    exact.spectrumMode = FFTB_SPECTRUM_MODE_EXACT;
    ASSERT_EQ(createKernel(exact), FFTB_SUCCESS);
    info = validBloomInfo();
    info.resolution = FFTB_BLOOM_RESOLUTION_HALF;
    const VkCommandBuffer exactCb = beginCommandBuffer();
    EXPECT_EQ(fftbCmdBloom(context_, exactCb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "resolution: FFTB_BLOOM_RESOLUTION_HALF needs a kernel in "
                                                  "FFTB_SPECTRUM_MODE_RESAMPLED");
    endCommandBuffer(exactCb);
}

TEST_F(ApiTest, DescribeNodeReportsThePaddingOfTheScaledKernel)
{
    createContext();
    ASSERT_EQ(createKernel(kernel(8, 4)), FFTB_SUCCESS);
    FftbBloomInfo info = validBloomInfo();
    info.width = 40;
    info.height = 30;
    info.padding = FFTB_PADDING_MIRROR;
    FftbNodeDescription native{FFTB_STRUCTURE_TYPE_NODE_DESCRIPTION};
    ASSERT_EQ(fftbDescribeNode(context_, &info, &native), FFTB_SUCCESS);
    info.kernelScaleUnit = FFTB_KERNEL_SCALE_PIXELS;
    info.kernelScale = 16.0f; // 16 x 8 pixels: mirror padding needs L + 15 and L + 7
    FftbNodeDescription scaled{FFTB_STRUCTURE_TYPE_NODE_DESCRIPTION};
    ASSERT_EQ(fftbDescribeNode(context_, &info, &scaled), FFTB_SUCCESS);
    EXPECT_GE(scaled.paddedWidth, 40u + 15);
    EXPECT_GE(scaled.paddedHeight, 30u + 7);
    EXPECT_GE(native.paddedWidth, 40u + 7);
    EXPECT_GE(native.paddedHeight, 30u + 3);
    // The scratch and the resampled spectrum stay within what the context was sized for.
    FftbMemoryRequirements requirements{FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS};
    const FftbContextCreateInfo createInfo = validCreateInfo();
    ASSERT_EQ(fftbGetMemoryRequirements(&createInfo, &requirements), FFTB_SUCCESS);
    EXPECT_LE(scaled.scratchBytes, requirements.scratchBytes);
    EXPECT_EQ(scaled.spectrumBytes, native.spectrumBytes) << "the spectrum is the texels', whatever the scale";
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
    FftbImageBarrierInfo images{FFTB_STRUCTURE_TYPE_IMAGE_BARRIER_INFO};
    FftbBloomInfo info = validBloomInfo();
    info.pNext = &images;
    const VkCommandBuffer cb = beginCommandBuffer();
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "inputImage");
    images.inputImage = images_[0];
    images.outputImage = images_[1];
    images.inputLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    images.outputNewLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
    expectOneMessage(FFTB_ERROR_INVALID_ARGUMENT, "outputNewLayout");
    FftbPlannerInfo stranger{FFTB_STRUCTURE_TYPE_PLANNER_INFO};
    info.pNext = &stranger;
    EXPECT_EQ(fftbCmdBloom(context_, cb, &info), FFTB_ERROR_INVALID_ARGUMENT);
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
    FftbBloomInfo bloom = validBloomInfo();
    FftbNodeDescription node{FFTB_STRUCTURE_TYPE_NODE_DESCRIPTION};
    EXPECT_EQ(fftbDescribeNode(small, &bloom, &node), FFTB_ERROR_DEVICE_LIMIT) << "4 x 4 past its 3 x 3 maximum";
    expectOneMessage(FFTB_ERROR_DEVICE_LIMIT, "maximum kernel resolution");
    fftbDestroyContext(small);

    info = validCreateInfo();
    FftbContext other = nullptr;
    ASSERT_EQ(fftbCreateContext(&info, &other), FFTB_SUCCESS);
    fftbDestroyContext(context_);
    context_ = nullptr;
    const VkCommandBuffer cb = beginCommandBuffer();
    EXPECT_EQ(fftbCmdBloom(other, cb, &bloom), FFTB_SUCCESS);
    endCommandBuffer(cb);
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
    static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL getInstanceProcAddr(VkInstance instance, const char* name)
    {
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

TEST_F(ApiTest, DebugLabelsWrapTheCallAndEveryPassWhenDeclared)
{
    FftbContextCreateInfo info = validCreateInfo();
    FftbDeviceFeaturesInfo features{FFTB_STRUCTURE_TYPE_DEVICE_FEATURES_INFO};
    features.debugUtils = VK_TRUE; // the fixture's instance enables VK_EXT_debug_utils
    info.pNext = &features;
    info.getInstanceProcAddr = &LabelCounter::getInstanceProcAddr;
    ASSERT_EQ(fftbCreateContext(&info, &context_), FFTB_SUCCESS);
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    const FftbBloomInfo bloom = validBloomInfo();
    LabelCounter::opened.clear();
    LabelCounter::closed = 0;
    const VkCommandBuffer cb = beginCommandBuffer();
    ASSERT_EQ(fftbCmdBloom(context_, cb, &bloom), FFTB_SUCCESS);
    // The call's own label, then the two kernel-spectrum passes (a new kernel) and the three passes.
    ASSERT_EQ(LabelCounter::opened.size(), 6u);
    EXPECT_EQ(LabelCounter::opened[0], "fftbloom");
    for (size_t i = 1; i < 6; ++i)
        EXPECT_EQ(LabelCounter::opened[i].rfind("fftbloom: ", 0), 0u) << LabelCounter::opened[i];
    EXPECT_NE(LabelCounter::opened[4].find("pass 2"), std::string::npos);
    EXPECT_EQ(LabelCounter::closed, 6);
    endCommandBuffer(cb);

    // Undeclared, no label is recorded even though the instance could.
    fftbDestroyKernel(kernel_);
    kernel_ = nullptr;
    fftbDestroyContext(context_);
    info.pNext = nullptr;
    ASSERT_EQ(fftbCreateContext(&info, &context_), FFTB_SUCCESS);
    ASSERT_EQ(createKernel(kernel(3, 3)), FFTB_SUCCESS);
    const FftbBloomInfo plain = validBloomInfo();
    LabelCounter::opened.clear();
    const VkCommandBuffer cb2 = beginCommandBuffer();
    ASSERT_EQ(fftbCmdBloom(context_, cb2, &plain), FFTB_SUCCESS);
    EXPECT_TRUE(LabelCounter::opened.empty());
    endCommandBuffer(cb2);
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
    FftbBloomInfo bloom = validBloomInfo();
    bloom.width = 64;
    bloom.height = 48;
    const VkCommandBuffer cb = beginCommandBuffer();
    EXPECT_EQ(fftbCmdBloom(context_, cb, &bloom), FFTB_SUCCESS) << "the old maximum extent still records";
    bloom.width = 200;
    EXPECT_EQ(fftbCmdBloom(context_, cb, &bloom), FFTB_ERROR_DEVICE_LIMIT) << "the new one was not taken";
    messages_.clear();
    endCommandBuffer(cb);
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
    X(FFTB_INCOMPLETE)                                                                                                 \
    X(FFTB_NOT_READY)
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
    // 3 is no code but lies in the enum's range of values, so the conversion is defined in C++.
    const char* unknown = fftbResultToString(static_cast<FftbResult>(3));
    ASSERT_NE(unknown, nullptr);
    EXPECT_EQ(names.count(unknown), 0u) << "an unknown code borrows a real code's name";
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
