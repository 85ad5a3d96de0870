// The viewer's frame graph and UI. The bloom node uses the plugin exactly as an engine would: fftbloom::Context,
// fftbloom::Kernel made when the kernel changes, fftbCmdBloom into the frame's command buffer with timestamps chained.
#include "viewer.h"

#include "display_shared.h"
#include "fftbloom/fftbloom.hpp"
#include "fftbloom_spirv.h"
#include "image_io.h"
#include "plan.h"
#include "psf.h"
#include "scrub.h"
#include "vulkan_device.h"

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_vulkan.h>
#include <fftw3.h>
#include <imgui.h>
#include <imgui_stdlib.h>
#include <stb_image_write.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <deque>
#include <filesystem>
#include <future>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace fftb::viewer
{

namespace
{

constexpr uint32_t kFramesInFlight = 2;
/// Queries per frame: the plugin's FFTB_TIMESTAMP_COUNT, then one after the display pass.
constexpr uint32_t kQueriesPerFrame = FFTB_TIMESTAMP_COUNT + 1;
constexpr int kTimingWindow = 60;
constexpr int kMaxKernelSize = 1024;

/// Display sets: which images the display pass reads (binding 0, binding 2) and writes.
enum DisplaySet
{
    kSetBloom,  ///< A's output, B's output (A's while B is not started) -> the window
    kSetInput,  ///< the input frame -> the window
    kSetKernel, ///< the kernel view image -> the window
    kSetSave,   ///< A's output -> the image-sized save target
    kSetCount
};

const char* const kTonemapperNames[] = {"ACES fitted (Narkowicz)", "ACES (Hill)", "Reinhard", "Clamp"};
const char* const kPaddingNames[] = {"zero", "mirror"};
const char* const kAxisNames[] = {"auto", "x first", "y first"};
const char* const kSpectrumNames[] = {"resampled", "exact"};
const char* const kKernelExtentNames[] = {"native (a texel a pixel)", "pixels", "fraction of the diagonal"};

/// A GPU image with its memory and view.
struct GpuImage
{
    VkImage image = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    uint32_t width = 0;
    uint32_t height = 0;
};

struct GpuBuffer
{
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void* mapped = nullptr;
};

/// A frame in flight: its command buffer, the fence of its submission, its timestamps.
struct Frame
{
    VkCommandPool pool = VK_NULL_HANDLE;
    VkCommandBuffer commandBuffer = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    VkSemaphore imageAvailable = VK_NULL_HANDLE;
    VkQueryPool queries = VK_NULL_HANDLE;
    bool queriesWritten = false;
};

/// The kernel-lifetime part of the settings: a change means a new fftbloom::Kernel.
struct KernelKey
{
    std::string file;
    int size = 0;
    int spectrum = 0;
    ApertureParams aperture;
    double airyRadiusTexels = 0.0;
    bool operator==(const KernelKey& o) const
    {
        const ApertureParams& a = aperture;
        const ApertureParams& b = o.aperture;
        return file == o.file && size == o.size && spectrum == o.spectrum && airyRadiusTexels == o.airyRadiusTexels &&
               a.blades == b.blades && a.bladeCurvature == b.bladeCurvature && a.obstruction == b.obstruction &&
               a.vanes == b.vanes && a.bladeRotationDeg == b.bladeRotationDeg;
    }
};

KernelKey kernelKeyOf(const Settings& s)
{
    return {s.kernelFile, s.kernelSize, s.spectrum, s.aperture, s.airyRadiusTexels};
}

/// Device memory the plugin holds, counted as an engine's memory tracker would: the plugin loads its device entry
/// points through the getDeviceProcAddr it is given, and the viewer's returns vkAllocateMemory and vkFreeMemory
/// wrappers that record each allocation's size.
struct PluginMemory
{
    std::mutex mutex;
    std::unordered_map<VkDeviceMemory, VkDeviceSize> sizes;
    VkDeviceSize totalBytes = 0;
};

PluginMemory& pluginMemory()
{
    static PluginMemory memory;
    return memory;
}

VKAPI_ATTR VkResult VKAPI_CALL trackedAllocateMemory(VkDevice device, const VkMemoryAllocateInfo* info,
                                                     const VkAllocationCallbacks* allocator, VkDeviceMemory* memory)
{
    const VkResult r = vkAllocateMemory(device, info, allocator, memory);
    if (r == VK_SUCCESS)
    {
        PluginMemory& m = pluginMemory();
        std::lock_guard lock(m.mutex);
        m.sizes[*memory] = info->allocationSize;
        m.totalBytes += info->allocationSize;
    }
    return r;
}

VKAPI_ATTR void VKAPI_CALL trackedFreeMemory(VkDevice device, VkDeviceMemory memory,
                                             const VkAllocationCallbacks* allocator)
{
    {
        PluginMemory& m = pluginMemory();
        std::lock_guard lock(m.mutex);
        if (auto it = m.sizes.find(memory); it != m.sizes.end())
        {
            m.totalBytes -= it->second;
            m.sizes.erase(it);
        }
    }
    vkFreeMemory(device, memory, allocator);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL trackingGetDeviceProcAddr(VkDevice device, const char* name)
{
    if (std::strcmp(name, "vkAllocateMemory") == 0)
        return reinterpret_cast<PFN_vkVoidFunction>(&trackedAllocateMemory);
    if (std::strcmp(name, "vkFreeMemory") == 0)
        return reinterpret_cast<PFN_vkVoidFunction>(&trackedFreeMemory);
    return vkGetDeviceProcAddr(device, name);
}

/// One bloom node as an engine would hold it: the plugin's context, the kernel it was given, its output image.
/// The viewer has two, A and B; B runs only in the comparison views.
struct BloomNode
{
    fftbloom::Context context;
    uint32_t contextWidth = 0;
    uint32_t contextHeight = 0;
    Texels kernel;
    fftbloom::Kernel psf; ///< `kernel` made on `context` (fftbCreateKernel)
    KernelKey applied;
    GpuImage output;
    std::string pluginMessage; ///< the message callback's last text

    /// What the output was last recorded from: the bloom is skipped while it stays the same (Rerun::OnChange).
    struct Recorded
    {
        uint64_t scene = 0;
        KernelKey kernel;
        int padding = 0;
        int axisOrder = 0;
        float intensity = 0.0f;
        float sharpen = 0.0f;
        bool bloomOnly = false;
        CompositeMode composite = CompositeMode::Conserving;
        float threshold = 0.0f, knee = 0.0f, clamp = 0.0f;
        KernelScale extent;
        bool operator==(const Recorded& o) const
        {
            return scene == o.scene && kernel == o.kernel && padding == o.padding && axisOrder == o.axisOrder &&
                   intensity == o.intensity && sharpen == o.sharpen && bloomOnly == o.bloomOnly &&
                   composite == o.composite && threshold == o.threshold && knee == o.knee && clamp == o.clamp &&
                   extent.unit == o.extent.unit && extent.value == o.extent.value;
        }
    };
    std::optional<Recorded> recorded;
};

/// The kernel's RGB texels for the settings: the file resampled, or the generated PSF at the next power of two in
/// the generator's range, resampled to the size asked for and faded toward its border like the CLI's default.
Texels makeKernel(const KernelKey& key)
{
    Texels kernel;
    if (!key.file.empty())
        kernel = loadPsf(key.file);
    else
    {
        PsfParams params;
        params.aperture = key.aperture;
        params.sizeTexels = std::clamp(int(pow2Ceil(uint32_t(key.size))), 64, 2048);
        params.airyRadiusTexels = std::min(key.airyRadiusTexels, params.sizeTexels / 8.0);
        kernel = generatePsf(params);
    }
    if (kernel.width != key.size || kernel.height != key.size)
        kernel = resamplePsf(kernel, key.size);
    if (key.file.empty())
        fadeToBorder(kernel); // as the CLI's default PSF (defaultPsf)
    normalizePsf(kernel);
    return kernel;
}

/// A placeholder scene when no image could be read: point lights of a few colours on a dim gradient.
Texels placeholderScene()
{
    Texels t(640, 400, 4);
    for (int y = 0; y < t.height; ++y)
        for (int x = 0; x < t.width; ++x)
        {
            const float g = 0.02f + 0.03f * float(y) / float(t.height);
            t.at(x, y, 0) = g;
            t.at(x, y, 1) = g;
            t.at(x, y, 2) = 1.5f * g;
            t.at(x, y, 3) = 1.0f;
        }
    const int lights[][2] = {{160, 130}, {320, 200}, {480, 270}, {200, 300}, {450, 110}};
    const float colours[][3] = {{400, 300, 200}, {800, 800, 800}, {100, 200, 500}, {500, 150, 80}, {200, 450, 200}};
    for (int i = 0; i < 5; ++i)
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
                for (int c = 0; c < 3; ++c)
                    t.at(lights[i][0] + dx, lights[i][1] + dy, c) = colours[i][c];
    return t;
}

class Viewer
{
  public:
    Viewer(WindowDevice& wd, const ViewerOptions& options)
        : wd_(wd), options_(options), settings_(options.settings), settingsB_(options.settingsB)
    {
    }

    /// Creates everything and loads the first image and kernel. Apart from the constructor so that the destructor
    /// releases what was made when this throws.
    void start()
    {
        const ViewerOptions& options = options_;
        kernelPath_ = settings_.kernelFile;
        kernelFromFile_ = !kernelPath_.empty();
        createFrames();
        createDisplayPipeline();
        createRenderPass();
        createSwapchainTargets();
        initImGui();

        glfwSetWindowUserPointer(wd_.window(), this);
        glfwSetDropCallback(wd_.window(),
                            [](GLFWwindow* w, int count, const char** paths)
                            {
                                auto* self = static_cast<Viewer*>(glfwGetWindowUserPointer(w));
                                if (count > 0)
                                    self->pendingLoad_ = paths[count - 1];
                            });

        const std::string first = options.imagePath.empty() ? std::string(FFTBLOOM_DEFAULT_SAMPLE) : options.imagePath;
        if (!loadImage(first))
        {
            if (!options.screenshotPath.empty())
                throw ViewerError(message_);
            const std::string reason = message_;
            loadScene(placeholderScene(), "placeholder scene");
            message_ = reason;
        }
        if (!applyKernel(nodes_[0], settings_))
            throw ViewerError(message_);
        if ((settings_.view == View::Split || settings_.view == View::Difference) && !startB())
            throw ViewerError(message_);
    }

    ~Viewer()
    {
        VkDevice d = wd_.device();
        vkDeviceWaitIdle(d);
        if (imguiVulkan_)
            ImGui_ImplVulkan_Shutdown();
        if (imguiGlfw_)
            ImGui_ImplGlfw_Shutdown();
        if (ImGui::GetCurrentContext())
            ImGui::DestroyContext();
        for (BloomNode& node : nodes_)
        {
            node.context.reset();
            destroy(node.output);
        }
        destroySwapchainTargets();
        destroy(input_);
        destroy(kernelView_);
        destroy(saveTarget_);
        destroy(readback_);
        vkDestroyRenderPass(d, renderPass_, nullptr);
        vkDestroyDescriptorPool(d, imguiPool_, nullptr);
        vkDestroyPipeline(d, displayPipeline_, nullptr);
        vkDestroyPipelineLayout(d, displayLayout_, nullptr);
        vkDestroyDescriptorPool(d, displayPool_, nullptr);
        vkDestroyDescriptorSetLayout(d, displaySetLayout_, nullptr);
        vkDestroySampler(d, sampler_, nullptr);
        for (Frame& f : frames_)
        {
            vkDestroyQueryPool(d, f.queries, nullptr);
            vkDestroySemaphore(d, f.imageAvailable, nullptr);
            vkDestroyFence(d, f.fence, nullptr);
            vkDestroyCommandPool(d, f.pool, nullptr);
        }
        vkDestroyCommandPool(d, oneShotPool_, nullptr);
    }

    int run()
    {
        const bool screenshot = !options_.screenshotPath.empty();
        if (screenshot && !wd_.swapchainReadable())
            throw ViewerError("--screenshot: the window's swapchain images cannot be copied from "
                              "(no VK_IMAGE_USAGE_TRANSFER_SRC_BIT)");
        int frameNumber = 0;
        bool halfwayDone = false;
        while (!glfwWindowShouldClose(wd_.window()))
        {
            glfwPollEvents();
            if (screenshot && frameNumber == options_.frames / 2 && !halfwayDone)
            {
                halfwayDone = true;
                if (options_.resizeWidth > 0)
                    resizeWindow(options_.resizeWidth, options_.resizeHeight);
                if (!options_.dropPath.empty())
                    pendingLoad_ = options_.dropPath;
                for (const std::string& keyValue : options_.laterSettings)
                {
                    const bool ofB = keyValue.compare(0, 2, "b.") == 0;
                    std::string error;
                    if (!applySetting(ofB ? settingsB_ : settings_, ofB ? keyValue.substr(2) : keyValue, &error))
                        throw ViewerError(error);
                }
            }
            int fbWidth = 0, fbHeight = 0;
            glfwGetFramebufferSize(wd_.window(), &fbWidth, &fbHeight);
            if (fbWidth == 0 || fbHeight == 0)
            {
                glfwWaitEvents(); // minimized: nothing to draw until the window has an area again
                continue;
            }
            if (swapchainStale_ || uint32_t(fbWidth) != wd_.swapchainExtent().width ||
                uint32_t(fbHeight) != wd_.swapchainExtent().height)
            {
                if (!recreateSwapchain())
                    continue;
            }
            if (!pendingLoad_.empty())
            {
                const std::string path = std::exchange(pendingLoad_, std::string());
                if (glfwGetKey(wd_.window(), GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS ||
                    glfwGetKey(wd_.window(), GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS)
                {
                    edited().kernelFile = kernelPath_ = path; // shift + drop: the file becomes the kernel
                    kernelFromFile_ = true;
                }
                else
                    loadImage(path);
            }

            ImGui_ImplVulkan_NewFrame();
            ImGui_ImplGlfw_NewFrame();
            ImGui::NewFrame();
            handleInput();
            if (settings_.ui)
                drawUi();
            else
                viewLeft_ = 0.0f;
            ImGui::Render();
            if (!ImGui::IsAnyItemActive())
            {
                updateKernels();
                if ((settings_.view == View::Split || settings_.view == View::Difference) && !nodes_[1].context &&
                    !startB())
                    settings_.view = View::Composite;
                // FFTW plans on one thread at a time: the spectrum view waits for a kernel being generated.
                if ((settings_.view == View::Kernel || settings_.view == View::Spectrum) &&
                    (kernelViewStale_ || settings_.view != kernelViewShows_) && !kernelJob_.valid())
                    makeKernelView();
            }

            const bool last = screenshot && frameNumber + 1 >= options_.frames;
            if (last)
                finishKernels(); // the screenshot shows the settings' kernels, not the ones still being made
            if (!drawFrame(last))
                continue;
            ++frameNumber;
            if (last)
            {
                check(vkQueueWaitIdle(wd_.queue()), "vkQueueWaitIdle");
                writeScreenshot(options_.screenshotPath);
                if (options_.save)
                {
                    save();
                    if (!message_.empty())
                        throw ViewerError(message_);
                }
                break;
            }
        }
        check(vkDeviceWaitIdle(wd_.device()), "vkDeviceWaitIdle");
        return 0;
    }

  private:
    /// Resizes the window and waits (up to 5 s) until the window system has applied it, so that a screenshot taken
    /// a few frames later has the new size.
    void resizeWindow(int width, int height)
    {
        glfwSetWindowSize(wd_.window(), width, height);
        const double start = glfwGetTime();
        int w = 0, h = 0;
        do
        {
            glfwWaitEventsTimeout(0.05);
            glfwGetFramebufferSize(wd_.window(), &w, &h);
        } while ((w != width || h != height) && glfwGetTime() - start < 5.0);
        if (w != width || h != height)
            throw ViewerError("--resize: the window system kept the window at " + std::to_string(w) + "x" +
                              std::to_string(h));
    }

    // ---- Vulkan helpers ------------------------------------------------------------------------------------------

    GpuImage createImage(uint32_t width, uint32_t height, VkFormat format, VkImageUsageFlags usage)
    {
        GpuImage img;
        img.width = width;
        img.height = height;
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
        check(vkCreateImage(wd_.device(), &ici, nullptr, &img.image), "vkCreateImage");
        VkMemoryRequirements req;
        vkGetImageMemoryRequirements(wd_.device(), img.image, &req);
        VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        mai.allocationSize = req.size;
        mai.memoryTypeIndex = wd_.memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
        check(vkAllocateMemory(wd_.device(), &mai, nullptr, &img.memory), "vkAllocateMemory");
        check(vkBindImageMemory(wd_.device(), img.image, img.memory, 0), "vkBindImageMemory");
        VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        vci.image = img.image;
        vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
        vci.format = format;
        vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        check(vkCreateImageView(wd_.device(), &vci, nullptr, &img.view), "vkCreateImageView");
        return img;
    }

    GpuBuffer createHostBuffer(VkDeviceSize sizeBytes, VkBufferUsageFlags usage)
    {
        GpuBuffer b;
        VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        bci.size = sizeBytes;
        bci.usage = usage;
        check(vkCreateBuffer(wd_.device(), &bci, nullptr, &b.buffer), "vkCreateBuffer");
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(wd_.device(), b.buffer, &req);
        VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        mai.allocationSize = req.size;
        mai.memoryTypeIndex = wd_.memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                                     VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
        check(vkAllocateMemory(wd_.device(), &mai, nullptr, &b.memory), "vkAllocateMemory");
        check(vkBindBufferMemory(wd_.device(), b.buffer, b.memory, 0), "vkBindBufferMemory");
        check(vkMapMemory(wd_.device(), b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory");
        return b;
    }

    void destroy(GpuImage& img)
    {
        if (img.view)
            vkDestroyImageView(wd_.device(), img.view, nullptr);
        if (img.image)
            vkDestroyImage(wd_.device(), img.image, nullptr);
        if (img.memory)
            vkFreeMemory(wd_.device(), img.memory, nullptr);
        img = GpuImage{};
    }

    void destroy(GpuBuffer& b)
    {
        if (b.buffer)
            vkDestroyBuffer(wd_.device(), b.buffer, nullptr);
        if (b.memory)
            vkFreeMemory(wd_.device(), b.memory, nullptr);
        b = GpuBuffer{};
    }

    /// Records with `record` into a one-shot command buffer, submits it and waits.
    template <typename Record> void submitNow(Record record)
    {
        VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        cai.commandPool = oneShotPool_;
        cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        cai.commandBufferCount = 1;
        VkCommandBuffer cb = VK_NULL_HANDLE;
        check(vkAllocateCommandBuffers(wd_.device(), &cai, &cb), "vkAllocateCommandBuffers");
        VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        vkBeginCommandBuffer(cb, &bi);
        record(cb);
        vkEndCommandBuffer(cb);
        VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cb;
        VkResult r = vkQueueSubmit(wd_.queue(), 1, &si, VK_NULL_HANDLE);
        if (r == VK_SUCCESS)
            r = vkQueueWaitIdle(wd_.queue());
        vkFreeCommandBuffers(wd_.device(), oneShotPool_, 1, &cb);
        check(r, "vkQueueSubmit");
    }

    // ---- Set-up ----------------------------------------------------------------------------------------------------

    void createFrames()
    {
        VkDevice d = wd_.device();
        VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pci.queueFamilyIndex = wd_.queueFamily();
        pci.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
        check(vkCreateCommandPool(d, &pci, nullptr, &oneShotPool_), "vkCreateCommandPool");
        for (Frame& f : frames_)
        {
            check(vkCreateCommandPool(d, &pci, nullptr, &f.pool), "vkCreateCommandPool");
            VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
            cai.commandPool = f.pool;
            cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
            cai.commandBufferCount = 1;
            check(vkAllocateCommandBuffers(d, &cai, &f.commandBuffer), "vkAllocateCommandBuffers");
            VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
            fci.flags = VK_FENCE_CREATE_SIGNALED_BIT;
            check(vkCreateFence(d, &fci, nullptr, &f.fence), "vkCreateFence");
            VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
            check(vkCreateSemaphore(d, &sci, nullptr, &f.imageAvailable), "vkCreateSemaphore");
            if (wd_.timestamps())
            {
                VkQueryPoolCreateInfo qci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
                qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
                qci.queryCount = kQueriesPerFrame;
                check(vkCreateQueryPool(d, &qci, nullptr, &f.queries), "vkCreateQueryPool");
            }
        }
    }

    void createDisplayPipeline()
    {
        VkDevice d = wd_.device();
        VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
        sci.magFilter = sci.minFilter = VK_FILTER_NEAREST;
        sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
        check(vkCreateSampler(d, &sci, nullptr, &sampler_), "vkCreateSampler");

        VkDescriptorSetLayoutBinding bindings[3] = {};
        bindings[0].binding = DISPLAY_BINDING_SHOWN;
        bindings[0].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        bindings[0].descriptorCount = 1;
        bindings[0].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
        bindings[1].binding = DISPLAY_BINDING_TARGET;
        bindings[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
        bindings[1].descriptorCount = 1;
        bindings[1].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
        bindings[2] = bindings[0];
        bindings[2].binding = DISPLAY_BINDING_COMPARED;
        VkDescriptorSetLayoutCreateInfo lci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
        lci.bindingCount = 3;
        lci.pBindings = bindings;
        check(vkCreateDescriptorSetLayout(d, &lci, nullptr, &displaySetLayout_), "vkCreateDescriptorSetLayout");

        VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2 * kSetCount},
                                         {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, kSetCount}};
        VkDescriptorPoolCreateInfo dpi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
        dpi.maxSets = kSetCount;
        dpi.poolSizeCount = 2;
        dpi.pPoolSizes = sizes;
        check(vkCreateDescriptorPool(d, &dpi, nullptr, &displayPool_), "vkCreateDescriptorPool");
        std::array<VkDescriptorSetLayout, kSetCount> layouts;
        layouts.fill(displaySetLayout_);
        VkDescriptorSetAllocateInfo dai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
        dai.descriptorPool = displayPool_;
        dai.descriptorSetCount = kSetCount;
        dai.pSetLayouts = layouts.data();
        check(vkAllocateDescriptorSets(d, &dai, displaySets_.data()), "vkAllocateDescriptorSets");

        VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(DisplayConstants)};
        VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
        plci.setLayoutCount = 1;
        plci.pSetLayouts = &displaySetLayout_;
        plci.pushConstantRangeCount = 1;
        plci.pPushConstantRanges = &range;
        check(vkCreatePipelineLayout(d, &plci, nullptr, &displayLayout_), "vkCreatePipelineLayout");

        const SpirvModule& spirv = kSpirvModules[0];
        VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        smci.codeSize = spirv.sizeBytes;
        smci.pCode = spirv.code;
        VkShaderModule module = VK_NULL_HANDLE;
        check(vkCreateShaderModule(d, &smci, nullptr, &module), "vkCreateShaderModule");
        VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
        cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
        cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        cpci.stage.module = module;
        cpci.stage.pName = "main";
        cpci.layout = displayLayout_;
        const VkResult r = vkCreateComputePipelines(d, VK_NULL_HANDLE, 1, &cpci, nullptr, &displayPipeline_);
        vkDestroyShaderModule(d, module, nullptr);
        check(r, "vkCreateComputePipelines");
    }

    void createRenderPass()
    {
        // The UI is drawn over the display pass's blit: loaded, then left for presentation.
        VkAttachmentDescription colour{};
        colour.format = wd_.swapchainFormat();
        colour.samples = VK_SAMPLE_COUNT_1_BIT;
        colour.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
        colour.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        colour.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
        colour.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
        colour.initialLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        colour.finalLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
        VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
        VkSubpassDescription subpass{};
        subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
        subpass.colorAttachmentCount = 1;
        subpass.pColorAttachments = &ref;
        VkSubpassDependency deps[2] = {};
        deps[0].srcSubpass = VK_SUBPASS_EXTERNAL;
        deps[0].dstSubpass = 0;
        deps[0].srcStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
        deps[0].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
        deps[0].srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        deps[0].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
        deps[1].srcSubpass = 0;
        deps[1].dstSubpass = VK_SUBPASS_EXTERNAL;
        deps[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
        deps[1].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
        deps[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
        deps[1].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        VkRenderPassCreateInfo rci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
        rci.attachmentCount = 1;
        rci.pAttachments = &colour;
        rci.subpassCount = 1;
        rci.pSubpasses = &subpass;
        rci.dependencyCount = 2;
        rci.pDependencies = deps;
        check(vkCreateRenderPass(wd_.device(), &rci, nullptr, &renderPass_), "vkCreateRenderPass");
    }

    void createSwapchainTargets()
    {
        VkDevice d = wd_.device();
        const VkExtent2D e = wd_.swapchainExtent();
        for (VkImageView view : wd_.swapchainViews())
        {
            VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
            fci.renderPass = renderPass_;
            fci.attachmentCount = 1;
            fci.pAttachments = &view;
            fci.width = e.width;
            fci.height = e.height;
            fci.layers = 1;
            VkFramebuffer fb = VK_NULL_HANDLE;
            check(vkCreateFramebuffer(d, &fci, nullptr, &fb), "vkCreateFramebuffer");
            framebuffers_.push_back(fb);
            VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
            VkSemaphore s = VK_NULL_HANDLE;
            check(vkCreateSemaphore(d, &sci, nullptr, &s), "vkCreateSemaphore");
            renderFinished_.push_back(s);
        }
        display_ = createImage(e.width, e.height, VK_FORMAT_R8G8B8A8_UNORM,
                               VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
        destroy(readback_);
        readback_ = createHostBuffer(VkDeviceSize(e.width) * e.height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
        updateDisplaySets();
    }

    void destroySwapchainTargets()
    {
        for (VkFramebuffer fb : framebuffers_)
            vkDestroyFramebuffer(wd_.device(), fb, nullptr);
        for (VkSemaphore s : renderFinished_)
            vkDestroySemaphore(wd_.device(), s, nullptr);
        framebuffers_.clear();
        renderFinished_.clear();
        destroy(display_);
    }

    bool recreateSwapchain()
    {
        check(vkDeviceWaitIdle(wd_.device()), "vkDeviceWaitIdle");
        destroySwapchainTargets();
        if (!wd_.recreateSwapchain())
            return false;
        createSwapchainTargets();
        ImGui_ImplVulkan_SetMinImageCount(wd_.minImageCount());
        swapchainStale_ = false;
        return true;
    }

    /// Points every display set at the current images (see DisplaySet); images not made yet are stood in for.
    void updateDisplaySets()
    {
        const GpuImage& a = nodes_[0].output;
        const GpuImage& b = nodes_[1].output.view ? nodes_[1].output : a;
        if (!display_.view || !input_.view || !a.view)
            return;
        const GpuImage& kernel = kernelView_.view ? kernelView_ : input_;
        const VkImageLayout kernelLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL; // as uploaded
        const GpuImage& saveTarget = saveTarget_.view ? saveTarget_ : display_;
        struct Images
        {
            VkDescriptorImageInfo shown, target, compared;
        };
        const std::array<Images, kSetCount> images = {{
            {{sampler_, a.view, VK_IMAGE_LAYOUT_GENERAL},
             {VK_NULL_HANDLE, display_.view, VK_IMAGE_LAYOUT_GENERAL},
             {sampler_, b.view, VK_IMAGE_LAYOUT_GENERAL}},
            {{sampler_, input_.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
             {VK_NULL_HANDLE, display_.view, VK_IMAGE_LAYOUT_GENERAL},
             {sampler_, input_.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}},
            {{sampler_, kernel.view, kernelLayout},
             {VK_NULL_HANDLE, display_.view, VK_IMAGE_LAYOUT_GENERAL},
             {sampler_, kernel.view, kernelLayout}},
            {{sampler_, a.view, VK_IMAGE_LAYOUT_GENERAL},
             {VK_NULL_HANDLE, saveTarget.view, VK_IMAGE_LAYOUT_GENERAL},
             {sampler_, a.view, VK_IMAGE_LAYOUT_GENERAL}},
        }};
        std::vector<VkWriteDescriptorSet> writes;
        for (size_t set = 0; set < kSetCount; ++set)
        {
            const VkDescriptorImageInfo* infos[3] = {};
            infos[DISPLAY_BINDING_SHOWN] = &images[set].shown;
            infos[DISPLAY_BINDING_TARGET] = &images[set].target;
            infos[DISPLAY_BINDING_COMPARED] = &images[set].compared;
            for (uint32_t binding = 0; binding < 3; ++binding)
            {
                VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
                w.dstSet = displaySets_[set];
                w.dstBinding = binding;
                w.descriptorCount = 1;
                w.descriptorType = binding == DISPLAY_BINDING_TARGET ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE
                                                                     : VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
                w.pImageInfo = infos[binding];
                writes.push_back(w);
            }
        }
        vkUpdateDescriptorSets(wd_.device(), uint32_t(writes.size()), writes.data(), 0, nullptr);
    }

    void initImGui()
    {
        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr; // the same layout every start, and no file left in the working folder
        ImGui::StyleColorsDark();
        ImGui::GetStyle().Colors[ImGuiCol_WindowBg].w = 0.85f;

        VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 8};
        VkDescriptorPoolCreateInfo dpi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
        dpi.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
        dpi.maxSets = 8;
        dpi.poolSizeCount = 1;
        dpi.pPoolSizes = &size;
        check(vkCreateDescriptorPool(wd_.device(), &dpi, nullptr, &imguiPool_), "vkCreateDescriptorPool");

        imguiGlfw_ = ImGui_ImplGlfw_InitForVulkan(wd_.window(), true);
        ImGui_ImplVulkan_InitInfo ii{};
        ii.Instance = wd_.instance();
        ii.PhysicalDevice = wd_.physicalDevice();
        ii.Device = wd_.device();
        ii.QueueFamily = wd_.queueFamily();
        ii.Queue = wd_.queue();
        ii.DescriptorPool = imguiPool_;
        ii.Subpass = 0;
        ii.MinImageCount = wd_.minImageCount();
        ii.ImageCount = std::max(uint32_t(wd_.swapchainImages().size()), kFramesInFlight);
        ii.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
        imguiVulkan_ = ImGui_ImplVulkan_Init(&ii, renderPass_);
        if (!imguiVulkan_)
            throw ViewerError("Dear ImGui: ImGui_ImplVulkan_Init failed");
        submitNow([](VkCommandBuffer cb) { ImGui_ImplVulkan_CreateFontsTexture(cb); });
        ImGui_ImplVulkan_DestroyFontUploadObjects();
    }

    // ---- Scene input and bloom node --------------------------------------------------------------------------------

    /// Reads `path`; on failure sets the message and keeps the previous image.
    bool loadImage(const std::string& path)
    {
        Texels rgba;
        try
        {
            rgba = toRgba(readImage(path));
        }
        catch (const std::exception& e)
        {
            message_ = e.what();
            return false;
        }
        const ScrubCounts scrubbed = scrubRgb(rgba, kDefaultScrubMax);
        if (!loadScene(rgba, path))
            return false;
        if (scrubbed.total() > 0)
            notice_ = std::to_string(scrubbed.nan) + " NaN, " + std::to_string(scrubbed.negative) + " negative and " +
                      std::to_string(scrubbed.clamped) + " values above 65504 replaced before the bloom";
        return true;
    }

    /// fftbCreateKernel of `kernel` on `node`'s context into `psf`; false with the message set when refused.
    bool createKernel(BloomNode& node, const Texels& kernel, int spectrum, fftbloom::Kernel& psf)
    {
        FftbKernelInfo ki{FFTB_STRUCTURE_TYPE_KERNEL_INFO};
        ki.width = uint32_t(kernel.width);
        ki.height = uint32_t(kernel.height);
        ki.texels = kernel.values.data();
        ki.spectrumMode = FftbSpectrumMode(spectrum);
        if (const FftbResult r = node.context.createKernel(ki, psf, std::nothrow); r != FFTB_SUCCESS)
        {
            message_ = std::string("fftbCreateKernel: ") + fftbResultToString(r) + " (" + node.pluginMessage + ")";
            return false;
        }
        return true;
    }

    /// Grows `node`'s context to a w x h frame (fftbResizeContext, or a new context) and remakes its kernel (an
    /// exact-mode spectrum is sized for the frames); false with the message set when the plugin refuses.
    bool growContext(BloomNode& node, uint32_t w, uint32_t h, const std::string& name)
    {
        if (node.context && w <= node.contextWidth && h <= node.contextHeight)
            return true;
        check(vkDeviceWaitIdle(wd_.device()), "vkDeviceWaitIdle"); // fftbResizeContext: nothing pending
        if (node.context)
        {
            FftbResizeInfo ri{FFTB_STRUCTURE_TYPE_RESIZE_INFO};
            ri.maxWidth = std::max(w, node.contextWidth);
            ri.maxHeight = std::max(h, node.contextHeight);
            ri.maxKernelWidth = ri.maxKernelHeight = kMaxKernelSize;
            if (const FftbResult r = node.context.resize(ri, std::nothrow); r != FFTB_SUCCESS)
            {
                message_ = name + ": fftbResizeContext: " + fftbResultToString(r) + " (" + node.pluginMessage + ")";
                return false;
            }
            node.contextWidth = ri.maxWidth;
            node.contextHeight = ri.maxHeight;
            node.psf.reset();
            return node.kernel.values.empty() || createKernel(node, node.kernel, node.applied.spectrum, node.psf);
        }
        fftbloom::Context created;
        FftbContextCreateInfo ci{FFTB_STRUCTURE_TYPE_CONTEXT_CREATE_INFO};
        ci.instance = wd_.instance();
        ci.physicalDevice = wd_.physicalDevice();
        ci.device = wd_.device();
        ci.getInstanceProcAddr = vkGetInstanceProcAddr;
        ci.getDeviceProcAddr = trackingGetDeviceProcAddr;
        ci.maxWidth = std::max(w, node.contextWidth);
        ci.maxHeight = std::max(h, node.contextHeight);
        ci.maxKernelWidth = ci.maxKernelHeight = kMaxKernelSize;
        ci.maxFramesInFlight = kFramesInFlight;
        ci.messageCallback = [](FftbResult, VkResult, const char* text, void* user)
        { static_cast<BloomNode*>(user)->pluginMessage = text; };
        ci.messageUserData = &node;
        if (const FftbResult r = fftbloom::Context::create(ci, created); r != FFTB_SUCCESS)
        {
            message_ = name + ": fftbCreateContext: " + fftbResultToString(r) + " (" + node.pluginMessage + ")";
            return false;
        }
        node.context = std::move(created);
        node.contextWidth = ci.maxWidth;
        node.contextHeight = ci.maxHeight;
        return true;
    }

    /// Uploads `rgba` as the scene and grows the bloom contexts to its extent; false (message set, the previous
    /// scene kept) when the plugin cannot bloom a frame that large.
    bool loadScene(const Texels& rgba, const std::string& name)
    {
        const uint32_t w = uint32_t(rgba.width), h = uint32_t(rgba.height);
        check(vkDeviceWaitIdle(wd_.device()), "vkDeviceWaitIdle");
        if (!growContext(nodes_[0], w, h, name) || (nodes_[1].context && !growContext(nodes_[1], w, h, name)))
            return false;

        destroy(input_);
        input_ = createImage(w, h, VK_FORMAT_R32G32B32A32_SFLOAT,
                             VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
        GpuBuffer staging =
            createHostBuffer(VkDeviceSize(rgba.values.size() * sizeof(float)), VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
        std::memcpy(staging.mapped, rgba.values.data(), rgba.values.size() * sizeof(float));
        submitNow([&](VkCommandBuffer cb) { VulkanDevice::uploadForCompute(cb, staging.buffer, input_.image, w, h); });
        destroy(staging);
        for (BloomNode& node : nodes_)
            if (node.context)
                createOutput(node);
        updateDisplaySets();
        sceneName_ = name;
        ++sceneGeneration_;
        glfwSetWindowTitle(wd_.window(),
                           ("fftbloom-viewer: " + std::filesystem::path(name).filename().string()).c_str());
        message_.clear();
        notice_.clear();
        fit_ = true;
        return true;
    }

    /// The node's output image at the scene's extent, RGBA32F (read back as is when saving), left GENERAL.
    void createOutput(BloomNode& node)
    {
        destroy(node.output);
        node.output =
            createImage(input_.width, input_.height, VK_FORMAT_R32G32B32A32_SFLOAT,
                        VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
        submitNow([&](VkCommandBuffer cb) { VulkanDevice::prepareComputeOutput(cb, node.output.image); });
    }

    /// Starts node B (the comparison views) on first use: its context, kernel and output image.
    bool startB()
    {
        if (nodes_[1].context)
            return true;
        if (!growContext(nodes_[1], input_.width, input_.height, "B") || !applyKernel(nodes_[1], settingsB_))
        {
            nodes_[1] = BloomNode{};
            return false;
        }
        check(vkDeviceWaitIdle(wd_.device()), "vkDeviceWaitIdle");
        createOutput(nodes_[1]);
        updateDisplaySets();
        return true;
    }

    /// Generates or loads `node`'s kernel when `settings` changed it and hands it to the plugin. On failure the
    /// message is set and the previous kernel and its settings stay.
    /// Generates or loads `node`'s kernel for `settings` now and hands it to the plugin (at start, and when B
    /// starts). On failure the message is set and the previous kernel and its settings stay.
    bool applyKernel(BloomNode& node, Settings& settings)
    {
        const KernelKey key = kernelKeyOf(settings);
        Texels kernel;
        try
        {
            kernel = sharedKernel(node, key) ? otherNode(node).kernel : makeKernel(key);
        }
        catch (const std::exception& e)
        {
            message_ = std::string("kernel: ") + e.what();
            revertKernelSettings(node, settings);
            return false;
        }
        return installKernel(node, settings, key, std::move(kernel));
    }

    /// Per frame: when a node's kernel settings changed, generates or loads the kernel on a worker thread (a large
    /// PSF takes seconds) and hands it to the plugin once ready; one at a time.
    void updateKernels()
    {
        if (kernelJob_.valid())
        {
            if (kernelJob_.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
                return;
            BloomNode& node = nodes_[kernelJobNode_];
            Settings& settings = kernelJobNode_ == 0 ? settings_ : settingsB_;
            try
            {
                installKernel(node, settings, kernelJobKey_, kernelJob_.get());
            }
            catch (const ViewerError&)
            {
                throw;
            }
            catch (const std::exception& e)
            {
                message_ = std::string("kernel: ") + e.what();
                revertKernelSettings(node, settings);
            }
        }
        for (size_t i = 0; i < nodes_.size(); ++i)
        {
            BloomNode& node = nodes_[i];
            Settings& settings = i == 0 ? settings_ : settingsB_;
            const KernelKey key = kernelKeyOf(settings);
            if (!node.context || key == node.applied)
                continue;
            if (sharedKernel(node, key))
            {
                installKernel(node, settings, key, Texels(otherNode(node).kernel));
                continue;
            }
            kernelJobNode_ = i;
            kernelJobKey_ = key;
            kernelJob_ = std::async(std::launch::async, [key] { return makeKernel(key); });
            return;
        }
    }

    void finishKernels()
    {
        for (;;)
        {
            updateKernels();
            if (!kernelJob_.valid())
                return;
            kernelJob_.wait();
        }
    }

    BloomNode& otherNode(const BloomNode& node) { return &node == &nodes_[0] ? nodes_[1] : nodes_[0]; }

    /// Whether the other node holds the same PSF (the two often differ only in the spectrum mode).
    bool sharedKernel(const BloomNode& node, const KernelKey& key)
    {
        const BloomNode& other = otherNode(node);
        KernelKey otherKey = other.applied;
        otherKey.spectrum = key.spectrum;
        return !other.kernel.values.empty() && otherKey == key;
    }

    /// A new kernel for `node`; on failure the message is set and the settings revert.
    bool installKernel(BloomNode& node, Settings& settings, const KernelKey& key, Texels kernel)
    {
        fftbloom::Kernel psf;
        if (!createKernel(node, kernel, key.spectrum, psf))
        {
            revertKernelSettings(node, settings);
            return false;
        }
        check(vkDeviceWaitIdle(wd_.device()), "vkDeviceWaitIdle"); // the old kernel: nothing pending
        node.psf = std::move(psf);
        node.kernel = std::move(kernel);
        node.applied = key;
        kernelViewStale_ = true;
        if (&node == &nodes_[0])
            spectrumTimeMs_ = 0.0;
        return true;
    }

    static void revertKernelSettings(const BloomNode& node, Settings& settings)
    {
        if (node.applied.size == 0)
            return;
        settings.kernelFile = node.applied.file;
        settings.kernelSize = node.applied.size;
        settings.spectrum = node.applied.spectrum;
        settings.aperture = node.applied.aperture;
        settings.airyRadiusTexels = node.applied.airyRadiusTexels;
    }

    // ---- Frame -----------------------------------------------------------------------------------------------------

    /// Records and presents one frame; false when the swapchain had to be recreated first.
    bool drawFrame(bool screenshot)
    {
        VkDevice d = wd_.device();
        Frame& f = frames_[frameIndex_];
        check(vkWaitForFences(d, 1, &f.fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
        readTimestamps(f);

        uint32_t imageIndex = 0;
        VkResult r =
            vkAcquireNextImageKHR(d, wd_.swapchain(), UINT64_MAX, f.imageAvailable, VK_NULL_HANDLE, &imageIndex);
        if (r == VK_ERROR_OUT_OF_DATE_KHR)
        {
            swapchainStale_ = true;
            return false;
        }
        if (r != VK_SUBOPTIMAL_KHR)
            check(r, "vkAcquireNextImageKHR");
        check(vkResetFences(d, 1, &f.fence), "vkResetFences");

        VkCommandBuffer cb = f.commandBuffer;
        check(vkResetCommandPool(d, f.pool, 0), "vkResetCommandPool");
        VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        check(vkBeginCommandBuffer(cb, &bi), "vkBeginCommandBuffer");
        recordFrame(cb, f, imageIndex, screenshot);
        check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");

        const VkPipelineStageFlags waitStage = VK_PIPELINE_STAGE_TRANSFER_BIT; // the blit is the image's first use
        VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.waitSemaphoreCount = 1;
        si.pWaitSemaphores = &f.imageAvailable;
        si.pWaitDstStageMask = &waitStage;
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cb;
        si.signalSemaphoreCount = 1;
        si.pSignalSemaphores = &renderFinished_[imageIndex];
        check(vkQueueSubmit(wd_.queue(), 1, &si, f.fence), "vkQueueSubmit");
        f.queriesWritten = f.queries != VK_NULL_HANDLE && bloomRecorded_;

        VkSwapchainKHR swapchain = wd_.swapchain();
        VkPresentInfoKHR pi{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
        pi.waitSemaphoreCount = 1;
        pi.pWaitSemaphores = &renderFinished_[imageIndex];
        pi.swapchainCount = 1;
        pi.pSwapchains = &swapchain;
        pi.pImageIndices = &imageIndex;
        r = vkQueuePresentKHR(wd_.queue(), &pi);
        if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR)
            swapchainStale_ = true;
        else
            check(r, "vkQueuePresentKHR");
        frameIndex_ = (frameIndex_ + 1) % kFramesInFlight;
        return true;
    }

    void recordFrame(VkCommandBuffer cb, Frame& f, uint32_t imageIndex, bool screenshot)
    {
        const VkExtent2D extent = wd_.swapchainExtent();
        const VkImage swapchainImage = wd_.swapchainImages()[imageIndex];
        if (f.queries)
            vkCmdResetQueryPool(cb, f.queries, 0, kQueriesPerFrame);

        // Bloom nodes: A, and B for the comparison views.
        bloomRecorded_ = recordBloom(cb, nodes_[0], settings_, f.queries);
        const bool compare = comparing();
        if (compare)
            recordBloom(cb, nodes_[1], settingsB_, VK_NULL_HANDLE);

        // Display pass into the display image, which the previous frame's blit read.
        VulkanDevice::transition(cb, display_.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, 0,
                                 VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
        const bool kernelView = settings_.view == View::Kernel || settings_.view == View::Spectrum;
        DisplayConstants pc = displayConstants(extent, kernelView ? VkExtent2D{kernelView_.width, kernelView_.height}
                                                                  : VkExtent2D{input_.width, input_.height});
        placeImage(extent, pc);
        pc.mode = kernelView                                      ? DISPLAY_MODE_VALUES
                  : settings_.view == View::Split && compare      ? DISPLAY_MODE_SPLIT
                  : settings_.view == View::Difference && compare ? DISPLAY_MODE_DIFFERENCE
                                                                  : DISPLAY_MODE_SHOWN;
        pc.splitX = dividerX(extent);
        pc.differenceScale = std::exp2(settings_.differenceGain);
        const DisplaySet set = kernelView ? kSetKernel : settings_.view == View::Input ? kSetInput : kSetBloom;
        recordDisplay(cb, set, pc);
        if (f.queries)
            vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, f.queries, FFTB_TIMESTAMP_COUNT);

        VulkanDevice::transition(cb, display_.image, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                 VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT,
                                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
        VulkanDevice::transition(cb, swapchainImage, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                                 VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                 VK_PIPELINE_STAGE_TRANSFER_BIT);
        VkImageBlit blit{};
        blit.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        blit.srcOffsets[1] = {int32_t(extent.width), int32_t(extent.height), 1};
        blit.dstSubresource = blit.srcSubresource;
        blit.dstOffsets[1] = blit.srcOffsets[1];
        vkCmdBlitImage(cb, display_.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, swapchainImage,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_NEAREST);

        // UI.
        VkRenderPassBeginInfo rbi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
        rbi.renderPass = renderPass_;
        rbi.framebuffer = framebuffers_[imageIndex];
        rbi.renderArea.extent = extent;
        vkCmdBeginRenderPass(cb, &rbi, VK_SUBPASS_CONTENTS_INLINE);
        ImGui_ImplVulkan_RenderDrawData(ImGui::GetDrawData(), cb);
        vkCmdEndRenderPass(cb);

        if (screenshot)
        {
            // The presented image exactly: copied after the UI, before presentation.
            VulkanDevice::transition(cb, swapchainImage, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                                     VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, 0, VK_ACCESS_TRANSFER_READ_BIT,
                                     VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
            VkBufferImageCopy copy{};
            copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
            copy.imageExtent = {extent.width, extent.height, 1};
            vkCmdCopyImageToBuffer(cb, swapchainImage, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback_.buffer, 1,
                                   &copy);
            VulkanDevice::transition(cb, swapchainImage, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                     VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_ACCESS_TRANSFER_READ_BIT, 0,
                                     VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
            VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
            host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
            host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
            vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0,
                                 nullptr, 0, nullptr);
        }
    }

    /// Records fftbCmdBloom of `node` with `settings` (timestamps into `queries` when given).
    /// Returns false when skipped: nothing it depends on changed and the settings ask for no rerun.
    bool recordBloom(VkCommandBuffer cb, BloomNode& node, const Settings& settings, VkQueryPool queries)
    {
        const bool bloomOnly = comparing() ? settings_.compareBloomOnly : settings_.view == View::Bloom;
        const KernelScale extent = appliedExtent(settings, node.applied);
        const BloomNode::Recorded state{sceneGeneration_,   node.applied,     settings.padding, settings.axisOrder,
                                        settings.intensity, settings.sharpen, bloomOnly,        settings.composite,
                                        settings.threshold, settings.knee,    settings.clamp,   extent};
        if (!bloomEveryFrame() && node.recorded == state)
            return false;
        node.recorded = state;
        // The output image was read by the previous frame's display pass.
        VulkanDevice::transition(cb, node.output.image, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL,
                                 VK_ACCESS_SHADER_READ_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
        FftbTimestampInfo ti{FFTB_STRUCTURE_TYPE_TIMESTAMP_INFO};
        ti.queryPool = queries;
        ti.firstQuery = 0;
        FftbBloomInfo bi{FFTB_STRUCTURE_TYPE_BLOOM_INFO};
        bi.pNext = queries ? &ti : nullptr;
        bi.kernel = node.psf.get();
        bi.inputView = input_.view;
        bi.inputLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        bi.outputView = node.output.view;
        bi.width = input_.width;
        bi.height = input_.height;
        bi.padding = FftbPadding(settings.padding);
        bi.axisOrder = FftbAxisOrder(settings.axisOrder);
        bi.outputMode = bloomOnly                                       ? FFTB_OUTPUT_MODE_BLOOM
                        : settings.composite == CompositeMode::Additive ? FFTB_OUTPUT_MODE_ADDITIVE
                                                                        : FFTB_OUTPUT_MODE_COMPOSITE;
        bi.intensity = settings.intensity;
        bi.sharpen = settings.sharpen;
        bi.prefilterThreshold = settings.threshold;
        // The knee is kept as a fraction of the threshold, so no slider order can make it exceed the threshold.
        bi.prefilterKnee = std::min(settings.knee * settings.threshold, settings.threshold);
        bi.prefilterClamp = settings.clamp;
        bi.kernelScaleUnit = FftbKernelScaleUnit(extent.unit);
        bi.kernelScale = extent.value;
        if (const FftbResult r = node.context.cmdBloom(cb, bi, std::nothrow); r != FFTB_SUCCESS)
            throw ViewerError(std::string("fftbCmdBloom: ") + fftbResultToString(r) + " (" + node.pluginMessage + ")");
        VulkanDevice::transition(cb, node.output.image, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL,
                                 VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT,
                                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
        return true;
    }

    /// The kernel extent the plugin is given: the settings', native for an exact-mode kernel (which cannot be
    /// scaled) and at most kMaxKernelSize pixels across (the contexts' maximum kernel extent).
    KernelScale appliedExtent(const Settings& settings, const KernelKey& applied) const
    {
        if (settings.kernelExtent.native() || applied.spectrum != FFTB_SPECTRUM_MODE_RESAMPLED)
            return {};
        if (kernelSpan(settings.kernelExtent, input_.width, input_.height) > kMaxKernelSize)
            return {KernelScaleUnit::Pixels, float(kMaxKernelSize)};
        return settings.kernelExtent;
    }

    bool bloomEveryFrame() const
    {
        // On a CPU device one bloom of a photograph takes about a second: recording it only on changes keeps the
        // panel usable.
        return settings_.rerun == Rerun::EveryFrame ||
               (settings_.rerun == Rerun::Auto && wd_.properties().deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU);
    }

    /// Whether B runs this frame.
    bool comparing() const
    {
        return (settings_.view == View::Split || settings_.view == View::Difference) && nodes_[1].context;
    }

    DisplayConstants displayConstants(VkExtent2D target, VkExtent2D image) const
    {
        DisplayConstants pc{};
        pc.texelsPerPixel = 1.0f;
        pc.exposureScale = std::exp2(settings_.exposure);
        pc.imageExtent.x = int32_t(image.width);
        pc.imageExtent.y = int32_t(image.height);
        pc.targetExtent.x = int32_t(target.width);
        pc.targetExtent.y = int32_t(target.height);
        static_assert(int(Tonemapper::AcesFitted) == DISPLAY_TONEMAP_ACES_FITTED &&
                      int(Tonemapper::AcesHill) == DISPLAY_TONEMAP_ACES_HILL &&
                      int(Tonemapper::Reinhard) == DISPLAY_TONEMAP_REINHARD &&
                      int(Tonemapper::Clamp) == DISPLAY_TONEMAP_CLAMP);
        pc.tonemapper = int32_t(settings_.tonemapper);
        pc.encodeSrgb = wd_.swapchainSrgb() ? 0 : 1;
        return pc;
    }

    void recordDisplay(VkCommandBuffer cb, DisplaySet set, const DisplayConstants& pc)
    {
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, displayPipeline_);
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, displayLayout_, 0, 1, &displaySets_[set], 0,
                                nullptr);
        vkCmdPushConstants(cb, displayLayout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(pc), &pc);
        const uint32_t size = DISPLAY_WORKGROUP_SIZE;
        vkCmdDispatch(cb, (uint32_t(pc.targetExtent.x) + size - 1) / size,
                      (uint32_t(pc.targetExtent.y) + size - 1) / size, 1);
    }

    /// Window x of the A/B divider: `split` of the way across the part of the window the panel leaves free.
    float dividerX(VkExtent2D extent) const { return viewLeft_ + settings_.split * (float(extent.width) - viewLeft_); }

    /// The centre of the part of the window the panel leaves free.
    float viewCentreX(VkExtent2D extent) const { return (viewLeft_ + float(extent.width)) * 0.5f; }

    /// Where the image lies in the window: fitted and centred, or the user's zoom and pan.
    void placeImage(VkExtent2D extent, DisplayConstants& pc)
    {
        const float w = float(pc.imageExtent.x), h = float(pc.imageExtent.y);
        if (fit_)
        {
            texelsPerPixel_ = std::max(w / (float(extent.width) - viewLeft_), h / float(extent.height));
            centre_[0] = w * 0.5f;
            centre_[1] = h * 0.5f;
        }
        pc.texelsPerPixel = texelsPerPixel_;
        pc.imageOrigin.x = viewCentreX(extent) - centre_[0] / texelsPerPixel_;
        pc.imageOrigin.y = float(extent.height) * 0.5f - centre_[1] / texelsPerPixel_;
    }

    void writeScreenshot(const std::string& path)
    {
        const VkExtent2D e = wd_.swapchainExtent();
        std::vector<unsigned char> rgba(size_t(e.width) * e.height * 4);
        std::memcpy(rgba.data(), readback_.mapped, rgba.size());
        const VkFormat format = wd_.swapchainFormat();
        const bool bgra = format == VK_FORMAT_B8G8R8A8_UNORM || format == VK_FORMAT_B8G8R8A8_SRGB;
        for (size_t i = 0; i < rgba.size(); i += 4)
        {
            if (bgra)
                std::swap(rgba[i], rgba[i + 2]);
            rgba[i + 3] = 255; // the window is opaque
        }
        if (!stbi_write_png(path.c_str(), int(e.width), int(e.height), 4, rgba.data(), int(e.width) * 4))
            throw ViewerError(path + ": cannot write the PNG");
    }

    void readTimestamps(Frame& f)
    {
        if (!f.queriesWritten)
            return;
        f.queriesWritten = false;
        std::array<uint64_t, kQueriesPerFrame> t{};
        if (vkGetQueryPoolResults(wd_.device(), f.queries, 0, kQueriesPerFrame, sizeof(t), t.data(), sizeof(uint64_t),
                                  VK_QUERY_RESULT_64_BIT) != VK_SUCCESS)
            return;
        const double msPerTick = double(wd_.properties().limits.timestampPeriod) * 1e-6;
        auto ms = [&](int a, int b) { return double(t[size_t(b)] - t[size_t(a)]) * msPerTick; };
        if (t[1] != t[0])
            spectrumTimeMs_ = ms(0, 1);
        timings_.push_back({ms(1, 2), ms(2, 3), ms(3, 4), ms(1, 4), ms(4, 5)});
        if (timings_.size() > kTimingWindow)
            timings_.pop_front();
    }

    // ---- Kernel views and saving --------------------------------------------------------------------------------

    /// The kernel (log scale, 6 decades below its peak) or its spectrum's magnitude (log scale, 6 decades below DC,
    /// DC at the centre, at the resampled mode's extent S = pow2ceil(K)) as display values, uploaded for the display
    /// pass. Of the node the controls edit.
    void makeKernelView()
    {
        const Texels& k = nodes_[editB_ && nodes_[1].context ? 1 : 0].kernel;
        constexpr double kDecades = 6.0;
        auto shade = [&](double ratio)
        { return float(std::clamp(1.0 + std::log10(std::max(ratio, 1e-30)) / kDecades, 0.0, 1.0)); };
        Texels view;
        if (settings_.view == View::Kernel)
        {
            view = Texels(k.width, k.height, 4);
            const float peak = *std::max_element(k.values.begin(), k.values.end());
            for (int y = 0; y < k.height; ++y)
                for (int x = 0; x < k.width; ++x)
                {
                    for (int c = 0; c < 3; ++c)
                        view.at(x, y, c) = shade(double(k.at(x, y, c)) / double(peak));
                    view.at(x, y, 3) = 1.0f;
                }
        }
        else
        {
            const int n = int(pow2Ceil(uint32_t(std::max(k.width, k.height))));
            view = Texels(n, n, 4);
            fftw_complex* line = fftw_alloc_complex(size_t(n) * size_t(n));
            fftw_plan plan = fftw_plan_dft_2d(n, n, line, line, FFTW_FORWARD, FFTW_ESTIMATE);
            for (int c = 0; c < 3; ++c)
            {
                std::fill(&line[0][0], &line[0][0] + 2 * size_t(n) * size_t(n), 0.0);
                for (int y = 0; y < k.height; ++y)
                    for (int x = 0; x < k.width; ++x)
                        line[size_t(y) * size_t(n) + size_t(x)][0] = k.at(x, y, c);
                fftw_execute(plan);
                const double dc = std::hypot(line[0][0], line[0][1]);
                for (int v = 0; v < n; ++v)
                    for (int u = 0; u < n; ++u)
                    {
                        const fftw_complex& z = line[size_t(v) * size_t(n) + size_t(u)];
                        view.at((u + n / 2) % n, (v + n / 2) % n, c) = shade(std::hypot(z[0], z[1]) / dc);
                    }
            }
            for (int y = 0; y < n; ++y)
                for (int x = 0; x < n; ++x)
                    view.at(x, y, 3) = 1.0f;
            fftw_destroy_plan(plan);
            fftw_free(line);
        }
        check(vkDeviceWaitIdle(wd_.device()), "vkDeviceWaitIdle");
        destroy(kernelView_);
        kernelView_ = createImage(uint32_t(view.width), uint32_t(view.height), VK_FORMAT_R32G32B32A32_SFLOAT,
                                  VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
        GpuBuffer staging =
            createHostBuffer(VkDeviceSize(view.values.size() * sizeof(float)), VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
        std::memcpy(staging.mapped, view.values.data(), view.values.size() * sizeof(float));
        submitNow(
            [&](VkCommandBuffer cb) {
                VulkanDevice::uploadForCompute(cb, staging.buffer, kernelView_.image, kernelView_.width,
                                               kernelView_.height);
            });
        destroy(staging);
        updateDisplaySets();
        kernelViewStale_ = false;
        kernelViewShows_ = settings_.view;
        fit_ = true;
    }

    /// Writes A's output as the last frame made it: an EXR (half floats, R, G, B, A) and a PNG through the display
    /// pass's exposure and tonemapper at the scene's extent, as <name>-bloom.exr/.png in the working folder (-2, -3,
    /// ... added rather than overwriting).
    void save()
    {
        const uint32_t w = input_.width, h = input_.height;
        check(vkDeviceWaitIdle(wd_.device()), "vkDeviceWaitIdle");
        if (saveTarget_.width != w || saveTarget_.height != h)
        {
            destroy(saveTarget_);
            saveTarget_ = createImage(w, h, VK_FORMAT_R8G8B8A8_UNORM,
                                      VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
            updateDisplaySets();
        }
        GpuBuffer hdr = createHostBuffer(VkDeviceSize(w) * h * 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
        GpuBuffer ldr = createHostBuffer(VkDeviceSize(w) * h * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
        const GpuImage& out = nodes_[0].output;
        submitNow(
            [&](VkCommandBuffer cb)
            {
                VulkanDevice::transition(cb, saveTarget_.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, 0,
                                         VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
                DisplayConstants pc = displayConstants({w, h}, {w, h});
                pc.encodeSrgb = 1; // a PNG holds sRGB-encoded values whatever the swapchain does
                recordDisplay(cb, kSetSave, pc);
                VulkanDevice::transition(cb, saveTarget_.image, VK_IMAGE_LAYOUT_GENERAL,
                                         VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_SHADER_WRITE_BIT,
                                         VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                         VK_PIPELINE_STAGE_TRANSFER_BIT);
                VulkanDevice::transition(cb, out.image, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                         VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT,
                                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
                VkBufferImageCopy copy{};
                copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
                copy.imageExtent = {w, h, 1};
                vkCmdCopyImageToBuffer(cb, out.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, hdr.buffer, 1, &copy);
                vkCmdCopyImageToBuffer(cb, saveTarget_.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, ldr.buffer, 1,
                                       &copy);
                VulkanDevice::transition(cb, out.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL,
                                         VK_ACCESS_TRANSFER_READ_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                                         VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
                VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
                host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
                host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
                vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0,
                                     nullptr, 0, nullptr);
            });
        Image image;
        image.width = int(w);
        image.height = int(h);
        const float* texels = static_cast<const float*>(hdr.mapped);
        for (int c = 0; c < 4; ++c)
        {
            Channel channel{std::string(1, "RGBA"[c]), PixelType::Half, std::vector<float>(size_t(w) * h)};
            for (size_t i = 0; i < channel.values.size(); ++i)
                channel.values[i] = texels[i * 4 + size_t(c)];
            image.channels.push_back(std::move(channel));
        }
        std::vector<unsigned char> png(static_cast<const unsigned char*>(ldr.mapped),
                                       static_cast<const unsigned char*>(ldr.mapped) + size_t(w) * h * 4);
        destroy(hdr);
        destroy(ldr);

        const std::string stem = std::filesystem::path(sceneName_).stem().string() + "-bloom";
        std::string base = stem;
        for (int n = 2; std::filesystem::exists(base + ".exr") || std::filesystem::exists(base + ".png"); ++n)
            base = stem + "-" + std::to_string(n);
        try
        {
            writeExr(base + ".exr", image);
            if (!stbi_write_png((base + ".png").c_str(), int(w), int(h), 4, png.data(), int(w) * 4))
                throw ViewerError(base + ".png: cannot write the PNG");
            notice_ = "saved " + (std::filesystem::current_path() / base).string() + ".exr and .png";
            message_.clear();
        }
        catch (const std::exception& e)
        {
            message_ = e.what();
        }
    }

    Settings& edited() { return editB_ ? settingsB_ : settings_; }

    // ---- Input and UI ----------------------------------------------------------------------------------------------

    void handleInput()
    {
        ImGuiIO& io = ImGui::GetIO();
        if (!io.WantCaptureKeyboard)
        {
            const View views[] = {View::Composite,  View::Bloom,  View::Input,   View::Split,
                                  View::Difference, View::Kernel, View::Spectrum};
            for (int i = 0; i < 7; ++i)
                if (ImGui::IsKeyPressed(GLFW_KEY_1 + i))
                    settings_.view = views[i];
            if (ImGui::IsKeyPressed(GLFW_KEY_T))
                settings_.tonemapper = Tonemapper((int(settings_.tonemapper) + 1) % 4);
            if (ImGui::IsKeyPressed(GLFW_KEY_EQUAL) || ImGui::IsKeyPressed(GLFW_KEY_KP_ADD))
                settings_.exposure = std::min(settings_.exposure + 0.5f, 16.0f);
            if (ImGui::IsKeyPressed(GLFW_KEY_MINUS) || ImGui::IsKeyPressed(GLFW_KEY_KP_SUBTRACT))
                settings_.exposure = std::max(settings_.exposure - 0.5f, -16.0f);
            if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT_BRACKET))
                edited().intensity = std::min(edited().intensity + 0.05f, 1.0f);
            if (ImGui::IsKeyPressed(GLFW_KEY_LEFT_BRACKET))
                edited().intensity = std::max(edited().intensity - 0.05f, 0.0f);
            if (ImGui::IsKeyPressed(GLFW_KEY_B, false))
                toggleEditB();
            if (ImGui::IsKeyPressed(GLFW_KEY_S, false))
                save();
            if (ImGui::IsKeyPressed(GLFW_KEY_H, false))
                settings_.ui = !settings_.ui;
            if (ImGui::IsKeyPressed(GLFW_KEY_F, false))
                fit_ = true;
            if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE) || ImGui::IsKeyPressed(GLFW_KEY_Q))
                glfwSetWindowShouldClose(wd_.window(), GLFW_TRUE);
        }
        const VkExtent2D e = wd_.swapchainExtent();
        const float divider = dividerX(e);
        const bool splitShown = settings_.view == View::Split && nodes_[1].context;
        if (!io.WantCaptureMouse)
        {
            if (splitShown && ImGui::IsMouseClicked(ImGuiMouseButton_Left) && std::abs(io.MousePos.x - divider) < 8.0f)
                draggingDivider_ = true;
            if (io.MouseWheel != 0.0f)
            {
                // Zoom about the cursor: the texel under it stays under it.
                const float mx = io.MousePos.x - viewCentreX(e), my = io.MousePos.y - float(e.height) * 0.5f;
                const float before[2] = {centre_[0] + mx * texelsPerPixel_, centre_[1] + my * texelsPerPixel_};
                texelsPerPixel_ = std::clamp(texelsPerPixel_ * std::pow(0.85f, io.MouseWheel), 1.0f / 32.0f, 64.0f);
                centre_[0] = before[0] - mx * texelsPerPixel_;
                centre_[1] = before[1] - my * texelsPerPixel_;
                fit_ = false;
            }
            if (!draggingDivider_ &&
                (ImGui::IsMouseDragging(ImGuiMouseButton_Left) || ImGui::IsMouseDragging(ImGuiMouseButton_Right)))
            {
                centre_[0] -= io.MouseDelta.x * texelsPerPixel_;
                centre_[1] -= io.MouseDelta.y * texelsPerPixel_;
                fit_ = false;
            }
        }
        if (draggingDivider_)
        {
            settings_.split = std::clamp((io.MousePos.x - viewLeft_) / (float(e.width) - viewLeft_), 0.0f, 1.0f);
            if (!ImGui::IsMouseDown(ImGuiMouseButton_Left))
                draggingDivider_ = false;
        }
        if (splitShown)
        {
            ImDrawList* draw = ImGui::GetBackgroundDrawList();
            const float x = divider;
            const ImU32 colour = draggingDivider_ ? IM_COL32(255, 210, 120, 255) : IM_COL32(255, 255, 255, 200);
            draw->AddLine(ImVec2(x, 0.0f), ImVec2(x, float(e.height)), colour, 2.0f);
            draw->AddCircleFilled(ImVec2(x, float(e.height) * 0.5f), 7.0f, colour);
            draw->AddText(ImVec2(x - 22.0f, float(e.height) - 24.0f), colour, "A");
            draw->AddText(ImVec2(x + 14.0f, float(e.height) - 24.0f), colour, "B");
        }
    }

    void toggleEditB()
    {
        if (!editB_ && !startB())
            return;
        editB_ = !editB_;
        kernelViewStale_ = true;
        kernelPath_ = edited().kernelFile;
        kernelFromFile_ = !kernelPath_.empty();
    }

    void drawUi()
    {
        ImGui::SetNextWindowPos(ImVec2(8, 8), ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowSize(ImVec2(360, float(wd_.swapchainExtent().height) - 16.0f), ImGuiCond_FirstUseEver);
        ImGui::Begin("fftbloom");
        // Images are fitted beside the panel while it stays at the window's left.
        const float panelRight = ImGui::GetWindowPos().x + ImGui::GetWindowSize().x;
        viewLeft_ = ImGui::GetWindowPos().x < float(wd_.swapchainExtent().width) / 4.0f &&
                            panelRight < float(wd_.swapchainExtent().width) / 2.0f
                        ? panelRight + 8.0f
                        : 0.0f;
        ImGui::TextWrapped("%s (%u x %u)", std::filesystem::path(sceneName_).filename().c_str(), input_.width,
                           input_.height);
        if (!notice_.empty())
            ImGui::TextWrapped("%s", notice_.c_str());
        if (!message_.empty())
        {
            ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.4f, 1.0f));
            ImGui::TextWrapped("%s", message_.c_str());
            ImGui::PopStyleColor();
        }

        if (ImGui::CollapsingHeader("View", ImGuiTreeNodeFlags_DefaultOpen))
        {
            int view = int(settings_.view);
            const char* names[] = {"Composite", "Bloom only", "Input", "A/B split", "Difference", "Kernel", "Spectrum"};
            for (int i = 0; i < 7; ++i)
            {
                if (i != 0 && i != 3 && i != 5)
                    ImGui::SameLine();
                ImGui::RadioButton(names[i], &view, i);
            }
            settings_.view = View(view);
            int tonemapper = int(settings_.tonemapper);
            ImGui::Combo("Tonemapper", &tonemapper, kTonemapperNames, 4);
            settings_.tonemapper = Tonemapper(tonemapper);
            ImGui::SliderFloat("Exposure", &settings_.exposure, -10.0f, 10.0f, "%+.1f stops");
            if (settings_.view == View::Kernel)
                ImGui::TextDisabled("kernel texels, log10: 6 decades below the peak");
            if (settings_.view == View::Spectrum)
                ImGui::TextDisabled("|spectrum| at S = pow2ceil(K), log10: 6 decades below DC, DC at the centre");
            if (settings_.view == View::Split || settings_.view == View::Difference)
            {
                ImGui::SliderFloat("Divider", &settings_.split, 0.0f, 1.0f, "%.2f");
                ImGui::SliderFloat("Difference gain", &settings_.differenceGain, 0.0f, 16.0f, "%.1f stops");
                int compare = settings_.compareBloomOnly ? 1 : 0;
                ImGui::RadioButton("compare composites", &compare, 0);
                ImGui::SameLine();
                ImGui::RadioButton("blooms", &compare, 1);
                settings_.compareBloomOnly = compare == 1;
            }
        }

        if (ImGui::CollapsingHeader("A / B", ImGuiTreeNodeFlags_DefaultOpen))
        {
            int which = editB_ ? 1 : 0;
            ImGui::RadioButton("Controls edit A", &which, 0);
            ImGui::SameLine();
            ImGui::RadioButton("B", &which, 1);
            if ((which == 1) != editB_)
                toggleEditB();
            ImGui::SameLine();
            if (ImGui::Button(editB_ ? "B = A" : "A = B") && nodes_[1].context)
                copySettings(editB_ ? settingsB_ : settings_, editB_ ? settings_ : settingsB_);
        }

        Settings& e = edited();
        if (ImGui::CollapsingHeader(editB_ ? "Bloom (B)" : "Bloom (A)", ImGuiTreeNodeFlags_DefaultOpen))
        {
            ImGui::SliderFloat("Intensity", &e.intensity, 0.0f, 1.0f, "%.3f");
            ImGui::SliderFloat("Sharpening", &e.sharpen, 0.0f, 1.0f, "%.3f");
            int composite = int(e.composite);
            ImGui::RadioButton("Energy-conserving", &composite, 0);
            ImGui::SameLine();
            ImGui::RadioButton("Additive composite", &composite, 1);
            e.composite = CompositeMode(composite);
            ImGui::SliderFloat("Threshold", &e.threshold, 0.0f, 100.0f, e.threshold == 0.0f ? "off" : "%.3f",
                               ImGuiSliderFlags_Logarithmic);
            ImGui::SliderFloat("Knee", &e.knee, 0.0f, 1.0f, "%.2f of the threshold");
            ImGui::SliderFloat("Clamp", &e.clamp, 0.0f, 1000.0f, e.clamp == 0.0f ? "none" : "%.1f",
                               ImGuiSliderFlags_Logarithmic);
            ImGui::Combo("Padding", &e.padding, kPaddingNames, 2);
            ImGui::Combo("Axis order", &e.axisOrder, kAxisNames, 3);
            ImGui::Combo("Spectrum", &e.spectrum, kSpectrumNames, 2);
            ImGui::TextDisabled("Precision: fp32 intermediate spectra");
            drawPlan();
        }

        if (ImGui::CollapsingHeader(editB_ ? "Kernel (B)" : "Kernel (A)", ImGuiTreeNodeFlags_DefaultOpen))
        {
            int sizeLog2 = int(std::log2(e.kernelSize));
            ImGui::SliderInt("Size", &sizeLog2, 4, 10, std::to_string(1 << sizeLog2).c_str());
            e.kernelSize = 1 << sizeLog2;
            drawKernelExtent(e);
            if (kernelJob_.valid())
                ImGui::TextDisabled("making the kernel (%s) ...", kernelJobNode_ == 0 ? "A" : "B");
            if (ImGui::RadioButton("Generated PSF", !kernelFromFile_))
            {
                kernelFromFile_ = false;
                e.kernelFile.clear();
            }
            ImGui::SameLine();
            if (ImGui::RadioButton("File", kernelFromFile_))
                kernelFromFile_ = true;
            if (!kernelFromFile_)
            {
                ImGui::SliderInt("Blades", &e.aperture.blades, 0, 16, e.aperture.blades == 0 ? "circle" : "%d");
                if (e.aperture.blades == 1 || e.aperture.blades == 2)
                    e.aperture.blades = 3;
                float curvature = float(e.aperture.bladeCurvature);
                ImGui::SliderFloat("Curvature", &curvature, 0.0f, 1.0f);
                e.aperture.bladeCurvature = curvature;
                float obstruction = float(e.aperture.obstruction);
                ImGui::SliderFloat("Obstruction", &obstruction, 0.0f, 0.9f);
                e.aperture.obstruction = obstruction;
                ImGui::SliderInt("Vanes", &e.aperture.vanes, 0, 8);
                float airy = float(e.airyRadiusTexels);
                ImGui::SliderFloat("Airy radius", &airy, 1.0f, 16.0f, "%.2f texels");
                e.airyRadiusTexels = airy;
            }
            else
            {
                // Opened on Enter or with the button; Shift + drop fills it in too.
                const bool entered =
                    ImGui::InputText("##kernel path", &kernelPath_, ImGuiInputTextFlags_EnterReturnsTrue);
                ImGui::SameLine();
                if ((ImGui::Button("Open") || entered) && !kernelPath_.empty())
                    e.kernelFile = kernelPath_;
                ImGui::TextDisabled("%s",
                                    e.kernelFile.empty() ? "EXR or .hdr, centre at (w/2, h/2)" : e.kernelFile.c_str());
            }
        }

        if (ImGui::CollapsingHeader("GPU time (A), memory", ImGuiTreeNodeFlags_DefaultOpen))
        {
            int rerun = int(settings_.rerun);
            const char* reruns[] = {"auto (every frame on a GPU)", "every frame", "on changes"};
            ImGui::Combo("Bloom runs", &rerun, reruns, 3);
            settings_.rerun = Rerun(rerun);
            drawTimings();
            if (!bloomEveryFrame())
            {
                ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
                ImGui::TextWrapped("the bloom runs when the frame, the kernel or a bloom setting changes");
                ImGui::PopStyleColor();
            }
            VkDeviceSize pluginBytes = 0;
            {
                std::lock_guard lock(pluginMemory().mutex);
                pluginBytes = pluginMemory().totalBytes;
            }
            ImGui::Text("Plugin device memory: %.1f MiB (%s)", double(pluginBytes) / (1024.0 * 1024.0),
                        nodes_[1].context ? "A and B" : "A");
        }

        if (ImGui::Button("Save EXR + PNG (S)"))
            save();

        if (ImGui::CollapsingHeader("Keyboard and mouse"))
        {
            ImGui::TextUnformatted("Drop an EXR or .hdr file on the window to open it;\n"
                                   "with Shift held, it becomes the kernel.\n"
                                   "1 2 3       composite, bloom only, input\n"
                                   "4 5         A/B split, difference\n"
                                   "6 7         kernel, kernel spectrum\n"
                                   "B           controls edit A or B\n"
                                   "T           next tonemapper\n"
                                   "+ / -       exposure +- 0.5 stop\n"
                                   "] / [       intensity +- 0.05\n"
                                   "S           save the output (EXR, PNG)\n"
                                   "H           hide or show this panel\n"
                                   "F           fit the image to the window\n"
                                   "wheel       zoom about the cursor\n"
                                   "drag        pan; the divider in the split\n"
                                   "Esc, Q      quit");
        }
        ImGui::End();
    }

    /// Copies the bloom and kernel settings (not the display ones) from `from` to `to`.
    static void copySettings(const Settings& from, Settings& to)
    {
        to.intensity = from.intensity;
        to.sharpen = from.sharpen;
        to.composite = from.composite;
        to.threshold = from.threshold;
        to.knee = from.knee;
        to.clamp = from.clamp;
        to.padding = from.padding;
        to.axisOrder = from.axisOrder;
        to.spectrum = from.spectrum;
        to.kernelSize = from.kernelSize;
        to.kernelExtent = from.kernelExtent;
        to.kernelFile = from.kernelFile;
        to.aperture = from.aperture;
        to.airyRadiusTexels = from.airyRadiusTexels;
    }

    /// How large the kernel appears: native, pixels across, or a fraction of the frame's diagonal.
    void drawKernelExtent(Settings& e)
    {
        static_assert(int(KernelScaleUnit::Pixels) == FFTB_KERNEL_SCALE_PIXELS &&
                      int(KernelScaleUnit::FrameDiagonal) == FFTB_KERNEL_SCALE_FRAME_DIAGONAL);
        const double diagonal = std::max(std::hypot(double(input_.width), double(input_.height)), 1.0);
        int unit = int(e.kernelExtent.unit);
        if (ImGui::Combo("Extent", &unit, kKernelExtentNames, 3) && unit != int(e.kernelExtent.unit))
        {
            // The new unit starts at the kernel's native span, so switching alone changes nothing on screen.
            e.kernelExtent.unit = KernelScaleUnit(unit);
            e.kernelExtent.value =
                float(e.kernelExtent.unit == KernelScaleUnit::FrameDiagonal ? e.kernelSize / diagonal : e.kernelSize);
        }
        const ImGuiSliderFlags flags = ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp;
        if (e.kernelExtent.unit == KernelScaleUnit::Pixels)
            ImGui::SliderFloat("Pixels", &e.kernelExtent.value, 1.0f, float(kMaxKernelSize), "%.0f across", flags);
        else if (e.kernelExtent.unit == KernelScaleUnit::FrameDiagonal)
            ImGui::SliderFloat("Of diagonal", &e.kernelExtent.value, 0.001f, float(kMaxKernelSize / diagonal), "%.3f",
                               flags);
        const KernelScale applied = appliedExtent(e, nodes_[editB_ ? 1 : 0].applied);
        if (!e.kernelExtent.native() && applied.native())
            ImGui::TextDisabled("the exact spectrum is not scaled: native");
        else if (applied.unit != e.kernelExtent.unit)
            ImGui::TextDisabled("clamped to %d pixels, the largest kernel extent", kMaxKernelSize);
    }

    void drawPlan()
    {
        PlanRequest request;
        request.imageWidth = input_.width;
        request.imageHeight = input_.height;
        const Settings& e = edited();
        const KernelKey& applied = nodes_[editB_ ? 1 : 0].applied;
        request.kernelWidth = request.kernelHeight = uint32_t(applied.size);
        request.padding = Padding(e.padding);
        request.spectrum = SpectrumMode(applied.spectrum);
        request.kernelScale = appliedExtent(e, applied);
        Plan plan, xFirst, yFirst;
        std::string error;
        request.axisOrder = AxisOrder(e.axisOrder);
        if (!makePlan(request, &plan, &error))
        {
            ImGui::TextWrapped("plan: %s", error.c_str());
            return;
        }
        auto axisText = [](const Plan& p)
        {
            return std::string(p.firstAxisIsX ? "x" : "y") + " first: N " + std::to_string(p.first.paddedLength) +
                   " x " + std::to_string(p.second.paddedLength);
        };
        ImGui::Text("Plan: %s", axisText(plan).c_str());
        if (!request.kernelScale.native())
            ImGui::TextDisabled("kernel %u x %u pixels on the frame (x%.3g)",
                                plan.firstAxisIsX ? plan.first.scaledKernelLength : plan.second.scaledKernelLength,
                                plan.firstAxisIsX ? plan.second.scaledKernelLength : plan.first.scaledKernelLength,
                                plan.kernelScale);
        request.axisOrder = AxisOrder::XFirst;
        const bool haveX = makePlan(request, &xFirst, &error);
        request.axisOrder = AxisOrder::YFirst;
        const bool haveY = makePlan(request, &yFirst, &error);
        if (haveX && haveY)
        {
            const double cx = costOf(xFirst.first, xFirst.second), cy = costOf(yFirst.first, yFirst.second);
            if (e.axisOrder == 0)
                ImGui::TextWrapped("auto picked %s first: modelled cost %.3g against %.3g for %s first "
                                   "(FFT lines x length cost, plus texels moved)",
                                   plan.firstAxisIsX ? "x" : "y", plan.firstAxisIsX ? cx : cy,
                                   plan.firstAxisIsX ? cy : cx, plan.firstAxisIsX ? "y" : "x");
            else
                ImGui::TextDisabled("cost: x first %.3g, y first %.3g", cx, cy);
        }
    }

    void drawTimings()
    {
        if (!wd_.timestamps())
        {
            ImGui::TextDisabled("this queue has no timestamps");
            return;
        }
        if (timings_.empty())
            return;
        std::array<double, 5> mean{};
        for (const auto& t : timings_)
            for (size_t i = 0; i < mean.size(); ++i)
                mean[i] += t[i] / double(timings_.size());
        const char* names[] = {"1 first-axis FFT", "2 second axis: FFT, product, inverse",
                               "3 first-axis inverse, composite", "bloom total", "display pass"};
        // The default font is fixed-width: columns by padding.
        for (size_t i = 0; i < mean.size(); ++i)
            ImGui::Text("%-36s %9.3f ms", names[i], mean[i]);
        ImGui::TextDisabled("%-36s %9.3f ms", "kernel spectrum (last computed)", spectrumTimeMs_);
        ImGui::TextDisabled("mean of the last %zu blooms; %s", timings_.size(), wd_.properties().deviceName);
    }

    WindowDevice& wd_;
    const ViewerOptions& options_;
    Settings settings_;
    std::string message_;     // shown in the UI: the last failure
    std::string notice_;      // shown in the UI: what was done to the scene on loading
    std::string pendingLoad_; // a dropped file, opened at the start of the next frame
    std::string sceneName_;

    Settings settingsB_;
    std::array<BloomNode, 2> nodes_; // A, B
    bool editB_ = false;             // the bloom and kernel controls edit B

    GpuImage input_;
    GpuImage kernelView_; // the kernel or its spectrum, log scale, as display values
    bool kernelViewStale_ = true;
    View kernelViewShows_ = View::Kernel;
    std::future<Texels> kernelJob_; // a kernel being generated or loaded on a worker thread
    size_t kernelJobNode_ = 0;
    KernelKey kernelJobKey_;
    GpuImage saveTarget_; // the tonemapped output at the scene's extent, for the PNG
    GpuImage display_;
    GpuBuffer readback_;
    VkSampler sampler_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout displaySetLayout_ = VK_NULL_HANDLE;
    VkDescriptorPool displayPool_ = VK_NULL_HANDLE;
    std::array<VkDescriptorSet, kSetCount> displaySets_{};
    VkPipelineLayout displayLayout_ = VK_NULL_HANDLE;
    VkPipeline displayPipeline_ = VK_NULL_HANDLE;

    VkRenderPass renderPass_ = VK_NULL_HANDLE;
    VkDescriptorPool imguiPool_ = VK_NULL_HANDLE;
    std::vector<VkFramebuffer> framebuffers_;
    std::vector<VkSemaphore> renderFinished_;
    bool swapchainStale_ = false;
    bool imguiGlfw_ = false;
    bool imguiVulkan_ = false;

    VkCommandPool oneShotPool_ = VK_NULL_HANDLE;
    std::array<Frame, kFramesInFlight> frames_{};
    uint32_t frameIndex_ = 0;

    bool fit_ = true;
    uint64_t sceneGeneration_ = 0; // counts loaded scenes
    bool bloomRecorded_ = false;   // the last recorded frame recorded A's bloom
    bool draggingDivider_ = false;
    bool kernelFromFile_ = false; // the panel shows the kernel file's path rather than the PSF's parameters
    std::string kernelPath_;      // the path being typed
    float viewLeft_ = 0.0f;       // window x where the free part of the window starts (right of the panel)
    float texelsPerPixel_ = 1.0f;
    float centre_[2] = {0.0f, 0.0f};

    std::deque<std::array<double, 5>> timings_;
    double spectrumTimeMs_ = 0.0;
};

} // namespace

int runViewer(const ViewerOptions& options)
{
    WindowDevice wd(options.window);
    int code = 0;
    {
        Viewer viewer(wd, options);
        viewer.start();
        code = viewer.run();
    }
    if (options.window.validation && wd.validationMessageCount() > 0)
        throw ViewerError("validation: " + std::to_string(wd.validationMessageCount()) +
                          " message(s), the first: " + wd.firstValidationMessage());
    return code;
}

} // namespace fftb::viewer
