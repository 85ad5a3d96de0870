# Builds and runs the consumer project (cmake -P). MODE=subdirectory: against SOURCE_DIR through add_subdirectory.
# MODE=package: installs MAIN_BUILD into WORK_DIR/prefix, builds against it through find_package, and compiles
# consumer.c again with the flags of `pkg-config --static fftbloom` (which link the shared library). Any failing step fails the script.
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
if(MODE STREQUAL "subdirectory")
    step(${CMAKE_COMMAND} -S ${here} -B ${build} -G ${GENERATOR} -DFFTBLOOM_MODE=subdirectory
         -DFFTBLOOM_SOURCE_DIR=${SOURCE_DIR})
else()
    set(prefix ${WORK_DIR}/prefix)
    step(${CMAKE_COMMAND} --install ${MAIN_BUILD} --prefix ${prefix})
    step(${CMAKE_COMMAND} -S ${here} -B ${build} -G ${GENERATOR} -DFFTBLOOM_MODE=package
         -DCMAKE_PREFIX_PATH=${prefix})
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
    set(ENV{PKG_CONFIG_PATH} ${pc_dir})
    execute_process(COMMAND pkg-config --cflags --libs --static fftbloom OUTPUT_VARIABLE flags
                    OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE result)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "pkg-config does not find the installed fftbloom.pc")
    endif()
    separate_arguments(flags UNIX_COMMAND "${flags}")
    step(cc -std=c99 ${here}/consumer.c -o ${WORK_DIR}/consumer_pkgconfig ${flags})
    # -lfftbloom finds the shared library first, which the loader must find too.
    get_filename_component(lib_dir "${pc_dir}" DIRECTORY)
    step(${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${lib_dir} ${WORK_DIR}/consumer_pkgconfig)
endif()
