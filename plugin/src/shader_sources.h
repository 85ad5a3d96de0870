// SPDX-License-Identifier: MIT
// The GLSL sources embedded at build time (plugin/cmake/EmbedSources.cmake) that the plugin compiles when a plan is
// made: the passes whose FFT is generated for the plan's lengths, and the files they include.
#pragma once

#include <cstddef>

namespace fftb
{

struct ShaderSource
{
    const char* name; ///< relative to shaders/, as #include names it
    const char* text;
};
extern const ShaderSource kShaderSources[];
extern const std::size_t kShaderSourceCount;

} // namespace fftb
