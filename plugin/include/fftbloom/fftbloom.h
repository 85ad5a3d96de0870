/* fftbloom: FFT-convolution bloom recorded into the caller's Vulkan command buffer. The whole C API. */
#ifndef FFTBLOOM_H
#define FFTBLOOM_H

#include <stdint.h>
#include <vulkan/vulkan.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FFTB_VERSION_MAJOR 0
#define FFTB_VERSION_MINOR 1
#define FFTB_VERSION_PATCH 0
/** Packed as (major << 22) | (minor << 12) | patch, like VK_MAKE_API_VERSION without the variant. */
#define FFTB_MAKE_VERSION(major, minor, patch)                                                                         \
    ((((uint32_t)(major)) << 22) | (((uint32_t)(minor)) << 12) | ((uint32_t)(patch)))
#define FFTB_VERSION FFTB_MAKE_VERSION(FFTB_VERSION_MAJOR, FFTB_VERSION_MINOR, FFTB_VERSION_PATCH)

/** Largest FFT length along one axis. A frame needs, per axis, a padded length of at least extent + kernel/2 (zero
 *  padding) or extent + kernel - 1 (mirror padding), of the form 2^a 3^b 5^c 7^d, no longer than this. */
#define FFTB_MAX_FFT_LENGTH 16384u
/** Largest kernel extent along one axis. */
#define FFTB_MAX_KERNEL_LENGTH 4096u

/** Result codes: 0 on success, one negative value per cause. Like Vulkan's, every enum ends with a _MAX_ENUM entry
 *  that makes it 32 bits wide, so any int32 stored in an enum field is a value of its type (and unknown ones are
 *  refused, not undefined behaviour). */
typedef enum FftbResult
{
    FFTB_SUCCESS = 0,
    FFTB_ERROR_INVALID_ARGUMENT = -1, /**< a null pointer, wrong sType, or a field out of its documented range */
    FFTB_ERROR_UNSUPPORTED = -2,      /**< the device lacks a required feature or format support */
    FFTB_ERROR_DEVICE_LIMIT = -3,     /**< the request exceeds a limit: FFT length, extents given at creation */
    FFTB_ERROR_OUT_OF_HOST_MEMORY = -4,
    FFTB_ERROR_OUT_OF_DEVICE_MEMORY = -5,
    FFTB_ERROR_VULKAN = -6,           /**< a Vulkan call failed; the message callback names it and its VkResult */
    FFTB_ERROR_NO_KERNEL = -7,        /**< fftbCmdBloom before any successful fftbSetKernel */
    FFTB_RESULT_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbResult;

typedef enum FftbStructureType
{
    FFTB_STRUCTURE_TYPE_CONTEXT_CREATE_INFO = 1,
    FFTB_STRUCTURE_TYPE_KERNEL_INFO = 2,
    FFTB_STRUCTURE_TYPE_BLOOM_INFO = 3,
    FFTB_STRUCTURE_TYPE_TIMESTAMP_INFO = 4,
    FFTB_STRUCTURE_TYPE_PLANNER_INFO = 5,
    FFTB_STRUCTURE_TYPE_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbStructureType;

/** How texels outside the frame are supplied to the convolution. */
typedef enum FftbPadding
{
    FFTB_PADDING_ZERO = 0,   /**< black: light that spreads past the edges is lost (a mild vignette) */
    FFTB_PADDING_MIRROR = 1, /**< reflected with the edge texel repeated (GL_MIRRORED_REPEAT): energy is kept */
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
    /** One spectrum of the kernel's own extent S (next power of two), interpolated at frequency * S / N as
     *  FftbKernelInfo::interpolation says (seeds/000, "Spectral resampling"). Reused by every frame extent.
     *  Interpolating in frequency multiplies the S-periodic repetition of the kernel in space by the
     *  interpolator's Fourier transform, so the kernel's outer part is dimmed and faint copies of it leak in
     *  from +-S (docs/kernels.md, "Spectrum resampling", measures both). */
    FFTB_SPECTRUM_MODE_RESAMPLED = 0,
    /** The kernel zero-padded to the frame's padded extent and transformed once per extent and axis order:
     *  the output is the linear convolution to fp32 accuracy. */
    FFTB_SPECTRUM_MODE_EXACT = 1,
    FFTB_SPECTRUM_MODE_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbSpectrumMode;

/** How FFTB_SPECTRUM_MODE_RESAMPLED interpolates the stored kernel spectrum X[i, j] at a frame frequency (u, v)
 *  = (k1 * S1 / N1, k2 * S2 / N2): value = sum over i, j of X[i, j] w(u - i) w(v - j), X periodic in S and
 *  Hermitian. docs/kernels.md, "Spectrum resampling", has the measured error of each against the exact mode. */
typedef enum FftbSpectrumInterpolation
{
    /** Cubic convolution (Keys 1981, "Cubic convolution interpolation for digital image processing", IEEE
     *  Trans. ASSP 29(6), a = -1/2), 4 x 4 taps: w(t) = 3/2 |t|^3 - 5/2 |t|^2 + 1 for |t| <= 1,
     *  -1/2 |t|^3 + 5/2 |t|^2 - 4 |t| + 2 for 1 < |t| < 2, 0 beyond. Its transform is flatter over the kernel than
     *  the tent's sinc^2 (0.94 against 0.81 at S / 4 from the centre) and smaller over most of the periodic
     *  copies: on the sample photographs the largest error against the exact mode is 3 to 8 times smaller.
     *  The default. */
    FFTB_SPECTRUM_INTERPOLATION_CUBIC = 0,
    /** Bilinear, 2 x 2 taps: w(t) = 1 - |t| for |t| <= 1, 0 beyond (the tent of seeds/000); its transform is
     *  sinc^2(x / S). Four times fewer spectrum reads than cubic. */
    FFTB_SPECTRUM_INTERPOLATION_LINEAR = 1,
    FFTB_SPECTRUM_INTERPOLATION_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbSpectrumInterpolation;

typedef enum FftbOutputMode
{
    FFTB_OUTPUT_MODE_BLOOM = 0,            /**< out.rgb = bloom */
    FFTB_OUTPUT_MODE_COMPOSITE = 1,        /**< out.rgb = in.rgb + intensity * (bloom - in.rgb) */
    FFTB_OUTPUT_MODE_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbOutputMode;

/** Receives a readable reason for every failure: the field at fault, or the vk* call and its VkResult
 *  (VK_SUCCESS when no Vulkan call failed). `message` lives only for the call. */
typedef void (*PFN_fftbMessageCallback)(FftbResult result, VkResult vkResult, const char* message, void* userData);

typedef struct FftbContext_T* FftbContext;

/** Device-lifetime settings. The device must have been created with the
 *  shaderStorageImageWriteWithoutFormat feature enabled and must be Vulkan 1.1 or newer. */
typedef struct FftbContextCreateInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_CONTEXT_CREATE_INFO */
    const void* pNext;       /**< NULL or an FftbPlannerInfo */
    VkInstance instance;
    VkPhysicalDevice physicalDevice;
    VkDevice device;
    PFN_vkGetInstanceProcAddr getInstanceProcAddr; /**< the loader the engine uses (volk, its own, or Vulkan's) */
    PFN_vkGetDeviceProcAddr getDeviceProcAddr;
    const VkAllocationCallbacks* allocator; /**< optional; used for every Vulkan object the context creates */
    uint32_t maxWidth;                      /**< largest frame width in texels passed to fftbCmdBloom, >= 1 */
    uint32_t maxHeight;                     /**< largest frame height in texels, >= 1 */
    uint32_t maxKernelWidth;                /**< largest kernel width in texels passed to fftbSetKernel, 1 .. 4096 */
    uint32_t maxKernelHeight;               /**< largest kernel height in texels, 1 .. 4096 */
    /** Command buffers recorded with fftbCmdBloom that may be pending at once, 1 .. 16; 0 means 3. Each call
     *  writes its descriptors into the next of this many descriptor sets in turn, so the command buffer of the
     *  call this many calls earlier must have completed (the frames-in-flight rule of FidelityFX's backends). */
    uint32_t maxFramesInFlight;
    PFN_fftbMessageCallback messageCallback; /**< optional */
    void* messageUserData;
} FftbContextCreateInfo;

/** Which FFT lengths the planner may pad a frame to. */
typedef enum FftbLengthPolicy
{
    FFTB_LENGTH_POLICY_MIXED_RADIX = 0,      /**< 2^a 3^b 5^c 7^d, the cheapest by the planner's cost model (default) */
    FFTB_LENGTH_POLICY_POWER_OF_TWO = 1,     /**< powers of two only (radix 8, 4, 2), the padding of the FFT bloom of
                                              *  seeds/000: up to twice the work; for comparison */
    FFTB_LENGTH_POLICY_MAX_ENUM = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} FftbLengthPolicy;

/** Planner options, chained to FftbContextCreateInfo::pNext. Without it: FFTB_LENGTH_POLICY_MIXED_RADIX. */
typedef struct FftbPlannerInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_PLANNER_INFO */
    const void* pNext;       /**< NULL */
    FftbLengthPolicy lengthPolicy;
} FftbPlannerInfo;

/** Kernel-lifetime settings: the point spread function. */
typedef struct FftbKernelInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_KERNEL_INFO */
    const void* pNext;
    uint32_t width;  /**< texels, 1 .. maxKernelWidth */
    uint32_t height; /**< texels, 1 .. maxKernelHeight */
    /** width * height RGB texels, interleaved floats, row-major, (0, 0) at the top left, x right, y down.
     *  Texel (width / 2, height / 2) (integer division) is the kernel's centre. Each channel is normalized
     *  to unit sum (so a kernel keeps the frame's luminance); values must be finite and >= 0 with a positive
     *  sum per channel. Copied during the call. */
    const float* texels;
    FftbSpectrumMode spectrumMode; /**< default FFTB_SPECTRUM_MODE_RESAMPLED */
    /** Used in FFTB_SPECTRUM_MODE_RESAMPLED only; default FFTB_SPECTRUM_INTERPOLATION_CUBIC. An unknown value
     *  returns FFTB_ERROR_INVALID_ARGUMENT. */
    FftbSpectrumInterpolation interpolation;
} FftbKernelInfo;

/** Frame-lifetime settings of one fftbCmdBloom. */
typedef struct FftbBloomInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_BLOOM_INFO */
    const void* pNext;       /**< NULL or an FftbTimestampInfo */
    /** The HDR frame, any format with VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT, read with texelFetch (no filtering).
     *  On entry it must be in `inputLayout` (VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL or VK_IMAGE_LAYOUT_GENERAL)
     *  and its writes visible to VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT / VK_ACCESS_SHADER_READ_BIT. */
    VkImageView inputView;
    VkImageLayout inputLayout;
    /** The result, a 2D view of a format with VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT (e.g. RGBA16F, RGBA32F),
     *  in VK_IMAGE_LAYOUT_GENERAL. Texels [0, width) x [0, height) are written by
     *  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT / VK_ACCESS_SHADER_WRITE_BIT; the caller places the barrier after.
     *  It may not alias the input. */
    VkImageView outputView;
    uint32_t width;            /**< frame extent in texels, 1 .. maxWidth; both views must be at least this large */
    uint32_t height;           /**< 1 .. maxHeight */
    FftbPadding padding;       /**< default FFTB_PADDING_ZERO */
    FftbAxisOrder axisOrder;   /**< default FFTB_AXIS_ORDER_AUTO */
    FftbOutputMode outputMode; /**< default FFTB_OUTPUT_MODE_BLOOM */
    float intensity;           /**< composite weight, >= 0, finite; unused in FFTB_OUTPUT_MODE_BLOOM */
    /** Delta sharpening t in [0, 1]: the kernel spectrum becomes (1 - t) * K + t, so t = 1 is the identity. */
    float sharpen;
} FftbBloomInfo;

/** Timestamps fftbCmdBloom writes when an FftbTimestampInfo is chained to FftbBloomInfo::pNext:
 *  [0] before its first command, [1] after the kernel spectrum passes (equal to [0] when the spectrum was cached),
 *  [2] after pass 1 (first-axis FFT), [3] after pass 2 (second-axis FFT, product, inverse), [4] after pass 3
 *  (first-axis inverse and composite). Written at VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT. */
#define FFTB_TIMESTAMP_COUNT 5u

/** Per-pass GPU timing, chained to FftbBloomInfo::pNext (for profilers, the demo and the benchmark). */
typedef struct FftbTimestampInfo
{
    FftbStructureType sType; /**< FFTB_STRUCTURE_TYPE_TIMESTAMP_INFO */
    const void* pNext;
    /** A VK_QUERY_TYPE_TIMESTAMP pool; queries firstQuery .. firstQuery + FFTB_TIMESTAMP_COUNT - 1 must be reset
     *  (vkCmdResetQueryPool before this call, in this or an earlier command buffer). */
    VkQueryPool queryPool;
    uint32_t firstQuery;
} FftbTimestampInfo;

/** Runtime version, FFTB_MAKE_VERSION packed. */
uint32_t fftbGetVersion(void);

/** A static string naming `result`, e.g. "FFTB_ERROR_DEVICE_LIMIT". */
const char* fftbResultToString(FftbResult result);

/** Creates a context: pipelines' layouts, the twiddle table and scratch buffers sized for the maximum extents.
 *  Returns FFTB_ERROR_INVALID_ARGUMENT (bad field), FFTB_ERROR_DEVICE_LIMIT (maximum extents need an FFT
 *  longer than FFTB_MAX_FFT_LENGTH), FFTB_ERROR_UNSUPPORTED, FFTB_ERROR_OUT_OF_*_MEMORY or FFTB_ERROR_VULKAN. */
FftbResult fftbCreateContext(const FftbContextCreateInfo* createInfo, FftbContext* context);

/** Destroys the context and everything it created. No command buffer recorded with it may be pending. */
void fftbDestroyContext(FftbContext context);

/** Sets the kernel (copied, normalized per channel). The kernel spectrum is computed by the next fftbCmdBloom,
 *  which records the extra passes. No command buffer recorded with the context may be pending.
 *  Returns FFTB_ERROR_INVALID_ARGUMENT (null texels, a negative, NaN or infinite texel, a channel summing to
 *  0) or FFTB_ERROR_DEVICE_LIMIT (larger than the maximum kernel extent). */
FftbResult fftbSetKernel(FftbContext context, const FftbKernelInfo* kernelInfo);

/** Records the bloom into `commandBuffer` (primary or secondary, recording, compute-capable queue); never
 *  submits or waits. Records three compute passes, preceded, after a kernel or extent change, by the two
 *  passes that compute the kernel spectrum: that command buffer must execute before later ones.
 *  Clobbers the bound compute pipeline, compute descriptor set 0 and push constants. Places the barriers
 *  between its own passes and one before its first pass (orders it after the previous frame's use of the
 *  context's buffers). Returns FFTB_ERROR_INVALID_ARGUMENT, FFTB_ERROR_DEVICE_LIMIT (extent larger than at
 *  creation, or needing an FFT longer than FFTB_MAX_FFT_LENGTH), FFTB_ERROR_NO_KERNEL or FFTB_ERROR_VULKAN. */
FftbResult fftbCmdBloom(FftbContext context, VkCommandBuffer commandBuffer, const FftbBloomInfo* bloomInfo);

#ifdef __cplusplus
}
#endif

#endif
