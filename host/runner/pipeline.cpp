// SPDX-License-Identifier: MIT
// The batch's pipeline: frames decoded on worker threads, bloomed in order on the GPU thread, encoded on workers.
#include "runner/batch.h"

#include "host_error.h"
#include "image/atomic_file.h"
#include "image/image_io.h"
#include "runner/frame_views.h"
#include "runner/restore.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <string_view>
#include <thread>

namespace fftb
{

namespace fs = std::filesystem;

namespace
{

/// Clamps the layer's R, G, B channels that are written as half floats (their type, or `override`) to +-65504, the
/// largest finite half: a value beyond it (ringing beside a 65504 frame, a huge float input) would be written as Inf.
/// Returns how many values changed.
uint64_t saturateHalfRgb(Image& image, std::optional<PixelType> override)
{
    constexpr float kHalfMax = 65504.0f;
    uint64_t saturated = 0;
    const std::string r = image.colourChannel("R"), g = image.colourChannel("G"), b = image.colourChannel("B");
    for (Channel& channel : image.channels)
        if ((channel.name == r || channel.name == g || channel.name == b) &&
            override.value_or(channel.type) == PixelType::Half)
            for (float& v : channel.values)
                if (std::fabs(v) > kHalfMax)
                {
                    v = std::copysign(kHalfMax, v);
                    ++saturated;
                }
    return saturated;
}

using Clock = std::chrono::steady_clock;

/// Why the plugin refuses a `width` x `height` frame: "<w>x<h> frame too large: <reason>" (a device limit) or
/// "<w>x<h> frame refused: <reason>".
std::string refusalText(int width, int height, const FrameRefused& refusal)
{
    return std::to_string(width) + "x" + std::to_string(height) +
           (refusal.result() == FFTB_ERROR_DEVICE_LIMIT ? " frame too large: " : " frame refused: ") + refusal.what();
}

/// `image`'s data window grown as `growth` says for a bloom that reaches `reach` pixels, within OpenEXR's coordinates
/// (strictly inside +-(2^30 - 1)). Under toDisplayWindow, only by the part of the grown window inside the display
/// window: a data window lying outside the display window does not grow.
void growForBloom(Image& image, const DataWindowGrowth& growth, int reach)
{
    constexpr std::int64_t kLimit = (std::int64_t(1) << 30) - 2; // OpenEXR: within +-(2^30 - 1), exclusive
    const Box2i old =
        image.layout.dataWindow.empty() ? Box2i{0, 0, image.width - 1, image.height - 1} : image.layout.dataWindow;
    const std::int64_t r = growth.maxPixels >= 0 ? std::min(reach, growth.maxPixels) : reach;
    std::int64_t grown[4] = {std::max(old.minX - r, -kLimit), std::max(old.minY - r, -kLimit),
                             std::min(old.maxX + r, kLimit), std::min(old.maxY + r, kLimit)};
    if (const Box2i& display = image.layout.displayWindow; growth.toDisplayWindow && !display.empty())
    {
        const std::int64_t inside[4] = {
            std::max<std::int64_t>(grown[0], display.minX), std::max<std::int64_t>(grown[1], display.minY),
            std::min<std::int64_t>(grown[2], display.maxX), std::min<std::int64_t>(grown[3], display.maxY)};
        if (inside[0] > inside[2] || inside[1] > inside[3])
            return; // the growth lies wholly outside the display window
        grown[0] = std::min<std::int64_t>(old.minX, inside[0]);
        grown[1] = std::min<std::int64_t>(old.minY, inside[1]);
        grown[2] = std::max<std::int64_t>(old.maxX, inside[2]);
        grown[3] = std::max<std::int64_t>(old.maxY, inside[3]);
    }
    growDataWindow(image, {int(grown[0]), int(grown[1]), int(grown[2]), int(grown[3])});
}

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Whether channel `name` of `part` is the R, G, B or A (either case) of its layer or of one of its viewLayers.
bool isColourOf(const Image& part, const std::string& name)
{
    std::vector<std::string> layers{part.layer};
    for (const auto& view : part.viewLayers)
        layers.push_back(view.second);
    for (const std::string& layer : layers)
    {
        const std::string prefix = layer.empty() ? "" : layer + ".";
        if (name.size() == prefix.size() + 1 && name.compare(0, prefix.size(), prefix) == 0 &&
            std::string_view("RGBArgba").find(name.back()) != std::string_view::npos)
            return true;
    }
    return false;
}

/// A frame between decode and encode: its image and the RGBA texels of each of its views (forEachView).
struct Frame
{
    std::size_t index = 0;
    Image image;
    std::vector<Texels> rgba;
    bool scrubbed = false;
    Clock::time_point submitted;
    std::size_t submittedViews = 0; ///< views handed to the stage
    std::size_t collectedViews = 0; ///< views back from it
    std::string refused;            ///< the stage refused a view: the frame fails with this reason
};

/// The state the worker threads and the GPU thread share, guarded by one mutex.
class Pipeline
{
  public:
    Pipeline(const std::vector<BatchJob>& jobs, const BatchOptions& options, FrameStage& stage,
             const FrameCallback& onFrame)
        : jobs_(jobs), options_(options), stage_(stage), onFrame_(onFrame), records_(jobs.size())
    {
        for (std::size_t i = 0; i < jobs.size(); ++i)
        {
            records_[i].job = jobs[i];
            records_[i].index = i;
        }
        const unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
        workers_ = threads;
        // Decoded frames waiting for the GPU or for a worker: enough to keep both busy, few enough to bound memory.
        maxFramesHeld_ = threads + 2 * stage.capacity();
    }

    BatchSummary run()
    {
        const Clock::time_point start = Clock::now();
        std::map<std::string, std::set<std::string>> outputs; // folder -> names written there
        for (const BatchJob& job : jobs_)
            for (const std::string* path : {&job.output, &job.preview})
                if (!path->empty())
                    outputs[fs::path(*path).parent_path().string()].insert(fs::path(*path).filename().string());
        for (const auto& [folder, names] : outputs)
            removeStaleTemporaries(folder, names); // left by a killed run of this batch

        std::vector<std::thread> threads;
        for (unsigned i = 0; i < workers_; ++i)
            threads.emplace_back([this] { work(); });
        feedGpu();
        for (std::thread& t : threads)
            t.join();
        return {std::move(records_), secondsSince(start), fatal_};
    }

  private:
    // --- worker threads ---

    void work()
    {
        std::unique_lock lock(mutex_);
        for (;;)
        {
            if (!toEncode_.empty())
            {
                std::unique_ptr<Frame> frame = std::move(toEncode_.front());
                toEncode_.pop_front();
                lock.unlock();
                encode(*frame);
                lock.lock();
                release(frame->index);
            }
            else if (fatal_.empty() && next_ < jobs_.size() && held_ < maxFramesHeld_)
            {
                const std::size_t index = next_++;
                ++held_;
                ++decoding_;
                lock.unlock();
                std::unique_ptr<Frame> frame = decode(index);
                lock.lock();
                --decoding_;
                if (frame && fatal_.empty())
                    toGpu_.push_back(std::move(frame));
                else
                {
                    if (frame)
                        fail(index, "not processed: " + fatal_);
                    release(index);
                }
            }
            else if (gpuDone_ && toEncode_.empty() && (next_ == jobs_.size() || !fatal_.empty()))
                return;
            else
            {
                changed_.wait(lock);
                continue;
            }
            changed_.notify_all();
        }
    }

    /// Reads, checks and scrubs one frame; nullptr when it is skipped or fails (its record says which).
    std::unique_ptr<Frame> decode(std::size_t index)
    {
        FrameRecord& record = records_[index];
        const Clock::time_point start = Clock::now();
        std::error_code ec;
        if (!options_.overwrite && fs::exists(record.job.output, ec))
        {
            record.status = FrameStatus::Skipped;
            return nullptr;
        }
        try
        {
            auto frame = std::make_unique<Frame>();
            frame->index = index;
            frame->image = readImage(record.job.input, options_.selection);
            if (options_.growth.on)
                for (Image* part : partsWritten(frame->image))
                {
                    try // a kernel the plugin refuses on this frame grows no window, which would be allocated first
                    {
                        kernelExtentOnFrame(
                            planOnFrame(options_.settings.plan, part->layout, part->width, part->height),
                            uint32_t(part->width), uint32_t(part->height), uint32_t(options_.kernel.width),
                            uint32_t(options_.kernel.height));
                    }
                    catch (const FrameRefused& e)
                    {
                        fail(index, refusalText(part->width, part->height, e));
                        return nullptr;
                    }
                    growForBloom(
                        *part, options_.growth,
                        kernelReach(options_.settings, options_.kernel.width, part->layout, part->width, part->height));
                }
            const MaskSettings& mask = options_.settings.frame.mask;
            const std::optional<Image> maskFile =
                record.job.mask.empty() ? std::nullopt : std::optional(readImage(record.job.mask, {.matte = true}));
            forEachView(frame->image,
                        [&](Image& view, std::size_t)
                        {
                            Texels& rgba = frame->rgba.emplace_back(toRgba(view));
                            if (mask.active())
                                setMaskAlpha(rgba, frameMask(view, record.job.input, mask,
                                                             maskFile ? &*maskFile : nullptr, record.job.mask));
                            const ScrubCounts scrubbed = scrubRgb(rgba, options_.scrubMax);
                            record.scrubbed.nan += scrubbed.nan;
                            record.scrubbed.negative += scrubbed.negative;
                            record.scrubbed.clamped += scrubbed.clamped;
                        });
            record.width = frame->rgba.front().width;
            record.height = frame->rgba.front().height;
            record.views = viewNames(frame->image);
            frame->scrubbed = record.scrubbed.total() > 0;
            record.decodeSeconds = secondsSince(start);
            return frame;
        }
        catch (const std::bad_alloc&) // a frame too large for this machine's memory
        {
            fail(index, "not enough memory to read it");
            return nullptr;
        }
        catch (const std::exception& e) // HostError naming the file
        {
            record.error = e.what();
            record.status = FrameStatus::Failed;
            return nullptr;
        }
    }

    void encode(Frame& frame)
    {
        FrameRecord& record = records_[frame.index];
        const Clock::time_point start = Clock::now();
        try
        {
            Image& result = frame.image;
            forEachView(result,
                        [&](Image& view, std::size_t k)
                        {
                            if (frame.scrubbed)
                                restoreUnbloomed(frame.rgba[k], toRgba(view), options_.scrubMax,
                                                 options_.settings.frame);
                            clampBloomRoundOff(frame.rgba[k], options_.settings.frame);
                            setRgb(view, frame.rgba[k]);
                            record.saturated += saturateHalfRgb(view, options_.pixelType);
                        });
            for (Image* part : partsWritten(result))
            {
                part->layout.attributes = inheritedAttributes(part->layout.attributes, options_.outputAttributes);
                if (options_.compression)
                    part->layout.compression = *options_.compression;
                record.lossyReencoded = record.lossyReencoded ||
                                        std::any_of(part->channels.begin(), part->channels.end(),
                                                    [&](const Channel& c)
                                                    {
                                                        return !isColourOf(*part, c.name) &&
                                                               isLossy(part->layout.compression,
                                                                       options_.pixelType.value_or(c.type), c.name);
                                                    });
            }
            // The preview first: if it fails, the output is not written and its previous file stays. Each file is
            // replaced only by its complete successor (written beside it, then renamed).
            if (!record.job.preview.empty())
                writePreviews(record.job.preview, result, options_.previewExposure,
                              options_.previewDisplay ? &*options_.previewDisplay : nullptr);
            writeExr(record.job.output, result, options_.pixelType);
            record.status = FrameStatus::Ok;
        }
        catch (const std::bad_alloc&)
        {
            record.error = record.job.output + ": not enough memory to write it";
            record.status = FrameStatus::Failed;
        }
        catch (const std::exception& e)
        {
            record.error = e.what();
            record.status = FrameStatus::Failed;
        }
        record.encodeSeconds = secondsSince(start);
    }

    /// Called with the lock held once frame `index` is final.
    void release(std::size_t index)
    {
        --held_;
        ++done_;
        if (onFrame_)
            onFrame_(records_[index], done_, jobs_.size());
    }

    void fail(std::size_t index, const std::string& reason)
    {
        records_[index].status = FrameStatus::Failed;
        records_[index].error = records_[index].job.input + ": " + reason;
    }

    // --- the calling thread: the only one that touches the stage ---

    /// The layout of view k of `frame` (forEachView's order).
    static const ImageLayout& viewLayout(const Frame& frame, std::size_t k)
    {
        const std::size_t layers = frame.image.viewLayers.size();
        return k <= layers ? frame.image.layout : frame.image.viewParts[k - 1 - layers].layout;
    }

    /// Hands the frames at the front of `inFlight` whose views are all back (or that were refused and whose views
    /// handed over are back) to the encoders, or fails the refused ones.
    void finishFrames(std::deque<std::unique_ptr<Frame>>& inFlight)
    {
        while (!inFlight.empty())
        {
            Frame& front = *inFlight.front();
            const bool over = front.collectedViews == front.submittedViews &&
                              (front.submittedViews == front.rgba.size() || !front.refused.empty());
            if (!over)
                return;
            std::unique_ptr<Frame> done = std::move(inFlight.front());
            inFlight.pop_front();
            std::lock_guard lock(mutex_);
            if (!done->refused.empty())
            {
                fail(done->index, done->refused);
                release(done->index);
            }
            else
            {
                records_[done->index].gpuSeconds = secondsSince(done->submitted);
                toEncode_.push_back(std::move(done));
            }
            changed_.notify_all();
        }
    }

    /// Feeds the stage every view of every frame (a stereo frame's two views one after the other), at most
    /// stage.capacity() views at a time, and collects them in order.
    void feedGpu()
    {
        std::deque<std::unique_ptr<Frame>> inFlight; // frames with views handed over, oldest first
        std::size_t pending = 0;                     // views handed over and not collected
        try
        {
            for (;;)
            {
                Frame* next = !inFlight.empty() && inFlight.back()->refused.empty() &&
                                      inFlight.back()->submittedViews < inFlight.back()->rgba.size()
                                  ? inFlight.back().get()
                                  : nullptr;
                if (!next)
                {
                    std::unique_lock lock(mutex_);
                    const auto decodeOver = [&] { return next_ == jobs_.size() && decoding_ == 0; };
                    if (pending == 0)
                        changed_.wait(lock, [&] { return !toGpu_.empty() || decodeOver(); });
                    if (!toGpu_.empty() && pending < stage_.capacity())
                    {
                        inFlight.push_back(std::move(toGpu_.front())); // failed with the rest if submit() throws
                        toGpu_.pop_front();
                        next = inFlight.back().get();
                        next->submitted = Clock::now();
                    }
                    else if (pending == 0 && toGpu_.empty() && decodeOver())
                        break;
                }
                if (next && pending < stage_.capacity())
                {
                    const std::size_t k = next->submittedViews;
                    try
                    {
                        stage_.submit(std::move(next->rgba[k]), viewLayout(*next, k),
                                      records_[next->index].job.kernelSeed);
                        ++next->submittedViews;
                        ++pending;
                    }
                    catch (const FrameRefused& e) // this frame alone: e.g. too large for the plugin
                    {
                        const FrameRecord& record = records_[next->index];
                        next->refused = refusalText(record.width, record.height, e);
                        finishFrames(inFlight);
                    }
                    continue;
                }
                GpuRunner::Result result = stage_.collect();
                --pending;
                const auto owner = std::find_if(inFlight.begin(), inFlight.end(),
                                                [](const auto& f) { return f->collectedViews < f->submittedViews; });
                Frame& frame = **owner;
                FrameRecord& record = records_[frame.index];
                if (frame.collectedViews == 0)
                    record.plan = result.plan;
                record.gpuMilliseconds += result.gpuMilliseconds;
                frame.rgba[frame.collectedViews++] = std::move(result.rgba);
                finishFrames(inFlight);
            }
        }
        catch (const std::exception& e)
        {
            std::lock_guard lock(mutex_);
            fatal_ = dynamic_cast<const std::bad_alloc*>(&e) ? "not enough memory for the frames in flight" : e.what();
            for (std::deque<std::unique_ptr<Frame>>* frames : {&inFlight, &toGpu_})
                for (const std::unique_ptr<Frame>& frame : *frames)
                {
                    fail(frame->index, "not processed: " + fatal_);
                    release(frame->index);
                }
            toGpu_.clear();
            for (std::size_t i = next_; i < jobs_.size(); ++i)
            {
                fail(i, "not processed: " + fatal_);
                ++held_; // release() counts it down
                release(i);
            }
            next_ = jobs_.size();
        }
        std::lock_guard lock(mutex_);
        gpuDone_ = true;
        changed_.notify_all();
    }

    const std::vector<BatchJob>& jobs_;
    const BatchOptions& options_;
    FrameStage& stage_;
    const FrameCallback& onFrame_;
    unsigned workers_ = 1;
    std::size_t maxFramesHeld_ = 1;

    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<FrameRecord> records_; ///< record i is written by the one thread handling frame i
    std::size_t next_ = 0;             ///< the next job to decode
    std::size_t decoding_ = 0;
    std::size_t held_ = 0; ///< frames decoding, decoded or being encoded
    std::size_t done_ = 0;
    std::deque<std::unique_ptr<Frame>> toGpu_;
    std::deque<std::unique_ptr<Frame>> toEncode_;
    bool gpuDone_ = false;
    std::string fatal_;
};

} // namespace

BatchSummary runBatch(const std::vector<BatchJob>& jobs, const BatchOptions& options, FrameStage& stage,
                      const FrameCallback& onFrame)
{
    return Pipeline(jobs, options, stage, onFrame).run();
}

} // namespace fftb
