# SPDX-License-Identifier: MIT
# How the suites declare their tests (docs/testing.md): every test carries a label naming its part of the tree and
# requires the fixture `suite`, whose cleanup is the `budget` test: it runs after every other test of a ctest run and
# fails if one of them took longer than FFTBLOOM_TEST_BUDGET_S seconds.
include(GoogleTest)

set(FFTBLOOM_TEST_BUDGET_S 120 CACHE STRING "the longest one test may run, in seconds (the budget test)")

# Labels the tests the calling directory declared with add_test (all of them, or those named after TESTS) and makes
# them require the fixture `suite`. Called at the end of each CMakeLists.txt that uses add_test.
function(fftbloom_label_tests label)
    cmake_parse_arguments(ARG "" "" "TESTS" ${ARGN})
    set(tests ${ARG_TESTS})
    if(NOT tests)
        get_property(tests DIRECTORY PROPERTY TESTS)
    endif()
    set_property(TEST ${tests} APPEND PROPERTY LABELS ${label})
    set_property(TEST ${tests} APPEND PROPERTY FIXTURES_REQUIRED suite)
endfunction()

# One CTest test per GoogleTest test of `target` (found when it is built), labelled `label`; PROPERTIES as
# gtest_discover_tests takes them. For programs whose tests need no Vulkan device, or each a device of its own.
function(fftbloom_discover_tests target label)
    cmake_parse_arguments(ARG "" "TEST_PREFIX" "PROPERTIES" ${ARGN})
    set(prefix)
    if(ARG_TEST_PREFIX)
        set(prefix TEST_PREFIX ${ARG_TEST_PREFIX})
    endif()
    gtest_discover_tests(${target} ${prefix} DISCOVERY_TIMEOUT 60
                         PROPERTIES LABELS ${label} FIXTURES_REQUIRED suite ${ARG_PROPERTIES})
endfunction()

# The GoogleTest tests of `target` as SHARDS processes <name>.shard.0 .. SHARDS-1 (GoogleTest's sharding: test i runs
# in shard i mod SHARDS), labelled `label`. For the GPU tests: one Vulkan instance and device a process, whose compiled
# pipelines the process's tests share, instead of one each (docs/testing.md). FILTER, if given, is a GoogleTest filter
# (GTEST_FILTER) that every shard applies. Shards have a COST, as the other long tests do: CTest starts the tests of
# highest COST first (before it has timed a run of its own), so that no core is left idle at the end of a run with
# one long test still going.
function(fftbloom_add_test_shards target name label)
    cmake_parse_arguments(ARG "" "SHARDS;FILTER;TIMEOUT" "" ${ARGN})
    math(EXPR last "${ARG_SHARDS} - 1")
    foreach(shard RANGE ${last})
        set(environment "GTEST_TOTAL_SHARDS=${ARG_SHARDS};GTEST_SHARD_INDEX=${shard}")
        if(ARG_FILTER)
            list(APPEND environment "GTEST_FILTER=${ARG_FILTER}")
        endif()
        add_test(NAME ${name}.shard.${shard} COMMAND ${target})
        set_tests_properties(${name}.shard.${shard} PROPERTIES ENVIRONMENT "${environment}" TIMEOUT ${ARG_TIMEOUT}
                             LABELS ${label} FIXTURES_REQUIRED suite COST 60)
    endforeach()
endfunction()
