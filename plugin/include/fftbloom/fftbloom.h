/* SPDX-License-Identifier: MIT */
/* fftbloom: FFT-convolution bloom recorded into the caller's Vulkan command buffer. The C API; the GPU PSF generator
 * (FftbKernelGeneratorInfo, FftbApertureInfo, fftbCmdGenerateKernel) is fftbloom_generator.h. */
#ifndef FFTBLOOM_H
#define FFTBLOOM_H

#include <stdint.h>
#include <vulkan/vulkan.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FFTB_VERSION_MAJOR 0
#define FFTB_VERSION_MINOR 6
#define FFTB_VERSION_PATCH 0
/** Packed as (major << 22) | (minor << 12) | patch, like VK_MAKE_API_VERSION without the variant. */
#define FFTB_MAKE_VERSION(major, minor, patch)                                                                         \
    ((((uint32_t)(major)) << 22) | (((uint32_t)(minor)) << 12) | ((uint32_t)(patch)))
#define FFTB_VERSION FFTB_MAKE_VERSION(FFTB_VERSION_MAJOR, FFTB_VERSION_MINOR, FFTB_VERSION_PATCH)

/** Largest FFT length along one axis. A frame needs, per axis, a padded length of at least extent + kernel/2 (zero
 *  padding) or extent + kernel - 1 (mirror padding), of the form 2^a 3^b 5^c 7^d, no longer than this. */
#define FFTB_MAX_FFT_LENGTH 16384u
/** Largest kernel length along one axis: the largest kernel resolution, in texels (FftbKernelInfo::width, height),
 *  and the largest kernel extent on the frame, in pixels, of a scaled kernel (FftbBloomPlanCreateInfo::kernelSpan).
 * The resampled spectrum of such a kernel is 2 pow2ceil(length) = 8192 bins long at most, an FFT length. */
#define FFTB_MAX_KERNEL_LENGTH 4096u
/** Most views one fftbCmdBloom blooms (FftbBloomPlanCreateInfo::viewCount): stereo eyes, split-screen players, the six
 *  faces of a cube map. */
#define FFTB_MAX_VIEWS 8u

/** Result codes: 0 on success, one negative value per cause. Like Vulkan's, every enum ends with a _MAX_ENUM entry
 *  that makes it 32 bits wide, so any int32 stored in an enum field is a value of its type (and unknown ones are
 *  refused, not undefined behaviour). */
typedef enum FftbResult
{
    FFTB_SUCCESS = 0,
    FFTB_INCOMPLETE = 1,              /**< success, but an array was too small for every entry (as VK_INCOMPLETE) */
    FFTB_ERROR_INVALID_ARGUMENT = -1, /**< a null pointer, wrong sType, or a field out of its documented range */
    FFTB_ERROR_UNSUPPORTED = -2,      /**< the device lacks a required feature or format support */
    FFTB_ERROR_DEVICE_LIMIT = -3,     /**< the request exceeds a limit: FFT length, extents given at creation */
    FFTB_ERROR_OUT_OF_HOST_MEMORY = -4,
    FFTB_ERROR_OUT_OF_DEVICE_MEMORY = -5,
    FFTB_ERROR_VULKAN = -6,           /**< a Vulkan call failed; the message callback names it and its VkResult */
    FFTB_RESULT_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbResult;

/** The ABI of this header, carried by every structure type (FFTB_STRUCTURE_TYPE_*: FFTB_ABI * 0x10000 + n). Raised
 *  whenever a structure's layout or an enum's values change, so that a program built against an older header is
 *  refused at its first call (FFTB_ERROR_INVALID_ARGUMENT, the message naming the rebuild) instead of being misread.
 *  ABI 1: fftbloom 0.6.0 and earlier (structure types 1 .. 17). */
#define FFTB_ABI 2

typedef enum FftbStructureType
{
    FFTB_STRUCTURE_TYPE_CONTEXT_CREATE_INFO = FFTB_ABI * 0x10000 + 1,
    FFTB_STRUCTURE_TYPE_KERNEL_INFO = FFTB_ABI * 0x10000 + 2,
    FFTB_STRUCTURE_TYPE_BLOOM_INFO = FFTB_ABI * 0x10000 + 3,
    FFTB_STRUCTURE_TYPE_TIMESTAMP_INFO = FFTB_ABI * 0x10000 + 4,
    FFTB_STRUCTURE_TYPE_PLANNER_INFO = FFTB_ABI * 0x10000 + 5,
    FFTB_STRUCTURE_TYPE_DEVICE_FEATURES_INFO = FFTB_ABI * 0x10000 + 6,
    FFTB_STRUCTURE_TYPE_SCRATCH_INFO = FFTB_ABI * 0x10000 + 7,
    FFTB_STRUCTURE_TYPE_RESIZE_INFO = FFTB_ABI * 0x10000 + 8,
    FFTB_STRUCTURE_TYPE_IMAGE_BARRIER_INFO = FFTB_ABI * 0x10000 + 9,
    FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS = FFTB_ABI * 0x10000 + 10,
    FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION = FFTB_ABI * 0x10000 + 11,
    FFTB_STRUCTURE_TYPE_PASS_STATISTIC = FFTB_ABI * 0x10000 + 12,
    FFTB_STRUCTURE_TYPE_APERTURE_INFO = FFTB_ABI * 0x10000 + 13,
    FFTB_STRUCTURE_TYPE_MULTI_VIEW_INFO = FFTB_ABI * 0x10000 + 14,
    FFTB_STRUCTURE_TYPE_BLOOM_PLAN_CREATE_INFO = FFTB_ABI * 0x10000 + 15,
    FFTB_STRUCTURE_TYPE_KERNEL_GENERATOR_INFO = FFTB_ABI * 0x10000 + 16,
    FFTB_STRUCTURE_TYPE_BUFFER_ALLOCATOR_INFO = FFTB_ABI * 0x10000 + 17,
    FFTB_STRUCTURE_TYPE_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbStructureType;

/** How texels outside the frame are supplied to the convolution, and what the bloom does at the frame's edges.
 *  A flat frame's bloom is flat with FFTB_PADDING_ZERO_NORMALIZED and FFTB_PADDING_MIRROR; with FFTB_PADDING_ZERO
 *  it falls towards the edges (to 1/2 of the centre at an edge and 1/4 at a corner for a point-symmetric kernel). */
typedef enum FftbPadding
{
    /** Zero padding, the bloom divided by the kernel's mass inside the frame (normalized convolution; Knutsson &
     *  Westin 1993, "Normalized and Differential Convolution"): bloom(p) / max(w(p), 1/16) per channel, w(p) the
     *  bloom of a frame of ones, (1 - t) w0(p) + t with delta sharpening t, so w = 1 wherever the kernel lies inside
     *  the frame. A light near an edge keeps the glow that would have spread past it, added to what stays inside
     *  (at most 16x: the floor of 1/16). The weights w0 are computed once per extent, kernel and kernel scale,
     *  3 extra passes (FftbBloomPlanDescription::borderWeightPassCount), and kept by the plan:
     *  FftbBloomPlanDescription::borderWeightBytes. Pass 3 reads 12 bytes more per texel. The default. */
    FFTB_PADDING_ZERO_NORMALIZED = 0,
    /** Black: the light that spreads past the edges is lost, and the bloom darkens towards them (a vignette). */
    FFTB_PADDING_ZERO = 1,
    /** The frame reflected with the edge texel repeated (GL_MIRRORED_REPEAT): a light near an edge gets a mirror
     *  image beyond it, whose glow spreads back into the frame. The padding is K - 1 instead of K / 2 per axis:
     *  longer FFTs (fftbDescribeBloomPlan). */
    FFTB_PADDING_MIRROR = 2,
    FFTB_PADDING_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbPadding;

/** Which axis the real-packed first pass transforms. */
typedef enum FftbAxisOrder
{
    FFTB_AXIS_ORDER_AUTO = 0, /**< the cheaper order by a cost model over line counts and FFT lengths */
    FFTB_AXIS_ORDER_X_FIRST = 1,
    FFTB_AXIS_ORDER_Y_FIRST = 2,
    FFTB_AXIS_ORDER_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbAxisOrder;

/** How the kernel spectrum is matched to the frame's padded extent. */
typedef enum FftbSpectrumMode
{
    /** The kernel, scaled in space to its extent on the frame when it has a kernel span or the bloom is at half
     *  resolution, zero-padded to the frame's padded extent and transformed once per kernel and plan (when the
     *  kernel, the extent, the axis order or the kernel scale changes): the output is the linear convolution to fp32
     *  accuracy. The scale is linear interpolation of the kernel's texels when magnified and linear splatting when
     *  minified, each texel's mass kept (docs/kernels.md, "Kernel scale"): no negative texels, no ringing. The
     *  default. */
    FFTB_SPECTRUM_MODE_EXACT = 0,
    /** One spectrum of the kernel, S = FftbKernelInfo::spectrumOversampling * pow2ceil(K) bins per axis, read at
     *  frequency * S / N as FftbKernelInfo::interpolation says ("FFT Bloom Optimized to the Bone", "Spectral
     * resampling", with the gridding of the non-uniform FFT). Each plan's frequencies are interpolated from it once,
     * when the kernel, the plan's padded extent or kernel scale changes, and pass 2 then reads them as the exact
     * mode's (docs/kernels.md, "Cost"). With the default ES interpolation and oversampling 2 the bloom is within 1e-6
     * of its peak of the exact mode's at the kernel's own scale; scaled (sigma != 1, half resolution) its spectrum is
     * cut at the kernel's or the frame's Nyquist and rings (about 1 % of the peak below zero beside a point light);
     * cubic and linear interpolation dim the kernel's outer part and let faint copies of it in from +-S
     * (docs/kernels.md, "Spectrum resampling"). */
    FFTB_SPECTRUM_MODE_RESAMPLED = 1,
    FFTB_SPECTRUM_MODE_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbSpectrumMode;

/** How FFTB_SPECTRUM_MODE_RESAMPLED interpolates the stored kernel spectrum X[i, j] at a frame frequency (u, v)
 *  = (k1 * S1 / N1, k2 * S2 / N2): value = sum over i, j of X[i, j] w(u - i) w(v - j) over W x W taps, X periodic
 *  in S and Hermitian. docs/kernels.md, "Spectrum resampling", has the measured error of each against the exact
 *  mode. */
typedef enum FftbSpectrumInterpolation
{
    /** The "exponential of semicircle" window of the non-uniform FFT (Barnett, Magland & af Klinteberg 2019,
     *  "A parallel non-uniform fast Fourier transform library based on an 'exponential of semicircle' kernel",
     *  SIAM J. Sci. Comput. 41(5)): w(t) = exp(beta (sqrt(1 - (2t / W)^2) - 1)) for |t| < W / 2, 0 beyond, with
     *  beta = 0.97 pi (1 - 1 / (2 sigma)) W for oversampling sigma (2.30 W at 2), W taps per axis
     *  (FftbKernelInfo::interpolationWidth, default 8). The kernel is divided by w's Fourier transform before its
     *  FFT (deapodization; Jackson et al. 1991, IEEE TMI 10(3)), so the interpolation evaluates the kernel's own
     *  spectrum; with oversampling 2 the kernel's copies at +-S pass with at most 4.2e-7 of the weight of its edge
     *  at W = 8 (3.0e-6 at 7, 2.0e-5 at 6). The default. */
    FFTB_SPECTRUM_INTERPOLATION_ES = 0,
    /** Cubic convolution (Keys 1981, "Cubic convolution interpolation for digital image processing", IEEE
     *  Trans. ASSP 29(6), a = -1/2), 4 x 4 taps: w(t) = 3/2 |t|^3 - 5/2 |t|^2 + 1 for |t| <= 1,
     *  -1/2 |t|^3 + 5/2 |t|^2 - 4 |t| + 2 for 1 < |t| < 2, 0 beyond. Its transform is flatter over the kernel than
     *  the tent's sinc^2 (0.94 against 0.81 at S / 4 from the centre) and smaller over most of the periodic
     *  copies: on the sample photographs the largest error against the exact mode is 3 to 8 times smaller. No
     *  deapodization. */
    FFTB_SPECTRUM_INTERPOLATION_CUBIC = 1,
    /** Bilinear, 2 x 2 taps: w(t) = 1 - |t| for |t| <= 1, 0 beyond (the tent of "FFT Bloom Optimized to the Bone"); its
     * transform is sinc^2(x / S). Four times fewer spectrum reads than cubic. */
    FFTB_SPECTRUM_INTERPOLATION_LINEAR = 2,
    FFTB_SPECTRUM_INTERPOLATION_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbSpectrumInterpolation;

typedef enum FftbOutputMode
{
    /** Energy-conserving composite, out.rgb = in.rgb + intensity * (bloom(p) - p): the prefiltered light p is taken
     *  out and, with weight intensity, its scattered version put back (as Unreal Engine 5's convolution bloom keeps
     *  the kernel's centre energy in place and spreads only the scatter). With a unit-sum kernel the frame's total
     *  light is unchanged, up to what spreads past the edges with FFTB_PADDING_ZERO; the kernel's centre weight keeps
     *  its share of p where it was. Without a prefilter, in + intensity * (bloom - in). The default (0). */
    FFTB_OUTPUT_MODE_COMPOSITE = 0,
    /** out.rgb = bloom(p): the convolution of the prefiltered frame p = prefilter(in.rgb) (FftbBloomInfo). */
    FFTB_OUTPUT_MODE_BLOOM = 1,
    /** Additive composite, out.rgb = in.rgb + intensity * bloom(p): adds light, as most engine bloom does. */
    FFTB_OUTPUT_MODE_ADDITIVE = 2,
    FFTB_OUTPUT_MODE_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbOutputMode;

/** The unit of FftbBloomPlanCreateInfo::kernelSpan: how large the kernel appears on the frame (its span),
 * independent of its resolution (its texel count). Whatever the unit, the kernel k of Kw x Kh texels is scaled
 * isotropically about its centre texel by sigma = span / max(Kw, Kh), span being the frame pixels its larger extent
 * covers: k_sigma(x) = k(x / sigma) / sigma^2, which keeps its energy (unit sum) and has the spectrum K(sigma f) (the
 *  Fourier transform's similarity theorem). docs/kernels.md, "Kernel scale", has the details. */
typedef enum FftbKernelSpanUnit
{
    /** One kernel texel per frame pixel (sigma = 1); FftbBloomPlanCreateInfo::kernelSpan is not read. The default. */
    FFTB_KERNEL_SPAN_NATIVE = 0,
    /** The kernel's larger extent max(Kw, Kh) spans kernelSpan frame pixels: span = kernelSpan. */
    FFTB_KERNEL_SPAN_PIXELS = 1,
    /** The kernel's larger extent spans a fraction kernelSpan of the frame's diagonal:
     *  span = kernelSpan * sqrt(width^2 + height^2), width and height those of FftbBloomPlanCreateInfo. The bloom then
     * looks the same, relative to the frame, at every resolution (720p and 4K). */
    FFTB_KERNEL_SPAN_FRAME_DIAGONAL = 2,
    FFTB_KERNEL_SPAN_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbKernelSpanUnit;

/** How the passes store the frame's spectrum between them (the scratch, FftbBloomPlanDescription::scratchBytes). The
 *  arithmetic is fp32 in every mode; only the stored values are rounded. docs/kernels.md, "Storage precision", has
 *  the measured error and speed of each. */
typedef enum FftbStoragePrecision
{
    /** Complex fp32, 8 bytes per stored bin: within 1e-5 of a double-precision reference, relative to the bloom's
     *  peak. The default. */
    FFTB_STORAGE_PRECISION_FLOAT32 = 0,
    /** Complex fp16, 4 bytes per stored bin: half the scratch traffic (3-9 % faster on an H200). Pass 1 stores its
     *  half spectra divided by the padded length N1, so a prefiltered frame within fp16's range (|value| <= 65504)
     *  stays within it; stored values past it saturate at +-65504. Each stored bin is rounded to 11 significant bits:
     *  within 4e-4 of the peak on ordinary HDR frames, but the rounding spreads over whole lines in proportion to
     *  their brightest light, so beside a sun at 65504 the error in dim regions far from it is as large as their value
     *  on average and up to 30 times it. Use it with a prefilter clamp (FftbBloomInfo::prefilterClamp; at 64 the dim
     *  regions' error is about 0.08 % RMS, within 3 %) or on frames without extreme highlights. */
    FFTB_STORAGE_PRECISION_FLOAT16 = 1,
    FFTB_STORAGE_PRECISION_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbStoragePrecision;

/** The resolution the bloom is convolved at (Unreal's "Convolution Buffer" scale). docs/integration.md,
 *  "Half-resolution bloom", has the measured error and speed. */
typedef enum FftbBloomResolution
{
    /** The frame as it is. The default. */
    FFTB_BLOOM_RESOLUTION_FULL = 0,
    /** The frame downsampled 2x per axis, ceil(width / 2) x ceil(height / 2) texels, each the mean of the prefiltered
     *  2 x 2 frame texels it covers (pass 1 reads them), is convolved with the kernel at half its extent in frame
     *  pixels (FftbSpectrumMode says how each mode scales it); a fourth pass
     *  upsamples the bloom bilinearly (texel centres aligned) and writes the output. A quarter of the FFT work:
     *  1.8-2.7x faster than full resolution with zero padding on an NVIDIA H100 (1920x1080 to 3840x2160). The bloom
     *  loses detail finer than 2 frame pixels: the kernel's sharp core and the shape of small highlights (against
     *  full resolution on a photograph, 1e-1 of the peak at most, 2e-3 RMS). */
    FFTB_BLOOM_RESOLUTION_HALF = 1,
    FFTB_BLOOM_RESOLUTION_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbBloomResolution;

/** Receives a readable reason for every failure: the field at fault, or the vk* call and its VkResult
 *  (VK_SUCCESS when no Vulkan call failed). `message` lives only for the call. */
typedef void (*PFN_fftbMessageCallback)(FftbResult result, VkResult vkResult, const char* message, void* userData);

/** Device-lifetime objects: the pipeline layouts, the compiled pipelines its plans share, the twiddle table and the
 *  scratch for its maximum extents. Externally synchronized, like a VkCommandPool: calls on one context or its plans
 *  must not overlap, except fftbCreateBloomPlan and fftbCreateKernel (which see); calls on different contexts may. */
typedef struct FftbContext_T* FftbContext;
/** A kernel (point spread function) and its spectra, usable by every context of the device it was created on, at
 *  once. Internally synchronized: fftbCmdBloom may use one kernel from several threads with different contexts. */
typedef struct FftbKernel_T* FftbKernel;
/** Everything fixed for a run of blooms, made ahead as a VkPipeline is: the frame's extent and views, padding, axis
 *  order, storage precision, resolution, kernel and kernel scale, resolved into the passes' pipelines (compiled when
 *  the plan is made), push constants, workgroup grids and buffers. Recording with it only replays that. Belongs to the
 *  context it was made with (externally synchronized with it); uses its kernel, which must outlive it. */
typedef struct FftbBloomPlan_T* FftbBloomPlan;

/** Device-lifetime settings. The device must be Vulkan 1.1 or newer, created with the
 *  shaderStorageImageWriteWithoutFormat feature and the VK_KHR_push_descriptor extension enabled (every pass pushes
 *  its descriptors into the command buffer: 23 at most, within the 32 maxPushDescriptors every device has);
 *  fftbCreateContext returns FFTB_ERROR_UNSUPPORTED naming what is missing. */
typedef struct FftbContextCreateInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_CONTEXT_CREATE_INFO */
    /** NULL, or a chain of FftbPlannerInfo, FftbDeviceFeaturesInfo, FftbScratchInfo, FftbBufferAllocatorInfo */
    const void* pNext;
    VkInstance instance;
    VkPhysicalDevice physicalDevice;
    VkDevice device;
    PFN_vkGetInstanceProcAddr getInstanceProcAddr; /**< the loader the engine uses (volk, its own, or Vulkan's) */
    PFN_vkGetDeviceProcAddr getDeviceProcAddr;
    /** Optional; copied, and used for every Vulkan object the context and its kernels create and destroy. */
    const VkAllocationCallbacks* allocator;
    uint32_t maxWidth;  /**< largest frame width in texels of a plan (FftbBloomPlanCreateInfo::width), >= 1 */
    uint32_t maxHeight; /**< largest frame height in texels, >= 1 */
    /** The largest kernel resolution: the texels of a kernel passed to fftbCreateKernel (FftbKernelInfo::width),
     *  1 .. FFTB_MAX_KERNEL_LENGTH. The scratch holds such a kernel's first-axis transform while its spectrum is made.
     */
    uint32_t maxKernelResolutionWidth;
    uint32_t maxKernelResolutionHeight; /**< texels (FftbKernelInfo::height), 1 .. FFTB_MAX_KERNEL_LENGTH */
    /** The largest kernel extent: the frame pixels a kernel covers (its resolution at FFTB_KERNEL_SPAN_NATIVE,
     *  ceil(sigma K) scaled: FftbBloomPlanCreateInfo::kernelSpan, fftbGetKernelExtent), 1 .. FFTB_MAX_KERNEL_LENGTH;
     * 0: the maximum resolution's. The frame's padding, so the scratch, is sized for it. */
    uint32_t maxKernelExtentWidth;
    uint32_t maxKernelExtentHeight;          /**< pixels, likewise; 0: maxKernelResolutionHeight */
    PFN_fftbMessageCallback messageCallback; /**< optional */
    void* messageUserData;
    /** Optional: every pipeline the context compiles goes through this cache (the engine's, saved between runs with
     *  vkGetPipelineCacheData), so a second run compiles from it. Used from several threads at once when plans are made
     *  on several threads: not created with VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT. */
    VkPipelineCache pipelineCache;
    /** The most views one plan blooms together (FftbBloomPlanCreateInfo::viewCount), 0 .. FFTB_MAX_VIEWS; 0 means
     *  1. The scratch holds this many frames' spectra (FftbMemoryRequirements::scratchBytes grows about linearly). */
    uint32_t maxViews;
} FftbContextCreateInfo;

/** Which FFT lengths the planner may pad a frame to. */
typedef enum FftbLengthPolicy
{
    FFTB_LENGTH_POLICY_MIXED_RADIX = 0,      /**< 2^a 3^b 5^c 7^d, the cheapest by the planner's cost model (default) */
    FFTB_LENGTH_POLICY_POWER_OF_TWO = 1,     /**< powers of two only (radix 8, 4, 2), the padding of the article
                                              *  "FFT Bloom Optimized to the Bone": up to twice the work; for
                                              *  comparison */
    FFTB_LENGTH_POLICY_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbLengthPolicy;

/** Planner options, chained to FftbContextCreateInfo::pNext. Without it: FFTB_LENGTH_POLICY_MIXED_RADIX. */
typedef struct FftbPlannerInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_PLANNER_INFO */
    const void* pNext;       /**< NULL */
    FftbLengthPolicy lengthPolicy;
} FftbPlannerInfo;

/** What the device and instance were created with, chained to FftbContextCreateInfo::pNext: the plugin cannot query
 *  enabled features, so it uses these only when told. Without it, both are VK_FALSE. */
typedef struct FftbDeviceFeaturesInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_DEVICE_FEATURES_INFO */
    const void* pNext;       /**< NULL */
    /** The device enabled synchronization2 (Vulkan 1.3, or VK_KHR_synchronization2): the barriers of an
     *  FftbImageBarrierInfo are recorded with vkCmdPipelineBarrier2 and take any stage and access flag. Otherwise
     *  they are recorded with vkCmdPipelineBarrier, the flags past bit 31 mapped to their Vulkan 1.0 equivalents
     *  (copy, blit, resolve and clear stages to TRANSFER; sampled and storage reads to SHADER_READ; storage writes to
     *  SHADER_WRITE; any other to ALL_COMMANDS or MEMORY_READ / MEMORY_WRITE). */
    VkBool32 synchronization2;
    /** The instance enabled VK_EXT_debug_utils: every pass is recorded inside a vkCmdBeginDebugUtilsLabelEXT /
     *  vkCmdEndDebugUtilsLabelEXT pair, and every buffer, memory and pipeline the plugin makes is named
     *  (vkSetDebugUtilsObjectNameEXT), "fftbloom: ..." (shown by RenderDoc, Nsight, the validation layer). */
    VkBool32 debugUtils;
    /** The device enabled VK_KHR_pipeline_executable_properties with its pipelineExecutableInfo feature: the context
     *  creates its pipelines with VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR, and fftbGetPassStatistics reports
     *  what the driver compiled (for profiling; it may slow pipeline creation). */
    VkBool32 pipelineExecutableInfo;
} FftbDeviceFeaturesInfo;

/** Makes one buffer of the plugin's in the engine's memory: a VkBuffer of at least `size` bytes created with (at least)
 *  `usage` and bound to memory, device-local or, with `hostVisible`, host-visible and host-coherent and mapped at
 *  `*mapped` (its first byte; left untouched otherwise). Host-visible buffers (the twiddle tables, kernel texels) are
 *  written once and read by every bloom: without this callback the plugin puts them in memory that is also
 *  device-local where the device has such a type (resizable BAR), which made a 1080p bloom 4 % faster on an H200. Returns VK_SUCCESS, or the VkResult of the failure
 *  (VK_ERROR_OUT_OF_DEVICE_MEMORY, ...), returned by the plugin as FFTB_ERROR_OUT_OF_*_MEMORY or FFTB_ERROR_VULKAN. */
typedef VkResult (*PFN_fftbAllocateBuffer)(void* userData, VkDeviceSize size, VkBufferUsageFlags usage,
                                           VkBool32 hostVisible, VkBuffer* buffer, void** mapped);
/** Releases a buffer `allocate` made, once no command buffer that uses it is pending. */
typedef void (*PFN_fftbFreeBuffer)(void* userData, VkBuffer buffer);

/** The engine's allocator, chained to FftbContextCreateInfo::pNext: every buffer the context, its kernels and plans
 *  keep (the scratch unless an FftbScratchInfo supplies it, the twiddle table, kernel texels and spectra, border
 *  weights, a generated kernel's buffers; FftbMemoryRequirements lists them) is made by `allocate` and released by
 *  `free`, so that the engine places it (sub-allocation, budgets, residency). Without it the plugin creates each with
 *  vkCreateBuffer and vkAllocateMemory of its own. The callbacks are called from the calls that create those objects
 *  (fftbCreateContext, fftbResizeContext, fftbCreateKernel, fftbCreateBloomPlan) and from the destroy calls; never
 *  while recording. */
typedef struct FftbBufferAllocatorInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_BUFFER_ALLOCATOR_INFO */
    const void* pNext;       /**< NULL */
    PFN_fftbAllocateBuffer allocate;
    PFN_fftbFreeBuffer free;
    void* userData; /**< passed to both */
} FftbBufferAllocatorInfo;

/** Scratch supplied by the engine, chained to FftbContextCreateInfo::pNext or FftbResizeInfo::pNext: the context
 *  then allocates no scratch of its own. The scratch is transient: its contents are undefined before and after
 *  each fftbCmdBloom (FftbBloomPlanDescription gives the bytes and the stage/access that use it), so a render graph may
 *  alias its memory with other transient resources, ordering their use around fftbCmdBloom with its own barriers. */
typedef struct FftbScratchInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_SCRATCH_INFO */
    const void* pNext;       /**< NULL */
    /** Created with VK_BUFFER_USAGE_STORAGE_BUFFER_BIT and bound to memory (device-local for speed); owned by the
     *  caller, who keeps it alive while the context may use it: until fftbDestroyContext, or until an
     *  fftbResizeContext that succeeds replaces it. */
    VkBuffer buffer;
    VkDeviceSize offset; /**< a multiple of the device's minStorageBufferOffsetAlignment */
    /** >= FftbMemoryRequirements::scratchBytes of the context's maximum extents, and <= maxStorageBufferRange. */
    VkDeviceSize size;
} FftbScratchInfo;

/** New maximum extents for fftbResizeContext. */
typedef struct FftbResizeInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_RESIZE_INFO */
    const void* pNext;       /**< NULL or an FftbScratchInfo */
    uint32_t maxWidth;       /**< as in FftbContextCreateInfo */
    uint32_t maxHeight;
    uint32_t maxKernelResolutionWidth;
    uint32_t maxKernelResolutionHeight;
    uint32_t maxKernelExtentWidth; /**< as in FftbContextCreateInfo: 0 is the maximum resolution's */
    uint32_t maxKernelExtentHeight;
    uint32_t maxViews; /**< as in FftbContextCreateInfo: 0 means 1 */
} FftbResizeInfo;

/** The memory a context of given maximum extents needs, from fftbGetMemoryRequirements. Bytes, before the
 *  device's size and alignment rounding. */
typedef struct FftbMemoryRequirements
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS */
    void* pNext;             /**< NULL */
    /** Device-local storage buffer per context, the frame's half spectrum, once per view (maxViews): 3 (N1/2 + 1) L2
     *  x 8 bytes a view at worst over padding and axis order (N a padded FFT length, L an image length, 1 the first
     *  axis). Allocated by the context, or supplied in an FftbScratchInfo. It holds every scaled kernel too
     *  (FftbBloomPlanCreateInfo::kernelSpan): their extent on the frame may not exceed maxKernelExtentWidth x
     *  maxKernelExtentHeight. */
    VkDeviceSize scratchBytes;
    /** Device-local, per kernel of the maximum kernel resolution and per spectrum its live plans read (padded extent,
     *  kernel scale, axis order; plans alike share one), exact mode: at most the spectrum at the padded extent of the
     *  maximum frame, 3 (N1/2 + 1) N2 x 8 bytes, each channel's third rounded up
     *  to 256 bytes (the channels are bound as three ranges: maxStorageBufferRange bounds one channel's, not the
     *  whole). */
    VkDeviceSize exactSpectrumBytes;
    /** The same in resampled mode: the spectrum at 2 pow2ceil(K) per axis (the default and largest
     *  FftbKernelInfo::spectrumOversampling), 3 (S1/2 + 1) S2 x 8 bytes, then that spectrum resolved at the padded
     *  extent of the maximum frame with the maximum kernel extent, 3 (N1/2 + 1) N2 x 8 bytes (interpolated once per
     *  kernel, plan extent and kernel scale, so pass 2 multiplies as in exact mode); per channel, the stored part
     *  then the resolved one, rounded up to 256 bytes. */
    VkDeviceSize resampledSpectrumBytes;
    /** Host-visible, per kernel of the maximum kernel resolution: its texels, planar RGB fp32. */
    VkDeviceSize kernelTexelBytes;
    /** Host-visible, per context: every FFT length's twiddle table. */
    VkDeviceSize twiddleBytes;
    /** Device-local, per plan with FFTB_PADDING_ZERO_NORMALIZED, allocated by fftbCreateBloomPlan: the border weights
     *  of its frame, at most 3 maxWidth maxHeight x 4 bytes (FftbBloomPlanDescription::borderWeightBytes). */
    VkDeviceSize borderWeightBytes;
    /** Device-local, per kernel made with an FftbKernelGeneratorInfo, at the largest generated size the maximum kernel
     *  resolution allows (K x K, K the largest power of two in 64 .. 2048 it holds; 0 when it holds none): the
     *  generator's buffer and the generated texels, 3 K^2 x 4 bytes. */
    VkDeviceSize generatorBytes;
} FftbMemoryRequirements;

/** A kernel: the point spread function, for fftbCreateKernel. */
typedef struct FftbKernelInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_KERNEL_INFO */
    const void* pNext;       /**< NULL, or an FftbKernelGeneratorInfo */
    uint32_t width;          /**< the kernel's resolution in texels, 1 .. maxKernelResolutionWidth */
    uint32_t height;         /**< texels, 1 .. maxKernelResolutionHeight */
    /** width * height RGB texels, interleaved floats, row-major, (0, 0) at the top left, x right, y down.
     *  Texel (width / 2, height / 2) (integer division) is the kernel's centre. Each channel is normalized
     *  to unit sum (so a kernel keeps the frame's luminance); values must be finite and >= 0 with a positive
     *  sum per channel. Copied during the call. */
    const float* texels;
    /** Default (0) FFTB_SPECTRUM_MODE_EXACT. Either mode keeps one spectrum per padded extent, kernel scale and axis
     *  order its live plans read, allocated by the first such plan (fftbCreateBloomPlan). */
    FftbSpectrumMode spectrumMode;
    /** Used in FFTB_SPECTRUM_MODE_RESAMPLED only; default FFTB_SPECTRUM_INTERPOLATION_ES. An unknown value
     *  returns FFTB_ERROR_INVALID_ARGUMENT. */
    FftbSpectrumInterpolation interpolation;
    /** Taps per axis W of the interpolation, resampled mode only: 2 .. 8 for ES, 4 for cubic, 2 for linear; 0 picks
     *  those (8 for ES). Others return FFTB_ERROR_INVALID_ARGUMENT. Pass 2 reads W x W spectrum values per frequency
     *  bin, W of them from shared memory when the spectrum's row fits there (docs/kernels.md, "Cost"). */
    uint32_t interpolationWidth;
    /** Resampled mode only: the spectrum is stored at S = spectrumOversampling * pow2ceil(K) bins per axis, 1 or 2;
     *  0 picks 2. Its memory is 3 (S1 / 2 + 1) S2 x 8 bytes: 3.0 MiB for a 256 x 256 kernel at 2, 0.76 MiB at 1,
     *  48 MiB for 1024 x 1024 at 2.
     *  Others return FFTB_ERROR_INVALID_ARGUMENT. */
    uint32_t spectrumOversampling;
    /** Turns the kernel by this many degrees, counter-clockwise on the frame (x right, y down), about the point that
     *  falls on the light; any finite value, default 0. The texels are resampled with Keys' cubic into the same
     *  width x height (a multiple of 90 degrees with a centre offset of whole texels moves them exactly); light
     *  turned outside them, past the inscribed circle's reach, is dropped. FFTB_ERROR_INVALID_ARGUMENT if not
     *  finite. */
    float rotationDegrees;
    /** The point of the kernel that falls on the light, from its centre texel (width / 2, height / 2), in fractions
     *  of its width and height (u right, v down): Unreal Engine's Convolution Bloom "Center UV" minus 0.5. Each in
     *  [-1, 1], default 0; FFTB_ERROR_INVALID_ARGUMENT otherwise, or when it moves all of a channel's light out of
     *  the kernel. The kernel is resampled as for rotationDegrees, then normalized. */
    float centreOffsetU;
    float centreOffsetV;
} FftbKernelInfo;

/** Plan-lifetime settings: what fftbCreateBloomPlan resolves once. */
typedef struct FftbBloomPlanCreateInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_BLOOM_PLAN_CREATE_INFO */
    const void* pNext;       /**< NULL */
    /** The kernel to convolve with, from fftbCreateKernel on a context of this device; its resolution no larger than
     *  this context's maxKernelResolutionWidth x maxKernelResolutionHeight. It must outlive the plan. */
    FftbKernel kernel;
    uint32_t width;  /**< frame extent in texels, 1 .. maxWidth; the views of every bloom must be at least this large */
    uint32_t height; /**< 1 .. maxHeight */
    /** Views bloomed by each fftbCmdBloom, 0 .. the context's maxViews; 0 means 1. With 2 or more, each bloom gives
     *  its views in an FftbMultiViewInfo of exactly this viewCount (FFTB_ERROR_DEVICE_LIMIT past maxViews, and so
     *  past FFTB_MAX_VIEWS). */
    uint32_t viewCount;
    /** The layout the passes read the frame in: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL or VK_IMAGE_LAYOUT_GENERAL
     *  (FftbBloomPlanDescription::input). */
    VkImageLayout inputLayout;
    FftbPadding padding;     /**< default FFTB_PADDING_ZERO_NORMALIZED */
    FftbAxisOrder axisOrder; /**< default FFTB_AXIS_ORDER_AUTO */
    /** How the frame's spectrum is stored between the passes; default FFTB_STORAGE_PRECISION_FLOAT32. */
    FftbStoragePrecision storagePrecision;
    /** Default (0) FFTB_BLOOM_RESOLUTION_FULL. */
    FftbBloomResolution resolution;
    /** The unit of kernelSpan; default FFTB_KERNEL_SPAN_NATIVE: one kernel texel per frame pixel. Any other unit
     *  scales the kernel by sigma. FFTB_SPECTRUM_MODE_EXACT (the default) resamples the kernel's texels in space to
     *  its extent on the frame before its transform (FftbSpectrumMode). FFTB_SPECTRUM_MODE_RESAMPLED reads its
     *  stored spectrum at sigma * k * S / N instead of k * S / N (k the frame frequency, N the padded length, S the
     *  spectrum's extent), and frequencies past its Nyquist, |sigma * k * S / N| > S / 2 (only when sigma > 1), are
     *  zero: that hard cut rings. Either costs nothing in the passes; the padding grows with the kernel's extent on
     *  the frame (see kernelSpan). */
    FftbKernelSpanUnit kernelSpanUnit;
    /** How large the kernel appears, in kernelSpanUnit: frame pixels (FFTB_KERNEL_SPAN_PIXELS) or a fraction of the
     *  frame's diagonal (FFTB_KERNEL_SPAN_FRAME_DIAGONAL) spanned by the kernel's larger extent; the scale factor is
     *  sigma = span / max(Kw, Kh) (FftbKernelSpanUnit). Not read with FFTB_KERNEL_SPAN_NATIVE (default 0).
     *  Otherwise finite and > 0, else FFTB_ERROR_INVALID_ARGUMENT. The frame is padded for the kernel's extent on the
     *  frame, ceil(sigma * Kw) x ceil(sigma * Kh) pixels (ceil(span) along the larger axis; fftbGetKernelExtent), as
     *  for a kernel of that resolution; it must not exceed the context's maxKernelExtentWidth x maxKernelExtentHeight,
     *  which bound the memory the context allocates, else FFTB_ERROR_DEVICE_LIMIT; nor may the padding need an FFT
     *  longer than FFTB_MAX_FFT_LENGTH (FFTB_ERROR_DEVICE_LIMIT). fftbDescribeBloomPlan reports the kernel's extent and
     *  the padded extents. */
    float kernelSpan;
} FftbBloomPlanCreateInfo;

/** Frame-lifetime settings of one fftbCmdBloom: the images and the values that change nothing but push constants. */
typedef struct FftbBloomInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_BLOOM_INFO */
    const void* pNext;       /**< NULL, or a chain of FftbTimestampInfo, FftbImageBarrierInfo, FftbMultiViewInfo */
    /** The HDR frame, any format with VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT, read with texelFetch (no filtering).
     *  The passes read it in the plan's inputLayout (FftbBloomPlanCreateInfo). Without an FftbImageBarrierInfo it must
     *  be in that layout on entry, its writes visible to VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT /
     *  VK_ACCESS_SHADER_READ_BIT. VK_NULL_HANDLE with an FftbMultiViewInfo. */
    VkImageView inputView;
    /** The result, a 2D view of a format with VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT (e.g. RGBA16F, RGBA32F),
     *  written in VK_IMAGE_LAYOUT_GENERAL: texels [0, width) x [0, height) of the plan by
     *  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT / VK_ACCESS_SHADER_WRITE_BIT. Without an FftbImageBarrierInfo it must be in
     *  that layout on entry and the caller places the barrier after. It may not alias the input (the same handle as
     *  inputView is FFTB_ERROR_INVALID_ARGUMENT; two views of one image are the caller's to avoid). VK_NULL_HANDLE with an
     *  FftbMultiViewInfo. */
    VkImageView outputView;
    /** The extents of the input's and the output's views (their images' at the views' base mip level; with an
     *  FftbMultiViewInfo, the smallest of its views'), each at least the plan's width x height: a smaller one, or
     *  0 x 0, is FFTB_ERROR_INVALID_ARGUMENT. The plugin cannot query a view's extent: it checks these, not that they
     *  are the views'. */
    VkExtent2D inputExtent;
    VkExtent2D outputExtent;
    FftbOutputMode outputMode; /**< default (0) FFTB_OUTPUT_MODE_COMPOSITE */
    /** The bloom's weight in FFTB_OUTPUT_MODE_COMPOSITE and FFTB_OUTPUT_MODE_ADDITIVE: finite and >= 0 (0.25 is the
     *  CLI's and the viewer's default), else FFTB_ERROR_INVALID_ARGUMENT naming it. 0, as a zero-initialized
     *  FftbBloomInfo holds, writes the input's texels unchanged (a bloom faded out; the passes still run: skip
     *  fftbCmdBloom to save them). Not read in FFTB_OUTPUT_MODE_BLOOM. */
    float intensity;
    /** Delta sharpening t in [0, 1]: the kernel spectrum becomes (1 - t) * K + t, so t = 1 is the identity. */
    float sharpen;
    /** Prefilter threshold T, in the frame's linear values, finite, >= 0; default 0: no threshold. The bloom
     *  convolves p = prefilter(in.rgb) instead of in.rgb, a quadratic soft-knee threshold on the brightness
     *  b = max(r, g, b) (Unity PostProcessing v2 Bloom, QuadraticThreshold; after Jimenez 2014, "Next Generation Post
     *  Processing in Call of Duty: Advanced Warfare"):
     *    q = clamp(b - T + k, 0, 2k)^2 / (4k + 1e-5),  w = max(q, b - T) / max(b, 1e-5),  p = w * in.rgb
     *  so p = 0 for b <= T - k, p = in.rgb * (b - T) / b for b >= T + k, and a quadratic blend between. With T = 0
     *  the threshold is skipped: p = in.rgb exactly. FFTB_ERROR_INVALID_ARGUMENT if negative or not finite. */
    float prefilterThreshold;
    /** Prefilter soft-knee width k in [0, prefilterThreshold], in the frame's linear values; default 0: a hard
     *  threshold. FFTB_ERROR_INVALID_ARGUMENT if negative, not finite or above prefilterThreshold. */
    float prefilterKnee;
    /** Prefilter clamp C, in the frame's linear values, finite, >= 0; default 0: none. After the threshold, a texel
     *  whose max(r, g, b) exceeds C is scaled by C / max(r, g, b), so its hue is kept: one very bright texel cannot
     *  dominate the bloom. FFTB_ERROR_INVALID_ARGUMENT if negative or not finite. */
    float prefilterClamp;
    /** The bloom's colour when tintEnabled is VK_TRUE: R, G and B multipliers of bloom(p) in every output mode, each
     *  finite and >= 0, above 1 allowed, {0, 0, 0} a black bloom. In FFTB_OUTPUT_MODE_COMPOSITE,
     *  in + intensity (tint * bloom(p) - p): a tint other than white adds or takes light. FFTB_ERROR_INVALID_ARGUMENT
     *  if any is negative or not finite. Not read when tintEnabled is VK_FALSE. */
    float tint[3];
    /** VK_TRUE: the bloom is multiplied by `tint`; VK_FALSE, the zero-initialized default: no tint (white). A flag
     *  rather than a zero tint meaning white, so that every tint, black included, can be given. */
    VkBool32 tintEnabled;
} FftbBloomInfo;

/** The images' state around fftbCmdBloom, chained to FftbBloomInfo::pNext (resources passed with their state, as
 *  NVIDIA Streamline does): fftbCmdBloom then records the barriers and layout transitions itself. Flags are
 *  synchronization2 values (VkPipelineStageFlags2, VkAccessFlags2); see FftbDeviceFeaturesInfo for devices without
 *  synchronization2. One barrier before the first pass makes the input readable and the output writable; one after
 *  the last pass returns the input to `inputLayout` and moves the output to `outputNewLayout`. */
typedef struct FftbImageBarrierInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_IMAGE_BARRIER_INFO */
    const void* pNext;
    VkImage inputImage;                       /**< the image of FftbBloomInfo::inputView */
    VkImageSubresourceRange inputRange;       /**< the subresources of inputView */
    VkImageLayout inputLayout;                /**< its layout on entry, and on exit; not UNDEFINED or PREINITIALIZED */
    VkPipelineStageFlags2 inputStageMask;     /**< the stages that last wrote it */
    VkAccessFlags2 inputAccessMask;           /**< their writes */
    VkImage outputImage;                      /**< the image of FftbBloomInfo::outputView */
    VkImageSubresourceRange outputRange;      /**< the subresources of outputView */
    VkImageLayout outputOldLayout;            /**< its layout on entry; VK_IMAGE_LAYOUT_UNDEFINED discards it */
    VkPipelineStageFlags2 outputSrcStageMask; /**< the stages of its previous use */
    VkAccessFlags2 outputSrcAccessMask;       /**< their writes (reads need no access, only the stage) */
    VkImageLayout outputNewLayout;            /**< the layout to leave it in; not UNDEFINED or PREINITIALIZED */
    VkPipelineStageFlags2 outputDstStageMask; /**< the stages of its next use */
    VkAccessFlags2 outputDstAccessMask;       /**< their accesses */
    /** Async compute: the queue family that owns both images before and after the bloom (the one whose queue wrote
     *  the input and reads the output, e.g. graphics), and the family of the queue that runs the bloom's command
     *  buffer (e.g. a compute-only family). Equal (both 0 when zero-initialized), or either VK_QUEUE_FAMILY_IGNORED:
     *  no queue family ownership transfer (one queue, or images created VK_SHARING_MODE_CONCURRENT). Different, for
     *  VK_SHARING_MODE_EXCLUSIVE images: the barrier before the first pass is the acquire half of a transfer
     *  owner -> bloom family (for the output only when outputOldLayout is not UNDEFINED: discarded contents need no
     *  transfer), and the barrier after the last pass the release half bloom family -> owner. The caller records the
     *  other halves on the owner's queue with the same layouts (input: inputLayout -> the plan's inputLayout
     *  before, back after; output: outputOldLayout -> GENERAL before, GENERAL -> outputNewLayout after) and orders the
     *  submissions with semaphores. The stage and access masks of the owner's side (inputStageMask, inputAccessMask,
     *  outputSrc*, outputDst*) are then the caller's to use in its halves: the plugin's halves use none.
     *  docs/integration.md, "Async compute". */
    uint32_t ownerQueueFamilyIndex;
    uint32_t bloomQueueFamilyIndex;
} FftbImageBarrierInfo;

/** The views of a plan of several views (FftbBloomPlanCreateInfo::viewCount >= 2), chained to FftbBloomInfo::pNext:
 *  stereo eyes, split-screen players, the faces of a cube map. Every view is bloomed with the same kernel, settings,
 *  width and height, as a plan of one view would bloom it (bit for bit on lavapipe and an H100; the passes are
 *  compiled for several views, so a driver may round differently). The views share the kernel spectrum, the border
 *  weights and the interpolation's taps, and each pass transforms the lines of every view in one dispatch (a
 *  workgroup grid layer per view): three barriers in all instead of three per view. The views of an array image (a
 *  multiview render target, a cube map) are given as one VK_IMAGE_VIEW_TYPE_2D view per layer. FftbBloomInfo::inputView
 *  and outputView must then be VK_NULL_HANDLE (the views are these), and an FftbImageBarrierInfo's ranges must cover
 *  the subresources of every view (the layers of one image: its barriers are recorded once, for that image). Errors,
 *  FFTB_ERROR_INVALID_ARGUMENT naming the field: chained to a bloom of a one-view plan or missing from one of several,
 *  viewCount other than the plan's, a NULL array or view, FftbBloomInfo's inputView or outputView given as well, an
 *  output view whose handle is an input's or another output's. */
typedef struct FftbMultiViewInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_MULTI_VIEW_INFO */
    const void* pNext;       /**< NULL */
    uint32_t viewCount;      /**< the plan's viewCount */
    /** viewCount frames, as FftbBloomInfo::inputView (in the plan's inputLayout); view i is the i-th. */
    const VkImageView* pInputViews;
    /** viewCount results, as FftbBloomInfo::outputView; none may alias an input or another output. */
    const VkImageView* pOutputViews;
} FftbMultiViewInfo;

/** How fftbCmdBloom uses one resource: for a render graph's dependency tracking. Synchronization2 values. */
typedef struct FftbResourceUse
{
    VkImageLayout layout; /**< the layout the passes use it in; VK_IMAGE_LAYOUT_UNDEFINED for buffers */
    VkPipelineStageFlags2 stageMask;
    VkAccessFlags2 accessMask;
} FftbResourceUse;

/** What fftbCmdBloom with a plan does, from fftbDescribeBloomPlan: the declaration of a render-graph node. */
typedef struct FftbBloomPlanDescription
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION */
    void* pNext;             /**< NULL */
    /** The input as the passes read it: the plan's inputLayout, COMPUTE_SHADER, SHADER_SAMPLED_READ. */
    FftbResourceUse input;
    /** The output as the passes write it: GENERAL, COMPUTE_SHADER, SHADER_STORAGE_WRITE. */
    FftbResourceUse output;
    /** The scratch: COMPUTE_SHADER, SHADER_STORAGE_READ | SHADER_STORAGE_WRITE, transient (undefined before and
     *  after). `scratchBytes` of it are used at this extent and view count, from its start. */
    FftbResourceUse scratch;
    VkDeviceSize scratchBytes;
    /** The kernel's spectrum for this extent and axis order (in resampled mode the stored one and the same at this
     *  plan's frequencies), persistent in the kernel, allocated when the plan was made: written by the next bloom when
     *  `spectrumPassCount` is not 0, read by pass 2. */
    VkDeviceSize spectrumBytes;
    /** Normalized convolution's border weights (FFTB_PADDING_ZERO_NORMALIZED; else 0), persistent in the plan,
     *  allocated when it was made: 3 width height x 4 bytes. */
    VkDeviceSize borderWeightBytes;
    /** 0, or 2 (exact mode) or 3 (resampled mode: two FFTs, then the resolution at the frame's frequencies) when the
     *  next fftbCmdBloom with this plan computes the kernel spectrum first: until a command buffer that computed it
     *  (for these texels: fftbCmdGenerateKernel replaces them) executed. */
    uint32_t spectrumPassCount;
    /** 0, or 3 when the next fftbCmdBloom computes the border weights of FFTB_PADDING_ZERO_NORMALIZED first (after
     *  the kernel spectrum): until a command buffer that computed them for the kernel's texels executed. Written by
     *  these passes and read by pass 3. */
    uint32_t borderWeightPassCount;
    /** Compute passes recorded: 3 (4 at FFTB_BLOOM_RESOLUTION_HALF) + spectrumPassCount + borderWeightPassCount. */
    uint32_t passCount;
    /** The FFT lengths along x and y, padded for the kernel's extent on the frame (at FFTB_BLOOM_RESOLUTION_HALF on
     *  the downsampled frame, as are kernelExtentWidth, kernelExtentHeight and kernelScale). */
    uint32_t paddedWidth;
    uint32_t paddedHeight;
    FftbAxisOrder axisOrder; /**< the order used: FFTB_AXIS_ORDER_X_FIRST or FFTB_AXIS_ORDER_Y_FIRST */
    /** The kernel's extent on the frame in pixels, which the padding is planned for: ceil(sigma * Kw) x
     *  ceil(sigma * Kh), 1 .. maxKernelExtentWidth x maxKernelExtentHeight (as fftbGetKernelExtent); the kernel's
     * resolution Kw x Kh at FFTB_KERNEL_SPAN_NATIVE. */
    uint32_t kernelExtentWidth;
    uint32_t kernelExtentHeight;
    /** The kernel scale sigma = span / max(Kw, Kh), frame pixels per kernel texel, > 0 (FftbKernelSpanUnit); exactly
     *  1 at FFTB_KERNEL_SPAN_NATIVE. */
    double kernelScale;
    /** The planner's modelled cost of this plan, unitless and > 0: over passes 1 to 3, the FFTs' lines times a cost
     *  per FFT length (its length times the sum over its radix stages of 1 + radix / 10), plus the texels moved
     *  through the scratch. Not a time: comparable only between descriptions of one frame, e.g. with
     *  FFTB_AXIS_ORDER_X_FIRST and FFTB_AXIS_ORDER_Y_FIRST (FFTB_AXIS_ORDER_AUTO picks the smaller). */
    double modelledCost;
} FftbBloomPlanDescription;

/** Timestamps fftbCmdBloom writes when an FftbTimestampInfo is chained to FftbBloomInfo::pNext:
 *  [0] before its first command, [1] after the kernel spectrum and border weight passes (equal to [0] when both
 *  were cached),
 *  [2] after pass 1 (first-axis FFT), [3] after pass 2 (second-axis FFT, product, inverse), [4] after pass 3
 *  (first-axis inverse and composite; at FFTB_BLOOM_RESOLUTION_HALF after pass 4, upsampling and composite).
 *  Written at VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT. Chained to FftbApertureInfo::pNext, fftbCmdGenerateKernel
 *  writes as many: [0] before its first command, [1] after the aperture and row FFT, [2] after the column FFT and
 *  diffraction pattern, [3] after the spectral integration, [4] after the normalization. */
#define FFTB_TIMESTAMP_COUNT 5u

/** Per-pass GPU timing, chained to FftbBloomInfo::pNext or FftbApertureInfo::pNext (for profilers, the demo and the
 *  benchmark). */
typedef struct FftbTimestampInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_TIMESTAMP_INFO */
    const void* pNext;
    /** A VK_QUERY_TYPE_TIMESTAMP pool; queries firstQuery .. firstQuery + FFTB_TIMESTAMP_COUNT - 1 must be reset
     *  (vkCmdResetQueryPool before this call, in this or an earlier command buffer). */
    VkQueryPool queryPool;
    uint32_t firstQuery;
} FftbTimestampInfo;

/** One statistic of the pipeline of one frame pass, from fftbGetPassStatistics: what the driver reports through
 *  vkGetPipelineExecutableStatisticsKHR for the pass's compute shader, e.g. registers per invocation, shared memory
 *  bytes, spilled bytes. Names, units and which statistics exist are the driver's. */
typedef struct FftbPassStatistic
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_PASS_STATISTIC */
    void* pNext;             /**< NULL */
    uint32_t pass;           /**< 1, 2 or 3: the frame pass, numbered as in FFTB_TIMESTAMP_COUNT's description */
    uint32_t fftLength;      /**< the length of the pass's FFTs */
    uint32_t workgroupSize;  /**< invocations per workgroup */
    char name[VK_MAX_DESCRIPTION_SIZE];        /**< the driver's name of the statistic, NUL-terminated */
    char description[VK_MAX_DESCRIPTION_SIZE]; /**< the driver's description of it, NUL-terminated */
    double value;                              /**< the value: integers and floats as they are, booleans as 0 or 1 */
} FftbPassStatistic;

/** Runtime version, FFTB_MAKE_VERSION packed. */
uint32_t fftbGetVersion(void);

/** A static string naming `result`, e.g. "FFTB_ERROR_DEVICE_LIMIT". */
const char* fftbResultToString(FftbResult result);

/** The memory a context created with `createInfo` would need (only its extents and FftbPlannerInfo are read; its
 *  Vulkan handles may be VK_NULL_HANDLE), without a device: the worst case over the plans it can make. Returns
 *  FFTB_ERROR_INVALID_ARGUMENT (bad field) or FFTB_ERROR_DEVICE_LIMIT (the maximum extents need an FFT longer than
 *  FFTB_MAX_FFT_LENGTH). */
FftbResult fftbGetMemoryRequirements(const FftbContextCreateInfo* createInfo, FftbMemoryRequirements* requirements);

/** Creates a context: pipeline layouts, shader modules, the twiddle table and, unless an FftbScratchInfo supplies it,
 *  the scratch buffer, sized for the maximum extents. Returns FFTB_ERROR_INVALID_ARGUMENT (bad field),
 *  FFTB_ERROR_DEVICE_LIMIT (maximum extents need an FFT longer than FFTB_MAX_FFT_LENGTH, or a buffer past
 *  maxStorageBufferRange), FFTB_ERROR_UNSUPPORTED (Vulkan 1.0, or VK_KHR_push_descriptor not enabled),
 *  FFTB_ERROR_OUT_OF_*_MEMORY or FFTB_ERROR_VULKAN. */
FftbResult fftbCreateContext(const FftbContextCreateInfo* createInfo, FftbContext* context);

/** Destroys the context and everything it created, not a supplied scratch buffer. No command buffer recorded with it
 *  may be pending. Kernels outlive it (fftbCreateKernel). Plans still alive are orphaned: their GPU objects are
 *  destroyed with the context's, and every later call with one returns FFTB_ERROR_INVALID_ARGUMENT (naming the plan)
 *  but fftbDestroyBloomPlan, which the engine still calls. NULL is ignored. */
void fftbDestroyContext(FftbContext context);

/** Changes the maximum extents: the scratch is replaced (by the chained FftbScratchInfo's, or one the context
 *  allocates). No command buffer recorded with the context may be pending. On failure the context keeps its old
 *  extents and scratch and stays usable. A plan whose scratch the new extents no longer hold records no more
 *  (fftbCmdBloom returns FFTB_ERROR_DEVICE_LIMIT); make it again. Kernels of either spectrum mode serve plans for the
 *  larger frames. Returns the errors of fftbCreateContext. */
FftbResult fftbResizeContext(FftbContext context, const FftbResizeInfo* resizeInfo);

/** Creates a kernel on the device of `context`: the texels are copied and normalized per channel, and uploaded to a
 *  host-visible buffer. Each spectrum (one per padded extent, kernel scale and axis order of its live plans) is
 *  allocated by the first plan that reads it and computed on the GPU by the passes fftbCmdPrepareKernel and
 *  fftbCmdBloom record until a command buffer carrying them executed (fftbCmdBloom). With an
 *  FftbKernelGeneratorInfo chained, the generator's pipelines and buffer are made too. The kernel may be used with any
 *  context of the same device whose maximum kernel resolution it fits, and outlives `context`. May overlap other calls
 *  on `context` as fftbCreateBloomPlan may. Returns
 *  FFTB_ERROR_INVALID_ARGUMENT (a width or height of 0, null texels, a negative, NaN or infinite texel, a channel
 *  summing to 0, unknown mode, a generated kernel's size or Airy radius out of range), FFTB_ERROR_DEVICE_LIMIT (larger
 *  than the context's maximum kernel resolution, maxKernelResolutionWidth x maxKernelResolutionHeight),
 *  FFTB_ERROR_OUT_OF_*_MEMORY or FFTB_ERROR_VULKAN. */
FftbResult fftbCreateKernel(FftbContext context, const FftbKernelInfo* kernelInfo, FftbKernel* kernel);

/** Destroys the kernel. No command buffer recorded with it may be pending. Plans made with it that remain refuse every
 *  call but fftbDestroyBloomPlan (FFTB_ERROR_INVALID_ARGUMENT). NULL is ignored. */
void fftbDestroyKernel(FftbKernel kernel);

/** Makes a plan: checks every field of `createInfo` once, plans the padded FFT lengths and axis order, compiles the
 *  pipelines of its passes (unless the context holds them already: plans of one context share pipelines, and
 *  FftbContextCreateInfo::pipelineCache serves later runs), and allocates the kernel's spectrum for it and, with
 *  FFTB_PADDING_ZERO_NORMALIZED, its border weights. Dynamic resolution: one plan per extent in use, each made ahead
 *  (a new extent's plan compiles only the FFT lengths no other plan has; docs/integration.md). With fftbCreateKernel,
 *  the one call that may overlap others on the same context: worker threads may make plans and kernels while another
 *  records, describes or makes them, with any kernel (not while fftbResizeContext or fftbDestroyContext run).
 *  Returns FFTB_ERROR_INVALID_ARGUMENT (a NULL pointer, a wrong sType, a field out of its range, naming it),
 *  FFTB_ERROR_DEVICE_LIMIT (an extent or view count past the context's maximum, a kernel resolution or extent on the
 *  frame past its maximum, a kernel spectrum past the device's maxStorageBufferRange, an FFT longer than
 *  FFTB_MAX_FFT_LENGTH, a pass past the device's workgroup or shared-memory limits), FFTB_ERROR_OUT_OF_*_MEMORY or
 *  FFTB_ERROR_VULKAN. A kernel made with a context of smaller extents serves the plan. */
FftbResult fftbCreateBloomPlan(FftbContext context, const FftbBloomPlanCreateInfo* createInfo, FftbBloomPlan* plan);

/** Destroys the plan and its border weights, also after its context was destroyed (fftbDestroyContext). No command
 *  buffer recorded with it may be pending. NULL is ignored. */
void fftbDestroyBloomPlan(FftbBloomPlan plan);

/** Describes what fftbCmdBloom with `plan` records next, without recording: for render graphs, and for tools that
 *  show the plan (padded extents, axis order, the kernel's extent). Returns FFTB_ERROR_INVALID_ARGUMENT for a NULL
 *  pointer, a wrong sType or a plan whose kernel was destroyed. */
FftbResult fftbDescribeBloomPlan(FftbBloomPlan plan, FftbBloomPlanDescription* description);

/** The driver's statistics of the pipelines of the plan's three frame passes, as Vulkan enumerates: with `statistics`
 *  NULL, `*count` is set to the number there are; otherwise up to `*count` entries are written (each with its sType set
 *  by the caller or not: every field is written), `*count` is set to the number written, and FFTB_INCOMPLETE is
 *  returned when there were more. Needs a context created with FftbDeviceFeaturesInfo::pipelineExecutableInfo (else
 *  FFTB_ERROR_UNSUPPORTED). Also returns FFTB_ERROR_INVALID_ARGUMENT (a NULL pointer) or FFTB_ERROR_VULKAN. */
FftbResult fftbGetPassStatistics(FftbBloomPlan plan, uint32_t* count, FftbPassStatistic* statistics);

/** The kernel's extent on the frame, without a context: the frame pixels `*extentWidth` x `*extentHeight` that a
 *  kernel of resolution `kernelWidth` x `kernelHeight` texels (>= 1) covers with the kernel scale of `createInfo`,
 *  whose width, height, kernelSpanUnit and kernelSpan only are read: ceil(sigma * Kw) x ceil(sigma * Kh), at least 1,
 *  exactly ceil(span) along the larger axis, saturating at UINT32_MAX (sigma = span / max(Kw, Kh),
 *  FftbKernelSpanUnit); Kw x Kh at FFTB_KERNEL_SPAN_NATIVE. A context that plans this kernel at this scale needs
 *  maxKernelExtentWidth and maxKernelExtentHeight at least this large (fftbCreateBloomPlan returns
 *  FFTB_ERROR_DEVICE_LIMIT otherwise). Returns FFTB_ERROR_INVALID_ARGUMENT for a NULL pointer, a wrong sType, a zero
 *  width, height or kernel length, an unknown unit, or a kernelSpan not finite and > 0 with a unit other than
 *  native. */
FftbResult fftbGetKernelExtent(const FftbBloomPlanCreateInfo* createInfo, uint32_t kernelWidth, uint32_t kernelHeight,
                               uint32_t* extentWidth, uint32_t* extentHeight);

/** Records the passes that compute the kernel spectrum the plan reads (its kernel at the plan's padded extent, axis
 *  order and kernel scale) unless a command buffer that computed it executed: then nothing. Optional: fftbCmdBloom
 *  records them too until then (see there); preparing at load time keeps them out of the first frames. They bind
 *  buffers only (the kernel's, the scratch, the twiddles), never image views; the border weights of
 *  FFTB_PADDING_ZERO_NORMALIZED, whose passes read the frame's views, are left to fftbCmdBloom. Barriers: one before
 *  its passes (after earlier compute use of the kernel and the scratch) and one after (its writes visible to later
 *  compute shaders in this command buffer and those submitted after it on the same queue). Records vkCmdUpdateBuffer
 *  of a 4-byte word after them (compute queues support it). Clobbers the bound compute pipeline, descriptor set 0 and
 *  push constants. Returns FFTB_ERROR_INVALID_ARGUMENT (a NULL pointer, the plan's kernel destroyed) or
 *  FFTB_ERROR_DEVICE_LIMIT (the context was resized below the plan's extents). */
FftbResult fftbCmdPrepareKernel(FftbBloomPlan plan, VkCommandBuffer commandBuffer);

/** Records the bloom of `plan` into `commandBuffer` (primary or secondary, recording, compute-capable queue); never
 *  submits, waits, allocates or compiles. Records the plan's three compute passes (four at FFTB_BLOOM_RESOLUTION_HALF),
 *  preceded by what they read and a bloom computes once: the kernel spectrum at the plan's padded extent, axis order
 *  and kernel scale (two or three passes), and with FFTB_PADDING_ZERO_NORMALIZED the plan's border weights (three).
 *  These are recorded, each followed by vkCmdUpdateBuffer of a 4-byte word, until the plugin reads back that a command
 *  buffer carrying them executed: a command buffer that is dropped, or submitted after others recorded later, never
 *  leaves a later bloom without them. No rule follows for the engine; the first blooms of a plan (as many as are
 *  recorded before one of them executes) each compute them. Each pass pushes the
 *  descriptors it reads and writes in this call (VK_KHR_push_descriptor): nothing of an earlier call is bound, so
 *  images may be destroyed and made again between frames, and any number of command buffers may be pending. Clobbers
 *  the bound compute pipeline, compute descriptor set 0 and push constants. Places the barriers between its own
 *  passes and one before its first pass (orders it after earlier compute use of the scratch and the kernel). Returns
 *  FFTB_ERROR_INVALID_ARGUMENT (a NULL pointer, wrong sType or field out of range, naming it; the plan's kernel
 *  destroyed) or
 *  FFTB_ERROR_DEVICE_LIMIT (the context was resized below the plan's extents). */
FftbResult fftbCmdBloom(FftbBloomPlan plan, VkCommandBuffer commandBuffer, const FftbBloomInfo* bloomInfo);

#ifdef __cplusplus
}
#endif

#endif
