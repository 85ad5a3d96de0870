// SPDX-License-Identifier: MIT
// The bloom nodes: kernels made on a worker thread and handed to each node's BloomNode, the plans made with them.
#include "bloom_node.h"

#include "message.h"
#include "vulkan/vulkan_device.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <future>
#include <optional>
#include <utility>

namespace fftb::viewer
{

namespace
{

/// Texels a node holds, given again (to the other node, or with another spectrum mode): their warning was shown.
KernelTexels reused(KernelTexels kernel)
{
    kernel.warning.clear();
    return kernel;
}

} // namespace

template <typename Action> bool BloomNodes::attempt(const BloomNode& node, Action action)
{
    try
    {
        action();
        return true;
    }
    catch (const VulkanError&)
    {
        throw; // a lost device: the viewer makes a new one
    }
    catch (const HostError& e)
    {
        message_ = std::string(name(node)) + ": " + e.what();
        return false;
    }
}

bool BloomNodes::fitNode(BloomNode& node, uint32_t w, uint32_t h)
{
    if (!node.glue)
    {
        BloomNodeInfo info{wd_.instance(), wd_.logical()};
        info.getDeviceProcAddr = trackingGetDeviceProcAddr;
        info.minKernelExtent = kInitialKernelExtent;
        info.waitIdle = [this] { waitIdle(); };
        node.glue = std::make_unique<fftb::BloomNode>(std::move(info));
        node.submissionOffset = framesSubmitted_;
    }
    node.frameWidth = w;
    node.frameHeight = h;
    node.plan = nullptr; // a context grown destroys its plans
    node.refused.reset();
    // No kernel yet: the context is made with the first.
    return node.kernel.texels.values.empty() || fitKernel(node);
}

void BloomNodes::setKernel(BloomNode& node, const fftb::PlanSettings& plan, uint32_t width, uint32_t height)
{
    // The glare's far field is made for the frame's extent and the plan's span (farFieldOn).
    node.glue->setKernel(
        node.kernel.texels, node.applied.kernel,
        node.applied.animated() ? std::optional(node.applied.generatorAiryRadius) : std::nullopt,
        fftb::farFieldOn(node.applied.kernel, node.kernel.generated, node.kernel.texels.width, plan, width, height));
}

bool BloomNodes::fitKernel(BloomNode& node)
{
    return attempt(node,
                   [&]
                   {
                       setKernel(node, node.planSettings, node.frameWidth, node.frameHeight);
                       node.glue->fit(node.frameWidth, node.frameHeight, node.planSettings);
                   });
}

bool BloomNodes::startB(uint32_t w, uint32_t h, Settings& settingsB, float exposure)
{
    if (!fitNode(nodes_[1], w, h) || !applyKernel(nodes_[1], settingsB, exposure))
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
        kernel = !node.kernel.texels.values.empty() && node.applied.sameTexels(key) ? reused(node.kernel)
                 : sharedKernel(node, key)                                          ? reused(otherNode(node).kernel)
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
        if (!node.glue || key == node.applied)
            continue;
        // A new spectrum mode, placement or eye's pupil alone: the plugin's, from the texels the node has.
        if (!node.kernel.texels.values.empty() && node.applied.sameTexels(key))
        {
            installKernel(node, settings, key, reused(node.kernel));
            continue;
        }
        if (sharedKernel(node, key))
        {
            installKernel(node, settings, key, reused(otherNode(node).kernel));
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
    return !other.kernel.texels.values.empty() && other.applied.sameTexels(key);
}

bool BloomNodes::installKernel(BloomNode& node, Settings& settings, const KernelKey& key, KernelTexels kernel)
{
    // The glue keeps the old kernel and the plans made with it until the frames in flight that use them have
    // completed.
    node.plan = nullptr; // the glue's plans are of the kernel it had
    node.refused.reset();
    KernelTexels previous = std::exchange(node.kernel, std::move(kernel));
    const KernelKey applied = std::exchange(node.applied, key);
    if (!fitKernel(node))
    {
        const std::string reason = message_;
        node.kernel = std::move(previous);
        node.applied = applied;
        if (!node.kernel.texels.values.empty())
            fitKernel(node); // the previous kernel again, which the plugin took before
        message_ = reason;
        revertKernelSettings(node, settings);
        return false;
    }
    if (!node.kernel.warning.empty())
    {
        message_ = "kernel: warning: " + node.kernel.warning;
        printMessage("fftbloom-viewer", message_);
    }
    ++kernelsInstalled_[&node == &nodes_[0] ? 0 : 1];
    return true;
}

bool BloomNodes::makePlan(BloomNode& node, const PlanKey& key)
{
    node.plan = nullptr;
    if (node.refused == key)
        return false;
    node.planSettings = key.settings;
    if (attempt(node,
                [&]
                {
                    setKernel(node, key.settings, key.width, key.height);
                    node.plan = node.glue->plan(key.width, key.height, key.settings);
                }))
        return true;
    node.refused = key;
    // The panel says why, and the bloom waits for other settings; a screenshot would show no bloom.
    if (throwOnRefusedPlan_)
        throw ViewerError(message_);
    return false;
}

uint64_t BloomNodes::frameSubmitted()
{
    for (BloomNode& node : nodes_)
        if (node.glue)
            node.glue->submitted();
    return ++framesSubmitted_;
}

void BloomNodes::frameCompleted(uint64_t submission)
{
    for (BloomNode& node : nodes_)
        if (node.glue && submission > node.submissionOffset)
            node.glue->completed(submission - node.submissionOffset);
}

void BloomNodes::waitIdle()
{
    checkVulkan(vkDeviceWaitIdle(wd_.device()), "vkDeviceWaitIdle");
    frameCompleted(framesSubmitted_);
}

void BloomNodes::releaseDevice()
{
    for (BloomNode& node : nodes_)
    {
        node.plan = nullptr;
        node.refused.reset();
        node.glue.reset(); // its plans, kernel and context
        node.recorded.reset();
        destroyVulkanImage(wd_.device(), node.output);
    }
}

void BloomNodes::revertKernelSettings(const BloomNode& node, Settings& settings)
{
    if (node.kernel.texels.values.empty())
        return; // none applied yet
    settings.bloom.kernel = node.applied.kernel;
}

} // namespace fftb::viewer
