// SPDX-License-Identifier: MIT
// The fftbloom command line: options, their defaults, and parsing with CLI11.
#pragma once

#include "psf/psf_generator.h"
#include "runner/batch.h"
#include "runner/frames.h"
#include "runner/gpu_runner.h"
#include "settings/bloom_settings.h"

#include <optional>
#include <string>
#include <vector>

namespace fftb
{

/// Exit codes of fftbloom, as documented in `fftbloom --help` and README.md.
enum ExitCode : int
{
    kExitOk = 0,         ///< every frame written or skipped
    kExitSomeFailed = 1, ///< some frames failed (each named on stderr and in the report); the rest were written
    kExitUsage = 2,      ///< bad options, or outputs that would overwrite an input; nothing was done
    kExitStopped = 3,    ///< the GPU failed (no device, device lost): the batch stopped; frames not written failed
};

/// Everything one fftbloom run needs, defaults as documented in `fftbloom --help`.
struct CliOptions
{
    std::vector<std::string> inputs; ///< from the command line, then from --list; patterns resolved
    std::vector<FrameInput> frames;  ///< `inputs` with the pattern each came from (runner/frames.h)
    std::string listPath;            ///< --list: a file of input paths, one a line
    std::string list0Path;           ///< --list0: a file of input paths, each ended by a NUL byte
    std::string output;              ///< -o: the output of a single input, or of each frame with a placeholder
    std::string outDir;              ///< --out-dir: outputs named after their inputs
    std::string suffix;              ///< appended to the input's name in --out-dir
    std::string outputPattern;       ///< --output-pattern: outputs named by fields of their inputs
    bool dryRun = false;             ///< --dry-run: check everything, print the plan, write nothing
    PreviewNaming preview;           ///< --preview, --preview-pattern, --preview-dir: the PNG previews, if any
    /// The frames missing between the first and the last of sequences found on disk: warned of before the run and
    /// listed in the report
    std::vector<FrameGap> gaps;
    OcioChoice ocio;          ///< --ocio-display, --ocio-view, --ocio-look: the preview's transform
    std::string reportPath;   ///< --report: JSON report
    std::string settingsPath; ///< --settings: a file of option=value lines, read before the command line
    std::string settingsJson; ///< the options that shape the outputs, as JSON (provenance.h)
    uint32_t shardIndex = 0;  ///< --shard I/N or --chunk I/N
    uint32_t shardCount = 1;
    bool contiguous = false;            ///< --chunk: shard I is a contiguous run of the list (chunkOf)
    std::string shardText;              ///< "I/N" of --shard or --chunk as resolved (slurm's too); empty without them
    std::vector<std::string> arguments; ///< argv, for the report
    BatchOptions batch;
    RunnerOptions runner;
    bool quiet = false;
    bool verbose = false;
};
/// Parses argv, reads --list and resolves frame patterns with --frames. Returns an exit code to stop with (0 after
/// --help or --version, 2 for a usage error, its message printed to stderr), or std::nullopt to run.
std::optional<int> parseOptions(int argc, char** argv, CliOptions& options);

} // namespace fftb
