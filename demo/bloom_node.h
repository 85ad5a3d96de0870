// SPDX-License-Identifier: MIT
// The viewer's bloom node as an engine would hold it (the plugin's context, the kernel it was given, the plan made
// with it, the output image), the kernels it is given, their views, and the count of the device memory the plugin
// holds.
#pragma once

#include "fftbloom/fftbloom.hpp"
#include "image/image.h"
#include "settings.h"
#include "vulkan/vulkan_resources.h"

#include <vulkan/vulkan.h>

#include <array>

#include <cstdint>
#include <optional>
#include <string>

namespace fftb::viewer
{

/// The kernel-lifetime part of the settings: a change means a new fftbloom::Kernel.
struct KernelKey
{
    KernelSettings kernel; ///< what the texels are made of
    BloomSettings bloom;   ///< what the plugin makes of them (kernelInfoOf); only its kernel-lifetime values are read
    /// When made on the GPU (KernelSettings::madeOnGpu): the Airy radius it generates with, the pupil adapted to the
    /// exposure (FftbKernelGeneratorInfo::airyRadiusTexels: a new kernel when it changes); 0 otherwise
    float generatorAiryRadius = 0.0f;
    /// Whether the kernel is made on the GPU every frame.
    bool animated() const { return kernel.madeOnGpu(); }
    /// Whether the two make the same texels: the spectrum mode and the placement are the plugin's.
    bool sameTexels(const KernelKey& o) const { return kernel == o.kernel; }
    bool operator==(const KernelKey& o) const
    {
        return sameTexels(o) && sameKernelInfo(bloom, o.bloom) && generatorAiryRadius == o.generatorAiryRadius;
    }
};

/// The kernel settings of `s`; `exposure` (stops) is the display's, which the eye mode's pupil follows.
KernelKey kernelKeyOf(const Settings& s, float exposure);

/// The plan-lifetime part of the settings and the frame's extent: a change means a new fftbloom::BloomPlan. A new
/// kernel means one too (the plan is made with it).
struct PlanKey
{
    uint32_t width = 0, height = 0;
    /// read for its plan-lifetime values (planInfoOf), the kernel span as given to the plugin (Viewer::appliedSpan)
    BloomSettings bloom;
    bool operator==(const PlanKey& o) const
    {
        return width == o.width && height == o.height && samePlanInfo(bloom, o.bloom);
    }
};

/// One bloom node as an engine would hold it: the plugin's context, the kernel it was given, the plan made with them,
/// its output image. The viewer has two, A and B; B runs only in the comparison views.
struct BloomNode
{
    fftbloom::Context context;
    uint32_t contextWidth = 0;
    uint32_t contextHeight = 0;
    uint32_t contextKernelExtent = 0; ///< the context's largest kernel resolution and extent on the frame, both axes
    Texels kernel;
    fftbloom::Kernel psf; ///< `kernel` made on `context` (fftbCreateKernel)
    KernelKey applied;
    /// Made with `psf` for `planned` (fftbCreateBloomPlan) when it is first needed, kept while neither changes; none
    /// while the plugin refuses `planned`.
    fftbloom::BloomPlan plan;
    std::optional<PlanKey> planned;
    VulkanImage output;
    std::string pluginMessage;            ///< the message callback's last text
    VkResult pluginVkResult = VK_SUCCESS; ///< and the VkResult it named

    /// What the output was last recorded from: the bloom is skipped while it stays the same (Rerun::OnChange).
    struct Recorded
    {
        uint64_t scene = 0;
        KernelKey kernel;
        PlanKey plan;
        BloomSettings bloom; ///< read for its per-frame values (bloomInfoOf)
        bool operator==(const Recorded& o) const
        {
            return scene == o.scene && kernel == o.kernel && plan == o.plan && sameBloomInfo(bloom, o.bloom);
        }
    };
    std::optional<Recorded> recorded;
};

/// Throws VulkanError with VK_ERROR_DEVICE_LOST when `result`, the plugin's answer to `call` on `node`, comes from
/// a lost device (FFTB_ERROR_VULKAN with that VkResult in the message callback), so that the viewer re-creates
/// its device as after any other loss.
void throwIfDeviceLost(const BloomNode& node, FftbResult result, const char* call);

/// The kernel's RGB texels for the settings: the file resampled, or the generated PSF at the next power of two in
/// the generator's range, resampled to the size asked for, as the CLI's default (fftb::defaultPsf).
Texels makeKernel(const KernelKey& key);

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
