// SPDX-License-Identifier: MIT
// oneLine: control characters escaped, long messages cut in the middle; the tools' message lines, as text or JSON.
#include "message.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdio>
#include <ctime>

namespace fftb
{
namespace
{

bool isContinuation(char c)
{
    return (static_cast<unsigned char>(c) & 0xc0) == 0x80;
}

/// The length of the well-formed UTF-8 sequence (RFC 3629: no overlong form, no surrogate, at most U+10FFFF) of two
/// to four bytes at `at` of `text`; 0 when none starts there.
std::size_t utf8SequenceAt(std::string_view text, std::size_t at)
{
    const auto byte = [&](std::size_t i) { return i < text.size() ? static_cast<unsigned char>(text[i]) : 0u; };
    const unsigned lead = byte(at);
    const std::size_t length = lead >= 0xc2 && lead <= 0xdf   ? 2
                               : lead >= 0xe0 && lead <= 0xef ? 3
                               : lead >= 0xf0 && lead <= 0xf4 ? 4
                                                              : 0;
    // The second byte's range, narrower after E0 (overlong), ED (surrogates), F0 (overlong) and F4 (past U+10FFFF).
    const unsigned low = lead == 0xe0 ? 0xa0 : lead == 0xf0 ? 0x90 : 0x80;
    const unsigned high = lead == 0xed ? 0x9f : lead == 0xf4 ? 0x8f : 0xbf;
    if (length == 0 || byte(at + 1) < low || byte(at + 1) > high)
        return 0;
    for (std::size_t i = 2; i < length; ++i)
        if (!isContinuation(char(byte(at + i))))
            return 0;
    return length;
}

std::string escaped(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t at = 0; at < text.size(); ++at)
    {
        const char c = text[at];
        const auto byte = static_cast<unsigned char>(c);
        if (const std::size_t length = byte >= 0x80 ? utf8SequenceAt(text, at) : 1; length > 1)
        {
            out += text.substr(at, length);
            at += length - 1;
        }
        else if (c == '\\')
            out += "\\\\";
        else if (c == '\n')
            out += "\\n";
        else if (c == '\r')
            out += "\\r";
        else if (c == '\t')
            out += "\\t";
        else if (byte == 0x1b)
            out += "\\e";
        else if (byte < 0x20 || byte >= 0x7f) // a control character, or a byte of no UTF-8 sequence
        {
            char hex[5];
            std::snprintf(hex, sizeof hex, "\\x%02x", byte);
            out += hex;
        }
        else
            out += c;
    }
    return out;
}

std::atomic<MessageFormat> gFormat{MessageFormat::Text};

/// A line of printMessage or printInfo in the format set: a warning's text keeps its "warning: " in Text.
std::string lineOf(std::string_view program, const char* level, std::string_view message, bool warning)
{
    if (gFormat.load() == MessageFormat::Text)
        return std::string(program) + ": " + (warning ? "warning: " : "") + oneLine(message) + "\n";
    const nlohmann::ordered_json line{{"time", isoTime(std::chrono::system_clock::now())},
                                      {"program", program},
                                      {"level", level},
                                      {"message", oneLine(message)}};
    return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace

std::string oneLine(std::string_view text)
{
    std::string line = escaped(text);
    if (line.size() <= kMaxMessageBytes)
        return line;
    std::size_t head = kMaxMessageBytes * 6 / 10;
    std::size_t tail = line.size() - kMaxMessageBytes * 3 / 10;
    while (head > 0 && isContinuation(line[head]))
        --head;
    while (tail < line.size() && isContinuation(line[tail]))
        ++tail;
    return line.substr(0, head) + " ... (" + std::to_string(tail - head) + " bytes cut) ... " + line.substr(tail);
}

void setMessageFormat(MessageFormat format)
{
    gFormat.store(format);
}

MessageFormat messageFormat()
{
    return gFormat.load();
}

void printMessage(std::string_view program, std::string_view message)
{
    constexpr std::string_view kWarning = "warning: ";
    const bool warning = message.substr(0, kWarning.size()) == kWarning;
    std::fputs(
        lineOf(program, warning ? "warning" : "error", warning ? message.substr(kWarning.size()) : message, warning)
            .c_str(),
        stderr);
}

void printInfo(std::string_view program, std::string_view message)
{
    std::fputs(lineOf(program, "info", message, false).c_str(), stdout);
    std::fflush(stdout);
}

std::string isoTime(std::chrono::system_clock::time_point time)
{
    const auto milliseconds = std::chrono::duration_cast<std::chrono::milliseconds>(time.time_since_epoch()).count();
    const std::time_t seconds = std::time_t(milliseconds / 1000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[80];
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
                  utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, int(milliseconds % 1000));
    return text;
}

} // namespace fftb
