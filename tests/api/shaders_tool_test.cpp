// SPDX-License-Identifier: MIT
// fftbloom-shaders: every pass exported for every target, its binding table agreeing with the exported source, and
// the exported GLSL and both HLSL flavours compiling back to SPIR-V with glslang.
#include "fftbloom_spirv.h"
#include "shared/fftb_shared.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace
{

namespace fs = std::filesystem;

int run(const std::string& command)
{
    const int status = std::system((command + " >/dev/null 2>&1").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string readText(const fs::path& path)
{
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The folder fftbloom-shaders --emit `target` wrote into, one per test (ctest runs tests in parallel); empty when it
/// failed.
fs::path exportTo(const std::string& target)
{
    std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::replace(test.begin(), test.end(), '/', '_');
    const fs::path out = fs::path(::testing::TempDir()) / ("fftbloom_shaders_" + target + "_" + test);
    fs::remove_all(out);
    return run(std::string(FFTBLOOM_SHADERS_PATH) + " --emit " + target + " --out " + out.string()) == 0 ? out
                                                                                                         : fs::path();
}

/// `source` without its specialization-constant and push-constant declarations, numthreads and the macros the
/// vulkan-hlsl target makes of SPIRV-Cross's derived constants: what both HLSL targets must share.
std::string hlslBody(const std::string& source)
{
    static const char* const kDeclarations[] = {
        "#ifndef SPIRV_CROSS_CONSTANT_ID_", "#define ", "#endif", "[numthreads(", "cbuffer ", "[[vk::constant_id(",
        "[[vk::push_constant]] cbuffer "};
    std::istringstream in(source);
    std::string body, line;
    while (std::getline(in, line))
    {
        bool declaration = line.rfind("static const ", 0) == 0 && line.find('[') == std::string::npos;
        for (const char* prefix : kDeclarations)
            declaration = declaration || line.rfind(prefix, 0) == 0;
        if (!declaration)
            body += line + "\n";
    }
    return body;
}

struct Case
{
    const char* target;
    const char* extension;
    const char* language;     ///< the binding table's key of the registers, indices or bindings
    const char* glslangFlags; ///< how glslang compiles the exported source back to SPIR-V
};

// Names the case by its target in test listings instead of raw bytes.
void PrintTo(const Case& c, std::ostream* os)
{
    *os << c.target;
}

class ShadersToolTest : public ::testing::TestWithParam<Case>
{
};

TEST_P(ShadersToolTest, ExportsEveryPassWithItsBindingsAndCompilesBack)
{
    const Case c = GetParam();
    const fs::path out = exportTo(c.target);
    ASSERT_FALSE(out.empty()) << "fftbloom-shaders --emit " << c.target;
    const nlohmann::json table = nlohmann::json::parse(readText(out / "bindings.json"));
    ASSERT_EQ(table["target"], c.target);
    ASSERT_EQ(table["passes"].size(), fftb::kSpirvModuleCount);
    for (std::size_t i = 0; i < fftb::kSpirvModuleCount; ++i)
    {
        const nlohmann::json& pass = table["passes"][i];
        const std::string name = fftb::kSpirvModules[i].name;
        EXPECT_EQ(pass["pass"], name);
        const fs::path file = out / (name + c.extension);
        ASSERT_EQ(pass["file"], file.filename().string());
        const std::string source = readText(file);
        ASSERT_FALSE(source.empty()) << file;
        EXPECT_FALSE(pass["resources"].empty()) << name;
        // Every register, index or binding the table promises is the one the source declares. An array of
        // descriptors (the images, one per view) says how many it takes; in HLSL, register(xN, spaceS) to xN + count -
        // 1, and no two resources' ranges may overlap (D3D12 refuses a root signature whose ranges do).
        struct Range
        {
            char kind;
            unsigned first, count;
            std::string resource;
        };
        std::vector<Range> ranges;
        for (const nlohmann::json& resource : pass["resources"])
        {
            const bool image =
                resource["binding"] == FFTB_BINDING_INPUT_IMAGE || resource["binding"] == FFTB_BINDING_OUTPUT_IMAGE;
            const unsigned count = resource.value("count", 1u);
            EXPECT_EQ(count, image ? unsigned(FFTB_GPU_MAX_VIEWS) : 1u) << name << ": " << resource["name"];
            const nlohmann::json& where = resource[c.language];
            for (const nlohmann::json& token : where.is_array() ? where : nlohmann::json::array({where}))
            {
                const std::string text = token.get<std::string>();
                EXPECT_NE(source.find(text), std::string::npos) << name << ": " << token << " not in " << file;
                if (std::string(c.language) != "hlsl")
                    continue;
                const Range r{text.at(9), unsigned(std::stoul(text.substr(10))), count, resource["name"]};
                for (const Range& other : ranges)
                    EXPECT_FALSE(r.kind == other.kind && r.first < other.first + other.count &&
                                 other.first < r.first + r.count)
                        << name << ": " << text << " (" << count << ") overlaps " << other.resource;
                ranges.push_back(r);
            }
        }
        // The PSF generator's passes push FftbPsfPushConstants, the bloom's FftbPushConstants (fftb_shared.h).
        EXPECT_EQ(pass["pushConstants"]["bytes"],
                  name.rfind("psf_", 0) == 0 ? sizeof(FftbPsfPushConstants) : sizeof(FftbPushConstants))
            << name << ": the shared header's block";
        // So is every specialization constant's declaration (D3D12's without the value to define).
        for (const nlohmann::json& constant : pass["specializationConstants"])
        {
            EXPECT_FALSE(constant["name"].get<std::string>().empty()) << name;
            const std::string token = constant[c.target].get<std::string>();
            EXPECT_NE(source.find(token.substr(0, token.find(" <value>"))), std::string::npos)
                << name << ": " << token << " not in " << file;
        }
        if (c.glslangFlags)
        {
            EXPECT_EQ(run(std::string(GLSLANG_VALIDATOR_PATH) + " " + c.glslangFlags + " " + file.string() + " -o " +
                          (out / (name + ".spv")).string()),
                      0)
                << "glslang does not compile " << file;
        }
    }
    fs::remove_all(out);
}

// Metal has no compiler on Linux: its table is checked against the source only.
INSTANTIATE_TEST_SUITE_P(Targets, ShadersToolTest,
                         ::testing::Values(Case{"hlsl", ".hlsl", "hlsl", "-V -D -e main -S comp"},
                                           Case{"vulkan-hlsl", ".hlsl", "hlsl",
                                                "-V --target-env vulkan1.1 -D -e main -S comp"},
                                           Case{"msl", ".metal", "msl", nullptr}, Case{"glsl", ".comp", "glsl", "-G"},
                                           Case{"vulkan-glsl", ".comp", "glsl", "-V --target-env vulkan1.1"}),
                         [](const ::testing::TestParamInfo<Case>& param)
                         {
                             std::string name = param.param.target;
                             std::replace(name.begin(), name.end(), '-', '_');
                             return name;
                         });

// The HLSL that tests/exported runs through glslang is the D3D12 HLSL but for its declarations.
TEST(ShadersTool, VulkanHlslIsTheD3d12HlslButForDeclarations)
{
    const fs::path d3d12 = exportTo("hlsl"), vulkan = exportTo("vulkan-hlsl");
    ASSERT_FALSE(d3d12.empty());
    ASSERT_FALSE(vulkan.empty());
    for (std::size_t i = 0; i < fftb::kSpirvModuleCount; ++i)
    {
        const std::string file = std::string(fftb::kSpirvModules[i].name) + ".hlsl";
        const std::string body = hlslBody(readText(d3d12 / file));
        EXPECT_GT(body.size(), 1000u) << file;
        EXPECT_EQ(body, hlslBody(readText(vulkan / file))) << file;
    }
    fs::remove_all(d3d12);
    fs::remove_all(vulkan);
}

TEST(ShadersTool, UnknownTargetIsAUsageError)
{
    EXPECT_EQ(run(std::string(FFTBLOOM_SHADERS_PATH) + " --emit spirv --out " +
                  (fs::path(::testing::TempDir()) / "fftbloom_shaders_spirv").string()),
              2);
}

} // namespace
