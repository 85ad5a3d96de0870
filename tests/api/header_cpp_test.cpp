// Proves fftbloom.h compiles alone as C++: it is the only include, every struct is filled and every query called.
#include <fftbloom/fftbloom.h>

namespace
{

void onMessage(FftbResult, VkResult, const char*, void*) {}

// Returns 0 when the runtime agrees with the header; never creates a context (no Vulkan device here).
int useEveryType()
{
    FftbContext context = nullptr;
    const float texels[3] = {1.0f, 1.0f, 1.0f};
    FftbContextCreateInfo createInfo{};
    createInfo.sType = FFTB_STRUCTURE_TYPE_CONTEXT_CREATE_INFO;
    createInfo.maxWidth = 1920;
    createInfo.maxHeight = 1080;
    createInfo.maxKernelWidth = 256;
    createInfo.maxKernelHeight = 256;
    createInfo.messageCallback = onMessage;
    createInfo.messageUserData = &context;
    const FftbKernelInfo kernelInfo{FFTB_STRUCTURE_TYPE_KERNEL_INFO, nullptr, 1, 1, texels,
                                    FFTB_SPECTRUM_MODE_RESAMPLED};
    FftbBloomInfo bloomInfo{};
    bloomInfo.sType = FFTB_STRUCTURE_TYPE_BLOOM_INFO;
    bloomInfo.inputLayout = VK_IMAGE_LAYOUT_GENERAL;
    bloomInfo.width = 1920;
    bloomInfo.height = 1080;
    bloomInfo.padding = FFTB_PADDING_ZERO;
    bloomInfo.axisOrder = FFTB_AXIS_ORDER_AUTO;
    bloomInfo.outputMode = FFTB_OUTPUT_MODE_BLOOM;
    bloomInfo.intensity = 1.0f;
    bloomInfo.sharpen = 0.25f;
    PFN_fftbMessageCallback callback = createInfo.messageCallback;
    void (*volatile destroy)(FftbContext) = fftbDestroyContext;

    if (fftbGetVersion() != FFTB_VERSION)
        return 1;
    const FftbResult results[] = {FFTB_SUCCESS,
                                  FFTB_ERROR_INVALID_ARGUMENT,
                                  FFTB_ERROR_UNSUPPORTED,
                                  FFTB_ERROR_DEVICE_LIMIT,
                                  FFTB_ERROR_OUT_OF_HOST_MEMORY,
                                  FFTB_ERROR_OUT_OF_DEVICE_MEMORY,
                                  FFTB_ERROR_VULKAN,
                                  FFTB_ERROR_NO_KERNEL};
    for (FftbResult r : results)
        if (const char* name = fftbResultToString(r); name == nullptr || name[0] != 'F')
            return 2;
    // Null arguments fail before anything is touched, so the entry points link and run without a device.
    if (fftbCreateContext(nullptr, &context) != FFTB_ERROR_INVALID_ARGUMENT || context != nullptr ||
        fftbSetKernel(context, &kernelInfo) != FFTB_ERROR_INVALID_ARGUMENT ||
        fftbCmdBloom(context, VK_NULL_HANDLE, &bloomInfo) != FFTB_ERROR_INVALID_ARGUMENT)
        return 3;
    // Referenced, not called: the header does not promise that destroying NULL is a no-op.
    if (destroy == nullptr || callback == nullptr)
        return 4;
    return 0;
}

} // namespace

int main()
{
    return useEveryType();
}
