// SPDX-License-Identifier: MIT
// OcioDisplay: OpenColorIO's config, display and view, and its CPU processor.
#include "image/ocio_display.h"

#include "host_error.h"

#include <OpenColorIO/OpenColorIO.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
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

/// "a, b, c": the names `count` and `name` list.
template <typename Name> std::string namesOf(int count, Name name)
{
    std::string names;
    for (int i = 0; i < count; ++i)
        names += (i > 0 ? ", " : "") + std::string(name(i));
    return names;
}

/// The config's display transform for `choice` and its description; throws HostError for a display, view or look the
/// config does not have (naming those it has), OCIO::Exception for what OpenColorIO refuses.
std::pair<OCIO::ConstCPUProcessorRcPtr, std::string> makeProcessor(const char* path, const OcioChoice& choice)
{
    const OCIO::ConstConfigRcPtr config = OCIO::Config::CreateFromFile(path);
    const std::string display = choice.display.empty() ? config->getDefaultDisplay() : choice.display;
    const int displays = config->getNumDisplays();
    const auto has = [](int count, auto name, const std::string& wanted)
    {
        for (int i = 0; i < count; ++i)
            if (wanted == name(i))
                return true;
        return false;
    };
    const auto displayName = [&](int i) { return config->getDisplay(i); };
    if (!has(displays, displayName, display))
        throw HostError("no display '" + display + "' (the config's: " + namesOf(displays, displayName) + ")");
    const std::string view = choice.view.empty() ? config->getDefaultView(display.c_str()) : choice.view;
    const int views = config->getNumViews(display.c_str());
    const auto viewName = [&](int i) { return config->getView(display.c_str(), i); };
    if (!has(views, viewName, view))
        throw HostError("no view '" + view + "' of display '" + display + "' (its views: " + namesOf(views, viewName) +
                        ")");
    const auto lookName = [&](int i) { return config->getLookNameByIndex(i); };
    if (!choice.look.empty() && !has(config->getNumLooks(), lookName, choice.look))
        throw HostError("no look '" + choice.look + "' (the config's: " +
                        (config->getNumLooks() > 0 ? namesOf(config->getNumLooks(), lookName) : "none") + ")");
    const OCIO::DisplayViewTransformRcPtr displayView = OCIO::DisplayViewTransform::Create();
    displayView->setSrc(OCIO::ROLE_SCENE_LINEAR);
    displayView->setDisplay(display.c_str());
    displayView->setView(view.c_str());
    std::string description = "display '" + display + "', view '" + view + "'";
    OCIO::ConstTransformRcPtr transform = displayView;
    if (!choice.look.empty())
    {
        // The look in scene-linear, then the display and view: OpenColorIO's LookTransform applies it in its own
        // process space.
        const OCIO::LookTransformRcPtr look = OCIO::LookTransform::Create();
        look->setSrc(OCIO::ROLE_SCENE_LINEAR);
        look->setDst(OCIO::ROLE_SCENE_LINEAR);
        look->setLooks(choice.look.c_str());
        const OCIO::GroupTransformRcPtr group = OCIO::GroupTransform::Create();
        group->appendTransform(look);
        group->appendTransform(displayView);
        transform = group;
        description += ", look '" + choice.look + "'";
    }
    return {config->getProcessor(transform)->getOptimizedCPUProcessor(OCIO::OPTIMIZATION_DEFAULT),
            description + " of " + path};
}

/// OpenColorIO 2.1 overflows its stack (SIGSEGV) on a config whose colour spaces are defined through each other in a
/// loop, and checks for no such loop first. So the processor is made first in a child process, with nothing of it
/// kept: "" when that worked, else why not (OpenColorIO's reason, or the crash). Making it again here is then safe: the
/// same config gives the same processor. Called before the batch starts its threads.
std::string tryInChild(const char* path, const OcioChoice& choice)
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
            makeProcessor(path, choice);
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

std::optional<OcioDisplay> OcioDisplay::fromEnvironment(const OcioChoice& choice)
{
    const char* path = std::getenv("OCIO");
    if (!path || !*path)
    {
        if (!choice.display.empty() || !choice.view.empty() || !choice.look.empty())
            throw HostError("an OpenColorIO display, view or look is chosen, but $OCIO names no config");
        return std::nullopt;
    }
    if (const std::string problem = tryInChild(path, choice); !problem.empty())
        throw HostError(std::string("$OCIO=") + path + ": " + problem);
    try
    {
        auto [cpu, description] = makeProcessor(path, choice);
        OcioDisplay result;
        result.processor_ = std::make_shared<const Processor>(Processor{std::move(cpu)});
        result.description_ = std::move(description);
        return result;
    }
    catch (const std::exception& e)
    {
        throw HostError(std::string("$OCIO=") + path + ": " + e.what());
    }
}

void OcioDisplay::apply(float* rgb, std::size_t count) const
{
    OCIO::PackedImageDesc image(rgb, long(count), 1, 3);
    processor_->cpu->apply(image);
}

std::vector<float> OcioDisplay::lut(int size, float log2Min, float log2Max) const
{
    const std::size_t n = std::size_t(size);
    std::vector<float> node(n);
    for (std::size_t i = 1; i < n; ++i)
        node[i] = std::exp2(log2Min + (log2Max - log2Min) * float(i) / float(size - 1));
    node[0] = 0.0f; // black stays black: the shader reads every value up to 2^log2Min at node 0
    std::vector<float> rgba(n * n * n * 4, 1.0f);
    for (std::size_t i = 0; i < n * n * n; ++i)
    {
        rgba[i * 4] = node[i % n];
        rgba[i * 4 + 1] = node[i / n % n];
        rgba[i * 4 + 2] = node[i / (n * n)];
    }
    OCIO::PackedImageDesc image(rgba.data(), long(n * n * n), 1, 4); // alpha passes through
    processor_->cpu->apply(image);
    return rgba;
}

} // namespace fftb
