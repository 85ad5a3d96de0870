// SPDX-License-Identifier: MIT
// Files that appear whole or not at all.
#pragma once

#include <cstddef>
#include <set>
#include <string>

namespace fftb
{

/// Writes `size` bytes to `path` through a temporary file beside it ("<path>.tmp-<pid>-<n>", the usual
/// umask-derived mode), fsync'd and then renamed over `path`: a crash, a kill or a full disk leaves either the
/// old file or the complete new one under `path`, never a truncated one. Throws HostError "<path>: <reason>"
/// (no such folder, permission denied, no space left on device, ...), removing the temporary file.
void writeFileAtomically(const std::string& path, const void* data, std::size_t size);

/// Removes from `directory` the temporary files that writeFileAtomically left for any of `names` (file names in
/// that folder) when its process was killed: those whose writer process no longer runs. Errors are ignored.
void removeStaleTemporaries(const std::string& directory, const std::set<std::string>& names);

} // namespace fftb
