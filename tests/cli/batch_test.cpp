// SPDX-License-Identifier: MIT
// The fftbloom binary on many frames: naming, skipping, shards, resuming after a kill, bad frames, scrubbing, the
// report, and what an output keeps of its input.
#include "cli_fixture.h"

#include <nlohmann/json.hpp>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <thread>
#include <tuple>

namespace fftb
{
namespace
{

/// "<prefix><i><suffix>", e.g. f3.exr (formatted, as "literal" + std::string trips GCC 12's -Wrestrict).
std::string numbered(const char* prefix, int i, const char* suffix)
{
    char name[64];
    std::snprintf(name, sizeof name, "%s%d%s", prefix, i, suffix);
    return name;
}

class BatchTest : public CliTest
{
  protected:
    /// `count` inputs f0.exr, f1.exr, ... of different extents (half R, G, B and float A) in the test folder.
    std::vector<fs::path> writeInputs(int count, int size = 24) const
    {
        std::vector<fs::path> paths;
        for (int i = 0; i < count; ++i)
        {
            Image image = makeImage(size + 3 * i, size - 2 * i, {"R", "G", "B"}, PixelType::Half);
            Image alpha = makeImage(image.width, image.height, {"A"}, PixelType::Float);
            image.channels.push_back(std::move(alpha.channels[0]));
            paths.push_back(file(numbered("f", i, ".exr")));
            writeExr(paths.back().string(), image);
        }
        return paths;
    }

    static std::string quoted(const std::vector<fs::path>& paths)
    {
        std::string text;
        for (const fs::path& path : paths)
            text += quote(path) + " ";
        return text;
    }

    CliResult batch(const std::vector<fs::path>& inputs, const fs::path& outDir, const std::string& extra = "") const
    {
        return run(quoted(inputs) + "--out-dir " + quote(outDir) + " --kernel-size 8 " + extra);
    }

    /// The --report file's JSON lines as {"runs": [{"run": ..., "frames": [...], "totals": ...}, ...]} and, at the top,
    /// the last run's "frames" and "totals" (its summary line without "type"). Every line must be whole JSON with a
    /// known type, in the order run, frames, summary.
    static nlohmann::json readReport(const fs::path& path)
    {
        nlohmann::json report{{"runs", nlohmann::json::array()}};
        std::istringstream lines(readBytes(path));
        for (std::string line; std::getline(lines, line);)
        {
            nlohmann::json entry = nlohmann::json::parse(line);
            const std::string type = entry.at("type");
            entry.erase("type");
            nlohmann::json& runs = report["runs"];
            if (type == "run")
                runs.push_back({{"run", entry}, {"frames", nlohmann::json::array()}});
            else if (type == "frame" && !runs.empty() && !runs.back().contains("totals"))
                runs.back()["frames"].push_back(entry);
            else if (type == "summary" && !runs.empty() && !runs.back().contains("totals"))
                runs.back()["totals"] = entry;
            else
                ADD_FAILURE() << path << ": a " << type << " line out of order: " << line;
        }
        if (!report["runs"].empty())
        {
            // The lines come as frames end; their "index" gives the list's order.
            nlohmann::json frames = report["runs"].back()["frames"];
            std::sort(frames.begin(), frames.end(),
                      [](const nlohmann::json& a, const nlohmann::json& b) { return a["index"] < b["index"]; });
            report["frames"] = frames;
            if (report["runs"].back().contains("totals"))
                report["totals"] = report["runs"].back()["totals"];
        }
        return report;
    }
};

TEST_F(BatchTest, MixedSizesAreAllWrittenAndReported)
{
    const std::vector<fs::path> inputs = writeInputs(3);
    fs::create_directory(file("out"));
    const CliResult r = batch(inputs, file("out"), "--suffix _bloom --report " + quote(file("report.json")));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const nlohmann::json report = readReport(file("report.json"));
    ASSERT_EQ(report["frames"].size(), 3u);
    for (int i = 0; i < 3; ++i)
    {
        const Image in = readImage(inputs[std::size_t(i)].string());
        const fs::path output = file("out") / numbered("f", i, "_bloom.exr");
        const Image out = readImage(output.string());
        EXPECT_EQ(out.width, in.width);
        EXPECT_EQ(out.height, in.height);
        // Alpha is float: any change to its bits would show.
        EXPECT_EQ(std::memcmp(channel(out, "A").values.data(), channel(in, "A").values.data(),
                              in.channels[0].values.size() * sizeof(float)),
                  0)
            << "alpha of " << output << " is not bit-exact";
        EXPECT_NE(channel(out, "R").values, channel(in, "R").values) << "R of " << output << " was not bloomed";
        const nlohmann::json& frame = report["frames"][std::size_t(i)];
        EXPECT_EQ(frame["input"], inputs[std::size_t(i)].string());
        EXPECT_EQ(frame["output"], output.string());
        EXPECT_EQ(frame["status"], "ok");
        EXPECT_EQ(frame["width"], in.width);
        EXPECT_EQ(frame["height"], in.height);
    }
    EXPECT_EQ(report["totals"]["ok"], 3);
    EXPECT_EQ(report["totals"]["failed"], 0);
}

TEST_F(BatchTest, KernelExtentIsInTheReportAndTheVerboseLine)
{
    const std::vector<fs::path> inputs = writeInputs(2, 30); // 30 x 30 and 33 x 28
    fs::create_directory(file("out"));
    const CliResult r =
        batch(inputs, file("out"), "-v --kernel-span 0.25diag --padding mirror --report " + quote(file("r.json")));
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json report = readReport(file("r.json"));
    ASSERT_EQ(report["frames"].size(), 2u);
    for (int i = 0; i < 2; ++i)
    {
        const nlohmann::json& frame = report["frames"][std::size_t(i)];
        const int w = frame["width"], h = frame["height"];
        // The 8 x 8 kernel's side spans a quarter of the diagonal: sigma = span / 8.
        const double span = double(0.25f) * std::sqrt(double(w * w + h * h));
        EXPECT_NEAR(frame["kernelScale"].get<double>(), span / 8.0, 1e-12);
        const int extent = int(std::ceil(span));
        EXPECT_EQ(frame["kernelExtent"], nlohmann::json::array({extent, extent}));
        // Mirror padding: at least L + K' - 1 per axis for the scaled extent K'.
        EXPECT_GE(frame["fft"][0].get<int>(), w + extent - 1);
        EXPECT_GE(frame["fft"][1].get<int>(), h + extent - 1);
        const std::string line = numbered("kernel ", extent, "x");
        EXPECT_NE(r.out.find(line), std::string::npos) << line << " missing from:\n" << r.out;
    }
}

TEST_F(BatchTest, CorruptFrameInTheMiddleFailsAloneWithExitCode1)
{
    const std::vector<fs::path> inputs = writeInputs(3);
    const std::string bytes = readBytes(inputs[1]);
    writeBytes(inputs[1], bytes.substr(0, bytes.size() / 2));
    fs::create_directory(file("out"));
    const CliResult r = batch(inputs, file("out"), "--report " + quote(file("report.json")));
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(inputs[1].string() + ": corrupt or truncated"), std::string::npos) << r.err;
    EXPECT_TRUE(fs::exists(file("out") / "f0.exr"));
    EXPECT_FALSE(fs::exists(file("out") / "f1.exr"));
    EXPECT_TRUE(fs::exists(file("out") / "f2.exr"));
    const nlohmann::json report = readReport(file("report.json"));
    EXPECT_EQ(report["frames"][1]["status"], "failed");
    EXPECT_NE(report["frames"][1]["error"].get<std::string>().find("truncated"), std::string::npos);
    EXPECT_EQ(report["totals"]["failed"], 1);
    EXPECT_EQ(report["totals"]["ok"], 2);
}

TEST_F(BatchTest, DeviceLostMidBatchExitsWith3AndLeavesNoPartialOutput)
{
    const std::vector<fs::path> inputs = writeInputs(5);
    fs::create_directory(file("out"));
    // The test hook of docs/reliability.md: waits on the GPU after the third report VK_ERROR_DEVICE_LOST.
    ASSERT_EQ(setenv("FFTBLOOM_TEST_LOSE_DEVICE_AFTER", "3", 1), 0);
    const CliResult r = batch(inputs, file("out"), "--report " + quote(file("report.json")));
    unsetenv("FFTBLOOM_TEST_LOSE_DEVICE_AFTER");
    EXPECT_EQ(r.code, 3) << r.err;
    EXPECT_NE(r.err.find("vkWaitForFences failed with VkResult -4"), std::string::npos) << r.err;
    // Frames collected before the loss are written whole; the others are reported failed and not written at all.
    const nlohmann::json report = readReport(file("report.json"));
    int ok = 0, failed = 0;
    for (int i = 0; i < 5; ++i)
    {
        const nlohmann::json& frame = report["frames"][size_t(i)];
        const fs::path output = file("out") / numbered("f", i, ".exr");
        if (frame["status"] == "ok")
        {
            ++ok;
            EXPECT_NO_THROW(readImage(output.string())) << output;
        }
        else
        {
            ++failed;
            EXPECT_EQ(frame["status"], "failed");
            EXPECT_FALSE(fs::exists(output)) << output;
            EXPECT_NE(frame["error"].get<std::string>().find("VkResult -4"), std::string::npos) << frame["error"];
        }
    }
    EXPECT_GE(ok, 1) << "the loss comes after some frames";
    EXPECT_GE(failed, 1);
    EXPECT_EQ(report["totals"]["failed"], failed);
    for (const fs::directory_entry& entry : fs::directory_iterator(file("out")))
        EXPECT_EQ(entry.path().extension(), ".exr") << "left behind: " << entry.path();
}

TEST_F(BatchTest, ExistingOutputsAreSkippedUnlessOverwrite)
{
    const std::vector<fs::path> inputs = writeInputs(2);
    fs::create_directory(file("out"));
    writeBytes(file("out") / "f1.exr", "an earlier output");
    CliResult r = batch(inputs, file("out"), "--report " + quote(file("report.json")));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(readBytes(file("out") / "f1.exr"), "an earlier output");
    nlohmann::json report = readReport(file("report.json"));
    EXPECT_EQ(report["frames"][0]["status"], "ok");
    EXPECT_EQ(report["frames"][1]["status"], "skipped");
    EXPECT_NE(r.out.find("skipped"), std::string::npos) << r.out;

    r = batch(inputs, file("out"), "--overwrite --report " + quote(file("report.json")));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(readImage((file("out") / "f1.exr").string()).width, 27);
    report = readReport(file("report.json"));
    EXPECT_EQ(report["totals"]["ok"], 2);
}

TEST_F(BatchTest, ShardsCoverTheBatchExactlyOnce)
{
    const std::vector<fs::path> inputs = writeInputs(5, 20);
    fs::create_directory(file("out"));
    std::multiset<std::string> written;
    for (int shard = 0; shard < 3; ++shard)
    {
        const fs::path report = file(numbered("shard", shard, ".json"));
        const CliResult r =
            batch(inputs, file("out"), "--shard " + numbered("", shard, "/3") + " --report " + quote(report));
        ASSERT_EQ(r.code, 0) << r.err;
        const nlohmann::json frames = readReport(report)["frames"];
        for (const nlohmann::json& frame : frames)
        {
            EXPECT_EQ(frame["status"], "ok") << frame.dump();
            written.insert(frame["input"].get<std::string>());
        }
    }
    std::multiset<std::string> all;
    for (const fs::path& input : inputs)
        all.insert(input.string());
    EXPECT_EQ(written, all);
    for (int i = 0; i < 5; ++i)
        EXPECT_TRUE(fs::exists(file("out") / numbered("f", i, ".exr"))) << i;
}

// Two frames named to one output are refused in every shard and chunk, each of which holds one of them: the check
// runs over the whole list before it is split, so no task writes the name the other would.
TEST_F(BatchTest, ShardsAndChunksRefuseACollisionOfTheWholeList)
{
    const std::vector<fs::path> inputs = writeInputs(1);
    fs::copy_file(inputs[0], file("shot.0001.exr"));
    fs::copy_file(inputs[0], file("shot.0002.exr"));
    fs::create_directories(file("a"));
    fs::create_directories(file("b"));
    fs::copy_file(inputs[0], file("a") / "x.exr");
    fs::copy_file(inputs[0], file("b") / "x.exr");
    fs::create_directory(file("out"));
    const auto before = listing();
    for (const char* task : {"--shard 0/2", "--shard 1/2", "--chunk 0/2", "--chunk 1/2"})
    {
        const CliResult pattern = run(quote(file("shot.####.exr")) + " --frames 1-2 --output-pattern " +
                                      quote(file("out/{stem}.exr")) + " --kernel-size 8 " + task);
        EXPECT_EQ(pattern.code, 2) << task;
        EXPECT_NE(pattern.err.find("shot.0002.exr: would be written to"), std::string::npos) << task << pattern.err;
        const CliResult folders = batch({file("a") / "x.exr", file("b") / "x.exr"}, file("out"), task);
        EXPECT_EQ(folders.code, 2) << task;
        EXPECT_NE(folders.err.find("x.exr: would be written to"), std::string::npos) << task << folders.err;
    }
    EXPECT_EQ(listing(), before);
}

// --shard slurm: I = (SLURM_ARRAY_TASK_ID - _MIN) / _STEP of N = _COUNT, for an array --array=3-7:2 (tasks 3, 5, 7);
// outside a job array, or with a task ID the array cannot have, a usage error naming the variable.
TEST_F(BatchTest, SlurmShardsAreTheTasksOfTheJobArray)
{
    const std::vector<fs::path> inputs = writeInputs(5, 20);
    fs::create_directory(file("out"));
    const auto setArray = [](const char* id)
    {
        setenv("SLURM_ARRAY_TASK_ID", id, 1);
        setenv("SLURM_ARRAY_TASK_MIN", "3", 1);
        setenv("SLURM_ARRAY_TASK_STEP", "2", 1);
        setenv("SLURM_ARRAY_TASK_COUNT", "3", 1);
    };
    std::multiset<std::string> written;
    for (const char* id : {"3", "5", "7"})
    {
        setArray(id);
        const fs::path report = file(std::string("slurm") + id + ".json");
        const CliResult r = batch(inputs, file("out"), "--shard slurm --report " + quote(report));
        ASSERT_EQ(r.code, 0) << r.err;
        const nlohmann::json frames = readReport(report)["frames"];
        for (const nlohmann::json& frame : frames)
            written.insert(frame["input"].get<std::string>());
        // Task 5 is shard 1 of 3: frames 1 and 4.
        if (std::string(id) == "5")
        {
            EXPECT_EQ(frames.size(), 2u);
        }
    }
    std::multiset<std::string> all;
    for (const fs::path& input : inputs)
        all.insert(input.string());
    EXPECT_EQ(written, all);
    for (const char* id : {"4", "9", "x"})
    {
        setArray(id);
        const CliResult r = batch(inputs, file("out"), "--shard slurm");
        EXPECT_EQ(r.code, 2) << id;
        EXPECT_NE(r.err.find("SLURM_ARRAY_TASK_ID"), std::string::npos) << r.err;
    }
    for (const char* name :
         {"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_STEP", "SLURM_ARRAY_TASK_COUNT"})
        unsetenv(name);
    const CliResult r = batch(inputs, file("out"), "--shard slurm");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("SLURM_ARRAY_TASK_ID is not set"), std::string::npos) << r.err;
}

// --chunk I/N: the I-th contiguous run of the list; --shard and --chunk together are a usage error.
TEST_F(BatchTest, ChunksAreContiguousRunsOfTheList)
{
    const std::vector<fs::path> inputs = writeInputs(5, 20);
    fs::create_directory(file("out"));
    for (const auto& [chunk, expected] :
         {std::pair{"0/2", std::vector<int>{0, 1, 2}}, std::pair{"1/2", std::vector<int>{3, 4}}})
    {
        const fs::path report = file(std::string("chunk") + chunk[0] + ".jsonl");
        const CliResult r = batch(inputs, file("out"), std::string("--chunk ") + chunk + " --report " + quote(report));
        ASSERT_EQ(r.code, 0) << r.err;
        std::vector<int> written;
        const nlohmann::json frames = readReport(report)["frames"];
        for (const nlohmann::json& frame : frames)
            for (int i = 0; i < 5; ++i)
                if (frame["input"] == inputs[std::size_t(i)].string())
                    written.push_back(i);
        EXPECT_EQ(written, expected) << chunk;
    }
    const CliResult r = batch(inputs, file("out"), "--chunk 0/2 --shard 0/2");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--chunk"), std::string::npos) << r.err;
}

TEST_F(BatchTest, KilledRunResumesWithTheSameCommand)
{
    // Frames large enough that lavapipe takes a while over all of them, so the kill lands mid-batch.
    constexpr int kFrames = 12;
    std::vector<fs::path> inputs;
    for (int i = 0; i < kFrames; ++i)
    {
        inputs.push_back(file(numbered("k", i, ".exr")));
        writeExr(inputs.back().string(), makeImage(320, 240, {"R", "G", "B"}, PixelType::Half));
    }
    fs::create_directory(file("out"));
    fs::create_directory(file("whole"));
    const std::string args = quoted(inputs) + "--kernel-size 64 --threads 1 --out-dir ";

    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0)
    {
        const std::string command =
            quote(FFTBLOOM_CLI_PATH) + " " + args + quote(file("out")) + " -q --report " + quote(file("report.json"));
        ::execl("/bin/sh", "sh", "-c", ("exec " + command).c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!fs::exists(file("out") / "k0.exr") && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the run finished before it could be killed";

    int complete = 0;
    for (int i = 0; i < kFrames; ++i)
    {
        const fs::path output = file("out") / numbered("k", i, ".exr");
        if (!fs::exists(output))
            continue;
        ++complete;
        EXPECT_NO_THROW(readImage(output.string())) << output << " is under its final name but not complete";
    }
    EXPECT_GE(complete, 1);
    EXPECT_LT(complete, kFrames) << "every frame was done before the kill";

    // The killed run's report keeps a line per frame it finished, each output complete, and no summary.
    nlohmann::json report = readReport(file("report.json"));
    ASSERT_EQ(report["runs"].size(), 1u);
    EXPECT_FALSE(report["runs"][0].contains("totals"));
    int reported = 0;
    for (const nlohmann::json& frame : report["runs"][0]["frames"])
    {
        EXPECT_EQ(frame["status"], "ok");
        EXPECT_TRUE(fs::exists(frame["output"].get<std::string>())) << frame.dump();
        ++reported;
    }
    EXPECT_LE(reported, complete);

    const CliResult resumed = run(args + quote(file("out")) + " --report " + quote(file("report.json")));
    ASSERT_EQ(resumed.code, 0) << resumed.err;
    report = readReport(file("report.json"));
    ASSERT_EQ(report["runs"].size(), 2u) << "the resumed run appends to the report";
    EXPECT_EQ(report["runs"][0]["frames"].size(), std::size_t(reported)) << "the killed run's lines are kept";
    EXPECT_EQ(report["totals"]["skipped"], complete);
    EXPECT_EQ(report["totals"]["ok"], kFrames - complete);
    EXPECT_EQ(report["frames"].size(), std::size_t(kFrames));
    const CliResult whole = run(args + quote(file("whole")));
    ASSERT_EQ(whole.code, 0) << whole.err;
    for (int i = 0; i < kFrames; ++i)
    {
        const std::string name = numbered("k", i, ".exr");
        EXPECT_EQ(readImage((file("out") / name).string()).channels[0].values,
                  readImage((file("whole") / name).string()).channels[0].values)
            << name << " differs from an uninterrupted run";
    }
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(file("out")))
        names.insert(entry.path().filename().string());
    EXPECT_EQ(names.size(), std::size_t(kFrames)) << "temporary files of the killed run were left behind";
}

TEST_F(BatchTest, TerminationSignalsLeaveNoTemporaryFiles)
{
    // As the killed run above, but with the signals a user or a farm sends (Ctrl-C, a job's time limit, a closed
    // terminal): the temporaries in progress are removed and the process still ends by the signal.
    constexpr int kFrames = 12;
    std::vector<fs::path> inputs;
    for (int i = 0; i < kFrames; ++i)
    {
        inputs.push_back(file(numbered("t", i, ".exr")));
        writeExr(inputs.back().string(), makeImage(320, 240, {"R", "G", "B"}, PixelType::Half));
    }
    for (const int signal : {SIGTERM, SIGINT})
    {
        const fs::path out = file(numbered("out", signal, ""));
        fs::create_directory(out);
        const pid_t child = ::fork();
        ASSERT_GE(child, 0);
        if (child == 0)
        {
            const std::string command = quote(FFTBLOOM_CLI_PATH) + " " + quoted(inputs) +
                                        "--kernel-size 64 --out-dir " + quote(out) + " -q --report " +
                                        quote(file(numbered("report", signal, ".jsonl")));
            ::execl("/bin/sh", "sh", "-c", ("exec " + command).c_str(), static_cast<char*>(nullptr));
            ::_exit(127);
        }
        // Signal while a temporary exists if the poll sees one, else once the first output is complete.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
        const auto temporaries = [&]
        {
            int count = 0;
            std::error_code ec;
            for (fs::directory_iterator it(out, ec), end; !ec && it != end; it.increment(ec))
                count += it->path().filename().string().find(".tmp-") != std::string::npos;
            return count;
        };
        while (temporaries() == 0 && !fs::exists(out / "t0.exr") && std::chrono::steady_clock::now() < deadline)
        {
        }
        ::kill(child, signal);
        int status = 0;
        ::waitpid(child, &status, 0);
        ASSERT_TRUE(WIFSIGNALED(status)) << "the run finished before the signal, or exited " << WEXITSTATUS(status);
        EXPECT_EQ(WTERMSIG(status), signal) << "it does not end as the signal would have";
        EXPECT_EQ(temporaries(), 0) << "temporary files were left behind after signal " << signal;
        int complete = 0;
        for (const auto& entry : fs::directory_iterator(out))
        {
            EXPECT_NO_THROW(readImage(entry.path().string())) << entry.path() << " is not complete";
            ++complete;
        }
        EXPECT_LT(complete, kFrames) << "every frame was done before the signal";
        // The report ends with the summary of the frames that ended, stopped by the signal.
        const nlohmann::json report = readReport(file(numbered("report", signal, ".jsonl")));
        ASSERT_TRUE(report.contains("totals"));
        const nlohmann::json& totals = report["totals"];
        EXPECT_EQ(totals["stoppedBy"], signal == SIGTERM ? "SIGTERM" : "SIGINT");
        EXPECT_EQ(totals["frames"], kFrames);
        EXPECT_EQ(totals["ok"].get<int>() + totals["failed"].get<int>() + totals["skipped"].get<int>() +
                      totals["unfinished"].get<int>(),
                  kFrames);
        EXPECT_EQ(totals["ok"].get<std::size_t>(), report["frames"].size());
    }
}

TEST_F(BatchTest, SettingsRefusedForEveryFrameAndMissingFoldersStopTheRunBeforeAnyFrameIsRead)
{
    // The first input is no image: had any frame been read, its error (exit 1) would come instead.
    writeBytes(file("a-not-an-image.exr"), "not an image");
    const std::vector<fs::path> inputs = {file("a-not-an-image.exr"), writeInputs(1)[0]};
    fs::create_directory(file("out"));
    const auto before = listing();
    const std::string out = " --out-dir " + quote(file("out"));
    const struct
    {
        std::string args;
        std::string message;
    } cases[] = {
        {quoted(inputs) + "--out-dir " + quote(file("absent")), "no such folder " + file("absent").string()},
        {quoted({inputs[0]}) + "-o " + quote(file("absent") / "x.exr"), "no such folder"},
        {quoted({inputs[0]}) + "-o " + quote(file("x.exr")) + " --preview " + quote(file("absent") / "x.png"),
         "no such folder"},
        {quoted(inputs) + out + " --report " + quote(file("absent") / "report.json"), "no such folder"},
        {quoted(inputs) + out + " --report " + quote(file("a-not-an-image.exr") / "report.json"), "no such folder"},
        // lavapipe's maxStorageBufferRange is 128 MiB: a 4096-texel kernel's buffers do not fit in it.
        {quoted(inputs) + out + " --kernel-size 4096", "maxStorageBufferRange of"},
        {quoted(inputs) + out + " --kernel-size 8 --kernel-span 4096px", "maxStorageBufferRange of"},
    };
    for (const auto& c : cases)
    {
        const CliResult r = run(c.args);
        EXPECT_EQ(r.code, 2) << c.args << "\n" << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << c.args << "\n" << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
        EXPECT_EQ(r.err.find("not an OpenEXR"), std::string::npos) << "a frame was read: " << r.err;
        EXPECT_EQ(listing(), before) << c.args;
        EXPECT_TRUE(fs::is_empty(file("out"))) << c.args;
    }
}

TEST_F(BatchTest, NanInfNegativeAndHugePixelsAreScrubbedAndCounted)
{
    Image image = makeImage(24, 16, {"R", "G", "B"}, PixelType::Float);
    std::vector<float>& red = image.channels[std::size_t(image.find("R"))].values;
    red[10] = std::numeric_limits<float>::quiet_NaN();
    red[11] = std::numeric_limits<float>::infinity();
    red[12] = -std::numeric_limits<float>::infinity();
    red[13] = -5.0f;
    red[14] = 1e30f;
    writeExr(file("in.exr").string(), image);
    fs::create_directory(file("out"));

    // Intensity 0: the composite is the unbloomed input, so what the scrubbing keeps shows exactly.
    CliResult r = batch({file("in.exr")}, file("out"), "--intensity 0 --report " + quote(file("report.json")));
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json scrubbed = readReport(file("report.json"))["frames"][0]["scrubbed"];
    EXPECT_EQ(scrubbed["nan"], 1);
    EXPECT_EQ(scrubbed["negative"], 2);
    EXPECT_EQ(scrubbed["clamped"], 2);
    // Said once for the run, not on each frame's line (-v does that).
    EXPECT_EQ(r.out.find("[scrubbed"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("fftbloom: 1 frames had values scrubbed before the bloom: 1 NaN, 2 negative, 2 above --clamp"),
              std::string::npos)
        << r.out;
    std::vector<float> expected = red;
    expected[10] = 0.0f;     // NaN
    expected[11] = 65504.0f; // +Inf: the default clamp
    expected[12] = 0.0f;     // -Inf
    EXPECT_EQ(channel(readImage((file("out") / "in.exr").string()), "R").values, expected);

    // The bloom alone: one NaN or Inf through the FFT would make every texel NaN.
    r = batch({file("in.exr")}, file("out"), "--overwrite --output bloom --clamp 100");
    ASSERT_EQ(r.code, 0) << r.err;
    const Image out = readImage((file("out") / "in.exr").string());
    for (const Channel& c : out.channels)
        for (const float v : c.values)
            ASSERT_TRUE(std::isfinite(v) && v >= -1e-3f) << "channel " << c.name << " holds " << v;
}

// A lossy codec re-encodes the channels beside R, G, B in the part bloomed: said once for the run and in the report;
// --compression zip writes them exactly as they were read.
TEST_F(BatchTest, ChannelsBesideTheColourInALossyPartAreSaidToChangeAndCompressionKeepsThemExact)
{
    Image image = makeImage(48, 32, {"B", "G", "R", "diffuse.B", "diffuse.G", "diffuse.R"}, PixelType::Half);
    image.layout.compression = Compression::Dwaa;
    writeExr(file("in.exr").string(), image);
    const Image in = readImage(file("in.exr").string());
    fs::create_directory(file("out"));
    CliResult r = batch({file("in.exr")}, file("out"), "--report " + quote(file("report.json")));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("fftbloom: 1 frames: the channels beside R, G, B in the part bloomed were re-encoded"),
              std::string::npos)
        << r.out;
    const nlohmann::json report = readReport(file("report.json"));
    EXPECT_EQ(report["frames"][0]["lossyReencoded"], true);
    EXPECT_EQ(report["totals"]["lossyReencoded"], 1);
    EXPECT_EQ(readImage((file("out") / "in.exr").string()).layout.compression, Compression::Dwaa);

    r = batch({file("in.exr")}, file("out"), "--overwrite --compression zip");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out.find("re-encoded"), std::string::npos) << r.out;
    const Image out = readImage((file("out") / "in.exr").string());
    EXPECT_EQ(out.layout.compression, Compression::Zip);
    for (const char* name : {"diffuse.R", "diffuse.G", "diffuse.B"})
        EXPECT_EQ(channel(out, name).values, channel(in, name).values) << name;
    EXPECT_NE(channel(out, "R").values, channel(in, "R").values) << "nothing bloomed";
    r = batch({file("in.exr")}, file("out"), "--overwrite --compression zip2");
    EXPECT_EQ(r.code, 2);
}

// The lossy note is decided per codec and channel type, as OpenEXR's codecs are: B44 and B44A lose only HALF channels
// (FLOAT ones are stored exactly), PXR24 only FLOAT ones (HALF kept exact), DWAA and DWAB only HALF and FLOAT channels
// their rules name as colour (R, G, B, Y, BY, RY, layered: diffuse.R); alpha and depth pass exactly. Where no note is
// given, the channel beside the colour is written exactly as it was read.
TEST_F(BatchTest, TheLossyNoteIsDecidedPerCodecAndChannelType)
{
    const struct
    {
        const char* compression;
        std::vector<std::tuple<PixelType, const char*, bool>> frames; // type, the channel beside, lossy
    } runs[] = {
        {"b44", {{PixelType::Float, "Z", false}, {PixelType::Half, "Z", true}}},
        {"pxr24", {{PixelType::Half, "Z", false}, {PixelType::Float, "Z", true}}},
        {"dwaa",
         {{PixelType::Half, "Z", false}, {PixelType::Float, "depth.Z", false}, {PixelType::Half, "diffuse.R", true}}}};
    fs::create_directory(file("out"));
    for (const auto& run : runs)
    {
        std::vector<fs::path> inputs;
        for (const auto& [type, beside, lossy] : run.frames)
        {
            inputs.push_back(file("in" + std::to_string(inputs.size()) + ".exr"));
            writeExr(inputs.back().string(), makeImage(16, 8, {"B", "G", "R", "A", beside}, type));
        }
        const fs::path report = file(std::string(run.compression) + ".json");
        const CliResult r =
            batch(inputs, file("out"),
                  "--overwrite --compression " + std::string(run.compression) + " --report " + quote(report));
        ASSERT_EQ(r.code, 0) << r.err;
        const nlohmann::json frames = readReport(report)["frames"];
        for (std::size_t i = 0; i < inputs.size(); ++i)
        {
            const auto& [type, beside, lossy] = run.frames[i];
            SCOPED_TRACE(std::string(run.compression) + " " + beside);
            EXPECT_EQ(frames[i].contains("lossyReencoded"), lossy) << frames[i].dump();
            if (lossy)
                continue;
            const Image in = readImage(inputs[i].string());
            const Image out = readImage((file("out") / inputs[i].filename()).string());
            for (const char* name : {beside, "A"})
                EXPECT_EQ(channel(out, name).values, channel(in, name).values) << name;
        }
    }
}

// --expand-data-window at OpenEXR's limits: the grown window is clipped to +-(2^30 - 1); a kernel whose extent on the
// frame is past FFTB_MAX_KERNEL_LENGTH is refused naming that limit before the window grows (not "not enough
// memory"); --expand-limit display grows no window lying outside the display window.
TEST_F(BatchTest, ExpandDataWindowStopsAtOpenExrsLimitAndTheDisplayWindow)
{
    constexpr int kLimit = (1 << 30) - 2; // OpenEXR's data windows lie strictly inside +-(2^30 - 1)
    const auto bloomed = [&](const Box2i& window, const std::string& options)
    {
        Image crop = makeImage(16, 12, {"B", "G", "R"}, PixelType::Float);
        crop.layout.dataWindow = window;
        crop.layout.displayWindow = {0, 0, 47, 31};
        writeExr(file("crop.exr").string(), crop);
        const CliResult r =
            run(quote(file("crop.exr")) + " -o " + quote(file("out.exr")) +
                " --overwrite --kernel-size 16 --kernel-span native --glare-reach 0 --expand-data-window" + options);
        EXPECT_EQ(r.code, 0) << r.err;
        const Box2i& w = readImage(file("out.exr").string()).layout.dataWindow;
        return std::vector<int>{w.minX, w.minY, w.maxX, w.maxY};
    };
    // A 16-texel kernel at native extent reaches 9 pixels.
    EXPECT_EQ(bloomed({kLimit - 15, 6, kLimit, 17}, ""), std::vector<int>({kLimit - 24, -3, kLimit, 26}));
    EXPECT_EQ(bloomed({-kLimit, 6, -kLimit + 15, 17}, ""), std::vector<int>({-kLimit, -3, -kLimit + 24, 26}));
    EXPECT_EQ(bloomed({60, 6, 75, 17}, " --expand-limit display"), std::vector<int>({60, 6, 75, 17}));

    // 8 x 8 texels in a display window 2^29 pixels a side: a thousandth of its diagonal is 759,225 pixels.
    Image small = makeImage(8, 8, {"B", "G", "R"}, PixelType::Float);
    small.layout.displayWindow = {0, 0, (1 << 29) - 1, (1 << 29) - 1};
    writeExr(file("small.exr").string(), small);
    const CliResult r = run(quote(file("small.exr")) + " -o " + quote(file("big.exr")) +
                            " --expand-data-window --kernel-span 0.001diag");
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("is past 4096 pixels (FFTB_MAX_KERNEL_LENGTH)"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(file("big.exr")));
}

// A crop's data window inside its display window, a light at its right edge: the plain run's output stops at the
// crop and loses the glow past it; --expand-data-window grows the window by the kernel's reach (a 16-texel kernel at
// native extent: 8 + 1 pixels) and keeps it, --expand-limit clips the growth.
TEST_F(BatchTest, ExpandDataWindowKeepsTheGlowPastACrop)
{
    Image crop = makeImage(16, 12, {"B", "G", "R"}, PixelType::Float);
    for (Channel& c : crop.channels)
        std::fill(c.values.begin(), c.values.end(), 0.0f);
    for (Channel& c : crop.channels)
        c.values[6 * 16 + 15] = 1000.0f; // (25, 12) on the display window
    crop.layout.dataWindow = {10, 6, 25, 17};
    crop.layout.displayWindow = {0, 0, 47, 31};
    writeExr(file("crop.exr").string(), crop);
    const auto bloomed = [&](const std::string& name, const std::string& options)
    {
        const CliResult r = run(quote(file("crop.exr")) + " -o " + quote(file(name)) +
                                " --kernel-size 16 --kernel-span native --glare-reach 0" + options);
        EXPECT_EQ(r.code, 0) << r.err;
        return readImage(file(name).string());
    };
    const auto window = [](const Image& image)
    {
        const Box2i& w = image.layout.dataWindow;
        return std::vector<int>{w.minX, w.minY, w.maxX, w.maxY};
    };
    EXPECT_EQ(window(bloomed("plain.exr", "")), std::vector<int>({10, 6, 25, 17}));
    const Image grown = bloomed("grown.exr", " --expand-data-window");
    ASSERT_EQ(window(grown), std::vector<int>({1, -3, 34, 26}));
    // Past the crop's right edge, on the light's row: glow the plain output has no texel for.
    const float glow = channel(grown, "R").values[std::size_t(12 + 3) * std::size_t(grown.width) + 27 - 1];
    EXPECT_GT(glow, 0.0f);
    EXPECT_EQ(window(bloomed("display.exr", " --expand-data-window --expand-limit display")),
              std::vector<int>({1, 0, 34, 26}));
    EXPECT_EQ(window(bloomed("three.exr", " --expand-data-window --expand-limit 3")), std::vector<int>({7, 3, 28, 20}));
    EXPECT_EQ(run(quote(file("crop.exr")) + " -o " + quote(file("x.exr")) + " --expand-limit 3").code, 2);
    // With the glare's far field (the default reach of a diagonal, 57.7 pixels of the 48 x 32 display window), the
    // glow reaches ceil(57.7) + 1 = 59 pixels past the crop on each side.
    const CliResult far = run(quote(file("crop.exr")) + " -o " + quote(file("far.exr")) +
                              " --kernel-size 16 --kernel-span native --expand-data-window");
    ASSERT_EQ(far.code, 0) << far.err;
    EXPECT_EQ(window(readImage(file("far.exr").string())), std::vector<int>({-49, -53, 84, 76}));
}

// Values beyond the largest finite half are written as +-65504 in a half output, never as Inf, and counted.
TEST_F(BatchTest, HalfOutputsSaturateAtTheLargestFiniteHalfAndCountIt)
{
    Image image = makeImage(24, 16, {"R", "G", "B"}, PixelType::Float);
    std::vector<float>& red = image.channels[std::size_t(image.find("R"))].values;
    std::fill(red.begin(), red.end(), 2.0e5f);
    writeExr(file("in.exr").string(), image);
    fs::create_directory(file("out"));
    // Intensity 0: the composite is the input (its unscrubbed values kept), 2e5 in R.
    const CliResult r =
        batch({file("in.exr")}, file("out"), "--intensity 0 --pixel-type half --report " + quote(file("report.json")));
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json report = readReport(file("report.json"));
    EXPECT_EQ(report["frames"][0]["saturated"], 24 * 16);
    EXPECT_EQ(report["totals"]["saturated"], 24 * 16);
    const Image out = readImage((file("out") / "in.exr").string());
    for (const float v : channel(out, "R").values)
        ASSERT_EQ(v, 65504.0f);
}

TEST_F(BatchTest, DataWindowAndDisplayWindowRoundTrip)
{
    Image image = makeImage(30, 20, {"R", "G", "B", "A"}, PixelType::Half);
    image.layout.dataWindow = {10, 5, 39, 24};
    image.layout.displayWindow = {0, 0, 63, 47};
    writeExr(file("in.exr").string(), image);
    fs::create_directory(file("out"));
    const CliResult r = batch({file("in.exr")}, file("out"));
    ASSERT_EQ(r.code, 0) << r.err;
    const Image out = readImage((file("out") / "in.exr").string());
    EXPECT_EQ(out.width, 30);
    EXPECT_EQ(out.height, 20);
    const Box2i data = out.layout.dataWindow, display = out.layout.displayWindow;
    EXPECT_EQ(std::vector<int>({data.minX, data.minY, data.maxX, data.maxY}), std::vector<int>({10, 5, 39, 24}));
    EXPECT_EQ(std::vector<int>({display.minX, display.minY, display.maxX, display.maxY}),
              std::vector<int>({0, 0, 63, 47}));
    EXPECT_EQ(channel(out, "A").values, channel(readImage(file("in.exr").string()), "A").values);
}

TEST_F(BatchTest, ListFileAddsInputs)
{
    const std::vector<fs::path> inputs = writeInputs(3);
    // Windows line ends and no line end after the last path are fine.
    writeBytes(file("list.txt"), inputs[1].string() + "\r\n\n" + inputs[2].string());
    fs::create_directory(file("out"));
    const CliResult r = run(quote(inputs[0]) + " --list " + quote(file("list.txt")) + " --out-dir " +
                            quote(file("out")) + " --kernel-size 8");
    ASSERT_EQ(r.code, 0) << r.err;
    for (int i = 0; i < 3; ++i)
        EXPECT_TRUE(fs::exists(file("out") / numbered("f", i, ".exr"))) << i;
}

// A NUL byte in a --list line is an error naming the line (it used to cut the line and drop the rest, exit 0);
// --list0 reads find -print0 lists.
TEST_F(BatchTest, ListLinesWithANulAreRefusedAndList0ReadsNulSeparatedLists)
{
    const std::vector<fs::path> inputs = writeInputs(3);
    fs::create_directory(file("out"));
    const std::string nul(1, '\0');
    writeBytes(file("print0.txt"), inputs[0].string() + nul + inputs[1].string() + nul + inputs[2].string() + nul);
    const auto before = listing();
    const CliResult refused =
        run("--list " + quote(file("print0.txt")) + " --out-dir " + quote(file("out")) + " --kernel-size 8");
    EXPECT_EQ(refused.code, 2) << refused.err;
    EXPECT_NE(refused.err.find("line 1 holds a NUL byte"), std::string::npos) << refused.err;
    EXPECT_EQ(listing(), before);
    const CliResult r =
        run("--list0 " + quote(file("print0.txt")) + " --out-dir " + quote(file("out")) + " --kernel-size 8");
    ASSERT_EQ(r.code, 0) << r.err;
    for (int i = 0; i < 3; ++i)
        EXPECT_TRUE(fs::exists(file("out") / numbered("f", i, ".exr"))) << i;
    const CliResult both = run("--list " + quote(file("print0.txt")) + " --list0 " + quote(file("print0.txt")) +
                               " --out-dir " + quote(file("out")));
    EXPECT_EQ(both.code, 2) << both.err;
}

TEST_F(BatchTest, UsageErrorsExitWith2AndWriteNothing)
{
    const std::vector<fs::path> inputs = writeInputs(2);
    fs::create_directories(file("sub"));
    writeExr((file("sub") / "f0.exr").string(), makeImage(8, 8, {"R", "G", "B"}, PixelType::Half));
    fs::create_directory(file("out"));
    writeExr(file("kernel.exr").string(), makeImage(5, 5, {"R", "G", "B"}, PixelType::Float));
    fs::create_symlink(file("kernel.exr"), file("kernel-link.exr"));
    std::ofstream(file("list.txt")) << inputs[0].string() << "\n";
    std::ofstream(file("preset.txt")) << "intensity=0.5\n";
    fs::create_hard_link(file("preset.txt"), file("preset-hardlink.txt"));
    const auto before = listing();
    const struct
    {
        std::string args;
        std::string message;
    } cases[] = {
        {quoted(inputs) + "-o " + quote(file("out.exr")), "-o names one output"},
        {quoted(inputs), "-o FILE (one input), --out-dir DIR or --output-pattern PATTERN"},
        {quoted(inputs) + "--out-dir " + quote(file("out")) + " --shard 3/3", "--shard"},
        {quoted({inputs[0], file("sub") / "f0.exr"}) + "--out-dir " + quote(file("out")), "sub/f0.exr"},
        {quoted(inputs) + "--out-dir " + quote(dir), "never overwrites an input"},
        {"--list " + quote(file("absent.txt")) + " --out-dir " + quote(file("out")), "absent.txt"},
        {"--list /dev/zero --out-dir " + quote(file("out")), "not a regular file"},
        // No file written may be one read, nor two writes one file: compared by identity (links included).
        {quoted(inputs) + "--out-dir " + quote(file("out")) + " --report " + quote(inputs[1]),
         "never overwrites an input"},
        {quoted(inputs) + "--out-dir " + quote(file("out")) + " --kernel " + quote(file("kernel.exr")) + " --report " +
             quote(file("kernel-link.exr")),
         "never writes a file it reads"},
        {"--list " + quote(file("list.txt")) + " --out-dir " + quote(file("out")) + " --report " +
             quote(file("list.txt")),
         "--list"},
        {quoted(inputs) + "--out-dir " + quote(file("out")) + " --settings " + quote(file("preset.txt")) +
             " --report " + quote(file("preset-hardlink.txt")),
         "--settings"},
        {quoted({inputs[0]}) + "-o " + quote(file("single.exr")) + " --report " + quote(file("single.exr")),
         "writes each file once"},
        {quoted({inputs[0]}) + "-o " + quote(file("single.exr")) + " --preview " + quote(file("kernel.exr")) +
             " --kernel " + quote(file("kernel.exr")),
         "never writes a file it reads"},
    };
    for (const auto& c : cases)
    {
        const CliResult r = run(c.args);
        EXPECT_EQ(r.code, 2) << c.args << "\n" << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << c.args << "\n" << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
        EXPECT_EQ(listing(), before) << c.args;
        EXPECT_TRUE(fs::is_empty(file("out"))) << c.args;
    }
}

/// Frames 1001, 1002 and 1004 of shot.####.exr in `folder` (all 20x16).
void writeShot(const fs::path& folder)
{
    for (const int frame : {1001, 1002, 1004})
        writeExr((folder / numbered("shot.", frame, ".exr")).string(),
                 makeImage(20, 16, {"R", "G", "B"}, PixelType::Half));
}

std::set<std::string> namesIn(const fs::path& folder)
{
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(folder))
        names.insert(entry.path().filename().string());
    return names;
}

// A frame pattern with --frames and --output-pattern: the frames there are written with the number last, the missing
// ones are named once as ranges and fail like any unreadable input (exit 1, "failed" in the report).
TEST_F(BatchTest, FrameRangeWritesItsFramesByPatternAndNamesMissingFramesOnce)
{
    writeShot(dir);
    fs::create_directory(file("bloomed"));
    const std::string pattern = quote(file("bloomed") / "{stem}_bloom.{frame}.exr");
    const CliResult r = run(quote(file("shot.####.exr")) + " --frames 1001-1005 --output-pattern " + pattern +
                            " --kernel-size 8 --report " + quote(file("report.json")));
    EXPECT_EQ(r.code, 1) << r.err;
    const std::string missing = file("shot.####.exr").string() + ": frames 1003, 1005 missing";
    const std::size_t at = r.err.find(missing);
    EXPECT_NE(at, std::string::npos) << r.err;
    EXPECT_EQ(r.err.find(missing, at + 1), std::string::npos) << "named twice:\n" << r.err;
    EXPECT_EQ(namesIn(file("bloomed")),
              std::set<std::string>({"shot_bloom.1001.exr", "shot_bloom.1002.exr", "shot_bloom.1004.exr"}));
    const nlohmann::json frames = readReport(file("report.json"))["frames"];
    ASSERT_EQ(frames.size(), 5u);
    for (std::size_t i = 0; i < 5; ++i)
        EXPECT_EQ(frames[i]["status"], i == 2 || i == 4 ? "failed" : "ok") << frames[i].dump();
    EXPECT_EQ(frames[3]["input"], file("shot.1004.exr").string());
    EXPECT_EQ(frames[3]["frame"], 1004);
    EXPECT_EQ(frames[2]["frame"], 1003);
    EXPECT_EQ(frames[3]["time"].get<std::string>().size(), std::string("2026-11-27T17:40:11.123Z").size());
}

// The frames of a sequence found on disk that are missing between its first and its last are named in the report's
// run line (and warned of): a TD sees what was not bloomed without the log.
TEST_F(BatchTest, TheReportListsTheFramesMissingOnDisk)
{
    writeShot(dir);
    fs::create_directory(file("bloomed"));
    const CliResult r = run(quote(file("shot.####.exr")) + " -o " + quote(file("bloomed") / "b.####.exr") +
                            " --kernel-size 8 --report " + quote(file("report.json")));
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("frame 1003 missing between 1001 and 1004 on disk"), std::string::npos) << r.err;
    const nlohmann::json report = readReport(file("report.json"));
    EXPECT_EQ(report["runs"][0]["run"]["missing"],
              nlohmann::json::parse(R"([{"input": ")" + file("shot.####.exr").string() +
                                    R"(", "frames": "1003", "count": 1}])"));
    EXPECT_EQ(report["frames"].size(), 3u);
    EXPECT_FALSE(report["frames"][0].contains("views")) << "a frame of one view";
}

// The report's run line says how and where the run was started; a frame line, when; the log's lines carry the time
// and the frame number, as text or (--log-format json) as JSON objects.
TEST_F(BatchTest, ReportsAndLogsSayWhereWhenAndWhichFrame)
{
    writeShot(dir);
    fs::create_directory(file("bloomed"));
    const std::string args = quote(file("shot.####.exr")) + " --frames 1001-1003 -o " +
                             quote(file("bloomed") / "b.####.exr") + " --kernel-size 8 --shard 0/1";
    CliResult r = run(args + " --report " + quote(file("report.json")));
    EXPECT_EQ(r.code, 1) << r.err;
    const nlohmann::json started = readReport(file("report.json"))["runs"][0]["run"];
    EXPECT_EQ(started["arguments"].size(), 13u) << started.dump(); // the test adds --validate
    EXPECT_EQ(started["arguments"][3], "--frames");
    EXPECT_EQ(started["shard"], "0/1");
    EXPECT_GT(started["pid"].get<long>(), 0);
    EXPECT_FALSE(started["host"].get<std::string>().empty());
    EXPECT_EQ(started["started"].get<std::string>().back(), 'Z');
    // Text: "<time> [done/total] frame N: in -> out" a frame.
    std::istringstream lines(r.out);
    int frameLines = 0;
    for (std::string line; std::getline(lines, line);)
        if (line.find("] frame 100") != std::string::npos)
        {
            ++frameLines;
            EXPECT_EQ(line.substr(4, 1) + line.substr(10, 1) + line.substr(23, 2), "-TZ ") << line;
        }
    EXPECT_EQ(frameLines, 3) << r.out;

    r = run(args + " --overwrite --log-format json");
    EXPECT_EQ(r.code, 1) << r.err;
    std::set<std::string> events;
    for (const std::string* stream : {&r.out, &r.err})
    {
        std::istringstream json(*stream);
        for (std::string line; std::getline(json, line);)
        {
            const nlohmann::json entry = nlohmann::json::parse(line); // every line is JSON
            EXPECT_TRUE(entry.contains("time")) << line;
            events.insert(entry.value("event", entry["level"].get<std::string>()));
            if (entry.value("event", "") == "frame")
            {
                EXPECT_TRUE(entry.contains("frame")) << line;
            }
        }
    }
    EXPECT_EQ(events, std::set<std::string>({"frame", "summary", "error"})) << r.out << r.err;
    // A usage error in JSON too.
    r = run(args + " --log-format json --intensity -1");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(nlohmann::json::parse(r.err)["level"], "error") << r.err;
}

// --dry-run: every check of a real run, one plan line per frame, nothing written; %04d and @@@@ name the same frames,
// x2 steps, and --shard splits the resolved range.
TEST_F(BatchTest, DryRunPrintsThePlanAndWritesNothing)
{
    writeShot(dir);
    fs::create_directory(file("out"));
    writeBytes(file("out") / "shot.1004.exr", "an earlier output");
    const auto before = listing();
    const std::string out = " --output-pattern " + quote(file("out") / "{name}.{ext}") + " --kernel-size 8 --dry-run";
    const std::string in1001 = file("shot.1001.exr").string(), out1001 = (file("out") / "shot.1001.exr").string();
    const std::string in1004 = file("shot.1004.exr").string(), out1004 = (file("out") / "shot.1004.exr").string();
    CliResult r = run(quote(file("shot.%04d.exr")) + " --frames 1001-1005x3,1003" + out);
    EXPECT_EQ(r.code, 1) << r.err; // a frame is missing: the run would fail it
    EXPECT_EQ(r.out, in1001 + " -> " + out1001 + "\n" + in1004 + " -> " + out1004 + ": skipped: output exists\n" +
                         file("shot.1003.exr").string() + ": missing\n");
    EXPECT_EQ(r.err, "fftbloom: " + file("shot.%04d.exr").string() + ": frame 1003 missing\n");
    EXPECT_EQ(listing(), before);

    r = run(quote(file("shot.@@@@.exr")) + " --frames 1001,1002,1004 --overwrite --shard 1/2" + out);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, file("shot.1002.exr").string() + " -> " + (file("out") / "shot.1002.exr").string() + "\n");
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(listing(), before);
    EXPECT_EQ(readBytes(file("out") / "shot.1004.exr"), "an earlier output");
}

// Every naming form of a sequence, as pipeline tools write them, planned by --dry-run (IN -> OUT + PREVIEW): a
// pattern alone runs the frames on disk and names the gap; -o and --output-pattern take placeholders; oiiotool's
// 1001-1004# lists the frames in the name; negative frames and descending ranges; previews by pattern and by folder.
TEST_F(BatchTest, SequenceNamingFormsAsPipelineToolsWriteThem)
{
    writeShot(dir); // 1001, 1002, 1004
    for (const int frame : {-1, 0})
        writeExr(file(frame < 0 ? "shot.-001.exr" : "shot.0000.exr").string(),
                 makeImage(20, 16, {"R", "G", "B"}, PixelType::Half));
    fs::create_directory(file("out"));
    fs::create_directory(file("dailies"));
    const auto before = listing();
    const auto in = [&](const char* name) { return file(name).string(); };
    const auto out = [&](const char* name) { return (file("out") / name).string(); };
    const auto plan = [&](const std::string& arguments)
    {
        const CliResult r = run(arguments + " --kernel-size 8 --dry-run");
        EXPECT_EQ(listing(), before);
        return r;
    };

    // The frames on disk (-1 to 1004), the gap named once as a warning; -o with ####.
    CliResult r = plan(quote(file("shot.####.exr")) + " -o " + quote(file("out") / "shot_bloom.####.exr"));
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "fftbloom: warning: " + in("shot.####.exr") +
                         ": frames 1-1000, 1003 missing between -1 and 1004 on disk: not bloomed\n");
    EXPECT_EQ(r.out, in("shot.-001.exr") + " -> " + out("shot_bloom.-001.exr") + "\n" + in("shot.0000.exr") + " -> " +
                         out("shot_bloom.0000.exr") + "\n" + in("shot.1001.exr") + " -> " + out("shot_bloom.1001.exr") +
                         "\n" + in("shot.1002.exr") + " -> " + out("shot_bloom.1002.exr") + "\n" + in("shot.1004.exr") +
                         " -> " + out("shot_bloom.1004.exr") + "\n");

    // --output-pattern with %06d; oiiotool's range in the name, descending; a preview per frame by pattern.
    r = plan(quote(file("shot.1002-1001#.exr")) + " --output-pattern " + quote(file("out") / "{stem}.%06d.exr") +
             " --preview-pattern " + quote(file("dailies") / "{stem}.@@@@@.png"));
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.out, in("shot.1002.exr") + " -> " + out("shot.001002.exr") + " + " +
                         (file("dailies") / "shot.01002.png").string() + "\n" + in("shot.1001.exr") + " -> " +
                         out("shot.001001.exr") + " + " + (file("dailies") / "shot.01001.png").string() + "\n");

    // Negative frames with --frames; --preview-dir names each preview after its output.
    r = plan(quote(file("shot.%04d.exr")) + " --frames 0--1 -o " + quote(file("out") / "s.%d.exr") + " --preview-dir " +
             quote(file("dailies")));
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, in("shot.0000.exr") + " -> " + out("s.0.exr") + " + " + (file("dailies") / "s.0.png").string() +
                         "\n" + in("shot.-001.exr") + " -> " + out("s.-1.exr") + " + " +
                         (file("dailies") / "s.-1.png").string() + "\n");

    // Refused: -o without a placeholder for many inputs, a pattern with no frame on disk, two frame lists, a preview
    // transform without previews.
    for (const std::string& refused :
         {quote(file("shot.####.exr")) + " -o " + quote(file("out") / "one.exr"),
          quote(file("take.####.exr")) + " -o " + quote(file("out") / "t.####.exr"),
          quote(file("shot.1001-1002#.exr")) + " --frames 1001 -o " + quote(file("out") / "t.####.exr"),
          quote(file("shot.1001.exr")) + " -o " + quote(file("out") / "t.exr") + " --ocio-view sRGB"})
    {
        r = plan(refused);
        EXPECT_EQ(r.code, 2) << refused;
        EXPECT_NE(r.err, "") << refused;
    }
}

// A real run of a sequence through -o with a placeholder and --preview-pattern: each frame and each preview written
// under its frame number.
TEST_F(BatchTest, PlaceholdersNameTheFramesAndPreviewsWritten)
{
    writeShot(dir);
    fs::create_directory(file("out"));
    const CliResult r = run(quote(file("shot.1001-1002#.exr")) + " -o " + quote(file("out") / "b.####.exr") +
                            " --preview-pattern " + quote(file("out") / "{stem}_bloom.####.png") + " --kernel-size 8");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(namesIn(file("out")),
              std::set<std::string>({"b.1001.exr", "b.1002.exr", "shot_bloom.1001.png", "shot_bloom.1002.png"}));
}

// Output patterns go through the checks of --out-dir: existing folders, no output over an input, no output twice.
TEST_F(BatchTest, OutputPatternsAreCheckedLikeOutDirBeforeAnyFrameIsRead)
{
    writeShot(dir);
    const auto before = listing();
    const std::string shot = quote(file("shot.####.exr")) + " --frames 1001-1002 --kernel-size 8 --output-pattern ";
    const struct
    {
        std::string args;
        std::string message;
    } cases[] = {
        {shot + quote(file("absent") / "{name}.exr"), "no such folder"},
        {shot + quote(file("{name}.{ext}")), "never overwrites an input"},
        {shot + quote(file("{stem}.exr")), "would be written to"},
        {shot + quote(file("{stem}.{frame}.{Ext}")), "unknown field {Ext}"},
        {shot + quote(file("{name}.exr")) + " -o " + quote(file("x.exr")), "excludes"},
        {quote(file("take.####.exr")) + " --output-pattern " + quote(file("{name}_b.exr")),
         "nor any frame of it as a pattern (its ####) in its folder"},
        {quote(file("shot.1001.exr")) + " --frames 1 --output-pattern " + quote(file("{name}_b.exr")),
         "no input holds a frame placeholder"},
        {quote(file("shot.1001.exr")) + " --frames 1001-1002,1002 -o " + quote(file("x.exr")),
         "frame 1002 is listed twice"},
    };
    for (const auto& c : cases)
        for (const char* dryRun : {"", " --dry-run"})
        {
            const CliResult r = run(c.args + dryRun);
            EXPECT_EQ(r.code, 2) << c.args << dryRun << "\n" << r.err;
            EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << c.args << dryRun << "\n" << r.err;
            EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << dryRun << "\n" << r.err;
            EXPECT_EQ(r.out, "") << c.args << dryRun;
            EXPECT_EQ(listing(), before) << c.args << dryRun;
        }
}

// A shot of 5 frames split over 3 tasks writes each frame exactly once, whatever names the outputs (-o with a
// placeholder, --output-pattern, --out-dir) and whatever splits it (--shard, --chunk, a Slurm job array): planned by
// --dry-run for every form and split, then one task run for real with -o and --shard.
TEST_F(BatchTest, EveryOutputFormSplitsTheShotOverItsTasksOnce)
{
    for (int frame = 1001; frame <= 1005; ++frame)
        writeExr(file(numbered("s.", frame, ".exr")).string(), makeImage(8, 8, {"R", "G", "B"}, PixelType::Half));
    fs::create_directory(file("out"));
    const std::string shot = quote(file("s.####.exr")) + " --kernel-size 8 ";
    const std::string forms[] = {"-o " + quote(file("out") / "s.####.exr"),
                                 "--output-pattern " + quote(file("out") / "{stem}.####.exr"),
                                 "--out-dir " + quote(file("out"))};
    std::multiset<std::string> expected;
    for (int frame = 1001; frame <= 1005; ++frame)
        expected.insert((file("out") / numbered("s.", frame, ".exr")).string());
    const auto setArray = [](int task)
    {
        setenv("SLURM_ARRAY_TASK_ID", numbered("", 10 + task, "").c_str(), 1);
        setenv("SLURM_ARRAY_TASK_MIN", "10", 1);
        setenv("SLURM_ARRAY_TASK_COUNT", "3", 1);
    };
    for (const std::string& form : forms)
        for (const char* split : {"--shard ", "--chunk ", "--chunk slurm"})
        {
            std::multiset<std::string> planned;
            for (int task = 0; task < 3; ++task)
            {
                const bool slurm = std::strstr(split, "slurm") != nullptr;
                if (slurm)
                    setArray(task);
                const CliResult r =
                    run(shot + form + " " + split + (slurm ? "" : numbered("", task, "/3")) + " --dry-run");
                ASSERT_EQ(r.code, 0) << form << " " << split << task << "\n" << r.err;
                std::istringstream lines(r.out);
                std::size_t count = 0;
                for (std::string line; std::getline(lines, line); ++count)
                    planned.insert(line.substr(line.find(" -> ") + 4));
                EXPECT_GE(count, 1u) << form << " " << split << task << ": no frame";
                EXPECT_LE(count, 2u) << form << " " << split << task << ":\n" << r.out;
            }
            EXPECT_EQ(planned, expected) << form << " " << split;
        }
    unsetenv("SLURM_ARRAY_TASK_ID");
    unsetenv("SLURM_ARRAY_TASK_MIN");
    unsetenv("SLURM_ARRAY_TASK_COUNT");

    // A real run writes its task's frames and no other: shard 1 of 3 is 1002 and 1005.
    const fs::path report = file("task1.json");
    const CliResult r = run(shot + forms[0] + " --shard 1/3 --report " + quote(report));
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json frames = readReport(report)["frames"];
    EXPECT_EQ(frames.size(), 2u) << frames.dump();
    for (const nlohmann::json& frame : frames)
        EXPECT_EQ(frame["status"], "ok") << frame.dump();
    EXPECT_EQ(namesIn(file("out")), std::set<std::string>({"s.1002.exr", "s.1005.exr"}));
}

// --log-format json covers --dry-run's plan (a JSON object per frame: "event": "plan", its input, output and what a
// run would do) and is honoured when a settings file gives it, usage errors included.
TEST_F(BatchTest, JsonLogsCoverTheDryRunAndASettingsFileChoosesThem)
{
    writeShot(dir); // 1001, 1002, 1004
    fs::create_directory(file("out"));
    const std::string args = quote(file("shot.####.exr")) + " --frames 1001-1003 -o " +
                             quote(file("out") / "b.####.exr") + " --kernel-size 8 --dry-run ";
    writeBytes(file("json.txt"), "log-format=json\n");
    for (const std::string& json : {std::string("--log-format json"), "--settings " + quote(file("json.txt"))})
    {
        const CliResult r = run(args + json);
        EXPECT_EQ(r.code, 1) << json << r.err; // frame 1003 is missing
        std::vector<std::string> plans;
        for (const std::string* stream : {&r.out, &r.err})
        {
            std::istringstream lines(*stream);
            for (std::string line; std::getline(lines, line);)
            {
                const nlohmann::json entry = nlohmann::json::parse(line, nullptr, false);
                ASSERT_FALSE(entry.is_discarded()) << json << ": not JSON: " << line;
                EXPECT_TRUE(entry.contains("time")) << line;
                if (entry.value("event", "") == "plan")
                    plans.push_back(entry["input"].get<std::string>() + " " + entry["plan"].get<std::string>());
            }
        }
        EXPECT_EQ(plans, std::vector<std::string>({file("shot.1001.exr").string() + " write",
                                                   file("shot.1002.exr").string() + " write",
                                                   file("shot.1003.exr").string() + " missing"}))
            << json;
        const CliResult usage = run(args + json + " --intensity -1");
        EXPECT_EQ(usage.code, 2) << json;
        EXPECT_EQ(nlohmann::json::parse(usage.err, nullptr, false).value("level", ""), "error") << json << usage.err;
    }
}

// Plain files named -1..1 are three frames (s.-001.exr is frame -1), not a collision of frames 1 and 1.
TEST_F(BatchTest, NegativeFrameNumbersInPlainNamesAreTheirOwnFrames)
{
    for (const char* name : {"s.-001.exr", "s.0000.exr", "s.0001.exr"})
        writeExr(file(name).string(), makeImage(8, 8, {"R", "G", "B"}, PixelType::Half));
    fs::create_directory(file("out"));
    const CliResult r =
        run(quote(file("s.-001.exr")) + " " + quote(file("s.0000.exr")) + " " + quote(file("s.0001.exr")) + " -o " +
            quote(file("out") / "b.####.exr") + " --kernel-size 8 --dry-run");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find(file("s.-001.exr").string() + " -> " + (file("out") / "b.-001.exr").string()),
              std::string::npos)
        << r.out;
}

} // namespace
} // namespace fftb
