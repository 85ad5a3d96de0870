// SPDX-License-Identifier: MIT
// Uploads a frame, records the plugin's bloom on the runner's own device, and reads the result back.
#include "runner/gpu_runner.h"

#include "fftbloom/fftbloom_generator.h"
#include "host_error.h"
#include "vulkan/vulkan_device.h"

#include <cstring>
#include <deque>
#include <optional>
#include <vector>

namespace fftb
{

struct GpuRunner::State
{
    explicit State(const RunnerOptions& options)
        : device({options.deviceIndex, options.validation, false, options.loseDeviceAfterWaits}),
          slots(options.framesInFlight),
          node({device.instance(), device.logical(), options.lengths, nullptr, 0, [this] { drain(); }})
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
        uint64_t nodeSubmission = 0; ///< BloomNode::submitted's number for it
        FftbBloomPlanDescription plan{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    };

    VulkanDevice device;
    std::vector<Slot> slots;
    std::size_t nextSlot = 0;
    std::deque<std::size_t> pendingSlots; ///< submitted, oldest first
    std::deque<Result> ready;             ///< completed while making room, older than every pending slot
    double gpuMilliseconds = 0.0;
    BloomNode node; ///< after the device: destroyed before it
    /// BloomNode::kernelsMade when texels were last generated into the node's kernel (fftbCmdGenerateKernel); blooms
    /// read generated texels once a generation has executed, so the first one of a kernel is submitted alone
    uint64_t generatedKernel = 0;

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
    }

    void release(Slot& slot)
    {
        device.destroy(slot.input);
        device.destroy(slot.output);
        device.destroy(slot.upload);
        device.destroy(slot.download);
        slot.width = slot.height = 0;
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
        node.completed(slot.nodeSubmission);
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

void GpuRunner::submit(const Texels& frame, const Texels& kernel, const BloomSettings& settings,
                       const FftbApertureInfo* generated, const FarField& farField)
{
    State& s = *state_;
    VulkanDevice& d = s.device;
    if (frame.components != 4 || kernel.components != 3)
        throw HostError("bloom: frame must be RGBA and kernel RGB");
    if (s.pendingSlots.size() >= s.slots.size())
        throw HostError("bloom: " + std::to_string(s.slots.size()) + " frames already in flight");
    if (settings.frame.output != FFTB_OUTPUT_MODE_BLOOM && settings.frame.intensity == 0.0f)
    {
        // The composite of no bloom is the input: the plugin would run its passes for it, the tools record nothing.
        s.drain(); // results are collected in submission order
        s.ready.push_back({frame, 0.0, {FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION}});
        return;
    }
    const uint32_t w = uint32_t(frame.width), h = uint32_t(frame.height);
    s.node.setKernel(kernel, settings.kernel,
                     generated ? std::optional<float>(generated->airyRadiusTexels) : std::nullopt, farField);
    const FftbBloomPlan plan = s.node.plan(w, h, settings.plan);
    s.node.clearMessage();
    const std::size_t slotIndex = s.nextSlot;
    State::Slot& slot = s.slots[slotIndex];
    if (FftbResult described = fftbDescribeBloomPlan(plan, &slot.plan); described != FFTB_SUCCESS)
        s.node.fail(described, "fftbDescribeBloomPlan");
    FftbBloomInfo bi = bloomInfoOf(settings.frame);
    s.size(slot, w, h);
    std::memcpy(slot.upload.mapped, frame.values.data(), frame.values.size() * sizeof(float));

    if (generated && s.generatedKernel != s.node.kernelsMade())
    {
        // Blooms read generated texels once the plugin has read back that a generation executed, the kernel's own
        // before: the kernel's first generation executes before the first frame is recorded.
        const VkCommandBuffer first = d.beginCommands();
        const FftbResult made = fftbCmdGenerateKernel(s.node.context(), first, generated, s.node.kernel());
        d.submitAndWait(first);
        if (made != FFTB_SUCCESS)
            s.node.fail(made, "fftbCmdGenerateKernel");
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
    if (generated)
    {
        recorded = fftbCmdGenerateKernel(s.node.context(), cb, generated, s.node.kernel());
        s.generatedKernel = s.node.kernelsMade();
    }
    if (recorded == FFTB_SUCCESS)
        recorded = fftbCmdBloom(plan, cb, &bi);
    if (recorded != FFTB_SUCCESS)
    {
        d.submitAndWait(cb); // the uploads alone: simpler than a second way to free a recording buffer
        s.node.fail(recorded, generated ? "fftbCmdGenerateKernel, fftbCmdBloom" : "fftbCmdBloom");
    }

    recordImageReadback(cb, slot.output.image, w, h, slot.download.buffer);
    slot.submission = d.submit(cb);
    slot.nodeSubmission = s.node.submitted();
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
    s.node.setKernel(kernel, settings.kernel);
    s.node.fit(1, 1, settings.plan);
}

Texels GpuRunner::bloom(const Texels& frame, const Texels& kernel, const BloomSettings& settings,
                        const FftbApertureInfo* generated, const FarField& farField)
{
    if (pending() != 0)
        throw HostError("bloom: frames are in flight; collect them first");
    submit(frame, kernel, settings, generated, farField);
    return collect().rgba;
}

} // namespace fftb
