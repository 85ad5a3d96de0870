// SPDX-License-Identifier: MIT
// fftbloom-record-bench: what a new frame extent costs the CPU (dynamic resolution): fftbCreateBloomPlan compiling
// the pipelines the context lacks, fftbCreateBloomPlan with the context's pipelines held, fftbCreateBloomPlan in a
// fresh context from a warm VkPipelineCache; and fftbCmdBloom with a plan, which never compiles, on its first and a
// later record. Host wall times of the calls, in milliseconds.
#include "fftbloom/fftbloom.h"
#include "host_error.h"
#include "node/context_info.h"
#include "psf/psf_generator.h"
#include "vulkan/vulkan_device.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <vector>

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

/// One row per extent: the plan compiling, the plan with the pipelines held, the first and a warm record with the
/// plan, the plan from a warm VkPipelineCache.
struct Row
{
    Extent extent;
    double coldPlan = 0, warmPlan = 0, firstRecord = 0, warmRecord = 0, planFromCache = 0;
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
        VulkanDevice::transition(cb, input_.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                 0, VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
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
            // The extents in turn on one context, as dynamic resolution meets them: a plan compiles only the
            // pipelines no earlier plan of the context needed. The pipelines go into the cache too.
            Session session(*this);
            for (size_t i = 0; i < extents_.size(); ++i)
            {
                rows[i].extent = extents_[i];
                rows[i].coldPlan = session.plan(extents_[i]);
                const FftbBloomPlan plan = session.latestPlan();
                rows[i].warmPlan = session.plan(extents_[i]);
                rows[i].firstRecord = session.record(plan);
                rows[i].warmRecord = session.record(plan);
            }
        }
        Session cached(*this);
        for (size_t i = 0; i < extents_.size(); ++i)
            rows[i].planFromCache = cached.plan(extents_[i]);
        return rows;
    }

  private:
    /// A fresh context and kernel, compiling through the bench's pipeline cache; and the plans made with it.
    class Session
    {
      public:
        explicit Session(Bench& bench) : bench_(bench)
        {
            const uint32_t k = uint32_t(bench.psf_.width);
            FftbContextCreateInfo ci = contextCreateInfo(bench.device_.instance(), bench.device_.logical(),
                                                         bench.maxWidth_, bench.maxHeight_, k, k, &message_);
            ci.pipelineCache = bench.cache_;
            require(fftbCreateContext(&ci, &context_), "fftbCreateContext", message_);
            FftbKernelInfo ki{FFTB_STRUCTURE_TYPE_KERNEL_INFO};
            ki.width = ki.height = k;
            ki.texels = bench.psf_.values.data();
            require(fftbCreateKernel(context_, &ki, &kernel_), "fftbCreateKernel", message_);
        }
        ~Session()
        {
            for (FftbBloomPlan plan : plans_)
                fftbDestroyBloomPlan(plan);
            fftbDestroyKernel(kernel_);
            fftbDestroyContext(context_);
        }

        /// The time of fftbCreateBloomPlan of extent `e`; the session keeps the plan (latestPlan()).
        double plan(const Extent& e)
        {
            FftbBloomPlanCreateInfo pi{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_CREATE_INFO};
            pi.kernel = kernel_;
            pi.width = e.width;
            pi.height = e.height;
            pi.inputLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
            FftbBloomPlan plan = nullptr;
            FftbResult result = FFTB_SUCCESS;
            const double ms = millisecondsOf([&] { result = fftbCreateBloomPlan(context_, &pi, &plan); });
            require(result, "fftbCreateBloomPlan", message_);
            plans_.push_back(plan);
            return ms;
        }
        FftbBloomPlan latestPlan() const { return plans_.back(); }

        /// The time of fftbCmdBloom alone; the command buffer is then submitted and waited for (the images' content
        /// does not matter).
        double record(FftbBloomPlan plan)
        {
            FftbBloomInfo bi{FFTB_STRUCTURE_TYPE_BLOOM_INFO};
            bi.inputView = bench_.input_.view;
            bi.outputView = bench_.output_.view;
            bi.inputExtent = {bench_.input_.width, bench_.input_.height};
            bi.outputExtent = {bench_.output_.width, bench_.output_.height};
            bi.intensity = 0.25f;
            VkCommandBuffer cb = bench_.device_.beginCommands();
            FftbResult result = FFTB_SUCCESS;
            const double ms = millisecondsOf([&] { result = fftbCmdBloom(plan, cb, &bi); });
            bench_.device_.submitAndWait(cb);
            require(result, "fftbCmdBloom", message_);
            return ms;
        }

      private:
        Bench& bench_;
        std::string message_;
        FftbContext context_ = nullptr;
        FftbKernel kernel_ = nullptr;
        std::vector<FftbBloomPlan> plans_;
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
    CLI::App app{
        "fftbloom-record-bench: host milliseconds of fftbCreateBloomPlan on a new extent (compiling), of "
        "fftbCreateBloomPlan with the pipelines held, of fftbCmdBloom's first and warm record with a plan, and "
        "of fftbCreateBloomPlan in a fresh context from a warm VkPipelineCache. The drivers' own disk caches "
        "are switched off (MESA_SHADER_CACHE_DISABLE, __GL_SHADER_DISK_CACHE) unless set in the environment."};
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
        std::printf("| extent | fftbCreateBloomPlan, compiling | fftbCreateBloomPlan, pipelines held | "
                    "first fftbCmdBloom | warm fftbCmdBloom | fftbCreateBloomPlan, warm VkPipelineCache |\n"
                    "| --- | ---: | ---: | ---: | ---: | ---: |\n");
        nlohmann::json json{{"device", name}, {"kernelSize", kernelSize}, {"command", command}, {"rows", {}}};
        for (const Row& r : rows)
        {
            std::printf("| %ux%u | %.2f | %.3f | %.3f | %.3f | %.2f |\n", r.extent.width, r.extent.height, r.coldPlan,
                        r.warmPlan, r.firstRecord, r.warmRecord, r.planFromCache);
            json["rows"].push_back({{"width", r.extent.width},
                                    {"height", r.extent.height},
                                    {"coldPlanMs", r.coldPlan},
                                    {"warmPlanMs", r.warmPlan},
                                    {"firstRecordMs", r.firstRecord},
                                    {"warmRecordMs", r.warmRecord},
                                    {"planFromCacheMs", r.planFromCache}});
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
