# SPDX-License-Identifier: MIT
# The compute shaders, compiled to SPIR-V by glslangValidator at build time and embedded as C arrays.
find_program(GLSLANG_VALIDATOR glslangValidator REQUIRED)
# The folder of the plugin's shaders (fft.glsl, common.glsl, shared/, the passes): shaders/ beside plugin/ by default.
get_filename_component(fftbloom_default_shader_dir ${CMAKE_CURRENT_LIST_DIR}/../../shaders ABSOLUTE)
set(FFTBLOOM_SHADER_DIR ${fftbloom_default_shader_dir} CACHE PATH "fftbloom's shaders/ folder")
set(FFTBLOOM_SHADERS
    kernel_fft_first
    kernel_fft_second
    image_fft_first
    image_fft_second_convolve_ifft_second
    image_ifft_first_composite
    image_upsample_composite
    CACHE INTERNAL "the plugin's passes, shaders/<name>.comp")

# Compiles FFTBLOOM_SHADER_DIR/<name>.comp (or SOURCE_DIR/<name>.comp) for every name in NAMES and adds the SPIR-V to
# `target` as C arrays, with fftbloom_spirv.h declaring the table <NAMESPACE>::kSpirvModules (default fftb) in the
# order of NAMES.
function(fftbloom_embed_shaders target)
    cmake_parse_arguments(ARG "" "SOURCE_DIR;NAMESPACE" "NAMES" ${ARGN})
    if(NOT ARG_SOURCE_DIR)
        set(ARG_SOURCE_DIR ${FFTBLOOM_SHADER_DIR})
    endif()
    if(NOT ARG_NAMESPACE)
        set(ARG_NAMESPACE fftb)
    endif()
    set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/spirv)
    # One table per build folder: a second one would overwrite the first's fftbloom_spirv.cpp and headers.
    get_property(embedded DIRECTORY PROPERTY FFTBLOOM_EMBEDDED_SHADERS)
    if(embedded)
        message(FATAL_ERROR "fftbloom_embed_shaders(${target}): ${out_dir} already holds the SPIR-V of ${embedded}; "
                            "embed into a target of another folder")
    endif()
    set_property(DIRECTORY PROPERTY FFTBLOOM_EMBEDDED_SHADERS ${target})
    file(MAKE_DIRECTORY ${out_dir})
    set(sources)
    set(table_entries)
    set(includes)
    foreach(name IN LISTS ARG_NAMES)
        set(header ${out_dir}/${name}.spv.h)
        add_custom_command(
            OUTPUT ${header}
            COMMAND ${GLSLANG_VALIDATOR} -V --target-env vulkan1.1 -I${FFTBLOOM_SHADER_DIR}
                    --vn fftb_spirv_${name} --depfile ${header}.d -o ${header}
                    ${ARG_SOURCE_DIR}/${name}.comp
            DEPENDS ${ARG_SOURCE_DIR}/${name}.comp
            DEPFILE ${header}.d
            COMMENT "glslang: ${name}.comp"
            VERBATIM)
        list(APPEND sources ${header})
        string(APPEND includes "#include \"${name}.spv.h\"\n")
        string(APPEND table_entries "    {\"${name}\", fftb_spirv_${name}, sizeof(fftb_spirv_${name})},\n")
    endforeach()
    file(CONFIGURE OUTPUT ${out_dir}/fftbloom_spirv.cpp CONTENT
"// Generated: the embedded SPIR-V of every fftbloom shader.
#include <cstdint>
#include \"fftbloom_spirv.h\"
@includes@
namespace @ARG_NAMESPACE@ {
const SpirvModule kSpirvModules[] = {
@table_entries@};
const std::size_t kSpirvModuleCount = sizeof(kSpirvModules) / sizeof(kSpirvModules[0]);
}
" @ONLY)
    file(CONFIGURE OUTPUT ${out_dir}/fftbloom_spirv.h CONTENT
"// Generated: the table of embedded SPIR-V modules.
#pragma once
#include <cstddef>
#include <cstdint>
namespace @ARG_NAMESPACE@ {
struct SpirvModule { const char* name; const uint32_t* code; std::size_t sizeBytes; };
extern const SpirvModule kSpirvModules[];
extern const std::size_t kSpirvModuleCount;
}
" @ONLY)
    target_sources(${target} PRIVATE ${sources} ${out_dir}/fftbloom_spirv.cpp)
    target_include_directories(${target} PRIVATE ${out_dir})
endfunction()
