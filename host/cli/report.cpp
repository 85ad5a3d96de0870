// SPDX-License-Identifier: MIT
// The --report file, a JSON line per event, with nlohmann::json.
#include "report.h"

#include "host_error.h"
#include "message.h"
#include "provenance.h"

#include "fftbloom/fftbloom.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace fftb
{

namespace
{

using Json = nlohmann::ordered_json;

/// One line: file names need not be UTF-8, so invalid bytes become U+FFFD rather than failing the report.
std::string lineOf(const Json& json)
{
    return json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace

void ReportWriter::checkPath(const std::string& path)
{
    struct stat st
    {
    };
    if (::stat(path.c_str(), &st) != 0)
        return; // created by the run
    if (!S_ISREG(st.st_mode))
        throw HostError(path + ": not a regular file; --report appends to a regular file");
    if (st.st_size == 0)
        return;
    const std::string runLine = "{\"type\":\"run\"";
    std::ifstream file(path, std::ios::binary);
    std::string start(runLine.size(), '\0');
    if (!file.read(start.data(), std::streamsize(start.size())) || start != runLine)
        throw HostError(path + ": not a report of fftbloom (its first line is not a \"run\" line); not appended to");
}

ReportWriter::ReportWriter(const std::string& path, const RunInfo& run) : path_(path)
{
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd_ < 0)
        throw HostError(path + ": cannot be opened for the report: " + std::strerror(errno));
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    Json line{
        {"type", "run"}, {"fftbloom", fftbloomVersion()}, {"device", run.deviceName}, {"arguments", run.arguments}};
    if (!run.shard.empty())
        line[run.chunk ? "chunk" : "shard"] = run.shard;
    for (const FrameGap& gap : run.gaps)
        line["missing"].push_back(Json{{"input", gap.input}, {"frames", gap.frames}, {"count", gap.count}});
    line["host"] = host;
    line["pid"] = ::getpid();
    line["started"] = isoTime(run.started);
    append(lineOf(line));
}

ReportWriter::~ReportWriter()
{
    if (fd_ >= 0)
        ::close(fd_);
}

void ReportWriter::append(const std::string& line)
{
    // O_APPEND: each write lands at the end, whole, even beside another process appending to the same file.
    for (std::size_t written = 0; written < line.size();)
    {
        const ssize_t n = ::write(fd_, line.data() + written, line.size() - written);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            throw HostError(path_ + ": the report cannot be written: " + std::strerror(errno));
        written += std::size_t(n);
    }
}

void printEvent(const char* level, const char* event, const nlohmann::ordered_json& fields)
{
    Json line{{"time", isoTime(std::chrono::system_clock::now())}, {"level", level}, {"event", event}};
    line.update(fields);
    std::printf("%s\n", line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    std::fflush(stdout);
}

Json frameJson(const FrameRecord& f)
{
    static const char* const statusNames[] = {"ok", "skipped", "failed"};
    Json frame{{"index", f.index}};
    if (f.job.frame)
        frame["frame"] = *f.job.frame;
    frame["time"] = isoTime(std::chrono::system_clock::now());
    frame["input"] = f.job.input;
    frame["output"] = f.job.output;
    if (!f.job.mask.empty())
        frame["mask"] = f.job.mask;
    if (!f.job.preview.empty() && f.status == FrameStatus::Ok)
        frame["preview"] = f.job.preview;
    frame["status"] = statusNames[int(f.status)];
    if (f.status == FrameStatus::Failed)
        frame["error"] = f.error;
    if (!f.views.empty())
        frame["views"] = f.views;
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
        if (f.lossyReencoded)
            frame["lossyReencoded"] = true;
        frame["seconds"] = {{"decode", f.decodeSeconds}, {"gpuStage", f.gpuSeconds}, {"encode", f.encodeSeconds}};
        frame["gpuMilliseconds"] = f.gpuMilliseconds;
    }
    return frame;
}

Json summaryJson(const BatchSummary& summary, std::size_t unfinished)
{
    double decode = 0.0, gpuMilliseconds = 0.0, encode = 0.0;
    uint64_t scrubbed = 0, saturated = 0;
    std::size_t lossy = 0;
    for (const FrameRecord& f : summary.frames)
    {
        lossy += f.lossyReencoded;
        decode += f.decodeSeconds;
        gpuMilliseconds += f.gpuMilliseconds;
        encode += f.encodeSeconds;
        scrubbed += f.scrubbed.total();
        saturated += f.saturated;
    }
    const std::size_t written = summary.count(FrameStatus::Ok);
    Json line{{"frames", summary.frames.size() + unfinished},
              {"ok", written},
              {"skipped", summary.count(FrameStatus::Skipped)},
              {"failed", summary.count(FrameStatus::Failed)}};
    if (unfinished > 0)
        line["unfinished"] = unfinished;
    line["scrubbed"] = scrubbed;
    line["saturated"] = saturated;
    line["lossyReencoded"] = lossy;
    line["wallSeconds"] = summary.wallSeconds;
    line["framesPerSecond"] = summary.wallSeconds > 0.0 ? double(written) / summary.wallSeconds : 0.0;
    line["decodeSeconds"] = decode;
    line["gpuSeconds"] = gpuMilliseconds / 1e3;
    line["encodeSeconds"] = encode;
    if (!summary.fatalError.empty())
        line["stoppedBy"] = summary.fatalError;
    return line;
}

void ReportWriter::frame(const FrameRecord& f)
{
    Json line{{"type", "frame"}};
    line.update(frameJson(f));
    append(lineOf(line));
}

void ReportWriter::summary(const BatchSummary& summary, std::size_t unfinished)
{
    Json line{{"type", "summary"}};
    line.update(summaryJson(summary, unfinished));
    append(lineOf(line));
}

} // namespace fftb
