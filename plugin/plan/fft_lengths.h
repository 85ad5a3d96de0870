// SPDX-License-Identifier: MIT
// Vulkan-free FFT lengths: which lengths the FFT supports, their radices, workgroup sizes, specialization constants,
// modelled cost and twiddle tables.
#pragma once

#include "shared/fftb_shared.h"

#include <fftbloom/fftbloom.h>

#include <array>
#include <cstdint>
#include <vector>

namespace fftb
{

/// Smallest power of two >= n (n >= 1), at least 2.
uint32_t pow2Ceil(uint32_t n);

/// Most invocations per workgroup any FFT length asks for (the Vulkan limits of NVIDIA and lavapipe).
constexpr uint32_t kMaxWorkgroupSize = 1024;

/// Whether the FFT supports `length`: length = 2^a 3^b 5^c 7^d (radix 2, 4, 8, 3, 5, 7 butterflies) and either
/// 2 <= length <= FFTB_MAX_SHARED_FFT_LENGTH, or length <= FFTB_MAX_FFT_LENGTH and length = R M for a register radix R
/// in {2, 3, 4, 5, 7, 8}, an FFT length M <= FFTB_MAX_SHARED_FFT_LENGTH and a workgroup size T <= kMaxWorkgroupSize
/// that divides M with length / T <= FFTB_MAX_ELEMENTS_PER_INVOCATION (see sharedLengthOf).
bool isFftLength(uint32_t length);

/// Length M of the FFTs that run in shared memory for an FFT of `length`: the length itself up to
/// FFTB_MAX_SHARED_FFT_LENGTH; past it length / R for the first R of 2, 3, 4, 5, 7, 8 that gives a supported split.
/// 0 when `length` is no FFT length.
uint32_t sharedLengthOf(uint32_t length);

/// Fewest elements of a line one invocation holds (lines in shared memory): fewer elements mean more invocations to
/// hide shared-memory latency. 4 measured fastest of 4, 8 and 16 on the H200 (bench/results).
constexpr uint32_t kPreferredElementsPerInvocation = 4;

/// The occupancy model of workgroupSizeOf: a multiprocessor of an NVIDIA GPU since Volta (65536 32-bit registers,
/// 2048 resident invocations, 32 resident workgroups) and the registers the passes take per invocation on the H200
/// (48 to 64: VK_KHR_pipeline_executable_properties, bench/results).
constexpr uint32_t kModelRegistersPerSm = 65536;
constexpr uint32_t kModelInvocationsPerSm = 2048;
constexpr uint32_t kModelWorkgroupsPerSm = 32;
constexpr uint32_t kModelRegistersPerInvocation = 64;

/// Warps (32 invocations) of workgroups of `workgroupSize` invocations resident on one multiprocessor of the model
/// above: whole workgroups only, limited by registers, invocations and workgroups.
uint32_t residentWarpsOf(uint32_t workgroupSize);

/// Elements of a line longer than FFTB_MAX_SHARED_FFT_LENGTH one invocation holds when the device allows the
/// invocations: 16 took a 4480-point line to 168 registers in pass 3 (one 280-invocation workgroup per SM on the H200).
constexpr uint32_t kPreferredLongElementsPerInvocation = 8;

/// Most elements per invocation workgroupSizeOf picks by the smallest radix of a line up to
/// FFTB_MAX_SHARED_FFT_LENGTH.
constexpr uint32_t kMaxRoundElementsPerInvocation = 8;

/// Invocations per workgroup T for an FFT of `length` on a device allowing `maxInvocations` per workgroup
/// (maxComputeWorkGroupInvocations and maxComputeWorkGroupSize[0], whichever is smaller). Up to
/// FFTB_MAX_SHARED_FFT_LENGTH each holds E elements, E from kPreferredElementsPerInvocation up to the smallest of the
/// line's radices (so every stage's butterflies take one round) and kMaxRoundElementsPerInvocation: the E whose
/// workgroups keep the most warps resident (residentWarpsOf), the smallest such E on a tie; when none fits the device,
/// the next E that does, up to FFTB_MAX_ELEMENTS_PER_INVOCATION. Past one subgroup's worth T is a multiple of 32 so no
/// subgroup runs part-empty. 2240 (radices 8 8 5 7) gets 448 invocations instead of 560 (bench/results).
/// Longer lines: the smallest divisor T of sharedLengthOf(length) with length / T <=
/// kPreferredLongElementsPerInvocation, or failing that <= FFTB_MAX_ELEMENTS_PER_INVOCATION, so each invocation holds
/// the same positions of every sub-line. 0 for no FFT length, or when the device allows too few.
uint32_t workgroupSizeOf(uint32_t length, uint32_t maxInvocations = kMaxWorkgroupSize);

/// The radices of the FFT stages for `length` (an FFT length), in the order the shader runs them: for lines past
/// FFTB_MAX_SHARED_FFT_LENGTH first the register radix length / sharedLengthOf(length); then the Stockham stages in
/// shared memory, 8 while the remaining factor is divisible by 8, then 4, 2, 3, 5, 7. The shader repeats this rule
/// (fft.glsl).
std::vector<uint32_t> radicesOf(uint32_t length);

/// Relative cost of one FFT of `length`: length * the sum over its stages of (1 + radix / 10) — every stage is a
/// shared-memory round trip, and the butterflies' arithmetic per element grows with the radix.
double fftLengthCost(uint32_t length);

/// The specialization constants of a pass transforming lines of `length` (an FFT length) with `workgroupSize`
/// invocations (workgroupSizeOf), indexed by id (shaders/shared/fftb_shared.h): the length, the workgroup size, the
/// twiddle table offsets of the length and of its shared-memory length, `halfStorage` as a VkBool32 (1 or 0), the
/// radices of the shared-memory stages (radicesOf of sharedLengthOf(length)), 1 past the last, then `multiView` as a
/// VkBool32 (the frame passes of a bloom of several views, FftbMultiViewInfo).
std::array<uint32_t, FFTB_SPEC_COUNT> specializationOf(uint32_t length, uint32_t workgroupSize, bool halfStorage,
                                                       bool multiView = false);

/// Elements of the twiddle table of `length`, complex: up to FFTB_MAX_SHARED_FFT_LENGTH, exp(-2 pi i m / length) for
/// m < length; past it FFTB_TWIDDLE_FINE_ELEMENTS fine entries exp(-2 pi i a0 / length), a0 <
/// FFTB_TWIDDLE_FINE_ELEMENTS, then ceil(length / FFTB_TWIDDLE_FINE_ELEMENTS) coarse ones exp(-2 pi i a1
/// FFTB_TWIDDLE_FINE_ELEMENTS / length), so that exp(-2 pi i a / length) = fine[a % FFTB_TWIDDLE_FINE_ELEMENTS] *
/// coarse[a / FFTB_TWIDDLE_FINE_ELEMENTS].
uint32_t twiddleTableElements(uint32_t length);

/// Entry `index` (< twiddleTableElements(length)) of the twiddle table of `length`, in double precision.
void twiddleEntry(uint32_t length, uint32_t index, double* re, double* im);

/// Every FFT length in ascending order, and where its twiddle table starts in the concatenation of all of them (the
/// plugin's twiddle buffer).
struct TwiddleTables
{
    std::vector<uint32_t> lengths;
    std::vector<uint32_t> offsets;
    uint32_t totalElements = 0;
    uint32_t offsetOf(uint32_t length) const; ///< length must be an FFT length
    /// Stage tables after the line tables: for every stage of span L >= 2 and radix R of a generated line FFT
    /// (fft_codegen.h, lineFftRadices, forward or reversed), (R - 1) L entries, entry (r - 1) L + k =
    /// exp(-2 pi i r k / (L R)), 1 <= r < R, k < L: the stage's twiddles, neighbouring butterflies reading neighbouring
    /// entries.
    std::vector<uint32_t> stageKeys; ///< L * 16 + R, ascending
    std::vector<uint32_t> stageOffsets;
    uint32_t stageOffsetOf(uint32_t span, uint32_t radix) const;
    /// Writes every table as interleaved fp32 (re, im) pairs: 2 * totalElements floats.
    void write(float* destination) const;
};
const TwiddleTables& twiddleTables();

} // namespace fftb
