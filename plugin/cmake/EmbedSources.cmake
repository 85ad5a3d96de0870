# SPDX-License-Identifier: MIT
# cmake -DOUTPUT=<file.cpp> -DDIR=<shaders> -DFILES=<a;b;...> -P EmbedSources.cmake: writes the table
# fftb::kShaderSources of the files' texts (relative names), which the plugin compiles when a plan is made.
set(entries)
foreach(name IN LISTS FILES)
    file(READ ${DIR}/${name} text)
    string(APPEND entries "    {\"${name}\", R\"fftb_source(${text})fftb_source\"},\n")
endforeach()
file(WRITE ${OUTPUT}.new
"// Generated: the GLSL sources of the passes the plugin compiles when a plan is made.
#include \"shader_sources.h\"
namespace fftb {
const ShaderSource kShaderSources[] = {
${entries}};
const std::size_t kShaderSourceCount = sizeof(kShaderSources) / sizeof(kShaderSources[0]);
}
")
file(COPY_FILE ${OUTPUT}.new ${OUTPUT} ONLY_IF_DIFFERENT)
