// SPDX-License-Identifier: MIT
// The context grown to the frames and kernels, the kernel and plans made on it, and what they replace retired.
#include "node/bloom_node.h"

#include "node/context_info.h"
#include "settings/kernel_span.h"
#include "vulkan/vulkan_resources.h"

#include <algorithm>
#include <cstring>

namespace fftb
{

namespace
{

/// Plans kept for the extents and settings seen last.
constexpr std::size_t kMaxPlans = 8;

} // namespace

std::pair<uint32_t, uint32_t> kernelExtentOnFrame(const PlanSettings& plan, uint32_t width, uint32_t height,
                                                  uint32_t kernelWidth, uint32_t kernelHeight)
{
    const FftbBloomPlanCreateInfo info = planInfoOf(plan, width, height);
    uint32_t extent[2] = {kernelWidth, kernelHeight};
    if (fftbGetKernelExtent(&info, kernelWidth, kernelHeight, &extent[0], &extent[1]) != FFTB_SUCCESS)
        return {kernelWidth, kernelHeight};
    if (extent[0] > FFTB_MAX_KERNEL_LENGTH || extent[1] > FFTB_MAX_KERNEL_LENGTH)
        throw FrameRefused(FFTB_ERROR_DEVICE_LIMIT,
                           "kernel scale " + kernelSpanText(plan.kernelSpan) + ": the kernel's extent on the frame " +
                               std::to_string(extent[0]) + "x" + std::to_string(extent[1]) + " is past " +
                               std::to_string(FFTB_MAX_KERNEL_LENGTH) + " pixels (FFTB_MAX_KERNEL_LENGTH)");
    return {std::max(extent[0], kernelWidth), std::max(extent[1], kernelHeight)};
}

FftbFarFieldInfo farFieldInfoOf(const FarField& far, FftbKernel kernel)
{
    FftbFarFieldInfo info{FFTB_STRUCTURE_TYPE_FAR_FIELD_INFO};
    info.kernel = kernel;
    info.resolution = far.reduction == 8 ? FFTB_BLOOM_RESOLUTION_EIGHTH : FFTB_BLOOM_RESOLUTION_QUARTER;
    info.kernelSpanUnit = FFTB_KERNEL_SPAN_PIXELS;
    info.kernelSpan = float(far.spanPixels);
    info.weight = float(far.weight);
    return info;
}

BloomNode::BloomNode(BloomNodeInfo info) : info_(std::move(info))
{
    if (!info_.waitIdle)
        throw HostError("BloomNodeInfo::waitIdle is required");
    info_.minKernelExtent = std::min(info_.minKernelExtent, uint32_t(FFTB_MAX_KERNEL_LENGTH));
}

BloomNode::~BloomNode()
{
    release();
}

void BloomNode::fail(FftbResult result, const char* call) const
{
    if (result == FFTB_ERROR_VULKAN && messageVkResult_ == VK_ERROR_DEVICE_LOST)
        throw VulkanError(call, VK_ERROR_DEVICE_LOST);
    const std::string reason = std::string(call) + ": " + (message_.empty() ? fftbResultToString(result) : message_);
    if (result == FFTB_ERROR_INVALID_ARGUMENT || result == FFTB_ERROR_DEVICE_LIMIT)
        throw FrameRefused(result, reason);
    throw HostError(reason);
}

void BloomNode::setKernel(const Texels& texels, const KernelSettings& settings,
                          std::optional<float> generatorAiryRadius, const FarField& farField)
{
    if (texels.components != 3)
        throw HostError("bloom: kernel must be RGB");
    if (farField.size > 0 && (farField.reduction != 4 && farField.reduction != 8))
        throw HostError("bloom: a far field is convolved at a reduction of 4 or 8, not " +
                        std::to_string(farField.reduction));
    if (texels.width == texels_.width && texels.height == texels_.height && texels.values == texels_.values &&
        settings == kernelSettings_ && generatorAiryRadius == generatorAiryRadius_ && farField == farField_)
        return;
    retireKernel();
    texels_ = texels;
    kernelSettings_ = settings;
    generatorAiryRadius_ = generatorAiryRadius;
    farField_ = farField;
}

FftbResult BloomNode::grow(const uint32_t extent[4])
{
    clearMessage();
    if (context_)
    {
        FftbResizeInfo ri{FFTB_STRUCTURE_TYPE_RESIZE_INFO};
        ri.maxWidth = extent[0];
        ri.maxHeight = extent[1];
        ri.maxKernelResolutionWidth = extent[2];
        ri.maxKernelResolutionHeight = extent[3];
        const FftbResult result = context_.resize(ri, std::nothrow);
        if (result == FFTB_SUCCESS)
            std::copy(extent, extent + 4, contextExtent_);
        return result;
    }
    FftbContextCreateInfo ci =
        contextCreateInfo(info_.instance, info_.device, extent[0], extent[1], extent[2], extent[3]);
    if (info_.getDeviceProcAddr)
        ci.getDeviceProcAddr = info_.getDeviceProcAddr;
    ci.messageCallback = [](FftbResult, VkResult vkResult, const char* text, void* user)
    {
        static_cast<BloomNode*>(user)->message_ = text;
        static_cast<BloomNode*>(user)->messageVkResult_ = vkResult;
    };
    ci.messageUserData = this;
    FftbPlannerInfo planner{FFTB_STRUCTURE_TYPE_PLANNER_INFO};
    planner.lengthPolicy = info_.lengths;
    ci.pNext = &planner;
    const FftbResult result = fftbloom::Context::create(ci, context_);
    if (result == FFTB_SUCCESS)
        std::copy(extent, extent + 4, contextExtent_);
    return result;
}

void BloomNode::fit(uint32_t width, uint32_t height, const PlanSettings& plan)
{
    if (!hasKernel())
        throw HostError("bloom: no kernel given");
    // The context's maximum kernel resolution (its maximum extent left 0: the same) holds the kernel's extent on the
    // frame too; a kernel scale the plugin refuses is named by fftbCreateBloomPlan.
    const auto [kw, kh] = kernelExtentOnFrame(plan, width, height, uint32_t(texels_.width), uint32_t(texels_.height));
    // A far field's kernel spans its own texels on the downsampled frame.
    const uint32_t far = uint32_t(farField_.size);
    const uint32_t extent[4] = {width, height, std::max({kw, far, info_.minKernelExtent}),
                                std::max({kh, far, info_.minKernelExtent})};
    bool fits = bool(context_);
    for (int i = 0; i < 4; ++i)
        fits = fits && extent[i] <= contextExtent_[i];
    if (!fits)
    {
        waitIdle(); // fftbResizeContext: nothing pending
        plans_.clear();
        kernel_.reset();
        farKernel_.reset();
        // The largest extents seen so far, unless together they are more than the plugin plans for (a 4095x1 and a
        // 1x4095 frame); then this frame's own.
        uint32_t grown[4];
        for (int i = 0; i < 4; ++i)
            grown[i] = std::max(extent[i], contextExtent_[i]);
        if (grow(grown) != FFTB_SUCCESS)
            if (const FftbResult r = grow(extent); r != FFTB_SUCCESS)
                fail(r, context_ ? "fftbResizeContext" : "fftbCreateContext");
    }
    if (!kernel_)
        makeKernel(extent);
}

void BloomNode::makeKernel(const uint32_t extent[4])
{
    FftbKernelInfo ki = kernelInfoOf(kernelSettings_, texels_);
    FftbKernelGeneratorInfo generator{FFTB_STRUCTURE_TYPE_KERNEL_GENERATOR_INFO};
    if (generatorAiryRadius_)
    {
        generator.airyRadiusTexels = *generatorAiryRadius_;
        ki.pNext = &generator;
    }
    clearMessage();
    FftbResult r = context_.createKernel(ki, kernel_, std::nothrow);
    // An exact-mode spectrum is sized for the context's largest frames: a context grown by larger frames before may
    // not hold it where one of this frame's extents does.
    if (r == FFTB_ERROR_DEVICE_LIMIT && !std::equal(extent, extent + 4, contextExtent_))
    {
        waitIdle();
        plans_.clear();
        if (const FftbResult resized = grow(extent); resized != FFTB_SUCCESS)
            fail(resized, "fftbResizeContext");
        clearMessage();
        r = context_.createKernel(ki, kernel_, std::nothrow);
    }
    if (r != FFTB_SUCCESS)
        fail(r, "fftbCreateKernel");
    ++kernelsMade_;
    if (farField_.size > 0)
    {
        const Texels far = farFieldTexels(farField_);
        KernelSettings exact;
        exact.spectrum = FFTB_SPECTRUM_MODE_EXACT;
        const FftbKernelInfo fi = kernelInfoOf(exact, far);
        clearMessage();
        if (const FftbResult made = context_.createKernel(fi, farKernel_, std::nothrow); made != FFTB_SUCCESS)
            fail(made, "fftbCreateKernel (far field)");
    }
}

FftbBloomPlan BloomNode::plan(uint32_t width, uint32_t height, const PlanSettings& settings)
{
    fit(width, height, settings);
    for (const Plan& made : plans_)
        if (made.width == width && made.height == height && made.settings == settings)
            return made.plan.get();
    if (plans_.size() == kMaxPlans)
    {
        retired_.push_back({submitted_, {}, {}, {}});
        retired_.back().plans.push_back(std::move(plans_.front()));
        plans_.erase(plans_.begin());
    }
    FftbBloomPlanCreateInfo pi = planInfoOf(settings, width, height);
    pi.kernel = kernel_.get();
    const FftbFarFieldInfo far = farFieldInfoOf(farField_, farKernel_.get());
    if (farKernel_)
        pi.pNext = &far;
    clearMessage();
    fftbloom::BloomPlan made;
    if (const FftbResult r = context_.createBloomPlan(pi, made, std::nothrow); r != FFTB_SUCCESS)
        fail(r, "fftbCreateBloomPlan");
    plans_.push_back({width, height, settings, std::move(made)});
    return plans_.back().plan.get();
}

void BloomNode::retireKernel()
{
    if (kernel_ || !plans_.empty())
        retired_.push_back({submitted_, std::move(kernel_), std::move(farKernel_), std::move(plans_)});
    kernel_.reset();
    farKernel_.reset();
    plans_.clear();
}

void BloomNode::completed(uint64_t submission)
{
    completed_ = std::max(completed_, submission);
    releaseRetired();
}

void BloomNode::waitIdle()
{
    info_.waitIdle();
    completed_ = submitted_;
    releaseRetired();
}

void BloomNode::releaseRetired()
{
    while (!retired_.empty() && retired_.front().afterSubmission <= completed_)
        retired_.pop_front(); // its plans before its kernel
}

void BloomNode::release()
{
    completed_ = submitted_;
    releaseRetired();
    plans_.clear(); // before their kernels, the kernels before their context
    kernel_.reset();
    farKernel_.reset();
    context_.reset();
    std::fill(contextExtent_, contextExtent_ + 4, 0u);
}

} // namespace fftb
