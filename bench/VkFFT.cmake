# SPDX-License-Identifier: MIT
# Builds the VkFFT anchor (bench/vkfft_anchor.cpp) against a build-tree copy of Debian's vkFFT.h patched for glslang 12.
#
# Included from bench/CMakeLists.txt, it defines the object library fftbloom_vkfft_anchor. Include it from the
# directory that calls fftbloom_embed_shaders(... NAMES ... vkfft_pack vkfft_unpack ...), whose generated
# fftbloom_spirv.h the anchor includes. Run as a script (cmake -P) it does the patching alone.
#
# Why the patch: VkFFT 1.2.26 fills glslang_resource_t by position and predates the nine max_*_ext mesh-shader
# fields glslang 12 added after max_mesh_view_count_nv, so the header does not compile in C++ (upstream fixed it after
# 1.2.26, VkFFT issue #81). The copy gets the nine values glslang's own glslang_default_resource() uses; VkFFT's code
# is never committed here.

if(CMAKE_SCRIPT_MODE_FILE)
    # cmake -DVKFFT_HEADER=... -DGLSLANG_C_INTERFACE=... -DPATCHED_HEADER=... -P VkFFT.cmake
    file(READ "${VKFFT_HEADER}" text)
    file(READ "${GLSLANG_C_INTERFACE}" glslang_text)
    string(FIND "${glslang_text}" "max_mesh_output_vertices_ext" glslang_has_ext)
    string(FIND "${text}" "maxMeshOutputVerticesEXT" vkfft_has_ext)
    if(glslang_has_ext GREATER_EQUAL 0 AND vkfft_has_ext EQUAL -1)
        set(anchor "/* .maxMeshViewCountNV = */ 4,")
        string(REPLACE "${anchor}" "" stripped "${text}")
        string(LENGTH "${text}" before)
        string(LENGTH "${stripped}" after)
        string(LENGTH "${anchor}" anchor_length)
        math(EXPR count "(${before} - ${after}) / ${anchor_length}")
        if(NOT count EQUAL 2)
            message(FATAL_ERROR "VkFFT.cmake: expected 2 glslang_resource_t initializers in ${VKFFT_HEADER}, found "
                                "${count}; only VkFFT 1.2.26 is known to need this patch")
        endif()
        # Same line, so VkFFT's line numbers in compiler messages stay those of the packaged header.
        string(REPLACE "${anchor}"
               "${anchor} /* .maxMeshOutputVerticesEXT = */ 256, /* .maxMeshOutputPrimitivesEXT = */ 256, \
/* .maxMeshWorkGroupSizeX_EXT = */ 128, /* .maxMeshWorkGroupSizeY_EXT = */ 128, \
/* .maxMeshWorkGroupSizeZ_EXT = */ 128, /* .maxTaskWorkGroupSizeX_EXT = */ 128, \
/* .maxTaskWorkGroupSizeY_EXT = */ 128, /* .maxTaskWorkGroupSizeZ_EXT = */ 128, /* .maxMeshViewCountEXT = */ 4,"
               text "${text}")
    endif()
    file(WRITE "${PATCHED_HEADER}" "${text}")
    return()
endif()

find_package(Threads REQUIRED)
find_package(glslang CONFIG REQUIRED) # glslang-dev; its SPIRV target names SPIRV-Tools-opt and SPIRV-Tools plainly
find_path(VKFFT_INCLUDE_DIR vkFFT.h REQUIRED DOC "Directory of VkFFT 1.2.26's vkFFT.h (Debian: libvkfft-dev)")
find_path(GLSLANG_C_INTERFACE_DIR glslang/Include/glslang_c_interface.h REQUIRED)

set(FFTBLOOM_VKFFT_PATCHED_DIR ${CMAKE_CURRENT_BINARY_DIR}/vkfft_patched)
add_custom_command(
    OUTPUT ${FFTBLOOM_VKFFT_PATCHED_DIR}/vkFFT.h
    COMMAND ${CMAKE_COMMAND} -DVKFFT_HEADER=${VKFFT_INCLUDE_DIR}/vkFFT.h
            -DGLSLANG_C_INTERFACE=${GLSLANG_C_INTERFACE_DIR}/glslang/Include/glslang_c_interface.h
            -DPATCHED_HEADER=${FFTBLOOM_VKFFT_PATCHED_DIR}/vkFFT.h -P ${CMAKE_CURRENT_LIST_FILE}
    DEPENDS ${VKFFT_INCLUDE_DIR}/vkFFT.h ${GLSLANG_C_INTERFACE_DIR}/glslang/Include/glslang_c_interface.h
            ${CMAKE_CURRENT_LIST_FILE}
    COMMENT "VkFFT: patching vkFFT.h for glslang's glslang_resource_t"
    VERBATIM)

# One translation unit: vkFFT.h is 33k lines, ~10 s to compile at -O0 and nearer a minute at -O3 on two cores.
add_library(fftbloom_vkfft_anchor OBJECT ${CMAKE_CURRENT_LIST_DIR}/vkfft_anchor.cpp
                                         ${FFTBLOOM_VKFFT_PATCHED_DIR}/vkFFT.h)
target_include_directories(fftbloom_vkfft_anchor PUBLIC ${CMAKE_CURRENT_LIST_DIR}
                                                 PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/spirv)
# SYSTEM: VkFFT's own code is not held to our warning flags.
target_include_directories(fftbloom_vkfft_anchor SYSTEM PRIVATE ${FFTBLOOM_VKFFT_PATCHED_DIR})
target_compile_definitions(fftbloom_vkfft_anchor PRIVATE VKFFT_BACKEND=0)
target_link_libraries(fftbloom_vkfft_anchor
    PUBLIC fftbloom_runner
    PRIVATE fftbloom_reference fftbloom_warnings glslang::glslang glslang::SPIRV Threads::Threads)
