// SPDX-License-Identifier: MIT
// The scene input and the bloom nodes: the plugin's contexts grown to the scene, kernels made on a worker thread and
// handed to the plugin, the plans made with them, what they replace destroyed once no frame uses it, the kernel
// views.
#include "viewer_internal.h"

#include "runner/context_info.h"
#include "vulkan/vulkan_device.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <future>
#include <utility>

namespace fftb::viewer
{

bool Viewer::createKernel(BloomNode& node, const Texels& kernel, const KernelKey& key, fftbloom::Kernel& psf)
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

bool Viewer::growContext(BloomNode& node, uint32_t w, uint32_t h, uint32_t kernelExtent, const std::string& name)
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

bool Viewer::loadScene(Texels rgba, const std::string& name, const ImageLayout& layout)
{
    const uint32_t w = uint32_t(rgba.width), h = uint32_t(rgba.height);
    waitIdle();
    if (!growContext(nodes_[0], w, h, 0, name) || (nodes_[1].context && !growContext(nodes_[1], w, h, 0, name)))
        return false;

    uploadScene(rgba);
    scene_ = std::move(rgba);
    sceneLayout_ = layout;
    sceneName_ = name;
    ++sceneGeneration_;
    glfwSetWindowTitle(wd_.window(), ("fftbloom-viewer: " + std::filesystem::path(name).filename().string()).c_str());
    message_.clear();
    notice_.clear();
    fit_ = true;
    return true;
}

void Viewer::uploadScene(const Texels& rgba)
{
    destroy(input_);
    input_ = uploadTexels(rgba);
    for (BloomNode& node : nodes_)
        if (node.context)
            createOutput(node);
    updateDisplaySets();
}

void Viewer::createOutput(BloomNode& node)
{
    destroy(node.output);
    node.output =
        createImage(input_.width, input_.height, VK_FORMAT_R32G32B32A32_SFLOAT,
                    VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    submitNow([&](VkCommandBuffer cb) { VulkanDevice::prepareComputeOutput(cb, node.output.image); });
}

bool Viewer::startB()
{
    if (nodes_[1].context)
        return true;
    if (!growContext(nodes_[1], input_.width, input_.height, 0, "B") || !applyKernel(nodes_[1], settingsB_))
    {
        nodes_[1] = BloomNode{};
        return false;
    }
    waitIdle();
    createOutput(nodes_[1]);
    updateDisplaySets();
    return true;
}

bool Viewer::applyKernel(BloomNode& node, Settings& settings)
{
    const KernelKey key = kernelKeyOf(settings, settings_.exposure);
    Texels kernel;
    try
    {
        kernel = !node.kernel.values.empty() && node.applied.sameTexels(key) ? node.kernel
                 : sharedKernel(node, key)                                   ? otherNode(node).kernel
                                                                             : makeKernel(key);
    }
    catch (const std::exception& e)
    {
        message_ = std::string("kernel: ") + e.what();
        revertKernelSettings(node, settings);
        return false;
    }
    return installKernel(node, settings, key, std::move(kernel));
}

void Viewer::updateKernels()
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
        Settings& settings = i == 0 ? settings_ : settingsB_;
        const KernelKey key = kernelKeyOf(settings, settings_.exposure);
        if (!node.context || key == node.applied)
            continue;
        // A new spectrum mode, placement or eye's pupil alone: the plugin's, from the texels the node has.
        if (!node.kernel.values.empty() && node.applied.sameTexels(key))
        {
            installKernel(node, settings, key, Texels(node.kernel));
            continue;
        }
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

void Viewer::finishKernels()
{
    for (;;)
    {
        updateKernels();
        if (!kernelJob_.valid())
            return;
        kernelJob_.wait();
    }
}

bool Viewer::sharedKernel(const BloomNode& node, const KernelKey& key)
{
    const BloomNode& other = otherNode(node);
    return !other.kernel.values.empty() && other.applied.sameTexels(key);
}

bool Viewer::installKernel(BloomNode& node, Settings& settings, const KernelKey& key, Texels kernel)
{
    fftbloom::Kernel psf;
    const uint32_t resolution = uint32_t(std::max(kernel.width, kernel.height));
    if (!growContext(node, node.contextWidth, node.contextHeight, resolution, &node == &nodes_[0] ? "A" : "B") ||
        !createKernel(node, kernel, key, psf))
    {
        revertKernelSettings(node, settings);
        return false;
    }
    // The old kernel and the plan made with it, until the frames in flight that use them have completed.
    retire(std::move(node.plan), std::move(node.psf));
    node.planned.reset();
    node.psf = std::move(psf);
    node.kernel = std::move(kernel);
    node.applied = key;
    kernelViewStale_ = true;
    if (&node == &nodes_[0])
        spectrumTimeMs_ = 0.0;
    return true;
}

bool Viewer::makePlan(BloomNode& node, const PlanKey& key)
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
        message_ = std::string(&node == &nodes_[0] ? "A" : "B") + ": fftbCreateBloomPlan: " + fftbResultToString(r) +
                   " (" + node.pluginMessage + ")";
        // The panel says why, and the bloom waits for other settings; a screenshot would show no bloom.
        if (!options_.screenshotPath.empty())
            throw ViewerError(message_);
        return false;
    }
    return true;
}

void Viewer::retire(fftbloom::BloomPlan plan, fftbloom::Kernel kernel)
{
    if (plan || kernel)
        retired_.push_back({framesSubmitted_, std::move(plan), std::move(kernel)});
}

void Viewer::releaseRetired()
{
    while (!retired_.empty() && retired_.front().afterSubmission <= framesCompleted_)
    {
        retired_.front().plan.reset(); // before its kernel
        retired_.front().kernel.reset();
        retired_.pop_front();
    }
}

void Viewer::waitIdle()
{
    checkVulkan(vkDeviceWaitIdle(wd_.device()), "vkDeviceWaitIdle");
    framesCompleted_ = framesSubmitted_;
    releaseRetired();
}

void Viewer::revertKernelSettings(const BloomNode& node, Settings& settings)
{
    if (node.kernel.values.empty())
        return; // none applied yet
    settings.kernel = node.applied.kernel;
    assignKernelInfo(settings.bloom, node.applied.bloom);
}

VulkanImage Viewer::uploadTexels(const Texels& rgba)
{
    VulkanImage image = createImage(uint32_t(rgba.width), uint32_t(rgba.height), VK_FORMAT_R32G32B32A32_SFLOAT,
                                    VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    VulkanBuffer staging =
        createHostBuffer(VkDeviceSize(rgba.values.size() * sizeof(float)), VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    std::memcpy(staging.mapped, rgba.values.data(), rgba.values.size() * sizeof(float));
    submitNow([&](VkCommandBuffer cb)
              { VulkanDevice::uploadForCompute(cb, staging.buffer, image.image, image.width, image.height); });
    destroy(staging);
    return image;
}

void Viewer::makeKernelView()
{
    const Texels view =
        kernelViewTexels(nodes_[editB_ && nodes_[1].context ? 1 : 0].kernel, settings_.view == View::Spectrum);
    waitIdle();
    destroy(kernelView_);
    kernelView_ = uploadTexels(view);
    updateDisplaySets();
    kernelViewStale_ = false;
    kernelViewShows_ = settings_.view;
    fit_ = true;
}

} // namespace fftb::viewer
