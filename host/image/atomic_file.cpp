// SPDX-License-Identifier: MIT
// Temporary file, fsync, rename; the temporaries in progress, removed when a termination signal arrives.
#include "image/atomic_file.h"

#include "host_error.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <thread>

namespace fftb
{

namespace
{

std::string temporaryName(const std::string& path, long pid, int attempt)
{
    return path + ".tmp-" + std::to_string(pid) + "-" + std::to_string(attempt);
}

/// The temporaries that exist now. A temporary is created and registered, or renamed or removed and unregistered,
/// under the mutex, which the termination thread takes and never gives back: it sees every temporary there is.
struct Temporaries
{
    std::mutex mutex;
    std::set<std::string> paths;
};

Temporaries& temporaries()
{
    static Temporaries* t = new Temporaries; // never destroyed: the termination thread may use it at exit
    return *t;
}

/// onTermination's action.
struct TerminationAction
{
    std::mutex mutex;
    std::function<void(int)> action;
};

TerminationAction& termination()
{
    static TerminationAction* t = new TerminationAction; // never destroyed, as temporaries()
    return *t;
}

/// A copy of the action, taken under its mutex: the action itself runs without it.
std::function<void(int)> terminationAction()
{
    TerminationAction& t = termination();
    const std::lock_guard<std::mutex> lock(t.mutex);
    return t.action;
}

sigset_t terminationSignals()
{
    sigset_t set;
    sigemptyset(&set);
    for (int signal : {SIGINT, SIGTERM, SIGHUP})
        sigaddset(&set, signal);
    return set;
}

} // namespace

PendingFile::PendingFile(const std::string& path) : path_(path)
{
    Temporaries& t = temporaries();
    const std::lock_guard lock(t.mutex);
    // Named and opened with O_EXCL rather than mkstemp so that the file gets the usual mode instead of 0600.
    for (int attempt = 0; fd_ < 0; ++attempt)
    {
        temporary_ = temporaryName(path, long(::getpid()), attempt);
        fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd_ < 0 && errno == ENOENT)
            throw HostError(path + ": no such folder");
        if (fd_ < 0 && (errno != EEXIST || attempt == 100))
            throw HostError(path + ": cannot create a file beside it: " + std::strerror(errno));
    }
    t.paths.insert(temporary_);
}

PendingFile::~PendingFile()
{
    if (!temporary_.empty())
        discard();
}

void PendingFile::discard()
{
    if (fd_ >= 0)
        ::close(fd_);
    fd_ = -1;
    Temporaries& t = temporaries();
    const std::lock_guard lock(t.mutex);
    ::unlink(temporary_.c_str());
    t.paths.erase(temporary_);
    temporary_.clear();
}

void PendingFile::write(const void* data, std::size_t size)
{
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (std::size_t done = 0; done < size;)
    {
        const ssize_t wrote = ::write(fd_, bytes + done, size - done);
        if (wrote < 0 && errno != EINTR)
        {
            const int error = errno;
            discard();
            throw HostError(path_ + ": " + std::strerror(error));
        }
        done += std::size_t(std::max(wrote, ssize_t(0)));
    }
}

void PendingFile::commit()
{
    // Without the fsync a crash soon after the rename can leave an empty file under the final name.
    int error = ::fsync(fd_) != 0 ? errno : 0;
    if (::close(fd_) != 0 && error == 0)
        error = errno;
    fd_ = -1;
    if (error == 0)
    {
        Temporaries& t = temporaries();
        const std::lock_guard lock(t.mutex);
        if (::rename(temporary_.c_str(), path_.c_str()) == 0)
        {
            t.paths.erase(temporary_);
            temporary_.clear();
            return;
        }
        error = errno;
    }
    discard();
    throw HostError(path_ + ": " + std::strerror(error));
}

void writeFileAtomically(const std::string& path, const void* data, std::size_t size)
{
    PendingFile file(path);
    file.write(data, size);
    file.commit();
}

void onTermination(std::function<void(int signal)> action)
{
    TerminationAction& t = termination();
    const std::lock_guard<std::mutex> lock(t.mutex);
    t.action = std::move(action);
}

void removeTemporariesOnTermination()
{
    const sigset_t signals = terminationSignals();
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    std::thread(
        [signals]
        {
            int signal = 0;
            while (sigwait(&signals, &signal) != 0)
            {
            }
            if (const std::function<void(int)> action = terminationAction(); action)
                action(signal);
            Temporaries& t = temporaries();
            t.mutex.lock(); // kept: no temporary is made or renamed from here on
            for (const std::string& path : t.paths)
                ::unlink(path.c_str());
            // End as the signal would have: its default action, delivered to this thread, ends the process.
            ::signal(signal, SIG_DFL);
            sigset_t one;
            sigemptyset(&one);
            sigaddset(&one, signal);
            pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
            ::raise(signal);
            ::_exit(128 + signal);
        })
        .detach();
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
