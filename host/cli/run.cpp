// SPDX-License-Identifier: MIT
// One fftbloom run: options parsed, frames named and checked, the batch bloomed, reported and summed up.
#include "run.h"

#include "host_error.h"
#include "image/atomic_file.h"
#include "image/image_io.h"
#include "message.h"
#include "node/aperture_info.h"
#include "options.h"
#include "progress.h"
#include "provenance.h"
#include "report.h"
#include "runner/batch.h"
#include "settings/kernel_texels.h"
#include "vulkan/device_loss.h"

#include <signal.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace fftb
{
namespace
{

/// The kernel's texels at --kernel-size (makeKernelTexels); for a file, the bloom's kernel span becomes the file's own
/// extent at native, so that --kernel-size changes only its sampling, and a file whose light reaches its border
/// unfaded gets a warning on stderr.
Texels loadKernel(CliOptions& o)
{
    KernelTexels made = makeKernelTexels(o.batch.settings.kernel);
    o.batch.settings.plan.kernelSpan = made.spanOn(o.batch.settings.plan.kernelSpan);
    if (!made.warning.empty())
        printMessage("fftbloom", "warning: " + made.warning);
    return std::move(made.texels);
}

/// --dry-run: one line per job on stdout ("IN -> OUT + PREVIEW", ": skipped: output exists", "IN: missing"), or with
/// MessageFormat::Json an event "plan" with "input", "output", "preview" (when made) and "plan": "write" | "skipped" |
/// "missing" (level "error"). Returns the exit code a run would give for missing inputs.
int printPlan(const std::vector<BatchJob>& jobs, bool overwrite)
{
    int code = kExitOk;
    for (const BatchJob& job : jobs)
    {
        std::error_code ec;
        const bool missing = !std::filesystem::exists(job.input, ec);
        const bool skipped = !missing && !overwrite && std::filesystem::exists(job.output, ec);
        if (missing)
            code = kExitSomeFailed;
        if (messageFormat() == MessageFormat::Json)
        {
            nlohmann::ordered_json fields{{"input", job.input}, {"output", job.output}};
            if (!job.preview.empty())
                fields["preview"] = job.preview;
            fields["plan"] = missing ? "missing" : skipped ? "skipped" : "write";
            printEvent(missing ? "error" : "info", "plan", fields);
        }
        else if (missing)
            std::printf("%s: missing\n", job.input.c_str());
        else
            std::printf("%s -> %s%s%s%s\n", job.input.c_str(), job.output.c_str(), job.preview.empty() ? "" : " + ",
                        job.preview.c_str(), skipped ? ": skipped: output exists" : "");
    }
    return code;
}

/// Throws HostError naming the first output whose name does not end in .exr (in any case): fftbloom writes OpenEXR,
/// and a PNG of the bloom is a preview.
void checkExrNames(const std::vector<BatchJob>& jobs)
{
    for (const BatchJob& job : jobs)
    {
        std::string extension = std::filesystem::path(job.output).extension().string();
        std::transform(extension.begin(), extension.end(), extension.begin(),
                       [](unsigned char c) { return char(std::tolower(c)); });
        if (extension != ".exr")
            throw HostError(job.output +
                            ": fftbloom writes OpenEXR: name the output .exr (a PNG preview of it: --preview, "
                            "--preview-pattern or --preview-dir)");
    }
}

/// What a run's report needs, shared by the run and the action a termination signal takes (onTermination): the
/// report, and the frames that ended.
struct RunRecord
{
    std::mutex mutex;
    std::optional<ReportWriter> writer;
    bool writeFailed = false; ///< a line could not be written: named once, no more lines
    bool finished = false;    ///< the summary is written (or the run stopped): no more lines
    std::vector<FrameRecord> ended;
    std::size_t total = 0;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();

    /// Writes one line with `write` unless the report failed or finished; a failure is named once.
    template <typename Write> void line(Write&& write)
    {
        if (!writer || writeFailed || finished)
            return;
        try
        {
            write(*writer);
        }
        catch (const HostError& e)
        {
            printMessage("fftbloom", e.what());
            writeFailed = true;
        }
    }

    void frame(const FrameRecord& f)
    {
        const std::lock_guard<std::mutex> lock(mutex);
        ended.push_back(f);
        line([&f](ReportWriter& r) { r.frame(f); });
    }

    /// The summary; true when a line of the report could not be written.
    bool finish(const BatchSummary& summary)
    {
        const std::lock_guard<std::mutex> lock(mutex);
        line([&summary](ReportWriter& r) { r.summary(summary); });
        finished = true;
        return writeFailed;
    }

    /// A signal stops the run: the summary of the frames that ended, "stoppedBy" the signal, and a line on stderr.
    void stop(int signal)
    {
        const std::lock_guard<std::mutex> lock(mutex);
        if (finished)
            return;
        const char* name = signal == SIGINT ? "SIGINT" : signal == SIGHUP ? "SIGHUP" : "SIGTERM";
        BatchSummary summary;
        summary.frames = ended;
        summary.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        summary.fatalError = name;
        line([&](ReportWriter& r) { r.summary(summary, total - ended.size()); });
        finished = true;
        printMessage("fftbloom", std::string("stopped by ") + name + " after " + std::to_string(ended.size()) + " of " +
                                     std::to_string(total) +
                                     " frames; the same command resumes (written frames are skipped)");
    }
};

/// An input and the seed of its animated kernel: --seed plus its frame number (frameNumberOf).
struct SeededFrame
{
    FrameInput input;
    uint32_t kernelSeed = 0;
};

/// This task's jobs, its shard or chunk of the whole list (named and checked over the whole list), with their inputs;
/// the kernel, the animated kernel's aperture, the outputs' attributes and the previews' display into `o.batch`.
/// Throws HostError.
void planJobs(CliOptions& o, std::vector<BatchJob>& jobs, std::vector<FrameInput>& frameInputs)
{
    std::vector<SeededFrame> seeded;
    for (std::size_t i = 0; i < o.frames.size(); ++i)
        seeded.push_back(
            {o.frames[i], o.batch.settings.kernel.aperture.seed + uint32_t(frameNumberOf(o.frames[i], i))});
    std::vector<std::string> inputs;
    for (const SeededFrame& frame : seeded)
        inputs.push_back(frame.input.path);
    // Named and checked over the whole list in every shard and chunk, so that each task refuses a collision the
    // same way (two shards writing one name would each pass a check of their own frames); sharded after.
    std::vector<BatchJob> all = !o.output.empty()   ? jobsForOutputPath(o.frames, o.output)
                                : !o.outDir.empty() ? jobsForOutDir(inputs, o.outDir, o.suffix)
                                                    : jobsForOutputPattern(o.frames, o.outputPattern);
    checkExrNames(all);
    namePreviews(all, o.frames, o.preview);
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i].frame = frameNumberIn(o.frames[i]);
    nameMasks(all, o.batch.settings.frame.mask);
    std::vector<NamedPath> reads, writes;
    for (const BatchJob& job : all)
        reads.push_back({"--mask", job.mask});
    for (const auto& [role, path] :
         {std::pair{"--kernel", &o.batch.settings.kernel.file}, std::pair{"--list", &o.listPath},
          std::pair{"--list0", &o.list0Path}, std::pair{"--settings", &o.settingsPath}})
        reads.push_back({role, *path});
    // The previews read the OpenColorIO config $OCIO names: not a file to write over.
    const bool previews = std::any_of(all.begin(), all.end(), [](const BatchJob& j) { return !j.preview.empty(); });
    if (const char* ocio = std::getenv("OCIO"); previews && ocio && *ocio)
        reads.push_back({"$OCIO", ocio});
    writes.push_back({"--report", o.reportPath});
    checkJobs(all, reads, writes);
    if (!o.reportPath.empty())
        ReportWriter::checkPath(o.reportPath);
    std::vector<std::size_t> positions(all.size());
    for (std::size_t i = 0; i < all.size(); ++i)
    {
        all[i].kernelSeed = seeded[i].kernelSeed;
        positions[i] = i;
    }
    // Every output form splits alike: -o with a frame placeholder names a shot as --output-pattern does.
    const std::vector<std::size_t> mine =
        o.contiguous ? chunkOf(positions, o.shardIndex, o.shardCount) : shardOf(positions, o.shardIndex, o.shardCount);
    for (const std::size_t i : mine)
    {
        jobs.push_back(all[i]);
        frameInputs.push_back(seeded[i].input);
    }
    o.batch.kernel = loadKernel(o);
    if (o.batch.settings.kernel.animate)
        o.batch.animatedKernel =
            apertureInfoOf(o.batch.settings.kernel.psfDesign()); // the Airy radius checked (options.cpp)
    o.batch.outputAttributes = provenanceAttributes(o.settingsJson, o.batch.settings.kernel.file);
    if (previews)
        o.batch.previewDisplay = OcioDisplay::fromEnvironment(o.ocio);
}

int run(CliOptions& o)
{
    std::vector<BatchJob> jobs;
    std::vector<FrameInput> frameInputs;
    try
    {
        planJobs(o, jobs, frameInputs);
    }
    catch (const HostError& e)
    {
        printMessage("fftbloom", e.what());
        return kExitUsage;
    }

    constexpr uint32_t kFramesInFlight = 3;
    o.runner.framesInFlight = kFramesInFlight;
    // Test hook (docs/reliability.md): simulate a device loss after this many completed submissions.
    o.runner.loseDeviceAfterWaits = loseDeviceAfterFromEnvironment();
    GpuRunner runner(o.runner);
    try
    {
        runner.check(o.batch.kernel, o.batch.settings);
    }
    catch (const FrameRefused& e) // refused with the smallest frame: refused with every frame
    {
        printMessage("fftbloom",
                     "the kernel and settings fit no frame on " + runner.deviceName() + ": " + std::string(e.what()));
        return kExitUsage;
    }
    for (const FrameGap& gap : o.gaps)
        printMessage("fftbloom", "warning: " + gap.note());
    for (const std::string& line : missingFrames(frameInputs)) // each pattern's missing frames once; they fail below
        printMessage("fftbloom", line);
    if (o.dryRun)
        return printPlan(jobs, o.batch.overwrite);
    if (!jobs.empty() && !jobs.front().preview.empty() && !o.quiet)
        printInfo("fftbloom",
                  "preview " + (o.batch.previewDisplay
                                    ? "through OpenColorIO's " + o.batch.previewDisplay->description()
                                    : std::string("tonemapped by the built-in ACES fitted curve, sRGB, as the viewer's "
                                                  "default ($OCIO is not set)")));
    // The report: a line per frame as it ends, so a killed run keeps what it did. A report that cannot be opened stops
    // the run before any frame (exit 2); one that fails later does not stop the batch: it is named once and the run
    // ends with exit 1. A signal that stops the run (SIGTERM, SIGINT, SIGHUP) ends it with the summary of the frames
    // that had ended: the state is shared with that last action, which may run on the signal's thread at any time.
    const auto report = std::make_shared<RunRecord>();
    report->total = jobs.size();
    if (!o.reportPath.empty())
    {
        try
        {
            report->writer.emplace(o.reportPath,
                                   RunInfo{o.arguments, runner.deviceName(), o.shardText, o.contiguous, o.gaps});
        }
        catch (const HostError& e)
        {
            printMessage("fftbloom", e.what());
            return kExitUsage;
        }
    }
    onTermination([report](int signal) { report->stop(signal); });
    BloomStage stage(runner, o.batch, kFramesInFlight);
    Progress progress(o.quiet, o.verbose);
    const BatchSummary summary = runBatch(jobs, o.batch, stage,
                                          [&](const FrameRecord& f, std::size_t done, std::size_t total)
                                          {
                                              progress.onFrame(f, done, total);
                                              report->frame(f);
                                          });
    progress.finish(summary, runner.deviceName());
    const bool reportFailed = report->finish(summary);
    onTermination({});
    int failed = summary.count(FrameStatus::Failed) > 0 || reportFailed ? kExitSomeFailed : kExitOk;
    if (!summary.fatalError.empty())
    {
        printMessage("fftbloom", "the batch stopped: " + summary.fatalError);
        return kExitStopped;
    }
    if (runner.validationMessageCount() > 0)
    {
        printMessage("fftbloom", "Vulkan validation: " + runner.firstValidationMessage());
        return kExitSomeFailed;
    }
    return failed;
}

} // namespace

int runFftbloom(int argc, char** argv)
{
    CliOptions options;
    if (const std::optional<int> code = parseOptions(argc, argv, options))
        return *code;
    try
    {
        return run(options);
    }
    catch (const std::exception& e) // no usable Vulkan device
    {
        printMessage("fftbloom", e.what());
    }
    return kExitStopped;
}

} // namespace fftb
