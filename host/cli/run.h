// SPDX-License-Identifier: MIT
// One fftbloom run, as the fftbloom command makes it.
#pragma once

namespace fftb
{

/// Runs fftbloom with `argv` (argv[0] the program's name) as the fftbloom command does: parses the options, names and
/// checks the frames, blooms them, writes the outputs, previews and report, and prints progress on stdout and every
/// error and warning on stderr (printMessage). Returns the exit code (ExitCode, options.h): 0 every frame written or
/// skipped, 1 some frames failed, 2 bad options (nothing done), 3 the GPU failed and the batch stopped. Call
/// removeTemporariesOnTermination (image/atomic_file.h) first for an interrupted run to leave no temporaries.
int runFftbloom(int argc, char** argv);

} // namespace fftb
