// SPDX-License-Identifier: MIT
// tinyexr's implementation compiled into the fuzz targets, so that the sanitizers check it and the fuzzers see its
// coverage; the executables' definitions take the place of Debian's shared libtinyexr.
#define TINYEXR_IMPLEMENTATION
#include <tinyexr.h>
