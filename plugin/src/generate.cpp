// SPDX-License-Identifier: MIT
// fftbCmdGenerateKernel: the physically based PSF made on the GPU (plugin/plan/psf_model.h, shaders/psf_*.comp).
#include "context.h"

#include "psf_model.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace fftb
{
namespace
{

/// The model's parameters of `info` for a K x K kernel, zeros meaning the documented defaults.
PsfParams psfParamsOf(const FftbApertureInfo& info, uint32_t k)
{
    PsfParams p;
    p.sizeTexels = int(k);
    p.airyRadiusTexels = info.airyRadiusTexels == 0.0f ? 2.0 : double(info.airyRadiusTexels);
    p.wavelengths = info.wavelengths == 0 ? 32 : int(std::min<uint32_t>(info.wavelengths, 1u << 20));
    ApertureParams& a = p.aperture;
    a.blades = int(std::min<uint32_t>(info.blades, 1u << 20));
    a.bladeRotationDeg = info.bladeRotationDeg;
    a.bladeCurvature = info.bladeCurvature;
    a.obstruction = info.obstruction;
    a.vanes = int(std::min<uint32_t>(info.vanes, 1u << 20));
    a.vaneWidth = info.vaneWidth == 0.0f ? 0.01 : double(info.vaneWidth);
    a.vaneAngleDeg = info.vaneAngleDeg;
    a.dust = int(std::min<uint32_t>(info.dust, 1u << 20));
    a.scratches = int(std::min<uint32_t>(info.scratches, 1u << 20));
    a.corona = info.corona;
    a.haloRadius = info.haloRadius == 0.0f ? 0.4 : double(info.haloRadius);
    a.seed = info.seed;
    p.fade = info.fade;
    p.glare = info.glare;
    return p;
}

/// Aperture rows transformed for an aperture of `radius` samples: its reach either side of the centre row, even.
uint32_t apertureRowsOf(double radius)
{
    return 2 * (uint32_t(std::ceil(radius)) + 2) + 2;
}

/// Throws FFTB_ERROR_INVALID_ARGUMENT naming the field of `structure` when `params` are out of range.
void checkParams(const PsfParams& params, const std::string& structure)
{
    if (PsfParamError e; !checkPsfParams(params, &e))
    {
        const std::string field = e.field.rfind("aperture.", 0) == 0 ? e.field.substr(9) : e.field;
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                      structure + "." + field + ": " + std::to_string(e.value) + " is outside " + e.range};
    }
}

} // namespace

GeneratorSetup generatorSetupOf(const FftbKernelInfo& kernel, const FftbKernelGeneratorInfo& generator,
                                const VkPhysicalDeviceLimits& limits)
{
    const uint32_t k = kernel.width;
    if (kernel.height != k || k < 64 || k > 2048 || (k & (k - 1)) != 0)
        throw Failure{
            FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
            "kernelInfo.width, height: " + std::to_string(k) + "x" + std::to_string(kernel.height) +
                " texels; a generated kernel (FftbKernelGeneratorInfo) is K x K, K a power of two in 64..2048"};
    FftbApertureInfo aperture{FFTB_STRUCTURE_TYPE_APERTURE_INFO};
    aperture.airyRadiusTexels = generator.airyRadiusTexels;
    const PsfParams params = psfParamsOf(aperture, k);
    checkParams(params, "FftbKernelGeneratorInfo");
    // Sized for the largest sampling of this kernel size: any aperture, its occluders and wavelengths fit.
    const uint64_t bytes = generatorBufferBytes(k);
    if (bytes > limits.maxStorageBufferRange)
        throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS,
                      "kernelInfo: generating a " + std::to_string(k) + "x" + std::to_string(k) + " PSF needs " +
                          std::to_string(bytes) + " bytes, past the device's maxStorageBufferRange"};
    return {float(params.airyRadiusTexels), uint32_t(psfSamplingOf(params).fftSize), bytes};
}

void cmdGenerateKernel(const Context& context, VkCommandBuffer cb, const FftbApertureInfo& info, Kernel& kernel)
{
    const Device& device = *context.device();
    const Pipelines& pipelines = context.pipelines();
    if (kernel.device().device != device.device)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "kernel: created on another VkDevice"};
    const GeneratorSetup* generator = kernel.generator();
    if (!generator)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                      "kernel: created without an FftbKernelGeneratorInfo (fftbCreateKernel)"};
    checkChain(info.pNext, {FFTB_STRUCTURE_TYPE_TIMESTAMP_INFO}, "apertureInfo.pNext");
    const uint32_t k = kernel.width();
    const PsfParams params = psfParamsOf(info, k);
    checkParams(params, "apertureInfo");
    if (float(params.airyRadiusTexels) != generator->airyRadiusTexels)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                      "apertureInfo.airyRadiusTexels: " + std::to_string(params.airyRadiusTexels) +
                          ", not the kernel's FftbKernelGeneratorInfo.airyRadiusTexels " +
                          std::to_string(generator->airyRadiusTexels) + " (the generator's FFT size follows it)"};
    const PsfSampling sampling = psfSamplingOf(params);
    const uint32_t n = generator->fftLength;
    const double radius = sampling.apertureDiameterSamples / 2.0;
    const uint32_t rows = apertureRowsOf(radius);

    // The data the passes read, after the pattern: occluders, wavelengths, deapodization.
    std::vector<float> data;
    for (const Occluder& o : occludersOf(params, sampling))
        data.insert(data.end(), {float(o.ax), float(o.ay), float(o.bx), float(o.by), float(o.width), float(o.opacity),
                                 o.segment ? 1.0f : 0.0f, 0.0f});
    const uint32_t occluders = uint32_t(data.size() / FFTB_PSF_OCCLUDER_WORDS);
    const std::vector<Wavelength> wavelengths = wavelengthsOf(params);
    for (const Wavelength& w : wavelengths)
        data.insert(data.end(), {float(sampling.binsPerTexel * kPsfReferenceNm / w.nm), float(w.rgbWeight[0]),
                                 float(w.rgbWeight[1]), float(w.rgbWeight[2])});
    for (const double d : kernel.deapodization())
        data.push_back(float(d));

    FftbPsfPushConstants push{};
    push.fftLength = n;
    push.rows = rows;
    push.firstRow = n / 2 - (rows / 2 - 1);
    push.kernelLength = k;
    push.blades = uint32_t(params.aperture.blades);
    push.vanes = uint32_t(params.aperture.vanes);
    push.occluderCount = occluders;
    push.patternStart = generatorPatternStart(n, rows);
    push.occluderStart = push.patternStart + n * n;
    push.wavelengthCount = uint32_t(wavelengths.size());
    push.wavelengthStart = push.occluderStart + occluders * FFTB_PSF_OCCLUDER_WORDS;
    push.deapodizeStart = push.wavelengthStart + push.wavelengthCount * FFTB_PSF_WAVELENGTH_WORDS;
    push.radius = float(radius);
    const double degrees = std::numbers::pi / 180.0;
    push.bladeRotation = float(params.aperture.bladeRotationDeg * degrees);
    const double c = params.aperture.bladeCurvature,
                 a = params.aperture.blades > 0 ? std::sin(std::numbers::pi / params.aperture.blades) : 0.0;
    push.bladeCurvature = float(c / std::sqrt(1.0 - c * c * a * a));
    push.obstruction = float(params.aperture.obstruction);
    push.vaneHalfWidth = float(params.aperture.vaneWidth);
    push.vaneAngle = float(params.aperture.vaneAngleDeg * degrees);
    push.fade = float(params.fade);
    push.glare = float(params.glare);
    push.glareDegreesPerTexel = float(glareDegreesPerTexel(params.airyRadiusTexels));

    const auto* timestamps = findInChain<FftbTimestampInfo>(info.pNext, FFTB_STRUCTURE_TYPE_TIMESTAMP_INFO);
    if (timestamps && !timestamps->queryPool)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "FftbTimestampInfo.queryPool: VK_NULL_HANDLE"};
    // Everything that can fail comes before the kernel is told of the generation.
    const Kernel::Generation buffers = kernel.replaceTexels();
    const auto& vk = device.vk;
    uint32_t stamp = 0;
    const auto writeTimestamp = [&]
    {
        if (timestamps)
            vk.vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps->queryPool,
                                   timestamps->firstQuery + stamp++);
    };

    device.cmdBeginLabel(cb, "fftbloom: generate the kernel");
    writeTimestamp();
    // After earlier compute use of the kernel and of this buffer: the update below overwrites what they read.
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vk.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                            VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0,
                            nullptr, 0, nullptr);
    constexpr size_t kMaxUpdateFloats = 65536 / sizeof(float); // vkCmdUpdateBuffer's limit
    for (size_t first = 0; first < data.size(); first += kMaxUpdateFloats)
        vk.vkCmdUpdateBuffer(cb, buffers.generator, (VkDeviceSize(push.occluderStart) + first) * sizeof(float),
                             std::min(kMaxUpdateFloats, data.size() - first) * sizeof(float), data.data() + first);
    mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vk.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0,
                            nullptr, 0, nullptr);
    const uint32_t tiles = (k + FFTB_PSF_TILE - 1) / FFTB_PSF_TILE;
    const uint32_t normalizeTiles = (k + FFTB_PSF_NORMALIZE_TILE - 1) / FFTB_PSF_NORMALIZE_TILE;
    const std::tuple<Pass, uint32_t, uint32_t, uint32_t> passes[] = {
        {Pass::PsfApertureFft, n, rows / 2, 1},
        {Pass::PsfPatternFft, n, n / 2 + 1, 1},
        {Pass::PsfSpectralRgb, 0, tiles, tiles / 2 + 2}, // half the kernel, and row and column 0 (the shader)
        {Pass::PsfNormalize, 0, normalizeTiles, normalizeTiles}};
    PassResources resources;
    resources.intermediate = buffers.generator;
    resources.kernelTexels = buffers.texels;
    for (const auto& [pass, length, groupsX, groupsY] : passes)
    {
        pipelines.dispatch(cb, {pipelines.get({pass, length}), pass, {groupsX, groupsY, 1}}, resources, &push,
                           sizeof(push));
        device.cmdComputeBarrier(cb);
        writeTimestamp();
    }
    // The host binds the generated texels once it reads this back (Kernel::bind): a dropped generation writes nothing.
    device.cmdComplete(cb, buffers.word, buffers.value);
    device.cmdEndLabel(cb);
}

} // namespace fftb
