// SPDX-License-Identifier: MIT
// Messages for a terminal and a log: one line each, whatever the names and values in them hold.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace fftb
{

/// The most bytes oneLine() keeps of a message: a value of 100 MB makes no 100 MB line.
inline constexpr std::size_t kMaxMessageBytes = 1000;

/// `text` as one printable line. Each control character (bytes 0x00-0x1f and 0x7f: a newline, an escape, a NUL in a
/// part name or a settings file) is written as `\n`, `\r`, `\t`, `\e` or `\xHH`, and a backslash as `\\`, so that no
/// name can start a line of its own (forging a `fftbloom:` line) or drive the terminal. Past kMaxMessageBytes the
/// middle is cut, keeping the start (what and where) and the end (why): "<start> ... (N bytes cut) ... <end>", never
/// inside a UTF-8 sequence.
std::string oneLine(std::string_view text);

/// Prints "<program>: <oneLine(message)>" and a newline to stderr: every error and warning of the tools.
void printMessage(std::string_view program, std::string_view message);

} // namespace fftb
