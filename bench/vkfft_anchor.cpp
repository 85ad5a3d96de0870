// SPDX-License-Identifier: MIT
// The VkFFT anchors: VkFFT 1.2.26's fused R2C convolution of the padded frame, with the pack and unpack an engine adds;
// and its 1D C2C FFT of batches of lines, out of place, beside fftbloom-bench --fft-lines. One translation unit:
// vkFFT.h takes about a minute to compile.
#include "vkfft_anchor.h"

#include "copy_bandwidth.h"
#include "embedded_shaders.h"
#include "reference.h"
#include "vulkan/vulkan_resources.h"

// The build tree's copy of Debian's vkFFT.h, patched for glslang 12 by bench/VkFFT.cmake (a system include there).
#include <vkFFT.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

namespace fftb::bench
{

namespace
{

/// fp32 FFT convolution lands near 1e-7 of the peak; a wrong pitch, stride or padding block gives errors near 1.
constexpr double kCoreTolerance = 1e-4;
/// Through RGBA16F in and out: a half-float store may round toward zero (lavapipe does), so within one unit in the
/// last place, 2^-10 of the peak at most; measured 8e-4 on lavapipe.
constexpr double kEndToEndTolerance = 2e-3;
constexpr uint32_t kPassWorkgroupSize = 8; // local_size_x and _y of vkfft_pack.comp and vkfft_unpack.comp
constexpr VkFormat kFrameFormat = VK_FORMAT_R16G16B16A16_SFLOAT;
constexpr uint32_t kChannels = 3;
constexpr int kForward = -1; // VkFFTAppend's direction; a convolution application runs forward, multiply, inverse

/// Mirrors the push-constant block of vkfft_pack.comp and vkfft_unpack.comp.
struct PassPushConstants
{
    uint32_t frameExtent[2];
    uint32_t rowPitchElements;
    uint32_t planeStrideElements;
};
static_assert(sizeof(PassPushConstants) == 16);

/// A VkFFT call that failed; measureVkfft turns it into VkfftTiming::error.
class VkfftError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

#define FFTB_VKFFT_RESULT(name)                                                                                        \
    case name:                                                                                                         \
        return #name;

/// The names of the results VkFFT's Vulkan backend can return (1.2.26 has no string function of its own).
const char* resultName(VkFFTResult result)
{
    switch (result)
    {
        FFTB_VKFFT_RESULT(VKFFT_SUCCESS)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_MALLOC_FAILED)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_INSUFFICIENT_CODE_BUFFER)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_INSUFFICIENT_TEMP_BUFFER)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_PLAN_NOT_INITIALIZED)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_NULL_TEMP_PASSED)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_INVALID_PHYSICAL_DEVICE)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_INVALID_DEVICE)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_INVALID_QUEUE)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_INVALID_COMMAND_POOL)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_INVALID_FENCE)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_ONLY_FORWARD_FFT_INITIALIZED)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_ONLY_INVERSE_FFT_INITIALIZED)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_EMPTY_FFTdim)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_EMPTY_size)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_EMPTY_bufferSize)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_EMPTY_buffer)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_EMPTY_tempBufferSize)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_EMPTY_tempBuffer)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_EMPTY_inputBufferSize)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_EMPTY_inputBuffer)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_EMPTY_outputBufferSize)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_EMPTY_outputBuffer)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_EMPTY_kernelSize)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_EMPTY_kernel)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_UNSUPPORTED_RADIX)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_R2C)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_UNSUPPORTED_FFT_OMIT)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_FAILED_TO_ALLOCATE)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_FAILED_TO_MAP_MEMORY)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_FAILED_TO_ALLOCATE_COMMAND_BUFFERS)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_FAILED_TO_BEGIN_COMMAND_BUFFER)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_FAILED_TO_END_COMMAND_BUFFER)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_FAILED_TO_SUBMIT_QUEUE)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_FAILED_TO_WAIT_FOR_FENCES)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_FAILED_TO_RESET_FENCES)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_FAILED_TO_CREATE_DESCRIPTOR_POOL)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_FAILED_TO_CREATE_DESCRIPTOR_SET_LAYOUT)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_FAILED_TO_ALLOCATE_DESCRIPTOR_SETS)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_FAILED_TO_CREATE_PIPELINE_LAYOUT)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_FAILED_SHADER_PREPROCESS)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_FAILED_SHADER_PARSE)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_FAILED_SHADER_LINK)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_FAILED_SPIRV_GENERATE)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_FAILED_TO_CREATE_SHADER_MODULE)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_FAILED_TO_CREATE_BUFFER)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_FAILED_TO_ALLOCATE_MEMORY)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_FAILED_TO_BIND_BUFFER_MEMORY)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_FAILED_TO_FIND_MEMORY)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_FAILED_TO_INITIALIZE)
        FFTB_VKFFT_RESULT(VKFFT_ERROR_FAILED_TO_CREATE_PIPELINE)
    default:
        return "(a result of another backend)";
    }
}

#undef FFTB_VKFFT_RESULT

void checkVkfft(VkFFTResult result, const char* call)
{
    if (result != VKFFT_SUCCESS)
        throw VkfftError(std::string("VkFFT: ") + call + " failed with VkFFTResult " + std::to_string(int(result)) +
                         " " + resultName(result));
}

/// Bits of a half float for values that are exactly representable and normal, or zero (the test frame's k / 1024).
uint16_t halfBits(float value)
{
    const uint32_t bits = std::bit_cast<uint32_t>(value);
    const auto sign = uint16_t((bits >> 16) & 0x8000u);
    if ((bits & 0x7fffffffu) == 0)
        return sign;
    const uint32_t exponent = ((bits >> 23) & 0xffu) - 127u + 15u;
    return uint16_t(sign | (exponent << 10) | ((bits >> 13) & 0x3ffu));
}

float halfToFloat(uint16_t half)
{
    const uint32_t exponent = (half >> 10) & 0x1fu;
    const uint32_t mantissa = half & 0x3ffu;
    float magnitude;
    if (exponent == 0)
        magnitude = std::ldexp(float(mantissa), -24); // subnormal
    else if (exponent == 31)
        magnitude = mantissa ? NAN : INFINITY;
    else
        magnitude = std::ldexp(float(mantissa | 0x400u), int(exponent) - 25);
    return (half & 0x8000u) ? -magnitude : magnitude;
}

/// A memory barrier between passes: VkFFT works on buffers and the passes also touch images, so a global one.
void barrier(VkCommandBuffer cb, VkPipelineStageFlags srcStage, VkAccessFlags srcAccess, VkPipelineStageFlags dstStage,
             VkAccessFlags dstAccess)
{
    VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    b.srcAccessMask = srcAccess;
    b.dstAccessMask = dstAccess;
    vkCmdPipelineBarrier(cb, srcStage, dstStage, 0, 1, &b, 0, nullptr, 0, nullptr);
}

void computeToCompute(VkCommandBuffer cb)
{
    barrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

/// The RGB kernel: per channel a Gaussian of its own width times its own ramp, normalized to sum 1. Asymmetric on
/// purpose: a flipped or transposed kernel must fail the accuracy check. Tap (x, y), row-major, channel-planar.
std::vector<double> makeKernel(uint32_t size)
{
    std::vector<double> taps(size_t(kChannels) * size * size);
    const double centre = double(size / 2);
    for (uint32_t c = 0; c < kChannels; ++c)
    {
        const double sigma = std::max(0.5, size / 6.0 * (1.0 - 0.25 * c));
        double sum = 0.0;
        for (uint32_t y = 0; y < size; ++y)
            for (uint32_t x = 0; x < size; ++x)
            {
                const double dx = x - centre, dy = y - centre;
                const double ramp = 1.0 + (0.5 + 0.25 * c) * x / size + (1.0 - 0.3 * c) * y / size;
                double& tap = taps[(size_t(c) * size + y) * size + x];
                tap = std::exp(-(dx * dx + dy * dy) / (2.0 * sigma * sigma)) * ramp;
                sum += tap;
            }
        for (uint32_t i = 0; i < size * size; ++i)
            taps[size_t(c) * size * size + i] /= sum;
    }
    return taps;
}

struct Texel
{
    uint32_t x, y;
};

/// Corners, edge midpoints, the centre and random texels: where zero padding, wrap-around and layout errors show.
std::vector<Texel> checkedTexels(uint32_t width, uint32_t height, std::mt19937& rng)
{
    std::vector<Texel> texels{
        {0, 0},          {width - 1, 0},          {0, height - 1},         {width - 1, height - 1}, {width / 2, 0},
        {0, height / 2}, {width - 1, height / 2}, {width / 2, height - 1}, {width / 2, height / 2}};
    std::uniform_int_distribution<uint32_t> ux(0, width - 1), uy(0, height - 1);
    while (texels.size() < 16)
        texels.push_back({ux(rng), uy(rng)});
    return texels;
}

/// The device handles a VkFFTConfiguration points at, which must outlive its application.
struct VkfftHandles
{
    explicit VkfftHandles(VulkanDevice& vulkan)
        : gpu(vulkan.physicalDevice()), device(vulkan.device()), queue(vulkan.queue()), pool(vulkan.commandPool()),
          fence(vulkan.fence())
    {
    }
    /// Points `config` at these handles.
    void setIn(VkFFTConfiguration& config)
    {
        config.physicalDevice = &gpu;
        config.device = &device;
        config.queue = &queue;
        config.commandPool = &pool;
        config.fence = &fence;
    }
    VkPhysicalDevice gpu;
    VkDevice device;
    VkQueue queue;
    VkCommandPool pool;
    VkFence fence;
};

/// Everything one measurement creates. VkFFT keeps pointers to the handles and sizes below, so a Session lives on the
/// heap and never moves; the destructor releases VkFFT's applications before the buffers they point to.
class Session
{
  public:
    Session(VulkanDevice& device, const VkfftCase& c);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    /// Buffers, images, the pack and unpack pipelines and the timestamp pool; the destructor releases what exists.
    void create();
    /// Uploads the kernel, wrapped to the corners, and turns it into its spectrum with the kernel application.
    void buildSpectrum();
    /// Creates the convolution application that reads the planar frame and multiplies by the spectrum.
    void createConvolution();
    /// The core on random fp32 planes against referenceWrappedConvolutionAt; returns the error relative to the peak.
    double checkCore();
    /// Pack, core and unpack on a random RGBA16F frame against referenceWrappedConvolutionAt; relative to the peak.
    double checkEndToEnd();
    /// Median milliseconds of the core (endToEnd false) or of pack + core + unpack.
    double time(bool endToEnd);

  private:
    uint32_t r2cPitch() const { return 2 * (c_.paddedWidth / 2 + 1); } // in place: room for Wp/2+1 complex values
    uint64_t r2cPlane() const { return uint64_t(r2cPitch()) * c_.paddedHeight; }
    uint64_t inputPlane() const { return uint64_t(c_.paddedWidth) * c_.paddedHeight; }
    void createPasses();
    VkFFTConfiguration baseConfiguration();
    void recordConvolution(VkCommandBuffer cb);
    void recordEndToEnd(VkCommandBuffer cb);
    void recordPass(VkCommandBuffer cb, const ComputePipeline& pipeline, VkDescriptorSet set, uint32_t rowPitch,
                    uint64_t planeStride);
    double maxError(const std::vector<double>& frame, const std::vector<float>& result, uint32_t resultPitch,
                    uint64_t resultPlane);

    VulkanDevice& dev_;
    VkfftCase c_;
    std::vector<double> kernel_;
    std::mt19937 rng_{20240611u}; // fixed: the checked texels and frames are the same on every run

    // What VkFFT points at.
    VkDevice device_;
    VkfftHandles handles_;
    uint64_t spectrumBytes_, workBytes_, inputBytes_;
    VkBuffer spectrumHandle_ = VK_NULL_HANDLE, workHandle_ = VK_NULL_HANDLE, inputHandle_ = VK_NULL_HANDLE;

    VulkanDevice::Buffer spectrum_, work_, input_, staging_;
    VulkanDevice::Image frame_, bloom_;
    VkSampler sampler_ = VK_NULL_HANDLE;
    ComputePipeline pack_, unpack_;
    VkDescriptorPool descriptorPool_ = VK_NULL_HANDLE;
    VkDescriptorSet packSet_ = VK_NULL_HANDLE, unpackSet_ = VK_NULL_HANDLE;
    VkQueryPool timestamps_ = VK_NULL_HANDLE;
    uint32_t timestampCount_ = 0;
    std::unique_ptr<VkFFTApplication> kernelApp_, convolutionApp_;
};

Session::Session(VulkanDevice& device, const VkfftCase& c)
    : dev_(device), c_(c), kernel_(makeKernel(c.kernelSize)), device_(device.device()), handles_(device),
      spectrumBytes_(kChannels * r2cPlane() * sizeof(float)), workBytes_(spectrumBytes_),
      inputBytes_(kChannels * inputPlane() * sizeof(float)), kernelApp_(std::make_unique<VkFFTApplication>()),
      convolutionApp_(std::make_unique<VkFFTApplication>())
{
}

void Session::create()
{
    spectrum_ =
        dev_.createBuffer(spectrumBytes_, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, false);
    work_ = dev_.createBuffer(workBytes_, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, false);
    input_ =
        dev_.createBuffer(inputBytes_, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, false);
    // Large enough for every upload and readback: the R2C layout is the largest of them.
    staging_ = dev_.createBuffer(std::max({spectrumBytes_, inputBytes_, uint64_t(c_.width) * c_.height * 8}),
                                 VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
    spectrumHandle_ = spectrum_.buffer;
    workHandle_ = work_.buffer;
    inputHandle_ = input_.buffer;
    frame_ = dev_.createImage(c_.width, c_.height, kFrameFormat,
                              VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    bloom_ = dev_.createImage(c_.width, c_.height, kFrameFormat,
                              VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    createPasses();
    timestampCount_ = 2 * uint32_t(c_.warmupFrames + c_.frames);
    timestamps_ = dev_.createTimestampPool(timestampCount_);
}

Session::~Session()
{
    vkDeviceWaitIdle(device_);
    // Idempotent, and safe on a zeroed application; releases VkFFT's pipelines before our buffers go.
    deleteVkFFT(convolutionApp_.get());
    deleteVkFFT(kernelApp_.get());
    // Vulkan ignores VK_NULL_HANDLE in every destroy call below: what create() did not reach is skipped.
    vkDestroyQueryPool(device_, timestamps_, nullptr);
    vkDestroyDescriptorPool(device_, descriptorPool_, nullptr);
    destroyComputePipeline(device_, pack_);
    destroyComputePipeline(device_, unpack_);
    vkDestroySampler(device_, sampler_, nullptr);
    dev_.destroy(frame_);
    dev_.destroy(bloom_);
    dev_.destroy(spectrum_);
    dev_.destroy(work_);
    dev_.destroy(input_);
    dev_.destroy(staging_);
}

void Session::createPasses()
{
    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO}; // texelFetch ignores filtering and addressing
    sci.magFilter = sci.minFilter = VK_FILTER_NEAREST;
    sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    checkVulkan(vkCreateSampler(device_, &sci, nullptr, &sampler_), "vkCreateSampler");

    pack_ = createEmbeddedPipeline(
        device_, "vkfft_pack", {{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER}, {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}},
        sizeof(PassPushConstants));
    unpack_ = createEmbeddedPipeline(device_, "vkfft_unpack",
                                     {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, {1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}},
                                     sizeof(PassPushConstants));
    VkDescriptorSet sets[2];
    descriptorPool_ = createDescriptorSets(device_,
                                           {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1},
                                            {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2},
                                            {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1}},
                                           {pack_.setLayout, unpack_.setLayout}, sets);
    packSet_ = sets[0];
    unpackSet_ = sets[1];

    const VkDescriptorImageInfo frameInfo{sampler_, frame_.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    const VkDescriptorBufferInfo inputInfo{input_.buffer, 0, VK_WHOLE_SIZE};
    const VkDescriptorBufferInfo workInfo{work_.buffer, 0, VK_WHOLE_SIZE};
    const VkDescriptorImageInfo bloomInfo{VK_NULL_HANDLE, bloom_.view, VK_IMAGE_LAYOUT_GENERAL};
    VkWriteDescriptorSet writes[4];
    for (VkWriteDescriptorSet& w : writes)
    {
        w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w.descriptorCount = 1;
    }
    writes[0].dstSet = packSet_;
    writes[0].dstBinding = 0;
    writes[0].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    writes[0].pImageInfo = &frameInfo;
    writes[1].dstSet = packSet_;
    writes[1].dstBinding = 1;
    writes[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[1].pBufferInfo = &inputInfo;
    writes[2].dstSet = unpackSet_;
    writes[2].dstBinding = 0;
    writes[2].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[2].pBufferInfo = &workInfo;
    writes[3].dstSet = unpackSet_;
    writes[3].dstBinding = 1;
    writes[3].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    writes[3].pImageInfo = &bloomInfo;
    vkUpdateDescriptorSets(device_, 4, writes, 0, nullptr);
}

/// What the kernel and the convolution applications share: a normalized 2D R2C transform of the padded extents.
VkFFTConfiguration Session::baseConfiguration()
{
    VkFFTConfiguration config{};
    config.FFTdim = 2;
    config.size[0] = c_.paddedWidth;
    config.size[1] = c_.paddedHeight;
    config.performR2C = 1;
    config.coordinateFeatures = kChannels;
    config.normalize = 1;
    // As VkFFT's convolution samples: a convolution application never reorders four-step FFTs, so the spectrum it
    // multiplies by must be in the same unreordered layout.
    config.disableReorderFourStep = 1;
    handles_.setIn(config);
    return config;
}

void Session::buildSpectrum()
{
    // Tap j sits at j - centre, wrapped to the corners of the padded plane, in the in-place R2C layout.
    auto* staged = static_cast<float*>(staging_.mapped);
    std::fill(staged, staged + kChannels * r2cPlane(), 0.0f);
    const uint32_t k = c_.kernelSize, centre = k / 2;
    for (uint32_t ch = 0; ch < kChannels; ++ch)
        for (uint32_t jy = 0; jy < k; ++jy)
            for (uint32_t jx = 0; jx < k; ++jx)
            {
                const uint32_t x = (jx + c_.paddedWidth - centre % c_.paddedWidth) % c_.paddedWidth;
                const uint32_t y = (jy + c_.paddedHeight - centre % c_.paddedHeight) % c_.paddedHeight;
                staged[ch * r2cPlane() + uint64_t(y) * r2cPitch() + x] +=
                    float(kernel_[(size_t(ch) * k + jy) * k + jx]);
            }

    VkFFTConfiguration config = baseConfiguration();
    config.kernelConvolution = 1;
    config.buffer = &spectrumHandle_;
    config.bufferSize = &spectrumBytes_;
    checkVkfft(initializeVkFFT(kernelApp_.get(), config), "initializeVkFFT (kernel application)");

    VkCommandBuffer cb = dev_.beginCommands();
    const VkBufferCopy region{0, 0, spectrumBytes_};
    vkCmdCopyBuffer(cb, staging_.buffer, spectrum_.buffer, 1, &region);
    barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    VkFFTLaunchParams launch{};
    launch.commandBuffer = &cb;
    const VkFFTResult r = VkFFTAppend(kernelApp_.get(), kForward, &launch);
    dev_.submitAndWait(cb); // also on failure: the command buffer must be ended and freed
    checkVkfft(r, "VkFFTAppend (kernel spectrum)");
}

void Session::createConvolution()
{
    VkFFTConfiguration config = baseConfiguration();
    config.performConvolution = 1;
    config.kernel = &spectrumHandle_;
    config.kernelSize = &spectrumBytes_;
    config.buffer = &workHandle_;
    config.bufferSize = &workBytes_;
    // Planar frame in, padded R2C layout out (isOutputFormatted gives wrong data with convolutions in 1.2.26).
    config.isInputFormatted = 1;
    config.inputBuffer = &inputHandle_;
    config.inputBufferSize = &inputBytes_;
    config.inputBufferStride[0] = c_.paddedWidth; // 1.2.26 reads wrong data at a pitch of W
    // Spatial zero padding: [W, Wp) and [H, Hp) are never read by the forward FFTs nor written by the inverse ones.
    const uint32_t extents[2] = {c_.width, c_.height}, padded[2] = {c_.paddedWidth, c_.paddedHeight};
    for (int axis = 0; axis < 2; ++axis)
        if (extents[axis] < padded[axis])
        {
            config.performZeropadding[axis] = 1;
            config.fft_zeropad_left[axis] = extents[axis];
            config.fft_zeropad_right[axis] = padded[axis];
        }
    checkVkfft(initializeVkFFT(convolutionApp_.get(), config), "initializeVkFFT (convolution application)");
}

void Session::recordConvolution(VkCommandBuffer cb)
{
    // VkFFT puts a barrier after each of its dispatches but none before the first.
    computeToCompute(cb);
    VkFFTLaunchParams launch{};
    launch.commandBuffer = &cb;
    checkVkfft(VkFFTAppend(convolutionApp_.get(), kForward, &launch), "VkFFTAppend (convolution)");
}

void Session::recordPass(VkCommandBuffer cb, const ComputePipeline& pipeline, VkDescriptorSet set, uint32_t rowPitch,
                         uint64_t planeStride)
{
    const PassPushConstants pc{{c_.width, c_.height}, rowPitch, uint32_t(planeStride)};
    bindComputePipeline(cb, pipeline, set, &pc, sizeof(pc));
    vkCmdDispatch(cb, (c_.width + kPassWorkgroupSize - 1) / kPassWorkgroupSize,
                  (c_.height + kPassWorkgroupSize - 1) / kPassWorkgroupSize, 1);
}

void Session::recordEndToEnd(VkCommandBuffer cb)
{
    computeToCompute(cb); // the previous frame's unpack and VkFFT's reads of the planar buffer
    recordPass(cb, pack_, packSet_, c_.paddedWidth, inputPlane());
    recordConvolution(cb);
    // No barrier: VkFFT's own barrier after its last dispatch makes the result visible to the unpack.
    recordPass(cb, unpack_, unpackSet_, r2cPitch(), r2cPlane());
}

/// The largest error at the checked texels, all channels, relative to the largest expected magnitude there.
double Session::maxError(const std::vector<double>& frame, const std::vector<float>& result, uint32_t resultPitch,
                         uint64_t resultPlane)
{
    double peak = 0.0, worst = 0.0;
    for (Texel p : checkedTexels(c_.width, c_.height, rng_))
        for (uint32_t ch = 0; ch < kChannels; ++ch)
        {
            const PlaneView framePlane{frame.data() + size_t(ch) * c_.width * c_.height, c_.width, c_.height};
            const PlaneView kernelPlane{kernel_.data() + size_t(ch) * c_.kernelSize * c_.kernelSize, c_.kernelSize,
                                        c_.kernelSize};
            const double expected =
                referenceWrappedConvolutionAt(framePlane, kernelPlane, c_.paddedWidth, c_.paddedHeight, p.x, p.y);
            const double got = result[ch * resultPlane + uint64_t(p.y) * resultPitch + p.x];
            peak = std::max(peak, std::abs(expected));
            worst = std::max(worst, std::abs(got - expected));
        }
    return peak > 0.0 ? worst / peak : worst;
}

double Session::checkCore()
{
    std::uniform_real_distribution<float> value(0.0f, 1.0f);
    std::vector<double> frame(size_t(kChannels) * c_.width * c_.height);
    auto* staged = static_cast<float*>(staging_.mapped);
    std::fill(staged, staged + kChannels * inputPlane(), 0.0f); // the padding stays zero for the timed runs too
    for (uint32_t ch = 0; ch < kChannels; ++ch)
        for (uint32_t y = 0; y < c_.height; ++y)
            for (uint32_t x = 0; x < c_.width; ++x)
            {
                const float v = value(rng_);
                frame[(size_t(ch) * c_.height + y) * c_.width + x] = v;
                staged[ch * inputPlane() + uint64_t(y) * c_.paddedWidth + x] = v;
            }

    VkCommandBuffer cb = dev_.beginCommands();
    const VkBufferCopy upload{0, 0, inputBytes_};
    vkCmdCopyBuffer(cb, staging_.buffer, input_.buffer, 1, &upload);
    barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_SHADER_READ_BIT);
    VkFFTLaunchParams launch{};
    launch.commandBuffer = &cb;
    const VkFFTResult r = VkFFTAppend(convolutionApp_.get(), kForward, &launch);
    barrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
            VK_ACCESS_TRANSFER_READ_BIT);
    const VkBufferCopy readback{0, 0, workBytes_};
    vkCmdCopyBuffer(cb, work_.buffer, staging_.buffer, 1, &readback);
    recordHostReadBarrier(cb);
    dev_.submitAndWait(cb);
    checkVkfft(r, "VkFFTAppend (convolution)");

    const std::vector<float> result(staged, staged + kChannels * r2cPlane());
    return maxError(frame, result, r2cPitch(), r2cPlane());
}

double Session::checkEndToEnd()
{
    // k / 1024 is exact in half precision, so the CPU sees the very frame the GPU samples.
    std::uniform_int_distribution<uint32_t> value(0, 1023);
    std::vector<double> frame(size_t(kChannels) * c_.width * c_.height);
    auto* staged = static_cast<uint16_t*>(staging_.mapped);
    for (uint32_t y = 0; y < c_.height; ++y)
        for (uint32_t x = 0; x < c_.width; ++x)
        {
            uint16_t* texel = staged + 4 * (uint64_t(y) * c_.width + x);
            for (uint32_t ch = 0; ch < kChannels; ++ch)
            {
                const float v = float(value(rng_)) / 1024.0f;
                frame[(size_t(ch) * c_.height + y) * c_.width + x] = v;
                texel[ch] = halfBits(v);
            }
            texel[3] = halfBits(1.0f);
        }

    VkCommandBuffer cb = dev_.beginCommands();
    VulkanDevice::uploadForCompute(cb, staging_.buffer, frame_.image, c_.width, c_.height);
    VulkanDevice::prepareComputeOutput(cb, bloom_.image);
    try
    {
        recordEndToEnd(cb);
    }
    catch (const VkfftError&)
    {
        dev_.submitAndWait(cb);
        throw;
    }
    recordImageReadback(cb, bloom_.image, c_.width, c_.height, staging_.buffer);
    dev_.submitAndWait(cb);

    // RGBA16F texels to channel-planar floats, so maxError reads them like the core's planes.
    std::vector<float> result(size_t(kChannels) * c_.width * c_.height);
    for (uint32_t ch = 0; ch < kChannels; ++ch)
        for (uint64_t i = 0; i < uint64_t(c_.width) * c_.height; ++i)
            result[ch * uint64_t(c_.width) * c_.height + i] = halfToFloat(staged[4 * i + ch]);
    return maxError(frame, result, c_.width, uint64_t(c_.width) * c_.height);
}

double Session::time(bool endToEnd)
{
    const int total = c_.warmupFrames + c_.frames;
    VkCommandBuffer cb = dev_.beginCommands();
    vkCmdResetQueryPool(cb, timestamps_, 0, timestampCount_);
    try
    {
        for (int i = 0; i < total; ++i)
        {
            // The first barrier falls inside the bracket: an engine pays for it in its frame too.
            vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps_, uint32_t(2 * i));
            if (endToEnd)
                recordEndToEnd(cb);
            else
                recordConvolution(cb);
            vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps_, uint32_t(2 * i + 1));
        }
    }
    catch (const VkfftError&)
    {
        dev_.submitAndWait(cb); // a recorded prefix is harmless; ending and freeing the buffer is not optional
        throw;
    }
    dev_.submitAndWait(cb);

    std::vector<uint64_t> ticks(timestampCount_);
    checkVulkan(vkGetQueryPoolResults(device_, timestamps_, 0, timestampCount_, ticks.size() * sizeof(uint64_t),
                                      ticks.data(), sizeof(uint64_t),
                                      VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                "vkGetQueryPoolResults");
    std::vector<double> ms;
    for (int i = c_.warmupFrames; i < total; ++i)
        ms.push_back(double(ticks[size_t(2 * i + 1)] - ticks[size_t(2 * i)]) * dev_.timestampPeriod() * 1e-6);
    std::sort(ms.begin(), ms.end());
    const size_t n = ms.size();
    return n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
}

std::string invalidCase(const VulkanDevice& device, const VkfftCase& c)
{
    if (c.width == 0 || c.height == 0 || c.kernelSize == 0)
        return "VkFFT anchor: width, height and kernelSize must be positive";
    if (c.paddedWidth < c.width || c.paddedHeight < c.height)
        return "VkFFT anchor: the padded extents must hold the frame";
    if (c.warmupFrames < 0 || c.frames < 1)
        return "VkFFT anchor: warmupFrames must be >= 0 and frames >= 1";
    if (!device.timestamps())
        return std::string("VkFFT anchor: ") + device.properties().deviceName + "'s compute queue has no timestamps";
    return {};
}

} // namespace

VkfftTiming measureVkfft(VulkanDevice& device, const VkfftCase& c)
{
    VkfftTiming timing;
    timing.error = invalidCase(device, c);
    if (!timing.error.empty())
        return timing;
    try
    {
        auto session = std::make_unique<Session>(device, c);
        session->create();
        session->buildSpectrum();
        session->createConvolution();
        timing.maxRelativeError = session->checkCore();
        if (!(timing.maxRelativeError <= kCoreTolerance))
            timing.error = "VkFFT anchor: convolution off by " + std::to_string(timing.maxRelativeError) +
                           " of the peak (tolerance " + std::to_string(kCoreTolerance) + ")";
        const double endToEndError = session->checkEndToEnd();
        if (!(endToEndError <= kEndToEndTolerance) && timing.error.empty())
            timing.error = "VkFFT anchor: pack + convolution + unpack off by " + std::to_string(endToEndError) +
                           " of the peak (tolerance " + std::to_string(kEndToEndTolerance) + ")";
        timing.coreMs = session->time(false);
        timing.endToEndMs = session->time(true);
    }
    catch (const VkfftError& e)
    {
        timing.error = e.what();
    }
    timing.ok = timing.error.empty();
    return timing;
}

VkfftLinesTiming measureVkfftLines(VulkanDevice& device, const VkfftLinesCase& c)
{
    VkfftLinesTiming timing;
    const uint64_t lineBytes = uint64_t(c.length) * 8, bytes = lineBytes * c.lines;
    if (c.length < 2 || c.lines == 0 || c.values.size() * sizeof(float) != bytes)
    {
        timing.error = "VkFFT lines: the values must hold lines x length complex elements";
        return timing;
    }
    VulkanDevice::Buffer input =
        device.createBuffer(bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, false);
    VulkanDevice::Buffer output =
        device.createBuffer(bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, false);
    VulkanDevice::Buffer staging =
        device.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
    auto app = std::make_unique<VkFFTApplication>();
    VkfftHandles handles(device);
    const VkDevice d = device.device();
    VkBuffer inputHandle = input.buffer, outputHandle = output.buffer;
    uint64_t inputBytes = bytes, outputBytes = bytes;
    const auto release = [&]
    {
        vkDeviceWaitIdle(d);
        deleteVkFFT(app.get());
        for (VulkanDevice::Buffer* b : {&staging, &output, &input})
            device.destroy(*b);
    };
    try
    {
        std::memcpy(staging.mapped, c.values.data(), bytes);
        VkCommandBuffer cb = device.beginCommands();
        const VkBufferCopy all{0, 0, bytes};
        vkCmdCopyBuffer(cb, staging.buffer, input.buffer, 1, &all);
        barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                VK_ACCESS_SHADER_READ_BIT);
        device.submitAndWait(cb);

        // Out of place: the lines are read from the input buffer, the spectra written to the other.
        VkFFTConfiguration config{};
        config.FFTdim = 1;
        config.size[0] = c.length;
        config.numberBatches = c.lines;
        config.isInputFormatted = 1;
        config.inputBuffer = &inputHandle;
        config.inputBufferSize = &inputBytes;
        config.buffer = &outputHandle;
        config.bufferSize = &outputBytes;
        handles.setIn(config);
        checkVkfft(initializeVkFFT(app.get(), config), "initializeVkFFT (lines)");
        const auto record = [&](VkCommandBuffer commands, uint32_t)
        {
            VkFFTLaunchParams launch{};
            launch.commandBuffer = &commands;
            checkVkfft(VkFFTAppend(app.get(), kForward, &launch), "VkFFTAppend (lines)");
        };
        timing.ms = timeDispatches(device, 1, c.warmup, c.repeats, record)[0] * 1e3;

        cb = device.beginCommands();
        barrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_TRANSFER_READ_BIT);
        const VkBufferCopy first{0, 0, lineBytes}, last{(c.lines - 1) * lineBytes, lineBytes, lineBytes};
        const VkBufferCopy regions[2] = {first, last};
        vkCmdCopyBuffer(cb, output.buffer, staging.buffer, 2, regions);
        barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                VK_ACCESS_HOST_READ_BIT);
        device.submitAndWait(cb);
        const auto* spectra = static_cast<const float*>(staging.mapped);
        timing.firstLine.assign(spectra, spectra + 2 * c.length);
        timing.lastLine.assign(spectra + 2 * c.length, spectra + 4 * c.length);
        timing.ok = true;
    }
    catch (const VkfftError& e)
    {
        timing.error = e.what();
    }
    catch (...)
    {
        release();
        throw;
    }
    release();
    return timing;
}

} // namespace fftb::bench
