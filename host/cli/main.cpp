// fftbloom: blooms one OpenEXR or Radiance HDR frame on the GPU and writes an OpenEXR (and a PNG preview).
#include "gpu_runner.h"
#include "host_error.h"
#include "image_io.h"
#include "options.h"
#include "plan.h"
#include "psf.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <system_error>

namespace
{

using namespace fftb;

void refuseOverwritingInput(const CliOptions& o)
{
    std::error_code ec;
    for (const std::string& out : {o.output, o.preview})
        if (!out.empty() &&
            (std::filesystem::equivalent(o.input, out, ec) ||
             std::filesystem::weakly_canonical(o.input, ec) == std::filesystem::weakly_canonical(out, ec)))
            throw HostError(out + ": is the input file; fftbloom never overwrites its input");
}

void refuseNonFinite(const std::string& path, const Texels& frame)
{
    static const char* const names[] = {"R", "G", "B", "A"};
    for (int y = 0; y < frame.height; ++y)
        for (int x = 0; x < frame.width; ++x)
            for (int c = 0; c < 4; ++c)
                if (!std::isfinite(frame.at(x, y, c)))
                    throw HostError(path + ": pixel (" + std::to_string(x) + ", " + std::to_string(y) + ") channel " +
                                    names[c] + " is " + (std::isnan(frame.at(x, y, c)) ? "NaN" : "infinite"));
}

Texels loadKernel(const CliOptions& o)
{
    if (o.kernelPath.empty())
        return generateDefaultPsf(o.kernelSize);
    Texels psf = resamplePsf(loadPsf(o.kernelPath), o.kernelSize);
    try
    {
        normalizePsf(psf); // checked here to name the file; the plugin normalizes again
    }
    catch (const HostError& e)
    {
        throw HostError(o.kernelPath + ": " + e.what());
    }
    return psf;
}

int run(const CliOptions& o)
{
    refuseOverwritingInput(o);
    const Image image = readImage(o.input);
    const Texels frame = toRgba(image);
    refuseNonFinite(o.input, frame);
    const Texels kernel = loadKernel(o);

    // Planned before any Vulkan work so that an oversized frame fails fast and clearly.
    PlanRequest request{uint32_t(frame.width), uint32_t(frame.height), uint32_t(kernel.width), uint32_t(kernel.height),
                        o.settings.padding,    o.settings.axisOrder,   o.settings.spectrum};
    Plan plan;
    std::string reason;
    if (!makePlan(request, &plan, &reason))
        throw HostError(o.input + ": " + std::to_string(frame.width) + "x" + std::to_string(frame.height) +
                        " frame too large: " + reason);

    GpuRunner runner(o.runner);
    const Texels bloomed = runner.bloom(frame, kernel, o.settings);
    if (runner.validationMessageCount() > 0)
        throw HostError("Vulkan validation: " + runner.firstValidationMessage());

    const Image result = withRgb(image, bloomed);
    writeExr(o.output, result, o.pixelType);
    if (!o.preview.empty())
    {
        try
        {
            writePngPreview(o.preview, result, o.exposure);
        }
        catch (const HostError&)
        {
            std::error_code ec;
            std::filesystem::remove(o.output, ec); // all or nothing
            throw;
        }
    }
    if (!o.quiet)
        std::printf("%s -> %s%s%s (%dx%d, kernel %dx%d, %s first, N %ux%u, %s, %.1f ms GPU)\n", o.input.c_str(),
                    o.output.c_str(), o.preview.empty() ? "" : ", ", o.preview.c_str(), frame.width, frame.height,
                    kernel.width, kernel.height, plan.firstAxisIsX ? "x" : "y",
                    plan.firstAxisIsX ? plan.first.paddedLength : plan.second.paddedLength,
                    plan.firstAxisIsX ? plan.second.paddedLength : plan.first.paddedLength, runner.deviceName().c_str(),
                    runner.lastGpuMilliseconds());
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    CliOptions options;
    if (const std::optional<int> code = parseOptions(argc, argv, options))
        return *code;
    try
    {
        return run(options);
    }
    catch (const HostError& e)
    {
        std::fprintf(stderr, "fftbloom: %s\n", e.what());
    }
    catch (const std::exception& e)
    {
        std::fprintf(stderr, "fftbloom: %s\n", e.what());
    }
    return 1;
}
