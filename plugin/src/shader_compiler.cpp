// SPDX-License-Identifier: MIT
// glslang's front end and SPIR-V back end over the embedded sources.
#include "shader_compiler.h"

#include "shader_sources.h"

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <cstring>
#include <mutex>
#include <stdexcept>

namespace fftb
{

namespace
{

/// The text of source `name`: an entry of `generated`, else an embedded source; null when neither has it.
const char* sourceText(const std::map<std::string, std::string>& generated, const std::string& name)
{
    if (const auto it = generated.find(name); it != generated.end())
        return it->second.c_str();
    for (std::size_t i = 0; i < kShaderSourceCount; ++i)
        if (name == kShaderSources[i].name)
            return kShaderSources[i].text;
    return nullptr;
}

/// Resolves #include "name" with sourceText (glslang reports a name it cannot resolve).
class Includer : public glslang::TShader::Includer
{
  public:
    explicit Includer(const std::map<std::string, std::string>& generated) : generated_(generated) {}

    IncludeResult* includeLocal(const char* name, const char*, size_t) override { return find(name); }
    IncludeResult* includeSystem(const char* name, const char*, size_t) override { return find(name); }
    void releaseInclude(IncludeResult* result) override { delete result; }

  private:
    IncludeResult* find(const char* name)
    {
        const char* text = sourceText(generated_, name);
        return text ? new IncludeResult(name, text, std::strlen(text), nullptr) : nullptr;
    }

    const std::map<std::string, std::string>& generated_;
};

/// glslang's process-wide state is made once and kept; one compilation at a time.
std::mutex compileMutex;

} // namespace

std::vector<uint32_t> compileComputeShader(const std::string& name, const std::map<std::string, std::string>& generated)
{
    const char* text = sourceText(generated, name);
    if (!text)
        throw std::runtime_error("no embedded shader source " + name);
    const std::lock_guard lock(compileMutex);
    static const bool initialized = glslang::InitializeProcess();
    if (!initialized)
        throw std::runtime_error("glslang could not be initialized");
    glslang::TShader shader(EShLangCompute);
    const char* names[] = {name.c_str()};
    shader.setStringsWithLengthsAndNames(&text, nullptr, names, 1);
    shader.setEnvInput(glslang::EShSourceGlsl, EShLangCompute, glslang::EShClientVulkan, 100);
    shader.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_1);
    shader.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_3);
    Includer includer(generated);
    const EShMessages messages = EShMessages(EShMsgSpvRules | EShMsgVulkanRules);
    if (!shader.parse(GetDefaultResources(), 450, false, messages, includer))
        throw std::runtime_error("glslang: " + name + ": " + shader.getInfoLog());
    glslang::TProgram program;
    program.addShader(&shader);
    if (!program.link(messages))
        throw std::runtime_error("glslang: " + name + ": " + program.getInfoLog());
    std::vector<uint32_t> spirv;
    glslang::SpvOptions options;
    options.disableOptimizer = true; // the driver optimizes; the build-time SPIR-V is not optimized either
    glslang::GlslangToSpv(*program.getIntermediate(EShLangCompute), spirv, &options);
    return spirv;
}

} // namespace fftb
