// SPDX-License-Identifier: MIT
// Frame patterns, --frames lists and output names by pattern.
#include "runner/frames.h"

#include "host_error.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string_view>

namespace fftb
{

namespace fs = std::filesystem;

namespace
{

/// A frame number: digits, a leading '-' for a negative one, at most nine of them past any leading zeros (0000001001
/// is 1001): within +-kMaxFrameNumber.
bool parseFrame(const std::string& text, int* frame)
{
    const std::size_t sign = text.rfind('-', 0) == 0 ? 1 : 0;
    if (text.size() == sign || text.find_first_not_of("0123456789", sign) != std::string::npos)
        return false;
    const std::size_t first = std::min(text.find_first_not_of('0', sign), text.size() - 1); // "000": its last zero
    if (text.size() - first > 9)
        return false;
    *frame = std::stoi(text.substr(first)) * (sign == 1 ? -1 : 1);
    return true;
}

/// The range of frame numbers: "-999999999..999999999".
std::string frameNumberRange()
{
    // Appended piece by piece: "literal" + std::string trips GCC 12's -Wrestrict.
    std::string range = std::to_string(-kMaxFrameNumber);
    range += "..";
    range += std::to_string(kMaxFrameNumber);
    return range;
}

/// Why an input gives no frame number to an output's placeholder.
std::string noFrameNumber()
{
    return "the input's name ends in no frame number (" + frameNumberRange() + ")";
}

/// The reason a placeholder of `digits` digits is refused; "" when it pads to at most kMaxFramePadding.
std::string paddingProblem(int digits)
{
    return digits > kMaxFramePadding ? "a frame placeholder of " + std::to_string(digits) +
                                           " digits; one pads to at most " + std::to_string(kMaxFramePadding)
                                     : "";
}

/// Appends FIRST, or FIRST-LAST, to a list of ranges ("1005-1007, 1010").
void appendRange(std::string& text, int first, int last)
{
    // Appended piece by piece: "literal" + std::string trips GCC 12's -Wrestrict.
    if (!text.empty())
        text += ", ";
    text += std::to_string(first);
    if (last != first)
    {
        text += '-';
        text += std::to_string(last);
    }
}

/// Parses one item of a frame list: FRAME, FIRST-LAST or FIRST-LASTxSTEP (see parseFrameList).
bool parseFrameItem(const std::string& item, int* first, int* last, int* step)
{
    // The dash between FIRST and LAST is the first one after FIRST's digits: "-5--1" is -5 to -1.
    const std::size_t dash = item.find('-', item.find_first_not_of('-'));
    if (dash == std::string::npos)
        return parseFrame(item, first) && (*last = *first, *step = 1, true);
    const std::size_t x = item.find('x', dash);
    *step = 1;
    return parseFrame(item.substr(0, dash), first) &&
           parseFrame(item.substr(dash + 1, x == std::string::npos ? x : x - dash - 1), last) &&
           (x == std::string::npos || (parseFrame(item.substr(x + 1), step) && *step >= 1));
}

/// The placeholder starting at `i` of `name`: its length and digits, or length 0 when none starts there.
std::pair<std::size_t, int> placeholderAt(const std::string& name, std::size_t i)
{
    if (name[i] == '#' || name[i] == '@')
    {
        const std::size_t end = name.find_first_not_of(name[i], i);
        const std::size_t length = (end == std::string::npos ? name.size() : end) - i;
        return {length, int(length)};
    }
    if (name[i] != '%')
        return {0, 0};
    if (name.compare(i, 2, "%d") == 0)
        return {2, 0};
    // %0nd with n one or two digits
    const std::size_t end = name.find_first_not_of("0123456789", i + 1);
    if (end == std::string::npos || name[end] != 'd' || name[i + 1] != '0' || end - i < 3 || end - i > 4)
        return {0, 0};
    return {end - i + 1, std::stoi(name.substr(i + 2, end - i - 2))};
}

/// {name}, {frame} and {stem} of `input` (see checkOutputPattern).
std::map<std::string, std::string> fieldsOf(const std::string& input)
{
    const fs::path path(input);
    const std::string name = path.stem().string();
    const std::string ext = path.extension().string();
    std::size_t digits = name.find_last_not_of("0123456789") + 1; // 0 when all digits (npos + 1)
    // A '-' before the digits is a minus sign at the name's start or after a '.', '_' or '-' (s.-003: -3), a
    // separator after anything else (plate-003: 3).
    if (digits > 0 && digits < name.size() && name[digits - 1] == '-' &&
        (digits == 1 || std::string_view("._-").find(name[digits - 2]) != std::string_view::npos))
        --digits;
    std::string stem = name.substr(0, digits);
    if (digits < name.size() && !stem.empty() && (stem.back() == '.' || stem.back() == '_' || stem.back() == '-'))
        stem.pop_back();
    return {{"name", name}, {"ext", ext.empty() ? ext : ext.substr(1)}, {"frame", name.substr(digits)}, {"stem", stem}};
}

/// Calls `field(name)` for every {field} of `pattern` and `text(s, at)` for the text between them (`at`: where it
/// starts in `pattern`); the reason when a brace stands alone.
template <typename Field, typename Text>
std::string walkPattern(const std::string& pattern, const Field& field, const Text& text)
{
    std::size_t at = 0;
    while (at < pattern.size())
    {
        const std::size_t open = pattern.find_first_of("{}", at);
        text(pattern.substr(at, open == std::string::npos ? std::string::npos : open - at), at);
        if (open == std::string::npos)
            break;
        const std::size_t close = pattern.find('}', open);
        if (pattern[open] == '}' || close == std::string::npos)
            return "a '" + std::string(1, pattern[open]) + "' outside a field ({stem}, {frame}, {name}, {ext})";
        if (const std::string reason = field(pattern.substr(open + 1, close - open - 1)); !reason.empty())
            return reason;
        at = close + 1;
    }
    return "";
}

/// The frame list that ends at `end` of `path` (before a placeholder), starting at `nameStart` or after a '.', '_' or
/// '-': where it starts, or `end` when there is none.
std::size_t frameListBefore(const std::string& path, std::size_t nameStart, std::size_t end)
{
    std::size_t start = end;
    while (start > nameStart && std::string_view("0123456789-,x").find(path[start - 1]) != std::string_view::npos)
        --start;
    // A '-' right after a letter is the name's separator, not a minus sign.
    if (start < end && path[start] == '-' && start > nameStart &&
        std::string_view("._-").find(path[start - 1]) == std::string_view::npos)
        ++start;
    const bool separated =
        start == nameStart || std::string_view("._-").find(path[start - 1]) != std::string_view::npos;
    std::vector<int> frames;
    std::string unused;
    if (start == end || !separated || !parseFrameList(path.substr(start, end - start), &frames, &unused))
        return end;
    return start;
}

/// Why an output's name may not hold frame list `frames` (oiiotool's 1001-1003#).
std::string frameListProblem(const std::string& frames)
{
    return "an output's name holds a frame placeholder, not a frame list (" + frames + ")";
}

/// The one placeholder of path[from, to): its start and its length and digits; length 0 when there is none. Throws
/// HostError naming `path` when there are two.
std::pair<std::size_t, std::pair<std::size_t, int>> onePlaceholder(const std::string& path, std::size_t from,
                                                                   std::size_t to)
{
    std::pair<std::size_t, std::pair<std::size_t, int>> found{to, {0, 0}};
    for (std::size_t i = from; i < to;)
    {
        const auto placeholder = placeholderAt(path, i);
        if (placeholder.first == 0)
        {
            ++i;
            continue;
        }
        if (found.second.first != 0)
            throw HostError(path + ": more than one frame placeholder (####, @@@@, %04d or %d) in its name");
        if (const std::string problem = paddingProblem(placeholder.second); !problem.empty())
            throw HostError(path + ": " + problem);
        found = {i, placeholder};
        i += placeholder.first;
    }
    return found;
}

/// The number `frame` zero-padded to `digits` characters, a minus sign counted, as printf's "%0*d"; a wider number
/// whole.
std::string paddedFrame(int frame, int digits)
{
    std::string number = std::to_string(frame < 0 ? -int64_t(frame) : int64_t(frame));
    const std::size_t width = std::size_t(std::max(digits - (frame < 0 ? 1 : 0), 0));
    if (number.size() < width)
        number.insert(0, width - number.size(), '0');
    if (frame < 0)
        number.insert(0, 1, '-');
    return number;
}

} // namespace

std::optional<FramePattern> findFramePattern(const std::string& path)
{
    const std::size_t nameStart = path.find_last_of('/') + 1; // 0 when there is no folder (npos + 1)
    const auto [at, placeholder] = onePlaceholder(path, nameStart, path.size());
    if (placeholder.first == 0)
        return std::nullopt;
    const std::size_t listStart = frameListBefore(path, nameStart, at);
    const std::string text = path.substr(at, placeholder.first);
    // oiiotool's shot.1001-1003#.exr: a single '#' is four digits there.
    const int digits = listStart < at && text == "#" ? 4 : placeholder.second;
    return FramePattern{path.substr(0, listStart), path.substr(at + placeholder.first), digits, text,
                        path.substr(listStart, at - listStart)};
}

std::string framePath(const FramePattern& pattern, int frame)
{
    return pattern.before + paddedFrame(frame, pattern.digits) + pattern.after;
}

bool parseFrameList(const std::string& text, std::vector<int>* frames, std::string* error)
{
    std::set<int> seen;
    std::size_t at = 0;
    do
    {
        const std::size_t comma = text.find(',', at);
        const std::string item = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        at = comma == std::string::npos ? text.size() + 1 : comma + 1;
        int first = 0, last = 0, step = 1;
        if (!parseFrameItem(item, &first, &last, &step))
        {
            *error = "\"" + item + "\" is not FIRST-LAST, FIRST-LASTxSTEP or FRAME (integers in " + frameNumberRange() +
                     ", STEP >= 1)";
            return false;
        }
        const int64_t span = first <= last ? int64_t(last) - first : int64_t(first) - last;
        if (const uint64_t count = uint64_t(span / step + 1); frames->size() + count > kMaxListedFrames)
        {
            *error = "\"" + item + "\" brings the list to " + std::to_string(frames->size() + count) +
                     " frames; a frame list holds at most " + std::to_string(kMaxListedFrames);
            return false;
        }
        const int direction = first <= last ? 1 : -1; // descending when FIRST > LAST
        for (int64_t offset = 0; offset <= span; offset += step)
        {
            const int frame = int(first + direction * offset);
            if (!seen.insert(frame).second)
            {
                *error = "frame " + std::to_string(frame) + " is listed twice";
                return false;
            }
            frames->push_back(frame);
        }
    } while (at <= text.size());
    return true;
}

std::string frameRangesText(const std::vector<int>& frames)
{
    std::string text;
    for (std::size_t i = 0; i < frames.size();)
    {
        std::size_t end = i + 1;
        while (end < frames.size() && frames[end] == frames[end - 1] + 1)
            ++end;
        appendRange(text, frames[i], frames[end - 1]);
        i = end;
    }
    return text;
}

std::optional<int> frameNumberIn(const FrameInput& input)
{
    if (!input.pattern.empty())
        return input.frame;
    int frame = 0;
    if (parseFrame(fieldsOf(input.path).at("frame"), &frame))
        return frame;
    return std::nullopt;
}

int frameNumberOf(const FrameInput& input, std::size_t position)
{
    return frameNumberIn(input).value_or(int(position));
}

std::vector<int> framesOnDisk(const FramePattern& pattern)
{
    const fs::path first(pattern.before + "0");
    const fs::path folder = first.has_parent_path() ? first.parent_path() : fs::path(".");
    const std::string head = first.filename().string().substr(0, first.filename().string().size() - 1);
    std::vector<int> frames;
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end && frames.size() < kMaxListedFrames;
         it.increment(ec))
    {
        const std::string name = it->path().filename().string();
        if (name.size() <= head.size() + pattern.after.size() || name.compare(0, head.size(), head) != 0 ||
            name.compare(name.size() - pattern.after.size(), pattern.after.size(), pattern.after) != 0)
            continue;
        int frame = 0;
        // Exactly the name framePath gives: 1001 is not frame 1001 of ###### (001001).
        if (parseFrame(name.substr(head.size(), name.size() - head.size() - pattern.after.size()), &frame) &&
            fs::path(framePath(pattern, frame)).filename() == name)
            frames.push_back(frame);
    }
    std::sort(frames.begin(), frames.end());
    return frames;
}

std::string FrameGap::note() const
{
    return input + ": frame" + (count > 1 ? "s " : " ") + frames + " missing between " + std::to_string(first) +
           " and " + std::to_string(last) + " on disk: not bloomed";
}

std::vector<FrameInput> resolveFrames(const std::vector<std::string>& inputs, const std::vector<int>& frames,
                                      std::vector<FrameGap>* gaps)
{
    std::vector<FrameInput> resolved;
    bool framesTaken = false;
    for (const std::string& input : inputs)
    {
        // A file that is there is read as it is named: take#2.exr, user@host.exr.
        std::error_code ec;
        const std::optional<FramePattern> pattern =
            fs::is_regular_file(input, ec) ? std::nullopt : findFramePattern(input);
        if (!pattern)
        {
            resolved.push_back({input, "", 0});
            continue;
        }
        std::vector<int> own;
        if (!pattern->frames.empty())
        {
            if (!frames.empty())
                throw HostError(input + ": its name lists its frames (" + pattern->frames +
                                "); --frames lists them too");
            std::string unused;
            parseFrameList(pattern->frames, &own, &unused); // checked by findFramePattern
        }
        else if (!frames.empty())
        {
            own = frames;
            framesTaken = true;
        }
        else
        {
            own = framesOnDisk(*pattern);
            if (own.empty())
                throw HostError(input + ": no such file, nor any frame of it as a pattern (its " + pattern->text +
                                ") in its folder; --frames names frames to bloom");
            FrameGap gap{input, "", 0, own.front(), own.back()};
            for (std::size_t i = 1; i < own.size(); ++i)
                if (own[i] - int64_t(own[i - 1]) > 1)
                {
                    appendRange(gap.frames, own[i - 1] + 1, own[i] - 1); // as ranges, however many frames they hold
                    gap.count += own[i] - int64_t(own[i - 1]) - 1;
                }
            if (gaps && gap.count > 0)
                gaps->push_back(std::move(gap));
        }
        for (const int frame : own)
            resolved.push_back({framePath(*pattern, frame), input, frame});
    }
    if (!frames.empty() && !framesTaken)
        throw HostError("--frames: no input holds a frame placeholder (####, @@@@, %04d or %d in its name) without "
                        "a frame list of its own");
    return resolved;
}

std::vector<std::string> missingFrames(const std::vector<FrameInput>& inputs)
{
    std::vector<std::string> patterns; // in order of first appearance
    std::map<std::string, std::vector<int>> missing;
    for (const FrameInput& input : inputs)
    {
        std::error_code ec;
        if (input.pattern.empty() || fs::exists(input.path, ec))
            continue;
        auto& frames = missing[input.pattern];
        if (frames.empty())
            patterns.push_back(input.pattern);
        frames.push_back(input.frame);
    }
    std::vector<std::string> lines;
    for (const std::string& pattern : patterns)
    {
        std::vector<int>& frames = missing[pattern];
        std::sort(frames.begin(), frames.end());
        lines.push_back(pattern + ": frame" + (frames.size() > 1 ? "s " : " ") + frameRangesText(frames) + " missing");
    }
    return lines;
}

std::string outputPathWithFrame(const std::string& path, std::optional<int> frame, const std::string& input)
{
    const std::optional<FramePattern> pattern = findFramePattern(path);
    if (!pattern)
        return path;
    if (!pattern->frames.empty())
        throw HostError(path + ": " + frameListProblem(pattern->frames));
    if (!frame)
        throw HostError(input + ": the output " + path + " has a frame placeholder (" + pattern->text + "), but " +
                        noFrameNumber());
    return framePath(*pattern, *frame);
}

std::string checkOutputPattern(const std::string& pattern)
{
    const std::map<std::string, std::string> fields = fieldsOf("");
    const std::size_t nameStart = pattern.find_last_of('/') + 1;
    int placeholders = 0;
    std::string problem; // of a placeholder: too wide, or after a frame list
    const std::string reason = walkPattern(
        pattern,
        [&](const std::string& field)
        {
            return fields.count(field) ? std::string()
                                       : "unknown field {" + field + "} (fields: {stem}, {frame}, {name}, {ext})";
        },
        [&](const std::string& text, std::size_t at)
        {
            const std::size_t from = std::max(at, nameStart) - at;
            for (std::size_t i = from; i < text.size(); ++i)
                if (const auto [length, digits] = placeholderAt(text, i); length > 0)
                {
                    ++placeholders;
                    if (const std::size_t list = frameListBefore(text, from, i); list < i && problem.empty())
                        problem = frameListProblem(text.substr(list, i - list));
                    if (problem.empty())
                        problem = paddingProblem(digits);
                    i += length - 1;
                }
        });
    if (!reason.empty())
        return reason;
    if (!problem.empty())
        return problem;
    return placeholders > 1 ? "more than one frame placeholder (####, @@@@, %04d or %d) in its file name" : "";
}

std::string outputPathFor(const std::string& pattern, const FrameInput& input)
{
    const std::map<std::string, std::string> fields = fieldsOf(input.path);
    const std::size_t nameStart = pattern.find_last_of('/') + 1;
    std::string path;
    walkPattern(
        pattern,
        [&](const std::string& field)
        {
            if (field == "frame" && fields.at("frame").empty())
                throw HostError(input.path +
                                ": --output-pattern uses {frame}, but the input's name ends in no frame number");
            path += fields.at(field);
            return std::string();
        },
        [&](const std::string& text, std::size_t at)
        {
            // The placeholder of the file name (checkOutputPattern: one at most) is the input's frame number.
            const std::size_t from = std::max(at, nameStart) - at;
            const auto [i, placeholder] = onePlaceholder(text, from, text.size());
            if (placeholder.first == 0)
            {
                path += text;
                return;
            }
            const std::optional<int> frame = frameNumberIn(input);
            if (!frame)
                throw HostError(input.path + ": --output-pattern has a frame placeholder (" +
                                text.substr(i, placeholder.first) + "), but " + noFrameNumber());
            path += text.substr(0, i);
            path += paddedFrame(*frame, placeholder.second);
            path += text.substr(i + placeholder.first);
        });
    if (path.empty() || path.back() == '/')
        throw HostError(input.path + ": --output-pattern '" + pattern + "' gives it " +
                        (path.empty() ? std::string("an empty name") : "the folder '" + path + "', not a file"));
    return path;
}

} // namespace fftb
