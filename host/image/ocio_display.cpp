// SPDX-License-Identifier: MIT
// OcioDisplay: OpenColorIO's config, display and view, and its CPU processor.
#include "image/ocio_display.h"

#include "host_error.h"

#include <OpenColorIO/OpenColorIO.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace fftb
{

namespace OCIO = OCIO_NAMESPACE;

struct OcioDisplay::Processor
{
    OCIO::ConstCPUProcessorRcPtr cpu;
};

namespace
{

/// The exit code of the trial's child when OpenColorIO refused the config (its reason on the pipe).
constexpr int kRefusedByOcio = 3;

/// The config's display transform and its description; throws OCIO::Exception.
std::pair<OCIO::ConstCPUProcessorRcPtr, std::string> makeProcessor(const char* path)
{
    const OCIO::ConstConfigRcPtr config = OCIO::Config::CreateFromFile(path);
    const std::string display = config->getDefaultDisplay();
    const std::string view = config->getDefaultView(display.c_str());
    const OCIO::DisplayViewTransformRcPtr transform = OCIO::DisplayViewTransform::Create();
    transform->setSrc(OCIO::ROLE_SCENE_LINEAR);
    transform->setDisplay(display.c_str());
    transform->setView(view.c_str());
    return {config->getProcessor(transform)->getOptimizedCPUProcessor(OCIO::OPTIMIZATION_DEFAULT),
            "display '" + display + "', view '" + view + "' of " + path};
}

/// OpenColorIO 2.1 overflows its stack (SIGSEGV) on a config whose colour spaces are defined through each other in a
/// loop, and checks for no such loop first. So the processor is made first in a child process, with nothing of it
/// kept: "" when that worked, else why not (OpenColorIO's reason, or the crash). Making it again here is then safe: the
/// same config gives the same processor. Called before the batch starts its threads.
std::string tryInChild(const char* path)
{
    int pipeFds[2];
    if (::pipe(pipeFds) != 0)
        return std::string("cannot test the config: ") + std::strerror(errno);
    std::fflush(nullptr);
    const pid_t child = ::fork();
    if (child < 0)
    {
        ::close(pipeFds[0]);
        ::close(pipeFds[1]);
        return std::string("cannot test the config: ") + std::strerror(errno);
    }
    if (child == 0)
    {
        ::close(pipeFds[0]);
        if (const int null = ::open("/dev/null", O_WRONLY); null >= 0)
            ::dup2(null, STDERR_FILENO); // a sanitizer's report of the crash is not the tool's message
        try
        {
            makeProcessor(path);
        }
        catch (const std::exception& e)
        {
            const std::string reason = e.what();
            [[maybe_unused]] const ssize_t written = ::write(pipeFds[1], reason.data(), reason.size());
            ::_exit(kRefusedByOcio);
        }
        ::_exit(0);
    }
    ::close(pipeFds[1]);
    std::string reason;
    char buffer[4096];
    for (ssize_t n; (n = ::read(pipeFds[0], buffer, sizeof buffer)) != 0;)
    {
        if (n > 0)
            reason.append(buffer, std::size_t(n));
        else if (errno != EINTR)
            break;
    }
    ::close(pipeFds[0]);
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR)
    {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return std::string();
    if (WIFEXITED(status) && WEXITSTATUS(status) == kRefusedByOcio)
        return reason;
    return std::string("OpenColorIO crashed reading it (") +
           (WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "exit " + std::to_string(WEXITSTATUS(status))) +
           "): are its colour spaces defined through each other in a loop?";
}

} // namespace

std::optional<OcioDisplay> OcioDisplay::fromEnvironment()
{
    const char* path = std::getenv("OCIO");
    if (!path || !*path)
        return std::nullopt;
    if (const std::string problem = tryInChild(path); !problem.empty())
        throw HostError(std::string("$OCIO=") + path + ": " + problem);
    try
    {
        auto [cpu, description] = makeProcessor(path);
        OcioDisplay result;
        result.processor_ = std::make_shared<const Processor>(Processor{std::move(cpu)});
        result.description_ = std::move(description);
        return result;
    }
    catch (const OCIO::Exception& e)
    {
        throw HostError(std::string("$OCIO=") + path + ": " + e.what());
    }
}

void OcioDisplay::apply(float* rgb, std::size_t count) const
{
    OCIO::PackedImageDesc image(rgb, long(count), 1, 3);
    processor_->cpu->apply(image);
}

} // namespace fftb
