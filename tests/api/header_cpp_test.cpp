// SPDX-License-Identifier: MIT
// Proves fftbloom.h and fftbloom_generator.h compile as C++: the C test's translation unit, compiled as C++ (its first
// include is the generator's header, whose first is fftbloom.h).
#include "header_c_test.c"
