// SPDX-License-Identifier: MIT
// The integration contract on one device, as an engine uses it: two contexts of different maximum extents, frames of
// several extents on each (dynamic resolution: a plan per extent, made before recording) and after a resize, two
// kernels shared by both contexts, scratch supplied by the engine between guard bands, the images' barriers and layout
// transitions left to the plugin (FftbImageBarrierInfo, with and without synchronization2), debug labels on. Every
// frame is recorded into one command buffer and checked against the double-precision reference; validation must stay
// silent.
#include "copy_barriers.h"
#include "fftbloom/fftbloom.h"
#include "gpu_test_support.h"
#include "host_error.h"
#include "node/context_info.h"
#include "psf/psf.h"
#include "reference.h"
#include "vulkan/vulkan_device.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace fftb
{
namespace
{

using test::Tolerance;

constexpr VkFormat kFormat = VK_FORMAT_R32G32B32A32_SFLOAT;
constexpr unsigned char kGuardByte = 0x7F;
constexpr VkDeviceSize kGuardBytes = 4096; ///< a multiple of any minStorageBufferOffsetAlignment

/// What a frame is bloomed with: the context, the kernel (its texels and spectrum mode), extent and padding.
struct FrameSpec
{
    FftbContext context = nullptr;
    FftbKernel kernel = nullptr;
    const Texels* texels = nullptr;
    FftbSpectrumMode mode = FFTB_SPECTRUM_MODE_EXACT;
    int width = 0, height = 0;
    FftbPadding padding = FFTB_PADDING_ZERO;
};

/// One frame's images and staging buffers, and what it was bloomed with.
struct Frame
{
    Texels rgba;
    FrameSpec spec;
    VulkanDevice::Buffer upload, download;
    VulkanDevice::Image input, output;
};

class ContractTest : public ::testing::TestWithParam<bool>
{
  protected:
    void SetUp() override
    {
        VulkanDeviceOptions options;
        options.validation = true;
        options.synchronization2 = GetParam();
        device_ = std::make_unique<VulkanDevice>(options);
    }

    void TearDown() override
    {
        for (Frame& f : frames_)
            release(f);
        for (FftbBloomPlan p : plans_)
            fftbDestroyBloomPlan(p);
        for (FftbKernel k : kernels_)
            fftbDestroyKernel(k);
        for (FftbContext c : contexts_)
            fftbDestroyContext(c);
        if (scratch_.buffer)
            device_->destroy(scratch_);
        const uint64_t messages = device_->validationMessageCount();
        const std::string first = device_->firstValidationMessage();
        device_.reset();
        EXPECT_EQ(messages, 0u) << "first validation message: " << first;
    }

    FftbContextCreateInfo createInfo(uint32_t maxWidth, uint32_t maxHeight)
    {
        FftbContextCreateInfo ci =
            contextCreateInfo(device_->instance(), device_->logical(), maxWidth, maxHeight, 16, 16, &message_);
        ci.pNext = &features_;
        features_.synchronization2 = GetParam() ? VK_TRUE : VK_FALSE;
        features_.debugUtils = VK_TRUE; // the validating device's instance enables VK_EXT_debug_utils
        return ci;
    }

    FftbKernel createKernel(FftbContext context, const Texels& rgb, FftbSpectrumMode mode)
    {
        FftbKernelInfo ki{FFTB_STRUCTURE_TYPE_KERNEL_INFO};
        ki.width = uint32_t(rgb.width);
        ki.height = uint32_t(rgb.height);
        ki.texels = rgb.values.data();
        ki.spectrumMode = mode;
        FftbKernel kernel = nullptr;
        EXPECT_EQ(fftbCreateKernel(context, &ki, &kernel), FFTB_SUCCESS) << message_;
        kernels_.push_back(kernel);
        return kernel;
    }

    /// The plan of `spec`'s frames, destroyed with the test; nullptr when refused.
    FftbBloomPlan createPlan(const FrameSpec& spec)
    {
        FftbBloomPlanCreateInfo pi{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_CREATE_INFO};
        pi.kernel = spec.kernel;
        pi.width = uint32_t(spec.width);
        pi.height = uint32_t(spec.height);
        pi.inputLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        pi.padding = spec.padding;
        FftbBloomPlan plan = nullptr;
        EXPECT_EQ(fftbCreateBloomPlan(spec.context, &pi, &plan), FFTB_SUCCESS)
            << spec.width << "x" << spec.height << ": " << message_;
        if (plan)
            plans_.push_back(plan);
        return plan;
    }

    /// Uploads a random frame and records its bloom with `plan`, made for `spec`, and its readback into `cb`; the
    /// plugin moves the input from TRANSFER_DST and the output to TRANSFER_SRC.
    void recordFrame(VkCommandBuffer cb, FftbBloomPlan plan, const FrameSpec& spec)
    {
        ASSERT_NE(plan, nullptr);
        Frame& f = frames_.emplace_back();
        f.rgba = test::randomFrame(spec.width, spec.height, uint32_t(frames_.size()));
        f.spec = spec;
        const uint32_t w = uint32_t(spec.width), h = uint32_t(spec.height);
        const VkDeviceSize bytes = VkDeviceSize(w) * h * 4 * sizeof(float);
        f.upload = device_->createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
        f.download = device_->createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
        f.input = device_->createImage(w, h, kFormat, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
        f.output = device_->createImage(w, h, kFormat, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
        std::memcpy(f.upload.mapped, f.rgba.values.data(), bytes);

        const VkBufferImageCopy region{0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {w, h, 1}};
        VulkanDevice::transition(cb, f.input.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                                 VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                                 VK_PIPELINE_STAGE_TRANSFER_BIT);
        vkCmdCopyBufferToImage(cb, f.upload.buffer, f.input.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);

        const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        FftbImageBarrierInfo images = betweenCopies(f.input.image, f.output.image, range);
        FftbBloomInfo bi{FFTB_STRUCTURE_TYPE_BLOOM_INFO};
        bi.pNext = &images;
        bi.inputView = f.input.view;
        bi.outputView = f.output.view;
        bi.inputExtent = bi.outputExtent = {f.input.width, f.input.height};
        bi.outputMode = FFTB_OUTPUT_MODE_BLOOM;
        ASSERT_EQ(fftbCmdBloom(plan, cb, &bi), FFTB_SUCCESS) << message_;
        vkCmdCopyImageToBuffer(cb, f.output.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, f.download.buffer, 1, &region);
    }

    /// Submits `cb`, waits, and checks every recorded frame not yet checked against the reference.
    void submitAndCheck(VkCommandBuffer cb)
    {
        recordHostReadBarrier(cb);
        device_->submitAndWait(cb);
        for (; checked_ < frames_.size(); ++checked_)
        {
            const Frame& f = frames_[checked_];
            Texels gpu(f.rgba.width, f.rgba.height, 4);
            std::memcpy(gpu.values.data(), f.download.mapped, gpu.values.size() * sizeof(float));
            Texels kernel = *f.spec.texels;
            normalizePsf(kernel);
            Texels reference;
            if (f.spec.mode == FFTB_SPECTRUM_MODE_EXACT)
                reference = referenceConvolution(f.rgba, kernel, f.spec.padding);
            else
            {
                PlanRequest request{uint32_t(f.rgba.width), uint32_t(f.rgba.height), uint32_t(kernel.width),
                                    uint32_t(kernel.height), f.spec.padding};
                request.spectrum = FFTB_SPECTRUM_MODE_RESAMPLED;
                Plan plan;
                ASSERT_TRUE(makePlan(request, &plan, nullptr));
                // The kernels' default interpolation, ES: the reference reads the kernel's own spectrum.
                reference = referenceSpectralConvolution(f.rgba, kernel, plan, 0.0, FFTB_SPECTRUM_INTERPOLATION_ES);
            }
            EXPECT_LE(test::relativeError(gpu, reference), Tolerance::kFp32)
                << "frame " << checked_ << ": " << f.rgba.width << "x" << f.rgba.height;
        }
    }

    void release(Frame& f)
    {
        device_->destroy(f.upload);
        device_->destroy(f.download);
        device_->destroy(f.input);
        device_->destroy(f.output);
    }

    std::unique_ptr<VulkanDevice> device_;
    FftbDeviceFeaturesInfo features_{FFTB_STRUCTURE_TYPE_DEVICE_FEATURES_INFO};
    std::string message_;
    std::vector<FftbContext> contexts_;
    std::vector<FftbKernel> kernels_;
    std::vector<FftbBloomPlan> plans_;
    std::vector<Frame> frames_;
    size_t checked_ = 0;
    VulkanDevice::Buffer scratch_;
};

TEST_P(ContractTest, TwoContextsSharedKernelsEngineScratchAndResize)
{
    // Context A allocates its scratch; context B is given a range of the engine's buffer, between guard bands.
    const FftbContextCreateInfo infoA = createInfo(96, 64);
    FftbContextCreateInfo infoB = createInfo(160, 120);
    FftbMemoryRequirements requirements{FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS};
    ASSERT_EQ(fftbGetMemoryRequirements(&infoB, &requirements), FFTB_SUCCESS) << message_;
    ASSERT_EQ(kGuardBytes % device_->properties().limits.minStorageBufferOffsetAlignment, 0u);
    const VkDeviceSize scratchBytes = kGuardBytes + requirements.scratchBytes + kGuardBytes;
    scratch_ = device_->createBuffer(scratchBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
    std::memset(scratch_.mapped, kGuardByte, scratchBytes);
    FftbScratchInfo scratch{FFTB_STRUCTURE_TYPE_SCRATCH_INFO};
    scratch.buffer = scratch_.buffer;
    scratch.offset = kGuardBytes;
    scratch.size = requirements.scratchBytes;
    features_.pNext = &scratch;
    FftbContext a = nullptr, b = nullptr;
    ASSERT_EQ(fftbCreateContext(&infoB, &b), FFTB_SUCCESS) << message_;
    contexts_.push_back(b);
    features_.pNext = nullptr;
    ASSERT_EQ(fftbCreateContext(&infoA, &a), FFTB_SUCCESS) << message_;
    contexts_.push_back(a);

    // The exact-mode kernel is made on B, so its spectra fit B's larger frames; the resampled one on A.
    const Texels exactTexels = test::randomKernel(13, 11, 7);
    const Texels resampledTexels = test::randomKernel(16, 9, 8);
    const FftbKernel exact = createKernel(b, exactTexels, FFTB_SPECTRUM_MODE_EXACT);
    const FftbKernel resampled = createKernel(a, resampledTexels, FFTB_SPECTRUM_MODE_RESAMPLED);

    // A plan per context, kernel, extent and padding, made before recording.
    const FrameSpec frames[] = {
        {a, exact, &exactTexels, FFTB_SPECTRUM_MODE_EXACT, 96, 64, FFTB_PADDING_ZERO},
        {b, exact, &exactTexels, FFTB_SPECTRUM_MODE_EXACT, 150, 100, FFTB_PADDING_MIRROR},
        {a, resampled, &resampledTexels, FFTB_SPECTRUM_MODE_RESAMPLED, 70, 50, FFTB_PADDING_MIRROR},
        {b, resampled, &resampledTexels, FFTB_SPECTRUM_MODE_RESAMPLED, 160, 120, FFTB_PADDING_ZERO},
        {a, exact, &exactTexels, FFTB_SPECTRUM_MODE_EXACT, 41, 37, FFTB_PADDING_ZERO}};
    std::vector<FftbBloomPlan> plans;
    for (const FrameSpec& f : frames)
        plans.push_back(createPlan(f));
    VkCommandBuffer cb = device_->beginCommands();
    for (size_t i = 0; i < plans.size(); ++i)
        recordFrame(cb, plans[i], frames[i]);
    submitAndCheck(cb);

    // The scratch B used lies within the range it was given.
    const auto* bytes = static_cast<const unsigned char*>(scratch_.mapped);
    for (VkDeviceSize i = 0; i < kGuardBytes; ++i)
    {
        ASSERT_EQ(bytes[i], kGuardByte) << "guard byte " << i << " before the scratch was written";
        ASSERT_EQ(bytes[kGuardBytes + requirements.scratchBytes + i], kGuardByte)
            << "guard byte " << i << " after the scratch was written";
    }

    // A grows past its maximum extent with nothing pending; both kernels still serve it.
    FftbResizeInfo resize{FFTB_STRUCTURE_TYPE_RESIZE_INFO};
    resize.maxWidth = 128;
    resize.maxHeight = 96;
    resize.maxKernelResolutionWidth = resize.maxKernelResolutionHeight = 16;
    ASSERT_EQ(fftbResizeContext(a, &resize), FFTB_SUCCESS) << message_;
    const FrameSpec grown[] = {
        {a, resampled, &resampledTexels, FFTB_SPECTRUM_MODE_RESAMPLED, 128, 96, FFTB_PADDING_ZERO},
        {a, exact, &exactTexels, FFTB_SPECTRUM_MODE_EXACT, 120, 90, FFTB_PADDING_MIRROR}};
    const FftbBloomPlan grownPlans[] = {createPlan(grown[0]), createPlan(grown[1])};
    cb = device_->beginCommands();
    for (size_t i = 0; i < 2; ++i)
        recordFrame(cb, grownPlans[i], grown[i]);
    // A plan made before the resize blooms on within the larger extents.
    recordFrame(cb, plans.back(), frames[4]);
    submitAndCheck(cb);
}

TEST_P(ContractTest, PlansAndKernelSpectraPreparedAheadBloomAsTheReference)
{
    // The engine makes the plan of every extent it will use (dynamic resolution), then records the kernel spectra in
    // one command buffer and the blooms in later ones.
    const FftbContextCreateInfo info = createInfo(96, 64);
    FftbContext context = nullptr;
    ASSERT_EQ(fftbCreateContext(&info, &context), FFTB_SUCCESS) << message_;
    contexts_.push_back(context);
    const Texels exactTexels = test::randomKernel(13, 11, 9);
    const Texels resampledTexels = test::randomKernel(16, 9, 10);
    const FftbKernel exact = createKernel(context, exactTexels, FFTB_SPECTRUM_MODE_EXACT);
    const FftbKernel resampled = createKernel(context, resampledTexels, FFTB_SPECTRUM_MODE_RESAMPLED);
    const FrameSpec frames[] = {
        {context, exact, &exactTexels, FFTB_SPECTRUM_MODE_EXACT, 96, 64, FFTB_PADDING_ZERO},
        {context, resampled, &resampledTexels, FFTB_SPECTRUM_MODE_RESAMPLED, 70, 50, FFTB_PADDING_MIRROR},
        {context, exact, &exactTexels, FFTB_SPECTRUM_MODE_EXACT, 41, 37, FFTB_PADDING_MIRROR}};
    std::vector<FftbBloomPlan> plans;
    for (const FrameSpec& f : frames)
        plans.push_back(createPlan(f));
    VkCommandBuffer cb = device_->beginCommands();
    for (FftbBloomPlan plan : plans)
        ASSERT_EQ(fftbCmdPrepareKernel(plan, cb), FFTB_SUCCESS) << message_;
    device_->submitAndWait(cb);
    cb = device_->beginCommands();
    for (size_t i = 0; i < plans.size(); ++i)
    {
        FftbBloomPlanDescription d{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
        ASSERT_EQ(fftbDescribeBloomPlan(plans[i], &d), FFTB_SUCCESS) << message_;
        EXPECT_EQ(d.spectrumPassCount, 0u) << "frame " << i << ": its kernel spectrum was prepared";
        recordFrame(cb, plans[i], frames[i]);
    }
    submitAndCheck(cb);
}

INSTANTIATE_TEST_SUITE_P(Synchronization, ContractTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& param)
                         { return param.param ? std::string("synchronization2") : std::string("vulkan10_barriers"); });

} // namespace
} // namespace fftb
