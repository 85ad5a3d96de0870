// SPDX-License-Identifier: MIT
// Shots by frame range: frame patterns (shot.####.exr, shot.%04d.exr, shot.@@@@.exr), --frames lists and output names
// by pattern ({stem}_bloom.{frame}.exr). Vulkan-free.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fftb
{

/// The frame-number placeholder in a path's file name.
struct FramePattern
{
    std::string before; ///< the path up to the placeholder
    std::string after;  ///< the rest of the path
    int digits = 0;     ///< the number is zero-padded to this many digits; 0: not padded (%d)
};

/// The placeholder in the file name of `path` (folders are not searched): a run of n '#' or n '@' (n digits, padded),
/// "%0nd" (n digits, padded) or "%d" (not padded). std::nullopt when the name holds none; throws HostError naming
/// the path when it holds more than one.
std::optional<FramePattern> findFramePattern(const std::string& path);

/// The path of frame `frame`: the placeholder replaced by the number, zero-padded to `pattern.digits`.
std::string framePath(const FramePattern& pattern, uint32_t frame);

/// The most frames a --frames list may hold: its frames are expanded, a million of them in about 50 MB.
inline constexpr uint64_t kMaxListedFrames = 1000000;

/// Parses a --frames list: comma-separated items FIRST-LAST (inclusive, FIRST <= LAST), FIRST-LASTxSTEP (STEP >= 1)
/// or FRAME, each number digits only and below 10^9, e.g. "1001-1100x2,1200". Returns the frames in the order given;
/// false and the reason when malformed, when a frame is listed twice or when the list holds more than
/// kMaxListedFrames frames (found before they are expanded).
bool parseFrameList(const std::string& text, std::vector<uint32_t>* frames, std::string* error);

/// `frames` (ascending) as ranges of consecutive numbers: "1005-1007, 1010".
std::string frameRangesText(const std::vector<uint32_t>& frames);

/// One input frame after patterns were resolved.
struct FrameInput
{
    std::string path;    ///< the file read
    std::string pattern; ///< the pattern it came from, as given; empty for a plain path
    uint32_t frame = 0;  ///< its frame number, when it came from a pattern
};

/// The frame number of the input at `position` of the resolved list: its pattern's frame, else the number its file
/// name ends in before the extension (shot.1001.exr: 1001; the last nine digits), else `position`.
uint32_t frameNumberOf(const FrameInput& input, std::size_t position);

/// `inputs` with every pattern replaced by its frames (in --frames order); plain paths kept as they are. An input
/// that is a regular file is a plain path whatever its name holds (`take#2.exr`, `user@host.exr`): a name is a
/// pattern only when no file has it. Throws HostError naming the path when an input holds a pattern and `frames` is
/// empty, or when `frames` is not empty and no input holds a pattern.
std::vector<FrameInput> resolveFrames(const std::vector<std::string>& inputs, const std::vector<uint32_t>& frames);

/// One line per pattern some of whose frames `inputs` has and that are not on disk:
/// "shot.####.exr: frames 1005-1007, 1010 missing" ("frame 1005 missing" for one).
std::vector<std::string> missingFrames(const std::vector<FrameInput>& inputs);

/// The fields of an --output-pattern, taken from the input's file name, e.g. for /shots/sh010/shot.1001.exr:
/// {name} shot.1001 (the file name without its extension), {ext} exr (the extension without its dot),
/// {frame} 1001 (the digits that end {name}, padded as in the input), {stem} shot ({name} without {frame} and one
/// '.', '_' or '-' before it; {name} when it ends in no digits).
/// Returns "" when `pattern` is well-formed, else the reason: a '{' or '}' outside a field or an unknown field, named.
std::string checkOutputPattern(const std::string& pattern);

/// `pattern` (checked by checkOutputPattern) with its fields filled in from `input`. Throws HostError naming the
/// input when the pattern uses {frame} and the input's name ends in no digits, or when the path is empty or ends in
/// '/' ({stem} of 0001.exr is empty).
std::string outputPathFor(const std::string& pattern, const std::string& input);

} // namespace fftb
