# SPDX-License-Identifier: MIT
# Runs one libFuzzer target for a bounded time (cmake -P): FUZZER the binary, SEEDS the committed corpus (read
# only; crashes once found are kept there as regression inputs), WORK_DIR a fresh folder for the corpus it grows and
# for any crashing input, SECONDS the time limit. Fails when the fuzzer finds a crash, a leak or a timeout.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/corpus)
execute_process(COMMAND ${FUZZER} -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2560 -print_final_stats=1
                        -artifact_prefix=${WORK_DIR}/ ${WORK_DIR}/corpus ${SEEDS}
                RESULT_VARIABLE result)
if(NOT result EQUAL 0)
    file(GLOB found ${WORK_DIR}/crash-* ${WORK_DIR}/leak-* ${WORK_DIR}/timeout-* ${WORK_DIR}/oom-*)
    message(FATAL_ERROR "${FUZZER} failed (${result}); inputs: ${found}")
endif()
