// SPDX-License-Identifier: MIT
// The C++ RAII wrapper (fftbloom.hpp) on lavapipe with the validation layer: ownership, errors, and a bloom
// recorded through it.
#include <fftbloom/fftbloom.hpp>

#include "node/context_info.h"
#include "vulkan/vulkan_device.h"

#include <gtest/gtest.h>

#include <cstring>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace
{

class HppTest : public ::testing::Test
{
  protected:
    void TearDown() override { EXPECT_EQ(device_.validationMessageCount(), 0u) << device_.firstValidationMessage(); }

    FftbContextCreateInfo createInfo(uint32_t width, uint32_t height, uint32_t kernel) const
    {
        return fftb::contextCreateInfo(device_.instance(), device_.logical(), width, height, kernel, kernel);
    }

    fftb::VulkanDevice device_{{-1, true}};
};

TEST_F(HppTest, OwnershipMovesAndEndsOnce)
{
    fftbloom::Context a(createInfo(16, 16, 4));
    const FftbContext handle = a.get();
    ASSERT_NE(handle, nullptr);
    fftbloom::Context b(std::move(a));
    EXPECT_FALSE(a);
    EXPECT_EQ(b.get(), handle);
    fftbloom::Context c;
    c = std::move(b);
    EXPECT_FALSE(b);
    EXPECT_EQ(c.get(), handle);
    c = fftbloom::Context(createInfo(8, 8, 2)); // the first context is destroyed here
    EXPECT_TRUE(c);
    const FftbContext released = c.release();
    EXPECT_FALSE(c);
    fftbDestroyContext(released);
}

TEST_F(HppTest, FailuresThrowOrReturnTheResult)
{
    FftbContextCreateInfo bad = createInfo(16, 16, 4);
    bad.maxWidth = 0;
    fftbloom::Context empty;
    EXPECT_EQ(fftbloom::Context::create(bad, empty), FFTB_ERROR_INVALID_ARGUMENT);
    EXPECT_FALSE(empty);
    try
    {
        fftbloom::Context context(bad);
        ADD_FAILURE() << "no exception for maxWidth 0";
    }
    catch (const fftbloom::Error& e)
    {
        EXPECT_EQ(e.result(), FFTB_ERROR_INVALID_ARGUMENT);
        EXPECT_EQ(std::string(e.what()), "fftbCreateContext: FFTB_ERROR_INVALID_ARGUMENT");
    }

    fftbloom::Context context(createInfo(16, 16, 4));
    const std::vector<float> negative(4 * 4 * 3, -1.0f);
    FftbKernelInfo ki{FFTB_STRUCTURE_TYPE_KERNEL_INFO};
    ki.width = ki.height = 4;
    ki.texels = negative.data();
    fftbloom::Kernel kernel;
    EXPECT_EQ(context.createKernel(ki, kernel, std::nothrow), FFTB_ERROR_INVALID_ARGUMENT);
    EXPECT_FALSE(kernel);
    try
    {
        kernel = context.createKernel(ki);
        ADD_FAILURE() << "no exception for a negative kernel";
    }
    catch (const fftbloom::Error& e)
    {
        EXPECT_EQ(e.result(), FFTB_ERROR_INVALID_ARGUMENT);
    }
}

TEST_F(HppTest, PlansAreOwnedAndRefuseBadSettingsAsTheyThrowOrReturn)
{
    fftbloom::Context context(createInfo(16, 16, 4));
    const std::vector<float> ones(4 * 4 * 3, 1.0f);
    FftbKernelInfo ki{FFTB_STRUCTURE_TYPE_KERNEL_INFO};
    ki.width = ki.height = 4;
    ki.texels = ones.data();
    const fftbloom::Kernel kernel = context.createKernel(ki);
    FftbBloomPlanCreateInfo pi{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_CREATE_INFO};
    pi.kernel = kernel.get();
    pi.width = 17; // past the context's maximum
    pi.height = 16;
    pi.inputLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    fftbloom::BloomPlan plan;
    EXPECT_EQ(context.createBloomPlan(pi, plan, std::nothrow), FFTB_ERROR_DEVICE_LIMIT);
    EXPECT_FALSE(plan);
    try
    {
        plan = context.createBloomPlan(pi);
        ADD_FAILURE() << "no exception for a frame wider than the context's";
    }
    catch (const fftbloom::Error& e)
    {
        EXPECT_EQ(e.result(), FFTB_ERROR_DEVICE_LIMIT);
        EXPECT_EQ(std::string(e.what()), "fftbCreateBloomPlan: FFTB_ERROR_DEVICE_LIMIT");
    }
    EXPECT_FALSE(plan);

    pi.width = 16;
    plan = context.createBloomPlan(pi);
    const FftbBloomPlan handle = plan.get();
    ASSERT_NE(handle, nullptr);
    fftbloom::BloomPlan moved(std::move(plan));
    EXPECT_FALSE(plan);
    EXPECT_EQ(moved.get(), handle);
    FftbBloomPlanDescription node{};
    EXPECT_EQ(moved.describe(node, std::nothrow), FFTB_SUCCESS) << "the wrapper sets the sType";
    EXPECT_EQ(node.paddedWidth, moved.describe().paddedWidth);
    // A second plan through the non-throwing form replaces the first, which is destroyed.
    EXPECT_EQ(context.createBloomPlan(pi, moved, std::nothrow), FFTB_SUCCESS);
    EXPECT_TRUE(moved);
    FftbBloomInfo bi{FFTB_STRUCTURE_TYPE_BLOOM_INFO}; // no views: refused before anything is recorded
    bi.outputMode = FFTB_OUTPUT_MODE_BLOOM;
    const VkCommandBuffer cb = device_.beginCommands();
    EXPECT_EQ(moved.cmdBloom(cb, bi, std::nothrow), FFTB_ERROR_INVALID_ARGUMENT);
    try
    {
        moved.cmdBloom(cb, bi);
        ADD_FAILURE() << "no exception for a bloom without views";
    }
    catch (const fftbloom::Error& e)
    {
        EXPECT_EQ(std::string(e.what()), "fftbCmdBloom: FFTB_ERROR_INVALID_ARGUMENT");
    }
    moved.cmdPrepareKernel(cb);
    device_.submitAndWait(cb);
    moved.reset(); // before the kernel and the context
    EXPECT_FALSE(moved);
}

TEST_F(HppTest, BloomWithACentredPointKernelReturnsTheFrame)
{
    constexpr uint32_t kWidth = 12, kHeight = 10, kKernel = 5;
    fftbloom::Context context(createInfo(kWidth, kHeight, kKernel));
    std::vector<float> point(kKernel * kKernel * 3, 0.0f);
    for (int c = 0; c < 3; ++c)
        point[((kKernel / 2) * kKernel + kKernel / 2) * 3 + std::size_t(c)] = 1.0f;
    FftbKernelInfo ki{FFTB_STRUCTURE_TYPE_KERNEL_INFO};
    ki.width = ki.height = kKernel;
    ki.texels = point.data();
    ki.spectrumMode = FFTB_SPECTRUM_MODE_EXACT;
    const fftbloom::Kernel kernel = context.createKernel(ki);
    FftbBloomPlanCreateInfo pi{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_CREATE_INFO};
    pi.kernel = kernel.get();
    pi.width = kWidth;
    pi.height = kHeight;
    pi.inputLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    fftbloom::BloomPlan plan = context.createBloomPlan(pi);
    // The node's declaration, before anything is recorded: the spectrum passes, then the border weights' (the
    // default FFTB_PADDING_ZERO_NORMALIZED), come first.
    const FftbBloomPlanDescription node = plan.describe();
    EXPECT_EQ(node.passCount, 8u);
    EXPECT_GE(node.scratchBytes, 1u);
    EXPECT_EQ(node.borderWeightBytes, VkDeviceSize(3) * kWidth * kHeight * 4);

    const VkDeviceSize bytes = kWidth * kHeight * 4 * sizeof(float);
    fftb::VulkanDevice::Buffer upload = device_.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
    fftb::VulkanDevice::Buffer download = device_.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
    const VkFormat format = VK_FORMAT_R32G32B32A32_SFLOAT;
    fftb::VulkanDevice::Image input =
        device_.createImage(kWidth, kHeight, format, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    fftb::VulkanDevice::Image output =
        device_.createImage(kWidth, kHeight, format, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    std::vector<float> frame(kWidth * kHeight * 4);
    for (std::size_t i = 0; i < frame.size(); ++i)
        frame[i] = float((i * 37) % 101) / 10.0f;
    std::memcpy(upload.mapped, frame.data(), bytes);

    const VkCommandBuffer cb = device_.beginCommands();
    fftb::VulkanDevice::uploadForCompute(cb, upload.buffer, input.image, kWidth, kHeight);
    fftb::VulkanDevice::prepareComputeOutput(cb, output.image);
    FftbBloomInfo bi{FFTB_STRUCTURE_TYPE_BLOOM_INFO};
    bi.inputView = input.view;
    bi.outputView = output.view;
    bi.inputExtent = bi.outputExtent = {kWidth, kHeight};
    bi.outputMode = FFTB_OUTPUT_MODE_BLOOM;
    plan.cmdBloom(cb, bi);
    fftb::recordImageReadback(cb, output.image, kWidth, kHeight, download.buffer);
    device_.submitAndWait(cb);

    const auto* result = static_cast<const float*>(download.mapped);
    // A unit point at the kernel's centre is the identity; fp32 FFTs of this size stay within 1e-5 of the peak.
    for (std::size_t i = 0; i < frame.size(); ++i)
        ASSERT_NEAR(result[i], frame[i], 1e-5f * 10.0f) << "texel " << i / 4 << " channel " << i % 4;
    plan.reset();
    context.reset();
    device_.destroy(input);
    device_.destroy(output);
    device_.destroy(upload);
    device_.destroy(download);
}

} // namespace
