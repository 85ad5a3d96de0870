// SPDX-License-Identifier: MIT
// The C++ RAII wrapper (fftbloom.hpp) on lavapipe with the validation layer: ownership, errors, and a bloom
// recorded through it.
#include <fftbloom/fftbloom.hpp>

#include "runner/context_info.h"
#include "vulkan/vulkan_device.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
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
    FftbBloomInfo bi{FFTB_STRUCTURE_TYPE_BLOOM_INFO};
    bi.kernel = kernel.get();
    bi.inputLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    bi.width = kWidth;
    bi.height = kHeight;
    bi.outputMode = FFTB_OUTPUT_MODE_BLOOM;
    // The node's declaration, before anything is recorded: the spectrum passes, then the border weights' (the
    // default FFTB_PADDING_ZERO_NORMALIZED), come first.
    const FftbNodeDescription node = context.describeNode(bi);
    EXPECT_EQ(node.passCount, 8u);
    EXPECT_GE(node.scratchBytes, 1u);

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
    bi.inputView = input.view;
    bi.outputView = output.view;
    context.cmdBloom(cb, bi);
    fftb::recordImageReadback(cb, output.image, kWidth, kHeight, download.buffer);
    device_.submitAndWait(cb);

    const auto* result = static_cast<const float*>(download.mapped);
    // A unit point at the kernel's centre is the identity; fp32 FFTs of this size stay within 1e-5 of the peak.
    for (std::size_t i = 0; i < frame.size(); ++i)
        ASSERT_NEAR(result[i], frame[i], 1e-5f * 10.0f) << "texel " << i / 4 << " channel " << i % 4;
    context.reset();
    device_.destroy(input);
    device_.destroy(output);
    device_.destroy(upload);
    device_.destroy(download);
}

} // namespace
