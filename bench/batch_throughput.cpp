// SPDX-License-Identifier: MIT
// fftbloom-batch-bench: frames per second of the CLI's batch pipeline on EXR frames made from the sample
// photographs, against the same pipeline with the GPU step left out (EXR decode + encode alone).
#include "host_error.h"
#include "image/image_io.h"
#include "psf/psf.h"
#include "psf/psf_generator.h"
#include "runner/batch.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <thread>

namespace
{

using namespace fftb;
namespace fs = std::filesystem;

struct Options
{
    int frames = 200, width = 1920, height = 1080, kernelSize = 256, deviceIndex = -1;
    unsigned threads = 0;
    std::string samplesDir, workDir = "fftbloom-batch-bench", jsonPath, markdownPath, command;
    bool smoke = false, validation = false;
};

/// The frames' content: every sample photograph, resized to the frame's extent (bilinear), RGB.
std::vector<Texels> sourcePictures(const Options& o)
{
    std::vector<fs::path> paths;
    for (const auto& entry : fs::directory_iterator(o.samplesDir))
        if (entry.path().extension() == ".exr")
            paths.push_back(entry.path());
    std::sort(paths.begin(), paths.end());
    if (paths.empty())
        throw HostError(o.samplesDir + ": no .exr sample photographs (run assets/fetch_samples.sh)");
    std::vector<Texels> pictures;
    for (const fs::path& path : paths)
    {
        const Texels rgba = toRgba(readImage(path.string()));
        Texels picture(o.width, o.height, 3);
        for (int y = 0; y < o.height; ++y)
            for (int x = 0; x < o.width; ++x)
            {
                const float u = std::clamp((float(x) + 0.5f) * float(rgba.width) / float(o.width) - 0.5f, 0.0f,
                                           float(rgba.width - 1));
                const float v = std::clamp((float(y) + 0.5f) * float(rgba.height) / float(o.height) - 0.5f, 0.0f,
                                           float(rgba.height - 1));
                const int x0 = int(u), y0 = int(v);
                const int x1 = std::min(x0 + 1, rgba.width - 1), y1 = std::min(y0 + 1, rgba.height - 1);
                const float fx = u - float(x0), fy = v - float(y0);
                for (int c = 0; c < 3; ++c)
                {
                    const float top = rgba.at(x0, y0, c) * (1 - fx) + rgba.at(x1, y0, c) * fx;
                    const float bottom = rgba.at(x0, y1, c) * (1 - fx) + rgba.at(x1, y1, c) * fx;
                    picture.at(x, y, c) = top * (1 - fy) + bottom * fy;
                }
            }
        pictures.push_back(std::move(picture));
    }
    return pictures;
}

/// Writes the batch's inputs: half-float RGB, ZIP, each frame a sample picture shifted by the frame number so
/// that no two frames are alike. Returns their paths.
std::vector<std::string> writeFrames(const Options& o, const std::vector<Texels>& pictures, unsigned threads)
{
    const fs::path folder = fs::path(o.workDir) / "in";
    fs::create_directories(folder);
    std::vector<std::string> paths(std::size_t(o.frames));
    std::vector<std::thread> workers;
    for (unsigned w = 0; w < threads; ++w)
        workers.emplace_back(
            [&, w]
            {
                for (std::size_t f = w; f < paths.size(); f += threads)
                {
                    const Texels& picture = pictures[f % pictures.size()];
                    Image image{o.width, o.height, {}};
                    for (const char* name : {"R", "G", "B"})
                        image.channels.push_back({name, PixelType::Half, {}});
                    for (int y = 0; y < o.height; ++y)
                        for (int x = 0; x < o.width; ++x)
                            for (std::size_t c = 0; c < 3; ++c)
                                image.channels[c].values.push_back(picture.at((x + int(f)) % o.width, y, int(c)));
                    char name[32];
                    std::snprintf(name, sizeof name, "frame.%04zu.exr", f);
                    paths[f] = (folder / name).string();
                    writeExr(paths[f], image);
                }
            });
    for (std::thread& t : workers)
        t.join();
    return paths;
}

/// The batch without the GPU: each frame comes back as it went in.
class PassThroughStage : public FrameStage
{
  public:
    std::size_t capacity() const override { return 3; }
    void submit(Texels rgba, const ImageLayout&, uint32_t) override { frames_.push_back(std::move(rgba)); }
    GpuRunner::Result collect() override
    {
        GpuRunner::Result result{std::move(frames_.front()), 0.0};
        frames_.pop_front();
        return result;
    }

  private:
    std::deque<Texels> frames_;
};

nlohmann::ordered_json describe(const BatchSummary& s, const std::string& name)
{
    const auto sum = [&](double FrameRecord::*field)
    {
        double total = 0.0;
        for (const FrameRecord& f : s.frames)
            total += f.*field;
        return total;
    };
    const double n = double(s.frames.size());
    return {{"pipeline", name},
            {"frames", s.frames.size()},
            {"failed", s.count(FrameStatus::Failed)},
            {"wallSeconds", s.wallSeconds},
            {"framesPerSecond", n / s.wallSeconds},
            {"decodeMsPerFrame", sum(&FrameRecord::decodeSeconds) / n * 1e3},
            {"gpuStageMsPerFrame", sum(&FrameRecord::gpuSeconds) / n * 1e3},
            {"gpuPassesMsPerFrame", sum(&FrameRecord::gpuMilliseconds) / n},
            {"encodeMsPerFrame", sum(&FrameRecord::encodeSeconds) / n * 1e3}};
}

int run(Options& o)
{
    if (o.smoke)
    {
        o.frames = 6;
        o.width = 64;
        o.height = 48;
        o.kernelSize = 16;
    }
    const unsigned threads = o.threads ? o.threads : std::max(1u, std::thread::hardware_concurrency());
    const std::vector<std::string> inputs = writeFrames(o, sourcePictures(o), threads);

    BatchOptions batch;
    batch.kernel = defaultPsf(o.kernelSize);
    batch.overwrite = true;
    batch.threads = threads;
    constexpr uint32_t kFramesInFlight = 3; // as the CLI
    GpuRunner runner({o.deviceIndex, o.validation, kFramesInFlight});
    BloomStage bloom(runner, batch, kFramesInFlight);
    PassThroughStage passThrough;
    // One frame first, so that pipeline creation (once per process) is not in the timed runs.
    runner.bloom(Texels(o.width, o.height, 4), batch.kernel, batch.settings);

    // Decode + encode alone, then the bloom, then decode + encode again: the two baselines bracket the bloom run.
    nlohmann::ordered_json runs = nlohmann::ordered_json::array();
    double baselineFps = 0.0, bloomFps = 0.0;
    for (const char* name : {"decode+encode", "bloom", "decode+encode"})
    {
        const bool gpu = std::string(name) == "bloom";
        const fs::path out = fs::path(o.workDir) / (gpu ? "bloom" : "copy");
        fs::create_directories(out);
        const BatchSummary s = runBatch(jobsForOutDir(inputs, out.string(), ""), batch,
                                        gpu ? static_cast<FrameStage&>(bloom) : passThrough, nullptr);
        if (s.count(FrameStatus::Ok) != s.frames.size())
            throw HostError(std::string(name) + ": " + std::to_string(s.count(FrameStatus::Failed)) + " frames failed" +
                            (s.fatalError.empty() ? "" : ": " + s.fatalError));
        runs.push_back(describe(s, name));
        const double fps = double(s.frames.size()) / s.wallSeconds;
        (gpu ? bloomFps : baselineFps) = gpu ? fps : std::max(baselineFps, fps);
        std::printf("%-14s %5zu frames %8.2f s %7.2f frames/s\n", name, s.frames.size(), s.wallSeconds, fps);
    }
    const double ratio = bloomFps / baselineFps;
    std::printf("bloom / decode+encode throughput: %.3f\n", ratio);

    nlohmann::ordered_json results{{"command", o.command},
                                   {"device", runner.deviceName()},
                                   {"hardwareThreads", std::thread::hardware_concurrency()},
                                   {"threads", threads},
                                   {"frame", {o.width, o.height}},
                                   {"kernel", o.kernelSize},
                                   {"input", "RGB half, ZIP"},
                                   {"runs", runs},
                                   {"bloomOverDecodeEncode", ratio}};
    if (!o.jsonPath.empty())
        std::ofstream(o.jsonPath) << results.dump(2) << "\n";
    if (!o.markdownPath.empty())
    {
        std::ofstream md(o.markdownPath);
        md << "Measured by `" << o.command << "` on " << runner.deviceName() << ", " << threads
           << " decode/encode threads; " << o.frames << " frames " << o.width << "x" << o.height
           << ", RGB half ZIP, kernel " << o.kernelSize << "².\n\n"
           << "| pipeline | frames/s | wall s | decode ms/frame | GPU stage ms/frame | GPU passes ms/frame | encode "
              "ms/frame |\n| --- | --- | --- | --- | --- | --- | --- |\n";
        for (const auto& r : runs)
        {
            char row[256];
            std::snprintf(row, sizeof row, "| %s | %.2f | %.2f | %.1f | %.1f | %.2f | %.1f |\n",
                          r["pipeline"].get<std::string>().c_str(), r["framesPerSecond"].get<double>(),
                          r["wallSeconds"].get<double>(), r["decodeMsPerFrame"].get<double>(),
                          r["gpuStageMsPerFrame"].get<double>(), r["gpuPassesMsPerFrame"].get<double>(),
                          r["encodeMsPerFrame"].get<double>());
            md << row;
        }
        md << "\nBloom throughput / best decode+encode throughput: **" << ratio << "**.\n";
    }
    if (runner.validationMessageCount() > 0)
    {
        std::fprintf(stderr, "fftbloom-batch-bench: Vulkan validation: %llu message(s), the first: %s\n",
                     static_cast<unsigned long long>(runner.validationMessageCount()),
                     runner.firstValidationMessage().c_str());
        return 1;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    Options o;
    for (int i = 0; i < argc; ++i)
        o.command += (i ? " " : "") + std::string(i ? argv[i] : "fftbloom-batch-bench");
    if (const char* samples = std::getenv("FFTBLOOM_SAMPLES_DIR"))
        o.samplesDir = samples;
    CLI::App app{"fftbloom-batch-bench: frames per second of fftbloom's batch pipeline (EXR decode, bloom, EXR "
                 "encode) against EXR decode + encode alone, on frames made from the sample photographs.",
                 "fftbloom-batch-bench"};
    app.add_option("--frames", o.frames, "frames in the batch")->capture_default_str()->check(CLI::Range(1, 100000));
    app.add_option("--width", o.width, "frame width")->capture_default_str()->check(CLI::Range(1, 16384));
    app.add_option("--height", o.height, "frame height")->capture_default_str()->check(CLI::Range(1, 16384));
    app.add_option("--kernel-size", o.kernelSize, "default PSF size")
        ->capture_default_str()
        ->check(CLI::Range(2, 4096));
    app.add_option("--samples", o.samplesDir, "folder of sample .exr photographs; default $FFTBLOOM_SAMPLES_DIR")
        ->required(o.samplesDir.empty());
    app.add_option("--work-dir", o.workDir, "where the frames and outputs are written (in/, copy/, bloom/)")
        ->capture_default_str();
    app.add_option("--threads", o.threads, "decode/encode threads; default: one per hardware thread");
    app.add_option("--device", o.deviceIndex, "Vulkan physical device index");
    app.add_option("--json", o.jsonPath, "write the results as JSON here");
    app.add_option("--markdown", o.markdownPath, "write the results as a Markdown table here");
    app.add_flag("--smoke", o.smoke, "6 frames of 64x48, kernel 16²: checks that the benchmark runs");
    app.add_flag("--validate", o.validation,
                 "enable the Khronos validation layer (synchronization validation included); any message fails the "
                 "run (timings are then meaningless)");
    CLI11_PARSE(app, argc, argv);
    try
    {
        return run(o);
    }
    catch (const std::exception& e)
    {
        std::fprintf(stderr, "fftbloom-batch-bench: %s\n", e.what());
        return 1;
    }
}
