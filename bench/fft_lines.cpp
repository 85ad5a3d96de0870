// SPDX-License-Identifier: MIT
// The FFT engine's calibration: fft_lines.comp on batches of lines, timed with timestamps, checked against a DFT.
#include "fft_lines.h"

#include "copy_bandwidth.h"
#include "embedded_shaders.h"
#include "fft_lengths.h"
#include "host_error.h"
#include "run_report.h"

#include <fftw3.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdio>
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

/// max_k |output_k - X_k| / max_k |X_k| for X the DFT of `input` computed by FFTW in double precision,
/// exp(-2 pi i k n / N); `input` and `output` hold `length` complex values as interleaved (re, im) floats.
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

/// One case's device objects: the lines (random, fixed seed) and their spectra in device-local buffers, the twiddle
/// tables in a host-visible one (as the plugin keeps them), the pipeline and its descriptor set; destroyed in reverse.
class FftLinesBatch
{
  public:
    FftLinesBatch(VulkanDevice& device, const FftLinesCase& c);
    ~FftLinesBatch() { release(); }
    FftLinesBatch(const FftLinesBatch&) = delete;
    FftLinesBatch& operator=(const FftLinesBatch&) = delete;

    uint32_t workgroupSize() const { return workgroupSize_; }
    /// The median milliseconds of `repeats` timed dispatches after `warmup` untimed ones.
    double time(int warmup, int repeats);
    /// The worst error of the checked lines (the batch's first and last) relative to their peaks, after time().
    double maxRelativeError();

  private:
    void release();
    void checkLimits() const;
    void createPipeline();
    void uploadLines();
    uint64_t lineBytes() const { return uint64_t(c_.length) * kElementBytes; }
    uint64_t batchBytes() const { return lineBytes() * c_.lines; }

    VulkanDevice& device_;
    const FftLinesCase& c_;
    uint32_t workgroupSize_ = 0;
    VulkanDevice::Buffer lines_{}, spectra_{}, twiddles_{};
    ComputePipeline pipeline_;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    VkDescriptorSet set_ = VK_NULL_HANDLE;
    std::array<uint32_t, 2> checkedLines_{};
    std::array<std::vector<float>, 2> checkedInputs_; ///< interleaved (re, im) of checkedLines_
};

FftLinesBatch::FftLinesBatch(VulkanDevice& device, const FftLinesCase& c)
    : device_(device), c_(c), checkedLines_{0, c.lines - 1}
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
    twiddles_ = device_.createBuffer(VkDeviceSize(tables.totalElements) * kElementBytes,
                                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
    tables.write(static_cast<float*>(twiddles_.mapped));
    // The plugin's specialization of a pass over lines of this length (pipelines.cpp): fp32, no multi-view.
    const std::array<uint32_t, FFTB_SPEC_COUNT> values = specializationOf(c_.length, workgroupSize_, false);
    std::array<VkSpecializationMapEntry, FFTB_SPEC_COUNT> entries{};
    for (uint32_t id = 0; id < FFTB_SPEC_COUNT; ++id)
        entries[id] = {id, id * uint32_t(sizeof(uint32_t)), sizeof(uint32_t)};
    const VkSpecializationInfo specialization{FFTB_SPEC_COUNT, entries.data(), sizeof(values), values.data()};
    pipeline_ = createEmbeddedPipeline(d, "fft_lines",
                                       {{kLinesBinding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                        {kSpectraBinding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                        {FFTB_BINDING_TWIDDLES, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}},
                                       sizeof(uint32_t), &specialization);
    pool_ = createDescriptorSets(d, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3}}, {pipeline_.setLayout}, &set_);
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
    VulkanDevice::Buffer staging = device_.createBuffer(batchBytes(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
    auto* values = static_cast<float*>(staging.mapped);
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::generate(values, values + batchBytes() / sizeof(float), [&] { return uniform(rng); });
    for (size_t i = 0; i < checkedLines_.size(); ++i)
    {
        const float* line = values + checkedLines_[i] * lineBytes() / sizeof(float);
        checkedInputs_[i].assign(line, line + 2 * c_.length);
    }
    try
    {
        const VkCommandBuffer cb = device_.beginCommands();
        const VkBufferCopy all{0, 0, batchBytes()};
        vkCmdCopyBuffer(cb, staging.buffer, lines_.buffer, 1, &all);
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

nlohmann::json caseJson(const FftLinesCase& c, const FftLinesTiming& t, double copyBandwidth)
{
    const double achieved = c.bytesMoved() / (t.ms * 1e-3);
    nlohmann::json error = nullptr;
    if (t.maxRelativeError)
        error = *t.maxRelativeError;
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
            {"maxRelativeError", error}};
}

std::string caseRow(const FftLinesCase& c, const FftLinesTiming& t, double copyBandwidth)
{
    const double achieved = c.bytesMoved() / (t.ms * 1e-3);
    return "| " + c.label + " | " + std::to_string(c.length) + " | " + std::to_string(c.lines) + " | " +
           fixed(c.bytesMoved() * 1e-6, 1) + " | " + fixed(t.ms, 4) + " | " + fixed(achieved * 1e-12, 3) + " | " +
           fixed(achieved / copyBandwidth, 2) + " | " + std::to_string(t.workgroupSize) + " | " +
           std::to_string(t.elementsPerInvocation) + " | " +
           (t.maxRelativeError ? scientific(*t.maxRelativeError, 1) : std::string("—")) + " |\n";
}

} // namespace

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

FftLinesTiming measureFftLines(VulkanDevice& device, const FftLinesCase& c, int warmup, int repeats)
{
    FftLinesBatch batch(device, c);
    FftLinesTiming t;
    t.ms = batch.time(warmup, repeats);
    t.workgroupSize = batch.workgroupSize();
    t.elementsPerInvocation = (c.length + t.workgroupSize - 1) / t.workgroupSize;
    if (c.check)
        t.maxRelativeError = batch.maxRelativeError();
    return t;
}

int runFftLines(VulkanDevice& device, double copyBandwidth, const FftLinesRun& run)
{
    nlohmann::json results = runJson(run.command, device.properties(), copyBandwidth);
    results["frames"] = run.repeats;
    results["warmup"] = run.warmup;
    results["tolerance"] = kFftLinesTolerance;
    results["cases"] = nlohmann::json::array();
    std::string table = "| lines | N | B | MB moved | ms | TB/s | of copy | workgroup | elements per invocation | "
                        "max error / peak |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
    std::printf("%s", table.c_str());
    int failures = 0;
    for (const FftLinesCase& c : fftLinesCases(run.smoke))
    {
        const FftLinesTiming t = measureFftLines(device, c, run.warmup, run.repeats);
        results["cases"].push_back(caseJson(c, t, copyBandwidth));
        const std::string row = caseRow(c, t, copyBandwidth);
        table += row;
        std::printf("%s", row.c_str());
        std::fflush(stdout);
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
                 << " The FFT engine alone, forward, complex fp32 lines read from one buffer and written to another: "
                 << "times are medians of " << run.repeats << " dispatches after " << run.warmup
                 << " untimed ones, milliseconds; MB moved is 2 B N 8 bytes; errors are against a DFT in double "
                 << "precision, for the first and last line of the first batch of each length.\n\n"
                 << table;
    }
    return failures > 0 ? 1 : 0;
}

} // namespace fftb::bench
