// SPDX-License-Identifier: MIT
// Recordings that do not end neatly or are more than one process: a client that aborts, clients
// that start a second process (fork + exec, fork alone), a program stopped by the user or by
// --duration, and programs that cannot be started at all.

#include "capture/launcher/program_lookup.h"
#include "tests/capture/record_test_support.h"

#include "tests/temp_dir.h"

#include <gtest/gtest.h>

#include <csignal>
#include <thread>

#include <sys/stat.h>

namespace gapscope::capture {
namespace {

using test::namesOf;
using test::threadNamed;

TEST(RecordProcessesTest, AbortingClientLeavesATraceThatLoadsWithAWarning)
{
    ProgramRecorder recorder(test::clientOptions(GAPSCOPE_ABORT_CLIENT));
    ASSERT_EQ(recorder.start(), std::nullopt);
    auto result = recorder.wait();
    ASSERT_TRUE(result) << result.error().toString();
    const RecordResult& r = result.value();
    EXPECT_EQ(r.exit.signal, SIGABRT);
    EXPECT_EQ(r.exit.status(), 128 + SIGABRT);
    const Trace& trace = r.trace;
    ASSERT_EQ(trace.processes.size(), 1u);
    // Flushed before the abort: both ranges and the mark. The range opened just before it is lost.
    std::vector<std::string> nvtx;
    for (const Lane& lane : trace.lanes) {
        for (const Event& e : lane.events) {
            if (e.kind == EventKind::NvtxRange || e.kind == EventKind::NvtxMark)
                nvtx.emplace_back(trace.name(e));
        }
    }
    EXPECT_EQ(nvtx, (std::vector<std::string> { "before-abort:1", "before-abort:2", "about-to-abort" }));
    ASSERT_EQ(trace.warnings.size(), 1u);
    EXPECT_NE(trace.warnings[0].message.find("not closed cleanly"), std::string::npos);
    ASSERT_EQ(r.summary.processes.size(), 1u);
    EXPECT_FALSE(r.summary.processes[0].closedCleanly);
    bool crashNoted = false;
    for (const std::string& note : r.summary.notes)
        crashNoted |= note.find("ended before the collector closed its file") != std::string::npos;
    EXPECT_TRUE(crashNoted);
}

struct SpawnCase {
    const char* mode;
    const char* childRange;
    const char* childThread; // lane name of the child's main thread
};

class RecordSpawnTest : public ::testing::TestWithParam<SpawnCase> { };

TEST_P(RecordSpawnTest, BothProcessesAreInTheTrace)
{
    const SpawnCase& c = GetParam();
    ProgramRecorder recorder(test::clientOptions(GAPSCOPE_SPAWN_CLIENT, { c.mode }));
    ASSERT_EQ(recorder.start(), std::nullopt);
    const pid_t parentPid = recorder.pid();
    auto result = recorder.wait();
    ASSERT_TRUE(result) << result.error().toString();
    const Trace& trace = result.value().trace;
    EXPECT_EQ(result.value().exit.exitCode, 0);
    ASSERT_EQ(trace.processes.size(), 2u);
    // Processes are ordered by pid (no ranks): the parent, started first, has the smaller pid here.
    const ProcessIndex parent { trace.processes[0].pid == parentPid ? 0u : 1u };
    const ProcessIndex child { 1u - parent.value };
    EXPECT_EQ(trace.processes[parent.value].pid, parentPid);
    EXPECT_NE(trace.processes[child.value].pid, parentPid);

    std::vector<std::string> parentRanges;
    std::vector<std::string> childRanges;
    for (const Lane& lane : trace.lanes) {
        for (const Event& e : lane.events) {
            if (e.kind != EventKind::NvtxRange)
                continue;
            (lane.process == parent ? parentRanges : childRanges).emplace_back(trace.name(e));
        }
    }
    EXPECT_EQ(parentRanges, (std::vector<std::string> { "parent:spawn" }));
    EXPECT_EQ(childRanges, (std::vector<std::string> { c.childRange }));
    const Lane* childMain = threadNamed(trace, child, c.childThread);
    ASSERT_NE(childMain, nullptr) << "no lane named " << c.childThread;
    EXPECT_EQ(childMain->tid, trace.processes[child.value].pid);
    EXPECT_EQ(namesOf(trace, *childMain), (std::vector<std::string> { c.childRange }));
    // The child's range happened inside the parent's.
    // (Threads the program did not name carry the kernel's name: the executable's, cut at 15 characters.)
    const Lane* parentMain = threadNamed(trace, parent, "gapscope_spawn_");
    ASSERT_NE(parentMain, nullptr);
    const Event& outer = parentMain->events.front();
    EXPECT_GT(childMain->events.front().start, outer.start);
    EXPECT_LT(childMain->events.front().end, outer.end);
    EXPECT_EQ(result.value().summary.processes.size(), 2u);
}

INSTANTIATE_TEST_SUITE_P(Modes, RecordSpawnTest,
    ::testing::Values(
        SpawnCase { "exec", "child:work", "child-main" }, SpawnCase { "fork", "forked:work", "gapscope_spawn_" }),
    [](const ::testing::TestParamInfo<SpawnCase>& info) { return std::string(info.param.mode); });

TEST(RecordProcessesTest, StopSendsSigintToTheProgram)
{
    RecordOptions options = test::clientOptions(GAPSCOPE_LONG_CLIENT);
    options.output = RecordOptions::Output::Capture;
    ProgramRecorder recorder(options);
    ASSERT_EQ(recorder.start(), std::nullopt);
    // Stop it once it says it is ready, from another thread, as a GUI's Stop button would.
    class StopWhenReady final : public RecordObserver {
    public:
        explicit StopWhenReady(ProgramRecorder& recorder)
            : m_recorder(recorder)
        { }
        void onOutput(bool, std::string_view text) override
        {
            out += text;
            if (out.find("ready") != std::string::npos && !m_stopper.joinable())
                m_stopper = std::thread([this] { m_recorder.requestStop(); });
        }
        ~StopWhenReady() override
        {
            if (m_stopper.joinable())
                m_stopper.join();
        }
        std::string out;

    private:
        ProgramRecorder& m_recorder;
        std::thread m_stopper;
    } observer(recorder);
    auto result = recorder.wait(&observer);
    ASSERT_TRUE(result) << result.error().toString();
    EXPECT_EQ(result.value().exit.signal, SIGINT);
    EXPECT_LT(result.value().wallSeconds, 10.0);
    EXPECT_EQ(observer.out, "ready\n");
    // SIGINT ends the client without its exit handlers: its file ends at the last flush.
    ASSERT_EQ(result.value().trace.processes.size(), 1u);
    EXPECT_FALSE(result.value().summary.processes[0].closedCleanly);
}

TEST(RecordProcessesTest, DurationStopsTheProgramAfterIt)
{
    RecordOptions options = test::clientOptions(GAPSCOPE_LONG_CLIENT);
    options.output = RecordOptions::Output::Capture;
    options.durationSeconds = 0.5;
    ProgramRecorder recorder(options);
    ASSERT_EQ(recorder.start(), std::nullopt);
    test::CollectingObserver observer;
    auto result = recorder.wait(&observer);
    ASSERT_TRUE(result) << result.error().toString();
    EXPECT_EQ(result.value().exit.signal, SIGINT);
    EXPECT_GE(result.value().wallSeconds, 0.5);
    EXPECT_LT(result.value().wallSeconds, 10.0);
    EXPECT_EQ(
        observer.notes, (std::vector<std::string> { "the recording time is over: stopping the program (SIGINT)" }));
    // The mark came right at the start and the collector flushes every 20 ms: it is in.
    std::vector<std::string> marks;
    for (const Lane& lane : result.value().trace.lanes) {
        for (const Event& e : lane.events) {
            if (e.kind == EventKind::NvtxMark)
                marks.emplace_back(result.value().trace.name(e));
        }
    }
    EXPECT_EQ(marks, (std::vector<std::string> { "started" }));
}

TEST(RecordProcessesTest, CapturedOutputReachesTheObserver)
{
    RecordOptions options = test::clientOptions("/bin/sh", { "-c", "echo to-out; echo to-err >&2; exit 3" });
    options.output = RecordOptions::Output::Capture;
    ProgramRecorder recorder(options);
    ASSERT_EQ(recorder.start(), std::nullopt);
    test::CollectingObserver observer;
    auto result = recorder.wait(&observer);
    EXPECT_EQ(observer.out, "to-out\n");
    EXPECT_EQ(observer.err, "to-err\n");
    // The shell used neither CUDA nor NVTX: nothing loaded the collector, which the error says.
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().message,
        "nothing was recorded: no process of the program used CUDA or NVTX, so nothing loaded the collector");
}

struct StartErrorCase {
    const char* name;
    const char* expected; // part of the message
};

class RecordStartErrorTest : public ::testing::TestWithParam<StartErrorCase> { };

TEST_P(RecordStartErrorTest, SaysWhyTheProgramCannotRun)
{
    gapscope::test::TempDir dir;
    gapscope::test::writeWholeFile(dir.file("not-executable"), "#!/bin/sh\n");
    ::chmod(dir.file("not-executable").c_str(), 0644);
    const std::string which = GetParam().name;
    std::string program = which == "missing" ? dir.file("no-such-program")
        : which == "directory"               ? dir.path().string()
        : which == "not-executable"          ? dir.file("not-executable")
                                             : "gapscope-no-such-command-anywhere";
    ProgramRecorder recorder(test::clientOptions(program));
    const auto error = recorder.start();
    ASSERT_TRUE(error.has_value());
    EXPECT_NE(error->find(GetParam().expected), std::string::npos) << *error;
    EXPECT_EQ(recorder.pid(), -1);
}

INSTANTIATE_TEST_SUITE_P(Programs, RecordStartErrorTest,
    ::testing::Values(StartErrorCase { "missing", "no-such-program: no such file" },
        StartErrorCase { "directory", "is a directory, not a program" },
        StartErrorCase { "not-executable", "not-executable: is not executable (permission denied" },
        StartErrorCase { "not-in-path", "gapscope-no-such-command-anywhere: command not found" }),
    [](const ::testing::TestParamInfo<StartErrorCase>& info) {
        std::string name = info.param.name;
        std::erase(name, '-');
        return name;
    });

TEST(RecordProcessesTest, MissingCollectorLibraryIsAClearError)
{
    RecordOptions options = test::clientOptions(GAPSCOPE_NVTX_CLIENT);
    options.injectionLibrary.clear();
    ::setenv("GAPSCOPE_INJECT_LIBRARY", "/nonexistent/libgapscope_inject.so", 1);
    ProgramRecorder recorder(options);
    const auto error = recorder.start();
    ::unsetenv("GAPSCOPE_INJECT_LIBRARY");
    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(*error, "GAPSCOPE_INJECT_LIBRARY names /nonexistent/libgapscope_inject.so, which does not exist");
}

TEST(RecordProcessesTest, EnvironmentCarriesTheInjectionAndTheUsersChanges)
{
    RecordOptions options = test::clientOptions(GAPSCOPE_NVTX_CLIENT);
    options.environment = { { "GAPSCOPE_TEST_SET", "yes" }, { "HOME", std::nullopt },
        { "CUDA_INJECTION64_PATH", "/somewhere/else.so" } };
    options.kinds = RecordNvtx | RecordKernels;
    options.delaySeconds = 1.5;
    options.durationSeconds = 2.0;
    ProgramRecorder recorder(options);
    ASSERT_EQ(recorder.start(), std::nullopt);
    const std::vector<std::string>& env = recorder.environment();
    const auto value = [&env](const std::string& name) -> std::optional<std::string> {
        for (const std::string& entry : env) {
            if (entry.starts_with(name + "="))
                return entry.substr(name.size() + 1);
        }
        return std::nullopt;
    };
    EXPECT_EQ(value("GAPSCOPE_TEST_SET"), "yes");
    EXPECT_EQ(value("HOME"), std::nullopt);
    EXPECT_EQ(value("CUDA_INJECTION64_PATH"), GAPSCOPE_INJECT_LIBRARY); // recording needs it: ours wins
    EXPECT_EQ(value("NVTX_INJECTION64_PATH"), GAPSCOPE_INJECT_LIBRARY);
    EXPECT_EQ(value("GAPSCOPE_KINDS"), std::to_string(RecordNvtx | RecordKernels));
    EXPECT_EQ(value("GAPSCOPE_FLUSH_INTERVAL_MS"), "20");
    const auto from = value("GAPSCOPE_RECORD_FROM_NS");
    const auto until = value("GAPSCOPE_RECORD_UNTIL_NS");
    ASSERT_TRUE(from && until);
    EXPECT_EQ(std::stoll(*until) - std::stoll(*from), 2'000'000'000);
    EXPECT_TRUE(value("GAPSCOPE_OUTPUT_DIR").has_value());
    EXPECT_TRUE(value("PATH").has_value()); // the user's own environment is kept
    // The client is done within milliseconds, long before the window opens 1.5 s after the start:
    // the collector drops everything, its own flushes included, and leaves a file with no events.
    auto result = recorder.wait();
    ASSERT_TRUE(result) << result.error().toString();
    EXPECT_EQ(result.value().trace.processes.size(), 1u);
    EXPECT_EQ(result.value().trace.eventCount(), 0u);
}

} // namespace
} // namespace gapscope::capture
