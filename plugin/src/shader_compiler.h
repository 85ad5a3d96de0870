// SPDX-License-Identifier: MIT
// GLSL to SPIR-V when a plan is made (glslang): the passes whose FFT is generated for the plan's lengths.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace fftb
{

/// The SPIR-V (Vulkan 1.1) of the compute shader `name` of the embedded sources (shader_sources.h), whose #include
/// directives name embedded sources or, first, the entries of `generated` (name -> text). Thread-safe. Throws
/// std::runtime_error with glslang's log when the source does not compile (a generator's or the build's fault).
std::vector<uint32_t> compileComputeShader(const std::string& name,
                                           const std::map<std::string, std::string>& generated);

} // namespace fftb
