// SPDX-License-Identifier: MIT
// fftbloom-psf: writes a physically based point spread function (docs/kernels.md) as a float OpenEXR.
#include "host_error.h"
#include "image/atomic_file.h"
#include "image/image_io.h"
#include "message.h"
#include "psf/psf_generator.h"

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <exception>
#include <new>
#include <optional>
#include <string>

namespace
{

using namespace fftb;

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

struct ToolOptions
{
    PsfParams psf;
    std::string output;
    std::string aperturePath;
    bool verbose = false;
};

/// Parses the command line; returns an exit code when the tool should stop (help, or a usage error).
std::optional<int> parse(int argc, char** argv, ToolOptions& o)
{
    CLI::App app{"fftbloom-psf: a physically based point spread function by Fraunhofer diffraction, |F(aperture)|^2,\n"
                 "integrated over 380..780 nm with the CIE 1931 colour matching functions, in linear Rec.709. Writes\n"
                 "a K x K float OpenEXR, peak at texel (K/2, K/2), each channel summing to 1, every parameter in its\n"
                 "header (fftbloom.psf.<option>). Lengths on the aperture are fractions of its diameter D; angles are\n"
                 "degrees counter-clockwise on screen from +x. Example:\n"
                 "  fftbloom-psf --blades 6 --blade-curvature 0.2 --size 512 -o psf.exr\n"
                 "Exit codes: 0 written, 1 generation or writing failed (nothing written), 2 usage error.",
                 "fftbloom-psf"};
    PsfParams& p = o.psf;
    ApertureParams& a = p.aperture;
    app.add_option("-o,--output", o.output, "the OpenEXR to write")->required();
    app.add_option("--size", p.sizeTexels, "kernel size K in texels, a power of two in 64..2048")
        ->capture_default_str();
    app.add_option("--airy-radius", p.airyRadiusTexels,
                   "scale: first dark ring of a circular aperture at 550 nm, in texels, 1..16 and at most K/8")
        ->capture_default_str();
    app.add_option("--wavelengths", p.wavelengths, "wavelengths sampled across 380..780 nm, 16..256")
        ->capture_default_str();
    app.add_option("--monochromatic", p.monochromaticNm,
                   "one wavelength in 380..780 nm, the same in R, G, B; 0: spectral")
        ->capture_default_str();
    app.add_option("--blades", a.blades, "iris blades: 0 for a circle, else 3..16")->capture_default_str();
    app.add_option("--blade-rotation", a.bladeRotationDeg, "rotation of the blade polygon, degrees, -360..360")
        ->capture_default_str();
    app.add_option("--blade-curvature", a.bladeCurvature, "0 straight blades .. 1 a circle")->capture_default_str();
    app.add_option("--obstruction", a.obstruction, "central obstruction diameter over D, 0..0.9")
        ->capture_default_str();
    app.add_option("--vanes", a.vanes, "spider vanes from the centre to the rim, 0..8")->capture_default_str();
    app.add_option("--vane-width", a.vaneWidth, "vane width over D, 0.001..0.1")->capture_default_str();
    app.add_option("--vane-angle", a.vaneAngleDeg, "direction of the first vane, degrees, -360..360")
        ->capture_default_str();
    app.add_option("--dust", a.dust, "dust particles on the aperture, 0..5000")->capture_default_str();
    app.add_option("--scratches", a.scratches, "scratches on the aperture, 0..200")->capture_default_str();
    app.add_option("--corona", a.corona, "eye: lens fibres and particles (ciliary corona, lenticular halo), 0..1")
        ->capture_default_str();
    app.add_option("--halo-radius", a.haloRadius, "eye: lenticular halo radius over K/2 at 550 nm, 0.1..0.8")
        ->capture_default_str();
    app.add_option("--seed", a.seed, "seed of the dust, scratches and particles")->capture_default_str();
    app.add_option("--fade", p.fade, "radial fade to 0 over this fraction of the kernel's radius, 0..1; 0: none")
        ->capture_default_str();
    app.add_option("--glare", p.glare, "share of the light in the eye's wide-angle scatter (Spencer 1995), 0..1")
        ->capture_default_str();
    app.add_option("--aperture", o.aperturePath, "also write the aperture's transmission (0..1) as an OpenEXR here");
    app.add_flag("-v,--verbose", o.verbose, "print the sampling and the generation time");
    app.get_formatter()->column_width(30);
    app.failure_message([](const CLI::App*, const CLI::Error& e)
                        { return "fftbloom-psf: " + std::string(e.what()) + "\n"; });
    try
    {
        app.parse(argc, argv);
    }
    catch (const CLI::ParseError& e)
    {
        return app.exit(e) == 0 ? kExitOk : kExitUsage;
    }
    try
    {
        validatePsfParams(p);
    }
    catch (const HostError& e)
    {
        // "psf: <field> = ..." names the library's field and the option: the tool's name replaces the "psf:".
        const std::string message = e.what();
        printMessage("fftbloom-psf", message.substr(message.rfind("psf: ", 0) == 0 ? 5 : 0));
        return kExitUsage;
    }
    return std::nullopt;
}

Image apertureImage(const Texels& aperture)
{
    Image image;
    image.width = aperture.width;
    image.height = aperture.height;
    for (const char* name : {"R", "G", "B"})
        image.channels.push_back({name, PixelType::Float, aperture.values});
    return image;
}

int run(const ToolOptions& o)
{
    const std::string& path = o.output;
    try
    {
        const auto start = std::chrono::steady_clock::now();
        const Texels psf = generatePsf(o.psf);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        writeExr(path, psfImage(psf, o.psf));
        if (!o.aperturePath.empty())
            writeExr(o.aperturePath, apertureImage(generateAperture(o.psf)));
        if (o.verbose)
        {
            const PsfSampling s = psfSampling(o.psf);
            std::printf("%s: %dx%d %s PSF in %.3f s (FFT %d^2, aperture %.1f samples across, %.2f bins per texel "
                        "at 550 nm)\n",
                        path.c_str(), o.psf.sizeTexels, o.psf.sizeTexels,
                        o.psf.monochromaticNm > 0.0 ? "monochromatic" : "spectral", seconds, s.fftSize,
                        s.apertureDiameterSamples, s.binsPerTexel);
        }
        return kExitOk;
    }
    catch (const HostError& e)
    {
        // writeExr names its file; generation errors are named after the output they were for.
        const std::string message = e.what();
        const bool named = message.rfind(path + ":", 0) == 0 ||
                           (!o.aperturePath.empty() && message.rfind(o.aperturePath + ":", 0) == 0);
        printMessage("fftbloom-psf", (named ? "" : path + ": ") + message);
    }
    catch (const std::bad_alloc&)
    {
        printMessage("fftbloom-psf", path + ": out of memory");
    }
    catch (const std::exception& e)
    {
        printMessage("fftbloom-psf", path + ": " + e.what());
    }
    return kExitFailed;
}

} // namespace

int main(int argc, char** argv)
{
    removeTemporariesOnTermination(); // first: before any thread starts
    ToolOptions o;
    if (const std::optional<int> stop = parse(argc, argv, o))
        return *stop;
    return run(o);
}
