// SPDX-License-Identifier: MIT
// fftbloom-bench --fft-lines: the plugin's FFT engine alone, forward, on batches of contiguous complex fp32 lines:
// median GPU time and fraction of the copy bandwidth, the workgroup the planner chose, and the error of a few lines
// against a direct DFT in double precision.
#pragma once

#include "vulkan/vulkan_device.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
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

/// The batch: 2 x lines x length floats, its lines one after another, interleaved (re, im), uniform in [-1, 1) from a
/// fixed seed (the same for every implementation timed).
std::vector<float> batchValues(const FftLinesCase& c);

/// max_k |output_k - X_k| / max_k |X_k| for X the DFT of `input` computed by FFTW in double precision,
/// exp(-2 pi i k n / N); `input` and `output` hold `length` complex values as interleaved (re, im) floats.
double lineError(const float* input, const float* output, uint32_t length);

/// The driver's statistics of a pipeline (VK_KHR_pipeline_executable_properties): name and value, e.g.
/// ("Register Count", 64); empty where the device does not expose them.
using PipelineStatistics = std::vector<std::pair<std::string, double>>;

/// VkFFT's 1D C2C FFT of the same batch, out of place (vkfft_anchor.h).
struct VkfftLinesResult
{
    std::string error;                      ///< why it did not run; empty: ms and maxRelativeError hold
    double ms = 0;                          ///< median GPU time, milliseconds
    std::optional<double> maxRelativeError; ///< as FftLinesTiming's, on the same lines
};

/// One case measured.
struct FftLinesTiming
{
    double ms = 0;     ///< median GPU time of the dispatch that transforms the batch, milliseconds
    double copyMs = 0; ///< the same loads and stores in the same grid without the FFT (fft_lines.comp)
    PipelineStatistics statistics, copyStatistics; ///< of the engine's pipeline and of the copy's
    std::optional<VkfftLinesResult> vkfft;         ///< when asked for
    uint32_t workgroupSize = 0;                    ///< invocations per workgroup (workgroupSizeOf, as the plugin plans)
    uint32_t elementsPerInvocation = 0; ///< complex elements of a line each invocation holds: ceil(length / workgroup)
    /// FftLinesCase::check: max |GPU - DFT| over the line's max |DFT|, the worst of the lines checked
    std::optional<double> maxRelativeError;
};

/// Transforms `c`'s batch (batchValues) `warmup` times untimed, then `repeats` times between timestamps, with the
/// plugin's specialization constants and twiddle tables; then the copy in the same grid, and VkFFT's FFT of the same
/// lines where `vkfft`; throws HostError (VulkanError).
FftLinesTiming measureFftLines(VulkanDevice& device, const FftLinesCase& c, int warmup, int repeats, bool vkfft);

/// Largest error of a checked line, relative to its peak, a run accepts.
constexpr double kFftLinesTolerance = 1e-4;

/// What a --fft-lines run was asked for.
struct FftLinesRun
{
    std::string command;                ///< the command line, for the reports
    std::string jsonPath, markdownPath; ///< reports to write; empty: none
    int warmup = 2000, repeats = 50;    ///< dispatches per case: untimed, then timed
    bool smoke = false;                 ///< fftLinesCases(true)
    bool vkfft = true;                  ///< time VkFFT's FFT of each batch beside ours
};

/// Measures every case, printing the Markdown table to stdout as it goes, and writes the reports `run` names; the
/// exit code: 1 when a checked line's error is above kFftLinesTolerance, else 0.
int runFftLines(VulkanDevice& device, double copyBandwidth, const FftLinesRun& run);

} // namespace fftb::bench
