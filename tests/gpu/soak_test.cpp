// SPDX-License-Identifier: MIT
// Soak: 2,304 blooms on one context with the extent, padding, axis order, sharpening and output mode changing every
// frame (each frame's plan made before its command buffer is recorded and destroyed once it ran), the kernel (its
// extent, spectrum mode and interpolation) replaced every 128 frames and the context resized every 512, validation
// (synchronization included) on. The schedule repeats every 1,024 frames; the plugin's live device allocations and
// host allocations, counted through the entry points and allocation callbacks it is given, must be the same at the end
// of the second period as at the end of the first. Every 256th frame is read back and checked against the
// double-precision reference.
#include "fftbloom/fftbloom.h"
#include "gpu_test_support.h"
#include "node/context_info.h"
#include "psf/psf.h"
#include "reference.h"
#include "vulkan/vulkan_device.h"

#include <gtest/gtest.h>

#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

namespace fftb
{
namespace
{

/// Live counts of what the plugin holds: device memory (through the getDeviceProcAddr it is given) and host blocks
/// (through its VkAllocationCallbacks, which the driver and layer also use for the plugin's objects).
struct Live
{
    static inline std::atomic<int64_t> deviceAllocations{0};
    static inline std::atomic<int64_t> hostBlocks{0};
    static inline PFN_vkAllocateMemory allocateMemory = nullptr;
    static inline PFN_vkFreeMemory freeMemory = nullptr;

    static VKAPI_ATTR VkResult VKAPI_CALL allocate(VkDevice d, const VkMemoryAllocateInfo* info,
                                                   const VkAllocationCallbacks* a, VkDeviceMemory* memory)
    {
        const VkResult r = allocateMemory(d, info, a, memory);
        if (r == VK_SUCCESS)
            ++deviceAllocations;
        return r;
    }
    static VKAPI_ATTR void VKAPI_CALL release(VkDevice d, VkDeviceMemory memory, const VkAllocationCallbacks* a)
    {
        if (memory)
            --deviceAllocations;
        freeMemory(d, memory, a);
    }
    static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL getDeviceProcAddr(VkDevice d, const char* name)
    {
        if (std::strcmp(name, "vkAllocateMemory") == 0)
        {
            allocateMemory = reinterpret_cast<PFN_vkAllocateMemory>(vkGetDeviceProcAddr(d, name));
            return reinterpret_cast<PFN_vkVoidFunction>(&allocate);
        }
        if (std::strcmp(name, "vkFreeMemory") == 0)
        {
            freeMemory = reinterpret_cast<PFN_vkFreeMemory>(vkGetDeviceProcAddr(d, name));
            return reinterpret_cast<PFN_vkVoidFunction>(&release);
        }
        return vkGetDeviceProcAddr(d, name);
    }

    static size_t rounded(size_t size, size_t alignment) { return (size + alignment - 1) / alignment * alignment; }
    static void* VKAPI_CALL hostAllocate(void*, size_t size, size_t alignment, VkSystemAllocationScope)
    {
        void* p = std::aligned_alloc(alignment, rounded(size, alignment));
        if (p)
            ++hostBlocks;
        return p;
    }
    static void* VKAPI_CALL hostReallocate(void* user, void* original, size_t size, size_t alignment,
                                           VkSystemAllocationScope scope)
    {
        if (!original)
            return hostAllocate(user, size, alignment, scope);
        void* p = std::aligned_alloc(alignment, rounded(size, alignment));
        if (p)
        {
            std::memcpy(p, original, std::min(size, malloc_usable_size(original)));
            std::free(original);
        }
        return p;
    }
    static void VKAPI_CALL hostFree(void*, void* memory)
    {
        if (memory)
            --hostBlocks;
        std::free(memory);
    }
};

/// One frame's settings, varied by the frame number.
struct Settings
{
    uint32_t width, height;
    FftbPadding padding;
    FftbAxisOrder axisOrder;
    FftbOutputMode outputMode;
    float sharpen;
};

Settings settingsOf(int frame, uint32_t maxWidth, uint32_t maxHeight)
{
    Settings s;
    s.width = maxWidth - uint32_t(frame * 7) % (maxWidth / 2);
    s.height = maxHeight - uint32_t(frame * 5) % (maxHeight / 2);
    s.padding = frame % 2 ? FFTB_PADDING_MIRROR : FFTB_PADDING_ZERO;
    s.axisOrder = FftbAxisOrder(frame % 3);
    s.outputMode = frame % 5 == 0 ? FFTB_OUTPUT_MODE_COMPOSITE : FFTB_OUTPUT_MODE_BLOOM;
    s.sharpen = frame % 7 == 0 ? 0.25f : 0.0f;
    return s;
}

TEST(Soak, ThousandsOfFramesOfChangingSettingsHoldMemoryAndMatchTheReference)
{
    constexpr int kPerCommandBuffer = 16;
    constexpr int kKernelEvery = 128;
    constexpr int kKernelGenerations = 4;
    constexpr int kResizeEvery = 512;
    constexpr int kPeriod = 2 * kResizeEvery; // both context sizes, kernelGenerations kernels each
    constexpr int kCheckEvery = 256;
    constexpr int kFrames = 2 * kPeriod + kCheckEvery; // past the second period's end
    constexpr uint32_t kLarge[2] = {48, 40}, kSmall[2] = {40, 32};

    VulkanDeviceOptions options;
    options.validation = true;
    VulkanDevice device(options);
    VkAllocationCallbacks callbacks{};
    callbacks.pfnAllocation = Live::hostAllocate;
    callbacks.pfnReallocation = Live::hostReallocate;
    callbacks.pfnFree = Live::hostFree;
    std::string message;
    FftbContextCreateInfo ci =
        contextCreateInfo(device.instance(), device.logical(), kLarge[0], kLarge[1], 7, 7, &message);
    ci.getDeviceProcAddr = &Live::getDeviceProcAddr;
    ci.allocator = &callbacks;
    FftbContext context = nullptr;
    ASSERT_EQ(fftbCreateContext(&ci, &context), FFTB_SUCCESS) << message;

    // The input and output images at the largest extent; each frame uses its top-left corner.
    const Texels input = test::randomFrame(int(kLarge[0]), int(kLarge[1]), 11);
    const VkDeviceSize bytes = VkDeviceSize(kLarge[0]) * kLarge[1] * 16;
    VulkanDevice::Buffer upload = device.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
    VulkanDevice::Buffer download = device.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
    VulkanDevice::Image in = device.createImage(kLarge[0], kLarge[1], VK_FORMAT_R32G32B32A32_SFLOAT,
                                                VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    VulkanDevice::Image out = device.createImage(kLarge[0], kLarge[1], VK_FORMAT_R32G32B32A32_SFLOAT,
                                                 VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    std::memcpy(upload.mapped, input.values.data(), bytes);
    VkCommandBuffer cb = device.beginCommands();
    VulkanDevice::uploadForCompute(cb, upload.buffer, in.image, kLarge[0], kLarge[1]);
    VulkanDevice::prepareComputeOutput(cb, out.image);
    device.submitAndWait(cb);

    FftbKernel kernel = nullptr;
    Texels kernelTexels;
    FftbSpectrumMode mode = FFTB_SPECTRUM_MODE_EXACT;
    FftbSpectrumInterpolation interpolation = FFTB_SPECTRUM_INTERPOLATION_CUBIC;
    uint32_t maxExtent[2] = {kLarge[0], kLarge[1]};
    int64_t device1 = -1, host1 = -1, device2 = -2, host2 = -2;
    int checks = 0;
    static_assert(kPeriod % kPerCommandBuffer == 0 && kResizeEvery % kPerCommandBuffer == 0);
    static_assert(kKernelEvery * kKernelGenerations == kResizeEvery);
    for (int frame = 0; frame < kFrames; frame += kPerCommandBuffer)
    {
        // The end of the first and second periods: the same state, so the same allocations.
        if (frame == kPeriod)
        {
            device1 = Live::deviceAllocations;
            host1 = Live::hostBlocks;
        }
        if (frame == 2 * kPeriod)
        {
            device2 = Live::deviceAllocations;
            host2 = Live::hostBlocks;
        }
        // Nothing is pending here: a resize and a new kernel are allowed.
        if (frame % kResizeEvery == 0 && frame > 0)
        {
            fftbDestroyKernel(kernel); // an exact-mode kernel is sized for the context's frames
            kernel = nullptr;
            const bool large = maxExtent[0] != kLarge[0];
            maxExtent[0] = large ? kLarge[0] : kSmall[0];
            maxExtent[1] = large ? kLarge[1] : kSmall[1];
            FftbResizeInfo resize{FFTB_STRUCTURE_TYPE_RESIZE_INFO};
            resize.maxWidth = maxExtent[0];
            resize.maxHeight = maxExtent[1];
            resize.maxKernelResolutionWidth = resize.maxKernelResolutionHeight = 7;
            ASSERT_EQ(fftbResizeContext(context, &resize), FFTB_SUCCESS) << message;
        }
        if (frame % kKernelEvery < kPerCommandBuffer || !kernel)
        {
            fftbDestroyKernel(kernel);
            const int generation = frame / kKernelEvery % kKernelGenerations;
            kernelTexels = test::randomKernel(3 + generation % 5, 7 - generation % 3, uint32_t(generation));
            mode = generation % 2 ? FFTB_SPECTRUM_MODE_RESAMPLED : FFTB_SPECTRUM_MODE_EXACT;
            interpolation =
                generation % 4 == 1 ? FFTB_SPECTRUM_INTERPOLATION_LINEAR : FFTB_SPECTRUM_INTERPOLATION_CUBIC;
            FftbKernelInfo ki{FFTB_STRUCTURE_TYPE_KERNEL_INFO};
            ki.width = uint32_t(kernelTexels.width);
            ki.height = uint32_t(kernelTexels.height);
            ki.texels = kernelTexels.values.data();
            ki.spectrumMode = mode;
            ki.interpolation = interpolation;
            ASSERT_EQ(fftbCreateKernel(context, &ki, &kernel), FFTB_SUCCESS) << message;
        }

        FftbBloomPlan plans[kPerCommandBuffer] = {};
        for (int f = frame; f < frame + kPerCommandBuffer; ++f)
        {
            const Settings settings = settingsOf(f, maxExtent[0], maxExtent[1]);
            FftbBloomPlanCreateInfo pi{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_CREATE_INFO};
            pi.kernel = kernel;
            pi.width = settings.width;
            pi.height = settings.height;
            pi.inputLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
            pi.padding = settings.padding;
            pi.axisOrder = settings.axisOrder;
            ASSERT_EQ(fftbCreateBloomPlan(context, &pi, &plans[f - frame]), FFTB_SUCCESS)
                << "frame " << f << ": " << message;
        }
        cb = device.beginCommands();
        Settings last{};
        for (int f = frame; f < frame + kPerCommandBuffer; ++f)
        {
            last = settingsOf(f, maxExtent[0], maxExtent[1]);
            FftbBloomInfo bi{FFTB_STRUCTURE_TYPE_BLOOM_INFO};
            bi.inputView = in.view;
            bi.outputView = out.view;
            bi.inputExtent = bi.outputExtent = {in.width, in.height};
            bi.outputMode = last.outputMode;
            bi.intensity = 0.5f;
            bi.sharpen = last.sharpen;
            ASSERT_EQ(fftbCmdBloom(plans[f - frame], cb, &bi), FFTB_SUCCESS) << "frame " << f << ": " << message;
        }
        const bool check = (frame + kPerCommandBuffer) % kCheckEvery < kPerCommandBuffer;
        if (check)
        {
            // The last bloom of this command buffer, read back through a copy of the whole output image.
            recordImageReadback(cb, out.image, kLarge[0], kLarge[1], download.buffer);
        }
        device.submitAndWait(cb);
        for (FftbBloomPlan plan : plans)
            fftbDestroyBloomPlan(plan);

        if (check)
        {
            ++checks;
            const auto* texels = static_cast<const float*>(download.mapped);
            Texels frameIn(int(last.width), int(last.height), 4), gpu(int(last.width), int(last.height), 4);
            for (uint32_t y = 0; y < last.height; ++y)
                for (uint32_t x = 0; x < last.width; ++x)
                    for (int c = 0; c < 4; ++c)
                    {
                        const size_t from = (size_t(y) * kLarge[0] + x) * 4 + size_t(c);
                        const size_t to = (size_t(y) * last.width + x) * 4 + size_t(c);
                        frameIn.values[to] = input.values[from];
                        gpu.values[to] = texels[from];
                    }
            Texels k = kernelTexels;
            normalizePsf(k);
            PlanRequest request{last.width,     last.height, uint32_t(k.width), uint32_t(k.height), last.padding,
                                last.axisOrder, mode};
            Plan plan;
            ASSERT_TRUE(makePlan(request, &plan, nullptr));
            Texels bloom = referenceSpectralConvolution(frameIn, k, plan, last.sharpen, interpolation);
            if (last.outputMode == FFTB_OUTPUT_MODE_COMPOSITE)
                for (size_t i = 0; i < bloom.values.size(); ++i)
                {
                    const double x = frameIn.values[i / 3 * 4 + i % 3];
                    bloom.values[i] = float(x + 0.5 * (double(bloom.values[i]) - x));
                }
            EXPECT_LE(test::relativeError(gpu, bloom), test::Tolerance::kFp32)
                << "frame " << frame + kPerCommandBuffer - 1;
        }
    }
    EXPECT_EQ(checks, kFrames / kCheckEvery);
    EXPECT_GT(device1, 0);
    EXPECT_EQ(device2, device1) << "device allocations grew over a period";
    EXPECT_EQ(host2, host1) << "host allocations grew over a period";
    fftbDestroyKernel(kernel);
    fftbDestroyContext(context);
    EXPECT_EQ(Live::deviceAllocations.load(), 0) << "device memory left behind";
    EXPECT_EQ(Live::hostBlocks.load(), 0) << "host blocks left behind";
    device.destroy(upload);
    device.destroy(download);
    device.destroy(in);
    device.destroy(out);
    EXPECT_EQ(device.validationMessageCount(), 0u) << device.firstValidationMessage();
}

} // namespace
} // namespace fftb
