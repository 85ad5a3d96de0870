// SPDX-License-Identifier: MIT
// libFuzzer target: the CLI's frame loading, OpenEXR or Radiance .hdr bytes to an RGBA frame, scrubbed, and of a
// multi-part file the copy of its other parts that writing the output makes.
#include "host_error.h"
#include "image/image_io.h"
#include "image/scrub.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    try
    {
        const fftb::Image image = fftb::decodeImage("fuzz", {data, data + size});
        fftb::Texels rgba = fftb::toRgba(image);
        fftb::scrubRgb(rgba, fftb::kDefaultScrubMax);
        if (image.parts.file)
            fftb::encodeExr("fuzz", image);
    }
    catch (const fftb::HostError&)
    {
        // refused with a reason: what every bad file must get
    }
    return 0;
}
