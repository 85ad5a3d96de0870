// SPDX-License-Identifier: MIT
// Provenance attributes: the version, the settings and the kernel file's hash.
#include "provenance.h"

#include "host_error.h"

#include <openssl/evp.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace fftb
{

namespace
{

Attribute stringAttribute(const std::string& name, const std::string& value)
{
    return {name, "string", std::vector<unsigned char>(value.begin(), value.end())};
}

} // namespace

std::string sha256Hex(const std::vector<unsigned char>& bytes)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (EVP_Digest(bytes.data(), bytes.size(), digest, &size, EVP_sha256(), nullptr) != 1)
        throw HostError("SHA-256: OpenSSL's EVP_Digest failed");
    std::string hex;
    for (unsigned int i = 0; i < size; ++i)
    {
        char byte[3];
        std::snprintf(byte, sizeof byte, "%02x", digest[i]);
        hex += byte;
    }
    return hex;
}

std::vector<Attribute> provenanceAttributes(const std::string& settingsJson, const std::string& kernelPath)
{
    std::vector<Attribute> attributes{stringAttribute("software", "fftbloom " + fftbloomVersion()),
                                      stringAttribute("fftbloom.version", fftbloomVersion()),
                                      stringAttribute("fftbloom.settings", settingsJson)};
    if (kernelPath.empty())
        return attributes;
    std::ifstream file(kernelPath, std::ios::binary);
    if (!file)
        throw HostError(kernelPath + ": cannot be read for its hash");
    const std::vector<unsigned char> bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    if (file.bad())
        throw HostError(kernelPath + ": cannot be read for its hash");
    attributes.push_back(
        stringAttribute("fftbloom.kernel", std::filesystem::absolute(kernelPath).lexically_normal().string()));
    attributes.push_back(stringAttribute("fftbloom.kernelSha256", sha256Hex(bytes)));
    return attributes;
}

} // namespace fftb
