// SPDX-License-Identifier: MIT
// libFuzzer target: the fftbloom command line. The input is the argument list, arguments separated by NUL bytes.
#include "options.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
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
    return 0;
}
