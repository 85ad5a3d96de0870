// SPDX-License-Identifier: MIT
// What fftbloom prints while a batch runs: a progress bar on a terminal, a line per frame otherwise.
#pragma once

#include "runner/batch.h"

#include <chrono>
#include <cstddef>
#include <string>

namespace fftb
{

/// Prints failures to stderr always; progress to stdout unless quiet: a bar redrawn in place when stdout is a
/// terminal (frames done/total, the skipped and failed among them, frames written per second, and the ETA of the
/// rest at that rate), else one line per frame ("<isoTime> [done/total] frame N: in -> out"). Verbose adds a line
/// per frame with the FFT plan and timings on a terminal too, and each frame's scrubbed and saturated values, which
/// are otherwise summed once at the end. With MessageFormat::Json (message.h) every line is a JSON object: a frame's
/// is frameJson's with "time", "level": "info", "event": "frame", "done", "total"; the totals' is summaryJson's with
/// "event": "summary".
class Progress
{
  public:
    Progress(bool quiet, bool verbose);

    /// A FrameCallback: called under the batch's lock.
    void onFrame(const FrameRecord& frame, std::size_t done, std::size_t total);

    /// Clears the bar and prints the totals line (unless quiet).
    void finish(const BatchSummary& summary, const std::string& deviceName);

  private:
    void drawBar(std::size_t done, std::size_t total);

    std::size_t written_ = 0, skipped_ = 0, failed_ = 0;
    ScrubCounts scrubbed_;
    uint64_t saturated_ = 0;
    std::size_t framesScrubbed_ = 0, framesSaturated_ = 0, framesLossy_ = 0;

    bool quiet_;
    bool verbose_;
    bool terminal_;
    bool barShown_ = false;
    std::chrono::steady_clock::time_point start_;
};

} // namespace fftb
