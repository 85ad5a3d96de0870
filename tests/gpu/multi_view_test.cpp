// SPDX-License-Identifier: MIT
// Several views in one fftbCmdBloom (FftbMultiViewInfo): each view's result against the double-precision reference
// and against the same frame bloomed alone, in every padding, both axis orders, full and half resolution, fp32 and
// fp16 storage; and a stereo pair given as the two layers of one array image, with FftbImageBarrierInfo covering both.
// Validation (synchronization validation included) is on: any message fails the test.
#include "copy_barriers.h"
#include "fftbloom/fftbloom.h"
#include "gpu_test_support.h"
#include "node/context_info.h"
#include "psf/psf.h"
#include "settings/setting_names.h"
#include "vulkan/vulkan_device.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace fftb
{
namespace
{

constexpr VkFormat kFormat = VK_FORMAT_R32G32B32A32_SFLOAT;
constexpr uint32_t kWidth = 61, kHeight = 38;

struct ViewsCase
{
    uint32_t views;
    FftbPadding padding;
    FftbAxisOrder axisOrder;
    FftbBloomResolution resolution;
    FftbOutputMode output;
    FftbStoragePrecision storage;
};

std::string viewsName(const ::testing::TestParamInfo<ViewsCase>& info)
{
    const ViewsCase& c = info.param;
    std::string name = std::to_string(c.views) + "views_" + settingName(c.padding, kPaddingNames) + "_" +
                       settingName(c.axisOrder, kAxisOrderNames) +
                       (c.resolution == FFTB_BLOOM_RESOLUTION_HALF ? "_half" : "") +
                       (c.output == FFTB_OUTPUT_MODE_COMPOSITE ? "_composite" : "") +
                       (c.storage == FFTB_STORAGE_PRECISION_FLOAT16 ? "_fp16" : "");
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

// Keeps gtest from printing the parameters as raw bytes in test listings.
void PrintTo(const ViewsCase& c, std::ostream* os)
{
    *os << viewsName(::testing::TestParamInfo<ViewsCase>(c, 0));
}

/// A device with validation, a context for up to FFTB_MAX_VIEWS views of kWidth x kHeight and a random kernel.
class MultiView : public ::testing::TestWithParam<ViewsCase>
{
  protected:
    void SetUp() override
    {
        VulkanDeviceOptions options;
        options.validation = true;
        device_ = std::make_unique<VulkanDevice>(options);
        buffers_.reserve(4 * FFTB_MAX_VIEWS); // stable references: each view takes 3 of each at most
        images_.reserve(4 * FFTB_MAX_VIEWS);
        FftbContextCreateInfo ci =
            contextCreateInfo(device_->instance(), device_->logical(), kWidth, kHeight, 16, 16, &message_);
        ci.maxViews = FFTB_MAX_VIEWS;
        ASSERT_EQ(fftbCreateContext(&ci, &context_), FFTB_SUCCESS) << message_;
        kernelTexels_ = test::randomKernel(15, 11, 21);
        FftbKernelInfo ki{FFTB_STRUCTURE_TYPE_KERNEL_INFO};
        ki.width = uint32_t(kernelTexels_.width);
        ki.height = uint32_t(kernelTexels_.height);
        ki.texels = kernelTexels_.values.data();
        ASSERT_EQ(fftbCreateKernel(context_, &ki, &kernel_), FFTB_SUCCESS) << message_;
        normalizePsf(kernelTexels_);
    }

    void TearDown() override
    {
        vkDeviceWaitIdle(device_->device());
        for (FftbBloomPlan p : plans_)
            fftbDestroyBloomPlan(p);
        fftbDestroyKernel(kernel_);
        fftbDestroyContext(context_);
        for (VulkanDevice::Buffer& b : buffers_)
            device_->destroy(b);
        for (VulkanDevice::Image& i : images_)
            device_->destroy(i);
        const uint64_t messages = device_->validationMessageCount();
        const std::string first = device_->firstValidationMessage();
        device_.reset();
        EXPECT_EQ(messages, 0u) << "first validation message: " << first;
    }

    /// A host-visible buffer of one RGBA32F frame, released with the test.
    VulkanDevice::Buffer& frameBuffer(VkBufferUsageFlags usage)
    {
        return buffers_.emplace_back(device_->createBuffer(VkDeviceSize(kWidth) * kHeight * 16, usage, true));
    }

    /// A kWidth x kHeight image of `layers` layers (a 2D view each), released with the test.
    VulkanDevice::Image& image(VkImageUsageFlags usage, uint32_t layers = 1)
    {
        return images_.emplace_back(device_->createImage(kWidth, kHeight, kFormat, usage, layers));
    }

    /// A plan of `c`'s settings blooming `viewCount` views, destroyed with the test.
    FftbBloomPlan plan(const ViewsCase& c, uint32_t viewCount)
    {
        FftbBloomPlanCreateInfo pi{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_CREATE_INFO};
        pi.kernel = kernel_;
        pi.width = kWidth;
        pi.height = kHeight;
        pi.viewCount = viewCount;
        pi.inputLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        pi.padding = c.padding;
        pi.axisOrder = c.axisOrder;
        pi.storagePrecision = c.storage;
        pi.resolution = c.resolution;
        FftbBloomPlan made = nullptr;
        EXPECT_EQ(fftbCreateBloomPlan(context_, &pi, &made), FFTB_SUCCESS) << message_;
        if (made)
            plans_.push_back(made);
        return made;
    }

    static FftbBloomInfo bloomInfo(const ViewsCase& c)
    {
        FftbBloomInfo bi{FFTB_STRUCTURE_TYPE_BLOOM_INFO};
        bi.inputExtent = bi.outputExtent = {kWidth, kHeight};
        bi.outputMode = c.output;
        bi.intensity = 0.5f;
        return bi;
    }

    std::unique_ptr<VulkanDevice> device_;
    std::string message_;
    FftbContext context_ = nullptr;
    FftbKernel kernel_ = nullptr;
    Texels kernelTexels_;
    std::vector<FftbBloomPlan> plans_;
    std::vector<VulkanDevice::Buffer> buffers_;
    std::vector<VulkanDevice::Image> images_;
};

/// What a view's texels are read back into.
Texels texelsOf(const VulkanDevice::Buffer& buffer)
{
    Texels t(int(kWidth), int(kHeight), 4);
    std::memcpy(t.values.data(), buffer.mapped, t.values.size() * sizeof(float));
    return t;
}

// Each view of one multi-view bloom equals the same frame bloomed by a call of its own with a plan of one view (which
// the other tests check against the reference in every setting), within fp32 rounding; bloom-only views against the
// reference too. A plan of one view blooms the views of its bloom info and refuses an FftbMultiViewInfo.
TEST_P(MultiView, EachViewIsBloomedAsAloneAndMatchesTheReference)
{
    const ViewsCase& c = GetParam();
    const FftbBloomPlan onePlan = plan(c, 0), viewsPlan = plan(c, c.views);
    ASSERT_TRUE(onePlan && viewsPlan);
    std::vector<Texels> frames;
    std::vector<VkImageView> inputs, together, alone;
    VkCommandBuffer cb = device_->beginCommands();
    for (uint32_t v = 0; v < c.views; ++v)
    {
        frames.push_back(test::randomFrame(int(kWidth), int(kHeight), 100 + v, 20.0f + 10.0f * float(v)));
        VulkanDevice::Buffer& upload = frameBuffer(VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
        std::memcpy(upload.mapped, frames.back().values.data(), frames.back().values.size() * sizeof(float));
        const VulkanDevice::Image& input = image(VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
        VulkanDevice::uploadForCompute(cb, upload.buffer, input.image, kWidth, kHeight);
        inputs.push_back(input.view);
        for (std::vector<VkImageView>* outputs : {&together, &alone})
        {
            const VulkanDevice::Image& output = image(VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
            VulkanDevice::prepareComputeOutput(cb, output.image);
            outputs->push_back(output.view);
        }
    }
    FftbBloomInfo bi = bloomInfo(c);
    for (uint32_t v = 0; v < c.views; ++v)
    {
        bi.inputView = inputs[v];
        bi.outputView = alone[v];
        ASSERT_EQ(fftbCmdBloom(onePlan, cb, &bi), FFTB_SUCCESS) << message_;
    }
    FftbMultiViewInfo mv{FFTB_STRUCTURE_TYPE_MULTI_VIEW_INFO};
    mv.viewCount = c.views;
    mv.pInputViews = inputs.data();
    mv.pOutputViews = together.data();
    bi.pNext = &mv;
    bi.inputView = bi.outputView = VK_NULL_HANDLE;
    if (c.views == 1)
    {
        EXPECT_EQ(fftbCmdBloom(viewsPlan, cb, &bi), FFTB_ERROR_INVALID_ARGUMENT)
            << "a plan of one view took an FftbMultiViewInfo";
        EXPECT_NE(message_.find("FftbMultiViewInfo"), std::string::npos) << message_;
        bi.pNext = nullptr;
        bi.inputView = inputs[0];
        bi.outputView = together[0];
    }
    ASSERT_EQ(fftbCmdBloom(viewsPlan, cb, &bi), FFTB_SUCCESS) << message_;
    FftbBloomPlanDescription one{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION},
        all{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    ASSERT_EQ(fftbDescribeBloomPlan(viewsPlan, &all), FFTB_SUCCESS) << message_;
    ASSERT_EQ(fftbDescribeBloomPlan(onePlan, &one), FFTB_SUCCESS) << message_;
    if (c.views > 1)
        EXPECT_GT(all.scratchBytes, one.scratchBytes) << "the scratch holds every view's spectrum";
    else
        EXPECT_EQ(all.scratchBytes, one.scratchBytes);
    EXPECT_EQ(all.passCount, one.passCount) << "the views share the passes";

    // Images 3 v + 1 and 3 v + 2 are view v's outputs, together and alone (image() order above).
    std::vector<VulkanDevice::Buffer*> downloads;
    for (uint32_t v = 0; v < c.views; ++v)
        for (uint32_t which = 1; which <= 2; ++which)
        {
            VulkanDevice::Buffer& download = frameBuffer(VK_BUFFER_USAGE_TRANSFER_DST_BIT);
            recordImageReadback(cb, images_[3 * v + which].image, kWidth, kHeight, download.buffer);
            downloads.push_back(&download);
        }
    device_->submitAndWait(cb);

    BloomSettings s;
    s.plan.padding = c.padding;
    s.plan.axisOrder = c.axisOrder;
    s.plan.resolution = c.resolution;
    s.frame.output = c.output;
    s.plan.storage = c.storage;
    const double fp16 = c.storage == FFTB_STORAGE_PRECISION_FLOAT16 ? 2e-3 : test::Tolerance::kFp32;
    for (uint32_t v = 0; v < c.views; ++v)
    {
        const Texels viewTogether = texelsOf(*downloads[2 * v]), viewAlone = texelsOf(*downloads[2 * v + 1]);
        const double difference = test::relativeError(viewTogether, viewAlone);
        std::printf("[          ] view %u of %u: %.2e of the peak from the view bloomed alone\n", v, c.views,
                    difference);
        EXPECT_LE(difference, 1e-6) << "view " << v;
        if (c.output == FFTB_OUTPUT_MODE_BLOOM)
        {
            EXPECT_LE(test::relativeError(viewTogether, test::referenceFor(frames[v], kernelTexels_, s)), fp16)
                << "view " << v << ", " << test::describe(int(kWidth), int(kHeight), s);
        }
    }
}

class MultiViewLayers : public MultiView
{
};

// A stereo pair as the two layers of one image, views made per layer, with FftbImageBarrierInfo naming the image
// and both layers: the plugin's barriers take the input from the copy that wrote it and leave the output ready for
// the copy that reads it; both eyes against the reference.
TEST_P(MultiViewLayers, AStereoPairInTheLayersOfOneImage)
{
    const ViewsCase& c = GetParam();
    const FftbBloomPlan eyesPlan = plan(c, 2);
    ASSERT_TRUE(eyesPlan);
    std::vector<Texels> frames;
    const VulkanDevice::Image& input = image(VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, 2);
    const VulkanDevice::Image& output = image(VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, 2);
    const VkImageSubresourceRange layers{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 2};
    VkCommandBuffer cb = device_->beginCommands();
    VkImageMemoryBarrier toCopy{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    toCopy.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toCopy.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    toCopy.srcQueueFamilyIndex = toCopy.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    toCopy.image = input.image;
    toCopy.subresourceRange = layers;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &toCopy);
    std::vector<VulkanDevice::Buffer*> downloads;
    for (uint32_t eye = 0; eye < 2; ++eye)
    {
        frames.push_back(test::randomFrame(int(kWidth), int(kHeight), 200 + eye));
        VulkanDevice::Buffer& upload = frameBuffer(VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
        std::memcpy(upload.mapped, frames.back().values.data(), frames.back().values.size() * sizeof(float));
        const VkBufferImageCopy region{
            0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, eye, 1}, {0, 0, 0}, {kWidth, kHeight, 1}};
        vkCmdCopyBufferToImage(cb, upload.buffer, input.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        downloads.push_back(&frameBuffer(VK_BUFFER_USAGE_TRANSFER_DST_BIT));
    }

    FftbImageBarrierInfo barriers = betweenCopies(input.image, output.image, layers);
    FftbMultiViewInfo eyes{FFTB_STRUCTURE_TYPE_MULTI_VIEW_INFO};
    eyes.pNext = &barriers;
    eyes.viewCount = 2;
    eyes.pInputViews = input.layerViews.data();
    eyes.pOutputViews = output.layerViews.data();
    FftbBloomInfo bi = bloomInfo(c);
    bi.pNext = &eyes;
    ASSERT_EQ(fftbCmdBloom(eyesPlan, cb, &bi), FFTB_SUCCESS) << message_;
    for (uint32_t eye = 0; eye < 2; ++eye)
    {
        const VkBufferImageCopy region{
            0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, eye, 1}, {0, 0, 0}, {kWidth, kHeight, 1}};
        vkCmdCopyImageToBuffer(cb, output.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, downloads[eye]->buffer, 1,
                               &region);
    }
    recordHostReadBarrier(cb);
    device_->submitAndWait(cb);

    BloomSettings s;
    s.plan.padding = c.padding;
    s.plan.axisOrder = c.axisOrder;
    s.frame.output = c.output;
    for (uint32_t eye = 0; eye < 2; ++eye)
    {
        const double error =
            test::relativeError(texelsOf(*downloads[eye]), test::referenceFor(frames[eye], kernelTexels_, s));
        std::printf("[          ] eye %u: %.2e of the reference's peak\n", eye, error);
        EXPECT_LE(error, test::Tolerance::kFp32) << "eye " << eye;
    }
}

INSTANTIATE_TEST_SUITE_P(Stereo, MultiViewLayers,
                         ::testing::Values(ViewsCase{2, FFTB_PADDING_ZERO_NORMALIZED, FFTB_AXIS_ORDER_AUTO,
                                                     FFTB_BLOOM_RESOLUTION_FULL, FFTB_OUTPUT_MODE_BLOOM,
                                                     FFTB_STORAGE_PRECISION_FLOAT32}),
                         viewsName);

INSTANTIATE_TEST_SUITE_P(
    Settings, MultiView,
    ::testing::Values(ViewsCase{2, FFTB_PADDING_ZERO_NORMALIZED, FFTB_AXIS_ORDER_X_FIRST, FFTB_BLOOM_RESOLUTION_FULL,
                                FFTB_OUTPUT_MODE_BLOOM, FFTB_STORAGE_PRECISION_FLOAT32},
                      ViewsCase{3, FFTB_PADDING_MIRROR, FFTB_AXIS_ORDER_Y_FIRST, FFTB_BLOOM_RESOLUTION_FULL,
                                FFTB_OUTPUT_MODE_BLOOM, FFTB_STORAGE_PRECISION_FLOAT32},
                      ViewsCase{2, FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_Y_FIRST, FFTB_BLOOM_RESOLUTION_HALF,
                                FFTB_OUTPUT_MODE_BLOOM, FFTB_STORAGE_PRECISION_FLOAT32},
                      ViewsCase{FFTB_MAX_VIEWS, FFTB_PADDING_ZERO_NORMALIZED, FFTB_AXIS_ORDER_X_FIRST,
                                FFTB_BLOOM_RESOLUTION_HALF, FFTB_OUTPUT_MODE_COMPOSITE, FFTB_STORAGE_PRECISION_FLOAT32},
                      ViewsCase{6, FFTB_PADDING_ZERO_NORMALIZED, FFTB_AXIS_ORDER_AUTO, FFTB_BLOOM_RESOLUTION_FULL,
                                FFTB_OUTPUT_MODE_COMPOSITE, FFTB_STORAGE_PRECISION_FLOAT16},
                      ViewsCase{1, FFTB_PADDING_ZERO, FFTB_AXIS_ORDER_X_FIRST, FFTB_BLOOM_RESOLUTION_FULL,
                                FFTB_OUTPUT_MODE_BLOOM, FFTB_STORAGE_PRECISION_FLOAT32}),
    viewsName);

} // namespace
} // namespace fftb
