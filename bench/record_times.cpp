// SPDX-License-Identifier: MIT
// fftbloom-record-bench: what a new frame extent costs the CPU in fftbCmdBloom (dynamic resolution), with the
// pipelines compiled while recording, compiled ahead by fftbPreparePipelines, and compiled ahead from a warm
// VkPipelineCache; and the warm record of an extent already seen. Host wall times of the calls, in milliseconds.
#include "fftbloom/fftbloom.h"
#include "host_error.h"
#include "psf/psf_generator.h"
#include "runner/context_info.h"
#include "vulkan/vulkan_device.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>

namespace
{

using namespace fftb;

struct Extent
{
    uint32_t width, height;
};

double millisecondsOf(const std::function<void()>& call)
{
    const auto start = std::chrono::steady_clock::now();
    call();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void require(FftbResult result, const char* call, const std::string& message)
{
    if (result != FFTB_SUCCESS)
        throw HostError(std::string(call) + ": " + fftbResultToString(result) + " (" + message + ")");
}

/// One row per extent: first record compiling, warm record, prepare, record after prepare, prepare from the cache.
struct Row
{
    Extent extent;
    double firstRecord = 0, warmRecord = 0, prepare = 0, recordAfterPrepare = 0, prepareFromCache = 0;
};

class Bench
{
  public:
    Bench(VulkanDevice& device, const std::vector<Extent>& extents, int kernelSize)
        : device_(device), extents_(extents), psf_(defaultPsf(kernelSize))
    {
        for (const Extent& e : extents)
        {
            maxWidth_ = std::max(maxWidth_, e.width);
            maxHeight_ = std::max(maxHeight_, e.height);
        }
        input_ = device.createImage(maxWidth_, maxHeight_, VK_FORMAT_R32G32B32A32_SFLOAT,
                                    VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
        output_ = device.createImage(maxWidth_, maxHeight_, VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_USAGE_STORAGE_BIT);
        // The layouts every bloom expects; their content does not matter here.
        VkCommandBuffer cb = device.beginCommands();
        VulkanDevice::transition(cb, input_.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, 0,
                                 VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
        VulkanDevice::prepareComputeOutput(cb, output_.image);
        device.submitAndWait(cb);
        VkPipelineCacheCreateInfo cacheInfo{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
        if (vkCreatePipelineCache(device.device(), &cacheInfo, nullptr, &cache_) != VK_SUCCESS)
            throw HostError("vkCreatePipelineCache failed");
    }
    ~Bench()
    {
        vkDestroyPipelineCache(device_.device(), cache_, nullptr);
        device_.destroy(input_);
        device_.destroy(output_);
    }

    std::vector<Row> run()
    {
        std::vector<Row> rows(extents_.size());
        {
            Session compiling(*this, 0, VK_NULL_HANDLE);
            for (size_t i = 0; i < extents_.size(); ++i)
            {
                rows[i].extent = extents_[i];
                rows[i].firstRecord = compiling.record(extents_[i]);
                rows[i].warmRecord = compiling.record(extents_[i]);
            }
        }
        {
            Session ahead(*this, FFTB_CONTEXT_CREATE_NO_COMPILE_WHILE_RECORDING_BIT, cache_);
            for (size_t i = 0; i < extents_.size(); ++i)
            {
                rows[i].prepare = ahead.prepare(extents_[i]);
                rows[i].recordAfterPrepare = ahead.record(extents_[i]);
            }
        }
        Session cached(*this, FFTB_CONTEXT_CREATE_NO_COMPILE_WHILE_RECORDING_BIT, cache_);
        for (size_t i = 0; i < extents_.size(); ++i)
            rows[i].prepareFromCache = cached.prepare(extents_[i]);
        return rows;
    }

  private:
    /// A fresh context and kernel: nothing compiled yet.
    class Session
    {
      public:
        Session(Bench& bench, FftbContextCreateFlags flags, VkPipelineCache cache) : bench_(bench)
        {
            const uint32_t k = uint32_t(bench.psf_.width);
            FftbContextCreateInfo ci = contextCreateInfo(bench.device_.instance(), bench.device_.logical(),
                                                         bench.maxWidth_, bench.maxHeight_, k, k, &message_);
            ci.flags = flags;
            ci.pipelineCache = cache;
            ci.maxFramesInFlight = 1;
            require(fftbCreateContext(&ci, &context_), "fftbCreateContext", message_);
            FftbKernelInfo ki{FFTB_STRUCTURE_TYPE_KERNEL_INFO};
            ki.width = ki.height = k;
            ki.texels = bench.psf_.values.data();
            require(fftbCreateKernel(context_, &ki, &kernel_), "fftbCreateKernel", message_);
        }
        ~Session()
        {
            fftbDestroyKernel(kernel_);
            fftbDestroyContext(context_);
        }

        FftbBloomInfo info(const Extent& e) const
        {
            FftbBloomInfo bi{FFTB_STRUCTURE_TYPE_BLOOM_INFO};
            bi.kernel = kernel_;
            bi.inputView = bench_.input_.view;
            bi.inputLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
            bi.outputView = bench_.output_.view;
            bi.width = e.width;
            bi.height = e.height;
            bi.intensity = 0.25f;
            return bi;
        }

        /// The time of fftbCmdBloom alone; the command buffer is then submitted and waited for (the images' content
        /// does not matter), so the next record may reuse the descriptor set.
        double record(const Extent& e)
        {
            const FftbBloomInfo bi = info(e);
            VkCommandBuffer cb = bench_.device_.beginCommands();
            FftbResult result = FFTB_SUCCESS;
            const double ms = millisecondsOf([&] { result = fftbCmdBloom(context_, cb, &bi); });
            bench_.device_.submitAndWait(cb);
            require(result, "fftbCmdBloom", message_);
            return ms;
        }

        double prepare(const Extent& e)
        {
            const FftbBloomInfo bi = info(e);
            FftbResult result = FFTB_SUCCESS;
            const double ms = millisecondsOf([&] { result = fftbPreparePipelines(context_, 1, &bi); });
            require(result, "fftbPreparePipelines", message_);
            return ms;
        }

      private:
        Bench& bench_;
        std::string message_;
        FftbContext context_ = nullptr;
        FftbKernel kernel_ = nullptr;
    };

    VulkanDevice& device_;
    std::vector<Extent> extents_;
    Texels psf_;
    uint32_t maxWidth_ = 1, maxHeight_ = 1;
    VulkanDevice::Image input_, output_;
    VkPipelineCache cache_ = VK_NULL_HANDLE;
};

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> extentTexts{"640x360", "600x340", "512x288", "320x180"};
    int kernelSize = 64, deviceIndex = -1;
    std::string jsonPath, command;
    bool validation = false;
    CLI::App app{"fftbloom-record-bench: host milliseconds of fftbCmdBloom on a new extent (compiling while "
                 "recording), of fftbPreparePipelines, of the record after it, and of fftbPreparePipelines from a warm "
                 "VkPipelineCache. The drivers' own disk caches are switched off (MESA_SHADER_CACHE_DISABLE, "
                 "__GL_SHADER_DISK_CACHE) unless set in the environment."};
    app.add_option("--extents", extentTexts, "frame extents WxH, in the order recorded")->capture_default_str();
    app.add_option("--kernel-size", kernelSize, "default PSF size")->capture_default_str()->check(CLI::Range(2, 4096));
    app.add_option("--device", deviceIndex, "Vulkan physical device index");
    app.add_option("--json", jsonPath, "write the results as JSON here");
    app.add_option("--command", command, "the command line to store in the JSON");
    app.add_flag("--validate", validation, "enable the Khronos validation layer and fail on any message");
    CLI11_PARSE(app, argc, argv);
    try
    {
        std::vector<Extent> extents;
        for (const std::string& text : extentTexts)
        {
            unsigned w = 0, h = 0;
            char extra = 0;
            if (std::sscanf(text.c_str(), "%ux%u%c", &w, &h, &extra) != 2 || w == 0 || h == 0)
                throw HostError("--extents: " + text + " is not WxH");
            extents.push_back({w, h});
        }
        setenv("MESA_SHADER_CACHE_DISABLE", "true", 0);
        setenv("__GL_SHADER_DISK_CACHE", "0", 0);
        VulkanDeviceOptions options;
        options.deviceIndex = deviceIndex;
        options.validation = validation;
        VulkanDevice device(options);
        std::vector<Row> rows;
        {
            Bench bench(device, extents, kernelSize);
            rows = bench.run();
        }
        const std::string name = device.properties().deviceName;
        std::printf("%s, kernel %d^2; host milliseconds per call\n\n", name.c_str(), kernelSize);
        std::printf("| extent | first record, compiling | warm record | fftbPreparePipelines | record after it | "
                    "fftbPreparePipelines, warm VkPipelineCache |\n| --- | ---: | ---: | ---: | ---: | ---: |\n");
        nlohmann::json json{{"device", name}, {"kernelSize", kernelSize}, {"command", command}, {"rows", {}}};
        for (const Row& r : rows)
        {
            std::printf("| %ux%u | %.2f | %.3f | %.2f | %.3f | %.2f |\n", r.extent.width, r.extent.height,
                        r.firstRecord, r.warmRecord, r.prepare, r.recordAfterPrepare, r.prepareFromCache);
            json["rows"].push_back({{"width", r.extent.width},
                                    {"height", r.extent.height},
                                    {"firstRecordMs", r.firstRecord},
                                    {"warmRecordMs", r.warmRecord},
                                    {"prepareMs", r.prepare},
                                    {"recordAfterPrepareMs", r.recordAfterPrepare},
                                    {"prepareFromCacheMs", r.prepareFromCache}});
        }
        if (!jsonPath.empty())
            std::ofstream(jsonPath) << json.dump(2) << "\n";
        if (device.validationMessageCount() > 0)
        {
            std::fprintf(stderr, "fftbloom-record-bench: validation: %s\n", device.firstValidationMessage().c_str());
            return 1;
        }
        return 0;
    }
    catch (const std::exception& e)
    {
        std::fprintf(stderr, "fftbloom-record-bench: %s\n", e.what());
        return 1;
    }
}
