// SPDX-License-Identifier: MIT
// Settings files: checked as files, then read a line at a time.
#include "settings/settings_file.h"

#include "host_error.h"

#include <filesystem>
#include <fstream>
#include <map>

namespace fftb
{
namespace
{

constexpr std::size_t kMaxQuotedBytes = 200;

std::string trimmed(const std::string& text)
{
    const std::size_t first = text.find_first_not_of(" \t");
    if (first == std::string::npos)
        return std::string();
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

/// 'text', cut after kMaxQuotedBytes bytes (oneLine escapes what it holds when it is printed).
std::string shownLine(const std::string& text)
{
    std::string shown(1, '\'');
    shown.append(text, 0, kMaxQuotedBytes);
    if (text.size() <= kMaxQuotedBytes)
        return shown + "'";
    return shown + "...' (" + std::to_string(text.size()) + " bytes)";
}

[[noreturn]] void failLine(int number, const std::string& reason)
{
    throw HostError("line " + std::to_string(number) + ": " + reason);
}

} // namespace

std::string settingsFileProblem(const std::string& path)
{
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status))
        return path + ": no such file";
    if (!std::filesystem::is_regular_file(status))
        return path + ": not a regular file";
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec)
        return path + ": " + ec.message();
    if (size > kMaxSettingsFileBytes)
        return path + ": " + std::to_string(size) + " bytes, more than a settings file's " +
               std::to_string(kMaxSettingsFileBytes);
    return std::string();
}

std::vector<SettingsFileLine> parseSettingsText(std::istream& text)
{
    std::vector<SettingsFileLine> lines;
    std::map<std::string, int> seen;
    std::string raw;
    for (int number = 1; std::getline(text, raw); ++number)
    {
        if (number == 1 && raw.rfind("\xEF\xBB\xBF", 0) == 0)
            raw.erase(0, 3);
        if (!raw.empty() && raw.back() == '\r')
            raw.pop_back();
        if (raw.find('\0') != std::string::npos)
            failLine(number, "holds a NUL byte");
        const std::string line = trimmed(raw);
        if (line.empty() || line.front() == '#')
            continue;
        if (line.front() == '[')
            failLine(number,
                     shownLine(line) + " is a section header; a settings file has none, only option=value lines");
        const std::size_t eq = line.find('=');
        SettingsFileLine parsed{number, trimmed(line.substr(0, eq == std::string::npos ? 0 : eq)), std::string()};
        if (eq == std::string::npos || parsed.name.empty())
            failLine(number, shownLine(line) + " is not option=value");
        parsed.value = trimmed(line.substr(eq + 1));
        if (parsed.value.size() >= 2 && parsed.value.front() == '"' && parsed.value.back() == '"')
            parsed.value = parsed.value.substr(1, parsed.value.size() - 2);
        if (const auto [first, added] = seen.emplace(parsed.name, number); !added)
            failLine(number, shownLine(parsed.name) + " again (first on line " + std::to_string(first->second) + ")");
        lines.push_back(std::move(parsed));
    }
    return lines;
}

std::vector<SettingsFileLine> readSettingsFile(const std::string& path)
{
    if (const std::string problem = settingsFileProblem(path); !problem.empty())
        throw HostError(problem);
    std::ifstream file(path, std::ios::binary);
    if (!file)
        throw HostError(path + ": cannot be read");
    std::vector<SettingsFileLine> lines;
    try
    {
        lines = parseSettingsText(file);
    }
    catch (const HostError& e) // "line N: reason"
    {
        throw HostError(path + ":" + std::string(e.what()).substr(std::string("line ").size()));
    }
    if (file.bad())
        throw HostError(path + ": read error");
    return lines;
}

} // namespace fftb
