// SPDX-License-Identifier: MIT
// The exception type of the Vulkan-free host code: a message fit to print as one line.
#pragma once

#include <stdexcept>
#include <string>

namespace fftb
{

/// Thrown by host code (image I/O, PSF loading, planning wrappers). `what()` is one line that names the
/// file or field at fault and the reason, e.g. "in.exr: unsupported compression B44".
class HostError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

} // namespace fftb
