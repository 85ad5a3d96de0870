// SPDX-License-Identifier: MIT
// Frame patterns, --frames lists and output names by pattern.
#include "runner/frames.h"

#include "host_error.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

namespace fftb
{

namespace fs = std::filesystem;

namespace
{

constexpr uint32_t kFrameLimit = 1000000000; // 10^9: nine digits, far beyond any shot

/// A frame number of digits only, below kFrameLimit.
bool parseFrame(const std::string& text, uint32_t* frame)
{
    if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
        return false;
    *frame = uint32_t(std::stoul(text));
    return true;
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
    const std::size_t digits = name.find_last_not_of("0123456789") + 1; // 0 when all digits (npos + 1)
    std::string stem = name.substr(0, digits);
    if (digits < name.size() && !stem.empty() && (stem.back() == '.' || stem.back() == '_' || stem.back() == '-'))
        stem.pop_back();
    return {{"name", name}, {"ext", ext.empty() ? ext : ext.substr(1)}, {"frame", name.substr(digits)}, {"stem", stem}};
}

/// Calls `field(name)` for every {field} of `pattern` and `text(s)` for the text between them; the reason when a
/// brace stands alone.
template <typename Field, typename Text>
std::string walkPattern(const std::string& pattern, const Field& field, const Text& text)
{
    std::size_t at = 0;
    while (at < pattern.size())
    {
        const std::size_t open = pattern.find_first_of("{}", at);
        text(pattern.substr(at, open == std::string::npos ? std::string::npos : open - at));
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

} // namespace

std::optional<FramePattern> findFramePattern(const std::string& path)
{
    const std::size_t nameStart = path.find_last_of('/') + 1; // 0 when there is no folder (npos + 1)
    std::optional<FramePattern> found;
    for (std::size_t i = nameStart; i < path.size();)
    {
        const auto [length, digits] = placeholderAt(path, i);
        if (length == 0)
        {
            ++i;
            continue;
        }
        if (found)
            throw HostError(path + ": more than one frame placeholder (####, @@@@, %04d or %d) in its name");
        found = FramePattern{path.substr(0, i), path.substr(i + length), digits};
        i += length;
    }
    return found;
}

std::string framePath(const FramePattern& pattern, uint32_t frame)
{
    char number[32];
    std::snprintf(number, sizeof number, "%0*u", pattern.digits, frame);
    return pattern.before + number + pattern.after;
}

bool parseFrameList(const std::string& text, std::vector<uint32_t>* frames, std::string* error)
{
    std::set<uint32_t> seen;
    std::size_t at = 0;
    do
    {
        const std::size_t comma = text.find(',', at);
        const std::string item = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        at = comma == std::string::npos ? text.size() + 1 : comma + 1;
        const std::size_t dash = item.find('-');
        const std::size_t x = item.find('x', dash == std::string::npos ? item.size() : dash);
        uint32_t first = 0, last = 0, step = 1;
        const bool ok = dash == std::string::npos
                            ? parseFrame(item, &first) && (last = first, true)
                            : parseFrame(item.substr(0, dash), &first) &&
                                  parseFrame(item.substr(dash + 1, x == std::string::npos ? x : x - dash - 1), &last) &&
                                  (x == std::string::npos || parseFrame(item.substr(x + 1), &step));
        if (!ok || step == 0 || first > last)
        {
            *error = "\"" + item + "\" is not FIRST-LAST, FIRST-LASTxSTEP or FRAME (digits, FIRST <= LAST, STEP >= 1)";
            return false;
        }
        if (const uint64_t count = (uint64_t(last) - first) / step + 1; frames->size() + count > kMaxListedFrames)
        {
            *error = "\"" + item + "\" brings the list to " + std::to_string(frames->size() + count) +
                     " frames; a --frames list holds at most " + std::to_string(kMaxListedFrames);
            return false;
        }
        for (uint64_t frame = first; frame <= last; frame += step)
        {
            if (!seen.insert(uint32_t(frame)).second)
            {
                *error = "frame " + std::to_string(frame) + " is listed twice";
                return false;
            }
            frames->push_back(uint32_t(frame));
        }
    } while (at <= text.size());
    return true;
}

std::string frameRangesText(const std::vector<uint32_t>& frames)
{
    std::string text;
    for (std::size_t i = 0; i < frames.size();)
    {
        std::size_t end = i + 1;
        while (end < frames.size() && frames[end] == frames[end - 1] + 1)
            ++end;
        // Appended piece by piece: "literal" + std::string trips GCC 12's -Wrestrict.
        if (!text.empty())
            text += ", ";
        text += std::to_string(frames[i]);
        if (end - i > 1)
        {
            text += '-';
            text += std::to_string(frames[end - 1]);
        }
        i = end;
    }
    return text;
}

uint32_t frameNumberOf(const FrameInput& input, std::size_t position)
{
    if (!input.pattern.empty())
        return input.frame;
    const std::string digits = fieldsOf(input.path).at("frame");
    uint32_t frame = 0;
    if (!digits.empty() && parseFrame(digits.substr(digits.size() > 9 ? digits.size() - 9 : 0), &frame))
        return frame;
    return uint32_t(position);
}

std::vector<FrameInput> resolveFrames(const std::vector<std::string>& inputs, const std::vector<uint32_t>& frames)
{
    std::vector<FrameInput> resolved;
    bool anyPattern = false;
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
        if (frames.empty())
            throw HostError(
                input + ": no such file; as a frame pattern (its " +
                input.substr(pattern->before.size(), input.size() - pattern->before.size() - pattern->after.size()) +
                ") it needs --frames (e.g. --frames 1001-1100)");
        anyPattern = true;
        for (const uint32_t frame : frames)
            resolved.push_back({framePath(*pattern, frame), input, frame});
    }
    if (!frames.empty() && !anyPattern)
        throw HostError("--frames: no input holds a frame placeholder (####, @@@@, %04d or %d in its name)");
    return resolved;
}

std::vector<std::string> missingFrames(const std::vector<FrameInput>& inputs)
{
    std::vector<std::string> patterns; // in order of first appearance
    std::map<std::string, std::vector<uint32_t>> missing;
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
        std::vector<uint32_t>& frames = missing[pattern];
        std::sort(frames.begin(), frames.end());
        lines.push_back(pattern + ": frame" + (frames.size() > 1 ? "s " : " ") + frameRangesText(frames) + " missing");
    }
    return lines;
}

std::string checkOutputPattern(const std::string& pattern)
{
    const std::map<std::string, std::string> fields = fieldsOf("");
    return walkPattern(
        pattern,
        [&](const std::string& field)
        {
            return fields.count(field) ? std::string()
                                       : "unknown field {" + field + "} (fields: {stem}, {frame}, {name}, {ext})";
        },
        [](const std::string&) {});
}

std::string outputPathFor(const std::string& pattern, const std::string& input)
{
    const std::map<std::string, std::string> fields = fieldsOf(input);
    std::string path;
    walkPattern(
        pattern,
        [&](const std::string& field)
        {
            if (field == "frame" && fields.at("frame").empty())
                throw HostError(input +
                                ": --output-pattern uses {frame}, but the input's name ends in no frame number");
            path += fields.at(field);
            return std::string();
        },
        [&](const std::string& text) { path += text; });
    if (path.empty() || path.back() == '/')
        throw HostError(input + ": --output-pattern '" + pattern + "' gives it " +
                        (path.empty() ? std::string("an empty name") : "the folder '" + path + "', not a file"));
    return path;
}

} // namespace fftb
