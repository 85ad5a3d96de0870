// SPDX-License-Identifier: MIT
// The fixture of the CLI tests: runs the fftbloom binary the build made, in a fresh folder per test.
#pragma once

#include "image/image_io.h"

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <set>

namespace fs = std::filesystem;

namespace fftb
{

struct CliResult
{
    int code = -1;
    std::string out;
    std::string err;
};

inline std::string readBytes(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void writeBytes(const fs::path& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

/// Single-quoted for /bin/sh; the temp dir may hold spaces.
inline std::string quote(const fs::path& path)
{
    std::string quoted = "'";
    for (const char c : path.string())
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

/// Positive values with a fixed seed and one bright texel, so the bloom has something to spread.
inline Image makeImage(int width, int height, const std::vector<std::string>& names, PixelType type)
{
    std::mt19937 random(42);
    std::uniform_real_distribution<float> value(0.0f, 2.0f);
    Image image{width, height, {}};
    for (const auto& name : names)
    {
        Channel channel{name, type, std::vector<float>(std::size_t(width) * std::size_t(height))};
        for (float& v : channel.values)
            v = value(random);
        channel.values[std::size_t(width) + 3] = 50.0f;
        image.channels.push_back(std::move(channel));
    }
    return image;
}

inline const Channel& channel(const Image& image, const std::string& name)
{
    const int index = image.find(name);
    EXPECT_GE(index, 0) << "no channel " << name;
    return image.channels.at(std::size_t(index));
}

class CliTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
        dir = fs::path(::testing::TempDir()) / ("fftbloom_cli_" + name);
        // Captured streams live beside the folder so that its listing shows only what the CLI wrote.
        streams = fs::path(::testing::TempDir()) / ("fftbloom_cli_" + name + "_");
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    void TearDown() override
    {
        fs::remove_all(dir);
        fs::remove(streams.string() + "out");
        fs::remove(streams.string() + "err");
    }

    fs::path file(const std::string& name) const { return dir / name; }

    std::set<std::string> listing() const
    {
        std::set<std::string> names;
        for (const auto& entry : fs::directory_iterator(dir))
            names.insert(entry.path().filename().string());
        return names;
    }

    /// Runs the CLI with validation on, so that any validation message fails the run too.
    CliResult run(const std::string& args) const
    {
        const std::string out = streams.string() + "out";
        const std::string err = streams.string() + "err";
        const std::string command =
            quote(FFTBLOOM_CLI_PATH) + " --validate " + args + " >" + quote(out) + " 2>" + quote(err);
        const int status = std::system(command.c_str());
        CliResult result;
        result.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        result.out = readBytes(out);
        result.err = readBytes(err);
        return result;
    }

    /// Small kernel: lavapipe runs the FFTs on the CPU.
    CliResult bloom(const fs::path& input, const fs::path& output, const std::string& extra = "") const
    {
        return run(quote(input) + " -o " + quote(output) + " --kernel-size 8 " + extra);
    }

    /// The run failed with one stderr line holding `names` and `reason`, and left the folder as it was.
    void expectRefused(const CliResult& r, const std::set<std::string>& before, const std::string& names,
                       const std::string& reason) const
    {
        EXPECT_NE(r.code, 0) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "stderr:\n" << r.err;
        EXPECT_TRUE(!r.err.empty() && r.err.back() == '\n') << "stderr:\n" << r.err;
        EXPECT_NE(r.err.find(names), std::string::npos) << "stderr does not name " << names << ": " << r.err;
        EXPECT_NE(r.err.find(reason), std::string::npos) << "stderr lacks \"" << reason << "\": " << r.err;
        EXPECT_FALSE(fs::exists(file("out.exr")));
        EXPECT_EQ(listing(), before) << "the CLI left files behind";
    }

    /// A valid 24x16 RGB input in the test folder.
    fs::path writeInput(const std::string& name = "in.exr", PixelType type = PixelType::Half) const
    {
        writeExr(file(name).string(), makeImage(24, 16, {"R", "G", "B"}, type));
        return file(name);
    }

    fs::path dir;
    fs::path streams;
};

} // namespace fftb
