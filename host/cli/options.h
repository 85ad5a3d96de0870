// The fftbloom command line: options, their defaults, and parsing with CLI11.
#pragma once

#include "gpu_runner.h"
#include "image.h"

#include <optional>
#include <string>

namespace fftb
{

/// Everything one fftbloom run needs, defaults as documented in `fftbloom --help`.
struct CliOptions
{
    std::string input;
    std::string output;
    std::string preview;    ///< optional PNG preview path
    std::string kernelPath; ///< empty: the generated default PSF (docs/kernels.md)
    int kernelSize = 256;   ///< the PSF is resampled (or generated) at kernelSize x kernelSize
    BloomSettings settings;
    std::optional<PixelType> pixelType; ///< output channel type; default: as the input's
    float exposure = 0.0f;              ///< preview exposure in stops
    RunnerOptions runner;
    bool quiet = false;
};

/// Parses argv. Returns an exit code to stop with (0 after --help or --version, 2 for a usage error, its message
/// printed to stderr), or std::nullopt to run.
std::optional<int> parseOptions(int argc, char** argv, CliOptions& options);

} // namespace fftb
