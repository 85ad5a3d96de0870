// SPDX-License-Identifier: MIT
// fftbloom-shaders: the plugin's passes for engines on other APIs. SPIRV-Cross turns the embedded SPIR-V into HLSL
// (D3D12, or Vulkan through glslang's HLSL front end), MSL (Metal), GLSL 4.5 (OpenGL) or GLSL with Vulkan semantics,
// and a JSON table says how to bind each.
#include "fftbloom/fftbloom.h"
#include "fftbloom_spirv.h"
#include "message.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <spirv_cross_c.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>

namespace
{

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

struct Target
{
    const char* name;
    spvc_backend backend;
    const char* extension;
};

const Target kTargets[] = {
    {"hlsl", SPVC_BACKEND_HLSL, ".hlsl"},        {"vulkan-hlsl", SPVC_BACKEND_HLSL, ".hlsl"},
    {"msl", SPVC_BACKEND_MSL, ".metal"},         {"glsl", SPVC_BACKEND_GLSL, ".comp"},
    {"vulkan-glsl", SPVC_BACKEND_GLSL, ".comp"},
};

/// Owns one SPIRV-Cross context; every call's failure becomes an exception with SPIRV-Cross's reason.
class Cross
{
  public:
    Cross()
    {
        if (spvc_context_create(&context_) != SPVC_SUCCESS)
            throw std::runtime_error("SPIRV-Cross: cannot create a context");
    }
    ~Cross() { spvc_context_destroy(context_); }
    Cross(const Cross&) = delete;
    Cross& operator=(const Cross&) = delete;

    void check(spvc_result result, const char* what) const
    {
        if (result != SPVC_SUCCESS)
            throw std::runtime_error(std::string("SPIRV-Cross: ") + what + ": " +
                                     spvc_context_get_last_error_string(context_));
    }
    spvc_context get() const { return context_; }

  private:
    spvc_context context_ = nullptr;
};

/// The resources of kind `type` the pass uses, with their registers in the target (by SPIRV-Cross's default
/// mapping: HLSL registers t/u/s by binding number in space = set, which glslang's HLSL front end maps back to that
/// binding and set; MSL indices assigned in order; GLSL bindings).
void addResources(const Cross& cross, spvc_compiler compiler, spvc_resources resources, spvc_resource_type type,
                  const char* kind, const Target& target, Json& out)
{
    const spvc_reflected_resource* list = nullptr;
    std::size_t count = 0;
    cross.check(spvc_resources_get_resource_list_for_type(resources, type, &list, &count), "resource list");
    for (std::size_t i = 0; i < count; ++i)
    {
        const unsigned set = spvc_compiler_get_decoration(compiler, list[i].id, SpvDecorationDescriptorSet);
        const unsigned binding = spvc_compiler_get_decoration(compiler, list[i].id, SpvDecorationBinding);
        // A buffer is read-only when every member is NonWritable (GLSL readonly), which makes it an SRV in HLSL.
        bool readOnly = type == SPVC_RESOURCE_TYPE_SAMPLED_IMAGE;
        if (type == SPVC_RESOURCE_TYPE_STORAGE_BUFFER)
        {
            const spvc_type block = spvc_compiler_get_type_handle(compiler, list[i].base_type_id);
            readOnly = true;
            for (unsigned m = 0; m < spvc_type_get_num_member_types(block); ++m)
                readOnly = readOnly && spvc_compiler_has_member_decoration(compiler, list[i].base_type_id, m,
                                                                           SpvDecorationNonWritable);
        }
        Json resource{{"name", list[i].name}, {"kind", kind}, {"set", set}, {"binding", binding}};
        // An array of descriptors (the images, one per view) takes a register, index or unit per element.
        const spvc_type handle = spvc_compiler_get_type_handle(compiler, list[i].type_id);
        if (spvc_type_get_num_array_dimensions(handle) == 1)
            resource["count"] = spvc_type_get_array_dimension(handle, 0);
        const std::string b = std::to_string(binding), space = ", space" + std::to_string(set) + ")";
        if (target.backend == SPVC_BACKEND_HLSL)
        {
            resource["hlsl"] = Json::array({"register(" + std::string(readOnly ? "t" : "u") + b + space});
            if (type == SPVC_RESOURCE_TYPE_SAMPLED_IMAGE)
                resource["hlsl"].push_back("register(s" + b + space);
        }
        else if (std::string(target.name) == "msl")
        {
            const unsigned index = spvc_compiler_msl_get_automatic_resource_binding(compiler, list[i].id);
            resource["msl"] =
                Json::array({std::string(type == SPVC_RESOURCE_TYPE_STORAGE_BUFFER ? "buffer(" : "texture(") +
                             std::to_string(index) + ")"});
            if (type == SPVC_RESOURCE_TYPE_SAMPLED_IMAGE)
                resource["msl"].push_back(
                    "sampler(" +
                    std::to_string(spvc_compiler_msl_get_automatic_resource_binding_secondary(compiler, list[i].id)) +
                    ")");
        }
        else
            resource["glsl"] = "binding = " + b;
        out.push_back(std::move(resource));
    }
}

/// SPIRV-Cross's HLSL made Vulkan HLSL for glslang's HLSL front end. SPIRV-Cross writes a specialization constant
/// as `#ifndef SPIRV_CROSS_CONSTANT_ID_n` / `#define SPIRV_CROSS_CONSTANT_ID_n <default>` / `#endif` /
/// `static const T NAME = SPIRV_CROSS_CONSTANT_ID_n;` (D3D12 compilers take the value as -D); glslang needs
/// `[[vk::constant_id(n)]] const T NAME = <default>;` and rejects a `static const` initialized from one, so the
/// constants derived from them (`static const T NAME = <expression>;`, the only scalar or vector `static const`s
/// SPIRV-Cross declares) become macros, which glslang folds into specialization-constant operations. The push-constant
/// block gets [[vk::push_constant]]. glslang takes literals only in numthreads: it gets the default, and the SPIR-V
/// needs the workgroup size decorated afterwards (tests/exported/workgroup_size_id.cpp). Throws when SPIRV-Cross's
/// output no longer has the shape this expects.
std::string toVulkanHlsl(const std::string& source, const char* pushBlock)
{
    static const std::regex specIfndef(R"(#ifndef SPIRV_CROSS_CONSTANT_ID_(\d+))");
    static const std::regex derived(R"(static const (\w+) (\w+) = (.+);)");
    static const std::regex numthreads(R"(\[numthreads\(SPIRV_CROSS_CONSTANT_ID_(\d+), (.*)\)\])");
    std::map<std::string, std::string> defaults, names; // by specialization-constant id
    std::istringstream in(source);
    std::string out, line;
    int pushBlocks = 0;
    const auto next = [&](const std::string& expected)
    {
        if (!std::getline(in, line) || line.rfind(expected, 0) != 0)
            throw std::runtime_error("vulkan-hlsl: expected '" + expected + "...', got '" + line + "'");
        return line.substr(expected.size());
    };
    while (std::getline(in, line))
    {
        std::smatch m;
        if (std::regex_match(line, m, specIfndef))
        {
            const std::string id = m[1], macro = "SPIRV_CROSS_CONSTANT_ID_" + id;
            const std::string value = next("#define " + macro + " ");
            next("#endif");
            const std::string declaration = next("static const ");
            const std::size_t space = declaration.find(' '), equals = declaration.find(" = " + macro + ";");
            if (space == std::string::npos || equals == std::string::npos)
                throw std::runtime_error("vulkan-hlsl: unexpected declaration '" + line + "'");
            const std::string type = declaration.substr(0, space),
                              name = declaration.substr(space + 1, equals - space - 1);
            // The workgroup size's constant comes twice (WORKGROUP_SIZE, gl_WorkGroupSize's): the second names the
            // first.
            if (names.count(id))
                out += "#define " + name + " " + names[id] + "\n";
            else
                out += "[[vk::constant_id(" + id + ")]] const " + type + " " + name + " = " + value + ";\n";
            names.emplace(id, name);
            defaults.emplace(id, value);
        }
        else if (std::regex_match(line, m, derived))
            out += "#define " + m[2].str() + " (" + m[3].str() + ")\n";
        else if (std::regex_match(line, m, numthreads) && defaults.count(m[1]))
            out += "[numthreads(" + defaults[m[1]] + ", " + m[2].str() + ")]\n";
        else if (pushBlock && line == std::string("cbuffer ") + pushBlock && ++pushBlocks)
            out += "[[vk::push_constant]] " + line + "\n";
        else
            out += line + "\n";
    }
    if (out.find("SPIRV_CROSS_CONSTANT_ID_") != std::string::npos || pushBlocks != (pushBlock ? 1 : 0))
        throw std::runtime_error("vulkan-hlsl: SPIRV-Cross's HLSL has a specialization constant or push-constant "
                                 "block in an unexpected form");
    return out;
}

/// Translates one pass and describes how to bind it.
Json exportPass(const fftb::SpirvModule& module, const Target& target, const fs::path& folder)
{
    Cross cross;
    spvc_parsed_ir ir = nullptr;
    cross.check(spvc_context_parse_spirv(cross.get(), reinterpret_cast<const SpvId*>(module.code),
                                         module.sizeBytes / sizeof(SpvId), &ir),
                "parse");
    spvc_compiler compiler = nullptr;
    cross.check(
        spvc_context_create_compiler(cross.get(), target.backend, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP, &compiler),
        "compiler");
    spvc_compiler_options options = nullptr;
    cross.check(spvc_compiler_create_compiler_options(compiler, &options), "options");
    const std::string name = target.name;
    if (target.backend == SPVC_BACKEND_HLSL)
        spvc_compiler_options_set_uint(options, SPVC_COMPILER_OPTION_HLSL_SHADER_MODEL, 60);
    else if (name == "msl")
        spvc_compiler_options_set_uint(options, SPVC_COMPILER_OPTION_MSL_VERSION, SPVC_MAKE_MSL_VERSION(2, 3, 0));
    else
    {
        spvc_compiler_options_set_uint(options, SPVC_COMPILER_OPTION_GLSL_VERSION, 450);
        spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_GLSL_ES, SPVC_FALSE);
        spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_GLSL_VULKAN_SEMANTICS,
                                       name == "vulkan-glsl" ? SPVC_TRUE : SPVC_FALSE);
        // OpenGL has no push constants: they become a uniform block at binding 0 of the uniform-buffer bindings.
        spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_GLSL_EMIT_PUSH_CONSTANT_AS_UNIFORM_BUFFER,
                                       name == "glsl" ? SPVC_TRUE : SPVC_FALSE);
    }
    cross.check(spvc_compiler_install_compiler_options(compiler, options), "install options");

    // Only what the pass uses: the targets drop declared but unused resources from their source.
    spvc_set active = nullptr;
    cross.check(spvc_compiler_get_active_interface_variables(compiler, &active), "active variables");
    spvc_resources resources = nullptr;
    cross.check(spvc_compiler_create_shader_resources_for_active_variables(compiler, &resources, active), "resources");
    const spvc_reflected_resource* push = nullptr;
    std::size_t pushCount = 0;
    cross.check(
        spvc_resources_get_resource_list_for_type(resources, SPVC_RESOURCE_TYPE_PUSH_CONSTANT, &push, &pushCount),
        "push constants");
    if (name == "glsl")
        for (std::size_t i = 0; i < pushCount; ++i)
            spvc_compiler_set_decoration(compiler, push[i].id, SpvDecorationBinding, 0);

    const char* compiled = nullptr;
    cross.check(spvc_compiler_compile(compiler, &compiled), "compile");
    const std::string source =
        name == "vulkan-hlsl"
            ? toVulkanHlsl(compiled, pushCount ? spvc_compiler_get_name(compiler, push[0].base_type_id) : nullptr)
            : compiled;
    const fs::path file = folder / (std::string(module.name) + target.extension);
    std::ofstream(file, std::ios::trunc) << source;

    Json bindings = Json::array();
    addResources(cross, compiler, resources, SPVC_RESOURCE_TYPE_SAMPLED_IMAGE, "sampled image", target, bindings);
    addResources(cross, compiler, resources, SPVC_RESOURCE_TYPE_STORAGE_IMAGE, "storage image", target, bindings);
    addResources(cross, compiler, resources, SPVC_RESOURCE_TYPE_STORAGE_BUFFER, "storage buffer", target, bindings);

    Json pushConstants = Json::object();
    for (std::size_t i = 0; i < pushCount; ++i)
    {
        std::size_t size = 0;
        cross.check(spvc_compiler_get_declared_struct_size(
                        compiler, spvc_compiler_get_type_handle(compiler, push[i].base_type_id), &size),
                    "push constant size");
        pushConstants = {{"block", spvc_compiler_get_name(compiler, push[i].base_type_id)},
                         {"bytes", size},
                         {"layout", "FftbPushConstants, fftb_shared.h"}};
        if (name == "glsl")
            pushConstants["glsl"] = "uniform block, binding = 0";
        else if (name == "msl")
            pushConstants["msl"] =
                "buffer(" + std::to_string(spvc_compiler_msl_get_automatic_resource_binding(compiler, push[i].id)) +
                ")";
        else if (name == "hlsl")
            pushConstants["hlsl"] = "cbuffer, root constants";
        else if (name == "vulkan-hlsl")
            pushConstants[name] = "[[vk::push_constant]] cbuffer";
    }

    Json constants = Json::array();
    const spvc_specialization_constant* list = nullptr;
    std::size_t count = 0;
    cross.check(spvc_compiler_get_specialization_constants(compiler, &list, &count), "specialization constants");
    for (std::size_t i = 0; i < count; ++i)
    {
        // The workgroup size is listed again as the unnamed gl_WorkGroupSize built from its constant.
        if (std::string(spvc_compiler_get_name(compiler, list[i].id)).empty())
            continue;
        const spvc_constant constant = spvc_compiler_get_constant_handle(compiler, list[i].id);
        const std::string id = std::to_string(list[i].constant_id);
        Json c{{"id", list[i].constant_id},
               {"name", spvc_compiler_get_name(compiler, list[i].id)},
               {"default", spvc_constant_get_scalar_u32(constant, 0, 0)}};
        // MSL sizes threadgroup arrays with macros, not function constants: those constants are macros there too.
        const std::string function = "[[function_constant(" + id + ")]]";
        c[name] = name == "msl" && source.find(function) != std::string::npos ? function
                  : name == "vulkan-glsl"                                     ? "layout(constant_id = " + id + ")"
                  : name == "vulkan-hlsl"                                     ? "[[vk::constant_id(" + id + ")]]"
                                          : "#define SPIRV_CROSS_CONSTANT_ID_" + id + " <value>";
        constants.push_back(std::move(c));
    }
    return {{"pass", module.name},
            {"file", file.filename().string()},
            {"entryPoint", name == "msl" ? "main0" : "main"},
            {"resources", std::move(bindings)},
            {"pushConstants", std::move(pushConstants)},
            {"specializationConstants", std::move(constants)}};
}

} // namespace

int main(int argc, char** argv)
{
    std::string emit, out;
    CLI::App app{"fftbloom-shaders: writes the bloom's compute passes for engines on other APIs (SPIRV-Cross), one\n"
                 "file per pass, and bindings.json: per pass its resources (set, binding and the target's register),\n"
                 "push-constant block (layout: FftbPushConstants in shaders/shared/fftb_shared.h) and specialization\n"
                 "constants (FFT length, workgroup size, ...: set them as the target requires). The passes run in the\n"
                 "order and with the dispatch sizes documented in docs/architecture.md; docs/other_apis.md says what\n"
                 "each target needs and what a D3D12 port still needs.",
                 "fftbloom-shaders"};
    app.add_option("--emit", emit,
                   "hlsl (shader model 6.0, for D3D12: specialization constants as -D SPIRV_CROSS_CONSTANT_ID_<id>),\n"
                   "vulkan-hlsl (the same HLSL for Vulkan through glslang's HLSL front end: [[vk::constant_id]],\n"
                   "[[vk::push_constant]]; numthreads holds the default workgroup size, as glslang takes no\n"
                   "specialization constant there: docs/other_apis.md), msl (2.3), glsl (4.5, OpenGL) or vulkan-glsl")
        ->required()
        ->check(CLI::IsMember({"hlsl", "vulkan-hlsl", "msl", "glsl", "vulkan-glsl"}));
    app.add_option("--out", out, "folder to write into (created if missing)")->required();
    app.failure_message([](const CLI::App*, const CLI::Error& e)
                        { return "fftbloom-shaders: " + std::string(e.what()) + "\n"; });
    try
    {
        app.parse(argc, argv);
    }
    catch (const CLI::ParseError& e)
    {
        return app.exit(e) == 0 ? 0 : 2;
    }
    try
    {
        const Target* target = nullptr;
        for (const Target& t : kTargets)
            if (emit == t.name)
                target = &t;
        fs::create_directories(out);
        Json passes = Json::array();
        for (std::size_t i = 0; i < fftb::kSpirvModuleCount; ++i)
            passes.push_back(exportPass(fftb::kSpirvModules[i], *target, out));
        const Json table{{"fftbloom", std::to_string(FFTB_VERSION_MAJOR) + "." + std::to_string(FFTB_VERSION_MINOR) +
                                          "." + std::to_string(FFTB_VERSION_PATCH)},
                         {"target", emit},
                         {"passes", std::move(passes)}};
        std::ofstream json(fs::path(out) / "bindings.json", std::ios::trunc);
        json << table.dump(2) << "\n";
        if (!json)
            throw std::runtime_error((fs::path(out) / "bindings.json").string() + ": cannot be written");
    }
    catch (const std::exception& e)
    {
        fftb::printMessage("fftbloom-shaders", e.what());
        return 1;
    }
    return 0;
}
