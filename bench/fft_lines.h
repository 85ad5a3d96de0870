// SPDX-License-Identifier: MIT
// fftbloom-bench --fft-lines: the plugin's FFT engine alone, forward, on batches of contiguous complex fp32 lines:
// median GPU time and fraction of the copy bandwidth, the workgroup the planner chose, and the error of a few lines
// against a direct DFT in double precision.
#pragma once

#include "vulkan/vulkan_device.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fftb::bench
{

/// One batch: `lines` complex fp32 lines of `length` elements (an FFT length), contiguous rows, transformed forward
/// from one buffer into another.
struct FftLinesCase
{
    uint32_t length = 0, lines = 0;
    std::string label;  ///< what the batch stands for: "1080p rows", "large batch"
    bool check = false; ///< compare the batch's first and last lines with a direct DFT
    /// Bytes the transform must move: every line read once and written once, 8 bytes an element each way.
    double bytesMoved() const { return 2.0 * 8.0 * double(lines) * double(length); }
    std::string name() const { return std::to_string(length) + "x" + std::to_string(lines); } ///< "2048x1620"
};

/// The calibration's cases: the lines of one frame's passes as ../shared/tools/cufft-lines-anchor.py times them
/// (2048 x 1620, 1225 x 3075, 1536 x 1080, 4096 x 3240, 2560 x 6147), then for each length of the bench's frame sizes
/// (1225, 1536, 2048, 2240, 2560, 4096, 4480) a batch moving about 256 MB; the first case of each length is checked.
/// `smoke`: 2048 x 16 alone, checked.
std::vector<FftLinesCase> fftLinesCases(bool smoke);

/// One case measured.
struct FftLinesTiming
{
    double ms = 0;                      ///< median GPU time of the dispatch that transforms the batch, milliseconds
    uint32_t workgroupSize = 0;         ///< invocations per workgroup (workgroupSizeOf, as the plugin plans)
    uint32_t elementsPerInvocation = 0; ///< complex elements of a line each invocation holds: ceil(length / workgroup)
    /// FftLinesCase::check: max |GPU - DFT| over the line's max |DFT|, the worst of the lines checked
    std::optional<double> maxRelativeError;
};

/// Transforms `c`'s batch of random lines (fixed seed) `warmup` times untimed, then `repeats` times between
/// timestamps, with the plugin's specialization constants and twiddle tables; throws HostError (VulkanError).
FftLinesTiming measureFftLines(VulkanDevice& device, const FftLinesCase& c, int warmup, int repeats);

/// Largest error of a checked line, relative to its peak, a run accepts.
constexpr double kFftLinesTolerance = 1e-4;

/// What a --fft-lines run was asked for.
struct FftLinesRun
{
    std::string command;                ///< the command line, for the reports
    std::string jsonPath, markdownPath; ///< reports to write; empty: none
    int warmup = 2000, repeats = 50;    ///< dispatches per case: untimed, then timed
    bool smoke = false;                 ///< fftLinesCases(true)
};

/// Measures every case, printing the Markdown table to stdout as it goes, and writes the reports `run` names; the
/// exit code: 1 when a checked line's error is above kFftLinesTolerance, else 0.
int runFftLines(VulkanDevice& device, double copyBandwidth, const FftLinesRun& run);

} // namespace fftb::bench
