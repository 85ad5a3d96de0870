// SPDX-License-Identifier: MIT
// The viewer's device-level objects and its frame: frames in flight, the scene's images, the display pass and its
// descriptor sets, the UI's render pass and Dear ImGui's Vulkan backend; recording, submitting and presenting a frame:
// bloom nodes A and B, the display pass, the blit to the swapchain, the UI, the timings (display.cpp).
#pragma once

#include "bloom_node.h"
#include "display_shared.h"
#include "panel.h"
#include "settings.h"
#include "vulkan/compute_pipeline.h"
#include "vulkan/vulkan_resources.h"
#include "window_device.h"

#include <array>
#include <cstdint>
#include <vector>

namespace fftb::viewer
{

constexpr uint32_t kFramesInFlight = 2;
/// Queries per frame: the plugin's FFTB_TIMESTAMP_COUNT, then one after the display pass.
constexpr uint32_t kQueriesPerFrame = FFTB_TIMESTAMP_COUNT + 1;

/// Display sets: which images the display pass reads (binding 0, binding 2) and writes.
enum DisplaySet
{
    kSetBloom,  ///< A's output, B's output (A's while B is not started) -> the window
    kSetInput,  ///< the input frame -> the window
    kSetKernel, ///< the kernel view image -> the window
    kSetSave,   ///< A's output -> the image-sized save target
    kSetCount
};

/// A frame in flight: its command buffer, the fence of its submission, its timestamps.
struct Frame
{
    VkCommandPool pool = VK_NULL_HANDLE;
    VkCommandBuffer commandBuffer = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    uint64_t submission = 0; ///< the number of the submission the fence signals (BloomNodes::frameSubmitted)
    VkSemaphore imageAvailable = VK_NULL_HANDLE;
    VkQueryPool queries = VK_NULL_HANDLE;
    bool queriesWritten = false;
};

/// What an output saved is made of: A's output as the last frame made it, and through the display pass's exposure and
/// tonemapper, at the scene's extent.
struct SavedOutput
{
    uint32_t width = 0, height = 0;
    std::vector<float> rgba;         ///< A's output, RGBA32F
    std::vector<unsigned char> srgb; ///< tonemapped, sRGB-encoded RGBA8
    FrameSettings frame;             ///< what A's output was recorded with (its output mode: the bloom view's)
};

/// The viewer's state that the display reads and records, by reference for one call (the viewer makes it each time).
struct DisplayFrame
{
    const Settings& settings;  ///< A's, and the display's
    const Settings& settingsB; ///< B's bloom and kernel
    BloomNodes& nodes;
    const Scene& scene;
    Placement& place;
    GpuTimings& timings;
};

/// The device-level objects and the frame. It keeps the objects it makes; the settings, the scene and the bloom nodes
/// come with each call: it records the nodes' blooms, places the image (Placement) and records the GPU timings.
class Display
{
  public:
    explicit Display(WindowDevice& wd) : wd_(wd) {}

    /// Every device-level object that does not depend on the scene: frames in flight, the display pipeline, the
    /// UI's render pass, the swapchain's framebuffers (once the window has an area) and Dear ImGui's Vulkan backend.
    void createDeviceObjects(const DisplayFrame& state);
    /// Destroys every object made on the device, the plugin's contexts, kernels and plans and the images included, and
    /// empties their handles; the host copies (scene, kernels, settings) stay. Nothing may be pending.
    void destroyDeviceObjects(const DisplayFrame& state);
    bool recreateSwapchain(const DisplayFrame& state);
    /// Points every display set at the current images (see DisplaySet); images not made yet are stood in for.
    void updateDisplaySets(const DisplayFrame& state);

    /// Uploads `rgba` as the input image and makes the started nodes' output images at its extent.
    void uploadScene(const DisplayFrame& state, const Texels& rgba);
    /// The node's output image at the scene's extent, RGBA32F (read back as is when saving), left GENERAL.
    void createOutput(BloomNode& node);
    /// `texels` (kernelViewTexels) uploaded as the kernel view the display pass shows.
    void setKernelView(const DisplayFrame& state, const Texels& texels);
    /// The OpenColorIO display transform the display pass reads (OcioDisplay::lut, `size` nodes an axis, RGBA32F),
    /// kept to upload again when the device is made again. Nothing may be pending.
    void setDisplayLut(const DisplayFrame& state, std::vector<float> rgba, uint32_t size);
    /// Reads A's output back, as it is and through the display pass (see SavedOutput).
    SavedOutput readBackOutput(const DisplayFrame& state);
    /// The last frame recorded with `screenshot`, as presented: the swapchain's format, tightly packed.
    const VulkanBuffer& screenshot() const { return readback_; }
    /// Whether the swapchain must be recreated before the next frame.
    bool swapchainStale() const { return swapchainStale_; }

    /// Records and presents one frame (`frameNumber` seeds the eye mode's particles; with `screenshot`, the presented
    /// image is read back); false when the swapchain had to be recreated first.
    bool drawFrame(const DisplayFrame& state, bool screenshot, int frameNumber);

  private:
    void createFrames();
    void createDisplayPipeline();
    void createRenderPass();
    void createSwapchainTargets(const DisplayFrame& state);
    void destroySwapchainTargets();
    /// Dear ImGui's Vulkan backend, its descriptor pool and font texture.
    void initImGuiVulkan();
    /// `rgba` (RGBA32F texels) uploaded into a new image, left SHADER_READ_ONLY_OPTIMAL for compute shaders.
    VulkanImage uploadTexels(const Texels& rgba);
    /// The LUT's texels (setDisplayLut) uploaded into lut_, left SHADER_READ_ONLY_OPTIMAL.
    void uploadLut();
    void recordFrame(const DisplayFrame& state, VkCommandBuffer cb, Frame& f, uint32_t imageIndex, bool screenshot);
    /// Records fftbCmdBloom of `node` with `settings` (timestamps into `queries` when given), its plan made first when
    /// the frame's extent, the kernel or a plan-lifetime setting changed. Returns false when skipped: nothing it
    /// depends on changed and the settings ask for no rerun, or the plugin refused the plan.
    bool recordBloom(const DisplayFrame& state, VkCommandBuffer cb, BloomNode& node, const Settings& settings,
                     VkQueryPool queries);
    DisplayConstants displayConstants(const DisplayFrame& state, VkExtent2D target, VkExtent2D image) const;
    void recordDisplay(VkCommandBuffer cb, DisplaySet set, const DisplayConstants& pc);
    /// Places the shown image: fitted (the scene's data and display windows together), or the user's zoom and pan.
    void placeImage(const DisplayFrame& state, VkExtent2D extent, DisplayConstants& pc, bool scene);
    void readTimestamps(const DisplayFrame& state, Frame& f);
    /// Whether B runs this frame.
    static bool comparing(const DisplayFrame& state)
    {
        return (state.settings.view == View::Split || state.settings.view == View::Difference) &&
               state.nodes[1].started();
    }

    VulkanImage createImage(uint32_t width, uint32_t height, VkFormat format, VkImageUsageFlags usage)
    {
        return createVulkanImage(wd_.physicalDevice(), wd_.device(), width, height, format, usage);
    }
    VulkanBuffer createHostBuffer(VkDeviceSize sizeBytes, VkBufferUsageFlags usage)
    {
        return createVulkanBuffer(wd_.physicalDevice(), wd_.device(), sizeBytes, usage, true);
    }
    void destroy(VulkanImage& img) { destroyVulkanImage(wd_.device(), img); }
    void destroy(VulkanBuffer& b) { destroyVulkanBuffer(wd_.device(), b); }

    /// Records with `record` into a one-shot command buffer, submits it and waits.
    template <typename Record> void submitNow(Record record)
    {
        VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        cai.commandPool = oneShotPool_;
        cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        cai.commandBufferCount = 1;
        VkCommandBuffer cb = VK_NULL_HANDLE;
        checkVulkan(vkAllocateCommandBuffers(wd_.device(), &cai, &cb), "vkAllocateCommandBuffers");
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
        checkVulkan(r, "vkQueueSubmit");
    }

    WindowDevice& wd_;
    int frameNumber_ = 0; // of the frame being recorded: the eye mode's seed follows it

    VulkanImage input_;
    VulkanImage kernelView_;            // the kernel or its spectrum, log scale, as display values
    uint64_t spectrumTimeInstalls_ = 0; // A's BloomNodes::kernelsInstalled when timings_.spectrumMs was last reset
    VulkanImage saveTarget_;            // the tonemapped output at the scene's extent, for the PNG
    VulkanImage display_;
    VulkanBuffer readback_;
    VkSampler sampler_ = VK_NULL_HANDLE;
    VulkanImage lut_;              // the OpenColorIO display transform, 3D
    std::vector<float> lutTexels_; // its texels: empty without a config
    uint32_t lutSize_ = 0;         // nodes an axis
    VkSampler lutSampler_ = VK_NULL_HANDLE;
    ComputePipeline displayPass_;
    VkDescriptorPool displayPool_ = VK_NULL_HANDLE;
    std::array<VkDescriptorSet, kSetCount> displaySets_{};

    VkRenderPass renderPass_ = VK_NULL_HANDLE;
    VkDescriptorPool imguiPool_ = VK_NULL_HANDLE;
    std::vector<VkFramebuffer> framebuffers_;
    std::vector<VkSemaphore> renderFinished_;
    bool swapchainStale_ = false;
    bool imguiVulkan_ = false;

    VkCommandPool oneShotPool_ = VK_NULL_HANDLE;
    std::array<Frame, kFramesInFlight> frames_{};
    uint32_t frameIndex_ = 0;
    bool bloomRecorded_ = false; // the last recorded frame recorded A's bloom
};

} // namespace fftb::viewer
