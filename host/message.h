// SPDX-License-Identifier: MIT
// Messages for a terminal and a log: one line each, whatever the names and values in them hold.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

namespace fftb
{

/// The most bytes oneLine() keeps of a message: a value of 100 MB makes no 100 MB line.
inline constexpr std::size_t kMaxMessageBytes = 1000;

/// `text` as one printable line. Each control character (bytes 0x00-0x1f and 0x7f: a newline, an escape, a NUL in a
/// part name or a settings file) is written as `\n`, `\r`, `\t`, `\e` or `\xHH`, each byte of no well-formed UTF-8
/// sequence (Latin-1 text, a cut or overlong sequence, a surrogate) as `\xHH`, and a backslash as `\\`, so that no
/// name can start a line of its own (forging a `fftbloom:` line) or drive the terminal, and a JSON line stays JSON.
/// Past kMaxMessageBytes the middle is cut, keeping the start (what and where) and the end (why): "<start> ... (N bytes
/// cut) ... <end>", never inside a UTF-8 sequence.
std::string oneLine(std::string_view text);

/// How printMessage and printInfo write their lines.
enum class MessageFormat
{
    Text, ///< "<program>: <message>"
    /// One JSON object a line, for log collectors: {"time": isoTime, "program", "level": "error" | "warning" |
    /// "info", "message"}; a message that starts with "warning: " is a warning, without those words
    Json,
};

/// Sets the format of printMessage and printInfo for the whole process (fftbloom's --log-format); Text until then.
void setMessageFormat(MessageFormat format);

/// The format setMessageFormat set.
MessageFormat messageFormat();

/// Prints "<program>: <oneLine(message)>" and a newline to stderr (or its JSON line, MessageFormat::Json): every
/// error and warning of the tools.
void printMessage(std::string_view program, std::string_view message);

/// Prints "<program>: <oneLine(message)>" and a newline to stdout (or its JSON line, level "info"), flushed: what a
/// run says about itself (its totals, how its previews are made).
void printInfo(std::string_view program, std::string_view message);

/// `time` in ISO 8601, UTC, to the millisecond: "2026-11-27T17:40:11.123Z".
std::string isoTime(std::chrono::system_clock::time_point time);

} // namespace fftb
