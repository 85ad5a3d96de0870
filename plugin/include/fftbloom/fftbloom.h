/* SPDX-License-Identifier: MIT */
/* fftbloom: FFT-convolution bloom recorded into the caller's Vulkan command buffer. The C API; the GPU PSF generator
 * (FftbKernelGeneratorInfo, FftbApertureInfo, fftbCmdGenerateKernel) is fftbloom_generator.h. docs/integration.md shows
 * an engine's use, docs/kernels.md the math and measurements behind each setting. */
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

/** Largest FFT length along one axis. Each axis of a frame is padded to a length 2^a 3^b 5^c 7^d, no longer than this,
 *  of at least its extent + kernel/2 (zero padding) or its extent + kernel - 1 (mirror padding). */
#define FFTB_MAX_FFT_LENGTH 16384u
/** Largest kernel length along one axis, of its resolution in texels and of its extent on the frame in pixels. */
#define FFTB_MAX_KERNEL_LENGTH 4096u
/** Most views one fftbCmdBloom blooms: stereo eyes, split-screen players, the six faces of a cube map. */
#define FFTB_MAX_VIEWS 8u

/** Result codes: 0 on success, one negative value per cause. Every enum here ends with a _MAX_ENUM entry that keeps it
 *  32 bits wide; a value outside an enum's list is refused (FFTB_ERROR_INVALID_ARGUMENT), never undefined. */
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

/** The ABI of this header, carried by every structure type (FFTB_ABI * 0x10000 + n) and raised whenever a structure's
 *  layout or an enum's values change: a structure of an older header is refused at the first call that reads it
 *  (FFTB_ERROR_INVALID_ARGUMENT, naming the rebuild). ABI 1: fftbloom 0.6.0 and earlier (structure types 1 .. 17);
 *  ABI 2: FftbBloomInfo without sourceMask. */
#define FFTB_ABI 3

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
    FFTB_STRUCTURE_TYPE_FAR_FIELD_INFO = FFTB_ABI * 0x10000 + 18,
    FFTB_STRUCTURE_TYPE_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbStructureType;

/** What the convolution sees outside the frame; docs/kernels.md, "Borders", has each one's look and cost. */
typedef enum FftbPadding
{
    /** Zero padding, the bloom divided per channel by the kernel's mass inside the frame, at least 1/16 (normalized
     *  convolution, Knutsson & Westin 1993): a flat frame stays flat; its border weights cost 3 passes in a plan's
     *  first blooms, FftbBloomPlanDescription::borderWeightBytes, and 12 bytes a texel read by pass 3. The default. */
    FFTB_PADDING_ZERO_NORMALIZED = 0,
    /** Black: the light spread past the edges is lost; the bloom darkens to 1/2 at an edge, 1/4 at a corner. */
    FFTB_PADDING_ZERO = 1,
    /** The frame reflected, edge texel repeated (GL_MIRRORED_REPEAT): padding K - 1 instead of K / 2, longer FFTs. */
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

/** How the kernel spectrum is matched to the frame's padded extent (docs/kernels.md, "Spectrum resampling"). */
typedef enum FftbSpectrumMode
{
    /** The kernel, scaled in space to its extent on the frame (no ringing), zero-padded to the padded extent and
     *  transformed once per kernel and plan: the linear convolution to fp32 accuracy. The default. */
    FFTB_SPECTRUM_MODE_EXACT = 0,
    /** One spectrum of S = spectrumOversampling * pow2ceil(K) bins per axis, interpolated once per plan ("FFT Bloom
     *  Optimized to the Bone", NUFFT gridding): within 1e-6 of the exact mode's peak; a scaled kernel rings (-1 %). */
    FFTB_SPECTRUM_MODE_RESAMPLED = 1,
    FFTB_SPECTRUM_MODE_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbSpectrumMode;

/** The window FFTB_SPECTRUM_MODE_RESAMPLED interpolates with (docs/kernels.md, "Spectrum resampling"). */
typedef enum FftbSpectrumInterpolation
{
    /** The "exponential of semicircle" window of the non-uniform FFT (Barnett, Magland & af Klinteberg 2019, SIAM J.
     *  Sci. Comput. 41(5)), W = FftbKernelInfo::interpolationWidth, with deapodization. The default. */
    FFTB_SPECTRUM_INTERPOLATION_ES = 0,
    /** Keys' cubic convolution (1981, a = -1/2), 4 x 4 taps, no deapodization: faint copies of the kernel. */
    FFTB_SPECTRUM_INTERPOLATION_CUBIC = 1,
    /** Bilinear, 2 x 2 taps (the tent of "FFT Bloom Optimized to the Bone"): the fewest reads, the most ghosting. */
    FFTB_SPECTRUM_INTERPOLATION_LINEAR = 2,
    FFTB_SPECTRUM_INTERPOLATION_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbSpectrumInterpolation;

/** Which part of each texel's light blooms: a matte in the input's alpha weights the bloom's source, p = m
 * prefilter(in.rgb) (docs/kernels.md, "Masks"). Light masked out keeps its value in the composites, without a glow. */
typedef enum FftbSourceMask
{
    FFTB_SOURCE_MASK_NONE = 0,             /**< m = 1: every texel blooms. The default */
    FFTB_SOURCE_MASK_ALPHA = 1,            /**< m = clamp(in.a, 0, 1): where alpha is 1 the light blooms, 0 not */
    FFTB_SOURCE_MASK_ONE_MINUS_ALPHA = 2,  /**< m = 1 - clamp(in.a, 0, 1): the matte inverted */
    FFTB_SOURCE_MASK_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbSourceMask;

/** How the bloom meets the frame, p = m prefilter(in.rgb), m the source mask (FftbSourceMask, 1 by default)
 *  (docs/kernels.md, "Prefilter and composites"). */
typedef enum FftbOutputMode
{
    /** Energy-conserving composite, out.rgb = in.rgb + intensity * (bloom(p) - p): the light is moved, not added (as
     *  Unreal Engine 5's convolution bloom keeps the kernel's centre energy in place). The default. */
    FFTB_OUTPUT_MODE_COMPOSITE = 0,
    FFTB_OUTPUT_MODE_BLOOM = 1, /**< out.rgb = bloom(p) */
    /** Additive composite, out.rgb = in.rgb + intensity * bloom(p): adds light, as most engine bloom does. */
    FFTB_OUTPUT_MODE_ADDITIVE = 2,
    FFTB_OUTPUT_MODE_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbOutputMode;

/** The unit of FftbBloomPlanCreateInfo::kernelSpan. The kernel is scaled about its centre to k(x / sigma) / sigma^2,
 *  sigma = span / max(Kw, Kh), span the frame pixels its larger side covers (docs/kernels.md, "Kernel scale"). */
typedef enum FftbKernelSpanUnit
{
    FFTB_KERNEL_SPAN_NATIVE = 0, /**< one kernel texel per frame pixel, sigma = 1; kernelSpan not read. The default */
    FFTB_KERNEL_SPAN_PIXELS = 1, /**< span = kernelSpan frame pixels */
    /** span = kernelSpan * sqrt(width^2 + height^2), a fraction of the diagonal: one look at every resolution. */
    FFTB_KERNEL_SPAN_FRAME_DIAGONAL = 2,
    FFTB_KERNEL_SPAN_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbKernelSpanUnit;

/** How the spectrum is stored between passes, the arithmetic fp32 in both (docs/kernels.md, "Storage precision"). */
typedef enum FftbStoragePrecision
{
    /** Complex fp32, 8 bytes a bin: within 1e-5 of a double-precision reference, relative to the peak. The default. */
    FFTB_STORAGE_PRECISION_FLOAT32 = 0,
    /** Complex fp16, 4 bytes a bin, 3-9 % faster; past 65504 saturates. Its noise follows each line's brightest light
     *  and swamps dim regions beside extreme highlights: clamp them (FftbBloomInfo::prefilterClamp, e.g. 64). */
    FFTB_STORAGE_PRECISION_FLOAT16 = 1,
    FFTB_STORAGE_PRECISION_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbStoragePrecision;

/** The resolution the bloom is convolved at (docs/integration.md, "Half-resolution bloom"). */
typedef enum FftbBloomResolution
{
    FFTB_BLOOM_RESOLUTION_FULL = 0, /**< the frame as it is; the default */
    /** The frame downsampled 2x per axis, convolved with the kernel at half its extent, upsampled by a fourth pass: a
     *  quarter of the FFT work, 1.8-2.7x faster; detail finer than 2 frame pixels is lost. */
    FFTB_BLOOM_RESOLUTION_HALF = 1,
    /** Downsampled 4x (8x) per axis, the kernel at 1 / 4 (1 / 8) of its extent: for low-frequency glows, above all a
     *  far field's (FftbFarFieldInfo); detail finer than 4 (8) frame pixels is lost. */
    FFTB_BLOOM_RESOLUTION_QUARTER = 2,
    FFTB_BLOOM_RESOLUTION_EIGHTH = 3,
    FFTB_BLOOM_RESOLUTION_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbBloomResolution;

/** Receives a readable reason for every failure: the field at fault, or the vk* call and its VkResult (VK_SUCCESS when
 *  no Vulkan call failed). `message` lives only for the call. */
typedef void (*PFN_fftbMessageCallback)(FftbResult result, VkResult vkResult, const char* message, void* userData);

/* Threads. A context and the plans made with it are externally synchronized, like a VkCommandPool: calls that touch one
 * context or any of its plans must not overlap, but fftbCreateKernel and fftbCreateBloomPlan may run on any threads
 * beside every call on their context except fftbResizeContext and fftbDestroyContext. A kernel is internally
 * synchronized: plans of several contexts may use one at once. Calls on different contexts may overlap; a command
 * buffer is the caller's to synchronize, as in Vulkan. Each function's "Threads:" line names the objects it touches. */

/** Device-lifetime objects: the pipeline layouts, the pipelines its plans share, the twiddle table and the scratch. */
typedef struct FftbContext_T* FftbContext;
/** A kernel (point spread function) and its spectra, usable by every context of its device. Internally synchronized. */
typedef struct FftbKernel_T* FftbKernel;
/** Everything fixed for a run of blooms, made ahead as a VkPipeline is: extent, views and settings resolved into the
 *  passes' pipelines, push constants, grids and buffers, which recording replays. Its kernel must outlive it. */
typedef struct FftbBloomPlan_T* FftbBloomPlan;

/** Device-lifetime settings. The device: Vulkan 1.1 or newer, shaderStorageImageWriteWithoutFormat and
 *  VK_KHR_push_descriptor enabled (every pass pushes its descriptors, 23 at most), else FFTB_ERROR_UNSUPPORTED naming
 *  what is missing. fftbCreateContext refuses a field out of its range with FFTB_ERROR_INVALID_ARGUMENT naming it. */
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
    const VkAllocationCallbacks* allocator; /**< optional, copied; used for the context's and its kernels' objects */
    uint32_t maxWidth;  /**< largest frame width in texels of a plan (FftbBloomPlanCreateInfo::width), >= 1 */
    uint32_t maxHeight; /**< largest frame height in texels, >= 1 */
    /** The largest kernel resolution, texels (FftbKernelInfo::width), 1 .. FFTB_MAX_KERNEL_LENGTH. */
    uint32_t maxKernelResolutionWidth;
    uint32_t maxKernelResolutionHeight; /**< texels (FftbKernelInfo::height), 1 .. FFTB_MAX_KERNEL_LENGTH */
    /** The largest kernel extent on the frame, pixels (fftbGetKernelExtent), 1 .. FFTB_MAX_KERNEL_LENGTH, or 0: the
     *  maximum resolution's. The frame's padding, so the scratch, is sized for it. */
    uint32_t maxKernelExtentWidth;
    uint32_t maxKernelExtentHeight;          /**< pixels, likewise; 0: maxKernelResolutionHeight */
    PFN_fftbMessageCallback messageCallback; /**< optional */
    void* messageUserData;
    /** Optional: the engine's cache, through which every pipeline is compiled; used from several threads when plans are
     *  made on several, so not created with VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT. */
    VkPipelineCache pipelineCache;
    /** The most views a plan blooms, 0 .. FFTB_MAX_VIEWS (0 means 1); the scratch grows about linearly with it. */
    uint32_t maxViews;
} FftbContextCreateInfo;

/** Which FFT lengths the planner may pad a frame to. */
typedef enum FftbLengthPolicy
{
    FFTB_LENGTH_POLICY_MIXED_RADIX = 0,      /**< 2^a 3^b 5^c 7^d, the cheapest by the planner's cost model (default) */
    FFTB_LENGTH_POLICY_POWER_OF_TWO = 1,     /**< powers of two (radix 8, 4, 2), as in "FFT Bloom Optimized to the
                                              *  Bone": up to twice the work; for comparison */
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
 *  enabled features, so it uses these only when told. Each VK_FALSE without it. */
typedef struct FftbDeviceFeaturesInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_DEVICE_FEATURES_INFO */
    const void* pNext;       /**< NULL */
    /** synchronization2 enabled: FftbImageBarrierInfo's barriers take any flag. Otherwise flags past bit 31 are mapped
     *  to Vulkan 1.0 ones (docs/integration.md, "Vulkan versions and features"). */
    VkBool32 synchronization2;
    /** The instance enabled VK_EXT_debug_utils: passes labelled; buffers, memory, pipelines named "fftbloom: ...". */
    VkBool32 debugUtils;
    /** VK_KHR_pipeline_executable_properties' pipelineExecutableInfo enabled: pipelines capture their statistics for
     *  fftbGetPassStatistics (for profiling; it may slow pipeline creation). */
    VkBool32 pipelineExecutableInfo;
} FftbDeviceFeaturesInfo;

/** Makes a VkBuffer of at least `size` bytes with (at least) `usage`, bound to device-local memory or, with
 *  `hostVisible`, to host-visible, host-coherent memory mapped at `*mapped` (untouched otherwise). Returns VK_SUCCESS,
 *  or the failure's VkResult, which the plugin returns as FFTB_ERROR_OUT_OF_*_MEMORY or FFTB_ERROR_VULKAN. */
typedef VkResult (*PFN_fftbAllocateBuffer)(void* userData, VkDeviceSize size, VkBufferUsageFlags usage,
                                           VkBool32 hostVisible, VkBuffer* buffer, void** mapped);
/** Releases a buffer `allocate` made, once no command buffer that uses it is pending. */
typedef void (*PFN_fftbFreeBuffer)(void* userData, VkBuffer buffer);

/** The engine's allocator, chained to FftbContextCreateInfo::pNext: every buffer the context, its kernels and plans
 *  keep (FftbMemoryRequirements lists them) is made by `allocate` and released by `free`, from the create, resize and
 *  destroy calls, never while recording. Without it the plugin allocates its own. FftbScratchInfo takes precedence. */
typedef struct FftbBufferAllocatorInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_BUFFER_ALLOCATOR_INFO */
    const void* pNext;       /**< NULL */
    PFN_fftbAllocateBuffer allocate;
    PFN_fftbFreeBuffer free;
    void* userData; /**< passed to both */
} FftbBufferAllocatorInfo;

/** The engine's scratch, chained to FftbContextCreateInfo::pNext or FftbResizeInfo::pNext. Transient, undefined before
 *  and after each fftbCmdBloom: a render graph may alias its memory (FftbBloomPlanDescription::scratch). */
typedef struct FftbScratchInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_SCRATCH_INFO */
    const void* pNext;       /**< NULL */
    /** VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, bound to memory (device-local for speed); the caller's, kept alive until
     *  fftbDestroyContext or an fftbResizeContext that replaces it. */
    VkBuffer buffer;
    VkDeviceSize offset; /**< a multiple of the device's minStorageBufferOffsetAlignment */
    VkDeviceSize size;   /**< >= FftbMemoryRequirements::scratchBytes (maximum extents), <= maxStorageBufferRange */
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

/** Bytes a context of given maximum extents needs, before the device's rounding, each the worst case over padding, axis
 *  order and plans (fftbGetMemoryRequirements; docs/integration.md, "Memory", has the formulas). */
typedef struct FftbMemoryRequirements
{
    FftbStructureType sType;   /**< FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS */
    void* pNext;               /**< NULL */
    VkDeviceSize scratchBytes; /**< device-local, per context: maxViews frames' half spectra at the maximum extents */
    /** Device-local, per kernel and per spectrum its plans read: exact mode, maximum frame and kernel resolution. */
    VkDeviceSize exactSpectrumBytes;
    /** The same in resampled mode: the spectrum stored at oversampling 2 and the one resolved at the frame's. */
    VkDeviceSize resampledSpectrumBytes;
    VkDeviceSize kernelTexelBytes;  /**< host-visible, per kernel of the maximum resolution: planar RGB fp32 texels */
    VkDeviceSize twiddleBytes;      /**< host-visible, per context: every FFT length's twiddle tables */
    VkDeviceSize borderWeightBytes; /**< device-local, per normalized plan: 3 maxWidth maxHeight x 4 bytes at most */
    /** Device-local, per kernel made with an FftbKernelGeneratorInfo, of the largest K x K the maximum resolution holds
     *  (K a power of two in 64 .. 2048; 0 when none): its generator's buffer and generated texels. */
    VkDeviceSize generatorBytes;
} FftbMemoryRequirements;

/** A kernel, the point spread function, for fftbCreateKernel (docs/kernels.md, "Your own PSF"). A field out of its
 *  range is FFTB_ERROR_INVALID_ARGUMENT, naming it. */
typedef struct FftbKernelInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_KERNEL_INFO */
    const void* pNext;       /**< NULL, or an FftbKernelGeneratorInfo */
    uint32_t width;          /**< the kernel's resolution in texels, 1 .. maxKernelResolutionWidth */
    uint32_t height;         /**< texels, 1 .. maxKernelResolutionHeight */
    /** width * height RGB texels, interleaved floats, row-major, (0, 0) top left, x right, y down, the centre texel
     *  (width / 2, height / 2) (integer division); each finite and >= 0, each channel's sum > 0, normalized to 1.
     *  Copied during the call. NULL with an FftbKernelGeneratorInfo: an impulse at the centre until generated. */
    const float* texels;
    FftbSpectrumMode spectrumMode;           /**< default (0) FFTB_SPECTRUM_MODE_EXACT */
    FftbSpectrumInterpolation interpolation; /**< resampled mode only; default FFTB_SPECTRUM_INTERPOLATION_ES */
    uint32_t interpolationWidth; /**< resampled mode: taps W, 2 .. 8 for ES, 4 cubic, 2 linear; 0 picks 8, 4 or 2 */
    /** Resampled mode only: the stored spectrum has S = spectrumOversampling * pow2ceil(K) bins per axis, 1 or 2; 0
     *  picks 2. 3 (S1 / 2 + 1) S2 x 8 bytes: 3.0 MiB for a 256 x 256 kernel at 2, 0.76 MiB at 1. */
    uint32_t spectrumOversampling;
    /** Turns the kernel this many degrees counter-clockwise on the frame (x right, y down) about the point on the
     *  light, resampled into the same texels (docs/kernels.md, "Placing it"); any finite value, default 0. */
    float rotationDegrees;
    /** The point on the light, from the centre texel, in fractions of width and height (u right, v down; Unreal's
     *  "Center UV" minus 0.5), each in [-1, 1], default 0; refused if it moves a channel's light all out. */
    float centreOffsetU;
    float centreOffsetV;
} FftbKernelInfo;

/** Plan-lifetime settings, resolved once by fftbCreateBloomPlan (docs/integration.md, "Plan settings"). A field out of
 *  its range is FFTB_ERROR_INVALID_ARGUMENT, past a context maximum FFTB_ERROR_DEVICE_LIMIT, naming it. */
typedef struct FftbBloomPlanCreateInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_BLOOM_PLAN_CREATE_INFO */
    const void* pNext;       /**< NULL, or an FftbFarFieldInfo */
    /** From fftbCreateKernel on this device, within this context's maximum kernel resolution; it outlives the plan. */
    FftbKernel kernel;
    uint32_t width;  /**< frame extent in texels, 1 .. maxWidth; the views of every bloom must be at least this large */
    uint32_t height; /**< 1 .. maxHeight */
    uint32_t viewCount;        /**< 0 .. the context's maxViews (0 means 1); 2 or more come in an FftbMultiViewInfo */
    VkImageLayout inputLayout; /**< how the passes read the frame: SHADER_READ_ONLY_OPTIMAL or GENERAL */
    FftbPadding padding;       /**< default FFTB_PADDING_ZERO_NORMALIZED */
    FftbAxisOrder axisOrder;   /**< default FFTB_AXIS_ORDER_AUTO */
    FftbStoragePrecision storagePrecision; /**< default FFTB_STORAGE_PRECISION_FLOAT32 */
    FftbBloomResolution resolution;        /**< default FFTB_BLOOM_RESOLUTION_FULL */
    /** The unit of kernelSpan; default FFTB_KERNEL_SPAN_NATIVE. Scaling costs the passes nothing: exact mode resamples
     *  the kernel in space, resampled mode reads its spectrum at sigma f (FftbSpectrumMode). */
    FftbKernelSpanUnit kernelSpanUnit;
    /** How large the kernel appears, in kernelSpanUnit: finite and > 0, not read at native (default 0). Its extent on
     *  the frame (fftbGetKernelExtent) must fit the context's maxKernelExtentWidth x maxKernelExtentHeight. */
    float kernelSpan;
} FftbBloomPlanCreateInfo;

/** A second, wide kernel convolved at reduced resolution and added to the plan's bloom, chained to
 *  FftbBloomPlanCreateInfo::pNext: a two-scale PSF, its core (diffraction, spikes, the near halo) at the plan's full
 *  resolution and its far field (veiling glare that reaches across the frame) at a quarter or an eighth of it, for a
 *  fraction of the cost of one kernel that wide (docs/kernels.md, "Glare"). The bloom is then
 *  (1 - weight) bloom_core + weight bloom_far before tint and composite, each scale normalized by its own padding (with
 *  FFTB_PADDING_ZERO_NORMALIZED, by its own mass inside the frame) and sharpened as one kernel would be: the result is
 *  (1 - t) ((1 - w) core + w far) * p + t p. The plan must be FFTB_BLOOM_RESOLUTION_FULL. Its passes (1-3 at the far
 *  field's resolution, in a window of the scratch after the plan's) run beside and between the plan's passes 1 and 2
 *  (timestamps [1] .. [3]), its kernel spectrum's and border weights' with the plan's (before [1]); the plan's
 *  FftbBloomPlanDescription counts them. */
typedef struct FftbFarFieldInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_FAR_FIELD_INFO */
    const void* pNext;       /**< NULL */
    /** The far field's kernel, from fftbCreateKernel on the plan's device (normalized per channel as every kernel),
     *  within the context's maximum kernel resolution; it outlives the plan. */
    FftbKernel kernel;
    /** FFTB_BLOOM_RESOLUTION_QUARTER or FFTB_BLOOM_RESOLUTION_EIGHTH: the frame downsampled 4x or 8x per axis. The
     *  context's scratch (fftbGetMemoryRequirements) holds a far field at an eighth of its maximum extents; at a
     * quarter one may need more: FFTB_ERROR_DEVICE_LIMIT naming the scratch. */
    FftbBloomResolution resolution;
    /** The far kernel's scale on the frame, as FftbBloomPlanCreateInfo's; its extent on the downsampled frame (span / 4
     *  or / 8) must fit the context's maxKernelExtentWidth x maxKernelExtentHeight. */
    FftbKernelSpanUnit kernelSpanUnit;
    float kernelSpan;
    /** w in [0, 1]: the far field's share of the two-scale PSF's light. */
    float weight;
} FftbFarFieldInfo;

/** Frame-lifetime settings of one fftbCmdBloom: the images and the values that change only push constants
 *  (docs/integration.md, "Per-frame settings"). A field out of its range is FFTB_ERROR_INVALID_ARGUMENT, naming it. */
typedef struct FftbBloomInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_BLOOM_INFO */
    const void* pNext;       /**< NULL, or a chain of FftbTimestampInfo, FftbImageBarrierInfo, FftbMultiViewInfo */
    /** The HDR frame, any format with VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT, read with texelFetch in the plan's
     *  inputLayout; without an FftbImageBarrierInfo, in that layout on entry, its writes visible to the COMPUTE_SHADER
     *  stage's SHADER_READ. VK_NULL_HANDLE with an FftbMultiViewInfo. */
    VkImageView inputView;
    /** The result, a 2D view of a format with VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT; texels [0, width) x [0, height)
     *  written in VK_IMAGE_LAYOUT_GENERAL by COMPUTE_SHADER / SHADER_WRITE, left so without an FftbImageBarrierInfo.
     *  Not inputView (nor, unchecked, another view of its image). VK_NULL_HANDLE with an FftbMultiViewInfo. */
    VkImageView outputView;
    /** The views' extents at their base mip level (with an FftbMultiViewInfo, the smallest of its views'), each at
     *  least the plan's width x height: the plugin cannot query a view's extent, so it checks these. */
    VkExtent2D inputExtent;
    VkExtent2D outputExtent;
    FftbOutputMode outputMode; /**< default (0) FFTB_OUTPUT_MODE_COMPOSITE */
    /** The bloom's weight in the composites, finite, >= 0: 0 writes the input unchanged (the passes still run: skip the
     *  call to save them). Not read in FFTB_OUTPUT_MODE_BLOOM. */
    float intensity;
    /** Delta sharpening t in [0, 1], default 0: the kernel spectrum becomes (1 - t) K + t; t = 1 is the identity. */
    float sharpen;
    /** Prefilter threshold T in linear values, finite, >= 0; default 0: none. A quadratic soft knee on max(r, g, b) = b
     *  (Unity PostProcessing v2, after Jimenez 2014): p = in.rgb (b - T) / b above T + knee, 0 below T - knee. */
    float prefilterThreshold;
    float prefilterKnee; /**< soft-knee width in [0, prefilterThreshold]; default 0: a hard threshold */
    /** Prefilter clamp C in linear values, finite, >= 0; default 0: none. A texel whose max(r, g, b) exceeds C is
     *  scaled by C / max(r, g, b), keeping its hue: one very bright texel cannot dominate the bloom. */
    float prefilterClamp;
    /** R, G, B multipliers of bloom(p) in every output mode when tintEnabled, each finite and >= 0 (above 1 allowed;
     *  all 0: a black bloom); the composite is then in + intensity (tint * bloom(p) - p). */
    float tint[3];
    VkBool32 tintEnabled; /**< VK_TRUE: the bloom times tint; VK_FALSE (default): white, so any tint can be given */
    /** The matte weighting the bloom's source, p = m prefilter(in.rgb); default (0) FFTB_SOURCE_MASK_NONE. Alpha still
     *  passes through to the output. */
    FftbSourceMask sourceMask;
} FftbBloomInfo;

/** The images' state around fftbCmdBloom, chained to FftbBloomInfo::pNext (as NVIDIA Streamline passes resources): the
 *  bloom then records one barrier before its first pass (input readable, output writable) and one after its last (input
 *  back to inputLayout, output to outputNewLayout). Synchronization2 flags (FftbDeviceFeaturesInfo). */
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
    /** Async compute: the queue family owning both images around the bloom, and the bloom queue's. Equal (0 and 0) or
     *  either VK_QUEUE_FAMILY_IGNORED: no ownership transfer. Different: the plugin records the acquire before and the
     *  release after, the caller the other halves (docs/integration.md, "Async compute"). */
    uint32_t ownerQueueFamilyIndex;
    uint32_t bloomQueueFamilyIndex;
} FftbImageBarrierInfo;

/** The views of a plan of viewCount >= 2, chained to FftbBloomInfo::pNext, each bloomed as a one-view plan would bloom
 *  it (docs/integration.md, "Many views"); FftbBloomInfo's views are then VK_NULL_HANDLE, and an FftbImageBarrierInfo's
 *  ranges cover every view's layer. FFTB_ERROR_INVALID_ARGUMENT if missing, extra or unlike the plan. */
typedef struct FftbMultiViewInfo
{
    FftbStructureType sType;         /**< FFTB_STRUCTURE_TYPE_MULTI_VIEW_INFO */
    const void* pNext;               /**< NULL */
    uint32_t viewCount;              /**< the plan's viewCount */
    const VkImageView* pInputViews;  /**< viewCount frames as FftbBloomInfo::inputView; one 2D view per array layer */
    const VkImageView* pOutputViews; /**< viewCount results as outputView: no input's or other output's handle */
} FftbMultiViewInfo;

/** How fftbCmdBloom uses one resource: for a render graph's dependency tracking. Synchronization2 values. */
typedef struct FftbResourceUse
{
    VkImageLayout layout; /**< the layout the passes use it in; VK_IMAGE_LAYOUT_UNDEFINED for buffers */
    VkPipelineStageFlags2 stageMask;
    VkAccessFlags2 accessMask;
} FftbResourceUse;

/** What the next fftbCmdBloom with a plan records, from fftbDescribeBloomPlan: the declaration of a render-graph node
 *  (docs/integration.md, "Render graphs"). */
typedef struct FftbBloomPlanDescription
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION */
    void* pNext;             /**< NULL */
    FftbResourceUse input;   /**< the plan's inputLayout, COMPUTE_SHADER, SHADER_SAMPLED_READ */
    FftbResourceUse output;  /**< GENERAL, COMPUTE_SHADER, SHADER_STORAGE_WRITE */
    FftbResourceUse scratch; /**< COMPUTE_SHADER, SHADER_STORAGE_READ | WRITE; transient: undefined before and after */
    VkDeviceSize scratchBytes;  /**< the scratch's bytes used at this extent and view count, from its start */
    VkDeviceSize spectrumBytes; /**< this plan's kernel spectrum (resampled: stored and resolved), kept by the kernel */
    VkDeviceSize borderWeightBytes; /**< FFTB_PADDING_ZERO_NORMALIZED's, 3 width height x 4 bytes, the plan's; or 0 */
    /** The passes the next bloom records for the kernel spectrum, 2 (exact mode) or 3 (resampled), until a command
     *  buffer that computed it for the kernel's current texels executed; then 0. */
    uint32_t spectrumPassCount;
    uint32_t borderWeightPassCount; /**< likewise for FFTB_PADDING_ZERO_NORMALIZED's border weights: 3, then 0 */
    /** 3 (4 at a reduced resolution) + spectrumPassCount + borderWeightPassCount, and with an FftbFarFieldInfo its 3
     *  passes (its spectrum's and border weights' counted in those) */
    uint32_t passCount;
    /** The FFT lengths along x and y, padded for the kernel's extent (at reduced resolution those of the downsampled
     *  frame, as are the kernel's extent and scale below). */
    uint32_t paddedWidth;
    uint32_t paddedHeight;
    FftbAxisOrder axisOrder; /**< the order used: FFTB_AXIS_ORDER_X_FIRST or FFTB_AXIS_ORDER_Y_FIRST */
    /** The kernel's extent on the frame in pixels, which the padding is planned for (as fftbGetKernelExtent). */
    uint32_t kernelExtentWidth;
    uint32_t kernelExtentHeight;
    double kernelScale; /**< sigma, frame pixels per kernel texel, > 0 (FftbKernelSpanUnit); exactly 1 at native */
    /** The planner's modelled cost, unitless, > 0, comparable only between descriptions of one frame, e.g. of its two
     *  axis orders (FFTB_AXIS_ORDER_AUTO picks the smaller); docs/integration.md, "Render graphs", has the formula. */
    double modelledCost;
} FftbBloomPlanDescription;

/** Timestamps fftbCmdBloom writes with an FftbTimestampInfo chained, at BOTTOM_OF_PIPE: [0] before its first command,
 *  [1] after the kernel spectrum and border weight passes ([0] when neither ran), [2] after pass 1, [3] after pass 2,
 *  [4] after pass 3 (at a reduced resolution, pass 4). fftbCmdGenerateKernel's: fftbloom_generator.h. */
#define FFTB_TIMESTAMP_COUNT 5u

/** Per-pass GPU timing, chained to FftbBloomInfo::pNext or FftbApertureInfo::pNext. */
typedef struct FftbTimestampInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_TIMESTAMP_INFO */
    const void* pNext;
    /** A VK_QUERY_TYPE_TIMESTAMP pool whose queries firstQuery .. firstQuery + FFTB_TIMESTAMP_COUNT - 1 were reset
     *  (vkCmdResetQueryPool, in this or an earlier command buffer). */
    VkQueryPool queryPool;
    uint32_t firstQuery;
} FftbTimestampInfo;

/** One statistic of the pipeline of one frame pass, from fftbGetPassStatistics: what the driver reports through
 *  vkGetPipelineExecutableStatisticsKHR (registers, shared memory, spills); names, units and which exist are its. */
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

/** Runtime version, FFTB_MAKE_VERSION packed. Threads: touches no object. */
uint32_t fftbGetVersion(void);

/** A static string naming `result`, e.g. "FFTB_ERROR_DEVICE_LIMIT". Threads: touches no object. */
const char* fftbResultToString(FftbResult result);

/** The memory a context made with `createInfo` would need, the worst case over its plans, without a device (only its
 *  extents and FftbPlannerInfo are read). Returns FFTB_ERROR_INVALID_ARGUMENT (a field out of range) or
 *  FFTB_ERROR_DEVICE_LIMIT (an FFT longer than FFTB_MAX_FFT_LENGTH). Threads: touches no object. */
FftbResult fftbGetMemoryRequirements(const FftbContextCreateInfo* createInfo, FftbMemoryRequirements* requirements);

/** Creates a context: pipeline layouts, shader modules, the twiddle table and, unless an FftbScratchInfo gives it, the
 *  scratch. Returns FFTB_ERROR_INVALID_ARGUMENT, FFTB_ERROR_DEVICE_LIMIT (an FFT past FFTB_MAX_FFT_LENGTH, a buffer
 *  past maxStorageBufferRange), FFTB_ERROR_UNSUPPORTED (Vulkan 1.0, no VK_KHR_push_descriptor),
 *  FFTB_ERROR_OUT_OF_*_MEMORY or FFTB_ERROR_VULKAN. Threads: touches no other object. */
FftbResult fftbCreateContext(const FftbContextCreateInfo* createInfo, FftbContext* context);

/** Destroys the context and what it made (not kernels, not a supplied scratch); no command buffer recorded with it may
 *  be pending. Plans still alive are orphaned: every later call with one returns FFTB_ERROR_INVALID_ARGUMENT, but
 *  fftbDestroyBloomPlan, which the engine still calls. NULL is ignored. Threads: writes the context and its plans. */
void fftbDestroyContext(FftbContext context);

/** Changes the maximum extents, replacing the scratch; no command buffer recorded with the context may be pending. On
 *  failure the context is unchanged. A plan the new scratch cannot hold returns FFTB_ERROR_DEVICE_LIMIT when recorded:
 *  make it again. Returns fftbCreateContext's errors. Threads: writes the context. */
FftbResult fftbResizeContext(FftbContext context, const FftbResizeInfo* resizeInfo);

/** Creates a kernel on the device of `context`: texels copied, normalized per channel and uploaded; with an
 *  FftbKernelGeneratorInfo, the generator's pipelines and buffer too. It serves any context of the device whose maximum
 *  kernel resolution it fits, and outlives `context`. Returns FFTB_ERROR_INVALID_ARGUMENT (naming the field),
 *  FFTB_ERROR_DEVICE_LIMIT (past the maximum kernel resolution), FFTB_ERROR_OUT_OF_*_MEMORY or FFTB_ERROR_VULKAN.
 *  Threads: reads `context`, compiles into its pipelines (locked); may overlap any call on it but fftbResizeContext and
 *  fftbDestroyContext. */
FftbResult fftbCreateKernel(FftbContext context, const FftbKernelInfo* kernelInfo, FftbKernel* kernel);

/** Destroys the kernel; no command buffer that uses it may be pending. Its plans left refuse every call but
 *  fftbDestroyBloomPlan (FFTB_ERROR_INVALID_ARGUMENT). NULL is ignored. Threads: writes the kernel and its plans. */
void fftbDestroyKernel(FftbKernel kernel);

/** Makes a plan: checks every field, plans the padded FFT lengths and axis order, compiles the pipelines the context
 *  lacks (pass 2's from GLSL generated for its FFT length), allocates the kernel's spectrum for it and
 *  FFTB_PADDING_ZERO_NORMALIZED's border weights. Dynamic resolution: a plan per extent, made ahead. Returns
 *  FFTB_ERROR_INVALID_ARGUMENT (naming the field), FFTB_ERROR_DEVICE_LIMIT (past a context maximum,
 *  maxStorageBufferRange, FFTB_MAX_FFT_LENGTH or the device's workgroup and shared-memory limits),
 *  FFTB_ERROR_OUT_OF_*_MEMORY, FFTB_ERROR_VULKAN, or FFTB_ERROR_UNSUPPORTED where generated GLSL does not compile (a
 *  defect: the message names the length). Threads: reads `context`, adds to its pipelines and the kernel (locked); may
 *  overlap any call on the context but fftbResizeContext and fftbDestroyContext. */
FftbResult fftbCreateBloomPlan(FftbContext context, const FftbBloomPlanCreateInfo* createInfo, FftbBloomPlan* plan);

/** Destroys the plan and its border weights, also after its context was destroyed; no command buffer recorded with it
 *  may be pending. NULL is ignored. Threads: writes the plan, and its context's and kernel's lists of plans. */
void fftbDestroyBloomPlan(FftbBloomPlan plan);

/** Describes what the next fftbCmdBloom with `plan` records. Returns FFTB_ERROR_INVALID_ARGUMENT (a NULL pointer, a
 *  wrong sType, the plan's kernel or context destroyed). Threads: reads the plan and its kernel. */
FftbResult fftbDescribeBloomPlan(FftbBloomPlan plan, FftbBloomPlanDescription* description);

/** The driver's statistics of the plan's three frame passes, as Vulkan enumerates: `*count` set to their number when
 *  `statistics` is NULL, else to the number written, FFTB_INCOMPLETE when more remain (every field written, sType too).
 *  Returns FFTB_ERROR_UNSUPPORTED without FftbDeviceFeaturesInfo::pipelineExecutableInfo, FFTB_ERROR_INVALID_ARGUMENT
 *  (a NULL pointer) or FFTB_ERROR_VULKAN. Threads: reads the plan. */
FftbResult fftbGetPassStatistics(FftbBloomPlan plan, uint32_t* count, FftbPassStatistic* statistics);

/** The pixels a kernel of `kernelWidth` x `kernelHeight` texels covers at the scale of `createInfo` (width, height,
 *  kernelSpanUnit, kernelSpan), without a context: ceil(sigma Kw) x ceil(sigma Kh), ceil(span) along the larger axis,
 *  1 .. UINT32_MAX; maxKernelExtent* must hold it. FFTB_ERROR_INVALID_ARGUMENT: a NULL pointer, a wrong sType, a zero
 *  extent, an unknown unit, a kernelSpan not finite and > 0 at any unit but native. Threads: touches no object. */
FftbResult fftbGetKernelExtent(const FftbBloomPlanCreateInfo* createInfo, uint32_t kernelWidth, uint32_t kernelHeight,
                               uint32_t* extentWidth, uint32_t* extentHeight);

/** Records the passes of the plan's kernel spectrum ahead of its first blooms, which record them too until a command
 *  buffer that computed it executed; after that, nothing. Optional (docs/integration.md, "Kernel preparation"). Buffers
 *  only: the border weights read the views and are left to fftbCmdBloom. A barrier before (after earlier compute use of
 *  the kernel and scratch) and one after (its writes visible to later compute shaders); vkCmdUpdateBuffer of a word
 *  (and vkCmdCopyBuffer, generated kernels; compute queues support both); clobbers, errors, threads as fftbCmdBloom. */
FftbResult fftbCmdPrepareKernel(FftbBloomPlan plan, VkCommandBuffer commandBuffer);

/** Records the bloom of `plan` into `commandBuffer` (primary or secondary, compute-capable queue); never submits,
 *  waits, allocates or compiles. Three compute passes (four at a reduced resolution, three more with a far field),
 * after those of what is computed once (kernel spectrum, border weights), which every bloom records with
 * vkCmdUpdateBuffer and vkCmdCopyBuffer of a word until a command buffer carrying them executed: dropped or reordered
 * command buffers are harmless. Pushes its descriptors (nothing stays bound, any number of command buffers may be
 * pending); barriers between its passes and one before the first (after earlier compute use of the scratch and the
 * kernel); clobbers the bound compute pipeline, descriptor set 0 and push constants. Returns
 * FFTB_ERROR_INVALID_ARGUMENT (naming the field; the plan's kernel or context destroyed) or FFTB_ERROR_DEVICE_LIMIT
 * (the context resized below the plan). Threads: reads the plan, its context and (locked) its kernel; writes
 * `commandBuffer`. */
FftbResult fftbCmdBloom(FftbBloomPlan plan, VkCommandBuffer commandBuffer, const FftbBloomInfo* bloomInfo);

#ifdef __cplusplus
}
#endif

#endif
