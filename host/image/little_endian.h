// SPDX-License-Identifier: MIT
// Little-endian loads and stores: OpenEXR stores every number that way, whatever the host's byte order.
#pragma once

#include <cstdint>

namespace fftb
{

inline std::uint32_t load16(const unsigned char* p)
{
    return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8;
}

inline std::uint32_t load32(const unsigned char* p)
{
    return load16(p) | load16(p + 2) << 16;
}

inline std::uint64_t load64(const unsigned char* p)
{
    return std::uint64_t(load32(p)) | std::uint64_t(load32(p + 4)) << 32;
}

inline void store32(unsigned char* p, std::uint32_t value)
{
    for (int i = 0; i < 4; ++i)
        p[i] = static_cast<unsigned char>(value >> (8 * i));
}

} // namespace fftb
