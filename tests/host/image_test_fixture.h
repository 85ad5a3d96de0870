// SPDX-License-Identifier: MIT
// What the image file tests share: a fixture with a folder of its own, test images, file bytes and error checks.
#pragma once

#include "host_error.h"
#include "image/image_io.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace fftb
{

namespace fs = std::filesystem;

class ImageIoTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir = fs::path(::testing::TempDir()) / (std::string("fftbloom_image_io_") + info->name());
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    void TearDown() override { fs::remove_all(dir); }

    std::string file(const std::string& name) const { return (dir / name).string(); }

    std::set<std::string> listing() const
    {
        std::set<std::string> names;
        for (const auto& entry : fs::directory_iterator(dir))
            names.insert(entry.path().filename().string());
        return names;
    }

    fs::path dir;
};

// Values spread over six decades with both signs, fixed seed, distinct per channel.
inline Image makeImage(int width, int height, const std::vector<std::string>& names, PixelType type)
{
    std::mt19937 random(1234);
    std::uniform_real_distribution<float> decade(-3.0f, 3.0f);
    Image image{width, height, {}};
    for (const auto& name : names)
    {
        Channel channel{name, type, std::vector<float>(std::size_t(width) * std::size_t(height))};
        for (float& v : channel.values)
            v = std::pow(10.0f, decade(random)) * (random() % 4 == 0 ? -1.0f : 1.0f);
        image.channels.push_back(std::move(channel));
    }
    return image;
}

inline std::vector<char> readBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void writeBytes(const std::string& path, const std::vector<char>& bytes)
{
    std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

// Byte offset of the value of the header attribute `name` of type `type`.
inline std::size_t attributeValue(const std::vector<char>& bytes, const std::string& name, const std::string& type)
{
    const std::string key = name + '\0' + type + '\0';
    const auto at = std::search(bytes.begin(), bytes.end(), key.begin(), key.end());
    EXPECT_NE(at, bytes.end()) << "no attribute " << name;
    return std::size_t(at - bytes.begin()) + key.size() + 4; // after the int32 size
}

// Runs `action`, which must throw a HostError naming `path` and containing `reason`.
inline void expectError(const std::function<void()>& action, const std::string& path, const std::string& reason)
{
    try
    {
        action();
        ADD_FAILURE() << "no error; expected \"" << path << ": ..." << reason << "\"";
    }
    catch (const HostError& error)
    {
        const std::string message = error.what();
        EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << "message: " << message;
        EXPECT_NE(message.find(reason), std::string::npos) << "message: " << message;
    }
}

inline const Channel& channel(const Image& image, const std::string& name)
{
    const int index = image.find(name);
    EXPECT_GE(index, 0) << "no channel " << name;
    return image.channels.at(std::size_t(index));
}

} // namespace fftb
