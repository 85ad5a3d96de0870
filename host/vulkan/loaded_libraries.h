// SPDX-License-Identifier: MIT
// Keeps the shared libraries a Vulkan instance loaded (layers, drivers) mapped until the process exits.
#pragma once

namespace fftb
{

/// Marks every shared library loaded in the process at the time of the call RTLD_NODELETE (glibc dlopen(3)), so a
/// later dlclose never unmaps it. Called right after vkCreateInstance: at vkDestroyInstance the Vulkan loader
/// unloads the layers and drivers it opened, and LeakSanitizer, which reports at exit, cannot then name the library
/// of a leaked block's allocation; kept loaded, a leak inside VK_LAYER_KHRONOS_validation is named as the layer's
/// and told apart from one of ours (tests/lsan.supp). Costs the address space of libraries the process already
/// mapped; never fails (an object that cannot be reopened, as the vDSO, is left as it is).
void keepLoadedLibrariesUntilExit();

} // namespace fftb
