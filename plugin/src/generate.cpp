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
    return p;
}

/// The generator's buffer for a pattern of `n` x `n` (an FFT size) and `rows` aperture rows: the 32-bit word where the
/// pattern starts, after the rows' half spectra (intermediateIndex, in 8-byte elements).
uint32_t patternStartOf(uint32_t n, uint32_t rows)
{
    const uint32_t blocks = (n / 2 + 1 + FFTB_INTERMEDIATE_BLOCK_LINES - 1) / FFTB_INTERMEDIATE_BLOCK_LINES;
    return 2 * blocks * FFTB_INTERMEDIATE_BLOCK_LINES * rows;
}

/// Aperture rows transformed for an aperture of `radius` samples: its reach either side of the centre row, even.
uint32_t apertureRowsOf(double radius)
{
    return 2 * (uint32_t(std::ceil(radius)) + 2) + 2;
}

} // namespace

void Context::cmdGenerateKernel(VkCommandBuffer cb, const FftbApertureInfo& info, Kernel& kernel)
{
    if (kernel.device().device != device_->device)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "kernel: created on another VkDevice"};
    const uint32_t k = kernel.width();
    if (kernel.height() != k || k < 64 || k > 2048 || (k & (k - 1)) != 0)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                      "kernel: " + std::to_string(k) + "x" + std::to_string(kernel.height()) +
                          " texels; a generated kernel is K x K, K a power of two in 64..2048"};
    const PsfParams params = psfParamsOf(info, k);
    if (PsfParamError e; !checkPsfParams(params, &e))
    {
        const std::string field = e.field.rfind("aperture.", 0) == 0 ? e.field.substr(9) : e.field;
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                      "apertureInfo." + field + ": " + std::to_string(e.value) + " is outside " + e.range};
    }
    const PsfSampling sampling = psfSamplingOf(params);
    const uint32_t n = uint32_t(sampling.fftSize);
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
    push.patternStart = patternStartOf(n, rows);
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

    // Sized once for the largest sampling of this kernel size, so that animating the Airy radius reuses the buffer.
    const uint32_t bound = uint32_t(psfFftSizeBound(int(k)));
    const uint64_t boundWords = uint64_t(patternStartOf(bound, bound / 2 + 8)) + uint64_t(bound) * bound +
                                uint64_t(psfOccluderBound(int(k))) * FFTB_PSF_OCCLUDER_WORDS +
                                256 * FFTB_PSF_WAVELENGTH_WORDS + k;
    if (boundWords * 4 > device_->properties.limits.maxStorageBufferRange)
        throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS,
                      "kernel: generating a " + std::to_string(k) + "x" + std::to_string(k) + " PSF needs " +
                          std::to_string(boundWords * 4) + " bytes, past the device's maxStorageBufferRange"};
    // Everything that can fail, compiling the pipelines included, comes before the kernel is marked as replaced.
    for (const auto& [pass, length] : {std::pair{Pass::PsfApertureFft, n}, std::pair{Pass::PsfPatternFft, n},
                                       std::pair{Pass::PsfSpectralRgb, 0u}, std::pair{Pass::PsfNormalize, 0u}})
        pipeline(pass, length, false);
    const Kernel::Generation buffers = kernel.replaceTexels(boundWords * 4);
    const VkDescriptorSet set = generatorDescriptorSet(buffers);

    const auto* timestamps = findInChain<FftbTimestampInfo>(info.pNext, FFTB_STRUCTURE_TYPE_TIMESTAMP_INFO);
    if (timestamps && !timestamps->queryPool)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "FftbTimestampInfo.queryPool: VK_NULL_HANDLE"};
    uint32_t stamp = 0;
    const auto writeTimestamp = [&]
    {
        if (timestamps)
            vk_.vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps->queryPool,
                                    timestamps->firstQuery + stamp++);
    };

    device_->cmdBeginLabel(cb, "fftbloom: generate the kernel");
    writeTimestamp();
    // After earlier compute use of the kernel and of this buffer: the update below overwrites what they read.
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vk_.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                             VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0,
                             nullptr, 0, nullptr);
    constexpr size_t kMaxUpdateFloats = 65536 / sizeof(float); // vkCmdUpdateBuffer's limit
    for (size_t first = 0; first < data.size(); first += kMaxUpdateFloats)
        vk_.vkCmdUpdateBuffer(cb, buffers.generator, (VkDeviceSize(push.occluderStart) + first) * sizeof(float),
                              std::min(kMaxUpdateFloats, data.size() - first) * sizeof(float), data.data() + first);
    mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vk_.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0,
                             nullptr, 0, nullptr);
    vk_.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, generatorPipelineLayout_, 0, 1, &set, 0, nullptr);
    const uint32_t tiles = (k + FFTB_PSF_TILE - 1) / FFTB_PSF_TILE;
    const uint32_t normalizeTiles = (k + FFTB_PSF_NORMALIZE_TILE - 1) / FFTB_PSF_NORMALIZE_TILE;
    const std::tuple<Pass, uint32_t, uint32_t, uint32_t> passes[] = {
        {Pass::PsfApertureFft, n, rows / 2, 1},
        {Pass::PsfPatternFft, n, n / 2 + 1, 1},
        {Pass::PsfSpectralRgb, 0, tiles, tiles / 2 + 2}, // half the kernel, and row and column 0 (the shader)
        {Pass::PsfNormalize, 0, normalizeTiles, normalizeTiles}};
    for (const auto& [pass, length, groupsX, groupsY] : passes)
    {
        dispatch(cb, PipelineKey{pass, length, false, 0, false}, groupsX, groupsY, 1, &push, sizeof(push));
        barrier(cb);
        writeTimestamp();
    }
    device_->cmdEndLabel(cb);
}

VkDescriptorSet Context::generatorDescriptorSet(const Kernel::Generation& buffers)
{
    const VkDescriptorSet set = generatorSets_[nextGeneratorSet_];
    nextGeneratorSet_ = (nextGeneratorSet_ + 1) % uint32_t(generatorSets_.size());
    const std::pair<uint32_t, VkBuffer> bindings[] = {{FFTB_BINDING_INTERMEDIATE, buffers.generator},
                                                      {FFTB_BINDING_KERNEL_TEXELS, buffers.texels},
                                                      {FFTB_BINDING_TWIDDLES, twiddles_.buffer}};
    VkDescriptorBufferInfo infos[std::size(bindings)];
    VkWriteDescriptorSet writes[std::size(bindings)];
    for (size_t i = 0; i < std::size(bindings); ++i)
    {
        infos[i] = {bindings[i].second, 0, VK_WHOLE_SIZE};
        writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        writes[i].dstSet = set;
        writes[i].dstBinding = bindings[i].first;
        writes[i].descriptorCount = 1;
        writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[i].pBufferInfo = &infos[i];
    }
    vk_.vkUpdateDescriptorSets(device_->device, uint32_t(std::size(writes)), writes, 0, nullptr);
    return set;
}

} // namespace fftb
