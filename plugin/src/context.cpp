// SPDX-License-Identifier: MIT
// Context creation, resources, pipelines and descriptor sets.
#include "context.h"

#include "fftbloom_spirv.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

namespace fftb
{

static_assert(sizeof(FftbPushConstants) <= 32 * 4 && sizeof(FftbPushConstants) % 4 == 0,
              "push constants: 4-byte scalars within the 128 bytes every device has");
static_assert(kTapTableEntryBytes == FFTB_TAP_TABLE_ENTRY_UNITS * 16, "plan.h and fftb_shared.h disagree");
static_assert(kMaxInterpolationWidth == FFTB_MAX_INTERPOLATION_WIDTH, "resampling.h and fftb_shared.h disagree");
static_assert(kMaxElementsPerInvocation == FFTB_MAX_ELEMENTS_PER_INVOCATION, "plan.h and fftb_shared.h disagree");
static_assert(kMaxSharedFftLength == FFTB_MAX_SHARED_FFT_LENGTH, "plan.h and fftb_shared.h disagree");
static_assert(kMaxHeldElementsPerInvocation == FFTB_MAX_HELD_ELEMENTS_PER_INVOCATION,
              "plan.h and fftb_shared.h disagree");
static_assert(kTwiddleFineElements == FFTB_TWIDDLE_FINE_ELEMENTS, "plan.h and fftb_shared.h disagree");
static_assert(FFTB_SPEC_FFT_LENGTH == 0 && FFTB_SPEC_WORKGROUP_SIZE == 1 && FFTB_SPEC_TWIDDLE_OFFSET == 2 &&
                  FFTB_SPEC_SHARED_LENGTH == 3 && FFTB_SPEC_SHARED_TWIDDLE_OFFSET == 4 && FFTB_SPEC_HALF_STORAGE == 5 &&
                  FFTB_SPEC_RADIX_0 == kSpecializationFirstRadix && FFTB_SPEC_RADIX_7 + 1 == FFTB_SPEC_ROW_LENGTH &&
                  FFTB_SPEC_ROW_LENGTH + 1 == FFTB_SPEC_MULTI_VIEW &&
                  FFTB_SPEC_MULTI_VIEW == kSpecializationMultiView &&
                  FFTB_SPEC_MULTI_VIEW + 1 == kSpecializationConstantCount &&
                  FFTB_MAX_SHARED_STAGES == kMaxSharedStages,
              "plan.h (specializationOf) and fftb_shared.h disagree");
static_assert(kMinBorderWeight == FFTB_MIN_BORDER_WEIGHT, "plan.h and fftb_shared.h disagree");
static_assert(kMaxFftLength == FFTB_MAX_FFT_LENGTH && kMaxKernelLength == FFTB_MAX_KERNEL_LENGTH,
              "plan.h and fftbloom.h disagree");
static_assert(FFTB_GPU_MAX_VIEWS == FFTB_MAX_VIEWS, "fftb_shared.h and fftbloom.h disagree");

Context::Context(const FftbContextCreateInfo& info)
    : device_(std::make_shared<const Device>(info)), vk_(device_->vk), max_(extentsOf(info)), flags_(info.flags),
      pipelineCache_(info.pipelineCache), descriptorSets_(info.maxFramesInFlight == 0 ? 3 : info.maxFramesInFlight)
{
    if (auto planner = findInChain<FftbPlannerInfo>(info.pNext, FFTB_STRUCTURE_TYPE_PLANNER_INFO))
        lengths_ = planner->lengthPolicy == FFTB_LENGTH_POLICY_POWER_OF_TWO ? LengthPolicy::PowerOfTwo
                                                                            : LengthPolicy::MixedRadix;
    try
    {
        scratch_ = makeScratch(max_, info.pNext);
        // Every FFT length's table, 2.5 MiB in all: pipelines for any length can then be made while recording.
        const TwiddleTables& tables = twiddleTables();
        twiddles_ = device_->createBuffer(VkDeviceSize(sizeof(float)) * 2 * tables.totalElements, true);
        tables.write(static_cast<float*>(twiddles_.mapped));
        createLayouts();
    }
    catch (...)
    {
        destroy();
        throw;
    }
}

Context::~Context()
{
    destroy();
}

void Context::destroy()
{
    for (auto& [key, pipeline] : pipelines_)
        vk_.vkDestroyPipeline(device_->device, pipeline, device_->allocator);
    pipelines_.clear();
    for (VkShaderModule& module : modules_)
        if (module)
            vk_.vkDestroyShaderModule(device_->device, std::exchange(module, VK_NULL_HANDLE), device_->allocator);
    if (descriptorPool_)
        vk_.vkDestroyDescriptorPool(device_->device, std::exchange(descriptorPool_, VK_NULL_HANDLE),
                                    device_->allocator);
    for (VkPipelineLayout* layout : {&pipelineLayout_, &generatorPipelineLayout_})
        if (*layout)
            vk_.vkDestroyPipelineLayout(device_->device, std::exchange(*layout, VK_NULL_HANDLE), device_->allocator);
    if (generatorSetLayout_)
        vk_.vkDestroyDescriptorSetLayout(device_->device, std::exchange(generatorSetLayout_, VK_NULL_HANDLE),
                                         device_->allocator);
    if (setLayout_)
        vk_.vkDestroyDescriptorSetLayout(device_->device, std::exchange(setLayout_, VK_NULL_HANDLE),
                                         device_->allocator);
    if (sampler_)
        vk_.vkDestroySampler(device_->device, std::exchange(sampler_, VK_NULL_HANDLE), device_->allocator);
    device_->destroyBuffer(twiddles_);
    device_->destroyBuffer(scratch_.owned);
    device_->destroyBuffer(borderWeights_.buffer);
}

Scratch Context::makeScratch(const Extents& extents, const void* chain) const
{
    ScratchSizes sizes;
    std::string reason;
    if (!scratchSizes(extents.width, extents.height, extents.scratchKernelWidth(), extents.scratchKernelHeight(),
                      lengths_, &sizes, &reason, extents.views))
        throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS, "maxWidth, maxHeight: " + reason};
    // Shaders index the scratch with 32-bit element offsets and bind it whole.
    const VkDeviceSize bytes = sizes.scratchBytes;
    const VkPhysicalDeviceLimits& limits = device_->properties.limits;
    if (bytes > limits.maxStorageBufferRange)
        throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS,
                      "maxWidth, maxHeight, maxKernelResolution*, maxKernelExtent*, maxViews: the scratch needs " +
                          std::to_string(bytes) + " bytes, past the device's maxStorageBufferRange of " +
                          std::to_string(limits.maxStorageBufferRange)};
    if (auto next = findInChain<FftbScratchInfo>(chain, FFTB_STRUCTURE_TYPE_SCRATCH_INFO))
    {
        if (!next->buffer)
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "FftbScratchInfo.buffer: VK_NULL_HANDLE"};
        if (next->offset % limits.minStorageBufferOffsetAlignment != 0)
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                          "FftbScratchInfo.offset: " + std::to_string(next->offset) +
                              " is not a multiple of minStorageBufferOffsetAlignment (" +
                              std::to_string(limits.minStorageBufferOffsetAlignment) + ")"};
        if (next->size < bytes)
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                          "FftbScratchInfo.size: " + std::to_string(next->size) + " bytes, the maximum extents need " +
                              std::to_string(bytes) + " (fftbGetMemoryRequirements)"};
        Scratch s;
        s.buffer = next->buffer;
        s.offset = next->offset;
        s.size = std::min<VkDeviceSize>(next->size, limits.maxStorageBufferRange);
        return s;
    }
    Scratch s;
    s.owned = device_->createBuffer(bytes, false);
    s.buffer = s.owned.buffer;
    s.size = s.owned.sizeBytes;
    return s;
}

void Context::resize(const FftbResizeInfo& info)
{
    const Extents extents = extentsOf(info);
    // The new scratch first: on failure the context keeps the old one and stays usable.
    Scratch scratch = makeScratch(extents, info.pNext);
    device_->destroyBuffer(scratch_.owned);
    scratch_ = scratch;
    max_ = extents;
    // Allocated again at the new extent when next used.
    device_->destroyBuffer(borderWeights_.buffer);
    borderWeights_ = BorderWeights{};
}

Kernel* Context::createKernel(const FftbKernelInfo& info)
{
    if (info.width == 0 || info.height == 0 || info.width > max_.kernelWidth || info.height > max_.kernelHeight)
        throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS,
                      "kernelInfo.width, height: " + std::to_string(info.width) + "x" + std::to_string(info.height) +
                          " outside 1x1 .. " + std::to_string(max_.kernelWidth) + "x" +
                          std::to_string(max_.kernelHeight) +
                          " (the context's maximum kernel resolution, maxKernelResolutionWidth x Height)"};
    return new Kernel(device_, info, max_.width, max_.height, lengths_);
}

void Context::createLayouts()
{
    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sci.magFilter = sci.minFilter = VK_FILTER_NEAREST;
    sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    sci.maxLod = 0.0f;
    device_->check(vk_.vkCreateSampler(device_->device, &sci, device_->allocator, &sampler_), "vkCreateSampler");

    VkDescriptorSetLayoutBinding bindings[FFTB_BINDING_COUNT] = {};
    for (uint32_t i = 0; i < FFTB_BINDING_COUNT; ++i)
    {
        bindings[i].binding = i;
        bindings[i].descriptorCount = 1;
        bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
        bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    }
    // The image bindings hold one view each of a multi-view bloom (FftbMultiViewInfo).
    const std::array<VkSampler, FFTB_MAX_VIEWS> samplers = [&]
    {
        std::array<VkSampler, FFTB_MAX_VIEWS> s;
        s.fill(sampler_);
        return s;
    }();
    bindings[FFTB_BINDING_INPUT_IMAGE].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    bindings[FFTB_BINDING_INPUT_IMAGE].descriptorCount = FFTB_MAX_VIEWS;
    bindings[FFTB_BINDING_INPUT_IMAGE].pImmutableSamplers = samplers.data();
    bindings[FFTB_BINDING_OUTPUT_IMAGE].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    bindings[FFTB_BINDING_OUTPUT_IMAGE].descriptorCount = FFTB_MAX_VIEWS;
    VkDescriptorSetLayoutCreateInfo dlci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dlci.bindingCount = FFTB_BINDING_COUNT;
    dlci.pBindings = bindings;
    device_->check(vk_.vkCreateDescriptorSetLayout(device_->device, &dlci, device_->allocator, &setLayout_),
                   "vkCreateDescriptorSetLayout");

    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(FftbPushConstants)};
    VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plci.setLayoutCount = 1;
    plci.pSetLayouts = &setLayout_;
    plci.pushConstantRangeCount = 1;
    plci.pPushConstantRanges = &range;
    device_->check(vk_.vkCreatePipelineLayout(device_->device, &plci, device_->allocator, &pipelineLayout_),
                   "vkCreatePipelineLayout");

    // The PSF generator's: the three buffers its passes bind, under the same binding numbers.
    constexpr uint32_t generatorBindings[] = {FFTB_BINDING_INTERMEDIATE, FFTB_BINDING_KERNEL_TEXELS,
                                              FFTB_BINDING_TWIDDLES};
    VkDescriptorSetLayoutBinding generator[std::size(generatorBindings)] = {};
    for (size_t i = 0; i < std::size(generatorBindings); ++i)
        generator[i] = bindings[generatorBindings[i]];
    dlci.bindingCount = uint32_t(std::size(generator));
    dlci.pBindings = generator;
    device_->check(vk_.vkCreateDescriptorSetLayout(device_->device, &dlci, device_->allocator, &generatorSetLayout_),
                   "vkCreateDescriptorSetLayout");
    plci.pSetLayouts = &generatorSetLayout_;
    device_->check(vk_.vkCreatePipelineLayout(device_->device, &plci, device_->allocator, &generatorPipelineLayout_),
                   "vkCreatePipelineLayout");

    const uint32_t setCount = uint32_t(descriptorSets_.size());
    const VkDescriptorPoolSize sizes[] = {
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, setCount * FFTB_MAX_VIEWS},
        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, setCount * FFTB_MAX_VIEWS},
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         setCount * (FFTB_BINDING_COUNT - 2) + setCount * uint32_t(std::size(generatorBindings))},
    };
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.maxSets = 2 * setCount;
    dpci.poolSizeCount = 3;
    dpci.pPoolSizes = sizes;
    device_->check(vk_.vkCreateDescriptorPool(device_->device, &dpci, device_->allocator, &descriptorPool_),
                   "vkCreateDescriptorPool");

    std::vector<VkDescriptorSetLayout> layouts(setCount, setLayout_);
    VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dsai.descriptorPool = descriptorPool_;
    dsai.descriptorSetCount = setCount;
    dsai.pSetLayouts = layouts.data();
    device_->check(vk_.vkAllocateDescriptorSets(device_->device, &dsai, descriptorSets_.data()),
                   "vkAllocateDescriptorSets");
    generatorSets_.resize(setCount);
    layouts.assign(setCount, generatorSetLayout_);
    dsai.pSetLayouts = layouts.data();
    device_->check(vk_.vkAllocateDescriptorSets(device_->device, &dsai, generatorSets_.data()),
                   "vkAllocateDescriptorSets");

    for (uint32_t i = 0; i < uint32_t(Pass::Count); ++i)
    {
        VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        smci.codeSize = kSpirvModules[i].sizeBytes;
        smci.pCode = kSpirvModules[i].code;
        device_->check(vk_.vkCreateShaderModule(device_->device, &smci, device_->allocator, &modules_[i]),
                       "vkCreateShaderModule");
    }
}

uint32_t Context::workgroupSizeFor(uint32_t fftLength) const
{
    const VkPhysicalDeviceLimits& limits = device_->properties.limits;
    return workgroupSizeOf(fftLength,
                           std::min(limits.maxComputeWorkGroupInvocations, limits.maxComputeWorkGroupSize[0]));
}

VkPipeline Context::pipeline(const PipelineKey& key)
{
    {
        const std::lock_guard lock(pipelineMutex_);
        if (auto it = pipelines_.find(key); it != pipelines_.end())
            return it->second;
    }
    const auto [pass, fftLength, halfStorage, rowLength, multiView] = key;
    VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpci.stage.module = modules_[uint32_t(pass)];
    cpci.stage.pName = "main";
    cpci.layout = layoutOf(pass);
    if (device_->getPipelineExecutableStatistics)
        cpci.flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    if (fftLength == 0) // a pass without an FFT: only whether it blooms several views
    {
        const VkBool32 value = multiView ? VK_TRUE : VK_FALSE;
        const VkSpecializationMapEntry entry{FFTB_SPEC_MULTI_VIEW, 0, sizeof value};
        const VkSpecializationInfo spec{1, &entry, sizeof value, &value};
        cpci.stage.pSpecializationInfo = pass == Pass::ImageUpsampleComposite ? &spec : nullptr;
        return createPipeline(key, cpci);
    }
    const VkPhysicalDeviceLimits& limits = device_->properties.limits;
    const uint32_t workgroupSize = workgroupSizeFor(fftLength);
    const uint32_t sharedLength = std::max(sharedLengthOf(fftLength), rowLength);
    if (workgroupSize == 0)
        throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS,
                      "FFT length " + std::to_string(fftLength) +
                          " needs more invocations per workgroup than the device "
                          "allows (maxComputeWorkGroupInvocations " +
                          std::to_string(limits.maxComputeWorkGroupInvocations) + ", maxComputeWorkGroupSize[0] " +
                          std::to_string(limits.maxComputeWorkGroupSize[0]) + ")"};
    if (sharedLength * 2 * sizeof(float) > limits.maxComputeSharedMemorySize)
        throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS,
                      "FFT length " + std::to_string(fftLength) + " needs " +
                          std::to_string(sharedLength * 2 * sizeof(float)) +
                          " bytes of shared memory (maxComputeSharedMemorySize " +
                          std::to_string(limits.maxComputeSharedMemorySize) + ")"};
    // One 32-bit value per specialization constant (a boolean is a 32-bit VkBool32).
    const std::array<uint32_t, kSpecializationConstantCount> values =
        specializationOf(fftLength, workgroupSize, halfStorage, rowLength, multiView);
    VkSpecializationMapEntry entries[kSpecializationConstantCount];
    for (uint32_t id = 0; id < kSpecializationConstantCount; ++id)
        entries[id] = {id, id * uint32_t(sizeof(uint32_t)), sizeof(uint32_t)};
    VkSpecializationInfo spec{kSpecializationConstantCount, entries, sizeof(values), values.data()};
    cpci.stage.pSpecializationInfo = &spec;
    return createPipeline(key, cpci);
}

VkPipeline Context::createPipeline(const PipelineKey& key, const VkComputePipelineCreateInfo& cpci)
{
    VkPipeline p = VK_NULL_HANDLE;
    device_->check(vk_.vkCreateComputePipelines(device_->device, pipelineCache_, 1, &cpci, device_->allocator, &p),
                   "vkCreateComputePipelines");
    const std::lock_guard lock(pipelineMutex_);
    const auto [at, added] = pipelines_.emplace(key, p);
    if (!added) // another thread compiled it meanwhile
        vk_.vkDestroyPipeline(device_->device, p, device_->allocator);
    return at->second;
}

VkDescriptorSet Context::nextDescriptorSet(const FftbBloomInfo& info, const Kernel::Binding& kernel, bool bloom)
{
    // Rewritten every call: views may be destroyed and their handles reused, so a cache keyed by handle is unsafe.
    const VkDescriptorSet set = descriptorSets_[nextDescriptorSet_];
    nextDescriptorSet_ = (nextDescriptorSet_ + 1) % uint32_t(descriptorSets_.size());
    // Every element of the image arrays is written: those past the view count with view 0 (fftb_shared.h).
    const auto* multiView = findInChain<FftbMultiViewInfo>(info.pNext, FFTB_STRUCTURE_TYPE_MULTI_VIEW_INFO);
    const uint32_t views = multiView ? multiView->viewCount : 1;
    // fftbCmdPrepareKernel has no views, or reads none: its passes use none, so the image bindings keep what they held.
    const bool hasViews = multiView ? bloom : info.inputView != VK_NULL_HANDLE;
    VkDescriptorImageInfo inputInfo[FFTB_MAX_VIEWS] = {}, outputInfo[FFTB_MAX_VIEWS] = {};
    for (uint32_t i = 0; hasViews && i < FFTB_MAX_VIEWS; ++i)
    {
        const uint32_t view = i < views ? i : 0;
        inputInfo[i] = {VK_NULL_HANDLE, multiView ? multiView->pInputViews[view] : info.inputView, info.inputLayout};
        outputInfo[i] = {VK_NULL_HANDLE, multiView ? multiView->pOutputViews[view] : info.outputView,
                         VK_IMAGE_LAYOUT_GENERAL};
    }
    VkDescriptorBufferInfo bufferInfos[FFTB_BINDING_COUNT] = {};
    bufferInfos[FFTB_BINDING_INTERMEDIATE] = {scratch_.buffer, scratch_.offset, scratch_.size};
    bufferInfos[FFTB_BINDING_KERNEL_TEXELS] = {kernel.texels, 0, VK_WHOLE_SIZE};
    bufferInfos[FFTB_BINDING_KERNEL_SPECTRUM] = {kernel.spectrum, 0, VK_WHOLE_SIZE};
    bufferInfos[FFTB_BINDING_TWIDDLES] = {twiddles_.buffer, 0, VK_WHOLE_SIZE};
    // Until a bloom with FFTB_PADDING_ZERO_NORMALIZED allocates the weights, any buffer: pass 3 does not read them.
    bufferInfos[FFTB_BINDING_BORDER_WEIGHTS] = {
        borderWeights_.buffer.buffer ? borderWeights_.buffer.buffer : twiddles_.buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet writes[FFTB_BINDING_COUNT] = {};
    static_assert(FFTB_BINDING_INPUT_IMAGE + 2 == FFTB_BINDING_COUNT &&
                      FFTB_BINDING_OUTPUT_IMAGE + 1 == FFTB_BINDING_COUNT,
                  "the image bindings come last");
    const uint32_t count = hasViews ? FFTB_BINDING_COUNT : FFTB_BINDING_INPUT_IMAGE;
    for (uint32_t i = 0; i < FFTB_BINDING_COUNT; ++i)
    {
        writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        writes[i].dstSet = set;
        writes[i].dstBinding = i;
        writes[i].descriptorCount = 1;
        writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[i].pBufferInfo = &bufferInfos[i];
    }
    writes[FFTB_BINDING_INPUT_IMAGE].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    writes[FFTB_BINDING_INPUT_IMAGE].descriptorCount = FFTB_MAX_VIEWS;
    writes[FFTB_BINDING_INPUT_IMAGE].pImageInfo = inputInfo;
    writes[FFTB_BINDING_INPUT_IMAGE].pBufferInfo = nullptr;
    writes[FFTB_BINDING_OUTPUT_IMAGE].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    writes[FFTB_BINDING_OUTPUT_IMAGE].descriptorCount = FFTB_MAX_VIEWS;
    writes[FFTB_BINDING_OUTPUT_IMAGE].pImageInfo = outputInfo;
    writes[FFTB_BINDING_OUTPUT_IMAGE].pBufferInfo = nullptr;
    vk_.vkUpdateDescriptorSets(device_->device, count, writes, 0, nullptr);
    return set;
}

} // namespace fftb
