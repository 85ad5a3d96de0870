// SPDX-License-Identifier: MIT
// What every output of a run records about how it was made (--report says the same per run).
#pragma once

#include "fftbloom/fftbloom.h"
#include "image/image.h"

#include <string>
#include <vector>

namespace fftb
{

/// The plugin's version, "MAJOR.MINOR.PATCH" (fftbloom.h).
inline std::string fftbloomVersion()
{
    return std::to_string(FFTB_VERSION_MAJOR) + "." + std::to_string(FFTB_VERSION_MINOR) + "." +
           std::to_string(FFTB_VERSION_PATCH);
}

/// The header attributes every output of a run gets (BatchOptions::outputAttributes), OpenEXR strings: "software"
/// ("fftbloom 0.6.0": the input's own is kept as "fftbloom.input.software", see inheritedAttributes),
/// "fftbloom.version" (the plugin's version, e.g. "0.6.0"), "fftbloom.settings" (`settingsJson`: the options that
/// shape the output, as JSON), and with a kernel file "fftbloom.kernel" (its absolute path, made normal, as
/// std::filesystem::absolute gives it) and "fftbloom.kernelSha256" (the SHA-256 of its bytes, 64 lowercase hex
/// digits). Throws HostError "<kernelPath>: <reason>" when the kernel file cannot be read.
std::vector<Attribute> provenanceAttributes(const std::string& settingsJson, const std::string& kernelPath);

/// The SHA-256 of `bytes` (FIPS 180-4, by OpenSSL's libcrypto) as 64 lowercase hex digits.
std::string sha256Hex(const std::vector<unsigned char>& bytes);

} // namespace fftb
