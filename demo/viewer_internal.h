// SPDX-License-Identifier: MIT
// The viewer's frame graph and UI: one class, its parts in viewer.cpp (set-up, the frame loop), viewer_device.cpp
// (the device-level objects), viewer_recovery.cpp (device loss), viewer_nodes.cpp (the scene, the bloom nodes and
// their kernels), viewer_frame.cpp (recording a frame), viewer_files.cpp (opening and saving files) and
// viewer_ui.cpp (the panel and the input).
// The bloom node uses the plugin exactly as an engine would: fftbloom::Context, fftbloom::Kernel made when the kernel
// changes, fftbloom::BloomPlan made when the frame's extent, a plan-lifetime setting or the kernel changes,
// fftbCmdBloom of the plan into the frame's command buffer with the per-frame values and timestamps chained; a
// replaced plan or kernel is destroyed once the frames in flight that use it have completed.
#pragma once

#include "bloom_node.h"
#include "display_shared.h"
#include "viewer.h"
#include "vulkan/compute_pipeline.h"
#include "vulkan/vulkan_resources.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <future>
#include <string>
#include <thread>
#include <vector>

namespace fftb::viewer
{

constexpr uint32_t kFramesInFlight = 2;
/// Queries per frame: the plugin's FFTB_TIMESTAMP_COUNT, then one after the display pass.
constexpr uint32_t kQueriesPerFrame = FFTB_TIMESTAMP_COUNT + 1;
constexpr int kTimingWindow = 60;
/// The kernel resolution and extent on the frame (texels and pixels, both axes) a context is first made for; it grows
/// for larger kernels and spans, up to FFTB_MAX_KERNEL_LENGTH.
constexpr uint32_t kInitialKernelExtent = 1024;

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
    uint64_t submission = 0; ///< the number of the submission the fence signals (Viewer::framesSubmitted_)
    VkSemaphore imageAvailable = VK_NULL_HANDLE;
    VkQueryPool queries = VK_NULL_HANDLE;
    bool queriesWritten = false;
};

/// A placeholder scene when no image could be read: point lights of a few colours on a dim gradient.
Texels placeholderScene();

class Viewer
{
  public:
    Viewer(WindowDevice& wd, const ViewerOptions& options)
        : wd_(wd), options_(options), settings_(options.settings), settingsB_(options.settingsB)
    {
    }
    /// Creates everything and loads the first image and kernel. Apart from the constructor so that the destructor
    /// releases what was made when this throws.
    void start();
    ~Viewer();
    int run();

  private:
    // ---- The frame loop (viewer.cpp) --------------------------------------------------------------------------------
    /// One pass of the frame loop: events, the screenshot mode's halfway changes, then a frame unless the window is
    /// minimized. False once the screenshot is written.
    bool step();
    /// Throws ViewerError when --screenshot is given and the swapchain images cannot be copied from.
    void checkScreenshotSupport() const;
    /// Whether the window is minimized: no area, iconified, or within --minimize's time.
    bool minimized() const;
    /// --minimize: iconifies the window and counts it as minimized for ViewerOptions::minimizeSeconds.
    void startMinimizing();
    /// --minimize, once the time is over: restores the window and reports the frame loop's passes meanwhile.
    void finishMinimizing();
    /// Resizes the window and waits (up to 5 s) until the window system has applied it, so that a screenshot taken
    /// a few frames later has the new size.
    void resizeWindow(int width, int height);

    // ---- Vulkan helpers ---------------------------------------------------------------------------------------------

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

    // ---- Set-up (viewer_device.cpp) ---------------------------------------------------------------------------------
    /// Every device-level object that does not depend on the scene: frames in flight, the display pipeline, the
    /// UI's render pass, the swapchain's framebuffers (once the window has an area) and Dear ImGui's Vulkan backend.
    void createDeviceObjects();
    /// Destroys every object made on the device, the plugin's contexts, kernels and plans and the images included, and
    /// empties their handles; the host copies (scene, kernels, settings) stay. Nothing may be pending.
    void destroyDeviceObjects();
    void createFrames();
    void createDisplayPipeline();
    void createRenderPass();
    void createSwapchainTargets();
    void destroySwapchainTargets();
    bool recreateSwapchain();
    /// Points every display set at the current images (see DisplaySet); images not made yet are stood in for.
    void updateDisplaySets();
    /// Dear ImGui's context and GLFW backend (the device-independent part, made once).
    void initImGui();
    /// Dear ImGui's Vulkan backend, its descriptor pool and font texture.
    void initImGuiVulkan();

    // ---- Device loss (viewer_recovery.cpp) --------------------------------------------------------------------------
    /// After `loss` (a VulkanError with VK_ERROR_DEVICE_LOST): every device-level object destroyed, a new device made
    /// (WindowDevice::recreateDevice), the scene and the kernels uploaded again from their host copies, and a message
    /// in the panel. Throws ViewerError, one line naming the loss and the reason, when no device can be made.
    void recoverFromDeviceLoss(const VulkanError& loss);
    /// The bloom nodes' contexts and kernels and the scene, made again from the host copies on a new device.
    void uploadHostCopies(bool withB);

    // ---- Scene input and bloom nodes (viewer_nodes.cpp) -------------------------------------------------------------
    /// fftbCreateKernel of `kernel` on `node`'s context into `psf`; false with the message set when refused.
    /// fftbCreateKernel of `kernel` with the spectrum mode and placement of `key`.
    bool createKernel(BloomNode& node, const Texels& kernel, const KernelKey& key, fftbloom::Kernel& psf);
    /// Grows `node`'s context to a w x h frame and kernels of `kernelExtent` texels and pixels on the frame
    /// (fftbResizeContext, or a new context) and remakes its kernel (an exact-mode spectrum is sized for the frames);
    /// false with the message set when the plugin refuses.
    bool growContext(BloomNode& node, uint32_t w, uint32_t h, uint32_t kernelExtent, const std::string& name);
    /// Uploads `rgba` as the scene (kept on the host too, for a device loss) and grows the bloom contexts to its
    /// extent; false (message set, the previous scene kept) when the plugin cannot bloom a frame that large.
    bool loadScene(Texels rgba, const std::string& name, const ImageLayout& layout = {});
    /// Uploads `rgba` as the input image and makes the started nodes' output images at its extent.
    void uploadScene(const Texels& rgba);
    /// The node's output image at the scene's extent, RGBA32F (read back as is when saving), left GENERAL.
    void createOutput(BloomNode& node);
    /// Starts node B (the comparison views) on first use: its context, kernel and output image.
    bool startB();
    /// Generates or loads `node`'s kernel for `settings` now and hands it to the plugin (at start, and when B
    /// starts). On failure the message is set and the previous kernel and its settings stay.
    bool applyKernel(BloomNode& node, Settings& settings);
    /// Per frame: when a node's kernel settings changed, generates or loads the kernel on a worker thread (a large
    /// PSF takes seconds) and hands it to the plugin once ready; one at a time.
    void updateKernels();
    void finishKernels();
    /// Whether the other node holds the same PSF (the two often differ only in the spectrum mode).
    bool sharedKernel(const BloomNode& node, const KernelKey& key);
    /// A new kernel for `node` (the old one and its plan retired); on failure the message is set and the settings
    /// revert.
    bool installKernel(BloomNode& node, Settings& settings, const KernelKey& key, Texels kernel);
    /// Makes `node`'s plan for `key` (fftbCreateBloomPlan, compiling the pipelines the context lacks) unless it was
    /// made for it already; the previous plan is retired. False when the plugin refuses `key` (the message set; not
    /// tried again until the key changes); with --screenshot, a refusal throws ViewerError.
    bool makePlan(BloomNode& node, const PlanKey& key);
    /// Keeps `plan` and `kernel` (either may be empty) until every frame submitted so far has completed, then
    /// destroys them, the plan first.
    void retire(fftbloom::BloomPlan plan, fftbloom::Kernel kernel = {});
    /// Destroys what was retired before the last frame known to have completed.
    void releaseRetired();
    /// vkDeviceWaitIdle: every frame has completed, and everything retired is destroyed.
    void waitIdle();
    static void revertKernelSettings(const BloomNode& node, Settings& settings);
    /// `rgba` (RGBA32F texels) uploaded into a new image, left SHADER_READ_ONLY_OPTIMAL for compute shaders.
    VulkanImage uploadTexels(const Texels& rgba);
    /// The kernel view (kernelViewTexels) of the node the controls edit, uploaded for the display pass.
    void makeKernelView();
    BloomNode& otherNode(const BloomNode& node) { return &node == &nodes_[0] ? nodes_[1] : nodes_[0]; }

    // ---- Frame (viewer_frame.cpp) -----------------------------------------------------------------------------------
    /// Records and presents one frame; false when the swapchain had to be recreated first.
    bool drawFrame(bool screenshot);
    void recordFrame(VkCommandBuffer cb, Frame& f, uint32_t imageIndex, bool screenshot);
    /// Records fftbCmdBloom of `node` with `settings` (timestamps into `queries` when given), its plan made first when
    /// the frame's extent, the kernel or a plan-lifetime setting changed. Returns false when skipped: nothing it
    /// depends on changed and the settings ask for no rerun, or the plugin refused the plan.
    bool recordBloom(VkCommandBuffer cb, BloomNode& node, const Settings& settings, VkQueryPool queries);
    /// The kernel span the plugin is given: the settings', native for an exact-mode kernel (which cannot be
    /// scaled).
    KernelSpan appliedSpan(const Settings& settings, const KernelKey& applied) const;
    /// Grows `node`'s context for the kernel's extent on the frame with `key` (growContext) when it is larger than
    /// the context holds; false with the message set when the plugin refuses.
    bool growForSpan(BloomNode& node, const PlanKey& key);
    bool bloomEveryFrame() const;
    DisplayConstants displayConstants(VkExtent2D target, VkExtent2D image) const;
    void recordDisplay(VkCommandBuffer cb, DisplaySet set, const DisplayConstants& pc);
    /// Where the image lies in the window: fitted and centred, or the user's zoom and pan.
    /// Places the shown image: fitted (the scene's data and display windows together), or the user's zoom and pan.
    void placeImage(VkExtent2D extent, DisplayConstants& pc, bool scene);
    /// The scene's data and display windows relative to the data window's first texel (its texels at 0 .. w - 1).
    std::pair<Box2i, Box2i> sceneWindows() const;
    /// Outlines the display window over the image (ImGui's background list) when it differs from the data window.
    void drawDisplayWindow();
    void readTimestamps(Frame& f);
    /// Whether B runs this frame.
    bool comparing() const
    {
        return (settings_.view == View::Split || settings_.view == View::Difference) && nodes_[1].context;
    }
    /// Window x of the A/B divider: `split` of the way across the part of the window the panel leaves free.
    float dividerX(VkExtent2D extent) const { return viewLeft_ + settings_.split * (float(extent.width) - viewLeft_); }
    /// The centre of the part of the window the panel leaves free.
    float viewCentreX(VkExtent2D extent) const { return (viewLeft_ + float(extent.width)) * 0.5f; }

    // ---- Files (viewer_files.cpp) -----------------------------------------------------------------------------------
    /// Reads `path`; on failure sets the message and keeps the previous image.
    bool loadImage(const std::string& path);
    /// Writes A's output as the last frame made it: an EXR (half floats, R, G, B, A; the scene file's data and
    /// display windows, compression and attributes, and A's settings as a settings file in the string attribute
    /// kSettingsAttribute) and a PNG through the display pass's exposure and tonemapper at the scene's extent, as
    /// <name>-bloom.exr/.png in the working folder (-2, -3, ... added rather than overwriting).
    void save();
    void writeScreenshot(const std::string& path);

    // ---- Input and UI (viewer_ui.cpp) -------------------------------------------------------------------------------
    void handleInput();
    void toggleEditB();
    /// The control panel: the scene's name and windows, then one collapsing header per function below.
    void drawUi();
    void drawSceneHeader();
    void drawViewPanel();
    /// Which of A and B the controls edit.
    void drawABPanel();
    /// The edited node's bloom settings and its plan.
    void drawBloomPanel(Settings& e);
    /// The edited node's kernel: size, span, placement, and the generated PSF's aperture or a file.
    void drawKernelPanel(Settings& e);
    void drawGeneratedPsf(Settings& e);
    /// The edited node's settings as a file both tools read, and the equivalent fftbloom command.
    void drawSettingsFilePanel(Settings& e);
    void drawTimingPanel();
    void drawKeysPanel();
    /// Copies the bloom and kernel settings (not the display ones) from `from` to `to`.
    static void copySettings(const Settings& from, Settings& to);
    /// How large the kernel appears: native, pixels across, or a fraction of the frame's diagonal.
    void drawKernelSpan(Settings& e);
    void drawPlan();
    void drawTimings();
    Settings& edited() { return editB_ ? settingsB_ : settings_; }

    WindowDevice& wd_;
    const ViewerOptions& options_;
    Settings settings_;
    std::string message_;     // shown in the UI: the last failure
    std::string notice_;      // shown in the UI: what was done to the scene on loading
    std::string pendingLoad_; // a dropped file, opened at the start of the next frame
    std::string sceneName_;
    Texels scene_;            // the scene as uploaded, kept to upload it again after a device loss
    ImageLayout sceneLayout_; // the scene file's windows, compression and attributes: kept when the output is saved
    bool showDisplayWindow_ = true;       // outline the scene's display window when it differs from its data window
    float imageOrigin_[2] = {0.0f, 0.0f}; // where the shown image's texel (0, 0) lay in the window, last frame

    Settings settingsB_;
    std::array<BloomNode, 2> nodes_; // A, B
    bool editB_ = false;             // the bloom and kernel controls edit B

    VulkanImage input_;
    VulkanImage kernelView_; // the kernel or its spectrum, log scale, as display values
    bool kernelViewStale_ = true;
    View kernelViewShows_ = View::Kernel;
    std::future<Texels> kernelJob_; // a kernel being generated or loaded on a worker thread
    size_t kernelJobNode_ = 0;
    KernelKey kernelJobKey_;
    VulkanImage saveTarget_; // the tonemapped output at the scene's extent, for the PNG
    VulkanImage display_;
    VulkanBuffer readback_;
    VkSampler sampler_ = VK_NULL_HANDLE;
    ComputePipeline displayPass_;
    VkDescriptorPool displayPool_ = VK_NULL_HANDLE;
    std::array<VkDescriptorSet, kSetCount> displaySets_{};

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
    uint64_t framesSubmitted_ = 0; // frames submitted so far
    uint64_t framesCompleted_ = 0; // of those, the last known to have completed (its fence waited for)
    /// A plan or kernel replaced while frames in flight may use it, with framesSubmitted_ when it was retired.
    struct Retired
    {
        uint64_t afterSubmission = 0;
        fftbloom::BloomPlan plan;
        fftbloom::Kernel kernel;
    };
    std::deque<Retired> retired_; // oldest first

    int frameNumber_ = 0;            // frames presented
    bool halfwayDone_ = false;       // the screenshot mode's halfway changes (--resize, --drop, --later) were made
    bool simulatedMinimize_ = false; // within --minimize
    std::atomic<bool> minimizeOver_{false}; // set by minimizeTimer_ when --minimize's time is over
    std::jthread minimizeTimer_;
    int minimizedPasses_ = 0; // passes of the frame loop while minimized
    bool fit_ = true;
    uint64_t sceneGeneration_ = 0; // counts loaded scenes
    bool bloomRecorded_ = false;   // the last recorded frame recorded A's bloom
    bool draggingDivider_ = false;
    bool kernelFromFile_ = false; // the panel shows the kernel file's path rather than the PSF's parameters
    std::string kernelPath_;      // the path being typed
    std::string settingsPath_ = "fftbloom-settings.txt"; // where the panel saves the settings
    float viewLeft_ = 0.0f; // window x where the free part of the window starts (right of the panel)
    float texelsPerPixel_ = 1.0f;
    float centre_[2] = {0.0f, 0.0f};

    std::deque<std::array<double, 5>> timings_;
    double spectrumTimeMs_ = 0.0;
};

} // namespace fftb::viewer
