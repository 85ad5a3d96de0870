// SPDX-License-Identifier: MIT
// keepLoadedLibrariesUntilExit: a library loaded before the call outlives its last dlclose; one loaded after does not.
#include "vulkan/loaded_libraries.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

namespace
{

// The Vulkan loader (libvulkan1): installed with the build's dependencies, not linked into this test program, and
// free of dependencies the program lacks.
constexpr const char* kLibrary = "libvulkan.so.1";

bool isLoaded()
{
    void* handle = dlopen(kLibrary, RTLD_LAZY | RTLD_NOLOAD);
    if (handle)
        dlclose(handle);
    return handle != nullptr;
}

} // namespace

TEST(LoadedLibraries, OnlyThoseLoadedAtTheCallOutliveTheirLastDlclose)
{
    ASSERT_FALSE(isLoaded()) << kLibrary << " is linked into the test program; the test needs one that is not";

    // Opened after the call (the control): unloaded by its last dlclose, as dlopen(3) says.
    fftb::keepLoadedLibrariesUntilExit();
    void* handle = dlopen(kLibrary, RTLD_LAZY);
    ASSERT_NE(handle, nullptr) << dlerror();
    ASSERT_TRUE(isLoaded());
    ASSERT_EQ(dlclose(handle), 0);
    EXPECT_FALSE(isLoaded());

    // Opened before the call: still loaded after its last dlclose.
    handle = dlopen(kLibrary, RTLD_LAZY);
    ASSERT_NE(handle, nullptr) << dlerror();
    fftb::keepLoadedLibrariesUntilExit();
    ASSERT_EQ(dlclose(handle), 0);
    EXPECT_TRUE(isLoaded());
}
