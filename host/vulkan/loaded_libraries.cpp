// SPDX-License-Identifier: MIT
// RTLD_NODELETE on every loaded library: dl_iterate_phdr(3) lists them, dlopen(3) with RTLD_NOLOAD marks them.
#include "vulkan/loaded_libraries.h"

#include <dlfcn.h>
#include <link.h>

#include <string>
#include <vector>

namespace fftb
{

void keepLoadedLibrariesUntilExit()
{
    std::vector<std::string> paths;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* out)
        {
            if (info->dlpi_name && info->dlpi_name[0] != '\0') // the executable has no name
                static_cast<std::vector<std::string>*>(out)->emplace_back(info->dlpi_name);
            return 0;
        },
        &paths);
    // Outside the iteration, which holds the dynamic linker's lock. The handles are never closed: with
    // RTLD_NODELETE the count no longer matters.
    for (const std::string& path : paths)
        dlopen(path.c_str(), RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
}

} // namespace fftb
