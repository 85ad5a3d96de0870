// SPDX-License-Identifier: MIT
// Files that appear whole or not at all, and no temporary left when the process is interrupted.
#include "host_error.h"
#include "image/atomic_file.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace fftb
{
namespace
{

namespace fs = std::filesystem;

class AtomicFileTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        dir_ = fs::path(::testing::TempDir()) /
               ("fftbloom_atomic_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    std::set<std::string> listing() const
    {
        std::set<std::string> names;
        for (const auto& entry : fs::directory_iterator(dir_))
            names.insert(entry.path().filename().string());
        return names;
    }

    std::string contents(const std::string& name) const
    {
        std::ifstream in(dir_ / name, std::ios::binary);
        return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }

    fs::path dir_;
};

TEST_F(AtomicFileTest, APendingFileReplacesThePreviousOneOnlyWhenCommitted)
{
    const std::string path = (dir_ / "a.txt").string();
    writeFileAtomically(path, "old", 3);
    {
        PendingFile file(path);
        file.write("new", 3);
        EXPECT_EQ(listing().size(), 2u) << "the temporary sits beside the file";
        EXPECT_EQ(contents("a.txt"), "old");
    } // not committed: the temporary goes, the old file stays
    EXPECT_EQ(listing(), std::set<std::string>{"a.txt"});
    EXPECT_EQ(contents("a.txt"), "old");
    PendingFile file(path);
    file.write("new", 3);
    file.commit();
    EXPECT_EQ(listing(), std::set<std::string>{"a.txt"});
    EXPECT_EQ(contents("a.txt"), "new");
    try
    {
        writeFileAtomically((dir_ / "absent" / "b.txt").string(), "x", 1);
        ADD_FAILURE() << "wrote into a missing folder";
    }
    catch (const HostError& e)
    {
        EXPECT_NE(std::string(e.what()).find("absent/b.txt: no such folder"), std::string::npos) << e.what();
    }
}

TEST_F(AtomicFileTest, TerminationSignalsRemoveTheTemporariesInProgressAndEndTheProcess)
{
    // The child forks from a process with threads (the test runner's): the threadsafe style re-executes it.
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    for (const int signal : {SIGINT, SIGTERM, SIGHUP})
    {
        const std::string path = (dir_ / (std::to_string(signal) + ".txt")).string();
        writeFileAtomically(path, "old", 3);
        EXPECT_EXIT(
            {
                removeTemporariesOnTermination();
                PendingFile file(path);
                file.write("new", 3);
                ::kill(::getpid(), signal); // to the process, as kill(1) and a terminal send it
                for (;;)
                    ::pause();
            },
            ::testing::KilledBySignal(signal), "");
        EXPECT_EQ(listing().count(fs::path(path).filename().string()), 1u);
        EXPECT_EQ(listing().size(), 1u) << "a temporary was left behind after signal " << signal;
        EXPECT_EQ(contents(fs::path(path).filename().string()), "old");
        fs::remove(path);
    }
}

} // namespace
} // namespace fftb
