// SPDX-License-Identifier: MIT
// The FFT of fft.glsl alone at mixed-radix lengths and past shared memory, and the generated FFT (fft_codegen.h) at
// every length up to shared memory's, through the plugin's own passes dispatched directly:
// forward against a double-precision DFT (FFTW), and forward, a spectral product and inverse against the same.
#include "fft_codegen.h"
#include "fftbloom_spirv.h"
#include "gpu_test_support.h"
#include "plan.h"
#include "shader_compiler.h"
#include "shared/fftb_shared.h"
#include "vulkan/compute_pipeline.h"
#include "vulkan/vulkan_device.h"

#include <fftw3.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdio>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace fftb::test
{
namespace
{

using Complex = std::complex<double>;

/// The pass 2 whose FFT is generated for `length`, as the plugin compiles it (pipelines.cpp, generatedModule).
const char* const kGeneratedPass = "image_fft_second_convolve_ifft_second_generated.comp";

/// Runs one pass of the plugin's shaders on `lines` <= FFTB_INTERMEDIATE_BLOCK_LINES lines of one FFT length, with the
/// intermediate (one block of lines, plan.h intermediateIndex), kernel spectrum (plain lines) and twiddle buffers bound
/// as the plugin binds them and the plugin's specialization constants; `shader` an embedded module or kGeneratedPass.
class PassHarness
{
  public:
    PassHarness(const char* shader, uint32_t length, uint32_t lines)
        : device_(VulkanDeviceOptions{-1, true}), length_(length), lines_(lines)
    {
        const VkDevice d = device_.device();
        const VkDeviceSize lineBytes = VkDeviceSize(length) * 8;
        intermediate_ =
            device_.createBuffer(lineBytes * FFTB_INTERMEDIATE_BLOCK_LINES, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
        spectrum_ = device_.createBuffer(lineBytes * lines, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
        const TwiddleTables& tables = twiddleTables();
        twiddles_ =
            device_.createBuffer(VkDeviceSize(tables.totalElements) * 8, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
        tables.write(static_cast<float*>(twiddles_.mapped));

        // The passes run channel 0 here: the kernel spectrum's three channel bindings all hold the spectrum buffer.
        const uint32_t bindings[5] = {FFTB_BINDING_INTERMEDIATE, FFTB_BINDING_TWIDDLES, FFTB_BINDING_KERNEL_SPECTRUM,
                                      FFTB_BINDING_KERNEL_SPECTRUM + 1, FFTB_BINDING_KERNEL_SPECTRUM + 2};
        const SpirvModule* module = nullptr;
        for (size_t i = 0; i < kSpirvModuleCount; ++i)
            if (std::strcmp(kSpirvModules[i].name, shader) == 0)
                module = &kSpirvModules[i];
        if (std::strcmp(shader, kGeneratedPass) == 0)
        {
            const LineFftCode code =
                generateLineFft(length, kMaxWorkgroupSize,
                                [&](uint32_t span, uint32_t radix) { return tables.stageOffsetOf(span, radix); });
            generated_ = compileComputeShader(kGeneratedPass, {{"fft_generated.glsl", code.glsl}});
            generatedModule_ = {kGeneratedPass, generated_.data(), generated_.size() * sizeof(uint32_t)};
            module = &generatedModule_;
        }
        EXPECT_NE(module, nullptr) << shader;
        // The plugin's specialization (plugin/plan/plan.h, specializationOf, as plugin/src/pipelines.cpp compiles).
        const std::array<uint32_t, FFTB_SPEC_COUNT> values = specializationOf(length, workgroupSizeOf(length), false);
        VkSpecializationMapEntry entries[FFTB_SPEC_COUNT] = {};
        for (uint32_t id = 0; id < FFTB_SPEC_COUNT; ++id)
            entries[id] = {id, id * uint32_t(sizeof(uint32_t)), sizeof(uint32_t)};
        const VkSpecializationInfo spec{FFTB_SPEC_COUNT, entries, sizeof(values), values.data()};
        ComputePipelineInfo info;
        info.code = module->code;
        info.codeBytes = module->sizeBytes;
        for (uint32_t binding : bindings)
            info.bindings.push_back({binding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
        info.pushConstantBytes = sizeof(FftbPushConstants);
        info.specialization = &spec;
        pass_ = createComputePipeline(d, info);
        pool_ = createDescriptorSets(d, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 5}}, {pass_.setLayout}, &set_);
        const VkDescriptorBufferInfo infos[5] = {{intermediate_.buffer, 0, VK_WHOLE_SIZE},
                                                 {twiddles_.buffer, 0, VK_WHOLE_SIZE},
                                                 {spectrum_.buffer, 0, VK_WHOLE_SIZE},
                                                 {spectrum_.buffer, 0, VK_WHOLE_SIZE},
                                                 {spectrum_.buffer, 0, VK_WHOLE_SIZE}};
        VkWriteDescriptorSet writes[5] = {};
        for (int i = 0; i < 5; ++i)
        {
            writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            writes[i].dstSet = set_;
            writes[i].dstBinding = bindings[i];
            writes[i].descriptorCount = 1;
            writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
            writes[i].pBufferInfo = &infos[i];
        }
        vkUpdateDescriptorSets(d, 5, writes, 0, nullptr);
    }

    ~PassHarness()
    {
        const VkDevice d = device_.device();
        vkDestroyDescriptorPool(d, pool_, nullptr);
        destroyComputePipeline(d, pass_);
        for (VulkanDevice::Buffer* b : {&intermediate_, &spectrum_, &twiddles_})
            device_.destroy(*b);
    }

    PassHarness(const PassHarness&) = delete;
    PassHarness& operator=(const PassHarness&) = delete;

    /// Where element i of line `line` lies: plain lines, or the intermediate's block of `lines` lines.
    static uint64_t index(bool blocked, uint32_t length, uint32_t lines, uint32_t line, uint32_t i)
    {
        return blocked ? intermediateIndex(0, line, lines, i, length) : uint64_t(length) * line + i;
    }
    /// Line `line` of a buffer (the intermediate when `blocked`, else the kernel spectrum), `length` complex values.
    void put(bool blocked, VulkanDevice::Buffer& buffer, uint32_t line, const std::vector<Complex>& values) const
    {
        auto* f = static_cast<float*>(buffer.mapped);
        for (uint32_t i = 0; i < length_; ++i)
        {
            const uint64_t at = index(blocked, length_, lines_, line, i);
            f[2 * at] = float(values[i].real());
            f[2 * at + 1] = float(values[i].imag());
        }
    }
    std::vector<Complex> get(bool blocked, const VulkanDevice::Buffer& buffer, uint32_t line) const
    {
        const auto* f = static_cast<const float*>(buffer.mapped);
        std::vector<Complex> values(length_);
        for (uint32_t i = 0; i < length_; ++i)
        {
            const uint64_t at = index(blocked, length_, lines_, line, i);
            values[i] = Complex(f[2 * at], f[2 * at + 1]);
        }
        return values;
    }

    /// Dispatches `workgroups` workgroups.
    void run(const FftbPushConstants& push, uint32_t workgroups)
    {
        VkCommandBuffer cb = device_.beginCommands();
        bindComputePipeline(cb, pass_, set_, &push, sizeof(push));
        vkCmdDispatch(cb, workgroups, 1, 1);
        recordHostReadBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT);
        device_.submitAndWait(cb);
    }

    VulkanDevice device_;
    uint32_t length_, lines_;
    VulkanDevice::Buffer intermediate_, spectrum_, twiddles_;

  private:
    std::vector<uint32_t> generated_;
    SpirvModule generatedModule_{};
    ComputePipeline pass_;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    VkDescriptorSet set_ = VK_NULL_HANDLE;
};

std::vector<Complex> randomLine(uint32_t length, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<Complex> line(length);
    for (Complex& z : line)
        z = Complex(u(rng), u(rng));
    return line;
}

/// The unnormalized DFT, exp(-+2 pi i k n / N), in double precision.
std::vector<Complex> dft(std::vector<Complex> line, bool inverse)
{
    const int n = int(line.size());
    auto* data = reinterpret_cast<fftw_complex*>(line.data());
    fftw_plan plan = fftw_plan_dft_1d(n, data, data, inverse ? FFTW_BACKWARD : FFTW_FORWARD, FFTW_ESTIMATE);
    fftw_execute(plan);
    fftw_destroy_plan(plan);
    return line;
}

/// max |gpu - reference| / max |reference|.
double lineError(const std::vector<Complex>& gpu, const std::vector<Complex>& reference)
{
    double error = 0.0, peak = 0.0;
    for (size_t i = 0; i < gpu.size(); ++i)
    {
        error = std::max(error, std::abs(gpu[i] - reference[i]));
        peak = std::max(peak, std::abs(reference[i]));
    }
    return error / peak;
}

// Lengths past 4096, one per register radix the planner picks (radicesOf's first entry): 4375 = 5 * 875,
// 6125 = 7 * 875, 6144 = 2 * 3072, 6561 = 3 * 2187, 8192 = 2 * 4096, 16384 = 4 * 4096.
const uint32_t kLongLengths[] = {4375, 6125, 6144, 6561, 8192, 16384};

TEST(LongFft, LengthsCoverEveryRegisterRadix)
{
    std::set<uint32_t> radices;
    for (const uint32_t n : kLongLengths)
    {
        ASSERT_TRUE(isFftLength(n)) << n;
        ASSERT_NE(sharedLengthOf(n), n) << n;
        radices.insert(radicesOf(n).front());
    }
    EXPECT_EQ(radices, (std::set<uint32_t>{2, 3, 4, 5, 7}));
}

class FftLength : public ::testing::TestWithParam<uint32_t>
{
};

// kernel_fft_second with its centre at 0 (phase factor exactly 1) is a plain forward FFT of each line.
TEST_P(FftLength, ForwardMatchesTheDoublePrecisionDft)
{
    const uint32_t n = GetParam();
    const uint32_t lines = 2;
    PassHarness h("kernel_fft_second", n, lines);
    std::vector<std::vector<Complex>> inputs;
    for (uint32_t line = 0; line < lines; ++line)
    {
        inputs.push_back(randomLine(n, n + line));
        h.put(true, h.intermediate_, line, inputs.back());
    }
    FftbPushConstants push{};
    push.kernelLength2 = n;
    push.spectrumLength2 = n;
    push.spectrumLength1 = 2; // two half-spectrum lines k1 = 0, 1: the two workgroups
    push.spectrumTwiddleOffset1 = twiddleTables().offsetOf(2);
    h.run(push, lines); // one workgroup per line
    for (uint32_t line = 0; line < lines; ++line)
    {
        const double error = lineError(h.get(false, h.spectrum_, line), dft(inputs[line], false));
        EXPECT_LE(error, Tolerance::kFp32) << "length " << n << " line " << line;
        std::printf("length %u forward error %.3g\n", n, error);
    }
    EXPECT_EQ(h.device_.validationMessageCount(), 0u) << h.device_.firstValidationMessage();
}

// `shader` (pass 2) with an exact spectrum on two lines of length n: inverse FFT of (forward FFT x spectrum) / n, a
// circular convolution, against the same in double precision; with a unit spectrum (line 0), the round trip.
void expectProductInverseMatchesTheDft(const char* shader, uint32_t n)
{
    const uint32_t lines = 2;
    PassHarness h(shader, n, lines);
    std::vector<std::vector<Complex>> inputs, spectra;
    for (uint32_t line = 0; line < lines; ++line)
    {
        inputs.push_back(randomLine(n, 3 * n + line));
        spectra.push_back(line == 0 ? std::vector<Complex>(n, Complex(1.0)) : randomLine(n, 5 * n + line));
        h.put(true, h.intermediate_, line, inputs.back());
        h.put(false, h.spectrum_, line, spectra.back());
    }
    FftbPushConstants push{};
    push.imageLength2 = n;
    push.paddedLength1 = 2; // two half-spectrum lines k1 = 0, 1
    push.paddedLength2 = n;
    push.mirrorSplit2 = n;
    push.spectrumLength1 = 2;
    push.spectrumLength2 = n;
    push.padding = FFTB_GPU_PADDING_ZERO;
    push.flags = 0; // exact mode, the first axis y
    push.sharpen = 0.0f;
    push.inverseScale = float(1.0 / n);
    h.run(push, lines); // one workgroup per line
    for (uint32_t line = 0; line < lines; ++line)
    {
        std::vector<Complex> expected = dft(inputs[line], false);
        for (uint32_t k = 0; k < n; ++k)
            expected[k] *= spectra[line][k] / double(n);
        expected = dft(expected, true);
        const double error = lineError(h.get(true, h.intermediate_, line), expected);
        EXPECT_LE(error, Tolerance::kFp32) << "length " << n << (line == 0 ? " round trip" : " random spectrum");
        std::printf("length %u %s error %.3g\n", n, line == 0 ? "round trip" : "product", error);
    }
    EXPECT_EQ(h.device_.validationMessageCount(), 0u) << h.device_.firstValidationMessage();
}

// image_fft_second_convolve_ifft_second (the generic FFT).
TEST_P(FftLength, ForwardProductInverseMatchesTheDoublePrecisionDft)
{
    expectProductInverseMatchesTheDft("image_fft_second_convolve_ifft_second", GetParam());
}

// Every radix alone and mixed (3 .. 3375, in shared memory), 4096, the longest line in shared memory alone, as the
// baseline the long lengths' errors compare with, and the long lengths.
INSTANTIATE_TEST_SUITE_P(Lengths, FftLength,
                         ::testing::Values(3u, 5u, 7u, 15u, 45u, 105u, 243u, 1215u, 2187u, 2430u, 3375u, 4096u, 4375u,
                                           6125u, 6144u, 6561u, 8192u, 16384u),
                         [](const ::testing::TestParamInfo<uint32_t>& p) { return std::to_string(p.param); });

// The generated FFT of pass 2 at every radix alone and in each stage position, radix 2 alone (2, 6), the lengths of
// the benchmark's frames (1225 = 5 7 7 5, 1344, 1536, 2048 = 4 8 8 8, 2240) and 4096 = 8 8 8 8; rounds of a stage
// partly past its butterflies (1225, 2240); the workgroup of the device's largest (kMaxWorkgroupSize).
class GeneratedFftLength : public ::testing::TestWithParam<uint32_t>
{
};

TEST_P(GeneratedFftLength, ForwardProductInverseMatchesTheDoublePrecisionDft)
{
    expectProductInverseMatchesTheDft(kGeneratedPass, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Lengths, GeneratedFftLength,
                         ::testing::Values(2u, 3u, 4u, 5u, 6u, 7u, 8u, 16u, 105u, 243u, 1000u, 1225u, 1344u, 1536u,
                                           2048u, 2240u, 3375u, 4096u),
                         [](const ::testing::TestParamInfo<uint32_t>& p) { return std::to_string(p.param); });

} // namespace
} // namespace fftb::test
