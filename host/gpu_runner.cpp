// Uploads a frame, records the plugin's bloom on the runner's own device, and reads the result back.
#include "gpu_runner.h"

#include "fftbloom/fftbloom.h"
#include "host_error.h"
#include "vulkan_device.h"

#include <cstring>
#include <vector>

namespace fftb
{

struct GpuRunner::State
{
    explicit State(const RunnerOptions& options) : device({options.deviceIndex, options.validation}) {}

    VulkanDevice device;
    VkQueryPool queries = VK_NULL_HANDLE;
    double gpuMilliseconds = 0.0;

    FftbContext context = nullptr;
    uint32_t contextExtent[4] = {};
    std::string pluginMessage;
    std::vector<float> kernelTexels;
    SpectrumMode kernelMode = SpectrumMode::Resampled;

    static void onPluginMessage(FftbResult, VkResult, const char* message, void* user)
    {
        static_cast<State*>(user)->pluginMessage = message;
    }

    [[noreturn]] void fail(FftbResult result, const char* call) const
    {
        throw HostError(std::string(call) + ": " +
                        (pluginMessage.empty() ? fftbResultToString(result) : pluginMessage));
    }

    /// A context for this frame and kernel extent, and the kernel set on it, reusing what is already there.
    void prepare(const uint32_t extent[4], const Texels& kernel, SpectrumMode mode)
    {
        if (!context || std::memcmp(extent, contextExtent, sizeof(contextExtent)) != 0)
        {
            fftbDestroyContext(context);
            context = nullptr;
            kernelTexels.clear();
            FftbContextCreateInfo ci{FFTB_STRUCTURE_TYPE_CONTEXT_CREATE_INFO};
            ci.instance = device.instance();
            ci.physicalDevice = device.physicalDevice();
            ci.device = device.device();
            ci.getInstanceProcAddr = vkGetInstanceProcAddr;
            ci.getDeviceProcAddr = vkGetDeviceProcAddr;
            ci.maxWidth = extent[0];
            ci.maxHeight = extent[1];
            ci.maxKernelWidth = extent[2];
            ci.maxKernelHeight = extent[3];
            ci.messageCallback = &State::onPluginMessage;
            ci.messageUserData = this;
            if (FftbResult r = fftbCreateContext(&ci, &context); r != FFTB_SUCCESS)
                fail(r, "fftbCreateContext");
            std::memcpy(contextExtent, extent, sizeof(contextExtent));
        }
        if (kernelTexels != kernel.values || kernelMode != mode)
        {
            FftbKernelInfo ki{FFTB_STRUCTURE_TYPE_KERNEL_INFO};
            ki.width = extent[2];
            ki.height = extent[3];
            ki.texels = kernel.values.data();
            ki.spectrumMode = mode == SpectrumMode::Exact ? FFTB_SPECTRUM_MODE_EXACT : FFTB_SPECTRUM_MODE_RESAMPLED;
            if (FftbResult r = fftbSetKernel(context, &ki); r != FFTB_SUCCESS)
                fail(r, "fftbSetKernel");
            kernelTexels = kernel.values;
            kernelMode = mode;
        }
    }
};

GpuRunner::GpuRunner(const RunnerOptions& options) : state_(std::make_unique<State>(options))
{
    if (state_->device.timestamps())
        state_->queries = state_->device.createTimestampPool(FFTB_TIMESTAMP_COUNT);
}

GpuRunner::~GpuRunner()
{
    State& s = *state_;
    fftbDestroyContext(s.context);
    if (s.queries)
        vkDestroyQueryPool(s.device.device(), s.queries, nullptr);
}

std::string GpuRunner::deviceName() const
{
    return state_->device.properties().deviceName;
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

Texels GpuRunner::bloom(const Texels& frame, const Texels& kernel, const BloomSettings& settings)
{
    State& s = *state_;
    VulkanDevice& d = s.device;
    if (frame.components != 4 || kernel.components != 3)
        throw HostError("bloom: frame must be RGBA and kernel RGB");
    const uint32_t w = uint32_t(frame.width), h = uint32_t(frame.height);
    const uint32_t extent[4] = {w, h, uint32_t(kernel.width), uint32_t(kernel.height)};
    s.pluginMessage.clear();
    s.prepare(extent, kernel, settings.spectrum);

    // Released on every path, a throw from any Vulkan call included; submitAndWait leaves the queue idle.
    struct Resources
    {
        VulkanDevice& d;
        VulkanDevice::Buffer upload, download;
        VulkanDevice::Image input, output;
        ~Resources()
        {
            d.destroy(input);
            d.destroy(output);
            d.destroy(upload);
            d.destroy(download);
        }
    } r{d, {}, {}, {}, {}};
    const VkDeviceSize bytes = VkDeviceSize(w) * h * 4 * sizeof(float);
    r.upload = d.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
    r.download = d.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
    const VkFormat format = VK_FORMAT_R32G32B32A32_SFLOAT;
    r.input = d.createImage(w, h, format, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    r.output = d.createImage(w, h, format, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    std::memcpy(r.upload.mapped, frame.values.data(), bytes);

    const VkCommandBuffer cb = d.beginCommands();
    const VkBufferImageCopy region{0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {w, h, 1}};
    VulkanDevice::uploadForCompute(cb, r.upload.buffer, r.input.image, w, h);
    VulkanDevice::prepareComputeOutput(cb, r.output.image);

    FftbTimestampInfo ti{FFTB_STRUCTURE_TYPE_TIMESTAMP_INFO};
    ti.queryPool = s.queries;
    FftbBloomInfo bi{FFTB_STRUCTURE_TYPE_BLOOM_INFO};
    if (s.queries)
    {
        vkCmdResetQueryPool(cb, s.queries, 0, FFTB_TIMESTAMP_COUNT);
        bi.pNext = &ti;
    }
    bi.inputView = r.input.view;
    bi.inputLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    bi.outputView = r.output.view;
    bi.width = w;
    bi.height = h;
    bi.padding = settings.padding == Padding::Mirror ? FFTB_PADDING_MIRROR : FFTB_PADDING_ZERO;
    bi.axisOrder = settings.axisOrder == AxisOrder::XFirst   ? FFTB_AXIS_ORDER_X_FIRST
                   : settings.axisOrder == AxisOrder::YFirst ? FFTB_AXIS_ORDER_Y_FIRST
                                                             : FFTB_AXIS_ORDER_AUTO;
    bi.outputMode = settings.composite ? FFTB_OUTPUT_MODE_COMPOSITE : FFTB_OUTPUT_MODE_BLOOM;
    bi.intensity = settings.intensity;
    bi.sharpen = settings.sharpen;
    if (FftbResult recorded = fftbCmdBloom(s.context, cb, &bi); recorded != FFTB_SUCCESS)
    {
        d.submitAndWait(cb); // the uploads alone: simpler than a second way to free a recording buffer
        s.fail(recorded, "fftbCmdBloom");
    }

    VulkanDevice::transition(cb, r.output.image, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                             VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT,
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    vkCmdCopyImageToBuffer(cb, r.output.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, r.download.buffer, 1, &region);
    VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    toHost.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0, nullptr, 0,
                         nullptr);
    d.submitAndWait(cb);

    Texels result(frame.width, frame.height, 4);
    std::memcpy(result.values.data(), r.download.mapped, bytes);
    if (s.queries)
    {
        uint64_t t[FFTB_TIMESTAMP_COUNT] = {};
        vkGetQueryPoolResults(d.device(), s.queries, 0, FFTB_TIMESTAMP_COUNT, sizeof(t), t, sizeof(uint64_t),
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
        s.gpuMilliseconds = double(t[FFTB_TIMESTAMP_COUNT - 1] - t[0]) * d.timestampPeriod() * 1e-6;
    }
    return result;
}

} // namespace fftb
