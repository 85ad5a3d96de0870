// SPDX-License-Identifier: MIT
// The line FFT generator: radix plans, workgroup sizes, the stage twiddle tables, and the generated pass compiling at
// every length (its numerics: tests/gpu/fft_test.cpp, GeneratedFftLength, and every pass 2 of the GPU suite).
#include "fft_codegen.h"
#include "fft_lengths.h"
#include "shader_compiler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace fftb
{
namespace
{

using Radices = std::vector<uint32_t>;

uint32_t roundsOf(uint32_t length, uint32_t radix, uint32_t workgroupSize)
{
    return (length / radix + workgroupSize - 1) / workgroupSize;
}

std::vector<uint32_t> sharedFftLengths()
{
    std::vector<uint32_t> lengths;
    for (uint32_t n = 2; n <= FFTB_MAX_SHARED_FFT_LENGTH; ++n)
        if (isFftLength(n))
            lengths.push_back(n);
    return lengths;
}

TEST(FftCodegen, RadicesPutTheSmallestFirstAndTheNextSmallestLast)
{
    // 2^11 = 8 8 8 4; 2^10 = 8 8 4 4; 2^6 5 7 = 8 8 5 7; 2^9 3 = 8 8 8 3; 5^2 7^2; a lone 2 stays radix 2.
    EXPECT_EQ(lineFftRadices(2048), (Radices{4, 8, 8, 8}));
    EXPECT_EQ(lineFftRadices(1024), (Radices{4, 8, 8, 4}));
    EXPECT_EQ(lineFftRadices(2240), (Radices{5, 8, 8, 7}));
    EXPECT_EQ(lineFftRadices(1536), (Radices{3, 8, 8, 8}));
    EXPECT_EQ(lineFftRadices(1225), (Radices{5, 7, 7, 5}));
    EXPECT_EQ(lineFftRadices(4096), (Radices{8, 8, 8, 8}));
    EXPECT_EQ(lineFftRadices(6), (Radices{2, 3}));
    EXPECT_EQ(lineFftRadices(2), (Radices{2}));
    EXPECT_EQ(lineFftRadices(7), (Radices{7}));
}

TEST(FftCodegen, RadicesMultiplyToEveryLengthFromTheSupportedSet)
{
    const std::set<uint32_t> allowed{2, 3, 4, 5, 7, 8};
    for (const uint32_t n : sharedFftLengths())
    {
        const Radices radices = lineFftRadices(n);
        EXPECT_EQ(std::accumulate(radices.begin(), radices.end(), 1u, std::multiplies<>()), n) << n;
        for (const uint32_t r : radices)
            EXPECT_TRUE(allowed.count(r)) << n << ": radix " << r;
        // Radix 2 only for a single factor 2 (it would leave radix-8 invocations idle beside it).
        EXPECT_LE(std::count(radices.begin(), radices.end(), 2u), 1) << n;
    }
}

TEST(FftCodegen, WorkgroupSizeLeavesTheFewestInvocationsIdle)
{
    // 2048 = 4 8 8 8 at 256: 2 rounds of radix 4, 1 of radix 8, no slot idle; 512 would idle half of each radix-8
    // stage.
    EXPECT_EQ(lineFftWorkgroupSize(2048, 1024), 256u);
    // 1225 = 5 7 7 5 at 245: radix 5 fills 245, radix 7 leaves 70 of 245 idle (980 slots in all); 175 fills radix 7
    // but takes 2 rounds of radix 5 over 175 (1050 idle).
    EXPECT_EQ(lineFftWorkgroupSize(1225, 1024), 245u);
    // 4096 = 8 8 8 8 at 512: one round each, none idle.
    EXPECT_EQ(lineFftWorkgroupSize(4096, 1024), 512u);
    // A device of 128 invocations: 2048's radix-4 stage takes 4 rounds (16 elements), the most that fit.
    EXPECT_EQ(lineFftWorkgroupSize(2048, 128), 128u);
}

TEST(FftCodegen, EveryStageTakesAtMostTwoRoundsAndSixteenElements)
{
    for (const uint32_t n : sharedFftLengths())
    {
        const uint32_t t = lineFftWorkgroupSize(n, kMaxWorkgroupSize);
        ASSERT_GT(t, 0u) << n;
        EXPECT_LE(t, kMaxWorkgroupSize) << n;
        for (const uint32_t r : lineFftRadices(n))
        {
            EXPECT_LE(roundsOf(n, r, t), 2u) << n << " radix " << r << " over " << t;
            EXPECT_LE(roundsOf(n, r, t) * r, uint32_t(FFTB_MAX_ELEMENTS_PER_INVOCATION)) << n;
        }
    }
}

TEST(FftCodegen, StageTablesHoldTheStockhamTwiddlesInFp32)
{
    const TwiddleTables& tables = twiddleTables();
    std::vector<float> values(2 * size_t(tables.totalElements));
    tables.write(values.data());
    // Every stage of every length, forward and inverse, has its table, inside the buffer and apart from the others; no
    // table is unused.
    std::set<uint32_t> starts;
    for (const uint32_t n : sharedFftLengths())
        for (const bool inverse : {false, true})
        {
            Radices radices = lineFftRadices(n);
            if (inverse)
                std::reverse(radices.begin(), radices.end());
            uint32_t span = 1;
            for (const uint32_t radix : radices)
            {
                if (span > 1)
                {
                    const uint32_t start = tables.stageOffsetOf(span, radix);
                    EXPECT_LE(start + (radix - 1) * span, tables.totalElements) << span << " x " << radix;
                    starts.insert(start);
                    for (const uint32_t r : {1u, radix - 1})
                        for (const uint32_t k : {0u, 1u, span / 2, span - 1})
                        {
                            const double angle = -2.0 * std::numbers::pi * double(r * k) / double(span * radix);
                            const size_t at = 2 * (size_t(start) + (r - 1) * span + k);
                            EXPECT_NEAR(values[at], std::cos(angle), 6e-8) << span << " x " << radix << " r " << r;
                            EXPECT_NEAR(values[at + 1], std::sin(angle), 6e-8) << span << " x " << radix << " k " << k;
                        }
                }
                span *= radix;
            }
        }
    EXPECT_EQ(starts.size(), tables.stageKeys.size());
    // The last table (key L * 16 + R) ends the buffer.
    const uint32_t last = tables.stageKeys.back();
    EXPECT_EQ(tables.stageOffsets.back() + (last % 16 - 1) * (last / 16), tables.totalElements);
}

TEST(FftCodegen, ThePassCompilesAtEveryLength)
{
    for (const uint32_t maxInvocations : {kMaxWorkgroupSize, 128u})
        for (const uint32_t n : sharedFftLengths())
        {
            const LineFftCode code = generateLineFft(n, maxInvocations,
                                                     [](uint32_t span, uint32_t radix)
                                                     { return twiddleTables().stageOffsetOf(span, radix); });
            EXPECT_EQ(code.workgroupSize, lineFftWorkgroupSize(n, maxInvocations));
            if (code.workgroupSize == 0) // 4096 over 128: 32 elements each (the plugin runs the generic FFT)
            {
                EXPECT_TRUE(code.glsl.empty());
                EXPECT_EQ(maxInvocations, 128u) << n;
                continue;
            }
            EXPECT_NE(code.glsl.find("layout(local_size_x = " + std::to_string(code.workgroupSize) + ")"),
                      std::string::npos);
            std::vector<uint32_t> spirv;
            EXPECT_NO_THROW(spirv = compileComputeShader("image_fft_second_convolve_ifft_second_generated.comp",
                                                         {{"fft_generated.glsl", code.glsl}}))
                << n;
            ASSERT_FALSE(spirv.empty()) << n;
            EXPECT_EQ(spirv[0], 0x07230203u) << n; // the SPIR-V magic number
        }
}

TEST(FftCodegen, AnUnknownSourceOrAGlslErrorIsReported)
{
    EXPECT_THROW(compileComputeShader("no_such_pass.comp", {}), std::runtime_error);
    EXPECT_THROW(compileComputeShader("image_fft_second_convolve_ifft_second_generated.comp",
                                      {{"fft_generated.glsl", "this is not GLSL"}}),
                 std::runtime_error);
}

} // namespace
} // namespace fftb
