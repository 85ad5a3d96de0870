# SPDX-License-Identifier: MIT
# The library's version, defined once: FFTB_VERSION_MAJOR, _MINOR and _PATCH in include/fftbloom/fftbloom.h. Sets
# FFTBLOOM_VERSION ("major.minor.patch") for project(), the package's version file, pkg-config and the SONAME.
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/../include/fftbloom/fftbloom.h fftbloom_version_lines
     REGEX "^#define FFTB_VERSION_(MAJOR|MINOR|PATCH) [0-9]+$")
foreach(part MAJOR MINOR PATCH)
    string(REGEX MATCH "FFTB_VERSION_${part} ([0-9]+)" match "${fftbloom_version_lines}")
    if(NOT match)
        message(FATAL_ERROR "fftbloom.h defines no FFTB_VERSION_${part}")
    endif()
    set(fftbloom_version_${part} ${CMAKE_MATCH_1})
endforeach()
set(FFTBLOOM_VERSION ${fftbloom_version_MAJOR}.${fftbloom_version_MINOR}.${fftbloom_version_PATCH})
