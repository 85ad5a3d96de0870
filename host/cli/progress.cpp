// SPDX-License-Identifier: MIT
// The progress bar, the per-frame lines and the totals line of fftbloom.
#include "progress.h"

#include "message.h"
#include "report.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace fftb
{

namespace
{

std::string planOf(const FrameRecord& f)
{
    char text[200];
    std::snprintf(text, sizeof text,
                  "%dx%d, kernel %ux%u px (x%.4g), FFT %ux%u %s first, %.0f ms decode, %.1f ms GPU, %.0f ms encode",
                  f.width, f.height, f.plan.kernelExtentWidth, f.plan.kernelExtentHeight, f.plan.kernelScale,
                  f.plan.paddedWidth, f.plan.paddedHeight, f.plan.axisOrder == FFTB_AXIS_ORDER_Y_FIRST ? "y" : "x",
                  f.decodeSeconds * 1e3, f.gpuMilliseconds, f.encodeSeconds * 1e3);
    return text;
}

std::string clockOf(double seconds)
{
    const long s = long(seconds + 0.5);
    char text[32];
    if (s >= 3600)
        std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else
        std::snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
    return text;
}

} // namespace

Progress::Progress(bool quiet, bool verbose)
    : quiet_(quiet), verbose_(verbose), terminal_(::isatty(STDOUT_FILENO) == 1),
      start_(std::chrono::steady_clock::now())
{
}

void Progress::onFrame(const FrameRecord& f, std::size_t done, std::size_t total)
{
    if (f.status == FrameStatus::Ok)
        ++written_;
    else if (f.status == FrameStatus::Skipped)
        ++skipped_;
    else
        ++failed_;
    scrubbed_.nan += f.scrubbed.nan;
    scrubbed_.negative += f.scrubbed.negative;
    scrubbed_.clamped += f.scrubbed.clamped;
    saturated_ += f.saturated;
    framesScrubbed_ += f.scrubbed.total() > 0;
    framesSaturated_ += f.saturated > 0;
    framesLossy_ += f.lossyReencoded;
    const bool json = messageFormat() == MessageFormat::Json;
    if (barShown_ && (f.status == FrameStatus::Failed || verbose_))
    {
        std::printf("\r\033[K"); // the line goes where the bar was; the bar is redrawn below it
        std::fflush(stdout);
    }
    if (f.status == FrameStatus::Failed)
        printMessage("fftbloom", f.error);
    if (quiet_)
        return;
    if (json)
    {
        nlohmann::ordered_json fields{{"done", done}, {"total", total}};
        fields.update(frameJson(f));
        printEvent(f.status == FrameStatus::Failed ? "error" : "info", "frame", fields);
    }
    else if (!terminal_ || verbose_)
    {
        const int width = int(std::to_string(total).size());
        std::printf("%s [%*zu/%zu] ", isoTime(std::chrono::system_clock::now()).c_str(), width, done, total);
        if (f.job.frame)
            std::printf("frame %d: ", *f.job.frame);
        if (f.status == FrameStatus::Ok)
            std::printf("%s -> %s%s%s", f.job.input.c_str(), f.job.output.c_str(), f.job.preview.empty() ? "" : ", ",
                        f.job.preview.c_str());
        else if (f.status == FrameStatus::Skipped)
            std::printf("%s: skipped, %s exists (--overwrite replaces it)", f.job.input.c_str(), f.job.output.c_str());
        else
            std::printf("%s: failed", f.job.input.c_str());
        if (f.status == FrameStatus::Ok && verbose_)
            std::printf(" (%s)", planOf(f).c_str());
        if (f.scrubbed.total() > 0 && verbose_)
            std::printf(" [scrubbed %llu NaN, %llu negative, %llu above --clamp]", (unsigned long long)f.scrubbed.nan,
                        (unsigned long long)f.scrubbed.negative, (unsigned long long)f.scrubbed.clamped);
        if (f.saturated > 0 && verbose_)
            std::printf(" [%llu values beyond 65504 written as half: saturated]", (unsigned long long)f.saturated);
        std::printf("\n");
    }
    if (terminal_ && !json)
        drawBar(done, total);
    std::fflush(stdout);
}

void Progress::drawBar(std::size_t done, std::size_t total)
{
    constexpr int kWidth = 30;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    // Skipped frames take no time and failed ones little: the rate and the ETA are the written frames'.
    const double fps = elapsed > 0.0 ? double(written_) / elapsed : 0.0;
    const int filled = total ? int(kWidth * done / total) : kWidth;
    std::string bar(std::size_t(filled), '=');
    bar.resize(kWidth, ' ');
    std::printf("\r\033[K[%s] %zu/%zu (%zu skipped, %zu failed)  %.1f fps  ETA %s", bar.c_str(), done, total, skipped_,
                failed_, fps, fps > 0.0 ? clockOf(double(total - done) / fps).c_str() : "-");
    barShown_ = true;
}

void Progress::finish(const BatchSummary& summary, const std::string& deviceName)
{
    if (quiet_)
        return;
    if (barShown_)
        std::printf("\r\033[K");
    if (messageFormat() == MessageFormat::Json)
    {
        nlohmann::ordered_json fields{{"device", deviceName}};
        fields.update(summaryJson(summary));
        printEvent("info", "summary", fields);
        return;
    }
    // The values scrubbed and saturated, once for the run (each frame's with -v and in the report).
    if (framesScrubbed_ > 0)
        printInfo("fftbloom", std::to_string(framesScrubbed_) +
                                  " frames had values scrubbed before the bloom: " + std::to_string(scrubbed_.nan) +
                                  " NaN, " + std::to_string(scrubbed_.negative) + " negative, " +
                                  std::to_string(scrubbed_.clamped) + " above --clamp (-v or --report: each frame's)");
    if (framesSaturated_ > 0)
        printInfo("fftbloom", std::to_string(framesSaturated_) + " frames had values beyond 65504 written as half: " +
                                  std::to_string(saturated_) + " saturated (-v or --report: each frame's)");
    if (framesLossy_ > 0)
        printInfo("fftbloom", std::to_string(framesLossy_) +
                                  " frames: the channels beside R, G, B in the part bloomed were re-encoded with its "
                                  "lossy compression and changed a little (--compression zip keeps them exact)");
    const std::size_t written = summary.count(FrameStatus::Ok);
    char totals[512];
    std::snprintf(totals, sizeof totals,
                  "%zu frames: %zu written, %zu skipped, %zu failed in %.1f s (%.1f written/s) on %s",
                  summary.frames.size(), written, summary.count(FrameStatus::Skipped),
                  summary.count(FrameStatus::Failed), summary.wallSeconds,
                  summary.wallSeconds > 0.0 ? double(written) / summary.wallSeconds : 0.0, deviceName.c_str());
    printInfo("fftbloom", totals);
}

} // namespace fftb
