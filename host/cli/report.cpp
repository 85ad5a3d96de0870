// SPDX-License-Identifier: MIT
// Builds the --report JSON with nlohmann::json.
#include "report.h"

#include "image/atomic_file.h"

#include "fftbloom/fftbloom.h"

#include <nlohmann/json.hpp>

namespace fftb
{

void writeReport(const std::string& path, const BatchSummary& summary, const std::string& deviceName)
{
    static const char* const statusNames[] = {"ok", "skipped", "failed"};
    nlohmann::ordered_json frames = nlohmann::ordered_json::array();
    double decode = 0.0, gpu = 0.0, encode = 0.0;
    uint64_t scrubbed = 0, saturated = 0;
    for (const FrameRecord& f : summary.frames)
    {
        nlohmann::ordered_json frame{
            {"input", f.job.input}, {"output", f.job.output}, {"status", statusNames[int(f.status)]}};
        if (f.status == FrameStatus::Failed)
            frame["error"] = f.error;
        if (f.width > 0)
        {
            frame["width"] = f.width;
            frame["height"] = f.height;
            frame["fft"] = {f.plan.paddedWidth, f.plan.paddedHeight};
            frame["kernelScale"] = f.plan.kernelScale;
            frame["kernelExtent"] = {f.plan.kernelExtentWidth, f.plan.kernelExtentHeight};
            frame["firstAxis"] = f.plan.axisOrder == FFTB_AXIS_ORDER_Y_FIRST ? "y" : "x";
            frame["scrubbed"] = {
                {"nan", f.scrubbed.nan}, {"negative", f.scrubbed.negative}, {"clamped", f.scrubbed.clamped}};
            frame["saturated"] = f.saturated;
            frame["seconds"] = {{"decode", f.decodeSeconds}, {"gpu", f.gpuSeconds}, {"encode", f.encodeSeconds}};
            frame["gpuMilliseconds"] = f.gpuMilliseconds;
        }
        frames.push_back(std::move(frame));
        decode += f.decodeSeconds;
        gpu += f.gpuSeconds;
        encode += f.encodeSeconds;
        scrubbed += f.scrubbed.total();
        saturated += f.saturated;
    }
    const std::size_t processed = summary.count(FrameStatus::Ok) + summary.count(FrameStatus::Failed);
    nlohmann::ordered_json report{
        {"fftbloom", std::to_string(FFTB_VERSION_MAJOR) + "." + std::to_string(FFTB_VERSION_MINOR) + "." +
                         std::to_string(FFTB_VERSION_PATCH)},
        {"device", deviceName},
        {"frames", std::move(frames)},
        {"totals",
         {{"frames", summary.frames.size()},
          {"ok", summary.count(FrameStatus::Ok)},
          {"skipped", summary.count(FrameStatus::Skipped)},
          {"failed", summary.count(FrameStatus::Failed)},
          {"scrubbed", scrubbed},
          {"saturated", saturated},
          {"wallSeconds", summary.wallSeconds},
          {"framesPerSecond", summary.wallSeconds > 0.0 ? double(processed) / summary.wallSeconds : 0.0},
          {"decodeSeconds", decode},
          {"gpuSeconds", gpu},
          {"encodeSeconds", encode}}}};
    if (!summary.fatalError.empty())
        report["stoppedBy"] = summary.fatalError;
    // File names need not be UTF-8: invalid bytes become U+FFFD rather than failing the report.
    const std::string text = report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    writeFileAtomically(path, text.data(), text.size());
}

} // namespace fftb
