# SPDX-License-Identifier: MIT
# Builds and runs a consumer project (cmake -P). MODE=subdirectory: the consumer against SOURCE_DIR through
# add_subdirectory. MODE=plugin: copies only SOURCE_DIR/plugin and SOURCE_DIR/shaders into a scratch engine tree
# (engine/), with the engine's own program and support code, builds it through add_subdirectory(plugin) and runs a
# program that creates a context and a kernel on lavapipe. MODE=package: installs MAIN_BUILD into WORK_DIR/prefix, builds the consumer against it through
# find_package(fftbloom <the header's major.minor>), and compiles consumer.c again with the flags of `pkg-config
# fftbloom` (the shared library) and of `pkg-config --static fftbloom-static` (the static one: it must run without
# the shared library on the loader's path); the installed tools (fftbloom, fftbloom-psf, fftbloom-shaders) must run.
# MODE=subdirectory also configures the consumer without a build type, which fftbloom must leave unset. C_COMPILER,
# CXX_COMPILER, BUILD_TYPE, C_FLAGS, CXX_FLAGS and LINKER_FLAGS are the main build's, used for every compile and link
# here. Any failing step fails the script.
function(step)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE result)
    if(NOT result EQUAL 0)
        string(REPLACE ";" " " command "${ARGN}")
        message(FATAL_ERROR "failed (${result}): ${command}")
    endif()
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(here ${CMAKE_CURRENT_LIST_DIR})
set(build ${WORK_DIR}/build)
set(toolchain -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
              "-DCMAKE_C_FLAGS=${C_FLAGS}" "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}"
              "-DCMAKE_SHARED_LINKER_FLAGS=${LINKER_FLAGS}")
if(MODE STREQUAL "plugin")
    set(engine ${WORK_DIR}/engine)
    file(COPY ${here}/engine/CMakeLists.txt ${here}/engine/engine_context.cpp DESTINATION ${engine})
    # The engine's own code besides: the host's keepLoadedLibrariesUntilExit, for leak reports under the sanitizers.
    file(COPY ${SOURCE_DIR}/host/vulkan/loaded_libraries.h ${SOURCE_DIR}/host/vulkan/loaded_libraries.cpp
         DESTINATION ${engine}/support/vulkan)
    file(COPY ${SOURCE_DIR}/plugin ${SOURCE_DIR}/shaders DESTINATION ${engine}/fftbloom)
    step(${CMAKE_COMMAND} -S ${engine} -B ${build} -G ${GENERATOR} ${toolchain})
    step(${CMAKE_COMMAND} --build ${build} -j 2)
    step(${build}/engine_context)
    return()
endif()

if(MODE STREQUAL "subdirectory")
    # Configured once without a build type: the consumer's CMakeLists fails if fftbloom sets one.
    set(no_build_type ${toolchain})
    list(FILTER no_build_type EXCLUDE REGEX "^-DCMAKE_BUILD_TYPE=")
    step(${CMAKE_COMMAND} -S ${here} -B ${WORK_DIR}/build-no-build-type -G ${GENERATOR} ${no_build_type}
         -DFFTBLOOM_MODE=subdirectory -DFFTBLOOM_SOURCE_DIR=${SOURCE_DIR})
    step(${CMAKE_COMMAND} -S ${here} -B ${build} -G ${GENERATOR} ${toolchain}
         -DFFTBLOOM_MODE=subdirectory -DFFTBLOOM_SOURCE_DIR=${SOURCE_DIR})
else()
    include(${SOURCE_DIR}/plugin/cmake/Version.cmake) # FFTBLOOM_VERSION, from the public header
    set(prefix ${WORK_DIR}/prefix)
    step(${CMAKE_COMMAND} --install ${MAIN_BUILD} --prefix ${prefix})
    step(${CMAKE_COMMAND} -S ${here} -B ${build} -G ${GENERATOR} ${toolchain}
         -DFFTBLOOM_MODE=package -DCMAKE_PREFIX_PATH=${prefix}
         -DFFTBLOOM_VERSION=${fftbloom_version_MAJOR}.${fftbloom_version_MINOR})
endif()
step(${CMAKE_COMMAND} --build ${build} -j 2)
step(${build}/consumer_c)
step(${build}/consumer_cpp)

if(MODE STREQUAL "package")
    file(GLOB_RECURSE pc_files ${prefix}/fftbloom.pc)
    if(NOT pc_files)
        message(FATAL_ERROR "no fftbloom.pc under ${prefix}")
    endif()
    get_filename_component(pc_dir "${pc_files}" DIRECTORY)
    get_filename_component(lib_dir "${pc_dir}" DIRECTORY)
    set(ENV{PKG_CONFIG_PATH} ${pc_dir})
    separate_arguments(c_flags UNIX_COMMAND "${C_FLAGS} ${LINKER_FLAGS}")
    # consumer.c through pkg-config: fftbloom.pc links the shared library, which the loader must then find;
    # fftbloom-static.pc the static one, so the program runs without it.
    foreach(pc fftbloom fftbloom-static)
        execute_process(COMMAND pkg-config --cflags --libs --static ${pc} OUTPUT_VARIABLE flags
                        OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE result)
        if(NOT result EQUAL 0)
            message(FATAL_ERROR "pkg-config does not find the installed ${pc}.pc")
        endif()
        separate_arguments(flags UNIX_COMMAND "${flags}")
        step(${C_COMPILER} ${c_flags} -std=c99 ${here}/consumer.c -o ${WORK_DIR}/consumer_${pc} ${flags})
    endforeach()
    step(${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${lib_dir} ${WORK_DIR}/consumer_fftbloom)
    step(${CMAKE_COMMAND} -E env --unset=LD_LIBRARY_PATH ${WORK_DIR}/consumer_fftbloom-static)
    # The tools are installed too: the fftbloom CLI, fftbloom-psf, fftbloom-shaders.
    foreach(tool fftbloom fftbloom-psf fftbloom-shaders)
        execute_process(COMMAND ${prefix}/bin/${tool} --help RESULT_VARIABLE result OUTPUT_QUIET ERROR_QUIET)
        if(NOT result EQUAL 0)
            message(FATAL_ERROR "${prefix}/bin/${tool} --help: ${result} (is it installed?)")
        endif()
    endforeach()
endif()
