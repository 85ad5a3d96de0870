# SPDX-License-Identifier: MIT
# fftbloom_warnings: the warnings every fftbloom target compiles with, chosen per compiler (GCC and Clang; MSVC).
if(NOT TARGET fftbloom_warnings)
    add_library(fftbloom_warnings INTERFACE)
    set(gnu_like "$<OR:$<COMPILE_LANG_AND_ID:CXX,GNU,Clang,AppleClang>,$<COMPILE_LANG_AND_ID:C,GNU,Clang,AppleClang>>")
    set(msvc "$<OR:$<COMPILE_LANG_AND_ID:CXX,MSVC>,$<COMPILE_LANG_AND_ID:C,MSVC>>")
    target_compile_options(fftbloom_warnings INTERFACE
        "$<${gnu_like}:-Wall;-Wextra;-Wpedantic;-Wshadow;-Wconversion;-Wno-sign-conversion;-Wno-missing-field-initializers>"
        "$<${msvc}:/W4>")
endif()
