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

/// The largest frame number, and the negative of the smallest: nine digits past any leading zeros, far beyond any
/// shot. A name's number past it is no frame number (never cut to its last digits).
inline constexpr int kMaxFrameNumber = 999999999;

/// The widest zero padding of a frame placeholder (%099d, 99 '#'): a file name is at most 255 bytes.
inline constexpr int kMaxFramePadding = 99;

/// The frame-number placeholder in a path's file name.
struct FramePattern
{
    std::string before; ///< the path up to the placeholder (and up to the frame list written before it)
    std::string after;  ///< the rest of the path
    int digits = 0;     ///< the number is zero-padded to this many characters (a minus sign counts); 0: not padded
    std::string text;   ///< the placeholder as written: ####, @@@@, %04d, %d, #
    /// The frames the name lists before its placeholder, as oiiotool writes them (shot.1001-1003#.exr: "1001-1003");
    /// empty when it lists none
    std::string frames;
};

/// The placeholder in the file name of `path` (folders are not searched): a run of n '#' or n '@' (n digits, padded),
/// "%0nd" (n digits, padded) or "%d" (not padded). A frame list (parseFrameList's form) right before it, at the name's
/// start or after a '.', '_' or '-', is the pattern's own list of frames, as in oiiotool's shot.1001-1003#.exr; there
/// a single '#' is four digits, as oiiotool takes it. std::nullopt when the name holds none; throws HostError naming
/// the path when it holds more than one, or one wider than kMaxFramePadding.
std::optional<FramePattern> findFramePattern(const std::string& path);

/// The path of frame `frame`: the placeholder replaced by the number, zero-padded to `pattern.digits` as printf's
/// "%0*d" pads it (-1 at 4 digits: "-001"); a number wider than its padding is written whole.
std::string framePath(const FramePattern& pattern, int frame);

/// The most frames a --frames list may hold: its frames are expanded, a million of them in about 50 MB.
inline constexpr uint64_t kMaxListedFrames = 1000000;

/// Parses a frame list: comma-separated items FIRST-LAST (inclusive; descending when FIRST > LAST), FIRST-LASTxSTEP
/// (STEP >= 1) or FRAME, each frame an integer, negative with a leading '-', of at most nine digits past any leading
/// zeros, e.g.
/// "1001-1100x2,1200", "1010-1001", "-5--1". Returns the frames in the order given; false and the reason when
/// malformed, when a frame is listed twice or when the list holds more than kMaxListedFrames frames (found before they
/// are expanded).
bool parseFrameList(const std::string& text, std::vector<int>* frames, std::string* error);

/// `frames` (ascending) as ranges of consecutive numbers: "1005-1007, 1010".
std::string frameRangesText(const std::vector<int>& frames);

/// One input frame after patterns were resolved.
struct FrameInput
{
    std::string path;    ///< the file read
    std::string pattern; ///< the pattern it came from, as given; empty for a plain path
    int frame = 0;       ///< its frame number, when it came from a pattern
};

/// The frame number of `input`: its pattern's frame, else the number its file name ends in before the extension
/// (shot.1001.exr: 1001; shot.0000001001.exr: 1001; s.-003.exr: -3, a '-' after a '.', '_' or '-' being a minus
/// sign); std::nullopt when its name ends in no digits or in a number past +-kMaxFrameNumber.
std::optional<int> frameNumberIn(const FrameInput& input);

/// frameNumberIn(input), else `position` (the input's place in the resolved list).
int frameNumberOf(const FrameInput& input, std::size_t position);

/// The frames of `pattern` whose files are in its folder, ascending: the names framePath gives, exactly (padding
/// included), at most kMaxListedFrames of them.
std::vector<int> framesOnDisk(const FramePattern& pattern);

/// The frames of a pattern found on disk (resolveFrames) that are missing between its first and its last: not bloomed.
struct FrameGap
{
    std::string input;  ///< the pattern as given, "s.####.exr"
    std::string frames; ///< as ranges, "1005-1007, 1010"
    int64_t count = 0;  ///< how many
    int first = 0;      ///< the pattern's first frame on disk
    int last = 0;       ///< and its last
    /// "s.####.exr: frames 1005-1007, 1010 missing between 1001 and 1012 on disk: not bloomed"
    std::string note() const;
};

/// `inputs` with every pattern replaced by its frames; plain paths kept as they are. A pattern's frames are the list
/// in its name (shot.1001-1003#.exr), else `frames` (--frames, in its order), else those on disk (framesOnDisk): then
/// the frames missing between the first and the last are named in `gaps` (one FrameGap per pattern), and a pattern
/// with no frame on disk is refused. An input that is a regular file is
/// a plain path whatever its name holds (`take#2.exr`, `user@host.exr`): a name is a pattern only when no file has it.
/// Throws HostError naming the path when a pattern lists its frames and `frames` is not empty, when `frames` is not
/// empty and no input takes them, and when a pattern has no frame on disk.
std::vector<FrameInput> resolveFrames(const std::vector<std::string>& inputs, const std::vector<int>& frames,
                                      std::vector<FrameGap>* gaps = nullptr);

/// One line per pattern some of whose frames `inputs` has and that are not on disk:
/// "shot.####.exr: frames 1005-1007, 1010 missing" ("frame 1005 missing" for one).
std::vector<std::string> missingFrames(const std::vector<FrameInput>& inputs);

/// `path` with the frame placeholder of its file name (findFramePattern; no frame list) replaced by `frame`, padded as
/// the placeholder says: -o bloomed/shot_bloom.####.exr. `path` itself when its name holds none. Throws HostError
/// naming `input` when the name holds a placeholder and `frame` is empty (the input's name has no frame number), and
/// naming `path` when it holds a frame list or two placeholders.
std::string outputPathWithFrame(const std::string& path, std::optional<int> frame, const std::string& input);

/// The fields of an --output-pattern, taken from the input's file name, e.g. for /shots/sh010/shot.1001.exr:
/// {name} shot.1001 (the file name without its extension), {ext} exr (the extension without its dot),
/// {frame} 1001 (the digits that end {name}, padded as in the input, with their minus sign as frameNumberIn reads
/// it), {stem} shot ({name} without {frame} and one '.', '_' or '-' before it; {name} when it ends in no digits).
/// A frame placeholder in the pattern's file name (####, @@@@, %04d, %d) is the input's frame number (frameNumberIn),
/// padded as the placeholder says: {stem}_bloom.####.exr.
/// Returns "" when `pattern` is well-formed, else the reason: a '{' or '}' outside a field or an unknown field, named;
/// two placeholders, a placeholder wider than kMaxFramePadding or a frame list (oiiotool's 1001-1003#) in the file
/// name.
std::string checkOutputPattern(const std::string& pattern);

/// `pattern` (checked by checkOutputPattern) with its fields and its placeholder filled in from `input`. Throws
/// HostError naming the input when the pattern uses {frame} or a placeholder and the input's name ends in no digits,
/// or when the path is empty or ends in '/' ({stem} of 0001.exr is empty).
std::string outputPathFor(const std::string& pattern, const FrameInput& input);

} // namespace fftb
