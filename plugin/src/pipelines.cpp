// SPDX-License-Identifier: MIT
// Layouts, shader modules, compiled pipelines and the descriptors each pass pushes.
#include "pipelines.h"

#include "fft_codegen.h"
#include "fftbloom_spirv.h"
#include "shader_compiler.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <utility>

namespace fftb
{

namespace
{

#ifndef FFTB_GENERATED_FFT
#define FFTB_GENERATED_FFT 1
#endif
/// Whether pass 2 runs its generated FFT where it has one (generatedFftWorkgroupSize); 0 in the plugin built with the
/// passes fftbloom-shaders exported (tests/exported), which runs those alone.
constexpr bool kGeneratedFft = FFTB_GENERATED_FFT;

/// The bindings of each layout (Bindings), in binding order; the image arrays come last.
constexpr uint32_t kKernelBindings[] = {
    FFTB_BINDING_INTERMEDIATE,    FFTB_BINDING_KERNEL_TEXELS,       FFTB_BINDING_TWIDDLES,
    FFTB_BINDING_KERNEL_SPECTRUM, FFTB_BINDING_KERNEL_SPECTRUM + 1, FFTB_BINDING_KERNEL_SPECTRUM + 2};
constexpr uint32_t kFrameBindings[] = {
    FFTB_BINDING_INTERMEDIATE,        FFTB_BINDING_KERNEL_TEXELS,   FFTB_BINDING_TWIDDLES,
    FFTB_BINDING_BORDER_WEIGHTS,      FFTB_BINDING_KERNEL_SPECTRUM, FFTB_BINDING_KERNEL_SPECTRUM + 1,
    FFTB_BINDING_KERNEL_SPECTRUM + 2, FFTB_BINDING_INPUT_IMAGE,     FFTB_BINDING_OUTPUT_IMAGE};
constexpr uint32_t kGeneratorBindings[] = {FFTB_BINDING_INTERMEDIATE, FFTB_BINDING_KERNEL_TEXELS,
                                           FFTB_BINDING_TWIDDLES};
static_assert(std::size(kFrameBindings) == FFTB_BINDING_COUNT);

std::pair<const uint32_t*, uint32_t> bindingsOf(Bindings b)
{
    switch (b)
    {
    case Bindings::Kernel:
        return {kKernelBindings, uint32_t(std::size(kKernelBindings))};
    case Bindings::Frame:
        return {kFrameBindings, uint32_t(std::size(kFrameBindings))};
    case Bindings::Generator:
        break;
    }
    return {kGeneratorBindings, uint32_t(std::size(kGeneratorBindings))};
}

const char* labelOf(Pass pass)
{
    static constexpr const char* labels[] = {
        "fftbloom: kernel spectrum, first-axis FFT",
        "fftbloom: kernel spectrum, second-axis FFT",
        "fftbloom: kernel spectrum at the frame's frequencies",
        "fftbloom: pass 1, first-axis FFT",
        "fftbloom: pass 2, second-axis FFT, Hadamard product, inverse FFT",
        "fftbloom: pass 3, first-axis inverse FFT, composite",
        "fftbloom: pass 4, upsample, composite",
        "fftbloom: PSF, aperture and row FFT",
        "fftbloom: PSF, column FFT and diffraction pattern",
        "fftbloom: PSF, spectral integration to RGB",
        "fftbloom: PSF, normalization",
    };
    static_assert(std::size(labels) == size_t(Pass::Count));
    return labels[uint32_t(pass)];
}

} // namespace

Pipelines::Pipelines(std::shared_ptr<const Device> device, VkPipelineCache cache, VkBuffer twiddles)
    : device_(std::move(device)), vk_(device_->vk), cache_(cache), twiddles_(twiddles)
{
    const VkPhysicalDeviceLimits& limits = device_->properties.limits;
    limits_.maxWorkgroupInvocations =
        std::min(limits.maxComputeWorkGroupInvocations, limits.maxComputeWorkGroupSize[0]);
    limits_.maxSharedMemoryBytes = limits.maxComputeSharedMemorySize;
    try
    {
        createLayouts();
    }
    catch (...)
    {
        destroy();
        throw;
    }
}

Pipelines::~Pipelines()
{
    destroy();
}

void Pipelines::destroy()
{
    const VkDevice d = device_->device;
    for (auto& [key, pipeline] : pipelines_)
        vk_.vkDestroyPipeline(d, pipeline, device_->allocator);
    pipelines_.clear();
    for (VkShaderModule& module : modules_)
        if (module)
            vk_.vkDestroyShaderModule(d, std::exchange(module, VK_NULL_HANDLE), device_->allocator);
    for (VkPipelineLayout& layout : pipelineLayouts_)
        if (layout)
            vk_.vkDestroyPipelineLayout(d, std::exchange(layout, VK_NULL_HANDLE), device_->allocator);
    for (VkDescriptorSetLayout& layout : setLayouts_)
        if (layout)
            vk_.vkDestroyDescriptorSetLayout(d, std::exchange(layout, VK_NULL_HANDLE), device_->allocator);
    if (sampler_)
        vk_.vkDestroySampler(d, std::exchange(sampler_, VK_NULL_HANDLE), device_->allocator);
}

void Pipelines::createLayouts()
{
    const VkDevice d = device_->device;
    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sci.magFilter = sci.minFilter = VK_FILTER_NEAREST;
    sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    sci.maxLod = 0.0f;
    device_->check(vk_.vkCreateSampler(d, &sci, device_->allocator, &sampler_), "vkCreateSampler");
    // The image bindings hold one view each of a plan of several views.
    std::array<VkSampler, FFTB_MAX_VIEWS> samplers;
    samplers.fill(sampler_);
    for (Bindings b : {Bindings::Kernel, Bindings::Frame, Bindings::Generator})
    {
        const auto [numbers, count] = bindingsOf(b);
        VkDescriptorSetLayoutBinding bindings[FFTB_BINDING_COUNT] = {};
        for (uint32_t i = 0; i < count; ++i)
        {
            bindings[i] = {numbers[i], VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
            if (numbers[i] == FFTB_BINDING_INPUT_IMAGE)
                bindings[i] = {numbers[i], VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FFTB_MAX_VIEWS,
                               VK_SHADER_STAGE_COMPUTE_BIT, samplers.data()};
            if (numbers[i] == FFTB_BINDING_OUTPUT_IMAGE)
                bindings[i] = {numbers[i], VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, FFTB_MAX_VIEWS,
                               VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
        }
        VkDescriptorSetLayoutCreateInfo dlci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
        dlci.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
        dlci.bindingCount = count;
        dlci.pBindings = bindings;
        VkDescriptorSetLayout& setLayout = setLayouts_[uint32_t(b)];
        device_->check(vk_.vkCreateDescriptorSetLayout(d, &dlci, device_->allocator, &setLayout),
                       "vkCreateDescriptorSetLayout");
        // The generator's passes push FftbPsfPushConstants, which fit the same range.
        const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(FftbPushConstants)};
        static_assert(sizeof(FftbPsfPushConstants) <= sizeof(FftbPushConstants));
        VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
        plci.setLayoutCount = 1;
        plci.pSetLayouts = &setLayout;
        plci.pushConstantRangeCount = 1;
        plci.pPushConstantRanges = &range;
        device_->check(vk_.vkCreatePipelineLayout(d, &plci, device_->allocator, &pipelineLayouts_[uint32_t(b)]),
                       "vkCreatePipelineLayout");
    }
    for (uint32_t i = 0; i < uint32_t(Pass::Count); ++i)
    {
        VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        smci.codeSize = kSpirvModules[i].sizeBytes;
        smci.pCode = kSpirvModules[i].code;
        device_->check(vk_.vkCreateShaderModule(d, &smci, device_->allocator, &modules_[i]), "vkCreateShaderModule");
    }
}

void Pipelines::compile(const std::vector<PipelineKey>& keys)
{
    for (const PipelineKey& key : keys)
    {
        {
            const std::lock_guard lock(mutex_);
            if (pipelines_.count(key))
                continue;
        }
        // Compiled outside the lock: another thread may compile others meanwhile.
        const std::vector<std::array<uint32_t, 2>> values = specializationOf(key, limits_);
        std::vector<VkSpecializationMapEntry> entries;
        std::vector<uint32_t> data;
        for (const auto& [id, value] : values)
        {
            entries.push_back({id, uint32_t(data.size() * sizeof(uint32_t)), sizeof(uint32_t)});
            data.push_back(value);
        }
        const VkSpecializationInfo spec{uint32_t(entries.size()), entries.data(), data.size() * sizeof(uint32_t),
                                        data.data()};
        const VkShaderModule generated = generatedModule(key);
        VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
        cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
        cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        cpci.stage.module = generated ? generated : modules_[uint32_t(key.pass)];
        cpci.stage.pName = "main";
        cpci.stage.pSpecializationInfo = &spec;
        cpci.layout = pipelineLayouts_[uint32_t(fftb::bindingsOf(key.pass))];
        if (device_->getPipelineExecutableStatistics)
            cpci.flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
        VkPipeline p = VK_NULL_HANDLE;
        const VkResult created =
            vk_.vkCreateComputePipelines(device_->device, cache_, 1, &cpci, device_->allocator, &p);
        if (generated)
            vk_.vkDestroyShaderModule(device_->device, generated, device_->allocator);
        device_->check(created, "vkCreateComputePipelines");
        device_->setName(VK_OBJECT_TYPE_PIPELINE, uint64_t(p),
                         std::string(labelOf(key.pass)) + " (FFT length " + std::to_string(key.fftLength) + ")");
        const std::lock_guard lock(mutex_);
        if (!pipelines_.emplace(key, p).second) // another thread compiled it meanwhile
            vk_.vkDestroyPipeline(device_->device, p, device_->allocator);
    }
}

VkShaderModule Pipelines::generatedModule(const PipelineKey& key) const
{
    if (!kGeneratedFft || generatedFftWorkgroupSize(key, limits_) == 0)
        return VK_NULL_HANDLE;
    const LineFftCode code =
        generateLineFft(key.fftLength, limits_.maxWorkgroupInvocations,
                        [](uint32_t span, uint32_t radix) { return twiddleTables().stageOffsetOf(span, radix); });
    std::vector<uint32_t> spirv;
    try
    {
        spirv = compileComputeShader("image_fft_second_convolve_ifft_second_generated.comp",
                                     {{"fft_generated.glsl", code.glsl}});
    }
    catch (const std::runtime_error& e) // the generator's or the build's fault: no input makes it
    {
        throw Failure{FFTB_ERROR_UNSUPPORTED, VK_SUCCESS,
                      "the generated FFT of length " + std::to_string(key.fftLength) + " did not compile: " + e.what()};
    }
    VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smci.codeSize = spirv.size() * sizeof(uint32_t);
    smci.pCode = spirv.data();
    VkShaderModule module = VK_NULL_HANDLE;
    device_->check(vk_.vkCreateShaderModule(device_->device, &smci, device_->allocator, &module),
                   "vkCreateShaderModule");
    return module;
}

uint32_t Pipelines::workgroupSizeOf(const PipelineKey& key) const
{
    const uint32_t generated = kGeneratedFft ? generatedFftWorkgroupSize(key, limits_) : 0;
    return generated != 0 ? generated : fftb::workgroupSizeOf(key, limits_);
}

VkPipeline Pipelines::get(const PipelineKey& key) const
{
    const std::lock_guard lock(mutex_);
    return pipelines_.at(key);
}

void Pipelines::pushDescriptors(VkCommandBuffer cb, Bindings b, const PassResources& r) const
{
    VkDescriptorImageInfo inputs[FFTB_MAX_VIEWS] = {}, outputs[FFTB_MAX_VIEWS] = {};
    // Every element of the image arrays is written: those past the view count with view 0 (fftb_shared.h).
    for (uint32_t i = 0; b == Bindings::Frame && i < FFTB_MAX_VIEWS; ++i)
    {
        const uint32_t view = i < r.views ? i : 0;
        inputs[i] = {VK_NULL_HANDLE, r.inputViews[view], r.inputLayout};
        outputs[i] = {VK_NULL_HANDLE, r.outputViews[view], VK_IMAGE_LAYOUT_GENERAL};
    }
    VkDescriptorBufferInfo buffers[FFTB_BINDING_COUNT] = {};
    buffers[FFTB_BINDING_INTERMEDIATE] = {r.intermediate, r.intermediateOffset, r.intermediateSize};
    buffers[FFTB_BINDING_KERNEL_TEXELS] = {r.kernelTexels, 0, VK_WHOLE_SIZE};
    buffers[FFTB_BINDING_TWIDDLES] = {twiddles_, 0, VK_WHOLE_SIZE};
    buffers[FFTB_BINDING_BORDER_WEIGHTS] = {r.borderWeights, 0, VK_WHOLE_SIZE};
    // The kernel spectrum's channels, each its own range of the buffer.
    for (VkDeviceSize c = 0; c < 3; ++c)
        buffers[FFTB_BINDING_KERNEL_SPECTRUM + c] = {r.kernelSpectrum, c * r.kernelSpectrumChannelBytes,
                                                     r.kernelSpectrumChannelBytes};
    const auto [numbers, count] = bindingsOf(b);
    VkWriteDescriptorSet writes[FFTB_BINDING_COUNT] = {};
    for (uint32_t i = 0; i < count; ++i)
    {
        VkWriteDescriptorSet& w = writes[i];
        w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w.dstBinding = numbers[i];
        w.descriptorCount = 1;
        w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w.pBufferInfo = &buffers[numbers[i]];
        if (numbers[i] == FFTB_BINDING_INPUT_IMAGE || numbers[i] == FFTB_BINDING_OUTPUT_IMAGE)
        {
            const bool input = numbers[i] == FFTB_BINDING_INPUT_IMAGE;
            w.descriptorCount = FFTB_MAX_VIEWS;
            w.descriptorType = input ? VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER : VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
            w.pImageInfo = input ? inputs : outputs;
            w.pBufferInfo = nullptr;
        }
    }
    device_->cmdPushDescriptorSet(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipelineLayouts_[uint32_t(b)], 0, count, writes);
}

std::vector<CompiledDispatch> Pipelines::compiled(const std::vector<Dispatch>& dispatches) const
{
    std::vector<CompiledDispatch> result;
    for (const Dispatch& d : dispatches)
        result.push_back({get(d.pipeline), d.pipeline.pass, d.groups, d.timestampAfter});
    return result;
}

void Pipelines::dispatch(VkCommandBuffer cb, const CompiledDispatch& d, const PassResources& resources,
                         const void* push, uint32_t pushBytes) const
{
    const Bindings b = fftb::bindingsOf(d.pass);
    device_->cmdBeginLabel(cb, labelOf(d.pass));
    vk_.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, d.pipeline);
    pushDescriptors(cb, b, resources);
    vk_.vkCmdPushConstants(cb, pipelineLayouts_[uint32_t(b)], VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes, push);
    vk_.vkCmdDispatch(cb, d.groups[0], d.groups[1], d.groups[2]);
    device_->cmdEndLabel(cb);
}

} // namespace fftb
