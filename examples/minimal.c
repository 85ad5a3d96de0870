/* SPDX-License-Identifier: MIT */
/* The smallest headless use of fftbloom, in C: a Vulkan device, then at load time a context, a kernel and a plan (its
 * pipelines compiled there), then per frame a bloom recorded with the plugin placing the images' barriers, here one
 * frame whose result is read back. A single light in a black 64x64 frame is bloomed with a 9x9 Gaussian in the
 * energy-conserving composite; the frame's total light must be unchanged. Exits 0 when it is, 1 otherwise. */
#include <fftbloom/fftbloom.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { W = 64, H = 64, K = 9 };

#define CHECK(call)                                                                                                    \
    do                                                                                                                 \
    {                                                                                                                  \
        if ((call) < 0)                                                                                                \
        {                                                                                                              \
            fprintf(stderr, "minimal: %s failed\n", #call);                                                            \
            return 1;                                                                                                  \
        }                                                                                                              \
    } while (0)

static void printMessage(FftbResult result, VkResult vkResult, const char* message, void* userData)
{
    (void)vkResult, (void)userData;
    fprintf(stderr, "fftbloom (%s): %s\n", fftbResultToString(result), message);
}

/* Memory of `requirements` with `flags`, bound by the caller. */
static VkDeviceMemory allocate(VkPhysicalDevice gpu, VkDevice device, VkMemoryRequirements requirements,
                               VkMemoryPropertyFlags flags)
{
    VkPhysicalDeviceMemoryProperties properties;
    VkMemoryAllocateInfo info = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    VkDeviceMemory memory = VK_NULL_HANDLE;
    vkGetPhysicalDeviceMemoryProperties(gpu, &properties);
    info.allocationSize = requirements.size;
    for (info.memoryTypeIndex = 0; info.memoryTypeIndex < properties.memoryTypeCount; ++info.memoryTypeIndex)
        if ((requirements.memoryTypeBits >> info.memoryTypeIndex & 1u) &&
            (properties.memoryTypes[info.memoryTypeIndex].propertyFlags & flags) == flags)
            break;
    vkAllocateMemory(device, &info, NULL, &memory);
    return memory;
}

/* A W x H RGBA32F image and its view. */
static VkResult createImage(VkPhysicalDevice gpu, VkDevice device, VkImageUsageFlags usage, VkImage* image,
                            VkDeviceMemory* memory, VkImageView* view)
{
    VkImageCreateInfo ii = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    VkImageViewCreateInfo vi = {VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    VkMemoryRequirements requirements;
    ii.imageType = VK_IMAGE_TYPE_2D;
    ii.format = VK_FORMAT_R32G32B32A32_SFLOAT;
    ii.extent.width = W, ii.extent.height = H, ii.extent.depth = 1;
    ii.mipLevels = ii.arrayLayers = 1;
    ii.samples = VK_SAMPLE_COUNT_1_BIT;
    ii.usage = usage;
    if (vkCreateImage(device, &ii, NULL, image) != VK_SUCCESS)
        return VK_ERROR_INITIALIZATION_FAILED;
    vkGetImageMemoryRequirements(device, *image, &requirements);
    *memory = allocate(gpu, device, requirements, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    vkBindImageMemory(device, *image, *memory, 0);
    vi.image = *image;
    vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vi.format = ii.format;
    vi.subresourceRange.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    vi.subresourceRange.levelCount = vi.subresourceRange.layerCount = 1;
    return vkCreateImageView(device, &vi, NULL, view);
}

int main(void)
{
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    VkInstance instance;
    VkPhysicalDevice gpu;
    uint32_t count = 1, family = 0;
    VkQueueFamilyProperties families[8];
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    VkPhysicalDeviceFeatures features = {0};
    const char* pushDescriptor = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    VkDevice device;
    VkQueue queue;
    VkCommandPoolCreateInfo pci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    VkCommandPool pool;
    VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    VkCommandBuffer cb;
    VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    VkSubmitInfo submit = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    VkBuffer staging;
    VkDeviceMemory stagingMemory, inputMemory, outputMemory;
    VkMemoryRequirements requirements;
    VkImage input, output;
    VkImageView inputView, outputView;
    VkBufferImageCopy region = {0};
    VkImageMemoryBarrier toCopy = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    const VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    FftbContextCreateInfo ci = {FFTB_STRUCTURE_TYPE_CONTEXT_CREATE_INFO};
    FftbContext context;
    FftbKernelInfo ki = {FFTB_STRUCTURE_TYPE_KERNEL_INFO};
    FftbKernel kernel;
    FftbBloomPlanCreateInfo pi = {FFTB_STRUCTURE_TYPE_BLOOM_PLAN_CREATE_INFO};
    FftbBloomPlan plan;
    FftbBloomInfo bi = {FFTB_STRUCTURE_TYPE_BLOOM_INFO};
    FftbImageBarrierInfo barriers = {FFTB_STRUCTURE_TYPE_IMAGE_BARRIER_INFO};
    static float texels[K * K * 3], pixels[W * H * 4];
    float* mapped;
    double before = 0.0, after = 0.0;
    int i, spread;

    /* The device: Vulkan 1.1, one compute queue, the feature and the extension fftbloom needs. */
    app.apiVersion = VK_API_VERSION_1_1;
    ici.pApplicationInfo = &app;
    CHECK(vkCreateInstance(&ici, NULL, &instance));
    CHECK(vkEnumeratePhysicalDevices(instance, &count, &gpu));
    count = 8;
    vkGetPhysicalDeviceQueueFamilyProperties(gpu, &count, families);
    while (family < count && !(families[family].queueFlags & VK_QUEUE_COMPUTE_BIT))
        ++family;
    qci.queueFamilyIndex = family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    features.shaderStorageImageWriteWithoutFormat = VK_TRUE;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.pEnabledFeatures = &features;
    dci.enabledExtensionCount = 1;
    dci.ppEnabledExtensionNames = &pushDescriptor;
    CHECK(vkCreateDevice(gpu, &dci, NULL, &device));
    vkGetDeviceQueue(device, family, 0, &queue);
    pci.queueFamilyIndex = family;
    CHECK(vkCreateCommandPool(device, &pci, NULL, &pool));
    cai.commandPool = pool;
    cai.commandBufferCount = 1;
    CHECK(vkAllocateCommandBuffers(device, &cai, &cb));

    /* The frame: one light of 1000 in the middle of a black frame; a host-visible staging buffer. */
    for (i = 0; i < W * H * 4; ++i)
        pixels[i] = i % 4 == 3 ? 1.0f : 0.0f;
    for (i = 0; i < 3; ++i)
        pixels[(H / 2 * W + W / 2) * 4 + i] = 1000.0f;
    for (i = 0; i < W * H * 4; ++i)
        before += i % 4 == 3 ? 0.0 : pixels[i];
    bci.size = sizeof pixels;
    bci.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    CHECK(vkCreateBuffer(device, &bci, NULL, &staging));
    vkGetBufferMemoryRequirements(device, staging, &requirements);
    stagingMemory = allocate(gpu, device, requirements,
                             VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    CHECK(vkBindBufferMemory(device, staging, stagingMemory, 0));
    CHECK(vkMapMemory(device, stagingMemory, 0, VK_WHOLE_SIZE, 0, (void**)&mapped));
    memcpy(mapped, pixels, sizeof pixels);
    CHECK(createImage(gpu, device, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, &input, &inputMemory,
                      &inputView));
    CHECK(createImage(gpu, device, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, &output,
                      &outputMemory, &outputView));

    /* At load time: a context for frames up to W x H, a 9x9 Gaussian kernel, and the plan of its bloom of W x H
     * frames, which compiles the pipelines: recording a bloom never compiles. Kernels and plans may also be made on
     * worker threads while another thread records with the context (fftbloom.h, "Threads"). */
    ci.instance = instance, ci.physicalDevice = gpu, ci.device = device;
    ci.getInstanceProcAddr = vkGetInstanceProcAddr, ci.getDeviceProcAddr = vkGetDeviceProcAddr;
    ci.maxWidth = W, ci.maxHeight = H, ci.maxKernelResolutionWidth = ci.maxKernelResolutionHeight = K;
    ci.messageCallback = printMessage;
    CHECK(fftbCreateContext(&ci, &context));
    for (i = 0; i < K * K * 3; ++i)
    {
        const int x = i / 3 % K - K / 2, y = i / 3 / K - K / 2;
        texels[i] = (float)exp(-(x * x + y * y) / 4.0);
    }
    ki.width = ki.height = K;
    ki.texels = texels; /* normalized per channel by fftbloom */
    CHECK(fftbCreateKernel(context, &ki, &kernel));
    pi.kernel = kernel;
    pi.width = W, pi.height = H;
    pi.inputLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    pi.padding = FFTB_PADDING_ZERO; /* the light stays far from the edges: none leaves the frame */
    CHECK(fftbCreateBloomPlan(context, &pi, &plan));

    /* Per frame, one command buffer: upload, bloom (the plugin moves the images), readback. The plan's first blooms
     * also compute its kernel's spectrum, until a command buffer carrying it has executed (fftbCmdPrepareKernel could
     * record that at load time, but need not); command buffers may be dropped or submitted in any order. */
    CHECK(vkBeginCommandBuffer(cb, &begin));
    toCopy.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toCopy.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    toCopy.srcQueueFamilyIndex = toCopy.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    toCopy.image = input;
    toCopy.subresourceRange = range;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1,
                         &toCopy);
    region.imageSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    region.imageSubresource.layerCount = 1;
    region.imageExtent.width = W, region.imageExtent.height = H, region.imageExtent.depth = 1;
    vkCmdCopyBufferToImage(cb, staging, input, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    barriers.inputImage = input, barriers.inputRange = range;
    barriers.inputLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    barriers.inputStageMask = VK_PIPELINE_STAGE_2_COPY_BIT, barriers.inputAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
    barriers.outputImage = output, barriers.outputRange = range;
    barriers.outputOldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    barriers.outputNewLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    barriers.outputDstStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
    barriers.outputDstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT;
    bi.pNext = &barriers;
    bi.inputView = inputView, bi.outputView = outputView;
    /* The views' extents, checked against the plan's: smaller views are refused. */
    bi.inputExtent.width = bi.outputExtent.width = W, bi.inputExtent.height = bi.outputExtent.height = H;
    bi.outputMode = FFTB_OUTPUT_MODE_COMPOSITE, bi.intensity = 0.5f;
    CHECK(fftbCmdBloom(plan, cb, &bi));
    vkCmdCopyImageToBuffer(cb, output, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, staging, 1, &region);
    CHECK(vkEndCommandBuffer(cb));
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cb;
    CHECK(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE));
    CHECK(vkQueueWaitIdle(queue));

    /* The mapped memory is host-coherent; the queue wait made the copy's writes available. */
    for (i = 0; i < W * H * 4; ++i)
        after += i % 4 == 3 ? 0.0 : mapped[i];
    printf("minimal: total light %.4f before, %.4f after the bloom; the light's texel %.2f -> %.2f\n", before, after,
           pixels[(H / 2 * W + W / 2) * 4], mapped[(H / 2 * W + W / 2) * 4]);
    spread = mapped[(H / 2 * W + W / 2) * 4] < 1000.0f;

    fftbDestroyBloomPlan(plan);
    fftbDestroyKernel(kernel);
    fftbDestroyContext(context);
    vkDestroyImageView(device, inputView, NULL), vkDestroyImageView(device, outputView, NULL);
    vkDestroyImage(device, input, NULL), vkDestroyImage(device, output, NULL);
    vkFreeMemory(device, inputMemory, NULL), vkFreeMemory(device, outputMemory, NULL);
    vkDestroyBuffer(device, staging, NULL);
    vkFreeMemory(device, stagingMemory, NULL);
    vkDestroyCommandPool(device, pool, NULL);
    vkDestroyDevice(device, NULL);
    vkDestroyInstance(instance, NULL);
    return fabs(after - before) <= 1e-4 * before && spread ? 0 : 1;
}
