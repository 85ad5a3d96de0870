// SPDX-License-Identifier: MIT
// The report of a batch (--report): JSON Lines, appended as the batch goes.
#pragma once

#include "runner/batch.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace fftb
{

/// Where and how a run was started, for its report's "run" line.
struct RunInfo
{
    std::vector<std::string> arguments; ///< argv, the program's name first
    std::string deviceName;
    std::string shard;          ///< --shard's or --chunk's I/N as resolved ("3/10"); empty: the whole list
    bool chunk = false;         ///< the shard is --chunk's
    std::vector<FrameGap> gaps; ///< the frames missing between those of sequences found on disk, not bloomed
    std::chrono::system_clock::time_point started = std::chrono::system_clock::now();
};

/// A frame's line (without "type"): "index", "frame" (its number, when its name has one), "time" (when it ended,
/// isoTime), "input", "output", "mask" (its --mask file, when one), "preview" (when made), "status", "error" (failed
/// only), and for a frame read, "views" (of a stereo file), "width", "height", "fft", "kernelScale", "kernelExtent",
/// "firstAxis", "scrubbed", "saturated", "seconds", "lossyReencoded" (when true), "gpuMilliseconds" (see ReportWriter).
nlohmann::ordered_json frameJson(const FrameRecord& record);

/// The summary's line (without "type") of `summary`'s frames: "frames" (those and `unfinished` more), "ok", "skipped",
/// "failed", "unfinished" (when not 0: frames that had not ended when the run was stopped), "scrubbed", "saturated",
/// "lossyReencoded" (frames whose bloomed part's other channels a lossy codec re-encoded), "wallSeconds",
/// "framesPerSecond", "decodeSeconds", "gpuSeconds", "encodeSeconds", "stoppedBy" (when BatchSummary::fatalError is
/// set).
nlohmann::ordered_json summaryJson(const BatchSummary& summary, std::size_t unfinished = 0);

/// Prints {"time": isoTime, "level", "event", then `fields`} as one line on stdout, flushed: the lines of
/// --log-format json that are no message (message.h) but an event: a frame, the summary, --dry-run's plan.
void printEvent(const char* level, const char* event, const nlohmann::ordered_json& fields);

/// Appends the report of one run to `path` (created if missing), one JSON object a line, each line handed to the
/// operating system (one write(2), no buffering in the process) as soon as its event happens, so a killed run keeps
/// every line it finished and the run that resumes it appends its own. No fsync: it would stall the batch's lock on
/// slow (network) file systems, and only a crash of the machine, not of the process, can lose lines the system holds:
///   {"type": "run", "fftbloom": version, "device": name, "arguments": [argv], "shard" or "chunk": "I/N" (when
///    given), "missing": [{"input": pattern, "frames": "1005-1007, 1010", "count"}] (frames of sequences found on
///    disk missing between their first and last, not bloomed; when any), "host", "pid", "started": isoTime}
///                                                                                        when the run starts
///   {"type": "frame", "index" (the frame's position in the run's list, from 0: lines come as frames end, not in
///    that order), "frame" (its frame number: its pattern's, else the digits ending its name; absent without),
///    "time" (when it ended), "input", "output", "mask" (its --mask file), "preview" (when made), "status": "ok" |
///    "skipped" | "failed", "error" (failed only), "views": [names] (a stereo file's views bloomed), "width", "height",
///    "fft": [width, height], "kernelScale", "kernelExtent": [width, height], "firstAxis": "x" | "y", "scrubbed":
///    {"nan", "negative", "clamped"}, "saturated", "lossyReencoded" (true when FrameRecord::lossyReencoded), "seconds":
///    {"decode", "gpuStage", "encode"}, "gpuMilliseconds"}
///                                                                                        as each frame ends
///   {"type": "summary", "frames", "ok", "skipped", "failed", "unfinished" (only when stopped by a signal),
///    "scrubbed", "saturated", "lossyReencoded" (a count of frames), "wallSeconds", "framesPerSecond", "decodeSeconds",
///    "gpuSeconds", "encodeSeconds", "stoppedBy" (only when the batch stopped early: the GPU's failure, or "SIGTERM",
///    "SIGINT", "SIGHUP")}
///                                                                                        when the run ends
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

    ReportWriter(const std::string& path, const RunInfo& run);
    ~ReportWriter();
    ReportWriter(const ReportWriter&) = delete;
    ReportWriter& operator=(const ReportWriter&) = delete;

    void frame(const FrameRecord& record);
    /// The summary line (summaryJson).
    void summary(const BatchSummary& summary, std::size_t unfinished = 0);

  private:
    void append(const std::string& line);

    std::string path_;
    int fd_ = -1;
};

} // namespace fftb
