// SPDX-License-Identifier: MIT
// The resolution of a bloom plan, Vulkan-free: every check of its fields, the plan, its passes with their pipelines,
// workgroup grids and push constants, and its buffers' sizes. Made once by fftbCreateBloomPlan; recording replays it.
#pragma once

#include "plan.h"

#include <algorithm>
#include <array>
#include <compare>
#include <cstdint>
#include <string>
#include <vector>

namespace fftb
{

/// The passes, in the order of FFTBLOOM_SHADERS (plugin/cmake/Shaders.cmake).
enum class Pass : uint32_t
{
    KernelFftFirst,
    KernelFftSecond,
    KernelResolveSpectrum, ///< resampled mode: the stored spectrum at the frame's frequencies; no FFT
    ImageFftFirst,
    ImageFftSecondConvolveIfftSecond,
    ImageIfftFirstComposite,
    ImageUpsampleComposite, ///< reduced resolution only; no FFT: its pipeline's key has FFT length 0
    PsfApertureFft,         ///< fftbCmdGenerateKernel: the aperture's rows and their FFT
    PsfPatternFft,          ///< its columns' FFT and the diffraction pattern
    PsfSpectralRgb,         ///< the pattern over each texel at every wavelength; no FFT
    PsfNormalize,           ///< unit sum per channel and deapodization; no FFT
    Count,
};

/// What a pass binds, which is its descriptor set layout: the kernel spectrum's passes and the generator's bind buffers
/// only, so they never read an image view a bloom left behind.
enum class Bindings
{
    Kernel,    ///< the scratch, the kernel's texels and spectrum, the twiddles
    Frame,     ///< those, the border weights, and the views of the frame (FFTB_BINDING_*)
    Generator, ///< the generator's buffer (as the intermediate), the kernel's texels, the twiddles
};
Bindings bindingsOf(Pass pass);

/// A compiled pipeline: its pass and the specialization that tells it apart. `fftLength` 0 for a pass without an FFT.
struct PipelineKey
{
    Pass pass = Pass::Count;
    uint32_t fftLength = 0;
    bool halfStorage = false; ///< the image passes' fp16 intermediate (FFTB_STORAGE_PRECISION_FLOAT16)
    bool multiView = false;   ///< the frame passes of a plan of several views
    auto operator<=>(const PipelineKey&) const = default;
};

/// One dispatch of a pass: its pipeline and workgroup grid, and whether a timestamp follows it (FFTB_TIMESTAMP_COUNT).
struct Dispatch
{
    PipelineKey pipeline;
    std::array<uint32_t, 3> groups{1, 1, 1};
    bool timestampAfter = false;
    bool operator==(const Dispatch&) const = default;
};

/// The limits of the device a recipe is resolved for (VkPhysicalDeviceLimits).
struct DeviceLimits
{
    uint32_t maxWorkgroupInvocations = 1024; ///< min(maxComputeWorkGroupInvocations, maxComputeWorkGroupSize[0])
    uint32_t maxSharedMemoryBytes = 32768;   ///< maxComputeSharedMemorySize
};

/// The maximum extents of a context (FftbContextCreateInfo, FftbResizeInfo): the frame's, the kernel's resolution in
/// texels and its extent on the frame in pixels (0 in the info: the resolution's), and the views.
struct Extents
{
    uint32_t width = 0, height = 0, kernelWidth = 0, kernelHeight = 0, kernelExtentWidth = 0, kernelExtentHeight = 0;
    uint32_t views = 1; ///< the most views of one plan, >= 1
    /// The kernel lengths the scratch is sized for: per axis the larger of the resolution (the kernel's first-axis
    /// transform) and the extent (the frame's padding).
    uint32_t scratchKernelWidth() const { return std::max(kernelWidth, kernelExtentWidth); }
    uint32_t scratchKernelHeight() const { return std::max(kernelHeight, kernelExtentHeight); }
};

/// The maximum extents of an FftbContextCreateInfo or FftbResizeInfo.
template <typename Info> Extents extentsOf(const Info& info)
{
    return {info.maxWidth,
            info.maxHeight,
            info.maxKernelResolutionWidth,
            info.maxKernelResolutionHeight,
            info.maxKernelExtentWidth ? info.maxKernelExtentWidth : info.maxKernelResolutionWidth,
            info.maxKernelExtentHeight ? info.maxKernelExtentHeight : info.maxKernelResolutionHeight,
            info.maxViews ? info.maxViews : 1};
}

/// Checks the maximum extents of a create or resize info: "" or a reason naming the field.
std::string checkExtents(const Extents& extents);

/// What a plan needs of its kernel.
struct KernelShape
{
    uint32_t width = 0, height = 0; ///< its resolution in texels
    FftbSpectrumMode mode = FFTB_SPECTRUM_MODE_RESAMPLED;
    SpectrumResampling resampling;
};

/// A refusal: the result code and a one-line reason naming the field at fault.
struct Refusal
{
    FftbResult result = FFTB_SUCCESS;
    std::string reason;
};

/// Everything fftbCmdBloom and fftbCmdPrepareKernel record for one plan, and what fftbDescribeBloomPlan reports.
struct Recipe
{
    Plan plan;
    uint32_t views = 1;
    bool multiView = false;   ///< views > 1: the frame passes' pipelines for several views, an FftbMultiViewInfo
    bool halfStorage = false; ///< FFTB_STORAGE_PRECISION_FLOAT16
    bool normalized = false;  ///< FFTB_PADDING_ZERO_NORMALIZED: border weights
    uint32_t inputLayout = 0; ///< the VkImageLayout the frame is read in
    /// The push constants of every pass with the plan's values; the per-frame ones (output mode, intensity, sharpening,
    /// prefilter, tint) are left zero for bloomPushConstants.
    FftbPushConstants push{};
    /// The kernel spectrum, each followed by a barrier: its two FFTs, then in resampled mode its resolution at the
    /// frame's frequencies.
    std::vector<Dispatch> spectrumPasses;
    std::vector<Dispatch> borderWeightPasses; ///< normalized only: passes 1-3 over the frame's indicator, view 0
    std::vector<Dispatch> framePasses;        ///< passes 1-3, and 4 at half resolution; barriers between them
    std::vector<PipelineKey> pipelines;       ///< every pipeline of the passes above, each once
    uint64_t scratchBytes = 0;                ///< of the context's scratch, from its start
    uint64_t spectrumChannelElements = 0;     ///< complex fp32 of each channel's range of the kernel spectrum
    uint64_t borderWeightBytes = 0;           ///< normalized only
    /// A far field's weight w (FftbFarFieldInfo), 0 without one. In the plan's recipe, pass 3 adds the far field's
    /// bloom (FFTB_GPU_FLAG_FAR_FIELD_SHIFT); in the far field's own (farField), passes 1-3 write it into the scratch
    /// at push.scratchBloomStart, where the plan's pass 3 reads it. bloomPushConstants weights and sharpens both.
    float farWeight = 0.0f;
    bool farField = false; ///< the recipe of a plan's far field: passes 1-3 only, no pass 4, no timestamps
    /// Where the recipe's window of the scratch starts, bytes: 0, or a far field's farFieldWindow after the plan's
    /// (its passes bind the scratch from there; scratchBytes counts from the scratch's start).
    uint64_t scratchOffset = 0;
};

/// A far field to resolve with a plan: its FftbFarFieldInfo and its kernel's shape.
struct FarFieldRequest
{
    const FftbFarFieldInfo* info = nullptr;
    KernelShape kernel;
};

/// Checks every field of `info` against the context's maximum extents `max`, its kernel `kernel` and the device's
/// `limits`, plans it with `lengths`, and fills `recipe`. False and `refusal` (FFTB_ERROR_INVALID_ARGUMENT for a field
/// out of its range, FFTB_ERROR_DEVICE_LIMIT past a maximum or a device limit) when it cannot be made. Does not read
/// info.kernel, info.pNext or info.sType. With `far`, the far field's recipe too, into `farRecipe`: `info` with its
/// resolution and span, in its window of the scratch after the plan's (farFieldWindow; both recipes' scratchBytes
/// cover it); refused as FFTB_ERROR_INVALID_ARGUMENT when `info` is not at full resolution or the far field's
/// resolution is not a quarter or an eighth or its weight outside [0, 1], and with the far field's own refusals named
/// "FftbFarFieldInfo: ...".
bool resolveRecipe(const FftbBloomPlanCreateInfo& info, const Extents& max, const KernelShape& kernel,
                   FftbLengthPolicy lengths, const DeviceLimits& limits, Recipe* recipe, Refusal* refusal,
                   const FarFieldRequest* far = nullptr, Recipe* farRecipe = nullptr);

/// Checks the per-frame values of `info` (output mode, intensity, sharpening, prefilter, tint): "" or a reason naming
/// the field. Does not read its views or chain.
std::string checkBloomValues(const FftbBloomInfo& info);

/// Checks the extents of the views `info` gives (inputExtent, outputExtent) against the frame of `recipe`: "" or a
/// reason naming the field.
std::string checkViewExtents(const FftbBloomInfo& info, const Recipe& recipe);

/// The push constants of a bloom with `info` (checked by checkBloomValues): the recipe's, with its per-frame values.
FftbPushConstants bloomPushConstants(const Recipe& recipe, const FftbBloomInfo& info);

/// The push constants of the kernel spectrum's passes: the recipe's, with the kernel's resolution as the image lengths
/// and the placed kernel (placedKernelLength, centre at half of it) as the kernel lengths and centres.
FftbPushConstants spectrumPushConstants(const Recipe& recipe);

/// The push constants of the border weights' passes: the recipe's, writing the weights of the unsharpened kernel.
FftbPushConstants borderWeightPushConstants(const Recipe& recipe);

/// Invocations per workgroup of a pass of `key` on a device of `limits`: workgroupSizeOf its FFT length, or 0 for a
/// pass without an FFT (its workgroup size is fixed in the shader).
uint32_t workgroupSizeOf(const PipelineKey& key, const DeviceLimits& limits);

/// Invocations per workgroup of the generated FFT (fft_codegen.h, lineFftWorkgroupSize) of the pipeline of `key` on a
/// device of `limits`, or 0 where the pass runs the generic FFT (shaders/fft.glsl): pass 2
/// (image_fft_second_convolve_ifft_second_generated.comp) on lines up to FFTB_MAX_SHARED_FFT_LENGTH.
uint32_t generatedFftWorkgroupSize(const PipelineKey& key, const DeviceLimits& limits);

/// The specialization constants of the pipeline of `key` on a device of `limits`, as (id, value) pairs (FFTB_SPEC_*):
/// every id for a pass with an FFT (specializationOf its length), FFTB_SPEC_MULTI_VIEW alone for the others.
std::vector<std::array<uint32_t, 2>> specializationOf(const PipelineKey& key, const DeviceLimits& limits);

/// The generator's buffer (fftbCmdGenerateKernel) for a pattern of `n` x `n` (an FFT size) and `rows` aperture rows:
/// the 32-bit word where the pattern starts, after the rows' half spectra (intermediateIndex, in 8-byte elements).
uint32_t generatorPatternStart(uint32_t n, uint32_t rows);

/// Bytes of the generator's buffer for a K x K generated kernel, sized for the largest sampling of that size
/// (psfFftSizeBound): the rows' spectra, the pattern, the most occluders, 256 wavelengths and the deapodization.
uint64_t generatorBufferBytes(uint32_t k);

} // namespace fftb
