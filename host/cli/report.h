// SPDX-License-Identifier: MIT
// The report of a batch (--report): JSON Lines, appended as the batch goes.
#pragma once

#include "runner/batch.h"

#include <string>

namespace fftb
{

/// Appends the report of one run to `path` (created if missing), one JSON object a line, each line handed to the
/// operating system (one write(2), no buffering in the process) as soon as its event happens, so a killed run keeps
/// every line it finished and the run that resumes it appends its own. No fsync: it would stall the batch's lock on
/// slow (network) file systems, and only a crash of the machine, not of the process, can lose lines the system holds:
///   {"type": "run", "fftbloom": version, "device": name}                                when the run starts
///   {"type": "frame", "index" (the frame's position in the run's list, from 0: lines come as frames end, not in
///    that order), "input", "output", "status": "ok" | "skipped" | "failed", "error" (failed only), "width",
///    "height", "fft": [width, height], "kernelScale", "kernelExtent": [width, height], "firstAxis": "x" | "y",
///    "scrubbed": {"nan", "negative", "clamped"}, "saturated", "seconds": {"decode", "gpuStage", "encode"},
///    "gpuMilliseconds"}                                                                  as each frame ends
///   {"type": "summary", "frames", "ok", "skipped", "failed", "scrubbed", "saturated", "wallSeconds",
///    "framesPerSecond", "decodeSeconds", "gpuSeconds", "encodeSeconds", "stoppedBy" (only when the batch stopped
///    early)}                                                                             when the run ends
/// A frame's "gpuMilliseconds" is the time of its passes by the GPU's timestamps, and the summary's "gpuSeconds" is
/// their sum, in seconds; "seconds.gpuStage" is the wall time from submission to readback, queueing and transfers
/// included. "framesPerSecond" counts frames written (status ok) only. A reader should skip a last line without its
/// end, which a kill during the write can leave. Throws HostError "<path>: <reason>".
class ReportWriter
{
  public:
    /// Throws HostError "<path>: <reason>" unless a report can be appended to `path`: missing, or a regular file that
    /// is empty or starts with a report's "run" line. A FIFO or device would block or swallow the report, and any other
    /// file is not ours to append to; checked before any frame is read.
    static void checkPath(const std::string& path);

    ReportWriter(const std::string& path, const std::string& deviceName);
    ~ReportWriter();
    ReportWriter(const ReportWriter&) = delete;
    ReportWriter& operator=(const ReportWriter&) = delete;

    void frame(const FrameRecord& record);
    void summary(const BatchSummary& summary);

  private:
    void append(const std::string& line);

    std::string path_;
    int fd_ = -1;
};

} // namespace fftb
