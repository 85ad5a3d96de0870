// SPDX-License-Identifier: MIT
// Files that appear whole or not at all.
#pragma once

#include <cstddef>
#include <functional>
#include <set>
#include <string>

namespace fftb
{

/// A file being written: its bytes go to a temporary file beside `path` ("<path>.tmp-<pid>-<n>", the usual
/// umask-derived mode) that commit() fsyncs and renames over `path`, so a crash, a kill or a full disk leaves either
/// the old file or the complete new one under `path`, never a truncated one. Until then the temporary is registered, so
/// that removeTemporariesOnTermination() removes it if the process is interrupted. Every method throws HostError
/// "<path>: <reason>" (no such folder, permission denied, no space left on device, ...), removing the temporary.
class PendingFile
{
  public:
    /// Creates the temporary file.
    explicit PendingFile(const std::string& path);
    /// Removes the temporary unless commit() succeeded.
    ~PendingFile();
    PendingFile(const PendingFile&) = delete;
    PendingFile& operator=(const PendingFile&) = delete;

    void write(const void* data, std::size_t size);
    /// fsync, close, rename over the final path.
    void commit();

  private:
    void discard();
    std::string path_;
    std::string temporary_;
    int fd_ = -1;
};

/// Writes `size` bytes to `path` through a PendingFile.
void writeFileAtomically(const std::string& path, const void* data, std::size_t size);

/// Makes SIGINT, SIGTERM and SIGHUP remove every PendingFile's temporary before they end the process (then by that
/// signal, its default action, so the parent sees how it ended): an interrupted run leaves no "<path>.tmp-<pid>-<n>"
/// behind. Call it first in main(), before any thread starts: it blocks the three signals in the calling thread, which
/// every later thread inherits, and starts a thread that waits for them (sigwait), so no signal handler runs.
void removeTemporariesOnTermination();

/// Makes `action` run, on the thread removeTemporariesOnTermination started, when one of its signals arrives and
/// before the temporaries are removed, with the signal's number: a run's last words (its report's summary). It
/// replaces an earlier action; an empty one clears it. Without removeTemporariesOnTermination it never runs.
void onTermination(std::function<void(int signal)> action);

/// Removes from `directory` the temporary files that a PendingFile left for any of `names` (file names in that folder)
/// when its process was killed (SIGKILL, a crash): those whose writer process no longer runs. Errors are ignored.
void removeStaleTemporaries(const std::string& directory, const std::set<std::string>& names);

} // namespace fftb
