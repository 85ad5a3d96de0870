// SPDX-License-Identifier: MIT
// fftbloom-shaders: every pass exported for every target, its binding table agreeing with the exported source, and
// the exported GLSL and HLSL compiling back to SPIR-V with glslang.
#include "fftbloom_spirv.h"
#include "shared/fftb_shared.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

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

struct Case
{
    const char* target;
    const char* extension;
    const char* glslangFlags; ///< how glslang compiles the exported source back to SPIR-V
};

class ShadersToolTest : public ::testing::TestWithParam<Case>
{
};

TEST_P(ShadersToolTest, ExportsEveryPassWithItsBindingsAndCompilesBack)
{
    const Case c = GetParam();
    const fs::path out = fs::path(::testing::TempDir()) / (std::string("fftbloom_shaders_") + c.target);
    fs::remove_all(out);
    ASSERT_EQ(run(std::string(FFTBLOOM_SHADERS_PATH) + " --emit " + c.target + " --out " + out.string()), 0);
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
        // Every register, index or binding the table promises is the one the source declares.
        for (const nlohmann::json& resource : pass["resources"])
        {
            const nlohmann::json& where = resource[c.target == std::string("vulkan-glsl") ? "glsl" : c.target];
            for (const nlohmann::json& token : where.is_array() ? where : nlohmann::json::array({where}))
                EXPECT_NE(source.find(token.get<std::string>()), std::string::npos)
                    << name << ": " << token << " not in " << file;
        }
        EXPECT_EQ(pass["pushConstants"]["bytes"], sizeof(FftbPushConstants)) << name << ": the shared header's block";
        for (const nlohmann::json& constant : pass["specializationConstants"])
            EXPECT_FALSE(constant["name"].get<std::string>().empty()) << name;
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
                         ::testing::Values(Case{"hlsl", ".hlsl", "-V -D -e main -S comp"},
                                           Case{"msl", ".metal", nullptr}, Case{"glsl", ".comp", "-G"},
                                           Case{"vulkan-glsl", ".comp", "-V --target-env vulkan1.1"}),
                         [](const ::testing::TestParamInfo<Case>& param)
                         {
                             std::string name = param.param.target;
                             return name == "vulkan-glsl" ? std::string("vulkan_glsl") : name;
                         });

TEST(ShadersTool, UnknownTargetIsAUsageError)
{
    EXPECT_EQ(run(std::string(FFTBLOOM_SHADERS_PATH) + " --emit spirv --out " +
                  (fs::path(::testing::TempDir()) / "fftbloom_shaders_spirv").string()),
              2);
}

} // namespace
