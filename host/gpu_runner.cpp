// A self-contained Vulkan setup that uploads a frame, records the plugin's bloom, and reads the result back.
#include "gpu_runner.h"

#include "fftbloom/fftbloom.h"
#include "host_error.h"

#include <cstring>
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

struct HostBuffer
{
    VkDevice device = VK_NULL_HANDLE;
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void* mapped = nullptr;
};

struct DeviceImage
{
    VkImage image = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
};

uint32_t findMemoryType(VkPhysicalDevice gpu, uint32_t bits, VkMemoryPropertyFlags wanted)
{
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(gpu, &props);
    for (uint32_t i = 0; i < props.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (props.memoryTypes[i].propertyFlags & wanted) == wanted)
            return i;
    throw HostError("Vulkan: no suitable memory type");
}

} // namespace

struct GpuRunner::State
{
    VkInstance instance = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    VkPhysicalDevice gpu = VK_NULL_HANDLE;
    VkPhysicalDeviceProperties properties{};
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    uint32_t queueFamily = 0;
    VkCommandPool pool = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    VkQueryPool queries = VK_NULL_HANDLE;
    bool timestamps = false;
    double gpuMilliseconds = 0.0;
    uint64_t validationMessages = 0;
    std::string firstValidationMessage;

    FftbContext context = nullptr;
    uint32_t contextExtent[4] = {};
    std::string contextError;
    std::vector<float> kernelTexels;
    int kernelExtent[2] = {};
    SpectrumMode kernelMode = SpectrumMode::Resampled;

    static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                    VkDebugUtilsMessageTypeFlagsEXT,
                                                    const VkDebugUtilsMessengerCallbackDataEXT* data, void* user)
    {
        auto* s = static_cast<State*>(user);
        if (s->validationMessages++ == 0)
            s->firstValidationMessage = data->pMessage ? data->pMessage : "(no text)";
        return VK_FALSE;
    }

    static void onPluginMessage(FftbResult, VkResult, const char* message, void* user)
    {
        static_cast<State*>(user)->contextError = message;
    }

    HostBuffer createBuffer(VkDeviceSize size, VkBufferUsageFlags usage)
    {
        HostBuffer b;
        b.device = device;
        VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        bci.size = size;
        bci.usage = usage;
        check(vkCreateBuffer(device, &bci, nullptr, &b.buffer), "vkCreateBuffer");
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(device, b.buffer, &req);
        VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        mai.allocationSize = req.size;
        mai.memoryTypeIndex = findMemoryType(
            gpu, req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
        check(vkAllocateMemory(device, &mai, nullptr, &b.memory), "vkAllocateMemory");
        check(vkBindBufferMemory(device, b.buffer, b.memory, 0), "vkBindBufferMemory");
        check(vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory");
        return b;
    }

    void destroy(HostBuffer& b)
    {
        if (b.buffer)
            vkDestroyBuffer(device, b.buffer, nullptr);
        if (b.memory)
            vkFreeMemory(device, b.memory, nullptr);
        b = HostBuffer{};
    }

    DeviceImage createImage(uint32_t w, uint32_t h, VkImageUsageFlags usage)
    {
        DeviceImage img;
        VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
        ici.imageType = VK_IMAGE_TYPE_2D;
        ici.format = VK_FORMAT_R32G32B32A32_SFLOAT;
        ici.extent = {w, h, 1};
        ici.mipLevels = 1;
        ici.arrayLayers = 1;
        ici.samples = VK_SAMPLE_COUNT_1_BIT;
        ici.tiling = VK_IMAGE_TILING_OPTIMAL;
        ici.usage = usage;
        ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        check(vkCreateImage(device, &ici, nullptr, &img.image), "vkCreateImage");
        VkMemoryRequirements req;
        vkGetImageMemoryRequirements(device, img.image, &req);
        VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        mai.allocationSize = req.size;
        mai.memoryTypeIndex = findMemoryType(gpu, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
        check(vkAllocateMemory(device, &mai, nullptr, &img.memory), "vkAllocateMemory");
        check(vkBindImageMemory(device, img.image, img.memory, 0), "vkBindImageMemory");
        VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        vci.image = img.image;
        vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
        vci.format = ici.format;
        vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        check(vkCreateImageView(device, &vci, nullptr, &img.view), "vkCreateImageView");
        return img;
    }

    void destroy(DeviceImage& img)
    {
        if (img.view)
            vkDestroyImageView(device, img.view, nullptr);
        if (img.image)
            vkDestroyImage(device, img.image, nullptr);
        if (img.memory)
            vkFreeMemory(device, img.memory, nullptr);
        img = DeviceImage{};
    }

    void selectDevice(int index)
    {
        uint32_t count = 0;
        vkEnumeratePhysicalDevices(instance, &count, nullptr);
        std::vector<VkPhysicalDevice> devices(count);
        vkEnumeratePhysicalDevices(instance, &count, devices.data());
        if (count == 0)
            throw HostError("Vulkan: no physical device (install mesa-vulkan-drivers for lavapipe)");
        if (index >= 0)
        {
            if (uint32_t(index) >= count)
                throw HostError("--device: no device " + std::to_string(index) + " (" + std::to_string(count) +
                                " present, numbered from 0)");
            gpu = devices[size_t(index)];
        }
        else
        {
            for (VkPhysicalDeviceType wanted : {VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, VK_PHYSICAL_DEVICE_TYPE_CPU})
                for (VkPhysicalDevice d : devices)
                {
                    VkPhysicalDeviceProperties p;
                    vkGetPhysicalDeviceProperties(d, &p);
                    if (!gpu && p.deviceType == wanted)
                        gpu = d;
                }
            if (!gpu)
                gpu = devices[0];
        }
        vkGetPhysicalDeviceProperties(gpu, &properties);
        if (properties.apiVersion < VK_API_VERSION_1_1)
            throw HostError(std::string("Vulkan: ") + properties.deviceName + " supports only Vulkan 1.0");
    }
};

GpuRunner::GpuRunner(const RunnerOptions& options) : state_(std::make_unique<State>())
{
    State& s = *state_;
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "fftbloom";
    app.apiVersion = VK_API_VERSION_1_1;
    const char* layer = "VK_LAYER_KHRONOS_validation";
    const char* extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkDebugUtilsMessengerCreateInfoEXT mci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    mci.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    mci.pfnUserCallback = &State::onMessage;
    mci.pUserData = &s;
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    if (options.validation)
    {
        ici.enabledLayerCount = 1;
        ici.ppEnabledLayerNames = &layer;
        ici.enabledExtensionCount = 1;
        ici.ppEnabledExtensionNames = &extension;
        ici.pNext = &mci; // also reports on instance creation and destruction
    }
    if (VkResult r = vkCreateInstance(&ici, nullptr, &s.instance); r != VK_SUCCESS)
        throw HostError(options.validation && r == VK_ERROR_LAYER_NOT_PRESENT
                            ? "Vulkan: VK_LAYER_KHRONOS_validation not installed (vulkan-validationlayers)"
                            : "Vulkan: vkCreateInstance failed with VkResult " + std::to_string(int(r)));
    if (options.validation)
    {
        auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(s.instance, "vkCreateDebugUtilsMessengerEXT"));
        check(create(s.instance, &mci, nullptr, &s.messenger), "vkCreateDebugUtilsMessengerEXT");
    }
    s.selectDevice(options.deviceIndex);

    uint32_t familyCount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(s.gpu, &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(s.gpu, &familyCount, families.data());
    s.queueFamily = UINT32_MAX;
    for (uint32_t i = 0; i < familyCount && s.queueFamily == UINT32_MAX; ++i)
        if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            s.queueFamily = i;
    if (s.queueFamily == UINT32_MAX)
        throw HostError(std::string("Vulkan: ") + s.properties.deviceName + " has no compute queue");
    s.timestamps = families[s.queueFamily].timestampValidBits > 0;

    VkPhysicalDeviceFeatures supported;
    vkGetPhysicalDeviceFeatures(s.gpu, &supported);
    if (!supported.shaderStorageImageWriteWithoutFormat)
        throw HostError(std::string("Vulkan: ") + s.properties.deviceName +
                        " lacks shaderStorageImageWriteWithoutFormat");
    VkPhysicalDeviceFeatures features{};
    features.shaderStorageImageWriteWithoutFormat = VK_TRUE;
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = s.queueFamily;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.pEnabledFeatures = &features;
    check(vkCreateDevice(s.gpu, &dci, nullptr, &s.device), "vkCreateDevice");
    vkGetDeviceQueue(s.device, s.queueFamily, 0, &s.queue);

    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = s.queueFamily;
    check(vkCreateCommandPool(s.device, &pci, nullptr, &s.pool), "vkCreateCommandPool");
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    check(vkCreateFence(s.device, &fci, nullptr, &s.fence), "vkCreateFence");
    if (s.timestamps)
    {
        VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qpci.queryCount = 2;
        check(vkCreateQueryPool(s.device, &qpci, nullptr, &s.queries), "vkCreateQueryPool");
    }
}

GpuRunner::~GpuRunner()
{
    State& s = *state_;
    if (s.device)
    {
        vkDeviceWaitIdle(s.device);
        fftbDestroyContext(s.context);
        if (s.queries)
            vkDestroyQueryPool(s.device, s.queries, nullptr);
        vkDestroyFence(s.device, s.fence, nullptr);
        vkDestroyCommandPool(s.device, s.pool, nullptr);
        vkDestroyDevice(s.device, nullptr);
    }
    if (s.messenger)
    {
        auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(s.instance, "vkDestroyDebugUtilsMessengerEXT"));
        destroy(s.instance, s.messenger, nullptr);
    }
    if (s.instance)
        vkDestroyInstance(s.instance, nullptr);
}

std::string GpuRunner::deviceName() const
{
    return state_->properties.deviceName;
}

double GpuRunner::lastGpuMilliseconds() const
{
    return state_->gpuMilliseconds;
}

uint64_t GpuRunner::validationMessageCount() const
{
    return state_->validationMessages;
}

std::string GpuRunner::firstValidationMessage() const
{
    return state_->firstValidationMessage;
}

Texels GpuRunner::bloom(const Texels& frame, const Texels& kernel, const BloomSettings& settings)
{
    State& s = *state_;
    if (frame.components != 4 || kernel.components != 3)
        throw HostError("bloom: frame must be RGBA and kernel RGB");
    const uint32_t w = uint32_t(frame.width), h = uint32_t(frame.height);
    const uint32_t extent[4] = {w, h, uint32_t(kernel.width), uint32_t(kernel.height)};

    s.contextError.clear();
    const auto fail = [&](FftbResult r, const char* call)
    { throw HostError(std::string(call) + ": " + (s.contextError.empty() ? fftbResultToString(r) : s.contextError)); };
    if (!s.context || std::memcmp(extent, s.contextExtent, sizeof(extent)) != 0)
    {
        fftbDestroyContext(s.context);
        s.context = nullptr;
        s.kernelTexels.clear();
        FftbContextCreateInfo ci{FFTB_STRUCTURE_TYPE_CONTEXT_CREATE_INFO};
        ci.instance = s.instance;
        ci.physicalDevice = s.gpu;
        ci.device = s.device;
        ci.getInstanceProcAddr = vkGetInstanceProcAddr;
        ci.getDeviceProcAddr = vkGetDeviceProcAddr;
        ci.maxWidth = w;
        ci.maxHeight = h;
        ci.maxKernelWidth = extent[2];
        ci.maxKernelHeight = extent[3];
        ci.messageCallback = &State::onPluginMessage;
        ci.messageUserData = &s;
        if (FftbResult r = fftbCreateContext(&ci, &s.context); r != FFTB_SUCCESS)
            fail(r, "fftbCreateContext");
        std::memcpy(s.contextExtent, extent, sizeof(extent));
    }
    if (s.kernelTexels != kernel.values || s.kernelMode != settings.spectrum)
    {
        FftbKernelInfo ki{FFTB_STRUCTURE_TYPE_KERNEL_INFO};
        ki.width = extent[2];
        ki.height = extent[3];
        ki.texels = kernel.values.data();
        ki.spectrumMode =
            settings.spectrum == SpectrumMode::Exact ? FFTB_SPECTRUM_MODE_EXACT : FFTB_SPECTRUM_MODE_RESAMPLED;
        if (FftbResult r = fftbSetKernel(s.context, &ki); r != FFTB_SUCCESS)
            fail(r, "fftbSetKernel");
        s.kernelTexels = kernel.values;
        s.kernelMode = settings.spectrum;
    }

    const VkDeviceSize bytes = VkDeviceSize(w) * h * 4 * sizeof(float);
    HostBuffer upload, download;
    DeviceImage input, output;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    // Released on every path, a throw from any Vulkan call included; the queue is idle by then.
    struct Release
    {
        State& s;
        HostBuffer& upload;
        HostBuffer& download;
        DeviceImage& input;
        DeviceImage& output;
        VkCommandBuffer& cb;
        ~Release()
        {
            if (cb)
                vkFreeCommandBuffers(s.device, s.pool, 1, &cb);
            s.destroy(input);
            s.destroy(output);
            s.destroy(upload);
            s.destroy(download);
        }
    } release{s, upload, download, input, output, cb};
    upload = s.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    download = s.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    input = s.createImage(w, h, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    output = s.createImage(w, h, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    std::memcpy(upload.mapped, frame.values.data(), bytes);

    VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbai.commandPool = s.pool;
    cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbai.commandBufferCount = 1;
    check(vkAllocateCommandBuffers(s.device, &cbai, &cb), "vkAllocateCommandBuffers");
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer");

    const auto transition = [&](VkImage image, VkImageLayout from, VkImageLayout to, VkAccessFlags srcAccess,
                                VkAccessFlags dstAccess, VkPipelineStageFlags srcStage, VkPipelineStageFlags dstStage)
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
    };
    const VkBufferImageCopy region{0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {w, h, 1}};
    transition(input.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
               VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    vkCmdCopyBufferToImage(cb, upload.buffer, input.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    transition(input.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
               VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
               VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
    transition(output.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, 0, VK_ACCESS_SHADER_WRITE_BIT,
               VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
    if (s.timestamps)
    {
        vkCmdResetQueryPool(cb, s.queries, 0, 2);
        vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, s.queries, 0);
    }

    FftbBloomInfo bi{FFTB_STRUCTURE_TYPE_BLOOM_INFO};
    bi.inputView = input.view;
    bi.inputLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    bi.outputView = output.view;
    bi.width = w;
    bi.height = h;
    bi.padding = settings.padding == Padding::Mirror ? FFTB_PADDING_MIRROR : FFTB_PADDING_ZERO;
    bi.axisOrder = settings.axisOrder == AxisOrder::XFirst   ? FFTB_AXIS_ORDER_X_FIRST
                   : settings.axisOrder == AxisOrder::YFirst ? FFTB_AXIS_ORDER_Y_FIRST
                                                             : FFTB_AXIS_ORDER_AUTO;
    bi.outputMode = settings.composite ? FFTB_OUTPUT_MODE_COMPOSITE : FFTB_OUTPUT_MODE_BLOOM;
    bi.intensity = settings.intensity;
    bi.sharpen = settings.sharpen;
    const FftbResult recorded = fftbCmdBloom(s.context, cb, &bi);

    if (s.timestamps)
        vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, s.queries, 1);
    transition(output.image, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_SHADER_WRITE_BIT,
               VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    vkCmdCopyImageToBuffer(cb, output.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, download.buffer, 1, &region);
    VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    toHost.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0, nullptr, 0,
                         nullptr);
    check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");

    Texels result(frame.width, frame.height, 4);
    VkResult submitted = VK_SUCCESS;
    if (recorded == FFTB_SUCCESS)
    {
        VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cb;
        submitted = vkQueueSubmit(s.queue, 1, &si, s.fence);
        if (submitted == VK_SUCCESS)
            submitted = vkWaitForFences(s.device, 1, &s.fence, VK_TRUE, UINT64_MAX);
        vkResetFences(s.device, 1, &s.fence);
        if (submitted == VK_SUCCESS)
        {
            std::memcpy(result.values.data(), download.mapped, bytes);
            if (s.timestamps)
            {
                uint64_t t[2] = {};
                vkGetQueryPoolResults(s.device, s.queries, 0, 2, sizeof(t), t, sizeof(uint64_t),
                                      VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
                s.gpuMilliseconds = double(t[1] - t[0]) * s.properties.limits.timestampPeriod * 1e-6;
            }
        }
    }
    if (recorded != FFTB_SUCCESS)
        fail(recorded, "fftbCmdBloom");
    check(submitted, "vkQueueSubmit/vkWaitForFences");
    return result;
}

} // namespace fftb
