// SPDX-License-Identifier: MIT
// oneLine: control characters escaped, long messages cut in the middle.
#include "message.h"

#include <cstdio>

namespace fftb
{
namespace
{

bool isContinuation(char c)
{
    return (static_cast<unsigned char>(c) & 0xc0) == 0x80;
}

std::string escaped(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (const char c : text)
    {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\\')
            out += "\\\\";
        else if (c == '\n')
            out += "\\n";
        else if (c == '\r')
            out += "\\r";
        else if (c == '\t')
            out += "\\t";
        else if (byte == 0x1b)
            out += "\\e";
        else if (byte < 0x20 || byte == 0x7f)
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

void printMessage(std::string_view program, std::string_view message)
{
    const std::string line = std::string(program) + ": " + oneLine(message) + "\n";
    std::fputs(line.c_str(), stderr);
}

} // namespace fftb
