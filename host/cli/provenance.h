// SPDX-License-Identifier: MIT
// What every output of a run records about how it was made (--report says the same per run).
#pragma once

#include "image/image.h"

#include <string>
#include <vector>

namespace fftb
{

/// The header attributes every output of a run gets (BatchOptions::outputAttributes), OpenEXR strings:
/// "fftbloom.version" (the plugin's version, e.g. "0.4.0"), "fftbloom.settings" (`settingsJson`: the options that
/// shape the output, as JSON), and with a kernel file "fftbloom.kernel" (its path as given) and "fftbloom.kernelSha256"
/// (the SHA-256 of its bytes, 64 lowercase hex digits). Throws HostError "<kernelPath>: <reason>" when the kernel file
/// cannot be read.
std::vector<Attribute> provenanceAttributes(const std::string& settingsJson, const std::string& kernelPath);

/// The SHA-256 of `bytes` (FIPS 180-4, by OpenSSL's libcrypto) as 64 lowercase hex digits.
std::string sha256Hex(const std::vector<unsigned char>& bytes);

} // namespace fftb
