// SPDX-License-Identifier: MIT
// fftbloom-bench: per-pass GPU time of the bloom, against VkFFT's convolution and the copy-bandwidth floor.
#include "bloom_timing.h"
#include "copy_bandwidth.h"
#include "fft_lines.h"
#include "host_error.h"
#include "run_report.h"
#include "settings/setting_names.h"
#include "vkfft_anchor.h"
#include "vulkan/vulkan_device.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>
#include <vector>

namespace
{

using namespace fftb;
using namespace fftb::bench;

struct Options
{
    std::string jsonPath, markdownPath;
    int frames = 50, warmup = 2000, deviceIndex = -1;
    uint32_t views = 1;
    uint64_t copyMiB = 2048;
    bool smoke = false, vkfft = true, powerOfTwo = false, validation = false, generatedKernel = false;
    bool fftLines = false; ///< the FFT engine alone on batched lines instead of the blooms (fft_lines.h)
    std::string sizes = "1280x720/256,1280x720/512,1920x1080/256,1920x1080/512,3840x2160/512";
    std::string command;
};

std::vector<BloomCase> casesFor(const Options& o)
{
    struct Size
    {
        uint32_t w, h, k;
    };
    std::vector<Size> sizes;
    // A generated kernel is at least 64 x 64 texels.
    std::stringstream list(o.smoke ? std::string(o.generatedKernel ? "64x48/64" : "64x48/16") : o.sizes);
    for (std::string item; std::getline(list, item, ',');)
    {
        Size size{};
        if (std::sscanf(item.c_str(), "%ux%u/%u", &size.w, &size.h, &size.k) != 3)
            throw HostError("--sizes: " + item + " is not WIDTHxHEIGHT/KERNEL");
        sizes.push_back(size);
    }
    std::vector<BloomCase> cases;
    if (o.views > 1)
    {
        // Each size as o.views views: a call each, then one call for all (FftbMultiViewInfo).
        for (const Size& s : sizes)
            for (const FftbPadding padding : {FFTB_PADDING_ZERO_NORMALIZED, FFTB_PADDING_ZERO})
                for (const bool separate : {true, false})
                {
                    BloomCase c;
                    c.width = s.w;
                    c.height = s.h;
                    c.kernelSize = s.k;
                    c.padding = padding;
                    c.views = o.views;
                    c.separateViews = separate;
                    c.frames = o.frames;
                    c.warmupFrames = o.warmup;
                    cases.push_back(c);
                }
        return cases;
    }
    if (o.generatedKernel)
    {
        // The default bloom with its fixed kernel, then with the kernel generated every frame; normalized
        // convolution recomputes its border weights for each new kernel, zero padding does not.
        for (const Size& s : sizes)
            for (const FftbPadding padding : {FFTB_PADDING_ZERO_NORMALIZED, FFTB_PADDING_ZERO})
                for (const bool generated : {false, true})
                {
                    BloomCase c;
                    c.width = s.w;
                    c.height = s.h;
                    c.kernelSize = s.k;
                    c.padding = padding;
                    c.generatedKernel = generated;
                    c.frames = o.frames;
                    c.warmupFrames = o.warmup;
                    cases.push_back(c);
                }
        return cases;
    }
    for (const Size& s : sizes)
        for (FftbPadding padding : {FFTB_PADDING_ZERO_NORMALIZED, FFTB_PADDING_ZERO, FFTB_PADDING_MIRROR})
            // Resampled with the default (ES, 8 taps, oversampling 2), with ES at 6 taps, and with cubic and bilinear
            // interpolation at oversampling 1: the cost of the taps in pass 2. Exact; fp16 storage beside the
            // default's fp32. Normalized convolution (the default padding) with the default spectrum and exact: its
            // cost beside zero padding. Last, the default at half resolution, beside full resolution.
            for (const auto& [spectrum, interpolation, width, oversampling, storage, resolution] :
                 {std::tuple{FFTB_SPECTRUM_MODE_RESAMPLED, FFTB_SPECTRUM_INTERPOLATION_ES, 0u, 0u,
                             FFTB_STORAGE_PRECISION_FLOAT32, FFTB_BLOOM_RESOLUTION_FULL},
                  std::tuple{FFTB_SPECTRUM_MODE_RESAMPLED, FFTB_SPECTRUM_INTERPOLATION_ES, 6u, 0u,
                             FFTB_STORAGE_PRECISION_FLOAT32, FFTB_BLOOM_RESOLUTION_FULL},
                  std::tuple{FFTB_SPECTRUM_MODE_RESAMPLED, FFTB_SPECTRUM_INTERPOLATION_CUBIC, 0u, 1u,
                             FFTB_STORAGE_PRECISION_FLOAT32, FFTB_BLOOM_RESOLUTION_FULL},
                  std::tuple{FFTB_SPECTRUM_MODE_RESAMPLED, FFTB_SPECTRUM_INTERPOLATION_LINEAR, 0u, 1u,
                             FFTB_STORAGE_PRECISION_FLOAT32, FFTB_BLOOM_RESOLUTION_FULL},
                  std::tuple{FFTB_SPECTRUM_MODE_EXACT, FFTB_SPECTRUM_INTERPOLATION_ES, 0u, 0u,
                             FFTB_STORAGE_PRECISION_FLOAT32, FFTB_BLOOM_RESOLUTION_FULL},
                  std::tuple{FFTB_SPECTRUM_MODE_RESAMPLED, FFTB_SPECTRUM_INTERPOLATION_ES, 0u, 0u,
                             FFTB_STORAGE_PRECISION_FLOAT16, FFTB_BLOOM_RESOLUTION_FULL},
                  std::tuple{FFTB_SPECTRUM_MODE_RESAMPLED, FFTB_SPECTRUM_INTERPOLATION_ES, 0u, 0u,
                             FFTB_STORAGE_PRECISION_FLOAT32, FFTB_BLOOM_RESOLUTION_HALF}})
                for (FftbLengthPolicy lengths : {FFTB_LENGTH_POLICY_MIXED_RADIX, FFTB_LENGTH_POLICY_POWER_OF_TWO})
                {
                    if (lengths == FFTB_LENGTH_POLICY_POWER_OF_TWO && !o.powerOfTwo)
                        continue;
                    const bool defaultSpectrum =
                        spectrum == FFTB_SPECTRUM_MODE_EXACT ||
                        (width == 0 && oversampling == 0 && interpolation == FFTB_SPECTRUM_INTERPOLATION_ES &&
                         storage == FFTB_STORAGE_PRECISION_FLOAT32 && resolution == FFTB_BLOOM_RESOLUTION_FULL);
                    if (padding == FFTB_PADDING_ZERO_NORMALIZED && !defaultSpectrum)
                        continue;
                    BloomCase c;
                    c.width = s.w;
                    c.height = s.h;
                    c.kernelSize = s.k;
                    c.padding = padding;
                    c.spectrum = spectrum;
                    c.interpolation = interpolation;
                    c.interpolationWidth = width;
                    c.spectrumOversampling = oversampling;
                    c.storage = storage;
                    c.resolution = resolution;
                    c.lengths = lengths;
                    c.frames = o.frames;
                    c.warmupFrames = o.warmup;
                    cases.push_back(c);
                }
    // The product's default (exact, normalized) with the default PSF's glare far field: the two-scale bloom, beside
    // the default measured before it.
    for (const Size& s : sizes)
    {
        BloomCase c;
        c.width = s.w;
        c.height = s.h;
        c.kernelSize = s.k;
        c.spectrum = FFTB_SPECTRUM_MODE_EXACT;
        c.farField = true;
        c.frames = o.frames;
        c.warmupFrames = o.warmup;
        cases.push_back(c);
    }
    return cases;
}

/// The run's results as they accumulate: the JSON document, the Markdown tables, and the cases a later case is held
/// to (a generated kernel to the fixed one before it, one call for every view to the separate calls before it).
class Report
{
  public:
    Report(const Options& o, const VulkanDevice& device, double bandwidth)
        : o_(o), device_(device), bandwidth_(bandwidth)
    {
        results_ = runJson(o.command, device.properties(), bandwidth);
        results_["frames"] = o.frames;
    }

    /// A case the plugin refuses: a documented limit (e.g. FFT lengths), not a failure of the benchmark.
    void addUnsupported(const BloomCase& c, const std::string& reason)
    {
        results_["cases"].push_back({{"case", c.name()}, {"unsupported", reason}});
        addRow("| " + c.name() + " | unsupported: " + reason + " ||||||||||||||\n");
    }

    /// A measured case, its VkFFT anchor (`vkfft` null where it does not apply) and its passes.
    void addCase(const BloomCase& c, const BloomTiming& t, const Skeleton& skeleton, const VkfftTiming* vkfft)
    {
        const double floorMs = t.traffic.floor / bandwidth_ * 1e3;
        nlohmann::json j = caseJson(c, t, skeleton, floorMs);
        const std::string comparedCell = comparisonCell(c, t, j);
        std::string vkfftCells = "n/a | n/a | n/a";
        if (vkfft)
        {
            j["vkfft"] = {{"ok", vkfft->ok},
                          {"error", vkfft->error},
                          {"coreMs", vkfft->coreMs},
                          {"endToEndMs", vkfft->endToEndMs},
                          {"maxRelativeError", vkfft->maxRelativeError}};
            if (vkfft->ok)
            {
                j["vkfftEndToEndOverOurs"] = vkfft->endToEndMs / t.totalMs;
                vkfftCells = fixed(vkfft->coreMs, 3) + " | " + fixed(vkfft->endToEndMs, 3) + " | " +
                             fixed(vkfft->endToEndMs / t.totalMs, 2) + "×";
            }
            else
            {
                vkfftCells = "failed | failed | " + vkfft->error;
                ++failures_;
            }
        }
        addPasses(c, t, skeleton, j);
        results_["cases"].push_back(j);
        addRow("| " + c.name() + " | " + j["firstAxis"].get<std::string>() + " | " +
               std::to_string(t.plan.paddedWidth) + "×" + std::to_string(t.plan.paddedHeight) + " | " +
               fixed(t.pass1Ms, 3) + " | " + fixed(t.pass2Ms, 3) + " | " + fixed(t.pass3Ms, 3) + " | " +
               fixed(t.totalMs, 3) + " | " + fixed(floorMs, 4) + " | " + fixed(t.totalMs / floorMs, 1) + " | " +
               fixed(skeleton.totalMs(), 4) + " | " + fixed(t.totalMs / skeleton.totalMs(), 1) + " | " + vkfftCells +
               " | " + comparedCell + " |\n");
    }

    /// Writes the JSON and Markdown files the options name; the exit code: 1 when a VkFFT anchor failed.
    int finish() const
    {
        if (!o_.jsonPath.empty())
            std::ofstream(o_.jsonPath) << results_.dump(2) << "\n";
        if (!o_.markdownPath.empty())
        {
            std::ofstream markdown(o_.markdownPath);
            markdown << runSentence(o_.command, device_.properties(), bandwidth_) << " Times are medians of "
                     << o_.frames << " frames, milliseconds.\n\n"
                     << table_ << "\nPer pass: the bytes it must move (the floor's model), the "
                     << "bandwidth that achieves, and the driver's statistics of its pipeline "
                     << "(VK_KHR_pipeline_executable_properties).\n\n"
                     << passTable_;
        }
        if (failures_ > 0)
            std::fprintf(stderr, "fftbloom-bench: the VkFFT anchor failed in %d case(s)\n", failures_);
        return failures_ > 0 ? 1 : 0;
    }

  private:
    static nlohmann::json caseJson(const BloomCase& c, const BloomTiming& t, const Skeleton& skeleton, double floorMs)
    {
        return {{"case", c.name()},
                {"width", c.width},
                {"height", c.height},
                {"kernel", c.kernelSize},
                {"padding", settingName(c.padding, kPaddingNames)},
                {"spectrum", c.spectrum == FFTB_SPECTRUM_MODE_EXACT ? "exact" : "resampled"},
                {"interpolation", c.spectrum == FFTB_SPECTRUM_MODE_EXACT ? std::string("none")
                                  : c.interpolationName().empty()        ? std::string("es")
                                                                         : c.interpolationName().substr(1)},
                {"storage", c.storage == FFTB_STORAGE_PRECISION_FLOAT16 ? "fp16" : "fp32"},
                {"resolution", settingName(c.resolution, kResolutionNames)},
                {"firstAxis", t.plan.axisOrder == FFTB_AXIS_ORDER_Y_FIRST ? "y" : "x"},
                {"paddedWidth", t.plan.paddedWidth},
                {"paddedHeight", t.plan.paddedHeight},
                {"kernelSpectrumMs", t.kernelSpectrumMs},
                {"pass1Ms", t.pass1Ms},
                {"pass2Ms", t.pass2Ms},
                {"pass3Ms", t.pass3Ms},
                {"totalMs", t.totalMs},
                {"bytes", {{"pass1", t.traffic.pass1}, {"pass2", t.traffic.pass2}, {"pass3", t.traffic.pass3}}},
                {"floorBytes", t.traffic.floor},
                {"floorMs", floorMs},
                {"skeletonMs",
                 {{"pass1", skeleton.pass1Ms},
                  {"pass2", skeleton.pass2Ms},
                  {"pass3", skeleton.pass3Ms},
                  {"total", skeleton.totalMs()}}},
                {"timesSkeleton", t.totalMs / skeleton.totalMs()},
                {"timesFloor", t.totalMs / floorMs}};
    }

    /// The last column: a generated kernel's frame against the fixed kernel's, or one call for every view against
    /// separate calls; "—" otherwise. Adds the same to `j`.
    std::string comparisonCell(const BloomCase& c, const BloomTiming& t, nlohmann::json& j)
    {
        std::string cell = "—";
        if (c.generatedKernel)
        {
            j["generatedKernel"] = {
                {"generationMs", t.generationMs},
                {"generationPassMs",
                 {t.generationPassMs[0], t.generationPassMs[1], t.generationPassMs[2], t.generationPassMs[3]}},
                {"kernelSpectrumMs", t.frameSpectrumMs},
                {"frameMs", t.frameMs},
                {"frameOverFixedKernel", t.frameMs / fixedKernelMs_}};
            cell = fixed(t.generationMs, 3) + " (" + fixed(t.generationPassMs[0], 3) + ", " +
                   fixed(t.generationPassMs[1], 3) + ", " + fixed(t.generationPassMs[2], 3) + ", " +
                   fixed(t.generationPassMs[3], 3) + ") + " + fixed(t.frameSpectrumMs, 3) + " → " +
                   fixed(t.frameMs, 3) + " (" + fixed(t.frameMs / fixedKernelMs_, 2) + "×)";
        }
        else
            fixedKernelMs_ = t.totalMs;
        if (c.views > 1)
        {
            j["views"] = {{"count", c.views}, {"separate", c.separateViews}};
            if (c.separateViews)
                separateViewsMs_ = t.totalMs;
            else
            {
                j["views"]["overSeparateCalls"] = t.totalMs / separateViewsMs_;
                cell = fixed(t.totalMs / separateViewsMs_, 3) + "×";
            }
        }
        return cell;
    }

    /// Per pass: the bytes it must move, the bandwidth that achieves, and what the driver compiled.
    void addPasses(const BloomCase& c, const BloomTiming& t, const Skeleton& skeleton, nlohmann::json& j)
    {
        const double passBytes[3] = {t.traffic.pass1, t.traffic.pass2, t.traffic.pass3};
        const double passMs[3] = {t.pass1Ms, t.pass2Ms, t.pass3Ms};
        const double skeletonMs[3] = {skeleton.pass1Ms, skeleton.pass2Ms, skeleton.pass3Ms};
        for (uint32_t pass = 1; pass <= 3; ++pass)
        {
            const double achieved = passBytes[pass - 1] / (passMs[pass - 1] * 1e-3);
            std::string compiled, fft = "|";
            nlohmann::json statistics = nlohmann::json::object();
            for (const PassStatistic& s : t.statistics)
                if (s.pass == pass)
                {
                    statistics[s.name] = s.value;
                    compiled += (compiled.empty() ? "" : ", ") + s.name + " " + fixed(s.value, 0);
                    fft = std::to_string(s.fftLength) + " | " + std::to_string(s.workgroupSize);
                }
            j["passes"].push_back({{"pass", pass},
                                   {"bytes", passBytes[pass - 1]},
                                   {"ms", passMs[pass - 1]},
                                   {"skeletonMs", skeletonMs[pass - 1]},
                                   {"bandwidthBytesPerSecond", achieved},
                                   {"ofCopyBandwidth", achieved / bandwidth_},
                                   {"pipelineStatistics", statistics}});
            passTable_ += "| " + c.name() + " | " + std::to_string(pass) + " | " +
                          fixed(passBytes[pass - 1] * 1e-6, 1) + " | " + fixed(achieved * 1e-12, 2) + " | " +
                          fixed(100.0 * achieved / bandwidth_, 0) + " % | " + fixed(passMs[pass - 1], 3) + " | " +
                          fixed(skeletonMs[pass - 1], 3) + " | " + fixed(passMs[pass - 1] / skeletonMs[pass - 1], 1) +
                          " | " + fft + " | " + compiled + " |\n";
        }
    }

    void addRow(const std::string& row)
    {
        table_ += row;
        std::printf("%s", row.c_str());
        std::fflush(stdout);
    }

    const Options& o_;
    const VulkanDevice& device_;
    double bandwidth_;
    nlohmann::json results_;
    int failures_ = 0;
    std::string passTable_ = "| case | pass | MB | TB/s | of copy | ms | skeleton ms | × skeleton | FFT length | "
                             "workgroup | driver's pipeline statistics |\n"
                             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
    std::string table_ =
        "| case | axis first | padded | pass 1 | pass 2 | pass 3 | total ms | floor ms | × floor | "
        "skeleton ms | × skeleton | VkFFT core ms | VkFFT end-to-end ms | VkFFT e2e / ours | "
        "generated kernel: generation (its 4 passes) + spectrum → frame ms (× fixed kernel); views: "
        "× separate calls |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
    double fixedKernelMs_ = 0.0;   ///< the last fixed-kernel case's passes
    double separateViewsMs_ = 0.0; ///< the last case's separate calls
};

/// The VkFFT anchor of case `c` (measured for its size once, the first time), or nullptr where it does not apply:
/// VkFFT's convolution zero-pads, so it solves the same problem as our zero-padded cases only (normalized convolution
/// adds the division); its time does not depend on our interpolation, so it is shown beside the default
/// interpolation and exact; half resolution is compared with the full-resolution convolution measured before it.
const VkfftTiming* vkfftAnchor(VulkanDevice& device, const Options& o, const BloomCase& c, const BloomTiming& t,
                               std::map<std::tuple<uint32_t, uint32_t, uint32_t>, VkfftTiming>& bySize)
{
    const bool otherInterpolation = c.spectrum == FFTB_SPECTRUM_MODE_RESAMPLED && !c.interpolationName().empty();
    if (!o.vkfft || c.padding == FFTB_PADDING_MIRROR || otherInterpolation || c.generatedKernel || c.views != 1 ||
        c.farField)
        return nullptr;
    const auto size = std::tuple{c.width, c.height, c.kernelSize};
    if (!bySize.count(size) && c.resolution == FFTB_BLOOM_RESOLUTION_FULL)
    {
        VkfftCase v;
        v.width = c.width;
        v.height = c.height;
        v.kernelSize = c.kernelSize;
        v.paddedWidth = t.plan.paddedWidth;
        v.paddedHeight = t.plan.paddedHeight;
        v.frames = o.frames;
        v.warmupFrames = o.warmup;
        // The first measurement of a new size ran 2-3x slow on an H200 (bench/results/README.md): keep the second.
        // The smoke run checks that the anchor runs, not its time: one measurement.
        if (!o.smoke)
            measureVkfft(device, v);
        bySize[size] = measureVkfft(device, v);
    }
    const auto it = bySize.find(size);
    return it == bySize.end() ? nullptr : &it->second;
}

/// Every bloom case of `o` with its copy skeleton and VkFFT anchor; the exit code (Report::finish).
int measureBlooms(VulkanDevice& device, const Options& o, double bandwidth)
{
    Report report(o, device, bandwidth);
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, VkfftTiming> vkfftBySize; // width, height, kernel
    for (const BloomCase& c : casesFor(o))
    {
        std::string reason;
        if (!supported(c, &reason))
        {
            report.addUnsupported(c, reason);
            continue;
        }
        const BloomTiming t = measureBloom(device, c);
        const Skeleton skeleton = measureSkeleton(device, t.traffic, o.smoke ? 3 : 20);
        report.addCase(c, t, skeleton, vkfftAnchor(device, o, c, t, vkfftBySize));
    }
    return report.finish();
}

int run(const Options& o)
{
    VulkanDeviceOptions deviceOptions{o.deviceIndex, o.validation};
    deviceOptions.pipelineStatistics = true;
    VulkanDevice device(deviceOptions);
    if (!device.timestamps())
        throw HostError(std::string("Vulkan: ") + device.properties().deviceName + " has no compute timestamps");
    const double bandwidth = measureCopyBandwidth(device, o.copyMiB << 20, o.smoke ? 3 : 20);
    std::printf("%s (driver %s): copy %.3f TB/s\n", device.properties().deviceName,
                driverVersion(device.properties()).c_str(), bandwidth * 1e-12);
    const int result = o.fftLines
                           ? runFftLines(device, bandwidth,
                                         {o.command, o.jsonPath, o.markdownPath, o.warmup, o.frames, o.smoke, o.vkfft})
                           : measureBlooms(device, o, bandwidth);
    if (device.validationMessageCount() > 0)
    {
        std::fprintf(stderr, "fftbloom-bench: Vulkan validation: %llu message(s), the first: %s\n",
                     static_cast<unsigned long long>(device.validationMessageCount()),
                     device.firstValidationMessage().c_str());
        return 1;
    }
    return result;
}

} // namespace

int main(int argc, char** argv)
{
    Options o;
    for (int i = 0; i < argc; ++i)
        o.command += (i ? " " : "") + std::string(i ? argv[i] : "fftbloom-bench");
    CLI::App app{"fftbloom-bench: per-pass GPU time of fftbloom against VkFFT's fused convolution and the copy "
                 "bandwidth floor (DESIGN.md section 4).",
                 "fftbloom-bench"};
    app.add_option("--json", o.jsonPath, "write the results as JSON here");
    app.add_option("--markdown", o.markdownPath, "write the results as a Markdown table here");
    app.add_option("--frames", o.frames, "timed frames per case (medians are reported)")->capture_default_str();
    // GPUs raise their clocks only under sustained work: 5 warm-up frames measured VkFFT 2x slow on an H100.
    app.add_option("--warmup", o.warmup,
                   "untimed frames first, per case (fewer than ~2000 leave some cases timed before the H200 reaches "
                   "its clocks)")
        ->capture_default_str();
    app.add_option("--copy-mib", o.copyMiB, "buffer size of the copy-bandwidth probe, MiB")->capture_default_str();
    app.add_option("--device", o.deviceIndex, "Vulkan physical device index; default: the first discrete GPU");
    app.add_flag("--generated-kernel", o.generatedKernel,
                 "instead of the usual cases: per size the default bloom with its fixed kernel, then with the kernel "
                 "generated on the GPU every frame (an eye whose pupil and lens particles change each frame)");
    app.add_option("--views", o.views,
                   "bloom each size as this many views (different frames, one kernel), by a call each and by one "
                   "call for all (FftbMultiViewInfo), with zero padding and normalized convolution")
        ->check(CLI::Range(1u, uint32_t(FFTB_MAX_VIEWS)))
        ->capture_default_str();
    app.add_flag("--fft-lines", o.fftLines,
                 "instead of the blooms: the FFT engine alone, forward, on batches of complex fp32 lines (one frame's "
                 "lines of each pass as cufft-lines-anchor.py times them, and a ~256 MB batch per length): median time "
                 "of --frames dispatches after --warmup ones, beside the same loads and stores without the FFT and "
                 "VkFFT's FFT of the same lines out of place (unless --no-vkfft); fraction of the copy bandwidth, the "
                 "planner's workgroup, the driver's pipeline statistics, and the error of two lines per length, ours "
                 "and VkFFT's, against a DFT in double (above 1e-4 of the peak: exit 1)");
    app.add_flag("--smoke", o.smoke,
                 "one tiny case, few frames: checks that the benchmark runs (lavapipe in CI); with --fft-lines 2048 x "
                 "16");
    app.add_flag("!--no-vkfft", o.vkfft, "skip the VkFFT anchor");
    app.add_flag("--validate", o.validation,
                 "enable the Khronos validation layer (synchronization validation included); any message fails the "
                 "run (timings are then meaningless)");
    app.add_option("--sizes", o.sizes, "cases as WIDTHxHEIGHT/KERNEL, comma-separated")->capture_default_str();
    app.add_flag("--power-of-two", o.powerOfTwo,
                 "also time each case padded to powers of two only (FFTB_LENGTH_POLICY_POWER_OF_TWO)");
    try
    {
        app.parse(argc, argv);
    }
    catch (const CLI::ParseError& e)
    {
        return app.exit(e) == 0 ? 0 : 2;
    }
    if (o.smoke)
    {
        o.frames = std::min(o.frames, 3);
        o.warmup = std::min(o.warmup, 1);
        o.copyMiB = std::min<uint64_t>(o.copyMiB, 16);
    }
    try
    {
        return run(o);
    }
    catch (const std::exception& e)
    {
        std::fprintf(stderr, "fftbloom-bench: %s\n", e.what());
        return 1;
    }
}
