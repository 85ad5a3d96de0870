// SPDX-License-Identifier: MIT
// The viewer's bloom nodes A and B (the host's BloomNode, the kernel's texels and settings, the plan, the output
// image), the kernels they are given, their views, and the count of the device memory the plugin holds.
#pragma once

#include "fftbloom/fftbloom.hpp"
#include "image/image.h"
#include "node/bloom_node.h"
#include "settings.h"
#include "settings/kernel_texels.h"
#include "vulkan/vulkan_resources.h"
#include "window_device.h"

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <deque>
#include <future>
#include <memory>
#include <optional>
#include <string>

namespace fftb::viewer
{

/// The kernel's settings as the node makes it: a change means a new fftbloom::Kernel.
struct KernelKey
{
    KernelSettings kernel;
    /// When made on the GPU (KernelSettings::madeOnGpu): the Airy radius it generates with, the pupil adapted to the
    /// exposure (FftbKernelGeneratorInfo::airyRadiusTexels: a new kernel when it changes); 0 otherwise
    float generatorAiryRadius = 0.0f;
    /// Whether the kernel is made on the GPU every frame.
    bool animated() const { return kernel.madeOnGpu(); }
    /// Whether the two make the same texels: the spectrum mode and the placement are the plugin's.
    bool sameTexels(const KernelKey& o) const { return kernel.sameTexels(o.kernel); }
    bool operator==(const KernelKey&) const = default;
};

/// The kernel settings of `s`; `exposure` (stops) is the display's, which the eye mode's pupil follows.
KernelKey kernelKeyOf(const Settings& s, float exposure);

/// The frame's extent and the plan settings: a change means another fftbloom::BloomPlan.
struct PlanKey
{
    uint32_t width = 0, height = 0;
    PlanSettings settings;
    bool operator==(const PlanKey&) const = default;
};

/// One of the viewer's bloom nodes: the host's BloomNode (the plugin's context, kernel and plans) on the current
/// device, the texels and settings of its kernel, the plan of the frame last recorded, its output image. The viewer
/// has two, A and B; B runs only in the comparison views.
struct BloomNode
{
    /// None until the node is started and after the device is destroyed.
    std::unique_ptr<fftb::BloomNode> glue;
    /// BloomNodes' submission count when `glue` was made: glue's own count is BloomNodes' less this.
    uint64_t submissionOffset = 0;
    uint32_t frameWidth = 0, frameHeight = 0; ///< the scene's extent, which the context is grown to
    KernelTexels kernel; ///< the host copy of the kernel's texels (made again on a new device), its native span
    KernelKey applied;
    /// The plan settings last asked for (makePlan): the kernel's extent on the frame the context is grown to.
    PlanSettings planSettings;
    /// glue's plan of the frame last recorded (BloomNode::plan); null while the plugin refuses `refused`.
    FftbBloomPlan plan = nullptr;
    /// The plan the plugin refused last: not asked for again until the key, the kernel or the context changes.
    std::optional<PlanKey> refused;
    VulkanImage output;

    /// Whether the node is started on the current device.
    bool started() const { return bool(glue); }

    /// What the output was last recorded from: the bloom is skipped while it stays the same (Rerun::OnChange).
    struct Recorded
    {
        uint64_t scene = 0;
        KernelKey kernel;
        PlanKey plan;
        FrameSettings frame;
        bool operator==(const Recorded&) const = default;
    };
    std::optional<Recorded> recorded;
};

/// The kernel resolution and extent on the frame (texels and pixels, both axes) a context is first made for; it grows
/// for larger kernels and spans, up to FFTB_MAX_KERNEL_LENGTH.
constexpr uint32_t kInitialKernelExtent = 1024;

/// Bloom nodes A and B as an engine would hold them: kernels generated or loaded on a worker thread and handed to each
/// node's BloomNode (which grows its context, makes the kernel and plans, and keeps what they replace until the frames
/// submitted before have completed). The output images are made by the Display.
class BloomNodes
{
  public:
    /// `message` receives the reason of each refusal (the panel shows it); with `throwOnRefusedPlan` (--screenshot),
    /// a refused plan throws ViewerError.
    BloomNodes(WindowDevice& wd, std::string& message, bool throwOnRefusedPlan)
        : wd_(wd), message_(message), throwOnRefusedPlan_(throwOnRefusedPlan)
    {
    }

    BloomNode& operator[](size_t i) { return nodes_[i]; }
    const BloomNode& operator[](size_t i) const { return nodes_[i]; }
    auto begin() { return nodes_.begin(); }
    auto end() { return nodes_.end(); }
    /// "A" or "B".
    const char* name(const BloomNode& node) const { return &node == &nodes_[0] ? "A" : "B"; }

    /// Starts `node` on the current device, or grows its context, for a w x h frame (the scene's) and makes its kernel
    /// there when it has one; false with the message set when the plugin refuses.
    bool fitNode(BloomNode& node, uint32_t w, uint32_t h);
    /// Node B's context at a w x h frame and its kernel for `settingsB`; on failure B is left unstarted.
    bool startB(uint32_t w, uint32_t h, Settings& settingsB, float exposure);
    /// Generates or loads `node`'s kernel for `settings` now and hands it to the plugin (at start, and when B
    /// starts). On failure the message is set and the previous kernel and its settings stay.
    bool applyKernel(BloomNode& node, Settings& settings, float exposure);
    /// Per frame: when a node's kernel settings changed, generates or loads the kernel on a worker thread (a large
    /// PSF takes seconds) and hands it to the plugin once ready; one at a time. The eye's pupil follows A's exposure.
    void updateKernels(Settings& settingsA, Settings& settingsB);
    /// updateKernels until no kernel is being made.
    void finishKernels(Settings& settingsA, Settings& settingsB);
    /// Whether a kernel is being generated or loaded on the worker thread, and for which node.
    bool kernelJobRunning() const { return kernelJob_.valid(); }
    size_t kernelJobNode() const { return kernelJobNode_; }
    /// Counts the kernels handed to `node`'s context by installKernel (the kernel view and the spectrum's time follow).
    uint64_t kernelsInstalled(size_t node) const { return kernelsInstalled_[node]; }
    /// Sets `node`'s plan to the one for `key` (BloomNode::plan: the context grown to the kernel's extent on the frame,
    /// the plan found among those made before or made, compiling the pipelines the context lacks). False when the
    /// plugin refuses `key` (the message set; not tried again until the key, the kernel or the context changes).
    bool makePlan(BloomNode& node, const PlanKey& key);

    /// A frame was submitted: the number of its submission, which frameCompleted is later given.
    uint64_t frameSubmitted();
    /// The frame of `submission` has completed: what the nodes retired before it is destroyed.
    void frameCompleted(uint64_t submission);
    /// vkDeviceWaitIdle: every frame has completed, and everything retired is destroyed.
    void waitIdle();
    /// Before the device is destroyed (nothing pending): every plan, kernel, context and output image destroyed; the
    /// host copies of the kernels stay, to be made again on a new device.
    void releaseDevice();

  private:
    /// Whether the other node holds the same PSF (the two often differ only in the spectrum mode).
    bool sharedKernel(const BloomNode& node, const KernelKey& key);
    /// A new kernel for `node` (the old one and its plans retired); on failure the message is set and the settings
    /// and the kernel revert.
    bool installKernel(BloomNode& node, Settings& settings, const KernelKey& key, KernelTexels kernel);
    /// Gives `node`'s glue its kernel (`node.kernel`, `node.applied`) and grows it to the node's frame; false with the
    /// message set (prefixed with the node's name) when the plugin refuses.
    bool fitKernel(BloomNode& node);
    /// Gives `node`'s glue its kernel and that kernel's far field on a `width` x `height` frame bloomed with `plan`.
    void setKernel(BloomNode& node, const fftb::PlanSettings& plan, uint32_t width, uint32_t height);
    /// Runs `action` on `node`'s glue: false with the message set (prefixed with the node's name) when it throws
    /// HostError; a lost device (VulkanError) passes through.
    template <typename Action> bool attempt(const BloomNode& node, Action action);
    static void revertKernelSettings(const BloomNode& node, Settings& settings);
    BloomNode& otherNode(const BloomNode& node) { return &node == &nodes_[0] ? nodes_[1] : nodes_[0]; }

    WindowDevice& wd_;
    std::string& message_;
    bool throwOnRefusedPlan_ = false;
    std::array<BloomNode, 2> nodes_; // A, B
    std::array<uint64_t, 2> kernelsInstalled_{};

    std::future<KernelTexels> kernelJob_; // a kernel being generated or loaded on a worker thread
    size_t kernelJobNode_ = 0;
    KernelKey kernelJobKey_;

    uint64_t framesSubmitted_ = 0; // frames submitted so far
};

/// Throws for `result`, the plugin's answer to `call` while recording on `node`: VulkanError with VK_ERROR_DEVICE_LOST
/// from a lost device, so that the viewer re-creates its device as after any other loss; ViewerError otherwise.
[[noreturn]] void failRecording(const BloomNode& node, FftbResult result, const char* call);

/// The kernel (log scale, 6 decades below its peak) or, with `spectrum`, its spectrum's magnitude (log scale, 6
/// decades below DC, DC at the centre, at the resampled mode's extent S = pow2ceil(K)) as RGBA display values.
Texels kernelViewTexels(const Texels& kernel, bool spectrum);

/// Device memory the plugin holds, counted as an engine's memory tracker would: the plugin loads its device entry
/// points through the getDeviceProcAddr it is given, and this one returns vkAllocateMemory and vkFreeMemory
/// wrappers that record each allocation's size.
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL trackingGetDeviceProcAddr(VkDevice device, const char* name);
/// The bytes the plugin holds now, allocated through trackingGetDeviceProcAddr's functions.
VkDeviceSize pluginDeviceMemoryBytes();

} // namespace fftb::viewer
