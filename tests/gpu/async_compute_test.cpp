// SPDX-License-Identifier: MIT
// The bloom on an async compute queue, as an engine runs it: the frame uploaded on the main queue, bloomed on a queue
// of a compute-only family with the images' ownership transferred there and back (FftbImageBarrierInfo's
// ownerQueueFamilyIndex and bloomQueueFamilyIndex), read back on the main queue; three submissions ordered by
// semaphores; validation with synchronization validation on, the result against the double-precision reference.
// On a device with one queue family (lavapipe) the same three submissions run on its one queue without transfers; the
// test's properties say which ran.
#include "copy_barriers.h"
#include "fftbloom/fftbloom.h"
#include "gpu_test_support.h"
#include "node/context_info.h"
#include "psf/psf.h"
#include "reference.h"
#include "vulkan/vulkan_device.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>

namespace fftb
{
namespace
{

constexpr VkFormat kFormat = VK_FORMAT_R32G32B32A32_SFLOAT;

class AsyncComputeTest : public ::testing::TestWithParam<bool>
{
  protected:
    void SetUp() override
    {
        VulkanDeviceOptions options;
        options.validation = true;
        options.synchronization2 = GetParam();
        options.asyncCompute = true;
        device_ = std::make_unique<VulkanDevice>(options);
        const VkDevice d = device_->device();
        for (const uint32_t family : {device_->logical().queueFamily, device_->logical().asyncQueueFamily})
        {
            VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
            pci.queueFamilyIndex = family;
            ASSERT_EQ(vkCreateCommandPool(d, &pci, nullptr, &pools_.emplace_back()), VK_SUCCESS);
        }
        for (VkSemaphore& s : semaphores_)
        {
            VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
            ASSERT_EQ(vkCreateSemaphore(d, &sci, nullptr, &s), VK_SUCCESS);
        }
        VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        ASSERT_EQ(vkCreateFence(d, &fci, nullptr, &fence_), VK_SUCCESS);
    }

    void TearDown() override
    {
        const VkDevice d = device_->device();
        vkDeviceWaitIdle(d);
        fftbDestroyBloomPlan(plan_);
        fftbDestroyKernel(kernel_);
        fftbDestroyContext(context_);
        for (VulkanDevice::Buffer* b : {&upload_, &download_})
            device_->destroy(*b);
        for (VulkanDevice::Image* i : {&input_, &output_})
            device_->destroy(*i);
        for (VkSemaphore s : semaphores_)
            vkDestroySemaphore(d, s, nullptr);
        vkDestroyFence(d, fence_, nullptr);
        for (VkCommandPool p : pools_)
            vkDestroyCommandPool(d, p, nullptr);
        const uint64_t messages = device_->validationMessageCount();
        const std::string first = device_->firstValidationMessage();
        device_.reset();
        EXPECT_EQ(messages, 0u) << "first validation message: " << first;
    }

    /// A primary command buffer of pool `pool` (0: the main queue's family, 1: the bloom's), recording.
    VkCommandBuffer begin(size_t pool)
    {
        VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        ai.commandPool = pools_[pool];
        ai.commandBufferCount = 1;
        VkCommandBuffer cb = VK_NULL_HANDLE;
        EXPECT_EQ(vkAllocateCommandBuffers(device_->device(), &ai, &cb), VK_SUCCESS);
        VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        EXPECT_EQ(vkBeginCommandBuffer(cb, &bi), VK_SUCCESS);
        return cb;
    }

    /// Ends and submits `cb` to `queue`, after `wait` (if any), signalling `signal` (if any) and `fence` (if any).
    void submit(VkQueue queue, VkCommandBuffer cb, VkSemaphore wait, VkSemaphore signal, VkFence fence = VK_NULL_HANDLE)
    {
        ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
        const VkPipelineStageFlags waitStage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
        VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.waitSemaphoreCount = wait ? 1 : 0;
        si.pWaitSemaphores = &wait;
        si.pWaitDstStageMask = &waitStage;
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cb;
        si.signalSemaphoreCount = signal ? 1 : 0;
        si.pSignalSemaphores = &signal;
        ASSERT_EQ(vkQueueSubmit(queue, 1, &si, fence), VK_SUCCESS);
    }

    std::unique_ptr<VulkanDevice> device_;
    std::vector<VkCommandPool> pools_;
    VkSemaphore semaphores_[2] = {};
    VkFence fence_ = VK_NULL_HANDLE;
    FftbContext context_ = nullptr;
    FftbKernel kernel_ = nullptr;
    FftbBloomPlan plan_ = nullptr;
    VulkanDevice::Buffer upload_, download_;
    VulkanDevice::Image input_, output_;
};

TEST_P(AsyncComputeTest, TheBloomRunsOnAComputeQueueWithTheImagesOwnershipTransferredThereAndBack)
{
    const LogicalDevice& l = device_->logical();
    const bool transfer = l.asyncQueue != VK_NULL_HANDLE;
    const uint32_t owner = l.queueFamily, bloomFamily = l.asyncQueueFamily;
    const VkQueue bloomQueue = transfer ? l.asyncQueue : l.queue;
    RecordProperty("queues", transfer ? "the bloom on a compute-only queue family, ownership transferred"
                                      : "one queue family: the three submissions on its one queue, no transfer");
    std::printf("[          ] %s: main queue family %u, bloom queue family %u (%s)\n", l.properties.deviceName, owner,
                bloomFamily, transfer ? "ownership transfers" : "one family: no transfer");

    std::string message;
    const FftbContextCreateInfo ci =
        contextCreateInfo(device_->instance(), device_->logical(), 70, 50, 16, 16, &message);
    ASSERT_EQ(fftbCreateContext(&ci, &context_), FFTB_SUCCESS) << message;
    const Texels kernelTexels = test::randomKernel(16, 9, 11);
    FftbKernelInfo ki{FFTB_STRUCTURE_TYPE_KERNEL_INFO};
    ki.width = uint32_t(kernelTexels.width);
    ki.height = uint32_t(kernelTexels.height);
    ki.texels = kernelTexels.values.data();
    ASSERT_EQ(fftbCreateKernel(context_, &ki, &kernel_), FFTB_SUCCESS) << message;
    const uint32_t w = 70, h = 50;
    FftbBloomPlanCreateInfo pi{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_CREATE_INFO};
    pi.kernel = kernel_;
    pi.width = w;
    pi.height = h;
    pi.inputLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    pi.padding = FFTB_PADDING_ZERO;
    ASSERT_EQ(fftbCreateBloomPlan(context_, &pi, &plan_), FFTB_SUCCESS) << message;

    const Texels frame = test::randomFrame(int(w), int(h), 12);
    const VkDeviceSize bytes = VkDeviceSize(w) * h * 4 * sizeof(float);
    upload_ = device_->createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
    download_ = device_->createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
    input_ = device_->createImage(w, h, kFormat, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    output_ = device_->createImage(w, h, kFormat, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    std::memcpy(upload_.mapped, frame.values.data(), bytes);
    const VkBufferImageCopy region{0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {w, h, 1}};

    // Main queue: the upload, then the input's release to the bloom's family.
    VkCommandBuffer upload = begin(0);
    recordImageTransition(upload, input_.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                          VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                          VK_PIPELINE_STAGE_TRANSFER_BIT);
    vkCmdCopyBufferToImage(upload, upload_.buffer, input_.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    if (transfer)
        recordQueueFamilyTransfer(upload, input_.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                  VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_ACCESS_TRANSFER_WRITE_BIT, 0,
                                  VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, owner,
                                  bloomFamily);
    submit(l.queue, upload, VK_NULL_HANDLE, semaphores_[0]);

    // Bloom queue: the plugin acquires the input, blooms, and releases both images back.
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    FftbImageBarrierInfo images = betweenCopies(input_.image, output_.image, range);
    images.ownerQueueFamilyIndex = owner;
    images.bloomQueueFamilyIndex = bloomFamily;
    FftbBloomInfo bi{FFTB_STRUCTURE_TYPE_BLOOM_INFO};
    bi.pNext = &images;
    bi.inputView = input_.view;
    bi.outputView = output_.view;
    bi.inputExtent = bi.outputExtent = {input_.width, input_.height};
    bi.outputMode = FFTB_OUTPUT_MODE_BLOOM;
    VkCommandBuffer bloom = begin(1);
    ASSERT_EQ(fftbCmdBloom(plan_, bloom, &bi), FFTB_SUCCESS) << message;
    submit(bloomQueue, bloom, semaphores_[0], semaphores_[1]);

    // Main queue: the acquires, then the readback.
    VkCommandBuffer readback = begin(0);
    if (transfer)
    {
        recordQueueFamilyTransfer(readback, input_.image, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, 0, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                                  VK_PIPELINE_STAGE_TRANSFER_BIT, bloomFamily, owner);
        recordQueueFamilyTransfer(readback, output_.image, VK_IMAGE_LAYOUT_GENERAL,
                                  VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, 0, VK_ACCESS_TRANSFER_READ_BIT,
                                  VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, bloomFamily,
                                  owner);
    }
    vkCmdCopyImageToBuffer(readback, output_.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, download_.buffer, 1, &region);
    recordHostReadBarrier(readback);
    submit(l.queue, readback, semaphores_[1], VK_NULL_HANDLE, fence_);
    ASSERT_EQ(vkWaitForFences(device_->device(), 1, &fence_, VK_TRUE, UINT64_MAX), VK_SUCCESS);

    Texels gpu(int(w), int(h), 4);
    std::memcpy(gpu.values.data(), download_.mapped, bytes);
    Texels kernel = kernelTexels;
    normalizePsf(kernel);
    PlanRequest request{w, h, uint32_t(kernel.width), uint32_t(kernel.height), FFTB_PADDING_ZERO};
    request.spectrum = FFTB_SPECTRUM_MODE_RESAMPLED;
    Plan plan;
    ASSERT_TRUE(makePlan(request, &plan, nullptr));
    const Texels reference = referenceSpectralConvolution(frame, kernel, plan, 0.0, FFTB_SPECTRUM_INTERPOLATION_ES);
    EXPECT_LE(test::relativeError(gpu, reference), test::Tolerance::kFp32);
}

INSTANTIATE_TEST_SUITE_P(Synchronization, AsyncComputeTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& param)
                         { return param.param ? std::string("synchronization2") : std::string("vulkan10_barriers"); });

} // namespace
} // namespace fftb
