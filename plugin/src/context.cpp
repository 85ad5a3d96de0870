// Context creation, resources, pipelines and descriptor sets.
#include "context.h"

#include "fftbloom_spirv.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace fftb
{

static_assert(sizeof(FftbPushConstants) == 21 * 4, "push constants: 21 scalars of 4 bytes, no padding");
static_assert(kMaxElementsPerInvocation == FFTB_MAX_ELEMENTS_PER_INVOCATION, "plan.h and fftb_shared.h disagree");
static_assert(kMaxSharedFftLength == FFTB_MAX_SHARED_FFT_LENGTH, "plan.h and fftb_shared.h disagree");
static_assert(kTwiddleFineElements == FFTB_TWIDDLE_FINE_ELEMENTS, "plan.h and fftb_shared.h disagree");
static_assert(kMaxFftLength == FFTB_MAX_FFT_LENGTH && kMaxKernelLength == FFTB_MAX_KERNEL_LENGTH,
              "plan.h and fftbloom.h disagree");

void Context::report(FftbResult result, VkResult vkResult, const std::string& message) const
{
    if (callback_)
        callback_(result, vkResult, message.c_str(), callbackUserData_);
}

void Context::check(VkResult result, const char* call) const
{
    if (result == VK_SUCCESS)
        return;
    FftbResult r = FFTB_ERROR_VULKAN;
    if (result == VK_ERROR_OUT_OF_HOST_MEMORY)
        r = FFTB_ERROR_OUT_OF_HOST_MEMORY;
    else if (result == VK_ERROR_OUT_OF_DEVICE_MEMORY)
        r = FFTB_ERROR_OUT_OF_DEVICE_MEMORY;
    throw Failure{r, result, std::string(call) + " failed with VkResult " + std::to_string(int(result))};
}

Context::Context(const FftbContextCreateInfo& info)
    : device_(info.device), physicalDevice_(info.physicalDevice), allocator_(info.allocator),
      callback_(info.messageCallback), callbackUserData_(info.messageUserData), maxWidth_(info.maxWidth),
      maxHeight_(info.maxHeight), maxKernelWidth_(info.maxKernelWidth), maxKernelHeight_(info.maxKernelHeight),
      descriptorSets_(info.maxFramesInFlight == 0 ? 3 : info.maxFramesInFlight)
{
    if (const char* missing = vk_.load(info.instance, info.device, info.getInstanceProcAddr, info.getDeviceProcAddr))
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, std::string("getDeviceProcAddr: no ") + missing};

    for (auto next = static_cast<const FftbPlannerInfo*>(info.pNext); next;
         next = static_cast<const FftbPlannerInfo*>(next->pNext))
        lengths_ =
            next->lengthPolicy == FFTB_LENGTH_POLICY_POWER_OF_TWO ? LengthPolicy::PowerOfTwo : LengthPolicy::MixedRadix;

    // Size the scratch for the worst case over padding, axis order and spectrum mode at the maximum extents.
    VkDeviceSize intermediateElements = 0, spectrumElements = 0;
    bool anyPlan = false;
    for (Padding padding : {Padding::Zero, Padding::Mirror})
        for (AxisOrder order : {AxisOrder::XFirst, AxisOrder::YFirst})
            for (SpectrumMode mode : {SpectrumMode::Resampled, SpectrumMode::Exact})
            {
                Plan plan;
                const PlanRequest request{maxWidth_, maxHeight_, maxKernelWidth_, maxKernelHeight_, padding,
                                          order,     mode,       lengths_};
                if (!makePlan(request, &plan, nullptr))
                    continue;
                anyPlan = true;
                const AxisPlan& a = plan.first;
                const AxisPlan& b = plan.second;
                const VkDeviceSize frame = VkDeviceSize(3) * plan.halfSpectrumLines() * b.imageLength;
                const VkDeviceSize kernelLines = std::min(b.kernelLength, b.spectrumLength);
                const VkDeviceSize kernel = VkDeviceSize(3) * (a.spectrumLength / 2 + 1) * kernelLines;
                intermediateElements = std::max({intermediateElements, frame, kernel});
                spectrumElements =
                    std::max(spectrumElements, VkDeviceSize(3) * (a.spectrumLength / 2 + 1) * b.spectrumLength);
            }
    if (!anyPlan)
    {
        std::string reason;
        Plan plan;
        PlanRequest request{maxWidth_, maxHeight_, maxKernelWidth_, maxKernelHeight_};
        request.lengths = lengths_;
        makePlan(request, &plan, &reason);
        throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS, "maxWidth, maxHeight: " + reason};
    }
    vk_.vkGetPhysicalDeviceProperties(physicalDevice_, &properties_);
    // Shaders index the scratch with 32-bit element offsets and bind it whole.
    for (const auto& [elements, name] :
         {std::pair{intermediateElements, "intermediate"}, std::pair{spectrumElements, "kernel spectrum"}})
        if (elements * 8 > properties_.limits.maxStorageBufferRange)
            throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS,
                          "maxWidth, maxHeight, maxKernelWidth, maxKernelHeight: the " + std::string(name) +
                              " buffer needs " + std::to_string(elements * 8) +
                              " bytes, past the device's maxStorageBufferRange of " +
                              std::to_string(properties_.limits.maxStorageBufferRange)};

    // Every FFT length's table, 2.5 MiB in all: pipelines for any length can then be made while recording.
    const TwiddleTables& tables = twiddleTables();
    twiddles_ = createBuffer(VkDeviceSize(sizeof(float)) * 2 * tables.totalElements, true);
    tables.write(static_cast<float*>(twiddles_.mapped));
    intermediate_ = createBuffer(intermediateElements * 8, false);
    kernelSpectrum_ = createBuffer(spectrumElements * 8, false);
    kernelTexels_ = createBuffer(VkDeviceSize(3) * maxKernelWidth_ * maxKernelHeight_ * sizeof(float), true);
    createLayouts();
}

Context::~Context()
{
    for (auto& [key, pipeline] : pipelines_)
        vk_.vkDestroyPipeline(device_, pipeline, allocator_);
    for (VkShaderModule module : modules_)
        if (module)
            vk_.vkDestroyShaderModule(device_, module, allocator_);
    if (descriptorPool_)
        vk_.vkDestroyDescriptorPool(device_, descriptorPool_, allocator_);
    if (pipelineLayout_)
        vk_.vkDestroyPipelineLayout(device_, pipelineLayout_, allocator_);
    if (setLayout_)
        vk_.vkDestroyDescriptorSetLayout(device_, setLayout_, allocator_);
    if (sampler_)
        vk_.vkDestroySampler(device_, sampler_, allocator_);
    for (Buffer* b : {&twiddles_, &intermediate_, &kernelTexels_, &kernelSpectrum_})
        destroyBuffer(*b);
}

Buffer Context::createBuffer(VkDeviceSize sizeBytes, bool hostVisible)
{
    Buffer b;
    b.sizeBytes = std::max<VkDeviceSize>(sizeBytes, 16);
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = b.sizeBytes;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    check(vk_.vkCreateBuffer(device_, &bci, allocator_, &b.buffer), "vkCreateBuffer");
    VkMemoryRequirements req;
    vk_.vkGetBufferMemoryRequirements(device_, b.buffer, &req);
    VkPhysicalDeviceMemoryProperties props;
    vk_.vkGetPhysicalDeviceMemoryProperties(physicalDevice_, &props);
    const VkMemoryPropertyFlags wanted =
        hostVisible ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                    : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < props.memoryTypeCount && type == UINT32_MAX; ++i)
        if ((req.memoryTypeBits & (1u << i)) && (props.memoryTypes[i].propertyFlags & wanted) == wanted)
            type = i;
    if (type == UINT32_MAX)
    {
        vk_.vkDestroyBuffer(device_, b.buffer, allocator_);
        throw Failure{FFTB_ERROR_UNSUPPORTED, VK_SUCCESS, "no memory type for a storage buffer"};
    }
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = type;
    if (VkResult r = vk_.vkAllocateMemory(device_, &mai, allocator_, &b.memory); r != VK_SUCCESS)
    {
        vk_.vkDestroyBuffer(device_, b.buffer, allocator_);
        check(r, "vkAllocateMemory");
    }
    check(vk_.vkBindBufferMemory(device_, b.buffer, b.memory, 0), "vkBindBufferMemory");
    if (hostVisible)
        check(vk_.vkMapMemory(device_, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory");
    return b;
}

void Context::destroyBuffer(Buffer& b)
{
    if (b.buffer)
        vk_.vkDestroyBuffer(device_, b.buffer, allocator_);
    if (b.memory)
        vk_.vkFreeMemory(device_, b.memory, allocator_);
    b = Buffer{};
}

void Context::createLayouts()
{
    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sci.magFilter = sci.minFilter = VK_FILTER_NEAREST;
    sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    sci.maxLod = 0.0f;
    check(vk_.vkCreateSampler(device_, &sci, allocator_, &sampler_), "vkCreateSampler");

    VkDescriptorSetLayoutBinding bindings[FFTB_BINDING_COUNT] = {};
    for (uint32_t i = 0; i < FFTB_BINDING_COUNT; ++i)
    {
        bindings[i].binding = i;
        bindings[i].descriptorCount = 1;
        bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
        bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    }
    bindings[FFTB_BINDING_INPUT_IMAGE].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    bindings[FFTB_BINDING_INPUT_IMAGE].pImmutableSamplers = &sampler_;
    bindings[FFTB_BINDING_OUTPUT_IMAGE].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    VkDescriptorSetLayoutCreateInfo dlci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dlci.bindingCount = FFTB_BINDING_COUNT;
    dlci.pBindings = bindings;
    check(vk_.vkCreateDescriptorSetLayout(device_, &dlci, allocator_, &setLayout_), "vkCreateDescriptorSetLayout");

    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(FftbPushConstants)};
    VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plci.setLayoutCount = 1;
    plci.pSetLayouts = &setLayout_;
    plci.pushConstantRangeCount = 1;
    plci.pPushConstantRanges = &range;
    check(vk_.vkCreatePipelineLayout(device_, &plci, allocator_, &pipelineLayout_), "vkCreatePipelineLayout");

    const uint32_t setCount = uint32_t(descriptorSets_.size());
    const VkDescriptorPoolSize sizes[] = {
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, setCount},
        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, setCount},
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, setCount * (FFTB_BINDING_COUNT - 2)},
    };
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.maxSets = setCount;
    dpci.poolSizeCount = 3;
    dpci.pPoolSizes = sizes;
    check(vk_.vkCreateDescriptorPool(device_, &dpci, allocator_, &descriptorPool_), "vkCreateDescriptorPool");

    std::vector<VkDescriptorSetLayout> layouts(setCount, setLayout_);
    VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dsai.descriptorPool = descriptorPool_;
    dsai.descriptorSetCount = setCount;
    dsai.pSetLayouts = layouts.data();
    check(vk_.vkAllocateDescriptorSets(device_, &dsai, descriptorSets_.data()), "vkAllocateDescriptorSets");

    for (uint32_t i = 0; i < uint32_t(Pass::Count); ++i)
    {
        VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        smci.codeSize = kSpirvModules[i].sizeBytes;
        smci.pCode = kSpirvModules[i].code;
        check(vk_.vkCreateShaderModule(device_, &smci, allocator_, &modules_[i]), "vkCreateShaderModule");
    }
}

VkPipeline Context::pipeline(Pass pass, uint32_t fftLength)
{
    const auto key = std::make_pair(pass, fftLength);
    if (auto it = pipelines_.find(key); it != pipelines_.end())
        return it->second;
    const uint32_t workgroupSize = workgroupSizeOf(fftLength);
    const uint32_t sharedLength = sharedLengthOf(fftLength);
    const VkPhysicalDeviceLimits& limits = properties_.limits;
    if (workgroupSize > limits.maxComputeWorkGroupInvocations || workgroupSize > limits.maxComputeWorkGroupSize[0] ||
        sharedLength * 2 * sizeof(float) > limits.maxComputeSharedMemorySize)
        throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS,
                      "FFT length " + std::to_string(fftLength) + " needs " + std::to_string(workgroupSize) +
                          " invocations per workgroup and " + std::to_string(sharedLength * 2 * sizeof(float)) +
                          " bytes of shared memory (maxComputeWorkGroupInvocations " +
                          std::to_string(limits.maxComputeWorkGroupInvocations) + ", maxComputeSharedMemorySize " +
                          std::to_string(limits.maxComputeSharedMemorySize) + ")"};
    const uint32_t values[5] = {fftLength, workgroupSize, twiddleTables().offsetOf(fftLength), sharedLength,
                                twiddleTables().offsetOf(sharedLength)};
    const VkSpecializationMapEntry entries[5] = {
        {FFTB_SPEC_FFT_LENGTH, 0, sizeof(uint32_t)},
        {FFTB_SPEC_WORKGROUP_SIZE, sizeof(uint32_t), sizeof(uint32_t)},
        {FFTB_SPEC_TWIDDLE_OFFSET, 2 * sizeof(uint32_t), sizeof(uint32_t)},
        {FFTB_SPEC_SHARED_LENGTH, 3 * sizeof(uint32_t), sizeof(uint32_t)},
        {FFTB_SPEC_SHARED_TWIDDLE_OFFSET, 4 * sizeof(uint32_t), sizeof(uint32_t)},
    };
    VkSpecializationInfo spec{5, entries, sizeof(values), values};
    VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpci.stage.module = modules_[uint32_t(pass)];
    cpci.stage.pName = "main";
    cpci.stage.pSpecializationInfo = &spec;
    cpci.layout = pipelineLayout_;
    VkPipeline p = VK_NULL_HANDLE;
    check(vk_.vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &cpci, allocator_, &p), "vkCreateComputePipelines");
    pipelines_.emplace(key, p);
    return p;
}

VkDescriptorSet Context::nextDescriptorSet(VkImageView input, VkImageLayout inputLayout, VkImageView output)
{
    // Rewritten every call: views may be destroyed and their handles reused, so a cache keyed by handle is unsafe.
    const VkDescriptorSet set = descriptorSets_[nextDescriptorSet_];
    nextDescriptorSet_ = (nextDescriptorSet_ + 1) % uint32_t(descriptorSets_.size());
    const VkDescriptorImageInfo inputInfo{VK_NULL_HANDLE, input, inputLayout};
    const VkDescriptorImageInfo outputInfo{VK_NULL_HANDLE, output, VK_IMAGE_LAYOUT_GENERAL};
    VkDescriptorBufferInfo bufferInfos[FFTB_BINDING_COUNT] = {};
    bufferInfos[FFTB_BINDING_INTERMEDIATE] = {intermediate_.buffer, 0, VK_WHOLE_SIZE};
    bufferInfos[FFTB_BINDING_KERNEL_TEXELS] = {kernelTexels_.buffer, 0, VK_WHOLE_SIZE};
    bufferInfos[FFTB_BINDING_KERNEL_SPECTRUM] = {kernelSpectrum_.buffer, 0, VK_WHOLE_SIZE};
    bufferInfos[FFTB_BINDING_TWIDDLES] = {twiddles_.buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet writes[FFTB_BINDING_COUNT] = {};
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
    writes[FFTB_BINDING_INPUT_IMAGE].pImageInfo = &inputInfo;
    writes[FFTB_BINDING_INPUT_IMAGE].pBufferInfo = nullptr;
    writes[FFTB_BINDING_OUTPUT_IMAGE].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    writes[FFTB_BINDING_OUTPUT_IMAGE].pImageInfo = &outputInfo;
    writes[FFTB_BINDING_OUTPUT_IMAGE].pBufferInfo = nullptr;
    vk_.vkUpdateDescriptorSets(device_, FFTB_BINDING_COUNT, writes, 0, nullptr);
    return set;
}

} // namespace fftb
