// SPDX-License-Identifier: MIT
// Checks every embedded SPIR-V module against shaders/shared/fftb_shared.h through SPIRV-Cross reflection.
#include "fftbloom_spirv.h"
#include "shared/fftb_shared.h"

#include <gtest/gtest.h>
#include <spirv_cross_c.h>

#include <cstddef>
#include <iterator>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

namespace
{

// Every member of FftbPushConstants, in declaration order. GLSL uses the same names, so the name, offset and
// scalar type of each member are read off the C struct here and compared with the reflected block; a member
// added to the header but not listed is caught by the size check.
#define FFTB_PUSH_CONSTANT_MEMBERS(X)                                                                                  \
    X(imageLength1)                                                                                                    \
    X(imageLength2)                                                                                                    \
    X(paddedLength1)                                                                                                   \
    X(paddedLength2)                                                                                                   \
    X(mirrorSplit1)                                                                                                    \
    X(mirrorSplit2)                                                                                                    \
    X(kernelLength1)                                                                                                   \
    X(kernelLength2)                                                                                                   \
    X(kernelCentre1)                                                                                                   \
    X(kernelCentre2)                                                                                                   \
    X(spectrumLength1)                                                                                                 \
    X(spectrumLength2)                                                                                                 \
    X(flags)                                                                                                           \
    X(padding)                                                                                                         \
    X(outputMode)                                                                                                      \
    X(sharpen)                                                                                                         \
    X(intensity)                                                                                                       \
    X(inverseScale)                                                                                                    \
    X(spectrumTwiddleOffset1)                                                                                          \
    X(interpolation)                                                                                                   \
    X(threshold)                                                                                                       \
    X(knee)                                                                                                            \
    X(clampValue)                                                                                                      \
    X(kernelScale)                                                                                                     \
    X(interpolationWidth)                                                                                              \
    X(esBeta)                                                                                                          \
    X(scratchBloomStart)                                                                                               \
    X(borderWeights)                                                                                                   \
    X(tintRed)                                                                                                         \
    X(tintGreen)                                                                                                       \
    X(tintBlue)                                                                                                        \
    X(resolvedSpectrumStart)

// Every member of FftbPsfPushConstants, the block of the PSF generator's passes (psf_*), in declaration order.
#define FFTB_PSF_PUSH_CONSTANT_MEMBERS(X)                                                                              \
    X(fftLength)                                                                                                       \
    X(firstRow)                                                                                                        \
    X(rows)                                                                                                            \
    X(kernelLength)                                                                                                    \
    X(blades)                                                                                                          \
    X(vanes)                                                                                                           \
    X(occluderCount)                                                                                                   \
    X(occluderStart)                                                                                                   \
    X(wavelengthCount)                                                                                                 \
    X(wavelengthStart)                                                                                                 \
    X(patternStart)                                                                                                    \
    X(deapodizeStart)                                                                                                  \
    X(radius)                                                                                                          \
    X(bladeRotation)                                                                                                   \
    X(bladeCurvature)                                                                                                  \
    X(obstruction)                                                                                                     \
    X(vaneHalfWidth)                                                                                                   \
    X(vaneAngle)                                                                                                       \
    X(fade)                                                                                                            \
    X(glare)                                                                                                           \
    X(glareDegreesPerTexel)

struct ExpectedMember
{
    const char* name;
    unsigned offset;
    spvc_basetype type;
};

template <typename T> constexpr spvc_basetype scalarType()
{
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, uint32_t>, "push constants are 32-bit scalars");
    return std::is_same_v<T, float> ? SPVC_BASETYPE_FP32 : SPVC_BASETYPE_UINT32;
}

#define FFTB_EXPECTED_MEMBER(m)                                                                                        \
    ExpectedMember{#m, unsigned(offsetof(FftbPushConstants, m)), scalarType<decltype(FftbPushConstants::m)>()},
const ExpectedMember kPushConstantMembers[] = {FFTB_PUSH_CONSTANT_MEMBERS(FFTB_EXPECTED_MEMBER)};
#undef FFTB_EXPECTED_MEMBER
#define FFTB_EXPECTED_MEMBER(m)                                                                                        \
    ExpectedMember{#m, unsigned(offsetof(FftbPsfPushConstants, m)), scalarType<decltype(FftbPsfPushConstants::m)>()},
const ExpectedMember kPsfPushConstantMembers[] = {FFTB_PSF_PUSH_CONSTANT_MEMBERS(FFTB_EXPECTED_MEMBER)};
#undef FFTB_EXPECTED_MEMBER

// Whether a pass is one of the PSF generator's (fftbCmdGenerateKernel), whose push constants are FftbPsfPushConstants.
bool isPsfPass(const std::string& name)
{
    return name.rfind("psf_", 0) == 0;
}

// Every resource type that occupies a descriptor binding.
const spvc_resource_type kDescriptorResourceTypes[] = {
    SPVC_RESOURCE_TYPE_UNIFORM_BUFFER, SPVC_RESOURCE_TYPE_STORAGE_BUFFER,    SPVC_RESOURCE_TYPE_SUBPASS_INPUT,
    SPVC_RESOURCE_TYPE_STORAGE_IMAGE,  SPVC_RESOURCE_TYPE_SAMPLED_IMAGE,     SPVC_RESOURCE_TYPE_ATOMIC_COUNTER,
    SPVC_RESOURCE_TYPE_SEPARATE_IMAGE, SPVC_RESOURCE_TYPE_SEPARATE_SAMPLERS, SPVC_RESOURCE_TYPE_ACCELERATION_STRUCTURE,
};

const char* resourceTypeName(spvc_resource_type type)
{
    switch (type)
    {
    case SPVC_RESOURCE_TYPE_UNIFORM_BUFFER:
        return "uniform buffer";
    case SPVC_RESOURCE_TYPE_STORAGE_BUFFER:
        return "storage buffer";
    case SPVC_RESOURCE_TYPE_STORAGE_IMAGE:
        return "storage image";
    case SPVC_RESOURCE_TYPE_SAMPLED_IMAGE:
        return "combined image sampler";
    default:
        return "other descriptor type";
    }
}

// The descriptor type the plugin's set layout gives each binding (plugin/src/context.cpp builds it from the
// same header): the frame is sampled, the output is a storage image, all scratch is storage buffers.
spvc_resource_type expectedResourceType(unsigned binding)
{
    if (binding == FFTB_BINDING_INPUT_IMAGE)
        return SPVC_RESOURCE_TYPE_SAMPLED_IMAGE;
    if (binding == FFTB_BINDING_OUTPUT_IMAGE)
        return SPVC_RESOURCE_TYPE_STORAGE_IMAGE;
    return SPVC_RESOURCE_TYPE_STORAGE_BUFFER;
}

/// One module parsed by SPIRV-Cross; errors reported through the context's callback fail the test.
class Reflection
{
  public:
    explicit Reflection(const fftb::SpirvModule& module)
    {
        if (spvc_context_create(&context_) != SPVC_SUCCESS)
        {
            ADD_FAILURE() << "spvc_context_create failed";
            return;
        }
        spvc_context_set_error_callback(
            context_, [](void* userData, const char* error) { static_cast<Reflection*>(userData)->errors_ += error; },
            this);
        spvc_parsed_ir ir = nullptr;
        if (spvc_context_parse_spirv(context_, module.code, module.sizeBytes / sizeof(uint32_t), &ir) != SPVC_SUCCESS ||
            spvc_context_create_compiler(context_, SPVC_BACKEND_NONE, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP,
                                         &compiler_) != SPVC_SUCCESS ||
            spvc_compiler_create_shader_resources(compiler_, &resources_) != SPVC_SUCCESS)
        {
            ADD_FAILURE() << module.name << ": SPIRV-Cross could not reflect the module: " << errors_;
            compiler_ = nullptr;
            resources_ = nullptr;
        }
    }
    ~Reflection()
    {
        if (context_)
            spvc_context_destroy(context_);
    }
    Reflection(const Reflection&) = delete;
    Reflection& operator=(const Reflection&) = delete;

    bool valid() const { return resources_ != nullptr; }
    spvc_compiler compiler() const { return compiler_; }

    std::vector<spvc_reflected_resource> resources(spvc_resource_type type) const
    {
        const spvc_reflected_resource* list = nullptr;
        size_t count = 0;
        EXPECT_EQ(spvc_resources_get_resource_list_for_type(resources_, type, &list, &count), SPVC_SUCCESS);
        return std::vector<spvc_reflected_resource>(list, list + count);
    }

  private:
    spvc_context context_ = nullptr;
    spvc_compiler compiler_ = nullptr;
    spvc_resources resources_ = nullptr;
    std::string errors_;
};

class ReflectionTest : public ::testing::TestWithParam<size_t>
{
  protected:
    const fftb::SpirvModule& module() const { return fftb::kSpirvModules[GetParam()]; }
};

TEST(SpirvModules, TableHoldsEveryPassInPassOrder)
{
    // The plugin indexes the table by its Pass enum, which follows FFTBLOOM_SHADERS (plugin/cmake/Shaders.cmake).
    const std::vector<std::string> expected = {"kernel_fft_first",
                                               "kernel_fft_second",
                                               "kernel_resolve_spectrum",
                                               "image_fft_first",
                                               "image_fft_second_convolve_ifft_second",
                                               "image_ifft_first_composite",
                                               "image_upsample_composite",
                                               "psf_aperture_fft",
                                               "psf_pattern_fft",
                                               "psf_spectral_rgb",
                                               "psf_normalize"};
    std::vector<std::string> names;
    for (size_t i = 0; i < fftb::kSpirvModuleCount; ++i)
        names.emplace_back(fftb::kSpirvModules[i].name);
    EXPECT_EQ(names, expected);
    for (size_t i = 0; i < fftb::kSpirvModuleCount; ++i)
    {
        const fftb::SpirvModule& m = fftb::kSpirvModules[i];
        ASSERT_NE(m.code, nullptr) << m.name;
        ASSERT_GE(m.sizeBytes, 5 * sizeof(uint32_t)) << m.name << ": shorter than a SPIR-V header";
        EXPECT_EQ(m.sizeBytes % sizeof(uint32_t), 0u) << m.name;
        EXPECT_EQ(m.code[0], 0x07230203u) << m.name << ": not SPIR-V (magic number)";
    }
}

TEST(SpirvModules, KernelSpectrumPassesDeclareNoImage)
{
    // fftbCmdPrepareKernel writes only the buffer bindings of its descriptor set: it has no views.
    for (size_t i = 0; i < 2; ++i)
    {
        const Reflection r(fftb::kSpirvModules[i]);
        ASSERT_TRUE(r.valid());
        for (const spvc_resource_type type :
             {SPVC_RESOURCE_TYPE_SAMPLED_IMAGE, SPVC_RESOURCE_TYPE_STORAGE_IMAGE, SPVC_RESOURCE_TYPE_SEPARATE_IMAGE})
            EXPECT_TRUE(r.resources(type).empty()) << fftb::kSpirvModules[i].name << ": " << resourceTypeName(type);
    }
}

TEST_P(ReflectionTest, PushConstantBlockMatchesFftbPushConstants)
{
    const bool psf = isPsfPass(module().name);
    const size_t expectedSize = psf ? sizeof(FftbPsfPushConstants) : sizeof(FftbPushConstants);
    const std::vector<ExpectedMember> expectedMembers =
        psf ? std::vector<ExpectedMember>(std::begin(kPsfPushConstantMembers), std::end(kPsfPushConstantMembers))
            : std::vector<ExpectedMember>(std::begin(kPushConstantMembers), std::end(kPushConstantMembers));
    const Reflection r(module());
    ASSERT_TRUE(r.valid());
    const spvc_compiler c = r.compiler();
    const std::vector<spvc_reflected_resource> blocks = r.resources(SPVC_RESOURCE_TYPE_PUSH_CONSTANT);
    ASSERT_EQ(blocks.size(), 1u) << module().name << ": push-constant blocks";

    // common.glsl wraps the struct in a block (`PushBlock { FftbPushConstants pc; }`); a flattened block whose
    // members are the struct's own is accepted too. Either way the struct must sit at offset 0.
    spvc_type_id structId = blocks[0].base_type_id;
    spvc_type structType = spvc_compiler_get_type_handle(c, structId);
    size_t blockSize = 0;
    ASSERT_EQ(spvc_compiler_get_declared_struct_size(c, structType, &blockSize), SPVC_SUCCESS);
    EXPECT_EQ(blockSize, expectedSize) << module().name << ": push-constant block size";
    if (spvc_type_get_num_member_types(structType) == 1)
    {
        const spvc_type_id memberId = spvc_type_get_member_type(structType, 0);
        const spvc_type member = spvc_compiler_get_type_handle(c, memberId);
        if (spvc_type_get_basetype(member) == SPVC_BASETYPE_STRUCT)
        {
            unsigned offset = ~0u;
            ASSERT_EQ(spvc_compiler_type_struct_member_offset(c, structType, 0, &offset), SPVC_SUCCESS);
            EXPECT_EQ(offset, 0u) << module().name << ": the push-constant struct inside its block";
            EXPECT_EQ(spvc_type_get_num_array_dimensions(member), 0u) << module().name;
            structId = spvc_type_get_base_type_id(member);
            structType = spvc_compiler_get_type_handle(c, structId);
        }
    }

    size_t structSize = 0;
    ASSERT_EQ(spvc_compiler_get_declared_struct_size(c, structType, &structSize), SPVC_SUCCESS);
    EXPECT_EQ(structSize, expectedSize) << module().name << ": declared size of the push-constant struct";
    const unsigned memberCount = spvc_type_get_num_member_types(structType);
    ASSERT_EQ(memberCount, expectedMembers.size()) << module().name << ": members of the push-constant struct";
    for (unsigned i = 0; i < memberCount; ++i)
    {
        const ExpectedMember& expected = expectedMembers[i];
        const std::string name = spvc_compiler_get_member_name(c, structId, i);
        EXPECT_EQ(name, expected.name) << module().name << ": member " << i;
        unsigned offset = ~0u;
        ASSERT_EQ(spvc_compiler_type_struct_member_offset(c, structType, i, &offset), SPVC_SUCCESS);
        EXPECT_EQ(offset, expected.offset) << module().name << ": offset of " << expected.name;
        const spvc_type memberType = spvc_compiler_get_type_handle(c, spvc_type_get_member_type(structType, i));
        EXPECT_EQ(spvc_type_get_basetype(memberType), expected.type) << module().name << ": type of " << expected.name;
        EXPECT_EQ(spvc_type_get_vector_size(memberType), 1u) << module().name << ": " << expected.name << " not scalar";
        EXPECT_EQ(spvc_type_get_num_array_dimensions(memberType), 0u) << module().name << ": " << expected.name;
    }
}

TEST_P(ReflectionTest, DescriptorsUseSharedBindingsAndTypes)
{
    const Reflection r(module());
    ASSERT_TRUE(r.valid());
    const spvc_compiler c = r.compiler();
    std::set<unsigned> seen;
    for (spvc_resource_type type : kDescriptorResourceTypes)
    {
        for (const spvc_reflected_resource& res : r.resources(type))
        {
            const unsigned set = spvc_compiler_get_decoration(c, res.id, SpvDecorationDescriptorSet);
            const unsigned binding = spvc_compiler_get_decoration(c, res.id, SpvDecorationBinding);
            const std::string where = std::string(module().name) + ": " + res.name + " (set " + std::to_string(set) +
                                      ", binding " + std::to_string(binding) + ")";
            EXPECT_EQ(set, 0u) << where << ": every pass uses descriptor set 0 only";
            EXPECT_LT(binding, unsigned(FFTB_BINDING_COUNT)) << where << ": not an FFTB_BINDING_* number";
            EXPECT_TRUE(seen.insert(binding).second) << where << ": binding declared twice";
            if (binding >= FFTB_BINDING_COUNT)
                continue;
            EXPECT_EQ(type, expectedResourceType(binding))
                << where << ": is a " << resourceTypeName(type) << ", the set layout has a "
                << resourceTypeName(expectedResourceType(binding));
            // The set layout has descriptorCount 1 for buffers and FFTB_GPU_MAX_VIEWS for the images (one per view of
            // FftbMultiViewInfo), and the API takes 2D views.
            const spvc_type t = spvc_compiler_get_type_handle(c, res.type_id);
            const bool image = type == SPVC_RESOURCE_TYPE_SAMPLED_IMAGE || type == SPVC_RESOURCE_TYPE_STORAGE_IMAGE;
            ASSERT_EQ(spvc_type_get_num_array_dimensions(t), image ? 1u : 0u) << where << ": arrays of descriptors";
            if (image)
            {
                EXPECT_EQ(spvc_type_get_array_dimension(t, 0), unsigned(FFTB_GPU_MAX_VIEWS)) << where;
                EXPECT_EQ(spvc_type_get_image_dimension(t), SpvDim2D) << where << ": not a 2D image";
                EXPECT_FALSE(spvc_type_get_image_arrayed(t)) << where << ": arrayed image";
            }
        }
    }
    EXPECT_FALSE(seen.empty()) << module().name << ": no descriptors reflected";
}

TEST_P(ReflectionTest, SpecializationConstantsAndWorkgroupSize)
{
    const Reflection r(module());
    ASSERT_TRUE(r.valid());
    const spvc_compiler c = r.compiler();
    const spvc_specialization_constant* constants = nullptr;
    size_t count = 0;
    ASSERT_EQ(spvc_compiler_get_specialization_constants(c, &constants, &count), SPVC_SUCCESS);
    std::set<unsigned> ids;
    for (size_t i = 0; i < count; ++i)
    {
        // The plugin's VkSpecializationInfo sets exactly these: any other id would keep its default.
        EXPECT_LE(constants[i].constant_id, unsigned(FFTB_SPEC_MULTI_VIEW))
            << module().name << ": constant_id " << constants[i].constant_id << " is no FFTB_SPEC_* id";
        ids.insert(constants[i].constant_id);
    }
    spvc_specialization_constant x{}, y{}, z{};
    spvc_compiler_get_work_group_size_specialization_constants(c, &x, &y, &z);
    EXPECT_EQ(spvc_compiler_get_execution_model(c), SpvExecutionModelGLCompute) << module().name;
    const std::string name = module().name;
    if (name == "psf_spectral_rgb" || name == "psf_normalize")
    {
        // The generator's passes without an FFT: nothing specialized but intermediate.glsl's HALF_STORAGE and
        // MULTI_VIEW (their pipelines have no VkSpecializationInfo: fp32, one view); 16 x 16 x FFTB_PSF_SLICES
        // invocations, one per kernel texel and slice, or one workgroup of FFTB_PSF_NORMALIZE_INVOCATIONS
        // (plugin/src/generate.cpp).
        const bool tile = name == "psf_spectral_rgb";
        ids.erase(FFTB_SPEC_HALF_STORAGE);
        ids.erase(FFTB_SPEC_MULTI_VIEW);
        EXPECT_TRUE(ids.empty()) << name << ": specialization constants its pipeline would not set";
        EXPECT_EQ(x.id, 0u);
        EXPECT_EQ(spvc_compiler_get_execution_mode_argument_by_index(c, SpvExecutionModeLocalSize, 0),
                  tile ? unsigned(FFTB_PSF_TILE) : unsigned(FFTB_PSF_NORMALIZE_INVOCATIONS));
        EXPECT_EQ(spvc_compiler_get_execution_mode_argument_by_index(c, SpvExecutionModeLocalSize, 1),
                  tile ? unsigned(FFTB_PSF_TILE) : 1u);
        EXPECT_EQ(spvc_compiler_get_execution_mode_argument_by_index(c, SpvExecutionModeLocalSize, 2),
                  tile ? unsigned(FFTB_PSF_SLICES) : 1u);
        return;
    }
    if (name == "kernel_resolve_spectrum")
    {
        // The kernel spectrum's pass without an FFT: nothing specialized but intermediate.glsl's HALF_STORAGE and
        // MULTI_VIEW, which it does not read (its pipeline sets MULTI_VIEW to 0); FFTB_RESOLVE_SPECTRUM_INVOCATIONS
        // invocations, one workgroup per line k1 and channel (plugin/plan/recipe.cpp).
        ids.erase(FFTB_SPEC_HALF_STORAGE);
        ids.erase(FFTB_SPEC_MULTI_VIEW);
        EXPECT_TRUE(ids.empty()) << name << ": specialization constants its pipeline would not set";
        EXPECT_EQ(x.id, 0u);
        EXPECT_EQ(spvc_compiler_get_execution_mode_argument_by_index(c, SpvExecutionModeLocalSize, 0),
                  unsigned(FFTB_RESOLVE_SPECTRUM_INVOCATIONS));
        for (const unsigned axis : {1u, 2u})
            EXPECT_EQ(spvc_compiler_get_execution_mode_argument_by_index(c, SpvExecutionModeLocalSize, axis), 1u);
        return;
    }
    if (name == "image_upsample_composite")
    {
        // The one frame pass without an FFT: only FFTB_SPEC_MULTI_VIEW is specialized (and common.glsl's
        // HALF_STORAGE, which only the intermediate's accessors read, not this pass, keeps its default); 8 x 8
        // invocations, one per frame texel (plugin/plan/recipe.cpp dispatches ceil(W / 8) x ceil(H / 8) x views).
        EXPECT_TRUE(ids.count(FFTB_SPEC_MULTI_VIEW)) << module().name << ": no FFTB_SPEC_MULTI_VIEW";
        ids.erase(FFTB_SPEC_MULTI_VIEW);
        ids.erase(FFTB_SPEC_HALF_STORAGE);
        EXPECT_TRUE(ids.empty()) << module().name << ": specialization constants its pipeline would not set";
        EXPECT_EQ(x.id, 0u);
        for (const unsigned axis : {0u, 1u})
            EXPECT_EQ(spvc_compiler_get_execution_mode_argument_by_index(c, SpvExecutionModeLocalSize, axis), 8u);
        EXPECT_EQ(spvc_compiler_get_execution_mode_argument_by_index(c, SpvExecutionModeLocalSize, 2), 1u);
        return;
    }
    EXPECT_TRUE(ids.count(FFTB_SPEC_FFT_LENGTH)) << module().name << ": no FFTB_SPEC_FFT_LENGTH";
    EXPECT_TRUE(ids.count(FFTB_SPEC_WORKGROUP_SIZE)) << module().name << ": no FFTB_SPEC_WORKGROUP_SIZE";
    EXPECT_TRUE(ids.count(FFTB_SPEC_TWIDDLE_OFFSET)) << module().name << ": no FFTB_SPEC_TWIDDLE_OFFSET";
    EXPECT_TRUE(ids.count(FFTB_SPEC_SHARED_LENGTH)) << module().name << ": no FFTB_SPEC_SHARED_LENGTH";
    EXPECT_TRUE(ids.count(FFTB_SPEC_SHARED_TWIDDLE_OFFSET)) << module().name << ": no FFTB_SPEC_SHARED_TWIDDLE_OFFSET";
    for (unsigned id = FFTB_SPEC_RADIX_0; id <= FFTB_SPEC_RADIX_7; ++id)
        EXPECT_TRUE(ids.count(id)) << module().name << ": no FFTB_SPEC_RADIX_" << id - FFTB_SPEC_RADIX_0;

    EXPECT_NE(x.id, 0u) << module().name << ": workgroup size x is not a specialization constant";
    EXPECT_EQ(x.constant_id, unsigned(FFTB_SPEC_WORKGROUP_SIZE)) << module().name << ": workgroup size x";
    // One line per workgroup: the dispatch sizes in plugin/plan/recipe.cpp count workgroups as lines.
    EXPECT_EQ(y.id, 0u) << module().name << ": workgroup size y is specialized";
    EXPECT_EQ(z.id, 0u) << module().name << ": workgroup size z is specialized";
    EXPECT_EQ(spvc_compiler_get_execution_mode_argument_by_index(c, SpvExecutionModeLocalSize, 1), 1u)
        << module().name << ": workgroup size y";
    EXPECT_EQ(spvc_compiler_get_execution_mode_argument_by_index(c, SpvExecutionModeLocalSize, 2), 1u)
        << module().name << ": workgroup size z";
}

INSTANTIATE_TEST_SUITE_P(Shaders, ReflectionTest, ::testing::Range(size_t(0), fftb::kSpirvModuleCount),
                         [](const ::testing::TestParamInfo<size_t>& param)
                         { return std::string(fftb::kSpirvModules[param.param].name); });

} // namespace
