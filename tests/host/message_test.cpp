// SPDX-License-Identifier: MIT
// Messages as one printable line (message.h) and settings files read a line at a time (settings/settings_file.h).
#include "host_error.h"
#include "message.h"
#include "settings/settings_file.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>

namespace fftb
{
namespace
{

TEST(MessageTest, ControlCharactersAreEscapedSoNoNameStartsALine)
{
    EXPECT_EQ(oneLine("in.exr: no part is called a\nfftbloom: forged"),
              "in.exr: no part is called a\\nfftbloom: forged");
    EXPECT_EQ(oneLine(std::string("\x1b[2J\r\t\x7f\x01", 8) + std::string(1, '\0') + "\\"),
              "\\e[2J\\r\\t\\x7f\\x01\\x00\\\\");
    EXPECT_EQ(oneLine("caf\xc3\xa9 \xe2\x9c\xa8"), "caf\xc3\xa9 \xe2\x9c\xa8") << "UTF-8 is printable";
    EXPECT_EQ(oneLine(""), "");
}

// A byte of no well-formed UTF-8 sequence is \xHH, so that a JSON line keeps it and a terminal gets no raw byte:
// Latin-1, a lone continuation byte, a cut sequence, overlong forms, a surrogate and past U+10FFFF.
TEST(MessageTest, BytesOfNoUtf8SequenceAreEscapedAsHex)
{
    EXPECT_EQ(oneLine("caf\xe9.exr"), "caf\\xe9.exr");
    EXPECT_EQ(oneLine("\x80 \xff \xc3"), "\\x80 \\xff \\xc3");
    EXPECT_EQ(oneLine("\xe2\x9c!"), "\\xe2\\x9c!");
    EXPECT_EQ(oneLine("\xc0\xaf \xe0\x80\xaf"), "\\xc0\\xaf \\xe0\\x80\\xaf");
    EXPECT_EQ(oneLine("\xed\xa0\x80 \xf4\x90\x80\x80"), "\\xed\\xa0\\x80 \\xf4\\x90\\x80\\x80");
    EXPECT_EQ(oneLine("\xf0\x9f\x8c\x9f \xef\xbb\xbf"), "\xf0\x9f\x8c\x9f \xef\xbb\xbf") << "kept: well-formed";
}

TEST(MessageTest, ALongMessageKeepsItsStartAndItsEndWithinTheLimit)
{
    const std::string value(100000, '7');
    const std::string line = oneLine("--intensity: " + value + " is not a number");
    EXPECT_LE(line.size(), kMaxMessageBytes + 40);
    EXPECT_EQ(line.rfind("--intensity: 777", 0), 0u) << line;
    EXPECT_NE(line.find(" bytes cut) ... "), std::string::npos) << line;
    EXPECT_EQ(line.substr(line.size() - 16), " is not a number") << line;
    EXPECT_EQ(oneLine(std::string(kMaxMessageBytes, 'x')).size(), kMaxMessageBytes) << "at the limit: kept whole";
    // Two-byte characters throughout: a cut never falls inside one.
    std::string accents;
    for (int i = 0; i < 2000; ++i)
        accents += "\xc3\xa9";
    const std::string cut = oneLine(accents);
    const std::size_t head = cut.find(" ... (");
    ASSERT_NE(head, std::string::npos);
    EXPECT_EQ(head % 2, 0u);
    EXPECT_EQ((cut.size() - cut.rfind(") ... ") - 6) % 2, 0u);
}

std::vector<SettingsFileLine> parsed(const std::string& text)
{
    std::istringstream in(text);
    return parseSettingsText(in);
}

std::string refusal(const std::string& text)
{
    try
    {
        parsed(text);
    }
    catch (const HostError& e)
    {
        return e.what();
    }
    ADD_FAILURE() << "accepted: " << text;
    return std::string();
}

TEST(SettingsFileTest, LinesAreNameValueWithCommentsBlankLinesABomAndCrLf)
{
    const std::vector<SettingsFileLine> lines =
        parsed("\xEF\xBB\xBF# a look\r\n\r\n  intensity = 0.5 \r\ntint=\"1,0.9,0.8\"\n\tkernel=my psf.exr\nlayer=\n");
    ASSERT_EQ(lines.size(), 4u);
    EXPECT_EQ(lines[0].number, 3);
    EXPECT_EQ(lines[0].name, "intensity");
    EXPECT_EQ(lines[0].value, "0.5");
    EXPECT_EQ(lines[1].value, "1,0.9,0.8");
    EXPECT_EQ(lines[2].name, "kernel");
    EXPECT_EQ(lines[2].value, "my psf.exr");
    EXPECT_EQ(lines[3].value, "");
}

TEST(SettingsFileTest, SectionsLinesWithoutANameRepeatsAndNulBytesAreRefusedByLine)
{
    EXPECT_EQ(refusal("intensity=1\n[bloom]\n"),
              "line 2: '[bloom]' is a section header; a settings file has none, only option=value lines");
    EXPECT_EQ(refusal("junk\n"), "line 1: 'junk' is not option=value");
    EXPECT_EQ(refusal("=5\n"), "line 1: '=5' is not option=value");
    EXPECT_EQ(refusal("a=1\n\na=2\n"), "line 3: 'a' again (first on line 1)");
    EXPECT_EQ(refusal(std::string("a=1\0b", 5)), "line 1: holds a NUL byte");
    const std::string long_line = refusal(std::string(5000, 'x'));
    EXPECT_NE(long_line.find("...' (5000 bytes)"), std::string::npos);
    EXPECT_LT(long_line.size(), 300u);
}

} // namespace
} // namespace fftb
