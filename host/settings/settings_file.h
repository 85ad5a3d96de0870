// SPDX-License-Identifier: MIT
// Settings files: the option=value lines that `fftbloom --settings` and `fftbloom-viewer --settings` read and the
// viewer saves.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace fftb
{

/// The most bytes a settings file may hold: a few hundred settings lines take a few kilobytes.
inline constexpr std::uintmax_t kMaxSettingsFileBytes = 1 << 20;

/// One `name=value` line of a settings file.
struct SettingsFileLine
{
    int number = 0;    ///< 1 for the first line
    std::string name;  ///< before the first '=', without the spaces around it
    std::string value; ///< after it, without the spaces around it and without one pair of double quotes around it
};

/// Why `path` may not be read as a settings file ("<path>: no such file", "<path>: not a regular file" (a FIFO would
/// block the read), "<path>: N bytes, more than a settings file's 1048576" (/dev/zero would grow without end)), or ""
/// when it may.
std::string settingsFileProblem(const std::string& path);

/// Parses the text of a settings file: UTF-8, one `name=value` a line, spaces around the name and the value ignored,
/// blank lines and lines starting with `#` skipped, a UTF-8 byte-order mark at the start skipped, CR LF line ends read
/// as LF. Throws HostError "line N: <reason>" for a section header (`[name]`: settings files have none), a line
/// without '=' or without a name, a NUL byte, and a name given twice; the line's text is quoted, cut to 200 bytes.
std::vector<SettingsFileLine> parseSettingsText(std::istream& text);

/// settingsFileProblem, then parseSettingsText of the file. Throws HostError "<path>: <reason>" or
/// "<path>:<line>: <reason>".
std::vector<SettingsFileLine> readSettingsFile(const std::string& path);

} // namespace fftb
