// SPDX-License-Identifier: MIT
// Kernels for the bloom nodes, their views, and the plugin's device memory count.
#include "bloom_node.h"

#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace fftb::viewer
{

namespace
{

/// The smallest power of two >= n, n >= 1.
int pow2Ceil(int n)
{
    int p = 1;
    while (p < n)
        p *= 2;
    return p;
}

/// Device memory the plugin holds (see trackingGetDeviceProcAddr).
struct PluginMemory
{
    std::mutex mutex;
    std::unordered_map<VkDeviceMemory, VkDeviceSize> sizes;
    VkDeviceSize totalBytes = 0;
};

PluginMemory& pluginMemory()
{
    static PluginMemory memory;
    return memory;
}

VKAPI_ATTR VkResult VKAPI_CALL trackedAllocateMemory(VkDevice device, const VkMemoryAllocateInfo* info,
                                                     const VkAllocationCallbacks* allocator, VkDeviceMemory* memory)
{
    const VkResult r = vkAllocateMemory(device, info, allocator, memory);
    if (r == VK_SUCCESS)
    {
        PluginMemory& m = pluginMemory();
        std::lock_guard lock(m.mutex);
        m.sizes[*memory] = info->allocationSize;
        m.totalBytes += info->allocationSize;
    }
    return r;
}

VKAPI_ATTR void VKAPI_CALL trackedFreeMemory(VkDevice device, VkDeviceMemory memory,
                                             const VkAllocationCallbacks* allocator)
{
    {
        PluginMemory& m = pluginMemory();
        std::lock_guard lock(m.mutex);
        if (auto it = m.sizes.find(memory); it != m.sizes.end())
        {
            m.totalBytes -= it->second;
            m.sizes.erase(it);
        }
    }
    vkFreeMemory(device, memory, allocator);
}

} // namespace

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL trackingGetDeviceProcAddr(VkDevice device, const char* name)
{
    if (std::strcmp(name, "vkAllocateMemory") == 0)
        return reinterpret_cast<PFN_vkVoidFunction>(&trackedAllocateMemory);
    if (std::strcmp(name, "vkFreeMemory") == 0)
        return reinterpret_cast<PFN_vkVoidFunction>(&trackedFreeMemory);
    return vkGetDeviceProcAddr(device, name);
}

VkDeviceSize pluginDeviceMemoryBytes()
{
    PluginMemory& m = pluginMemory();
    std::lock_guard lock(m.mutex);
    return m.totalBytes;
}

void failRecording(const BloomNode& node, FftbResult result, const char* call)
{
    try
    {
        node.glue->fail(result, call);
    }
    catch (const VulkanError&)
    {
        throw;
    }
    catch (const HostError& e)
    {
        throw ViewerError(e.what());
    }
}

KernelKey kernelKeyOf(const Settings& s, float exposure)
{
    KernelKey key{s.bloom.kernel};
    // The eye mode: the pupil adapted to the exposure (a scene shown 1 stop brighter is 1 stop darker:
    // 100 * 2^-exposure cd/m^2), within the generator's range.
    if (key.animated())
        key.generatorAiryRadius = float(std::clamp(
            pupilAiryRadius(s.bloom.kernel.psfDesign().airyRadiusTexels, 100.0 * std::exp2(-double(exposure))), 1.0,
            std::min(16.0, s.bloom.kernel.sizeTexels / 8.0)));
    return key;
}

Texels kernelViewTexels(const Texels& k, bool spectrum)
{
    constexpr double kDecades = 6.0;
    auto shade = [&](double ratio)
    { return float(std::clamp(1.0 + std::log10(std::max(ratio, 1e-30)) / kDecades, 0.0, 1.0)); };
    Texels view;
    if (!spectrum)
    {
        view = Texels(k.width, k.height, 4);
        const float peak = *std::max_element(k.values.begin(), k.values.end());
        for (int y = 0; y < k.height; ++y)
            for (int x = 0; x < k.width; ++x)
            {
                for (int c = 0; c < 3; ++c)
                    view.at(x, y, c) = shade(double(k.at(x, y, c)) / double(peak));
                view.at(x, y, 3) = 1.0f;
            }
    }
    else
    {
        const int n = pow2Ceil(std::max(k.width, k.height));
        view = Texels(n, n, 4);
        fftw_complex* line = fftw_alloc_complex(size_t(n) * size_t(n));
        fftw_plan plan = fftw_plan_dft_2d(n, n, line, line, FFTW_FORWARD, FFTW_ESTIMATE);
        for (int c = 0; c < 3; ++c)
        {
            std::fill(&line[0][0], &line[0][0] + 2 * size_t(n) * size_t(n), 0.0);
            for (int y = 0; y < k.height; ++y)
                for (int x = 0; x < k.width; ++x)
                    line[size_t(y) * size_t(n) + size_t(x)][0] = k.at(x, y, c);
            fftw_execute(plan);
            const double dc = std::hypot(line[0][0], line[0][1]);
            for (int v = 0; v < n; ++v)
                for (int u = 0; u < n; ++u)
                {
                    const fftw_complex& z = line[size_t(v) * size_t(n) + size_t(u)];
                    view.at((u + n / 2) % n, (v + n / 2) % n, c) = shade(std::hypot(z[0], z[1]) / dc);
                }
        }
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x)
                view.at(x, y, 3) = 1.0f;
        fftw_destroy_plan(plan);
        fftw_free(line);
    }
    return view;
}

} // namespace fftb::viewer
