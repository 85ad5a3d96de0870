# SPDX-License-Identifier: MIT
# The tree's dependency rules (docs/architecture.md), checked from the sources' #include lines and the build's link
# lines (cmake -P, SOURCE_DIR and BUILD_DIR set). Prints every breach and fails if there is one.
#   - plugin/ and shaders/ reach nothing outside themselves; plugin/plan calls no Vulkan and reaches no plugin/src:
#     it includes the public header for its enums and structs (<fftbloom/fftbloom.h>) and the passes' shared
#     constants (shaders/shared/fftb_shared.h), nothing else outside plugin/plan.
#   - reference/ reaches none of plugin/src, shaders/, host/vulkan, host/node, host/runner, and no shipped target links it.
#   - host/image and host/psf have no Vulkan (nor the public header, which includes it).
#   - host/, demo/ and bench/ use the public C API: no plugin/src or plugin/plan header, no shaders/ header; except
#     that host/psf, the CPU PSF generator, shares the plugin's Vulkan-free PSF model (plugin/plan/psf_model.h) with
#     its GPU generator, so that both draw the same aperture; and that bench/fft_lines (--fft-lines) times the plugin's
#     FFT alone: its shader includes shaders/fft.glsl and fftb_shared.h, its host plans by plugin/plan/fft_lengths.h.
set(breaches "")
macro(breach text)
    string(APPEND breaches "  ${text}\n")
endmacro()

# The #include lines of every source below `folder`, as "file|kind|name" with kind q (quotes) or a (angle brackets).
function(includes_of folder out)
    file(GLOB_RECURSE files ${SOURCE_DIR}/${folder}/*.h ${SOURCE_DIR}/${folder}/*.hpp ${SOURCE_DIR}/${folder}/*.c
         ${SOURCE_DIR}/${folder}/*.cpp ${SOURCE_DIR}/${folder}/*.glsl ${SOURCE_DIR}/${folder}/*.comp)
    set(result "")
    foreach(file IN LISTS files)
        file(STRINGS ${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
        file(RELATIVE_PATH relative ${SOURCE_DIR} ${file})
        foreach(line IN LISTS lines)
            if(line MATCHES "include[ \t]*\"([^\"]+)\"")
                list(APPEND result "${relative}|q|${CMAKE_MATCH_1}")
            elseif(line MATCHES "include[ \t]*<([^>]+)>")
                list(APPEND result "${relative}|a|${CMAKE_MATCH_1}")
            endif()
        endforeach()
    endforeach()
    set(${out} "${result}" PARENT_SCOPE)
endfunction()

# Where a quoted include of `file` resolves among `roots` (folders relative to SOURCE_DIR, searched after the file's
# own folder): the path relative to SOURCE_DIR, or "" (a generated or system header).
function(resolve file name roots out)
    get_filename_component(own ${file} DIRECTORY)
    foreach(root IN ITEMS ${own} ${roots})
        if(EXISTS ${SOURCE_DIR}/${root}/${name})
            file(RELATIVE_PATH found ${SOURCE_DIR} ${SOURCE_DIR}/${root}/${name})
            set(${out} ${found} PARENT_SCOPE)
            return()
        endif()
    endforeach()
    set(${out} "" PARENT_SCOPE)
endfunction()

# Every folder a quoted include can come from anywhere in the tree (the targets' include directories).
set(all_roots plugin/include plugin/plan plugin/src shaders host reference tests/support)
set(generated "^(fftbloom_spirv\\.h|.*\\.spv\\.h|fft_generated\\.glsl)$")

foreach(folder plugin shaders reference host demo bench)
    includes_of(${folder} entries)
    foreach(entry IN LISTS entries)
        string(REPLACE "|" ";" parts "${entry}")
        list(GET parts 0 file)
        list(GET parts 1 kind)
        list(GET parts 2 name)
        set(target "")
        if(kind STREQUAL "q")
            resolve(${file} ${name} "${all_roots}" target)
            if(NOT target AND NOT name MATCHES "${generated}")
                breach("${file}: \"${name}\" is no header of this tree")
            endif()
        endif()
        set(vulkan FALSE)
        if((kind STREQUAL "a" AND name MATCHES "^vulkan/") OR target MATCHES "^plugin/include/" OR
           target MATCHES "^host/vulkan/")
            set(vulkan TRUE)
        endif()
        if(file MATCHES "^(plugin|shaders)/" AND target AND NOT target MATCHES "^(plugin|shaders)/")
            breach("${file} reaches ${target}, outside plugin/ and shaders/")
        endif()
        if(file MATCHES "^shaders/" AND target AND NOT target MATCHES "^shaders/")
            breach("${file} reaches ${target}, outside shaders/")
        endif()
        if(file MATCHES "^plugin/plan/" AND ((kind STREQUAL "a" AND name MATCHES "^vulkan/") OR target MATCHES
           "^plugin/src/" OR (target AND NOT target MATCHES "^plugin/plan/" AND
           NOT target STREQUAL "shaders/shared/fftb_shared.h")))
            breach("${file}: the planner reaches ${name}")
        endif()
        if(file MATCHES "^reference/" AND target MATCHES "^(plugin/src|shaders|host/vulkan|host/node|host/runner)/")
            breach("${file}: the reference reaches ${target}")
        endif()
        if(file MATCHES "^host/(image|psf)/" AND vulkan)
            breach("${file} is Vulkan-free but includes ${name}")
        endif()
        if(file MATCHES "^(host|demo|bench)/" AND target MATCHES "^(plugin/src|plugin/plan|shaders)/" AND
           NOT (file MATCHES "^host/psf/" AND target STREQUAL "plugin/plan/psf_model.h") AND
           NOT (file STREQUAL "bench/fft_lines.cpp" AND target STREQUAL "plugin/plan/fft_lengths.h") AND
           NOT (file STREQUAL "bench/fft_lines.comp" AND
                target MATCHES "^shaders/(fft\\.glsl|shared/fftb_shared\\.h)$"))
            breach("${file} reaches the plugin's internals: ${target}")
        endif()
    endforeach()
endforeach()

# What ships never links the reference (Makefile generators write each target's link line to link.txt).
file(GLOB_RECURSE all_link_lines ${BUILD_DIR}/link.txt)
foreach(shipped fftbloom_shared fftbloom_cli fftbloom-psf fftbloom-shaders fftbloom-viewer)
    set(link_lines ${all_link_lines})
    list(FILTER link_lines INCLUDE REGEX "/${shipped}\\.dir/link\\.txt$")
    if(NOT link_lines)
        breach("no link line of ${shipped} under ${BUILD_DIR} (a Makefile build is needed for this check)")
    endif()
    foreach(link_line IN LISTS link_lines)
        file(READ ${link_line} text)
        if(text MATCHES "fftbloom_reference")
            breach("${shipped} links the reference (${link_line})")
        endif()
    endforeach()
endforeach()

if(breaches)
    message(FATAL_ERROR "the tree breaks its dependency rules:\n${breaches}")
endif()
message(STATUS "layout: every rule holds")
