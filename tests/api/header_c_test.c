/* Proves fftbloom.h compiles alone as C11 (and, through header_cpp_test.cpp, as C++): fills every struct, names every
 * enum, calls the query functions. */
#include <fftbloom/fftbloom.h>

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
    void (*volatile destroy)(FftbContext) = fftbDestroyContext;
    const float texels[3] = {1.0f, 1.0f, 1.0f};
    FftbContextCreateInfo createInfo = {FFTB_STRUCTURE_TYPE_CONTEXT_CREATE_INFO};
    FftbKernelInfo kernelInfo = {FFTB_STRUCTURE_TYPE_KERNEL_INFO};
    FftbBloomInfo bloomInfo = {FFTB_STRUCTURE_TYPE_BLOOM_INFO};
    const FftbResult results[] = {FFTB_SUCCESS,
                                  FFTB_ERROR_INVALID_ARGUMENT,
                                  FFTB_ERROR_UNSUPPORTED,
                                  FFTB_ERROR_DEVICE_LIMIT,
                                  FFTB_ERROR_OUT_OF_HOST_MEMORY,
                                  FFTB_ERROR_OUT_OF_DEVICE_MEMORY,
                                  FFTB_ERROR_VULKAN,
                                  FFTB_ERROR_NO_KERNEL};
    unsigned i;

    createInfo.pNext = NULL;
    createInfo.instance = VK_NULL_HANDLE;
    createInfo.physicalDevice = VK_NULL_HANDLE;
    createInfo.device = VK_NULL_HANDLE;
    createInfo.getInstanceProcAddr = NULL;
    createInfo.getDeviceProcAddr = NULL;
    createInfo.allocator = NULL;
    createInfo.maxWidth = 1920;
    createInfo.maxHeight = 1080;
    createInfo.maxKernelWidth = 256;
    createInfo.maxKernelHeight = 256;
    createInfo.maxFramesInFlight = 3;
    createInfo.messageCallback = callback;
    createInfo.messageUserData = &context;

    kernelInfo.pNext = NULL;
    kernelInfo.width = 1;
    kernelInfo.height = 1;
    kernelInfo.texels = texels;
    kernelInfo.spectrumMode = FFTB_SPECTRUM_MODE_EXACT;
    kernelInfo.interpolation = FFTB_SPECTRUM_INTERPOLATION_LINEAR;

    bloomInfo.pNext = NULL;
    bloomInfo.inputView = VK_NULL_HANDLE;
    bloomInfo.inputLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    bloomInfo.outputView = VK_NULL_HANDLE;
    bloomInfo.width = 1920;
    bloomInfo.height = 1080;
    bloomInfo.padding = FFTB_PADDING_MIRROR;
    bloomInfo.axisOrder = FFTB_AXIS_ORDER_Y_FIRST;
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
    if (fftbSetKernel(context, &kernelInfo) != FFTB_ERROR_INVALID_ARGUMENT ||
        fftbCmdBloom(context, VK_NULL_HANDLE, &bloomInfo) != FFTB_ERROR_INVALID_ARGUMENT)
        return 3;
    /* Referenced, not called: the header does not promise that destroying NULL is a no-op. */
    if (destroy == NULL)
        return 3;
    if (createInfo.maxWidth != 1920 || kernelInfo.width != 1 || bloomInfo.width != 1920)
        return 4;
    return 0;
}

int main(void)
{
    return useEveryType();
}
