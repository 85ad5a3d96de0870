// SPDX-License-Identifier: MIT
// The batch pipeline: worker threads decode and encode while the calling thread keeps the GPU busy.
#include "runner/batch.h"

#include "settings/kernel_texels.h"

#include "host_error.h"
#include "runner/frames.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

namespace fftb
{

namespace fs = std::filesystem;

std::vector<BatchJob> jobsForOutDir(const std::vector<std::string>& inputs, const std::string& outDir,
                                    const std::string& suffix)
{
    std::vector<BatchJob> jobs;
    for (const std::string& input : inputs)
        jobs.push_back({input, (fs::path(outDir) / (fs::path(input).stem().string() + suffix + ".exr")).string(), ""});
    return jobs;
}

std::vector<BatchJob> jobsForOutputPattern(const std::vector<FrameInput>& inputs, const std::string& pattern)
{
    std::vector<BatchJob> jobs;
    for (const FrameInput& input : inputs)
        jobs.push_back({input.path, outputPathFor(pattern, input), ""});
    return jobs;
}

std::vector<BatchJob> jobsForOutputPath(const std::vector<FrameInput>& inputs, const std::string& path)
{
    std::vector<BatchJob> jobs;
    for (const FrameInput& input : inputs)
        jobs.push_back({input.path, outputPathWithFrame(path, frameNumberIn(input), input.path), ""});
    return jobs;
}

void namePreviews(std::vector<BatchJob>& jobs, const std::vector<FrameInput>& inputs, const PreviewNaming& naming)
{
    for (std::size_t i = 0; i < jobs.size(); ++i)
    {
        if (!naming.path.empty())
            jobs[i].preview = outputPathWithFrame(naming.path, frameNumberIn(inputs[i]), inputs[i].path);
        else if (!naming.pattern.empty())
            jobs[i].preview = outputPathFor(naming.pattern, inputs[i]);
        else if (!naming.dir.empty())
            jobs[i].preview = (fs::path(naming.dir) / (fs::path(jobs[i].output).stem().string() + ".png")).string();
    }
}

namespace
{

/// A file's identity: "device:inode" when it exists (stat follows links), else its resolved path.
std::string identityOf(const std::string& path)
{
    struct stat s
    {
    };
    if (::stat(path.c_str(), &s) == 0)
        return "inode " + std::to_string(s.st_dev) + ":" + std::to_string(s.st_ino);
    std::error_code ec;
    return "path " + fs::weakly_canonical(path, ec).string();
}

} // namespace

PlanSettings planOnFrame(const PlanSettings& plan, const ImageLayout& layout, int width, int height)
{
    // A fraction of the diagonal is one of the display window's (the whole picture), not of the data window, which
    // overscan enlarges and crops shrink from frame to frame. A display window of the frame's own extent leaves it
    // to the plugin (FFTB_KERNEL_SPAN_FRAME_DIAGONAL, the same span in double precision).
    // The generated PSF's auto span is rounded to whole pixels of the display window (inPixelsOf).
    PlanSettings onFrame = plan;
    const Box2i& display = layout.displayWindow;
    const double w = display.empty() ? width : double(display.maxX) - display.minX + 1.0;
    const double h = display.empty() ? height : double(display.maxY) - display.minY + 1.0;
    if (plan.kernelSpan.automatic || w != width || h != height)
        onFrame.kernelSpan = inPixelsOf(plan.kernelSpan, w, h);
    return onFrame;
}

void nameMasks(std::vector<BatchJob>& jobs, const MaskSettings& mask)
{
    if (!mask.isFile())
        return;
    const std::optional<FramePattern> pattern = findFramePattern(mask.source);
    for (BatchJob& job : jobs)
    {
        if (pattern && !job.frame)
            throw HostError("--mask " + mask.source + ": " + job.input +
                            " has no frame number to put in its placeholder");
        job.mask = pattern ? framePath(*pattern, *job.frame) : mask.source;
    }
}

void checkJobs(const std::vector<BatchJob>& jobs, const std::vector<NamedPath>& reads,
               const std::vector<NamedPath>& writes)
{
    struct Writer
    {
        const BatchJob* job; ///< nullptr for `writes`
        NamedPath named;
    };
    const auto nameOf = [](const Writer& w)
    { return w.job ? "the output " + w.named.path + " of " + w.job->input : w.named.role + " " + w.named.path; };
    std::map<std::string, Writer> writer; // every file written, by identity
    const auto add = [&](const Writer& w)
    {
        if (w.named.path.empty())
            return;
        std::error_code ec;
        if (fs::is_directory(w.named.path, ec))
            throw HostError(nameOf(w) + ": is a directory");
        const fs::path folder = fs::path(w.named.path).parent_path();
        if (!fs::is_directory(folder.empty() ? "." : folder, ec))
            throw HostError(nameOf(w) + ": no such folder " + folder.string() + " (fftbloom does not create folders)");
        const auto [at, added] = writer.emplace(identityOf(w.named.path), w);
        if (added)
            return;
        if (w.job && at->second.job)
            throw HostError(w.job->input + ": would be written to " + w.named.path + ", as " + at->second.job->input +
                            " is; give the inputs different names, or the outputs a --suffix or an --output-pattern "
                            "that tells them apart");
        throw HostError(nameOf(w) + ": is also " + nameOf(at->second) + "; fftbloom writes each file once");
    };
    for (const BatchJob& job : jobs)
        for (const std::string* path : {&job.output, &job.preview})
            add({&job, {"", *path}});
    for (const NamedPath& w : writes)
        add({nullptr, w});
    for (const BatchJob& job : jobs)
        if (const auto it = writer.find(identityOf(job.input)); it != writer.end())
            throw HostError(job.input + ": is the input, and would be overwritten by " + nameOf(it->second) +
                            "; fftbloom never overwrites an input");
    for (const NamedPath& r : reads)
        if (!r.path.empty())
            if (const auto it = writer.find(identityOf(r.path)); it != writer.end())
                throw HostError(r.role + " " + r.path + ": is read, and would be overwritten by " + nameOf(it->second) +
                                "; fftbloom never writes a file it reads");
}

std::size_t BatchSummary::count(FrameStatus status) const
{
    return std::size_t(
        std::count_if(frames.begin(), frames.end(), [status](const FrameRecord& f) { return f.status == status; }));
}

BloomStage::BloomStage(GpuRunner& runner, const BatchOptions& options, uint32_t framesInFlight)
    : runner_(runner), options_(options), capacity_(framesInFlight)
{
}

void BloomStage::submit(Texels rgba, const ImageLayout& layout, uint32_t kernelSeed)
{
    BloomSettings settings = options_.settings;
    settings.plan = planOnFrame(options_.settings.plan, layout, rgba.width, rgba.height);
    std::optional<FftbApertureInfo> generated = options_.animatedKernel;
    if (generated)
        generated->seed = kernelSeed;
    if (const auto frame = displayExtent(layout, rgba.width, rgba.height); frame != farFieldFrame_)
    {
        farField_ = farFieldOn(settings.kernel, settings.kernel.file.empty(), options_.kernel.width, settings.plan,
                               frame.first, frame.second);
        farFieldFrame_ = frame;
    }
    runner_.submit(rgba, options_.kernel, settings, generated ? &*generated : nullptr, farField_);
}

GpuRunner::Result BloomStage::collect()
{
    return runner_.collect();
}

std::pair<double, double> displayExtent(const ImageLayout& layout, int width, int height)
{
    const Box2i& display = layout.displayWindow.empty() ? layout.dataWindow : layout.displayWindow;
    return {display.empty() ? width : display.maxX - display.minX + 1,
            display.empty() ? height : display.maxY - display.minY + 1};
}

int kernelReach(const BloomSettings& settings, int kernelTexels, const ImageLayout& layout, int width, int height)
{
    const auto [frameWidth, frameHeight] = displayExtent(layout, width, height);
    const KernelSpan span = inPixelsOf(settings.plan.kernelSpan, frameWidth, frameHeight);
    double extent = span.native() ? double(kernelTexels) : double(span.value);
    if (span.native() && settings.plan.resolution == FFTB_BLOOM_RESOLUTION_HALF)
        extent *= 2.0;
    // A far field reaches glareReach diagonals from a light (farFieldOn).
    if (hasFarField(settings.kernel, settings.kernel.file.empty(), settings.plan))
        extent = std::max(extent, 2.0 * settings.kernel.glareReach * std::hypot(frameWidth, frameHeight));
    const double turned = settings.kernel.rotationDegrees != 0.0f ? std::sqrt(2.0) : 1.0;
    const double offset =
        std::max(std::fabs(settings.kernel.centreOffset[0]), std::fabs(settings.kernel.centreOffset[1]));
    return int(std::ceil(extent * (0.5 * turned + offset))) + 1;
}

} // namespace fftb
