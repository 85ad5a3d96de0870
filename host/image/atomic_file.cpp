// SPDX-License-Identifier: MIT
// Temporary file, fsync, rename.
#include "image/atomic_file.h"

#include "host_error.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace fftb
{

namespace
{

std::string temporaryName(const std::string& path, long pid, int attempt)
{
    return path + ".tmp-" + std::to_string(pid) + "-" + std::to_string(attempt);
}

} // namespace

void writeFileAtomically(const std::string& path, const void* data, std::size_t size)
{
    // Named and opened with O_EXCL rather than mkstemp so that the file gets the usual mode instead of 0600.
    std::string temporary;
    int fd = -1;
    for (int attempt = 0; fd < 0; ++attempt)
    {
        temporary = temporaryName(path, long(::getpid()), attempt);
        fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno == ENOENT)
            throw HostError(path + ": no such folder");
        if (fd < 0 && (errno != EEXIST || attempt == 100))
            throw HostError(path + ": cannot create a file beside it: " + std::strerror(errno));
    }
    const auto* bytes = static_cast<const unsigned char*>(data);
    int error = 0;
    for (std::size_t done = 0; done < size && error == 0;)
    {
        const ssize_t wrote = ::write(fd, bytes + done, size - done);
        error = wrote < 0 && errno != EINTR ? errno : 0;
        done += std::size_t(std::max(wrote, ssize_t(0)));
    }
    // Without the fsync a crash soon after the rename can leave an empty file under the final name.
    if (error == 0 && ::fsync(fd) != 0)
        error = errno;
    if (::close(fd) != 0 && error == 0)
        error = errno;
    if (error == 0 && ::rename(temporary.c_str(), path.c_str()) != 0)
        error = errno;
    if (error != 0)
    {
        ::unlink(temporary.c_str());
        throw HostError(path + ": " + std::strerror(error));
    }
}

void removeStaleTemporaries(const std::string& directory, const std::set<std::string>& names)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    for (fs::directory_iterator it(directory.empty() ? "." : directory, ec), end; !ec && it != end; it.increment(ec))
    {
        // "<name>.tmp-<pid>-<attempt>", as temporaryName() makes them.
        const std::string file = it->path().filename().string();
        const std::size_t tmp = file.rfind(".tmp-");
        if (tmp == std::string::npos || names.count(file.substr(0, tmp)) == 0)
            continue;
        long pid = 0;
        int attempt = 0;
        char extra = 0;
        if (std::sscanf(file.c_str() + tmp, ".tmp-%ld-%d%c", &pid, &attempt, &extra) != 2 || pid <= 0 ||
            file != temporaryName(file.substr(0, tmp), pid, attempt))
            continue;
        if (::kill(pid_t(pid), 0) != 0 && errno == ESRCH)
            fs::remove(it->path(), ec);
    }
}

} // namespace fftb
