/* SPDX-License-Identifier: MIT */
/* Proves fftbloom.h and fftbloom_generator.h compile as C99 (and, through header_cpp_test.cpp, as C++): fills every
 * struct, names every enum, calls the query functions. */
#include <fftbloom/fftbloom_generator.h>

static void onMessage(FftbResult result, VkResult vkResult, const char* message, void* userData)
{
    (void)result;
    (void)vkResult;
    (void)message;
    (void)userData;
}

/* Returns 0 when the runtime agrees with the header; never creates a context (no Vulkan device here). */
static int useEveryType(void)
{
    FftbContext context = NULL;
    PFN_fftbMessageCallback callback = onMessage;
    const float texels[3] = {1.0f, 1.0f, 1.0f};
    FftbContextCreateInfo createInfo = {FFTB_STRUCTURE_TYPE_CONTEXT_CREATE_INFO};
    FftbKernelInfo kernelInfo = {FFTB_STRUCTURE_TYPE_KERNEL_INFO};
    FftbKernelGeneratorInfo generator = {FFTB_STRUCTURE_TYPE_KERNEL_GENERATOR_INFO};
    FftbBloomPlanCreateInfo planInfo = {FFTB_STRUCTURE_TYPE_BLOOM_PLAN_CREATE_INFO};
    FftbBloomInfo bloomInfo = {FFTB_STRUCTURE_TYPE_BLOOM_INFO};
    FftbMultiViewInfo views = {FFTB_STRUCTURE_TYPE_MULTI_VIEW_INFO};
    VkImageView imageViews[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
    FftbKernel kernel = NULL;
    FftbBloomPlan plan = NULL;
    FftbPlannerInfo planner = {FFTB_STRUCTURE_TYPE_PLANNER_INFO};
    FftbDeviceFeaturesInfo features = {FFTB_STRUCTURE_TYPE_DEVICE_FEATURES_INFO};
    FftbScratchInfo scratch = {FFTB_STRUCTURE_TYPE_SCRATCH_INFO};
    FftbResizeInfo resize = {FFTB_STRUCTURE_TYPE_RESIZE_INFO};
    FftbImageBarrierInfo images = {FFTB_STRUCTURE_TYPE_IMAGE_BARRIER_INFO};
    FftbTimestampInfo timestamps = {FFTB_STRUCTURE_TYPE_TIMESTAMP_INFO};
    FftbMemoryRequirements requirements = {FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS};
    FftbBloomPlanDescription node = {FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    FftbPassStatistic statistic = {FFTB_STRUCTURE_TYPE_PASS_STATISTIC};
    uint32_t statisticCount = 1, extentWidth = 0, extentHeight = 0;
    const FftbResult results[] = {FFTB_SUCCESS,
                                  FFTB_ERROR_INVALID_ARGUMENT,
                                  FFTB_ERROR_UNSUPPORTED,
                                  FFTB_ERROR_DEVICE_LIMIT,
                                  FFTB_ERROR_OUT_OF_HOST_MEMORY,
                                  FFTB_ERROR_OUT_OF_DEVICE_MEMORY,
                                  FFTB_ERROR_VULKAN,
                                  FFTB_INCOMPLETE};
    unsigned i;

    planner.pNext = &features;
    planner.lengthPolicy = FFTB_LENGTH_POLICY_POWER_OF_TWO;
    features.pNext = &scratch;
    features.synchronization2 = VK_TRUE;
    features.debugUtils = VK_FALSE;
    scratch.pNext = NULL;
    scratch.buffer = VK_NULL_HANDLE;
    scratch.offset = 0;
    scratch.size = 0;
    resize.pNext = NULL;
    resize.maxWidth = 3840;
    resize.maxHeight = 2160;
    resize.maxKernelResolutionWidth = 512;
    resize.maxKernelResolutionHeight = 512;
    images.pNext = &timestamps;
    images.inputImage = VK_NULL_HANDLE;
    images.inputLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    images.inputStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
    images.inputAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
    images.outputImage = VK_NULL_HANDLE;
    images.outputOldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    images.outputSrcStageMask = VK_PIPELINE_STAGE_2_NONE;
    images.outputSrcAccessMask = VK_ACCESS_2_NONE;
    images.outputNewLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    images.outputDstStageMask = VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT;
    images.outputDstAccessMask = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT;
    timestamps.pNext = NULL;
    timestamps.queryPool = VK_NULL_HANDLE;
    timestamps.firstQuery = 0;
    createInfo.pNext = &planner;
    createInfo.instance = VK_NULL_HANDLE;
    createInfo.physicalDevice = VK_NULL_HANDLE;
    createInfo.device = VK_NULL_HANDLE;
    createInfo.getInstanceProcAddr = NULL;
    createInfo.getDeviceProcAddr = NULL;
    createInfo.allocator = NULL;
    createInfo.maxWidth = 1920;
    createInfo.maxHeight = 1080;
    createInfo.maxKernelResolutionWidth = 256;
    createInfo.maxKernelResolutionHeight = 256;
    createInfo.maxViews = 2;
    createInfo.messageCallback = callback;
    createInfo.messageUserData = &context;

    generator.pNext = NULL;
    generator.airyRadiusTexels = 2.0f;
    kernelInfo.pNext = &generator;
    kernelInfo.width = 1;
    kernelInfo.height = 1;
    kernelInfo.texels = texels;
    kernelInfo.spectrumMode = FFTB_SPECTRUM_MODE_EXACT;
    kernelInfo.interpolation = FFTB_SPECTRUM_INTERPOLATION_LINEAR;

    planInfo.pNext = NULL;
    planInfo.kernel = kernel;
    planInfo.width = 1920;
    planInfo.height = 1080;
    planInfo.viewCount = 2;
    planInfo.inputLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    planInfo.padding = FFTB_PADDING_MIRROR;
    planInfo.axisOrder = FFTB_AXIS_ORDER_Y_FIRST;
    planInfo.storagePrecision = FFTB_STORAGE_PRECISION_FLOAT16;
    planInfo.resolution = FFTB_BLOOM_RESOLUTION_HALF;
    planInfo.kernelSpanUnit = FFTB_KERNEL_SPAN_PIXELS;
    planInfo.kernelSpan = 256.0f;

    views.pNext = &images;
    views.viewCount = 2;
    views.pInputViews = imageViews;
    views.pOutputViews = imageViews;
    bloomInfo.pNext = &views;
    bloomInfo.inputView = VK_NULL_HANDLE;
    bloomInfo.outputView = VK_NULL_HANDLE;
    bloomInfo.outputMode = FFTB_OUTPUT_MODE_COMPOSITE;
    bloomInfo.intensity = 0.5f;
    bloomInfo.sharpen = 0.0f;

    if (fftbGetVersion() != FFTB_VERSION)
        return 1;
    for (i = 0; i < sizeof(results) / sizeof(results[0]); ++i)
    {
        const char* name = fftbResultToString(results[i]);
        if (name == NULL || name[0] != 'F')
            return 2;
    }
    /* A null create info fails before anything is touched, so the entry points link and run without a device. */
    if (fftbCreateContext(NULL, &context) != FFTB_ERROR_INVALID_ARGUMENT || context != NULL)
        return 3;
    if (fftbCreateKernel(context, &kernelInfo, &kernel) != FFTB_ERROR_INVALID_ARGUMENT ||
        fftbCreateBloomPlan(context, &planInfo, &plan) != FFTB_ERROR_INVALID_ARGUMENT ||
        fftbCmdBloom(plan, VK_NULL_HANDLE, &bloomInfo) != FFTB_ERROR_INVALID_ARGUMENT ||
        fftbCmdPrepareKernel(plan, VK_NULL_HANDLE) != FFTB_ERROR_INVALID_ARGUMENT ||
        fftbResizeContext(context, &resize) != FFTB_ERROR_INVALID_ARGUMENT ||
        fftbDescribeBloomPlan(plan, &node) != FFTB_ERROR_INVALID_ARGUMENT ||
        fftbGetPassStatistics(plan, &statisticCount, &statistic) != FFTB_ERROR_INVALID_ARGUMENT)
        return 3;
    /* The kernel's extent on the frame needs no context: 256 pixels along the larger axis of a 64 x 32 kernel. */
    if (fftbGetKernelExtent(&planInfo, 64, 32, &extentWidth, &extentHeight) != FFTB_SUCCESS || extentWidth != 256 ||
        extentHeight != 128)
        return 6;
    /* The memory query needs no device: the create info's extents are enough. */
    if (fftbGetMemoryRequirements(&createInfo, &requirements) != FFTB_SUCCESS || requirements.scratchBytes == 0 ||
        requirements.exactSpectrumBytes == 0)
        return 5;
    /* Destroying NULL does nothing. */
    fftbDestroyBloomPlan(plan);
    fftbDestroyKernel(kernel);
    fftbDestroyContext(context);
    if (createInfo.maxWidth != 1920 || kernelInfo.width != 1 || planInfo.width != 1920 || bloomInfo.intensity != 0.5f)
        return 4;
    return 0;
}

int main(void)
{
    return useEveryType();
}
