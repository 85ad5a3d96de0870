// SPDX-License-Identifier: MIT
// Per-pass timing of fftbloom: one context and plan per case, every frame's timestamps in one query pool.
#include "bloom_timing.h"

#include "copy_bandwidth.h"

#include "fftbloom/fftbloom_generator.h"
#include "host_error.h"
#include "node/bloom_node.h"
#include "node/context_info.h"
#include "psf/far_field.h"
#include "psf/psf_generator.h"
#include "settings/setting_names.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace fftb::bench
{

namespace
{

/// IEEE binary16 from binary32, round to nearest even (finite inputs in half range, as the benchmark uses).
uint16_t toHalf(float value)
{
    const uint32_t f = std::bit_cast<uint32_t>(value);
    const uint32_t sign = (f >> 16) & 0x8000u;
    const int32_t exponent = int32_t((f >> 23) & 0xffu) - 127 + 15;
    uint32_t mantissa = f & 0x7fffffu;
    if (exponent <= 0)
        return uint16_t(sign); // flushes subnormals: the benchmark's values are far above them
    mantissa += 0xfffu + ((mantissa >> 13) & 1u);
    uint32_t e = uint32_t(exponent);
    if (mantissa & 0x800000u)
    {
        mantissa = 0;
        ++e;
    }
    return uint16_t(sign | (e << 10) | (mantissa >> 13));
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

} // namespace

std::string BloomCase::interpolationName() const
{
    const std::string oversampled = spectrumOversampling == 1 ? " 1x" : spectrumOversampling == 2 ? " 2x" : "";
    if (interpolation == FFTB_SPECTRUM_INTERPOLATION_CUBIC)
        return " cubic" + oversampled;
    if (interpolation == FFTB_SPECTRUM_INTERPOLATION_LINEAR)
        return " linear" + oversampled;
    return (interpolationWidth != 0 ? " es" + std::to_string(interpolationWidth) : std::string()) + oversampled;
}

std::string BloomCase::name() const
{
    return std::to_string(width) + "x" + std::to_string(height) + "/" + std::to_string(kernelSize) + " " +
           settingName(padding, kPaddingNames) + (spectrum == FFTB_SPECTRUM_MODE_EXACT ? " exact" : " resampled") +
           (spectrum == FFTB_SPECTRUM_MODE_RESAMPLED ? interpolationName() : "") +
           (lengths == FFTB_LENGTH_POLICY_POWER_OF_TWO ? " pow2" : "") +
           (storage == FFTB_STORAGE_PRECISION_FLOAT16 ? " fp16" : "") +
           (resolution == FFTB_BLOOM_RESOLUTION_HALF ? " half" : "") + (generatedKernel ? " generated" : "") +
           (farField ? " far field" : "") +
           (views > 1 ? " " + std::to_string(views) + " views" + (separateViews ? " separate" : "") : "");
}

Traffic trafficOf(const FftbBloomPlanDescription& plan, uint32_t width, uint32_t height, FftbStoragePrecision storage,
                  FftbPadding padding)
{
    const double elementBytes = storage == FFTB_STORAGE_PRECISION_FLOAT16 ? 4.0 : 8.0;
    const double frameBytes = double(width) * height * 8.0; // RGBA16F
    // The half spectrum along the first axis (N1 / 2 + 1 lines) of every image line along the second.
    const bool xFirst = plan.axisOrder == FFTB_AXIS_ORDER_X_FIRST;
    const double halfSpectrumLines = double((xFirst ? plan.paddedWidth : plan.paddedHeight) / 2 + 1);
    const double intermediate = 3.0 * halfSpectrumLines * (xFirst ? height : width) * elementBytes;
    const double spectrum = double(plan.spectrumBytes);
    Traffic t;
    t.frame = frameBytes;
    t.intermediate = intermediate;
    t.spectrum = spectrum;
    t.pass1 = frameBytes + intermediate;
    t.pass2 = 2.0 * intermediate + spectrum;
    t.pass3 = intermediate + 2.0 * frameBytes; // the composite reads the input again
    if (padding == FFTB_PADDING_ZERO_NORMALIZED)
        t.pass3 += double(width) * height * 12.0; // the border weights
    t.floor = 2.0 * frameBytes + 4.0 * intermediate + spectrum;
    return t;
}

Skeleton measureSkeleton(VulkanDevice& device, const Traffic& traffic, int repeats)
{
    const auto rounded = [](double bytes) { return (uint64_t(bytes) + 255) / 256 * 256; };
    // One buffer: [spectrum][intermediate][frame][output frame], so a pass's reads are one contiguous range.
    const uint64_t spectrum = rounded(traffic.spectrum), intermediate = rounded(traffic.intermediate),
                   frame = rounded(traffic.frame);
    const uint64_t atIntermediate = spectrum, atFrame = spectrum + intermediate, atOutput = atFrame + frame;
    const std::vector<CopyStep> steps = {
        {atFrame, frame, atIntermediate, intermediate},
        {0, spectrum + intermediate, atIntermediate, intermediate},
        {atIntermediate, intermediate + frame, atOutput, frame},
    };
    const std::vector<double> seconds = timeCopySteps(device, steps, atOutput + frame, repeats);
    return {seconds[0] * 1e3, seconds[1] * 1e3, seconds[2] * 1e3};
}

/// fftbCmdBloom calls recorded into one command buffer.
constexpr uint32_t kBloomsPerCommandBuffer = 8;

bool supported(const BloomCase& c, std::string* reason)
{
    FftbContextCreateInfo ci{FFTB_STRUCTURE_TYPE_CONTEXT_CREATE_INFO};
    ci.maxWidth = c.width;
    ci.maxHeight = c.height;
    ci.maxKernelResolutionWidth = ci.maxKernelResolutionHeight = c.kernelSize;
    FftbPlannerInfo planner{FFTB_STRUCTURE_TYPE_PLANNER_INFO};
    planner.lengthPolicy = c.lengths;
    ci.pNext = &planner;
    ci.messageCallback = [](FftbResult, VkResult, const char* text, void* user)
    { *static_cast<std::string*>(user) = text; };
    ci.messageUserData = reason;
    FftbMemoryRequirements requirements{FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS};
    return fftbGetMemoryRequirements(&ci, &requirements) == FFTB_SUCCESS;
}

namespace
{

/// The generated kernel's eye: its pupil stays (the kernel is made for one Airy radius, FftbKernelGeneratorInfo), its
/// particles move every frame (the seed).
constexpr float kEyeAiryRadius = 2.0f;

/// What one case's measurement holds: the plugin's context, kernel and plan, the frames' images and the timestamp
/// pool; destroyed in reverse.
class BloomRun
{
  public:
    BloomRun(VulkanDevice& device, const BloomCase& c) : device_(device), c_(c)
    {
        createPluginObjects();
        createImages();
    }
    ~BloomRun()
    {
        fftbDestroyBloomPlan(plan_);
        fftbDestroyKernel(kernel_);
        fftbDestroyKernel(farKernel_);
        fftbDestroyContext(context_);
        device_.destroy(upload_);
        for (VulkanDevice::Image& image : images_)
            device_.destroy(image);
        if (queries_)
            vkDestroyQueryPool(device_.device(), queries_, nullptr);
    }
    BloomRun(const BloomRun&) = delete;
    BloomRun& operator=(const BloomRun&) = delete;

    /// Records and submits every frame: the kernel's generation (or its timestamps alone), then each call's bloom.
    void recordFrames();
    /// The median pass times of the frames after the warm-up, from the timestamps, with the plan and its statistics.
    BloomTiming timing() const;

  private:
    void check(FftbResult r, const char* call) const
    {
        if (r != FFTB_SUCCESS)
            throw HostError(std::string(call) + ": " + (message_.empty() ? fftbResultToString(r) : message_));
    }
    void createPluginObjects();
    void createImages();
    /// fftbCmdBloom calls per frame: one, or one a view when the views are bloomed separately.
    uint32_t calls() const { return c_.separateViews ? c_.views : 1; }
    /// Queries per frame: the generation's timestamps, then each call's.
    uint32_t queriesPerFrame() const { return (1 + calls()) * FFTB_TIMESTAMP_COUNT; }
    int totalFrames() const { return c_.warmupFrames + c_.frames; }

    VulkanDevice& device_;
    const BloomCase& c_;
    std::string message_;
    FftbContext context_ = nullptr;
    FftbKernel kernel_ = nullptr;
    FftbKernel farKernel_ = nullptr; ///< the far field's (BloomCase::farField)
    FftbBloomPlan plan_ = nullptr;
    VulkanDevice::Buffer upload_{};
    std::vector<VulkanDevice::Image> images_; ///< per view: its input, then its output
    std::vector<VkImageView> inputViews_, outputViews_;
    VkQueryPool queries_ = VK_NULL_HANDLE;
};

/// The default PSF's far field at `c`'s frame (BloomCase::farField), or size 0.
FarField farFieldOf(const BloomCase& c)
{
    if (!c.farField)
        return {};
    PsfParams core;
    core.sizeTexels = int(c.kernelSize);
    return farFieldOf(core, double(c.kernelSize), std::hypot(double(c.width), double(c.height)), 8);
}

void BloomRun::createPluginObjects()
{
    const FarField far = farFieldOf(c_);
    const uint32_t kernelTexels = std::max(c_.kernelSize, uint32_t(far.size));
    FftbContextCreateInfo ci = contextCreateInfo(device_.instance(), device_.logical(), c_.width, c_.height,
                                                 kernelTexels, kernelTexels, &message_);
    ci.maxViews = c_.separateViews ? 1 : c_.views;
    FftbPlannerInfo planner{FFTB_STRUCTURE_TYPE_PLANNER_INFO};
    planner.lengthPolicy = c_.lengths;
    ci.pNext = &planner;
    FftbDeviceFeaturesInfo features{FFTB_STRUCTURE_TYPE_DEVICE_FEATURES_INFO};
    features.pipelineExecutableInfo = device_.pipelineStatistics() ? VK_TRUE : VK_FALSE;
    planner.pNext = &features;
    check(fftbCreateContext(&ci, &context_), "fftbCreateContext");

    const Texels psf = defaultPsf(int(c_.kernelSize));
    FftbKernelInfo ki{FFTB_STRUCTURE_TYPE_KERNEL_INFO};
    ki.width = ki.height = c_.kernelSize;
    ki.texels = psf.values.data();
    ki.spectrumMode = c_.spectrum;
    ki.interpolation = c_.interpolation;
    ki.interpolationWidth = c_.interpolationWidth;
    ki.spectrumOversampling = c_.spectrumOversampling;
    FftbKernelGeneratorInfo generator{FFTB_STRUCTURE_TYPE_KERNEL_GENERATOR_INFO};
    generator.airyRadiusTexels = kEyeAiryRadius;
    if (c_.generatedKernel)
        ki.pNext = &generator;
    check(fftbCreateKernel(context_, &ki, &kernel_), "fftbCreateKernel");

    FftbBloomPlanCreateInfo pi{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_CREATE_INFO};
    pi.kernel = kernel_;
    pi.width = c_.width;
    pi.height = c_.height;
    pi.viewCount = c_.separateViews ? 1 : c_.views;
    pi.inputLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    pi.padding = c_.padding;
    pi.storagePrecision = c_.storage;
    pi.resolution = c_.resolution;
    FftbFarFieldInfo farInfo{FFTB_STRUCTURE_TYPE_FAR_FIELD_INFO};
    if (far.size > 0)
    {
        const Texels rgb = farFieldTexels(far);
        FftbKernelInfo fi{FFTB_STRUCTURE_TYPE_KERNEL_INFO};
        fi.width = fi.height = uint32_t(far.size);
        fi.texels = rgb.values.data();
        fi.spectrumMode = FFTB_SPECTRUM_MODE_EXACT;
        check(fftbCreateKernel(context_, &fi, &farKernel_), "fftbCreateKernel (far field)");
        farInfo = farFieldInfoOf(far, farKernel_);
        pi.pNext = &farInfo;
    }
    check(fftbCreateBloomPlan(context_, &pi, &plan_), "fftbCreateBloomPlan");
}

void BloomRun::createImages()
{
    const VkFormat format = VK_FORMAT_R16G16B16A16_SFLOAT;
    const size_t texels = size_t(c_.width) * c_.height;
    upload_ = device_.createBuffer(texels * 8 * c_.views, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
    queries_ = device_.createTimestampPool(uint32_t(totalFrames()) * queriesPerFrame());
    std::mt19937 rng(1);
    std::exponential_distribution<float> hdr(1.0f); // mostly dim, a long bright tail
    auto* halves = static_cast<uint16_t*>(upload_.mapped);
    for (size_t i = 0; i < texels * 4 * c_.views; ++i)
        halves[i] = toHalf(i % 4 == 3 ? 1.0f : std::min(hdr(rng), 60000.0f));

    VkCommandBuffer cb = device_.beginCommands();
    for (uint32_t v = 0; v < c_.views; ++v)
    {
        const VulkanDevice::Image& input = images_.emplace_back(device_.createImage(
            c_.width, c_.height, format, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT));
        VulkanDevice::uploadForCompute(cb, upload_.buffer, input.image, c_.width, c_.height,
                                       VkDeviceSize(v) * texels * 8);
        inputViews_.push_back(input.view);
        const VulkanDevice::Image& output =
            images_.emplace_back(device_.createImage(c_.width, c_.height, format, VK_IMAGE_USAGE_STORAGE_BIT));
        VulkanDevice::prepareComputeOutput(cb, output.image);
        outputViews_.push_back(output.view);
    }
    vkCmdResetQueryPool(cb, queries_, 0, uint32_t(totalFrames()) * queriesPerFrame());
    device_.submitAndWait(cb);
}

void BloomRun::recordFrames()
{
    FftbTimestampInfo ti{FFTB_STRUCTURE_TYPE_TIMESTAMP_INFO};
    ti.queryPool = queries_;
    FftbBloomInfo bi{FFTB_STRUCTURE_TYPE_BLOOM_INFO};
    bi.pNext = &ti;
    bi.inputView = inputViews_[0];
    bi.outputView = outputViews_[0];
    bi.inputExtent = bi.outputExtent = {c_.width, c_.height};
    bi.outputMode = FFTB_OUTPUT_MODE_COMPOSITE;
    bi.intensity = 0.25f;
    FftbMultiViewInfo multiView{FFTB_STRUCTURE_TYPE_MULTI_VIEW_INFO};
    multiView.viewCount = c_.views;
    multiView.pInputViews = inputViews_.data();
    multiView.pOutputViews = outputViews_.data();
    if (!c_.separateViews && c_.views > 1)
    {
        ti.pNext = &multiView;
        bi.inputView = bi.outputView = VK_NULL_HANDLE;
    }
    // Frames per command buffer so that it holds kBloomsPerCommandBuffer calls; one is recorded while the previous
    // one runs (the GPU never idles); two are pending at most.
    const int framesPerCommandBuffer = int(std::max(kBloomsPerCommandBuffer / calls(), 1u));
    VkCommandBuffer cb = device_.beginCommands();
    VulkanDevice::Submission running, previous;
    for (int f = 0; f < totalFrames(); ++f)
    {
        const uint32_t first = uint32_t(f) * queriesPerFrame();
        FftbResult r = FFTB_SUCCESS;
        if (c_.generatedKernel)
        {
            FftbTimestampInfo generationTimes{FFTB_STRUCTURE_TYPE_TIMESTAMP_INFO};
            generationTimes.queryPool = queries_;
            generationTimes.firstQuery = first;
            FftbApertureInfo eye{FFTB_STRUCTURE_TYPE_APERTURE_INFO};
            eye.pNext = &generationTimes;
            eye.corona = 0.5f;
            eye.seed = uint32_t(f);
            eye.airyRadiusTexels = kEyeAiryRadius;
            r = fftbCmdGenerateKernel(context_, cb, &eye, kernel_);
        }
        else // the generation's queries, written so that every query of the pool has a result
            for (uint32_t q = 0; q < FFTB_TIMESTAMP_COUNT; ++q)
                vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries_, first + q);
        for (uint32_t call = 0; call < calls() && r == FFTB_SUCCESS; ++call)
        {
            ti.firstQuery = first + (1 + call) * FFTB_TIMESTAMP_COUNT;
            if (c_.separateViews)
            {
                bi.inputView = inputViews_[call];
                bi.outputView = outputViews_[call];
            }
            r = fftbCmdBloom(plan_, cb, &bi);
        }
        if (r != FFTB_SUCCESS)
        {
            device_.submitAndWait(cb);
            device_.wait(running);
            device_.wait(previous);
            check(r, c_.generatedKernel ? "fftbCmdGenerateKernel, fftbCmdBloom" : "fftbCmdBloom");
        }
        if ((f + 1) % framesPerCommandBuffer == 0 && f + 1 < totalFrames())
        {
            previous = running;
            running = device_.submit(cb);
            device_.wait(previous);
            cb = device_.beginCommands();
        }
    }
    device_.submitAndWait(cb);
    device_.wait(running);
}

BloomTiming BloomRun::timing() const
{
    const uint32_t perFrame = queriesPerFrame();
    std::vector<uint64_t> t(size_t(totalFrames()) * perFrame);
    checkVulkan(vkGetQueryPoolResults(device_.device(), queries_, 0, uint32_t(t.size()), t.size() * 8, t.data(), 8,
                                      VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                "vkGetQueryPoolResults");
    const double ms = device_.timestampPeriod() * 1e-6;
    BloomTiming timing;
    timing.kernelSpectrumMs = double(t[FFTB_TIMESTAMP_COUNT + 1] - t[FFTB_TIMESTAMP_COUNT]) * ms;
    std::vector<double> p1, p2, p3, sum, generation, spectrum, frame;
    std::vector<double> generationPasses[4];
    for (int f = c_.warmupFrames; f < totalFrames(); ++f)
    {
        const uint64_t* g = &t[size_t(f) * perFrame];
        const uint64_t* s = g + FFTB_TIMESTAMP_COUNT;              // the first call's
        const uint64_t* last = g + calls() * FFTB_TIMESTAMP_COUNT; // the last call's
        for (size_t pass = 0; pass < 4 && c_.generatedKernel; ++pass)
            generationPasses[pass].push_back(double(g[pass + 1] - g[pass]) * ms);
        generation.push_back(double(g[4] - g[0]) * ms);
        spectrum.push_back(double(s[1] - s[0]) * ms);
        frame.push_back(double(last[4] - g[0]) * ms);
        double passes[3] = {};
        for (const uint64_t* call = s; call <= last; call += FFTB_TIMESTAMP_COUNT)
            for (size_t pass = 0; pass < 3; ++pass)
                passes[pass] += double(call[pass + 2] - call[pass + 1]) * ms;
        p1.push_back(passes[0]);
        p2.push_back(passes[1]);
        p3.push_back(passes[2]);
        sum.push_back(double(last[4] - s[1]) * ms);
    }
    timing.pass1Ms = median(p1);
    timing.pass2Ms = median(p2);
    timing.pass3Ms = median(p3);
    timing.totalMs = median(sum);
    if (c_.generatedKernel)
    {
        timing.generationMs = median(generation);
        timing.frameSpectrumMs = median(spectrum);
        timing.frameMs = median(frame);
        for (size_t pass = 0; pass < 4; ++pass)
            timing.generationPassMs[pass] = median(generationPasses[pass]);
    }

    timing.plan = {FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    check(fftbDescribeBloomPlan(plan_, &timing.plan), "fftbDescribeBloomPlan");
    timing.traffic = trafficOf(timing.plan, c_.width, c_.height, c_.storage, c_.padding);
    for (double* bytes : {&timing.traffic.frame, &timing.traffic.intermediate, &timing.traffic.pass1,
                          &timing.traffic.pass2, &timing.traffic.pass3, &timing.traffic.floor})
        *bytes *= c_.views; // the kernel spectrum is read by each view's lines

    if (device_.pipelineStatistics())
    {
        uint32_t count = 0;
        check(fftbGetPassStatistics(plan_, &count, nullptr), "fftbGetPassStatistics");
        std::vector<FftbPassStatistic> statistics(count, {FFTB_STRUCTURE_TYPE_PASS_STATISTIC});
        check(fftbGetPassStatistics(plan_, &count, statistics.data()), "fftbGetPassStatistics");
        for (const FftbPassStatistic& s : statistics)
            timing.statistics.push_back({s.pass, s.fftLength, s.workgroupSize, s.name, s.value});
    }
    return timing;
}

} // namespace

BloomTiming measureBloom(VulkanDevice& device, const BloomCase& c)
{
    BloomRun run(device, c);
    run.recordFrames();
    return run.timing();
}

} // namespace fftb::bench
