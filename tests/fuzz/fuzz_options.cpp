// SPDX-License-Identifier: MIT
// libFuzzer target: the fftbloom command line and settings files. The input is the argument list, arguments separated
// by NUL bytes; the same bytes are also read as a settings file's text, each line it gives applied to the settings.
#include "options.h"
#include "settings/setting_table.h"
#include "settings/settings_file.h"

#include "host_error.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace
{

void parseArguments(const uint8_t* data, std::size_t size)
{
    std::vector<std::string> arguments{"fftbloom"};
    std::string current;
    for (std::size_t i = 0; i < size; ++i)
    {
        if (data[i] == 0)
            arguments.push_back(std::move(current)), current.clear();
        else
            current += char(data[i]);
    }
    arguments.push_back(current);
    std::vector<char*> argv;
    for (std::string& argument : arguments)
        argv.push_back(argument.data());
    argv.push_back(nullptr);
    fftb::CliOptions options;
    fftb::parseOptions(int(arguments.size()), argv.data(), options);
}

void parseSettingsFile(const uint8_t* data, std::size_t size)
{
    std::istringstream text(std::string(reinterpret_cast<const char*>(data), size));
    try
    {
        fftb::BloomSettings settings;
        for (const fftb::SettingsFileLine& line : fftb::parseSettingsText(text))
            fftb::applySettingLine(line.name + "=" + line.value, settings, nullptr);
    }
    catch (const fftb::HostError&)
    {
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    parseArguments(data, size);
    parseSettingsFile(data, size);
    return 0;
}
