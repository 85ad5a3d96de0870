# SPDX-License-Identifier: MIT
# The compute shaders, compiled to SPIR-V by glslangValidator at build time and embedded as C arrays.
find_program(GLSLANG_VALIDATOR glslangValidator REQUIRED)
# The folder of the plugin's shaders (fft.glsl, common.glsl, shared/, the passes): shaders/ beside plugin/ by default.
get_filename_component(fftbloom_default_shader_dir ${CMAKE_CURRENT_LIST_DIR}/../../shaders ABSOLUTE)
set(FFTBLOOM_SHADER_DIR ${fftbloom_default_shader_dir} CACHE PATH "fftbloom's shaders/ folder")
set(FFTBLOOM_SHADERS
    kernel_fft_first
    kernel_fft_second
    kernel_resolve_spectrum
    image_fft_first
    image_fft_second_convolve_ifft_second
    image_ifft_first_composite
    image_upsample_composite
    psf_aperture_fft
    psf_pattern_fft
    psf_spectral_rgb
    psf_normalize
    CACHE INTERNAL "the plugin's passes, shaders/<name>.comp")

# Compiles FFTBLOOM_SHADER_DIR/<name>.comp (or SOURCE_DIR/<name>.comp) for every name in NAMES and adds the SPIR-V to
# `target` as C arrays, with fftbloom_spirv.h declaring the table <NAMESPACE>::kSpirvModules (default fftb) in the
# order of NAMES. With HLSL: SOURCE_DIR/<name>.hlsl through glslang's HLSL front end (entry point main) instead; with
# SPIRV_FILTER, a command (an executable target) run as `<command...> <in.spv> <out.spv.h> <array name>`, writes the
# array from glslang's SPIR-V instead of glslang.
function(fftbloom_embed_shaders target)
    cmake_parse_arguments(ARG "HLSL" "SOURCE_DIR;NAMESPACE" "NAMES;SPIRV_FILTER" ${ARGN})
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
    set(extension .comp)
    set(language)
    if(ARG_HLSL)
        set(extension .hlsl)
        set(language -D -e main -S comp)
    endif()
    foreach(name IN LISTS ARG_NAMES)
        set(header ${out_dir}/${name}.spv.h)
        set(glslang_output ${header})
        set(array --vn fftb_spirv_${name})
        if(ARG_SPIRV_FILTER)
            set(glslang_output ${out_dir}/${name}.spv)
            set(array)
            add_custom_command(
                OUTPUT ${header}
                COMMAND ${ARG_SPIRV_FILTER} ${glslang_output} ${header} fftb_spirv_${name}
                DEPENDS ${glslang_output}
                COMMENT "SPIR-V filter: ${name}.spv"
                VERBATIM)
        endif()
        add_custom_command(
            OUTPUT ${glslang_output}
            COMMAND ${GLSLANG_VALIDATOR} -V --target-env vulkan1.1 ${language} -I${FFTBLOOM_SHADER_DIR}
                    ${array} --depfile ${glslang_output}.d -o ${glslang_output}
                    ${ARG_SOURCE_DIR}/${name}${extension}
            DEPENDS ${ARG_SOURCE_DIR}/${name}${extension}
            DEPFILE ${glslang_output}.d
            COMMENT "glslang: ${name}${extension}"
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

# The GLSL sources the plugin compiles when a plan is made (shader_compiler.h): the passes with a generated FFT and
# every file they include, as the table fftb::kShaderSources in `target`.
set(FFTBLOOM_SHADER_SOURCES
    image_fft_second_convolve_ifft_second_generated.comp common.glsl intermediate.glsl shared/fftb_shared.h
    CACHE INTERNAL "the sources compiled when a plan is made, relative to FFTBLOOM_SHADER_DIR")
function(fftbloom_embed_shader_sources target)
    set(output ${CMAKE_CURRENT_BINARY_DIR}/shader_sources/shader_sources.cpp)
    list(TRANSFORM FFTBLOOM_SHADER_SOURCES PREPEND ${FFTBLOOM_SHADER_DIR}/ OUTPUT_VARIABLE paths)
    add_custom_command(
        OUTPUT ${output}
        COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} -DDIR=${FFTBLOOM_SHADER_DIR} "-DFILES=${FFTBLOOM_SHADER_SOURCES}"
                -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/EmbedSources.cmake
        DEPENDS ${paths} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/EmbedSources.cmake
        COMMENT "Embedding the shader sources"
        VERBATIM)
    target_sources(${target} PRIVATE ${output})
endfunction()
