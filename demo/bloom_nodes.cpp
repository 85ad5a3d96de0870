// SPDX-License-Identifier: MIT
// The bloom nodes: the plugin's contexts grown to the frames and kernels, kernels made on a worker thread and handed to
// the plugin, the plans made with them, what they replace destroyed once no frame uses it.
#include "bloom_node.h"

#include "message.h"
#include "runner/context_info.h"
#include "vulkan/vulkan_device.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <future>
#include <utility>

namespace fftb::viewer
{

bool BloomNodes::createKernel(BloomNode& node, const Texels& kernel, const KernelKey& key, fftbloom::Kernel& psf)
{
    FftbKernelInfo ki = kernelInfoOf(key.bloom, kernel);
    // The eye mode's kernel is made on the GPU every frame, at the Airy radius it is created for.
    FftbKernelGeneratorInfo generator{FFTB_STRUCTURE_TYPE_KERNEL_GENERATOR_INFO};
    generator.airyRadiusTexels = key.generatorAiryRadius;
    if (key.animated())
        ki.pNext = &generator;
    if (const FftbResult r = node.context.createKernel(ki, psf, std::nothrow); r != FFTB_SUCCESS)
    {
        throwIfDeviceLost(node, r, "fftbCreateKernel");
        message_ = std::string("fftbCreateKernel: ") + fftbResultToString(r) + " (" + node.pluginMessage + ")";
        return false;
    }
    return true;
}

bool BloomNodes::growContext(BloomNode& node, uint32_t w, uint32_t h, uint32_t kernelExtent, const std::string& name)
{
    // The largest kernel resolution and extent seen, at least the first reservation, at most what the plugin takes
    // (larger kernels and spans are refused by fftbCreateKernel and fftbCreateBloomPlan with their reasons).
    const uint32_t k = std::min(std::max({kernelExtent, node.contextKernelExtent, kInitialKernelExtent}),
                                uint32_t(FFTB_MAX_KERNEL_LENGTH));
    if (node.context && w <= node.contextWidth && h <= node.contextHeight && k <= node.contextKernelExtent)
        return true;
    waitIdle(); // fftbResizeContext: nothing pending
    if (node.context)
    {
        FftbResizeInfo ri{FFTB_STRUCTURE_TYPE_RESIZE_INFO};
        ri.maxWidth = std::max(w, node.contextWidth);
        ri.maxHeight = std::max(h, node.contextHeight);
        ri.maxKernelResolutionWidth = ri.maxKernelResolutionHeight = k;
        if (const FftbResult r = node.context.resize(ri, std::nothrow); r != FFTB_SUCCESS)
        {
            throwIfDeviceLost(node, r, "fftbResizeContext");
            message_ = name + ": fftbResizeContext: " + fftbResultToString(r) + " (" + node.pluginMessage + ")";
            return false;
        }
        node.contextWidth = ri.maxWidth;
        node.contextHeight = ri.maxHeight;
        node.contextKernelExtent = k;
        node.plan.reset(); // before its kernel
        node.planned.reset();
        node.psf.reset();
        return node.kernel.values.empty() || createKernel(node, node.kernel, node.applied, node.psf);
    }
    fftbloom::Context created;
    FftbContextCreateInfo ci = contextCreateInfo(wd_.instance(), wd_.logical(), std::max(w, node.contextWidth),
                                                 std::max(h, node.contextHeight), k, k);
    ci.getDeviceProcAddr = trackingGetDeviceProcAddr;
    ci.messageCallback = [](FftbResult, VkResult vkResult, const char* text, void* user)
    {
        static_cast<BloomNode*>(user)->pluginMessage = text;
        static_cast<BloomNode*>(user)->pluginVkResult = vkResult;
    };
    ci.messageUserData = &node;
    if (const FftbResult r = fftbloom::Context::create(ci, created); r != FFTB_SUCCESS)
    {
        throwIfDeviceLost(node, r, "fftbCreateContext");
        message_ = name + ": fftbCreateContext: " + fftbResultToString(r) + " (" + node.pluginMessage + ")";
        return false;
    }
    node.context = std::move(created);
    node.contextWidth = ci.maxWidth;
    node.contextHeight = ci.maxHeight;
    node.contextKernelExtent = k;
    return true;
}

bool BloomNodes::growForSpan(BloomNode& node, const PlanKey& key)
{
    // The larger side of the kernel spans ceil(span) pixels; past FFTB_MAX_KERNEL_LENGTH the plugin refuses the plan.
    FftbBloomPlanCreateInfo pi = planInfoOf(key.bloom, key.width, key.height);
    uint32_t width = 0, height = 0;
    if (key.bloom.kernelSpan.native() || node.kernel.values.empty() ||
        fftbGetKernelExtent(&pi, uint32_t(node.kernel.width), uint32_t(node.kernel.height), &width, &height) !=
            FFTB_SUCCESS)
        return true; // native: the kernel's resolution, which the context holds; a span refused: the plan says why
    return growContext(node, key.width, key.height, std::max(width, height), name(node));
}

bool BloomNodes::startB(uint32_t w, uint32_t h, Settings& settingsB, float exposure)
{
    if (!growContext(nodes_[1], w, h, 0, "B") || !applyKernel(nodes_[1], settingsB, exposure))
    {
        nodes_[1] = BloomNode{};
        return false;
    }
    return true;
}

bool BloomNodes::applyKernel(BloomNode& node, Settings& settings, float exposure)
{
    const KernelKey key = kernelKeyOf(settings, exposure);
    KernelTexels kernel;
    try
    {
        kernel = !node.kernel.values.empty() && node.applied.sameTexels(key)
                     ? KernelTexels{node.kernel, node.nativeSpan}
                 : sharedKernel(node, key) ? KernelTexels{otherNode(node).kernel, otherNode(node).nativeSpan}
                                           : makeKernelTexels(key.kernel);
    }
    catch (const std::exception& e)
    {
        message_ = std::string("kernel: ") + e.what();
        revertKernelSettings(node, settings);
        return false;
    }
    return installKernel(node, settings, key, std::move(kernel));
}

void BloomNodes::updateKernels(Settings& settingsA, Settings& settingsB)
{
    if (kernelJob_.valid())
    {
        if (kernelJob_.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
            return;
        BloomNode& node = nodes_[kernelJobNode_];
        Settings& settings = kernelJobNode_ == 0 ? settingsA : settingsB;
        try
        {
            installKernel(node, settings, kernelJobKey_, kernelJob_.get());
        }
        catch (const ViewerError&)
        {
            throw;
        }
        catch (const VulkanError&)
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
        Settings& settings = i == 0 ? settingsA : settingsB;
        const KernelKey key = kernelKeyOf(settings, settingsA.exposure);
        if (!node.context || key == node.applied)
            continue;
        // A new spectrum mode, placement or eye's pupil alone: the plugin's, from the texels the node has.
        if (!node.kernel.values.empty() && node.applied.sameTexels(key))
        {
            installKernel(node, settings, key, {node.kernel, node.nativeSpan});
            continue;
        }
        if (sharedKernel(node, key))
        {
            installKernel(node, settings, key, {otherNode(node).kernel, otherNode(node).nativeSpan});
            continue;
        }
        kernelJobNode_ = i;
        kernelJobKey_ = key;
        kernelJob_ = std::async(std::launch::async, [key] { return makeKernelTexels(key.kernel); });
        return;
    }
}

void BloomNodes::finishKernels(Settings& settingsA, Settings& settingsB)
{
    for (;;)
    {
        updateKernels(settingsA, settingsB);
        if (!kernelJob_.valid())
            return;
        kernelJob_.wait();
    }
}

bool BloomNodes::sharedKernel(const BloomNode& node, const KernelKey& key)
{
    const BloomNode& other = otherNode(node);
    return !other.kernel.values.empty() && other.applied.sameTexels(key);
}

bool BloomNodes::installKernel(BloomNode& node, Settings& settings, const KernelKey& key, KernelTexels kernel)
{
    fftbloom::Kernel psf;
    const uint32_t resolution = uint32_t(std::max(kernel.texels.width, kernel.texels.height));
    if (!growContext(node, node.contextWidth, node.contextHeight, resolution, name(node)) ||
        !createKernel(node, kernel.texels, key, psf))
    {
        revertKernelSettings(node, settings);
        return false;
    }
    // The old kernel and the plan made with it, until the frames in flight that use them have completed.
    retire(std::move(node.plan), std::move(node.psf));
    node.planned.reset();
    node.psf = std::move(psf);
    node.kernel = std::move(kernel.texels);
    node.nativeSpan = kernel.nativeSpan;
    node.applied = key;
    if (!kernel.warning.empty())
    {
        message_ = "kernel: warning: " + kernel.warning;
        printMessage("fftbloom-viewer", message_);
    }
    ++kernelsInstalled_[&node == &nodes_[0] ? 0 : 1];
    return true;
}

bool BloomNodes::makePlan(BloomNode& node, const PlanKey& key)
{
    if (node.planned == key)
        return bool(node.plan);
    retire(std::move(node.plan));
    node.planned = key;
    FftbBloomPlanCreateInfo pi = planInfoOf(key.bloom, key.width, key.height);
    pi.kernel = node.psf.get();
    if (const FftbResult r = node.context.createBloomPlan(pi, node.plan, std::nothrow); r != FFTB_SUCCESS)
    {
        throwIfDeviceLost(node, r, "fftbCreateBloomPlan");
        message_ = std::string(name(node)) + ": fftbCreateBloomPlan: " + fftbResultToString(r) + " (" +
                   node.pluginMessage + ")";
        // The panel says why, and the bloom waits for other settings; a screenshot would show no bloom.
        if (throwOnRefusedPlan_)
            throw ViewerError(message_);
        return false;
    }
    return true;
}

void BloomNodes::retire(fftbloom::BloomPlan plan, fftbloom::Kernel kernel)
{
    if (plan || kernel)
        retired_.push_back({framesSubmitted_, std::move(plan), std::move(kernel)});
}

void BloomNodes::frameCompleted(uint64_t submission)
{
    framesCompleted_ = std::max(framesCompleted_, submission);
    releaseRetired();
}

void BloomNodes::releaseRetired()
{
    while (!retired_.empty() && retired_.front().afterSubmission <= framesCompleted_)
    {
        retired_.front().plan.reset(); // before its kernel
        retired_.front().kernel.reset();
        retired_.pop_front();
    }
}

void BloomNodes::waitIdle()
{
    checkVulkan(vkDeviceWaitIdle(wd_.device()), "vkDeviceWaitIdle");
    framesCompleted_ = framesSubmitted_;
    releaseRetired();
}

void BloomNodes::releaseDevice()
{
    framesCompleted_ = framesSubmitted_;
    releaseRetired();
    for (BloomNode& node : nodes_)
    {
        node.plan.reset(); // before its kernel, the kernel before its context
        node.planned.reset();
        node.psf.reset();
        node.context.reset();
        node.contextWidth = node.contextHeight = 0; // contextKernelExtent stays: a new context holds the kernel again
        node.recorded.reset();
        destroyVulkanImage(wd_.device(), node.output);
    }
}

void BloomNodes::revertKernelSettings(const BloomNode& node, Settings& settings)
{
    if (node.kernel.values.empty())
        return; // none applied yet
    settings.kernel = node.applied.kernel;
    assignKernelInfo(settings.bloom, node.applied.bloom);
}

} // namespace fftb::viewer
