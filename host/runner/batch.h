// SPDX-License-Identifier: MIT
// Batches of frames: output naming, sharding, and the decode -> GPU -> encode pipeline of the fftbloom CLI.
#pragma once

#include "image/image.h"
#include "image/image_io.h"
#include "image/ocio_display.h"
#include "image/scrub.h"
#include "runner/frames.h"
#include "runner/gpu_runner.h"
#include "runner/restore.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace fftb
{

/// One frame of a batch: the file read, the OpenEXR written and an optional PNG preview.
struct BatchJob
{
    std::string input;
    std::string output;
    std::string preview; ///< empty: none
    /// The seed of the frame's kernel when it is animated (BatchOptions::animatedKernel): the same frame gets the
    /// same kernel in any run, shard or chunk.
    uint32_t kernelSeed = 0;
    std::optional<int> frame; ///< the input's frame number (frameNumberIn), when its name has one: for reports
    std::string mask;         ///< the frame's mask file (nameMasks); empty: no mask file
};

/// Each job's mask file when `mask` names one (MaskSettings::isFile): the path itself, or with a frame placeholder
/// (masks/shot.####.exr) the job's frame number in it. Throws HostError naming an input without a frame number for
/// the placeholder.
void nameMasks(std::vector<BatchJob>& jobs, const MaskSettings& mask);

/// The jobs for `inputs` written into `outDir`: `outDir/<input's name without extension><suffix>.exr`.
std::vector<BatchJob> jobsForOutDir(const std::vector<std::string>& inputs, const std::string& outDir,
                                    const std::string& suffix);

/// The jobs for `inputs` written to `pattern` with its fields and frame placeholder filled in (outputPathFor,
/// runner/frames.h).
std::vector<BatchJob> jobsForOutputPattern(const std::vector<FrameInput>& inputs, const std::string& pattern);

/// The jobs for `inputs` written to `path`, its frame placeholder (if any) the input's frame number
/// (outputPathWithFrame): -o bloomed/shot_bloom.####.exr.
std::vector<BatchJob> jobsForOutputPath(const std::vector<FrameInput>& inputs, const std::string& path);

/// Where each job's PNG preview goes; one at most of the three is set.
struct PreviewNaming
{
    std::string path;    ///< --preview: this path, its frame placeholder (if any) the input's frame number
    std::string pattern; ///< --preview-pattern: as an --output-pattern (outputPathFor)
    std::string dir;     ///< --preview-dir: DIR/<the output's name without its extension>.png
};

/// Sets the preview of each of `jobs` (made for `inputs`, in order) as `naming` says; nothing when it names none.
void namePreviews(std::vector<BatchJob>& jobs, const std::vector<FrameInput>& inputs, const PreviewNaming& naming);

/// A file the run reads or writes besides the frames, named for messages: {"--kernel", "psf.exr"}.
struct NamedPath
{
    std::string role;
    std::string path;
};

/// Throws HostError naming the path when a file the run writes is a directory or its folder does not exist, and
/// naming both paths when any file the run writes (the jobs' outputs and previews, `writes` such as
/// the report) is a file it reads (the jobs' inputs, `reads` such as the kernel, the list and the settings file) or
/// another file it writes: fftbloom never writes a file it reads, nor one file twice. Files are compared by identity:
/// device and inode where the file exists (links, hard links and ".." included), the resolved path otherwise.
/// Empty paths are skipped.
void checkJobs(const std::vector<BatchJob>& jobs, const std::vector<NamedPath>& reads = {},
               const std::vector<NamedPath>& writes = {});

/// Items `index`, `index + count`, `index + 2 count`, ... of `items` (jobs, inputs): shards 0/N .. N-1/N cover a batch
/// exactly once. Requires index < count.
template <typename T> std::vector<T> shardOf(const std::vector<T>& items, uint32_t index, uint32_t count)
{
    std::vector<T> shard;
    for (std::size_t i = index; i < items.size(); i += count)
        shard.push_back(items[i]);
    return shard;
}

/// The `index`-th of `count` contiguous runs of `items`: the first items.size() % count runs hold one item more than
/// the others, so chunks 0/N .. N-1/N cover a batch exactly once, in order. Requires index < count.
template <typename T> std::vector<T> chunkOf(const std::vector<T>& items, uint32_t index, uint32_t count)
{
    const std::size_t base = items.size() / count, longer = items.size() % count;
    const std::size_t first = index * base + std::min<std::size_t>(index, longer);
    const std::size_t length = base + (index < longer ? 1 : 0);
    return std::vector<T>(items.begin() + std::ptrdiff_t(first), items.begin() + std::ptrdiff_t(first + length));
}

/// How far an output's data window grows past its input's (--expand-data-window), so that the glow of lights near a
/// crop's edge is kept: by the kernel's reach (kernelReach) on each side, at most `maxPixels` (when >= 0), and not past
/// the display window when `toDisplayWindow` (never less than the input's own data window). The new texels are black.
struct DataWindowGrowth
{
    bool on = false;
    int maxPixels = -1;
    bool toDisplayWindow = false;
};

/// The extent of `layout`'s display window, or of its data window when that is empty, or `width` x `height` when both
/// are: the frame a kernel's span and a far field's reach are measured on.
std::pair<double, double> displayExtent(const ImageLayout& layout, int width, int height);

/// The pixels past a texel that its bloom reaches on each side: half the kernel's larger extent on the frame (its span
/// measured on `layout`'s display window, or the data window when that is empty, for a kernel of `kernelTexels` a
/// side; twice that at half resolution when native; with a far field, hasFarField, its reach of glareReach diagonals),
/// times sqrt(2) when it is rotated, plus its centre offset, and one pixel.
int kernelReach(const BloomSettings& settings, int kernelTexels, const ImageLayout& layout, int width, int height);

/// The plan settings of a `width` x `height` frame of `layout`: a kernel span given as a fraction of the diagonal in
/// pixels of the display window (the whole picture, not the data window, which overscan enlarges and crops shrink).
PlanSettings planOnFrame(const PlanSettings& plan, const ImageLayout& layout, int width, int height);

/// What is done to every frame of a batch.
struct BatchOptions
{
    Texels kernel; ///< RGB point spread function
    BloomSettings settings;
    /// The part and layer of each input that is bloomed (readImage); the other parts and channels pass through
    ImageSelection selection;
    DataWindowGrowth growth;            ///< the output's data window grown past the input's; off by default
    std::optional<PixelType> pixelType; ///< output channel type; default: as the input's
    /// the bloomed part's compression; default: as the input's
    std::optional<Compression> compression;
    float scrubMax = kDefaultScrubMax; ///< see scrubRgb
    float previewExposure = 0.0f;      ///< stops, for BatchJob::preview
    /// BatchJob::preview through this OpenColorIO display transform; none: the built-in tonemap (writePngPreview)
    std::optional<OcioDisplay> previewDisplay;
    bool overwrite = false; ///< false: a job whose output exists is skipped (it is complete: see writeExr)
    unsigned threads = 0;   ///< decode and encode threads; 0: one per hardware thread
    /// When set, each frame's kernel is made on the GPU from this aperture (fftbCmdGenerateKernel) with its job's
    /// kernelSeed as the seed: the occluders placed from it (dust, scratches, the eye's particles and fibres) change
    /// from frame to frame, as animated glare does. `kernel` then fixes the kernel's size only.
    std::optional<FftbApertureInfo> animatedKernel;
    /// Header attributes every output gets (provenance: the version and settings that made it), each replacing an
    /// input attribute of the same name; the input's attributes naming its software are renamed (inheritedAttributes).
    std::vector<Attribute> outputAttributes;
};

enum class FrameStatus
{
    Ok,
    Skipped, ///< the output already existed and overwrite was off
    Failed,
};

/// The outcome of one job.
struct FrameRecord
{
    BatchJob job;
    std::size_t index = 0; ///< the job's position in the batch's list (frames end out of order)
    FrameStatus status = FrameStatus::Failed;
    std::string error; ///< one line, "<path>: <reason>", when Failed
    /// The views bloomed, by name, of a stereo file (Image::view, viewLayers, viewParts); empty for one view
    std::vector<std::string> views;
    int width = 0;
    int height = 0;
    /// What the plugin recorded (fftbDescribeBloomPlan): the FFT extents, the axis order, the kernel's extent on the
    /// frame and its scale sigma. Zero until the frame was bloomed.
    FftbBloomPlanDescription plan{};
    ScrubCounts scrubbed;
    /// R, G, B values of a half-float output beyond +-65504 (the largest finite half), written as +-65504
    uint64_t saturated = 0;
    /// The part bloomed holds channels beside its R, G, B (and A) that its codec codes lossily at their written type
    /// (isLossy): those channels were re-encoded and changed a little
    bool lossyReencoded = false;
    double decodeSeconds = 0.0;   ///< read, convert and scrub, on a worker thread
    double gpuSeconds = 0.0;      ///< wall time from submission to readback, frames in flight overlapping
    double gpuMilliseconds = 0.0; ///< GPU time of the passes, from timestamps
    double encodeSeconds = 0.0;   ///< encode and write, on a worker thread
};

/// Every job's record in job order, and the batch's wall time.
struct BatchSummary
{
    std::vector<FrameRecord> frames;
    double wallSeconds = 0.0;
    std::string fatalError; ///< non-empty when the GPU stage failed (e.g. device lost) and the batch stopped early
    std::size_t count(FrameStatus status) const;
};

/// The GPU step of a batch: frames are collected in the order they were submitted.
class FrameStage
{
  public:
    virtual ~FrameStage() = default;
    /// Frames that may be submitted and not yet collected, >= 1.
    virtual std::size_t capacity() const = 0;
    /// `rgba` is the frame's texels, `layout` its file's (windows: the display window measures a kernel extent given
    /// as a fraction of the frame's diagonal), `kernelSeed` its job's (BatchJob::kernelSeed).
    virtual void submit(Texels rgba, const ImageLayout& layout, uint32_t kernelSeed) = 0;
    virtual GpuRunner::Result collect() = 0;
};

/// The stage that blooms every frame with `runner` (framesInFlight at a time).
class BloomStage : public FrameStage
{
  public:
    BloomStage(GpuRunner& runner, const BatchOptions& options, uint32_t framesInFlight);
    std::size_t capacity() const override { return capacity_; }
    void submit(Texels rgba, const ImageLayout& layout, uint32_t kernelSeed) override;
    GpuRunner::Result collect() override;

  private:
    GpuRunner& runner_;
    const BatchOptions& options_;
    std::size_t capacity_;
    /// The far field of the frames of the display extent last seen (farFieldOn), made again when it changes.
    FarField farField_;
    std::pair<double, double> farFieldFrame_{0.0, 0.0};
};

/// Called under the batch's lock after each frame's record is final; `done` of `total` frames are.
using FrameCallback = std::function<void(const FrameRecord& frame, std::size_t done, std::size_t total)>;

/// Runs `jobs`: worker threads decode and scrub frames and encode results, while the calling thread feeds `stage`,
/// so the disk and the GPU work at once; frames of any size mix. A frame that fails (unreadable, too large,
/// unwritable) is recorded and the rest go on. An exception from the stage stops the batch: frames not written
/// by then are Failed and BatchSummary::fatalError says why. Outputs appear whole or not at all (writeExr).
BatchSummary runBatch(const std::vector<BatchJob>& jobs, const BatchOptions& options, FrameStage& stage,
                      const FrameCallback& onFrame);

} // namespace fftb
