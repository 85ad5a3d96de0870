// SPDX-License-Identifier: MIT
// Proves fftbloom.h compiles alone as C++: the C test's translation unit, compiled as C++ (its first include is the
// header itself).
#include "header_c_test.c"
