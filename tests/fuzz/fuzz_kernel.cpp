// SPDX-License-Identifier: MIT
// libFuzzer target: a kernel file as the CLI takes it: decoded, resampled to 64 x 64 and normalized.
#include "host_error.h"
#include "image/image_io.h"
#include "psf/psf.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    try
    {
        fftb::Texels psf = fftb::resamplePsf(fftb::psfFromImage(fftb::decodeImage("fuzz", {data, data + size})), 64);
        fftb::normalizePsf(psf);
    }
    catch (const fftb::HostError&)
    {
        // refused with a reason
    }
    return 0;
}
