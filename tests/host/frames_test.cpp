// SPDX-License-Identifier: MIT
// Frame patterns, --frames lists, missing-frame ranges and output names by pattern (runner/frames.h).
#include "host_error.h"
#include "runner/batch.h"
#include "runner/frames.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace fftb
{
namespace
{

std::vector<int> frameList(const std::string& text)
{
    std::vector<int> frames;
    std::string error;
    EXPECT_TRUE(parseFrameList(text, &frames, &error)) << text << ": " << error;
    return frames;
}

std::string frameListError(const std::string& text)
{
    std::vector<int> frames;
    std::string error;
    EXPECT_FALSE(parseFrameList(text, &frames, &error)) << text << " was accepted";
    return error;
}

TEST(FramesTest, PlaceholdersOfEveryStyleGiveTheSamePaddedPath)
{
    for (const std::string pattern :
         {"shots/sh010/shot.####.exr", "shots/sh010/shot.@@@@.exr", "shots/sh010/shot.%04d.exr"})
    {
        const std::optional<FramePattern> found = findFramePattern(pattern);
        ASSERT_TRUE(found) << pattern;
        EXPECT_EQ(framePath(*found, 7), "shots/sh010/shot.0007.exr") << pattern;
        EXPECT_EQ(framePath(*found, 1001), "shots/sh010/shot.1001.exr") << pattern;
        EXPECT_EQ(framePath(*found, 123456), "shots/sh010/shot.123456.exr") << pattern; // wider than the padding
    }
    const std::optional<FramePattern> unpadded = findFramePattern("shot.%d.exr");
    ASSERT_TRUE(unpadded);
    EXPECT_EQ(framePath(*unpadded, 7), "shot.7.exr");
    const std::optional<FramePattern> wide = findFramePattern("shot_%012d.exr");
    ASSERT_TRUE(wide);
    EXPECT_EQ(framePath(*wide, 42), "shot_000000000042.exr");
    EXPECT_EQ(framePath(*findFramePattern("#.exr"), 3), "3.exr");
}

TEST(FramesTest, PlainNamesFolderPlaceholdersAndTwoPlaceholdersAreNotPatterns)
{
    EXPECT_FALSE(findFramePattern("shot.1001.exr"));
    EXPECT_FALSE(findFramePattern("50%.exr"));
    EXPECT_FALSE(findFramePattern("%s.exr"));
    EXPECT_FALSE(findFramePattern("take#2/shot.1001.exr")); // only the file name is searched
    EXPECT_THROW(findFramePattern("shot.####.%04d.exr"), HostError);
    EXPECT_THROW(findFramePattern("shot.##.@@.exr"), HostError);
}

TEST(FramesTest, FrameListsKeepTheirOrderAndStep)
{
    EXPECT_EQ(frameList("1001"), std::vector<int>({1001}));
    EXPECT_EQ(frameList("1001-1004"), std::vector<int>({1001, 1002, 1003, 1004}));
    EXPECT_EQ(frameList("1001-1008x3"), std::vector<int>({1001, 1004, 1007}));
    EXPECT_EQ(frameList("1020,1001-1002,0"), std::vector<int>({1020, 1001, 1002, 0}));
    EXPECT_EQ(frameList("999999999").size(), 1u);
}

// A list is bounded before it is expanded: 10^9 frames are refused at once, not after gigabytes.
TEST(FramesTest, FrameListsHoldAtMostAMillionFrames)
{
    EXPECT_EQ(frameListError("0-999999999"),
              "\"0-999999999\" brings the list to 1000000000 frames; a frame list holds at most 1000000");
    EXPECT_NE(frameListError("1-10,0-999999999x2").find("brings the list to 500000010 frames"), std::string::npos);
    EXPECT_EQ(frameList("0-999999999x1000").size(), 1000000u);
}

TEST(FramesTest, MalformedFrameListsAreRefusedWithTheItem)
{
    for (const std::string text : {"", "1001-", "--5", "1001-1010x0", "1001-1010x", "1001x2", "10a", "1001,,1002",
                                   "1001,", "1000000000", "-1000000000", "1001-1002-1003", " 1001", "+1001", "-"})
        EXPECT_NE(frameListError(text).find("is not FIRST-LAST"), std::string::npos) << text;
    EXPECT_EQ(frameListError("1001-1010,1005"), "frame 1005 is listed twice");
}

TEST(FramesTest, FrameListsRunDownwardAndTakeNegativeFrames)
{
    EXPECT_EQ(frameList("1003-1001"), std::vector<int>({1003, 1002, 1001}));
    EXPECT_EQ(frameList("1010-1001x3"), std::vector<int>({1010, 1007, 1004, 1001}));
    EXPECT_EQ(frameList("-2-1"), std::vector<int>({-2, -1, 0, 1}));
    EXPECT_EQ(frameList("-5--3,1--1x2"), std::vector<int>({-5, -4, -3, 1, -1}));
    EXPECT_EQ(frameList("-999999999"), std::vector<int>({-999999999}));
    EXPECT_EQ(frameListError("3-1,2"), "frame 2 is listed twice");
}

// Negative frames are padded as printf's %0*d pads them (the sign counts), the convention of Nuke's and oiiotool's
// printf-style names.
TEST(FramesTest, NegativeFramesArePaddedAsPrintfPadsThem)
{
    EXPECT_EQ(framePath(*findFramePattern("s.####.exr"), -1), "s.-001.exr");
    EXPECT_EQ(framePath(*findFramePattern("s.%05d.exr"), -12), "s.-0012.exr");
    EXPECT_EQ(framePath(*findFramePattern("s.%d.exr"), -7), "s.-7.exr");
}

// oiiotool's shot.1001-1003#.exr: the frames written before the placeholder, '#' alone four digits there.
TEST(FramesTest, AFrameListBeforeThePlaceholderIsThePatternsOwn)
{
    const std::optional<FramePattern> range = findFramePattern("s/shot.1001-1003#.exr");
    ASSERT_TRUE(range);
    EXPECT_EQ(range->frames, "1001-1003");
    EXPECT_EQ(range->text, "#");
    EXPECT_EQ(framePath(*range, 7), "s/shot.0007.exr");
    EXPECT_EQ(findFramePattern("shot.1-9x2@@.exr")->frames, "1-9x2");
    EXPECT_EQ(framePath(*findFramePattern("shot.1-9x2@@.exr"), 7), "shot.07.exr");
    EXPECT_EQ(findFramePattern("shot_-5-5#.exr")->frames, "-5-5");
    const std::optional<FramePattern> dashed = findFramePattern("shot-1001-1003#.exr"); // '-' a separator
    EXPECT_EQ(dashed->frames, "1001-1003");
    EXPECT_EQ(dashed->before, "shot-");
    // No list: digits glued to a word, a separator alone; '#' alone is then one digit.
    EXPECT_EQ(findFramePattern("shot_v2#.exr")->frames, "");
    EXPECT_EQ(framePath(*findFramePattern("shot_v2#.exr"), 7), "shot_v27.exr");
    EXPECT_EQ(findFramePattern("shot.####.exr")->frames, "");

    const std::vector<FrameInput> resolved = resolveFrames({"s.1003-1001#.exr"}, {});
    ASSERT_EQ(resolved.size(), 3u);
    EXPECT_EQ(resolved[0].path, "s.1003.exr");
    EXPECT_EQ(resolved[2].path, "s.1001.exr");
    EXPECT_EQ(resolved[2].frame, 1001);
    EXPECT_EQ(resolved[2].pattern, "s.1003-1001#.exr");
    EXPECT_THROW(resolveFrames({"s.1-3#.exr"}, {5}), HostError); // two lists
}

// Without --frames, a pattern runs the frames on disk: exactly its names (padding included), each gap named once.
TEST(FramesTest, APatternWithoutFramesRunsTheFramesOnDiskAndNamesTheGaps)
{
    const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "fftbloom_frames_on_disk";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    for (const char* name : {"s.0001.exr", "s.0002.exr", "s.0006.exr", "s.-001.exr", "s.00009.exr", "s.0008.exr.tmp",
                             "s.0010.hdr", "t.0004.exr"})
        std::ofstream(dir / name) << "x";
    std::vector<FrameGap> gaps;
    const std::string pattern = (dir / "s.####.exr").string();
    const std::vector<FrameInput> frames = resolveFrames({pattern}, {}, &gaps);
    std::vector<int> numbers;
    for (const FrameInput& f : frames)
        numbers.push_back(f.frame);
    EXPECT_EQ(numbers, std::vector<int>({-1, 1, 2, 6}));
    ASSERT_EQ(gaps.size(), 1u);
    EXPECT_EQ(gaps[0].note(), pattern + ": frames 0, 3-5 missing between -1 and 6 on disk: not bloomed");
    EXPECT_EQ(gaps[0].input, pattern);
    EXPECT_EQ(gaps[0].frames, "0, 3-5");
    EXPECT_EQ(gaps[0].count, 4);
    EXPECT_EQ(frames[1].path, (dir / "s.0001.exr").string());
    EXPECT_THROW(resolveFrames({(dir / "u.####.exr").string()}, {}), HostError);
    std::filesystem::remove_all(dir);
}

TEST(FramesTest, FrameNumbersComeFromThePatternThenTheNameThenThePosition)
{
    EXPECT_EQ(frameNumberOf({"/s/shot.1001.exr", "/s/shot.####.exr", 1001}, 7), 1001);
    EXPECT_EQ(frameNumberOf({"/s/shot.1001.exr", "", 0}, 7), 1001);
    EXPECT_EQ(frameNumberOf({"/s/plate_0042.exr", "", 0}, 7), 42);
    EXPECT_EQ(frameNumberOf({"/s/2024/plate.exr", "", 0}, 7), 7);      // digits of a folder are no frame number
    EXPECT_EQ(frameNumberOf({"/s/take12345678901.exr", "", 0}, 7), 7); // past 999999999: no frame number
}

TEST(FramesTest, RangesTextJoinsConsecutiveFrames)
{
    EXPECT_EQ(frameRangesText({1005, 1006, 1007, 1010}), "1005-1007, 1010");
    EXPECT_EQ(frameRangesText({1}), "1");
    EXPECT_EQ(frameRangesText({1, 3, 4}), "1, 3-4");
    EXPECT_EQ(frameRangesText({}), "");
}

TEST(FramesTest, ResolvingExpandsPatternsAndKeepsPlainPaths)
{
    const std::vector<FrameInput> resolved = resolveFrames({"a.exr", "s.##.exr"}, {8, 10});
    ASSERT_EQ(resolved.size(), 3u);
    EXPECT_EQ(resolved[0].path, "a.exr");
    EXPECT_EQ(resolved[0].pattern, "");
    EXPECT_EQ(resolved[1].path, "s.08.exr");
    EXPECT_EQ(resolved[1].pattern, "s.##.exr");
    EXPECT_EQ(resolved[1].frame, 8);
    EXPECT_EQ(resolved[2].path, "s.10.exr");
    EXPECT_EQ(resolveFrames({"a.exr"}, {}).size(), 1u);
}

TEST(FramesTest, APatternWithoutFramesAndFramesWithoutAPatternAreRefused)
{
    try
    {
        resolveFrames({"a.exr", "s.####.exr"}, {});
        FAIL() << "a pattern without --frames was accepted";
    }
    catch (const HostError& e)
    {
        EXPECT_NE(std::string(e.what()).find("s.####.exr: no such file, nor any frame of it as a pattern (its ####) in "
                                             "its folder"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(resolveFrames({"a.exr"}, {1}), HostError);
}

TEST(FramesTest, FilesNamedWithPlaceholderCharactersAreReadAsNamed)
{
    const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "fftbloom_frames_named";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::vector<std::string> names;
    for (const char* name : {"take#2.exr", "user@host.exr", "shot.%04d.exr", "s.1.exr"})
    {
        names.push_back((dir / name).string());
        std::ofstream(names.back()) << "x";
    }
    const std::vector<FrameInput> plain = resolveFrames({names[0], names[1], names[2]}, {});
    ASSERT_EQ(plain.size(), 3u);
    for (std::size_t i = 0; i < plain.size(); ++i)
    {
        EXPECT_EQ(plain[i].path, names[i]);
        EXPECT_EQ(plain[i].pattern, "");
    }
    // A name no file has is still a pattern.
    const std::vector<FrameInput> frames = resolveFrames({names[0], (dir / "s.#.exr").string()}, {1});
    std::filesystem::remove_all(dir);
    ASSERT_EQ(frames.size(), 2u);
    EXPECT_EQ(frames[0].path, names[0]);
    EXPECT_EQ(frames[1].path, names[3]);
}

TEST(FramesTest, MissingFramesAreOneLinePerPatternInRanges)
{
    const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "fftbloom_frames_missing";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    for (const char* name : {"s.1.exr", "s.2.exr", "s.6.exr", "t.3.exr", "u.1.exr", "u.2.exr"})
        std::ofstream(dir / name) << "x";
    const std::string s = (dir / "s.#.exr").string(), t = (dir / "t.%d.exr").string(), u = (dir / "u.@.exr").string();
    const std::vector<FrameInput> inputs = resolveFrames({s, t, u, (dir / "plain.exr").string()}, {1, 2, 3, 4, 5, 6});
    const std::vector<std::string> lines = missingFrames(inputs);
    std::filesystem::remove_all(dir);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0], s + ": frames 3-5 missing");
    EXPECT_EQ(lines[1], t + ": frames 1-2, 4-6 missing");
    EXPECT_EQ(lines[2], u + ": frames 3-6 missing"); // a missing plain path is not a frame: the batch names it
    EXPECT_EQ(missingFrames({{(dir / "gone.7.exr").string(), "gone.#.exr", 7}}),
              std::vector<std::string>({"gone.#.exr: frame 7 missing"}));
}

TEST(FramesTest, OutputPatternFieldsComeFromTheInputName)
{
    const std::string pattern = "out/{stem}_bloom.{frame}.{ext}|{name}";
    EXPECT_EQ(outputPathFor(pattern, {"/shots/shot.1001.exr"}), "out/shot_bloom.1001.exr|shot.1001");
    EXPECT_EQ(outputPathFor(pattern, {"shot_0042.hdr"}), "out/shot_bloom.0042.hdr|shot_0042");
    EXPECT_EQ(outputPathFor(pattern, {"plate-v2-7.exr"}), "out/plate-v2_bloom.7.exr|plate-v2-7");
    EXPECT_EQ(outputPathFor(pattern, {"0100.exr"}), "out/_bloom.0100.exr|0100");
    EXPECT_EQ(outputPathFor("{stem}.{ext}", {"beauty.exr"}), "beauty.exr");
    EXPECT_EQ(outputPathFor("fixed.exr", {"beauty.exr"}), "fixed.exr");
    EXPECT_THROW(outputPathFor("{stem}.{frame}.exr", {"beauty.exr"}), HostError);
    // {stem} of a name of digits alone is empty: no file to write, said up front naming the input.
    for (const char* digitsPattern : {"{stem}", "out/{stem}"})
        try
        {
            outputPathFor(digitsPattern, {"0001.exr"});
            ADD_FAILURE() << digitsPattern << ": no error";
        }
        catch (const HostError& e)
        {
            EXPECT_EQ(std::string(e.what()).rfind("0001.exr: --output-pattern '", 0), 0u) << e.what();
        }
}

// A frame placeholder in an output's file name is the input's frame number, padded as the placeholder says; one in a
// folder is a folder's name.
TEST(FramesTest, OutputPlaceholdersAreTheInputsFrameNumber)
{
    EXPECT_EQ(outputPathFor("out/{stem}_bloom.####.exr", {"shot.1001.exr"}), "out/shot_bloom.1001.exr");
    EXPECT_EQ(outputPathFor("out/{stem}_bloom.%06d.exr", {"shot.1001.exr"}), "out/shot_bloom.001001.exr");
    EXPECT_EQ(outputPathFor("o.%05d.exr", {"s.-001.exr", "s.####.exr", -1}), "o.-0001.exr");
    EXPECT_EQ(outputPathFor("take#2/{stem}.@@@.exr", {"shot_7.exr"}), "take#2/shot.007.exr");
    EXPECT_THROW(outputPathFor("{stem}.####.exr", {"beauty.exr"}), HostError);
    EXPECT_NE(checkOutputPattern("{stem}.##.#.exr"), "");
    EXPECT_EQ(checkOutputPattern("take#2/{stem}.####.exr"), "");

    EXPECT_EQ(outputPathWithFrame("b/shot_bloom.####.exr", 1001, "shot.1001.exr"), "b/shot_bloom.1001.exr");
    EXPECT_EQ(outputPathWithFrame("b/out.exr", std::nullopt, "in.exr"), "b/out.exr");
    EXPECT_THROW(outputPathWithFrame("b/out.####.exr", std::nullopt, "in.exr"), HostError);
    EXPECT_THROW(outputPathWithFrame("b/out.1-3#.exr", 1, "in.exr"), HostError);
}

TEST(FramesTest, OutputPatternsWithUnknownFieldsOrLoneBracesAreRefused)
{
    EXPECT_EQ(checkOutputPattern("bloomed/{stem}_bloom.{frame}.exr"), "");
    EXPECT_EQ(checkOutputPattern("{name}{ext}{stem}{frame}"), "");
    EXPECT_NE(checkOutputPattern("{stem}.{Frame}.exr").find("unknown field {Frame}"), std::string::npos);
    EXPECT_NE(checkOutputPattern("{}.exr").find("unknown field {}"), std::string::npos);
    EXPECT_NE(checkOutputPattern("{stem.exr").find("a '{' outside a field"), std::string::npos);
    EXPECT_NE(checkOutputPattern("stem}.exr").find("a '}' outside a field"), std::string::npos);
}

// Shards interleave and chunks are contiguous; either way N of them cover a list once, in its order.
TEST(FramesTest, ShardsInterleaveAndChunksAreContiguousRuns)
{
    const std::vector<int> items{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    EXPECT_EQ(shardOf(items, 1, 4), (std::vector<int>{1, 5, 9}));
    EXPECT_EQ(chunkOf(items, 0, 4), (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(chunkOf(items, 1, 4), (std::vector<int>{3, 4, 5}));
    EXPECT_EQ(chunkOf(items, 2, 4), (std::vector<int>{6, 7}));
    EXPECT_EQ(chunkOf(items, 3, 4), (std::vector<int>{8, 9}));
    for (uint32_t count : {1u, 3u, 7u, 10u, 13u})
    {
        std::vector<int> joined;
        for (uint32_t index = 0; index < count; ++index)
        {
            const std::vector<int> chunk = chunkOf(items, index, count);
            joined.insert(joined.end(), chunk.begin(), chunk.end());
        }
        EXPECT_EQ(joined, items) << count << " chunks";
    }
}

/// The message of the HostError `call` throws; "" when it throws none.
template <typename Call> std::string hostError(const Call& call)
{
    try
    {
        call();
    }
    catch (const HostError& e)
    {
        return e.what();
    }
    return "";
}

// A placeholder pads to any width up to 99 digits (%099d, 40 '#'), past it a clear error; a number wider than its
// padding, negative ones included, is written whole.
TEST(FramesTest, PaddingOfAnyWidthAndNumbersPastItAreWrittenWhole)
{
    EXPECT_EQ(framePath(*findFramePattern("out/b.%099d.exr"), 7), "out/b." + std::string(98, '0') + "7.exr");
    EXPECT_EQ(framePath(*findFramePattern("s." + std::string(40, '#') + ".exr"), -7),
              "s.-" + std::string(38, '0') + "7.exr");
    EXPECT_EQ(outputPathFor("o.%099d.exr", {"s.1001.exr"}), "o." + std::string(95, '0') + "1001.exr");
    const std::optional<FramePattern> four = findFramePattern("b.####.exr");
    EXPECT_EQ(framePath(*four, kMaxFrameNumber), "b.999999999.exr");
    EXPECT_EQ(framePath(*four, -kMaxFrameNumber), "b.-999999999.exr");
    EXPECT_EQ(framePath(*findFramePattern("b.%d.exr"), -kMaxFrameNumber), "b.-999999999.exr");
    const std::string wide = "s." + std::string(100, '#') + ".exr";
    EXPECT_NE(hostError([&] { findFramePattern(wide); }).find(wide + ": a frame placeholder of 100 digits"),
              std::string::npos);
    EXPECT_NE(checkOutputPattern("{stem}." + std::string(100, '@') + ".exr").find("at most 99"), std::string::npos);
}

// A name's number is its frame whatever its zero padding, negative after a '.', '_' or '-' (s.-003.exr is -3); a
// number past 999999999 is none (never cut to its last digits), and an output placeholder for it is refused saying so.
TEST(FramesTest, NameNumbersAreWholeSignedAndPaddedToAnyWidth)
{
    EXPECT_EQ(frameNumberIn({"shot.0000001001.exr"}), 1001);
    EXPECT_EQ(frameNumberIn({"s.-003.exr"}), -3);
    EXPECT_EQ(frameNumberIn({"s_-003.exr"}), -3);
    EXPECT_EQ(frameNumberIn({"plate-003.exr"}), 3); // a '-' after a letter separates
    EXPECT_EQ(frameNumberIn({"shot.999999999.exr"}), 999999999);
    EXPECT_EQ(frameNumberIn({"shot.1000000001.exr"}), std::nullopt);
    EXPECT_EQ(frameNumberIn({"shot.2147483647.exr"}), std::nullopt);
    EXPECT_EQ(outputPathFor("{stem}|{frame}|o.####.exr", {"s.-003.exr"}), "s|-003|o.-003.exr");
    EXPECT_EQ(outputPathWithFrame("b.####.exr", frameNumberIn({"s.-001.exr"}), "s.-001.exr"), "b.-001.exr");
    EXPECT_NE(hostError([] { outputPathFor("b.####.exr", {"shot.1000000001.exr"}); }).find("999999999"),
              std::string::npos);
    EXPECT_NE(
        hostError([] { outputPathWithFrame("b.####.exr", std::nullopt, "shot.1000000001.exr"); }).find("999999999"),
        std::string::npos);
}

// Frames on disk padded past nine digits are found; gaps of any length are named whole.
TEST(FramesTest, FramesOnDiskOfAnyPaddingAndGapsOfAnyLengthAreNamed)
{
    const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "fftbloom_frames_wide";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    for (const char* name : {"w.0000001001.exr", "w.0000001002.exr", "g.0000001.exr", "g.3000000.exr"})
        std::ofstream(dir / name) << "x";
    std::vector<int> numbers;
    for (const FrameInput& f : resolveFrames({(dir / "w.##########.exr").string()}, {}))
        numbers.push_back(f.frame);
    EXPECT_EQ(numbers, std::vector<int>({1001, 1002}));
    std::vector<FrameGap> gaps;
    const std::string gapped = (dir / "g.#######.exr").string();
    EXPECT_EQ(resolveFrames({gapped}, {}, &gaps).size(), 2u);
    ASSERT_EQ(gaps.size(), 1u);
    EXPECT_EQ(gaps[0].note(), gapped + ": frames 2-2999999 missing between 1 and 3000000 on disk: not bloomed");
    EXPECT_EQ(gaps[0].count, 2999998);
    std::filesystem::remove_all(dir);
}

// An output's name takes a placeholder, not oiiotool's frame list: refused by --output-pattern and --preview-pattern
// as by -o.
TEST(FramesTest, OutputPatternsWithAFrameListAreRefused)
{
    for (const char* pattern : {"out/{stem}.1001-1003#.exr", "out/s_1-3####.exr", "{name}.5,7@@@@.png"})
        EXPECT_NE(checkOutputPattern(pattern).find("frame list"), std::string::npos) << pattern;
    EXPECT_EQ(checkOutputPattern("out/{stem}.v2-####.exr"), "");
    EXPECT_EQ(checkOutputPattern("out/{stem}_bloom.####.exr"), "");
}

} // namespace
} // namespace fftb
