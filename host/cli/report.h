// SPDX-License-Identifier: MIT
// The JSON report of a batch (--report).
#pragma once

#include "runner/batch.h"

#include <string>

namespace fftb
{

/// Writes `summary` as JSON to `path`, whole or not at all:
/// { "fftbloom": version, "device": name, "frames": [ { "input", "output", "status": "ok" | "skipped" | "failed",
///   "error" (failed only), "width", "height", "fft": [width, height], "firstAxis": "x" | "y",
///   "scrubbed": { "nan", "negative", "clamped" }, "seconds": { "decode", "gpu", "encode" }, "gpuMilliseconds" } ],
///   "totals": { "frames", "ok", "skipped", "failed", "scrubbed", "wallSeconds", "framesPerSecond",
///   "decodeSeconds", "gpuSeconds", "encodeSeconds" }, "stoppedBy" (only when the batch stopped early) }.
/// Seconds are wall time on the thread doing the step; frames per second counts frames written or failed.
/// Throws HostError "<path>: <reason>".
void writeReport(const std::string& path, const BatchSummary& summary, const std::string& deviceName);

} // namespace fftb
