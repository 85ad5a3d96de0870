// Parsing the fftbloom command line with CLI11.
#include "options.h"

#include "fftbloom/fftbloom.h"

#include <CLI/CLI.hpp>

namespace fftb
{

std::optional<int> parseOptions(int argc, char** argv, CliOptions& o)
{
    CLI::App app{"fftbloom: FFT-convolution bloom of OpenEXR / Radiance HDR frames with a point spread function.\n"
                 "Writes a ZIP-compressed OpenEXR whose R, G, B are bloomed and every other channel copied.",
                 "fftbloom"};
    app.set_version_flag("--version", std::to_string(FFTB_VERSION_MAJOR) + "." + std::to_string(FFTB_VERSION_MINOR) +
                                          "." + std::to_string(FFTB_VERSION_PATCH));
    app.add_option("input", o.input, "input frame: OpenEXR (.exr) or Radiance (.hdr)")->required();
    app.add_option("-o", o.output, "output OpenEXR; never the input")->required();
    app.add_option("--preview", o.preview, "also write an 8-bit sRGB PNG preview (Reinhard tonemap) here");
    app.add_option("--exposure", o.exposure, "preview exposure in stops")->capture_default_str();
    app.add_option("--kernel", o.kernelPath,
                   "PSF image (EXR/HDR), centre texel (W/2, H/2); default: the generated glare PSF of docs/kernels.md");
    app.add_option("--kernel-size", o.kernelSize, "resample the PSF to N x N texels, N a power of two in 2..4096")
        ->capture_default_str()
        ->check(
            [](const std::string& s) -> std::string
            {
                const long n = std::strtol(s.c_str(), nullptr, 10);
                if (n < 2 || n > long(FFTB_MAX_FFT_LENGTH) || (n & (n - 1)) != 0)
                    return s + " is not a power of two in 2..4096"; // CLI11 prefixes the option name
                return "";
            });
    std::string padding = "zero", axis = "auto", spectrum = "resampled", output = "composite", pixelType;
    app.add_option("--padding", padding, "zero (black outside) or mirror (GL_MIRRORED_REPEAT)")
        ->capture_default_str()
        ->check(CLI::IsMember({"zero", "mirror"}));
    app.add_option("--axis", axis, "axis of the real-packed first pass: auto (cost model), x or y")
        ->capture_default_str()
        ->check(CLI::IsMember({"auto", "x", "y"}));
    app.add_option("--spectrum", spectrum,
                   "resampled: one kernel spectrum sampled bilinearly (faint ringing); exact: linear convolution")
        ->capture_default_str()
        ->check(CLI::IsMember({"resampled", "exact"}));
    app.add_option("--sharpen", o.settings.sharpen, "delta sharpening t: spectrum (1 - t) K + t; 1 is the identity")
        ->capture_default_str()
        ->check(CLI::Range(0.0f, 1.0f));
    app.add_option("--output", output, "bloom: the convolution alone; composite: in + intensity * (bloom - in)")
        ->capture_default_str()
        ->check(CLI::IsMember({"bloom", "composite"}));
    app.add_option("--intensity", o.settings.intensity, "composite weight of the bloom, >= 0")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    std::string precision = "fp32";
    app.add_option("--precision", precision, "storage of the intermediate spectra: fp32 (fp16 is not supported)")
        ->capture_default_str()
        ->check(CLI::IsMember({"fp32", "fp16"}));
    app.add_option("--pixel-type", pixelType, "output channel type, half or float; default: as the input's")
        ->check(CLI::IsMember({"half", "float"}));
    app.add_option("--device", o.runner.deviceIndex,
                   "Vulkan physical device index; default: the first discrete GPU, else lavapipe (CPU)");
    app.add_flag("--validate", o.runner.validation,
                 "enable the Khronos validation layer and fail on any message it prints");
    app.add_flag("-q,--quiet", o.quiet, "print nothing on success");
    app.get_formatter()->column_width(30);
    // One line like every other fftbloom error; CLI11's default adds a "Run with --help" line.
    app.failure_message([](const CLI::App*, const CLI::Error& e)
                        { return "fftbloom: " + std::string(e.what()) + "\n"; });

    try
    {
        app.parse(argc, argv);
    }
    catch (const CLI::ParseError& e)
    {
        // Exit code 2 for every usage error, as documented, rather than CLI11's per-error codes (105, 106, ...).
        return app.exit(e) == 0 ? 0 : 2;
    }
    if (precision == "fp16")
    {
        std::fprintf(stderr, "fftbloom: --precision fp16: not supported; use fp32\n");
        return 2;
    }
    o.settings.padding = padding == "mirror" ? Padding::Mirror : Padding::Zero;
    o.settings.axisOrder = axis == "x" ? AxisOrder::XFirst : axis == "y" ? AxisOrder::YFirst : AxisOrder::Auto;
    o.settings.spectrum = spectrum == "exact" ? SpectrumMode::Exact : SpectrumMode::Resampled;
    o.settings.composite = output == "composite";
    if (!pixelType.empty())
        o.pixelType = pixelType == "half" ? PixelType::Half : PixelType::Float;
    return std::nullopt;
}

} // namespace fftb
