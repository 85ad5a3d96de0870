// SPDX-License-Identifier: MIT
// The FFT engine's calibration: fft_lines.comp on batches of lines, timed with timestamps, checked against a DFT.
#include "fft_lines.h"

#include "copy_bandwidth.h"
#include "embedded_shaders.h"
#include "fft_lengths.h"
#include "host_error.h"
#include "run_report.h"
#include "vkfft_anchor.h"

#include <fftw3.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <utility>

namespace fftb::bench
{

namespace
{

/// Lines one workgroup transforms: the dispatch makes workgroupsFor(lines) workgroups, and fft_lines.comp's
/// batchLine() says which line each invocation takes.
constexpr uint32_t kLinesPerWorkgroup = 1;

uint32_t workgroupsFor(uint32_t lines)
{
    return (lines + kLinesPerWorkgroup - 1) / kLinesPerWorkgroup;
}

/// fft_lines.comp's bindings of the lines and of their spectra; the twiddles are at FFTB_BINDING_TWIDDLES.
constexpr uint32_t kLinesBinding = 0, kSpectraBinding = 1;

/// Bytes a large batch moves (read + write): far more than the GPU's caches hold.
constexpr double kLargeBatchBytes = 256e6;

/// Bytes of one complex fp32 element.
constexpr uint64_t kElementBytes = 8;

/// One case's device objects: the lines (batchValues), their spectra and the twiddle tables in device-local buffers,
/// the pipeline and its descriptor set; destroyed in reverse.
class FftLinesBatch
{
  public:
    /// `transform` false: the copy in the engine's grid (fft_lines.comp, TRANSFORM).
    FftLinesBatch(VulkanDevice& device, const FftLinesCase& c, bool transform);
    ~FftLinesBatch() { release(); }
    FftLinesBatch(const FftLinesBatch&) = delete;
    FftLinesBatch& operator=(const FftLinesBatch&) = delete;

    uint32_t workgroupSize() const { return workgroupSize_; }
    /// The median milliseconds of `repeats` timed dispatches after `warmup` untimed ones.
    double time(int warmup, int repeats);
    /// The worst error of the checked lines (the batch's first and last) relative to their peaks, after time().
    double maxRelativeError();
    /// The driver's statistics of the pipeline; empty where the device does not expose them.
    PipelineStatistics statistics() const
    {
        return device_.pipelineStatistics() ? pipelineStatistics(device_.device(), pipeline_.pipeline)
                                            : PipelineStatistics{};
    }

  private:
    void release();
    void checkLimits() const;
    void createPipeline();
    void uploadLines();
    /// Copies `bytes` of `data` into `destination` (device-local, TRANSFER_DST) through a staging buffer.
    void uploadToBuffer(const VulkanDevice::Buffer& destination, const void* data, VkDeviceSize bytes);
    uint64_t lineBytes() const { return uint64_t(c_.length) * kElementBytes; }
    uint64_t batchBytes() const { return lineBytes() * c_.lines; }

    VulkanDevice& device_;
    const FftLinesCase& c_;
    bool transform_ = true;
    uint32_t workgroupSize_ = 0;
    VulkanDevice::Buffer lines_{}, spectra_{}, twiddles_{};
    ComputePipeline pipeline_;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    VkDescriptorSet set_ = VK_NULL_HANDLE;
    std::array<uint32_t, 2> checkedLines_{};
    std::array<std::vector<float>, 2> checkedInputs_; ///< interleaved (re, im) of checkedLines_
};

FftLinesBatch::FftLinesBatch(VulkanDevice& device, const FftLinesCase& c, bool transform)
    : device_(device), c_(c), transform_(transform), checkedLines_{0, c.lines - 1}
{
    const VkPhysicalDeviceLimits& limits = device_.properties().limits;
    // The plugin's limit (plugin/src/pipelines.cpp): the workgroup is one-dimensional.
    workgroupSize_ =
        workgroupSizeOf(c_.length, std::min(limits.maxComputeWorkGroupInvocations, limits.maxComputeWorkGroupSize[0]));
    checkLimits();
    try
    {
        createPipeline();
        uploadLines();
    }
    catch (...)
    {
        release();
        throw;
    }
}

void FftLinesBatch::release()
{
    const VkDevice d = device_.device();
    vkDestroyDescriptorPool(d, std::exchange(pool_, VK_NULL_HANDLE), nullptr);
    destroyComputePipeline(d, pipeline_);
    for (VulkanDevice::Buffer* b : {&twiddles_, &spectra_, &lines_})
        device_.destroy(*b);
}

void FftLinesBatch::checkLimits() const
{
    const VkPhysicalDeviceLimits& limits = device_.properties().limits;
    const std::string name = "--fft-lines " + c_.name() + ": ";
    if (!isFftLength(c_.length) || workgroupSize_ == 0)
        throw HostError(name + std::to_string(c_.length) + " is no FFT length of this device");
    if (c_.lines == 0 || workgroupsFor(c_.lines) > limits.maxComputeWorkGroupCount[0])
        throw HostError(name + "no lines, or more workgroups than the device dispatches");
    if (batchBytes() > limits.maxStorageBufferRange)
        throw HostError(name + "the batch is larger than the device's maxStorageBufferRange");
}

void FftLinesBatch::createPipeline()
{
    const VkDevice d = device_.device();
    const TwiddleTables& tables = twiddleTables();
    // Device-local, as the plugin's where the device lets the host map such memory (plugin/src/device.cpp).
    twiddles_ = device_.createBuffer(VkDeviceSize(tables.totalElements) * kElementBytes,
                                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, false);
    std::vector<float> twiddles(2 * size_t(tables.totalElements));
    tables.write(twiddles.data());
    uploadToBuffer(twiddles_, twiddles.data(), twiddles.size() * sizeof(float));
    // The plugin's specialization of a pass over lines of this length (pipelines.cpp): fp32, no multi-view; then
    // fft_lines.comp's TRANSFORM.
    std::array<uint32_t, FFTB_SPEC_COUNT + 1> values{};
    const std::array<uint32_t, FFTB_SPEC_COUNT> plugin = specializationOf(c_.length, workgroupSize_, false);
    std::copy(plugin.begin(), plugin.end(), values.begin());
    values[FFTB_SPEC_COUNT] = transform_ ? VK_TRUE : VK_FALSE;
    std::array<VkSpecializationMapEntry, FFTB_SPEC_COUNT + 1> entries{};
    for (uint32_t id = 0; id < entries.size(); ++id)
        entries[id] = {id, id * uint32_t(sizeof(uint32_t)), sizeof(uint32_t)};
    const VkSpecializationInfo specialization{uint32_t(entries.size()), entries.data(), sizeof(values), values.data()};
    pipeline_ =
        createEmbeddedPipeline(d, "fft_lines",
                               {{kLinesBinding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                {kSpectraBinding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                {FFTB_BINDING_TWIDDLES, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}},
                               sizeof(uint32_t), &specialization,
                               device_.pipelineStatistics() ? VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR : 0);
    pool_ = createDescriptorSets(d, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3}}, {pipeline_.setLayout}, &set_);
}

void FftLinesBatch::uploadToBuffer(const VulkanDevice::Buffer& destination, const void* data, VkDeviceSize bytes)
{
    VulkanDevice::Buffer staging = device_.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
    std::memcpy(staging.mapped, data, bytes);
    try
    {
        const VkCommandBuffer cb = device_.beginCommands();
        const VkBufferCopy all{0, 0, bytes};
        vkCmdCopyBuffer(cb, staging.buffer, destination.buffer, 1, &all);
        VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier,
                             0, nullptr, 0, nullptr);
        device_.submitAndWait(cb);
    }
    catch (...)
    {
        device_.destroy(staging);
        throw;
    }
    device_.destroy(staging);
}

void FftLinesBatch::uploadLines()
{
    lines_ = device_.createBuffer(batchBytes(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                  false);
    spectra_ = device_.createBuffer(batchBytes(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                    false);
    writeStorageBuffers(device_.device(), set_,
                        {{kLinesBinding, {lines_.buffer, 0, VK_WHOLE_SIZE}},
                         {kSpectraBinding, {spectra_.buffer, 0, VK_WHOLE_SIZE}},
                         {FFTB_BINDING_TWIDDLES, {twiddles_.buffer, 0, VK_WHOLE_SIZE}}});
    const std::vector<float> values = batchValues(c_);
    for (size_t i = 0; i < checkedLines_.size(); ++i)
    {
        const float* line = values.data() + checkedLines_[i] * lineBytes() / sizeof(float);
        checkedInputs_[i].assign(line, line + 2 * c_.length);
    }
    uploadToBuffer(lines_, values.data(), batchBytes());
}

double FftLinesBatch::time(int warmup, int repeats)
{
    const uint32_t lineCount = c_.lines;
    const auto dispatch = [&](VkCommandBuffer cb, uint32_t)
    {
        bindComputePipeline(cb, pipeline_, set_, &lineCount, sizeof lineCount);
        vkCmdDispatch(cb, workgroupsFor(lineCount), 1, 1);
    };
    return timeDispatches(device_, 1, warmup, repeats, dispatch)[0] * 1e3;
}

double FftLinesBatch::maxRelativeError()
{
    VulkanDevice::Buffer readback =
        device_.createBuffer(checkedLines_.size() * lineBytes(), VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
    double worst = 0;
    try
    {
        const VkCommandBuffer cb = device_.beginCommands();
        VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
        barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &barrier,
                             0, nullptr, 0, nullptr);
        std::array<VkBufferCopy, 2> regions{};
        for (size_t i = 0; i < regions.size(); ++i)
            regions[i] = {checkedLines_[i] * lineBytes(), i * lineBytes(), lineBytes()};
        vkCmdCopyBuffer(cb, spectra_.buffer, readback.buffer, uint32_t(regions.size()), regions.data());
        barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr,
                             0, nullptr);
        device_.submitAndWait(cb);
        const auto* spectra = static_cast<const float*>(readback.mapped);
        for (size_t i = 0; i < checkedLines_.size(); ++i)
            worst = std::max(worst, lineError(checkedInputs_[i].data(), spectra + i * 2 * c_.length, c_.length));
    }
    catch (...)
    {
        device_.destroy(readback);
        throw;
    }
    device_.destroy(readback);
    return worst;
}

/// A statistic by name, or null.
nlohmann::json statistic(const PipelineStatistics& statistics, const char* name)
{
    for (const auto& [key, value] : statistics)
        if (key == name)
            return value;
    return nullptr;
}

nlohmann::json statisticsJson(const PipelineStatistics& statistics)
{
    nlohmann::json object = nlohmann::json::object();
    for (const auto& [key, value] : statistics)
        object[key] = value;
    return object;
}

nlohmann::json optionalJson(const std::optional<double>& value)
{
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json caseJson(const FftLinesCase& c, const FftLinesTiming& t, double copyBandwidth)
{
    const double achieved = c.bytesMoved() / (t.ms * 1e-3);
    nlohmann::json vkfft = nullptr;
    if (t.vkfft)
        vkfft = {
            {"error", t.vkfft->error},
            {"ms", t.vkfft->error.empty() ? nlohmann::json(t.vkfft->ms) : nlohmann::json(nullptr)},
            {"maxRelativeError", optionalJson(t.vkfft->maxRelativeError)},
            {"oursOverVkfft", t.vkfft->error.empty() ? nlohmann::json(t.ms / t.vkfft->ms) : nlohmann::json(nullptr)}};
    return {{"case", c.name()},
            {"label", c.label},
            {"length", c.length},
            {"lines", c.lines},
            {"bytes", c.bytesMoved()},
            {"ms", t.ms},
            {"bandwidthBytesPerSecond", achieved},
            {"ofCopyBandwidth", achieved / copyBandwidth},
            {"workgroupSize", t.workgroupSize},
            {"elementsPerInvocation", t.elementsPerInvocation},
            {"maxRelativeError", optionalJson(t.maxRelativeError)},
            {"statistics", statisticsJson(t.statistics)},
            {"copy",
             {{"ms", t.copyMs}, {"oursOverCopy", t.ms / t.copyMs}, {"statistics", statisticsJson(t.copyStatistics)}}},
            {"vkfft", vkfft}};
}

/// A statistic for the table: its value, or "—".
std::string statisticCell(const PipelineStatistics& statistics, const char* name, double unit = 1.0)
{
    const nlohmann::json value = statistic(statistics, name);
    return value.is_null() ? std::string("—") : fixed(value.get<double>() / unit, 0);
}

std::string caseRow(const FftLinesCase& c, const FftLinesTiming& t, double copyBandwidth)
{
    const double achieved = c.bytesMoved() / (t.ms * 1e-3);
    const bool vkfftRan = t.vkfft && t.vkfft->error.empty();
    return "| " + c.label + " | " + std::to_string(c.length) + " | " + std::to_string(c.lines) + " | " +
           fixed(c.bytesMoved() * 1e-6, 1) + " | " + fixed(t.ms, 4) + " | " + fixed(t.copyMs, 4) + " | " +
           (vkfftRan ? fixed(t.vkfft->ms, 4) : std::string("—")) + " | " + fixed(t.ms / t.copyMs, 2) + " | " +
           (vkfftRan ? fixed(t.ms / t.vkfft->ms, 2) : std::string("—")) + " | " + fixed(achieved / copyBandwidth, 2) +
           " | " + std::to_string(t.workgroupSize) + " | " + std::to_string(t.elementsPerInvocation) + " | " +
           statisticCell(t.statistics, "Register Count") + " | " + statisticCell(t.statistics, "Shared Memory Size") +
           " | " + statisticCell(t.statistics, "Stack Size") + " | " +
           (t.maxRelativeError ? scientific(*t.maxRelativeError, 1) : std::string("—")) + " | " +
           (vkfftRan && t.vkfft->maxRelativeError ? scientific(*t.vkfft->maxRelativeError, 1) : std::string("—")) +
           " |\n";
}

} // namespace

double lineError(const float* input, const float* output, uint32_t length)
{
    std::vector<std::complex<double>> line(length);
    for (uint32_t n = 0; n < length; ++n)
        line[n] = {input[2 * n], input[2 * n + 1]};
    auto* data = reinterpret_cast<fftw_complex*>(line.data());
    const fftw_plan plan = fftw_plan_dft_1d(int(length), data, data, FFTW_FORWARD, FFTW_ESTIMATE);
    fftw_execute(plan);
    fftw_destroy_plan(plan);
    double peak = 0, error = 0;
    for (uint32_t k = 0; k < length; ++k)
    {
        peak = std::max(peak, std::abs(line[k]));
        error = std::max(error, std::abs(line[k] - std::complex<double>(output[2 * k], output[2 * k + 1])));
    }
    return error / peak;
}

std::vector<float> batchValues(const FftLinesCase& c)
{
    std::vector<float> values(2 * size_t(c.lines) * c.length);
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::generate(values.begin(), values.end(), [&] { return uniform(rng); });
    return values;
}

std::vector<FftLinesCase> fftLinesCases(bool smoke)
{
    if (smoke)
        return {{2048, 16, "smoke", true}};
    // The lines of one frame's passes, named and ordered as cufft-lines-anchor.py names them.
    std::vector<FftLinesCase> cases = {{2048, 1620, "1080p rows"},
                                       {1225, 3075, "1080p columns"},
                                       {1536, 1080, "720p rows"},
                                       {4096, 3240, "4K rows"},
                                       {2560, 6147, "4K columns"}};
    for (const uint32_t length : {1225u, 1536u, 2048u, 2240u, 2560u, 4096u, 4480u})
        cases.push_back({length, uint32_t(kLargeBatchBytes / (2.0 * kElementBytes * length)), "large batch"});
    for (auto c = cases.begin(); c != cases.end(); ++c)
        c->check = std::none_of(cases.begin(), c, [&](const FftLinesCase& o) { return o.length == c->length; });
    return cases;
}

FftLinesTiming measureFftLines(VulkanDevice& device, const FftLinesCase& c, int warmup, int repeats, bool vkfft)
{
    FftLinesTiming t;
    {
        FftLinesBatch batch(device, c, true);
        t.ms = batch.time(warmup, repeats);
        t.workgroupSize = batch.workgroupSize();
        t.elementsPerInvocation = (c.length + t.workgroupSize - 1) / t.workgroupSize;
        if (c.check)
            t.maxRelativeError = batch.maxRelativeError();
        t.statistics = batch.statistics();
    }
    {
        FftLinesBatch copy(device, c, false);
        t.copyMs = copy.time(warmup, repeats);
        t.copyStatistics = copy.statistics();
    }
    if (vkfft)
    {
        const VkfftLinesTiming v = measureVkfftLines(device, {c.length, c.lines, batchValues(c), warmup, repeats});
        VkfftLinesResult result{v.error, v.ms, std::nullopt};
        if (v.ok && c.check)
        {
            const std::vector<float> values = batchValues(c);
            const size_t last = 2 * size_t(c.lines - 1) * c.length;
            result.maxRelativeError = std::max(lineError(values.data(), v.firstLine.data(), c.length),
                                               lineError(values.data() + last, v.lastLine.data(), c.length));
        }
        t.vkfft = result;
    }
    return t;
}

int runFftLines(VulkanDevice& device, double copyBandwidth, const FftLinesRun& run)
{
    nlohmann::json results = runJson(run.command, device.properties(), copyBandwidth);
    results["frames"] = run.repeats;
    results["warmup"] = run.warmup;
    results["tolerance"] = kFftLinesTolerance;
    results["cases"] = nlohmann::json::array();
    std::string table =
        "| lines | N | B | MB moved | ours ms | copy ms | VkFFT ms | ours / copy | ours / VkFFT | of copy "
        "bandwidth | workgroup | elements per invocation | registers | shared bytes | stack bytes | "
        "max error / peak | VkFFT max error / peak |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
        "| --- |\n";
    std::printf("%s", table.c_str());
    int failures = 0;
    for (const FftLinesCase& c : fftLinesCases(run.smoke))
    {
        const FftLinesTiming t = measureFftLines(device, c, run.warmup, run.repeats, run.vkfft);
        results["cases"].push_back(caseJson(c, t, copyBandwidth));
        const std::string row = caseRow(c, t, copyBandwidth);
        table += row;
        std::printf("%s", row.c_str());
        std::fflush(stdout);
        if (t.vkfft && !t.vkfft->error.empty())
        {
            std::fprintf(stderr, "fftbloom-bench: --fft-lines %s: %s\n", c.name().c_str(), t.vkfft->error.c_str());
            ++failures;
        }
        if (t.vkfft && t.vkfft->maxRelativeError && !(*t.vkfft->maxRelativeError <= kFftLinesTolerance))
        {
            std::fprintf(stderr,
                         "fftbloom-bench: --fft-lines %s: VkFFT's max error %.2e of the line's peak, above %.0e\n",
                         c.name().c_str(), *t.vkfft->maxRelativeError, kFftLinesTolerance);
            ++failures;
        }
        if (t.maxRelativeError && !(*t.maxRelativeError <= kFftLinesTolerance))
        {
            std::fprintf(stderr, "fftbloom-bench: --fft-lines %s: max error %.2e of the line's peak, above %.0e\n",
                         c.name().c_str(), *t.maxRelativeError, kFftLinesTolerance);
            ++failures;
        }
    }
    if (!run.jsonPath.empty())
        std::ofstream(run.jsonPath) << results.dump(2) << "\n";
    if (!run.markdownPath.empty())
    {
        std::ofstream markdown(run.markdownPath);
        markdown << runSentence(run.command, device.properties(), copyBandwidth)
                 << " The FFT engine alone, forward, complex fp32 lines read from one buffer and written to another, "
                 << "beside the same loads and stores in the same grid without the FFT (copy) and VkFFT 1.2.26's 1D "
                 << "C2C FFT of the same lines out of place: times are medians of " << run.repeats
                 << " dispatches after " << run.warmup << " untimed ones, milliseconds; MB moved is 2 B N 8 bytes; "
                 << "registers, shared and stack bytes are the driver's statistics of our pipeline "
                 << "(VK_KHR_pipeline_executable_properties); errors are against a DFT in double precision, for the "
                 << "first and last line of the first batch of each length.\n\n"
                 << table;
    }
    return failures > 0 ? 1 : 0;
}

} // namespace fftb::bench
