// SPDX-License-Identifier: MIT
// fftbloom: blooms OpenEXR and Radiance HDR frames on the GPU and writes OpenEXRs, one frame or a whole shot.
#include "image/atomic_file.h"
#include "run.h"

int main(int argc, char** argv)
{
    fftb::removeTemporariesOnTermination(); // first: before any thread starts
    return fftb::runFftbloom(argc, argv);
}
