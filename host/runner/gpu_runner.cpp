// SPDX-License-Identifier: MIT
// Uploads a frame, records the plugin's bloom on the runner's own device, and reads the result back.
#include "runner/gpu_runner.h"

#include "fftbloom/fftbloom_generator.h"
#include "host_error.h"
#include "runner/context_info.h"
#include "vulkan/vulkan_device.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <optional>
#include <vector>

namespace fftb
{

namespace
{

/// What a plan is kept for besides its kernel: the frame's extent and the plan-lifetime settings (samePlanInfo).
struct PlanKey
{
    uint32_t width = 0, height = 0;
    BloomSettings settings;
    bool operator==(const PlanKey& o) const
    {
        return width == o.width && height == o.height && samePlanInfo(settings, o.settings);
    }
};

/// Plans kept for the extents and settings seen last (dynamic resolution alternates between a few).
constexpr std::size_t kMaxPlans = 8;

} // namespace

std::pair<uint32_t, uint32_t> kernelExtentOnFrame(const BloomSettings& settings, uint32_t width, uint32_t height,
                                                  uint32_t kernelWidth, uint32_t kernelHeight)
{
    const FftbBloomPlanCreateInfo info = planInfoOf(settings, width, height);
    uint32_t extent[2] = {kernelWidth, kernelHeight};
    if (fftbGetKernelExtent(&info, kernelWidth, kernelHeight, &extent[0], &extent[1]) != FFTB_SUCCESS)
        return {kernelWidth, kernelHeight};
    if (extent[0] > FFTB_MAX_KERNEL_LENGTH || extent[1] > FFTB_MAX_KERNEL_LENGTH)
        throw FrameRefused(FFTB_ERROR_DEVICE_LIMIT, "kernel scale " + kernelSpanText(settings.kernelSpan) +
                                                        ": the kernel's extent on the frame " +
                                                        std::to_string(extent[0]) + "x" + std::to_string(extent[1]) +
                                                        " is past " + std::to_string(FFTB_MAX_KERNEL_LENGTH) +
                                                        " pixels (FFTB_MAX_KERNEL_LENGTH)");
    return {std::max(extent[0], kernelWidth), std::max(extent[1], kernelHeight)};
}

struct GpuRunner::State
{
    explicit State(const RunnerOptions& options)
        : device({options.deviceIndex, options.validation, false, options.loseDeviceAfterWaits}),
          slots(options.framesInFlight), lengths(options.lengths)
    {
    }

    /// What one frame in flight owns; kept for the next frame of the same extent.
    struct Slot
    {
        uint32_t width = 0;
        uint32_t height = 0;
        VulkanDevice::Buffer upload, download;
        VulkanDevice::Image input, output;
        VkQueryPool queries = VK_NULL_HANDLE;
        VulkanDevice::Submission submission;
        FftbBloomPlanDescription plan{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    };

    VulkanDevice device;
    std::vector<Slot> slots;
    FftbLengthPolicy lengths;
    std::size_t nextSlot = 0;
    std::deque<std::size_t> pendingSlots; ///< submitted, oldest first
    std::deque<Result> ready;             ///< completed while making room, older than every pending slot
    double gpuMilliseconds = 0.0;

    FftbContext context = nullptr;
    FftbKernel kernel = nullptr;
    std::vector<std::pair<PlanKey, FftbBloomPlan>> plans; ///< of `kernel`, oldest first
    uint32_t contextExtent[4] = {};
    std::string pluginMessage;
    std::vector<float> kernelTexels;
    BloomSettings kernelSettings;             ///< what `kernel` was made with besides its texels (sameKernelInfo)
    std::optional<float> kernelGeneratorAiry; ///< FftbKernelGeneratorInfo's, for a kernel made on the GPU
    bool kernelGenerated = false;             ///< the kernel's texels were replaced by fftbCmdGenerateKernel

    ~State()
    {
        for (Slot& slot : slots)
        {
            try
            {
                device.wait(slot.submission);
            }
            catch (const HostError&)
            {
                // the device is lost: its objects can still be destroyed
            }
            release(slot);
            if (slot.queries)
                vkDestroyQueryPool(device.device(), slot.queries, nullptr);
        }
        destroyPlans();
        fftbDestroyKernel(kernel);
        fftbDestroyContext(context);
    }

    /// Throws the plugin's reason: FrameRefused when it refuses the frame's settings, HostError otherwise.
    [[noreturn]] void fail(FftbResult result, const char* call) const
    {
        const std::string reason =
            std::string(call) + ": " + (pluginMessage.empty() ? fftbResultToString(result) : pluginMessage);
        if (result == FFTB_ERROR_INVALID_ARGUMENT || result == FFTB_ERROR_DEVICE_LIMIT)
            throw FrameRefused(result, reason);
        throw HostError(reason);
    }

    void release(Slot& slot)
    {
        device.destroy(slot.input);
        device.destroy(slot.output);
        device.destroy(slot.upload);
        device.destroy(slot.download);
        slot.width = slot.height = 0;
    }

    /// Destroys every plan; no frame may be in flight.
    void destroyPlans()
    {
        for (auto& [key, plan] : plans)
            fftbDestroyBloomPlan(plan);
        plans.clear();
    }

    /// Waits for every frame in flight, queueing their results for collect().
    void drain()
    {
        while (!pendingSlots.empty())
            ready.push_back(finish());
    }

    /// Waits for the oldest pending slot and reads its frame back.
    Result finish()
    {
        Slot& slot = slots[pendingSlots.front()];
        pendingSlots.pop_front();
        device.wait(slot.submission);
        Result result{Texels(int(slot.width), int(slot.height), 4), 0.0, slot.plan};
        std::memcpy(result.rgba.values.data(), slot.download.mapped, result.rgba.values.size() * sizeof(float));
        if (slot.queries)
        {
            uint64_t t[FFTB_TIMESTAMP_COUNT] = {};
            vkGetQueryPoolResults(device.device(), slot.queries, 0, FFTB_TIMESTAMP_COUNT, sizeof(t), t,
                                  sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
            result.gpuMilliseconds = double(t[FFTB_TIMESTAMP_COUNT - 1] - t[0]) * device.timestampPeriod() * 1e-6;
        }
        return result;
    }

    /// Creates the context for these maximum extents (width, height, kernel width, kernel height), or resizes the
    /// one there is.
    FftbResult createContext(const uint32_t extent[4])
    {
        if (context)
        {
            FftbResizeInfo ri{FFTB_STRUCTURE_TYPE_RESIZE_INFO};
            ri.maxWidth = extent[0];
            ri.maxHeight = extent[1];
            ri.maxKernelResolutionWidth = extent[2];
            ri.maxKernelResolutionHeight = extent[3];
            const FftbResult result = fftbResizeContext(context, &ri);
            if (result == FFTB_SUCCESS)
                std::memcpy(contextExtent, extent, sizeof(contextExtent));
            return result;
        }
        FftbContextCreateInfo ci = contextCreateInfo(device.instance(), device.logical(), extent[0], extent[1],
                                                     extent[2], extent[3], &pluginMessage);
        FftbPlannerInfo planner{FFTB_STRUCTURE_TYPE_PLANNER_INFO};
        planner.lengthPolicy = lengths;
        ci.pNext = &planner;
        const FftbResult result = fftbCreateContext(&ci, &context);
        if (result == FFTB_SUCCESS)
            std::memcpy(contextExtent, extent, sizeof(contextExtent));
        return result;
    }

    /// A context whose maximum extents hold `extent` (the frame's, then the kernel's or its scaled extent if larger),
    /// and the kernel `psf` made on it, reusing what is already there. The context only grows, so frames of
    /// alternating sizes do not resize it each time.
    void prepare(const uint32_t extent[4], const Texels& psf, const BloomSettings& settings)
    {
        bool fits = context != nullptr;
        for (int i = 0; i < 4; ++i)
            fits = fits && extent[i] <= contextExtent[i];
        // An exact-mode kernel's spectrum is sized for the context's frames: a grown context needs a new kernel.
        std::optional<float> airy;
        if (settings.generatedKernel)
            airy = settings.generatedKernel->airyRadiusTexels;
        const bool newKernel = !fits || kernelTexels != psf.values || !sameKernelInfo(kernelSettings, settings) ||
                               kernelGeneratorAiry != airy;
        if (newKernel)
        {
            drain(); // the scratch and the kernel are shared by every frame in flight
            destroyPlans();
            fftbDestroyKernel(kernel);
            kernel = nullptr;
            kernelTexels.clear();
        }
        if (!fits)
        {
            // The largest extents seen so far, unless together they are more than the plugin plans for (a
            // 4095x1 and a 1x4095 frame); then this frame's own.
            uint32_t grown[4];
            for (int i = 0; i < 4; ++i)
                grown[i] = std::max(extent[i], contextExtent[i]);
            if (createContext(grown) != FFTB_SUCCESS)
            {
                pluginMessage.clear();
                if (FftbResult r = createContext(extent); r != FFTB_SUCCESS)
                    fail(r, context ? "fftbResizeContext" : "fftbCreateContext");
            }
        }
        if (newKernel)
        {
            FftbKernelInfo ki = kernelInfoOf(settings, psf);
            FftbKernelGeneratorInfo generator{FFTB_STRUCTURE_TYPE_KERNEL_GENERATOR_INFO};
            if (airy)
            {
                generator.airyRadiusTexels = *airy;
                ki.pNext = &generator;
            }
            FftbResult r = fftbCreateKernel(context, &ki, &kernel);
            // An exact-mode spectrum is sized for the context's largest frames: a context grown by larger frames
            // before may not hold it where one of this frame's extents does (the frames in flight were drained).
            if (r == FFTB_ERROR_DEVICE_LIMIT && !std::equal(extent, extent + 4, contextExtent))
            {
                pluginMessage.clear();
                if (const FftbResult resized = createContext(extent); resized != FFTB_SUCCESS)
                    fail(resized, "fftbResizeContext");
                r = fftbCreateKernel(context, &ki, &kernel);
            }
            if (r != FFTB_SUCCESS)
                fail(r, "fftbCreateKernel");
            kernelTexels = psf.values;
            kernelSettings = settings;
            kernelGeneratorAiry = airy;
            kernelGenerated = false;
        }
    }

    /// The plan settings of a w x h frame with these settings, its context and kernel made (prepare()). Throws
    /// FrameRefused when the plugin refuses the kernel, or its extent on the frame is past FFTB_MAX_KERNEL_LENGTH.
    FftbBloomPlanCreateInfo prepareFor(uint32_t w, uint32_t h, const Texels& psf, const BloomSettings& settings)
    {
        FftbBloomPlanCreateInfo pi = planInfoOf(settings, w, h);
        // The context's maximum kernel resolution (its maximum extent left 0: the same) holds the kernel's extent on
        // the frame too; a kernel scale the plugin refuses is named by fftbCreateBloomPlan below.
        const auto [kw, kh] = kernelExtentOnFrame(settings, w, h, uint32_t(psf.width), uint32_t(psf.height));
        uint32_t extent[4] = {w, h, kw, kh};
        pluginMessage.clear();
        prepare(extent, psf, settings);
        pi.kernel = kernel;
        return pi;
    }

    /// The plan of a w x h frame with these settings (prepareFor), reused when it was made before. Throws
    /// FrameRefused when the plugin refuses them.
    FftbBloomPlan plan(uint32_t w, uint32_t h, const Texels& psf, const BloomSettings& settings)
    {
        const FftbBloomPlanCreateInfo pi = prepareFor(w, h, psf, settings);
        const PlanKey key{w, h, settings};
        for (const auto& [made, plan] : plans)
            if (made == key)
                return plan;
        if (plans.size() == kMaxPlans)
        {
            drain(); // a plan is destroyed only when no frame in flight uses it
            destroyPlans();
        }
        FftbBloomPlan plan = nullptr;
        if (const FftbResult r = fftbCreateBloomPlan(context, &pi, &plan); r != FFTB_SUCCESS)
            fail(r, "fftbCreateBloomPlan");
        plans.emplace_back(key, plan);
        return plan;
    }

    /// The slot's staging buffers and images, made for this extent unless they already are.
    void size(Slot& slot, uint32_t w, uint32_t h)
    {
        if (!slot.queries && device.timestamps())
            slot.queries = device.createTimestampPool(FFTB_TIMESTAMP_COUNT);
        if (slot.width == w && slot.height == h)
            return;
        release(slot);
        const VkDeviceSize bytes = VkDeviceSize(w) * h * 4 * sizeof(float);
        slot.upload = device.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
        slot.download = device.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
        const VkFormat format = VK_FORMAT_R32G32B32A32_SFLOAT;
        slot.input = device.createImage(w, h, format, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
        slot.output = device.createImage(w, h, format, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
        slot.width = w;
        slot.height = h;
    }
};

GpuRunner::GpuRunner(const RunnerOptions& options)
{
    if (options.framesInFlight < 1 || options.framesInFlight > 8)
        throw HostError("framesInFlight: " + std::to_string(options.framesInFlight) + " is not in 1 .. 8");
    state_ = std::make_unique<State>(options);
}

GpuRunner::~GpuRunner() = default;

std::string GpuRunner::deviceName() const
{
    return state_->device.properties().deviceName;
}

bool GpuRunner::cpuDevice() const
{
    return state_->device.properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
}

double GpuRunner::lastGpuMilliseconds() const
{
    return state_->gpuMilliseconds;
}

uint64_t GpuRunner::validationMessageCount() const
{
    return state_->device.validationMessageCount();
}

std::string GpuRunner::firstValidationMessage() const
{
    return state_->device.firstValidationMessage();
}

std::size_t GpuRunner::pending() const
{
    return state_->pendingSlots.size() + state_->ready.size();
}

void GpuRunner::submit(const Texels& frame, const Texels& kernel, const BloomSettings& settings)
{
    State& s = *state_;
    VulkanDevice& d = s.device;
    if (frame.components != 4 || kernel.components != 3)
        throw HostError("bloom: frame must be RGBA and kernel RGB");
    if (s.pendingSlots.size() >= s.slots.size())
        throw HostError("bloom: " + std::to_string(s.slots.size()) + " frames already in flight");
    if (settings.output != FFTB_OUTPUT_MODE_BLOOM && settings.intensity == 0.0f)
    {
        // The composite of no bloom is the input: the plugin would run its passes for it, the tools record nothing.
        s.drain(); // results are collected in submission order
        s.ready.push_back({frame, 0.0, {FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION}});
        return;
    }
    const uint32_t w = uint32_t(frame.width), h = uint32_t(frame.height);
    if (s.kernelGenerated && !settings.generatedKernel)
        s.kernelTexels.clear(); // the kernel holds generated texels, not `kernel`'s: make it anew
    const FftbBloomPlan plan = s.plan(w, h, kernel, settings);
    const std::size_t slotIndex = s.nextSlot;
    State::Slot& slot = s.slots[slotIndex];
    if (FftbResult described = fftbDescribeBloomPlan(plan, &slot.plan); described != FFTB_SUCCESS)
        s.fail(described, "fftbDescribeBloomPlan");
    FftbBloomInfo bi = bloomInfoOf(settings);
    s.size(slot, w, h);
    std::memcpy(slot.upload.mapped, frame.values.data(), frame.values.size() * sizeof(float));

    if (settings.generatedKernel && !s.kernelGenerated)
    {
        // Blooms read generated texels once the plugin has read back that a generation executed, the kernel's own
        // before: the kernel's first generation executes before the first frame is recorded.
        const VkCommandBuffer first = d.beginCommands();
        const FftbResult generated = fftbCmdGenerateKernel(s.context, first, &*settings.generatedKernel, s.kernel);
        d.submitAndWait(first);
        if (generated != FFTB_SUCCESS)
            s.fail(generated, "fftbCmdGenerateKernel");
    }
    const VkCommandBuffer cb = d.beginCommands();
    VulkanDevice::uploadForCompute(cb, slot.upload.buffer, slot.input.image, w, h);
    VulkanDevice::prepareComputeOutput(cb, slot.output.image);

    FftbTimestampInfo ti{FFTB_STRUCTURE_TYPE_TIMESTAMP_INFO};
    ti.queryPool = slot.queries;
    if (slot.queries)
    {
        vkCmdResetQueryPool(cb, slot.queries, 0, FFTB_TIMESTAMP_COUNT);
        bi.pNext = &ti;
    }
    bi.inputView = slot.input.view;
    bi.outputView = slot.output.view;
    bi.inputExtent = {slot.input.width, slot.input.height};
    bi.outputExtent = {slot.output.width, slot.output.height};
    FftbResult recorded = FFTB_SUCCESS;
    if (settings.generatedKernel)
    {
        recorded = fftbCmdGenerateKernel(s.context, cb, &*settings.generatedKernel, s.kernel);
        s.kernelGenerated = true;
    }
    if (recorded == FFTB_SUCCESS)
        recorded = fftbCmdBloom(plan, cb, &bi);
    if (recorded != FFTB_SUCCESS)
    {
        d.submitAndWait(cb); // the uploads alone: simpler than a second way to free a recording buffer
        s.fail(recorded, settings.generatedKernel ? "fftbCmdGenerateKernel, fftbCmdBloom" : "fftbCmdBloom");
    }

    recordImageReadback(cb, slot.output.image, w, h, slot.download.buffer);
    slot.submission = d.submit(cb);
    s.pendingSlots.push_back(slotIndex);
    s.nextSlot = (slotIndex + 1) % s.slots.size();
}

GpuRunner::Result GpuRunner::collect()
{
    State& s = *state_;
    if (s.ready.empty() && s.pendingSlots.empty())
        throw HostError("bloom: no frame in flight to collect");
    Result result;
    if (!s.ready.empty())
    {
        result = std::move(s.ready.front());
        s.ready.pop_front();
    }
    else
        result = s.finish();
    s.gpuMilliseconds = result.gpuMilliseconds;
    return result;
}

void GpuRunner::check(const Texels& kernel, const BloomSettings& settings)
{
    State& s = *state_;
    if (kernel.components != 3)
        throw HostError("bloom: kernel must be RGB");
    s.prepareFor(1, 1, kernel, settings);
}

Texels GpuRunner::bloom(const Texels& frame, const Texels& kernel, const BloomSettings& settings)
{
    if (pending() != 0)
        throw HostError("bloom: frames are in flight; collect them first");
    submit(frame, kernel, settings);
    return collect().rgba;
}

} // namespace fftb
