// SPDX-License-Identifier: MIT
// Creates a Vulkan device on the first physical device (lavapipe in the tests) with the Khronos validation layer, an
// fftbloom context and a kernel on it, and destroys them. Exits non-zero on any failure or validation message.
#include "vulkan/loaded_libraries.h"

#include <fftbloom/fftbloom.h>

#include <cstdio>
#include <vector>

namespace
{

unsigned validationMessages = 0;

VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data, void*)
{
    ++validationMessages;
    std::fprintf(stderr, "engine_context: validation: %s\n", data->pMessage);
    return VK_FALSE;
}

int fail(const char* what, long code)
{
    std::fprintf(stderr, "engine_context: %s failed (%ld)\n", what, code);
    return 1;
}

} // namespace

int main()
{
    const char* layer = "VK_LAYER_KHRONOS_validation";
    const char* extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_1;
    VkDebugUtilsMessengerCreateInfoEXT messengerInfo{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messengerInfo.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messengerInfo.pfnUserCallback = onMessage;
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pNext = &messengerInfo;
    ici.pApplicationInfo = &app;
    ici.enabledLayerCount = 1;
    ici.ppEnabledLayerNames = &layer;
    ici.enabledExtensionCount = 1;
    ici.ppEnabledExtensionNames = &extension;
    VkInstance instance = VK_NULL_HANDLE;
    if (VkResult r = vkCreateInstance(&ici, nullptr, &instance); r != VK_SUCCESS)
        return fail("vkCreateInstance with the validation layer", r);
    // The layer and the drivers stay mapped after vkDestroyInstance unloads them: under LeakSanitizer, blocks their
    // globals hold (lavapipe keeps one) stay reachable, and a leak inside them is named (tests/lsan.supp).
    fftb::keepLoadedLibrariesUntilExit();

    uint32_t count = 1;
    VkPhysicalDevice gpu = VK_NULL_HANDLE;
    if (VkResult r = vkEnumeratePhysicalDevices(instance, &count, &gpu); (r != VK_SUCCESS && r != VK_INCOMPLETE) || !count)
        return fail("vkEnumeratePhysicalDevices", r);
    uint32_t familyCount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(gpu, &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(gpu, &familyCount, families.data());
    uint32_t family = 0;
    while (family < familyCount && !(families[family].queueFlags & VK_QUEUE_COMPUTE_BIT))
        ++family;
    if (family == familyCount)
        return fail("finding a compute queue", 0);
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    // fftbloom pushes its descriptors: the device enables VK_KHR_push_descriptor (fftbCreateContext checks it).
    const char* pushDescriptor = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = 1;
    dci.ppEnabledExtensionNames = &pushDescriptor;
    VkDevice device = VK_NULL_HANDLE;
    if (VkResult r = vkCreateDevice(gpu, &dci, nullptr, &device); r != VK_SUCCESS)
        return fail("vkCreateDevice with " VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME, r);

    FftbContextCreateInfo info{FFTB_STRUCTURE_TYPE_CONTEXT_CREATE_INFO};
    info.instance = instance;
    info.physicalDevice = gpu;
    info.device = device;
    info.getInstanceProcAddr = vkGetInstanceProcAddr;
    info.getDeviceProcAddr = vkGetDeviceProcAddr;
    info.maxWidth = 64;
    info.maxHeight = 48;
    info.maxKernelResolutionWidth = info.maxKernelResolutionHeight = 8;
    FftbContext context = nullptr;
    if (FftbResult r = fftbCreateContext(&info, &context); r != FFTB_SUCCESS)
        return fail(fftbResultToString(r), r);

    std::vector<float> texels(3 * 8 * 8, 1.0f);
    FftbKernelInfo kernelInfo{FFTB_STRUCTURE_TYPE_KERNEL_INFO};
    kernelInfo.width = kernelInfo.height = 8;
    kernelInfo.texels = texels.data();
    FftbKernel kernel = nullptr;
    if (FftbResult r = fftbCreateKernel(context, &kernelInfo, &kernel); r != FFTB_SUCCESS)
        return fail(fftbResultToString(r), r);
    fftbDestroyKernel(kernel);
    fftbDestroyContext(context);
    vkDestroyDevice(device, nullptr);
    vkDestroyInstance(instance, nullptr);
    if (validationMessages)
        return fail("validation", static_cast<long>(validationMessages));
    std::printf("engine_context: fftbloom %u.%u.%u context and kernel on the engine's device\n", FFTB_VERSION_MAJOR,
                FFTB_VERSION_MINOR, FFTB_VERSION_PATCH);
    return 0;
}
