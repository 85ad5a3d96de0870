// SPDX-License-Identifier: MIT
// libFuzzer target: the CLI's frame loading, OpenEXR or Radiance .hdr bytes to an RGBA frame, scrubbed.
#include "host_error.h"
#include "image/image_io.h"
#include "image/scrub.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    try
    {
        fftb::Texels rgba = fftb::toRgba(fftb::decodeImage("fuzz", {data, data + size}));
        fftb::scrubRgb(rgba, fftb::kDefaultScrubMax);
    }
    catch (const fftb::HostError&)
    {
        // refused with a reason: what every bad file must get
    }
    return 0;
}
