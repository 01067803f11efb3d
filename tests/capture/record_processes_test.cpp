// SPDX-License-Identifier: MIT
// Recordings that do not end neatly or are more than one process: a client that aborts, clients
// that start a second process (fork + exec, fork alone), a program stopped by the user or by
// --duration, and programs that cannot be started at all.

#include "capture/launcher/program_lookup.h"
#include "tests/capture/record_test_support.h"

#include "tests/temp_dir.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <thread>

#include <sys/mount.h>
#include <sys/stat.h>

namespace gapscope::capture {
namespace {

using test::namesOf;
using test::threadNamed;

std::size_t nameIs(const Trace& trace, const Event& e, std::string_view name)
{
    return trace.name(e) == name ? 1 : 0;
}

struct CrashCase {
    const char* mode;
    int signal; // 0: it exits with `exitCode`
    int exitCode;
    const char* ended; // how the summary says the program ended
};

class RecordCrashTest : public ::testing::TestWithParam<CrashCase> { };

TEST_P(RecordCrashTest, LeavesATraceThatLoadsUpToTheLastFlushAndSaysWhatHappened)
{
    const CrashCase& c = GetParam();
    ProgramRecorder recorder(test::clientOptions(GAPSCOPE_ABORT_CLIENT, { c.mode }));
    ASSERT_EQ(recorder.start(), std::nullopt);
    const pid_t pid = recorder.pid();
    auto result = recorder.wait();
    ASSERT_TRUE(result) << result.error().toString();
    const RecordResult& r = result.value();
    if (c.signal != 0) {
        EXPECT_EQ(r.exit.signal, c.signal);
        EXPECT_EQ(r.exit.status(), 128 + c.signal);
    } else {
        EXPECT_EQ(r.exit.exitCode, c.exitCode);
    }
    const Trace& trace = r.trace;
    ASSERT_EQ(trace.processes().size(), 1u);
    // Flushed before the end: both ranges and the mark, in order. The range opened just before it
    // is lost; of the `exit` burst, whatever the last flushes wrote, none of it twice.
    std::vector<std::string> nvtx;
    std::size_t burst = 0;
    TimeNs lastBurstStart = 0;
    for (const Lane& lane : trace.lanes()) {
        for (const Event& e : lane.events) {
            if (e.kind != EventKind::NvtxRange && e.kind != EventKind::NvtxMark)
                continue;
            if (trace.name(e) == "burst") {
                ++burst;
                EXPECT_GT(e.start, lastBurstStart); // no duplicates: every range starts after the previous one
                lastBurstStart = e.start;
                continue;
            }
            nvtx.emplace_back(trace.name(e));
        }
    }
    EXPECT_EQ(nvtx, (std::vector<std::string> { "before-abort:1", "before-abort:2", "about-to-abort" }));
    EXPECT_LE(burst, 200000u);
    // A warning says the file ends early: "not closed cleanly" when it ends at a chunk boundary, or, when the
    // process died in the middle of writing a chunk (likely for `exit` under load), "cut off inside a chunk"
    // with what was loaded (the reader gives one reason per file, core/io/native/native_trace_reader.cpp).
    ASSERT_GE(trace.warnings().size(), 1u);
    std::string warnings;
    for (const ImportWarning& w : trace.warnings())
        warnings += w.message + "\n";
    EXPECT_TRUE(warnings.find("not closed cleanly") != std::string::npos
        || warnings.find("the file is cut off inside a chunk: loaded the ") != std::string::npos)
        << warnings;
    ASSERT_EQ(r.summary.processes.size(), 1u);
    EXPECT_FALSE(r.summary.processes[0].closedCleanly);
    std::vector<std::string> crashNotes;
    for (const std::string& note : r.summary.notes) {
        if (note.find("before the collector closed its file") != std::string::npos)
            crashNotes.push_back(note);
    }
    ASSERT_EQ(crashNotes.size(), 1u);
    EXPECT_EQ(crashNotes[0],
        "Process " + std::to_string(pid) + " (the program) " + c.ended
            + " before the collector closed its file: the trace holds what was flushed until then; what came after "
              "its last flush is missing.");
}

INSTANTIATE_TEST_SUITE_P(Endings, RecordCrashTest,
    ::testing::Values(CrashCase { "abort", SIGABRT, 0, "was ended by signal 6 (Aborted)" },
        CrashCase { "segv", SIGSEGV, 0, "was ended by signal 11 (Segmentation fault)" },
        CrashCase { "kill", SIGKILL, 0, "was ended by signal 9 (Killed)" },
        CrashCase { "exit", 0, 7, "exited with code 7" }),
    [](const ::testing::TestParamInfo<CrashCase>& info) { return std::string(info.param.mode); });

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
    ASSERT_EQ(trace.processes().size(), 2u);
    // Processes are ordered by pid (no ranks): the parent, started first, has the smaller pid here.
    const ProcessIndex parent { trace.processes()[0].pid == parentPid ? 0u : 1u };
    const ProcessIndex child { 1u - parent.value };
    EXPECT_EQ(trace.processes()[parent.value].pid, parentPid);
    EXPECT_NE(trace.processes()[child.value].pid, parentPid);

    std::vector<std::string> parentRanges;
    std::vector<std::string> childRanges;
    for (const Lane& lane : trace.lanes()) {
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
    EXPECT_EQ(childMain->tid, trace.processes()[child.value].pid);
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

TEST(RecordProcessesTest, ExecWithoutForkRecordsEachProgramImageOnce)
{
    ProgramRecorder recorder(test::clientOptions(GAPSCOPE_SPAWN_CLIENT, { "exec-self" }));
    ASSERT_EQ(recorder.start(), std::nullopt);
    const pid_t pid = recorder.pid();
    auto result = recorder.wait();
    ASSERT_TRUE(result) << result.error().toString();
    const RecordResult& r = result.value();
    EXPECT_EQ(r.exit.exitCode, 0);
    // One file per program image, both with the program's pid, the one before exec first.
    ASSERT_EQ(r.summary.processes.size(), 2u);
    EXPECT_EQ(r.summary.processes[0].pid, pid);
    EXPECT_EQ(r.summary.processes[1].pid, pid);
    EXPECT_FALSE(r.summary.processes[0].closedCleanly); // exec runs no exit handler
    EXPECT_TRUE(r.summary.processes[1].closedCleanly);
    std::vector<std::string> ranges;
    for (const Lane& lane : r.trace.lanes()) {
        for (const Event& e : lane.events) {
            if (e.kind == EventKind::NvtxRange)
                ranges.emplace_back(r.trace.name(e));
        }
    }
    std::sort(ranges.begin(), ranges.end());
    EXPECT_EQ(ranges, (std::vector<std::string> { "image1:work", "image2:work" })); // each once
    const std::string execNote = "Process " + std::to_string(pid)
        + " replaced its program with exec() (no fork): the file of the program before it ends at its last flush, "
          "and the new program has a file of its own.";
    EXPECT_EQ(std::count(r.summary.notes.begin(), r.summary.notes.end(), execNote), 1)
        << ::testing::PrintToString(r.summary.notes);
}

INSTANTIATE_TEST_SUITE_P(Modes, RecordSpawnTest,
    ::testing::Values(
        SpawnCase { "exec", "child:work", "child-main" }, SpawnCase { "fork", "forked:work", "gapscope_spawn_" }),
    [](const ::testing::TestParamInfo<SpawnCase>& info) { return std::string(info.param.mode); });

/// Sends a signal (requestStop(), or `signal` to the program's group) once the long client says
/// "ready", from another thread, as a GUI's Stop button would.
class StopWhenReady final : public RecordObserver {
public:
    StopWhenReady(ProgramRecorder& recorder, int signal)
        : m_recorder(recorder)
        , m_signal(signal)
    { }
    void onOutput(bool, std::string_view text) override
    {
        out += text;
        if (out.find("ready") != std::string::npos && !m_stopper.joinable()) {
            m_stopper = std::thread([this] {
                if (m_signal == SIGINT)
                    m_recorder.requestStop();
                else
                    ::kill(-m_recorder.pid(), m_signal);
            });
        }
    }
    ~StopWhenReady() override
    {
        if (m_stopper.joinable())
            m_stopper.join();
    }
    std::string out;

private:
    ProgramRecorder& m_recorder;
    int m_signal;
    std::thread m_stopper;
};

class RecordStopTest : public ::testing::TestWithParam<int> { };

TEST_P(RecordStopTest, TheCollectorFlushesAndClosesItsFileThenTheSignalEndsTheProgram)
{
    const int signal = GetParam();
    RecordOptions options = test::clientOptions(GAPSCOPE_LONG_CLIENT);
    options.output = RecordOptions::Output::Capture;
    ProgramRecorder recorder(options);
    ASSERT_EQ(recorder.start(), std::nullopt);
    StopWhenReady observer(recorder, signal);
    auto result = recorder.wait(&observer);
    ASSERT_TRUE(result) << result.error().toString();
    const RecordResult& r = result.value();
    EXPECT_EQ(r.exit.signal, signal); // the program still ends by the signal, as without GapScope
    EXPECT_LT(r.wallSeconds, 10.0);
    EXPECT_EQ(observer.out, "ready\n");
    ASSERT_EQ(r.trace.processes().size(), 1u);
    // The default action would have skipped every exit handler: the collector ran its exit flush first.
    EXPECT_TRUE(r.summary.processes[0].closedCleanly);
    EXPECT_TRUE(r.trace.warnings().empty());
    const std::string name = signal == SIGINT ? "SIGINT" : "SIGTERM";
    EXPECT_EQ(r.summary.processes[0].collectorNotes,
        (std::vector<std::string> { "the program received " + name
            + ": the collector flushed and closed this file, then let the signal end the program" }));
}

INSTANTIATE_TEST_SUITE_P(Signals, RecordStopTest, ::testing::Values(SIGINT, SIGTERM),
    [](const ::testing::TestParamInfo<int>& info) { return std::string(info.param == SIGINT ? "sigint" : "sigterm"); });

TEST(RecordProcessesTest, TheProgramsOwnSigintHandlerIsLeftAlone)
{
    RecordOptions options = test::clientOptions(GAPSCOPE_LONG_CLIENT, { "own-handler" });
    options.output = RecordOptions::Output::Capture;
    ProgramRecorder recorder(options);
    ASSERT_EQ(recorder.start(), std::nullopt);
    StopWhenReady observer(recorder, SIGINT);
    auto result = recorder.wait(&observer);
    ASSERT_TRUE(result) << result.error().toString();
    // Its handler ran (and left with _exit(3), skipping the collector's exit flush).
    EXPECT_EQ(result.value().exit.exitCode, 3);
    EXPECT_EQ(observer.out, "ready\ncaught\n");
    ASSERT_EQ(result.value().summary.processes.size(), 1u);
    EXPECT_FALSE(result.value().summary.processes[0].closedCleanly);
    EXPECT_TRUE(result.value().summary.processes[0].collectorNotes.empty());
}

TEST(RecordProcessesTest, AFullDiskStopsTheCollectorNotTheProgram)
{
    // The client limits the size of the files it writes to 256 KB (as a full disk would) and then
    // records far more than that.
    RecordOptions options = test::clientOptions(GAPSCOPE_FILL_CLIENT);
    options.output = RecordOptions::Output::Capture;
    ProgramRecorder recorder(options);
    ASSERT_EQ(recorder.start(), std::nullopt);
    test::CollectingObserver observer;
    auto result = recorder.wait(&observer);
    ASSERT_TRUE(result) << result.error().toString();
    const RecordResult& r = result.value();
    EXPECT_EQ(r.exit.exitCode, 0); // it ran to its end
    EXPECT_EQ(observer.out, "done\n");
    EXPECT_NE(observer.err.find("the collector stops recording this process (the program goes on)"), std::string::npos)
        << observer.err;
    ASSERT_EQ(r.summary.processes.size(), 1u);
    const RecordedProcess& p = r.summary.processes[0];
    ASSERT_EQ(p.collectorErrors.size(), 1u);
    EXPECT_EQ(p.collectorErrors[0].rfind("writing the capture file failed after ", 0), 0u) << p.collectorErrors[0];
    EXPECT_NE(p.collectorErrors[0].find("(File too large): the collector stopped recording this process here; the "
                                        "program went on"),
        std::string::npos)
        << p.collectorErrors[0];
    // What was flushed before the limit is there; the file holds no more than the limit allowed.
    std::size_t before = 0;
    std::size_t fills = 0;
    for (const Lane& lane : r.trace.lanes()) {
        for (const Event& e : lane.events) {
            before += nameIs(r.trace, e, "before-fill");
            fills += nameIs(r.trace, e, "fill");
        }
    }
    EXPECT_EQ(before, 1u);
    EXPECT_LT(fills * sizeof(native::EventRecord), 256u * 1024u);
    EXPECT_EQ(std::count(r.summary.notes.begin(), r.summary.notes.end(),
                  "The collector of process " + std::to_string(p.pid)
                      + " could not write its capture file any more (the disk filled or a file size limit was "
                        "reached): it stopped recording there and the program went on; the trace ends at that point."),
        1);
    const std::string text = formatSummary(r.summary, r.exit, r.wallSeconds);
    EXPECT_NE(text.find("    collector error: writing the capture file failed after "), std::string::npos) << text;
}

/// A tmpfs of `bytes` mounted on a fresh folder while in scope; mounted() is false where mounting is
/// not allowed (not root, a container without CAP_SYS_ADMIN).
class SmallTmpfs {
public:
    explicit SmallTmpfs(std::size_t bytes)
    {
        const std::string options = "size=" + std::to_string(bytes);
        m_mounted = ::mount("gapscope-test", m_dir.path().c_str(), "tmpfs", 0, options.c_str()) == 0;
    }
    ~SmallTmpfs()
    {
        if (m_mounted)
            ::umount(m_dir.path().c_str());
    }
    bool mounted() const { return m_mounted; }
    std::string path() const { return m_dir.path().string(); }

private:
    gapscope::test::TempDir m_dir;
    bool m_mounted = false;
};

TEST(RecordProcessesTest, ADiskThatFillsUpStopsTheCollectorNotTheProgram)
{
    SmallTmpfs disk(128 * 1024);
    if (!disk.mounted())
        GTEST_SKIP() << "cannot mount a tmpfs here (needs root); AFullDiskStopsTheCollectorNotTheProgram covers the "
                        "same path with a file size limit";
    RecordOptions options = test::clientOptions(GAPSCOPE_FILL_CLIENT, { "0" }); // no size limit: the disk fills
    options.output = RecordOptions::Output::Capture;
    options.partsDirectory = disk.path() + "/parts";
    ProgramRecorder recorder(options);
    ASSERT_EQ(recorder.start(), std::nullopt);
    test::CollectingObserver observer;
    auto result = recorder.wait(&observer);
    ASSERT_TRUE(result) << result.error().toString();
    const RecordResult& r = result.value();
    EXPECT_EQ(r.exit.exitCode, 0);
    EXPECT_EQ(observer.out, "done\n");
    ASSERT_EQ(r.summary.processes.size(), 1u);
    const RecordedProcess& p = r.summary.processes[0];
    ASSERT_EQ(p.collectorErrors.size(), 1u) << observer.err;
    EXPECT_NE(p.collectorErrors[0].find("(No space left on device): the collector stopped recording this process "
                                        "here; the program went on"),
        std::string::npos)
        << p.collectorErrors[0];
    std::size_t before = 0;
    for (const Lane& lane : r.trace.lanes()) {
        for (const Event& e : lane.events)
            before += nameIs(r.trace, e, "before-fill");
    }
    EXPECT_EQ(before, 1u);
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
    for (const Lane& lane : result.value().trace.lanes()) {
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
        "nothing was recorded: no process of the program used CUDA or NVTX, so nothing loaded the collector (GapScope "
        "records CUDA activity and NVTX ranges, not a program's CPU time: mark its CPU work with NVTX ranges, or "
        "open a PyTorch profiler trace for its CPU ops)");
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
    // ...and says so: the other tool records nothing in this run.
    EXPECT_EQ(recorder.warnings(),
        (std::vector<std::string> { "CUDA_INJECTION64_PATH was set to /somewhere/else.so (an unknown tool): GapScope "
                                    "replaced it with its collector, so that tool records nothing in this run" }));
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
    EXPECT_EQ(result.value().trace.processes().size(), 1u);
    EXPECT_EQ(result.value().trace.eventCount(), 0u);
    EXPECT_EQ(result.value().summary.notes.front(), recorder.warnings().front());
}

TEST(RecordProcessesTest, AnNsightSystemsInjectionInTheEnvironmentIsReplacedWithAWarning)
{
    // What `nsys profile` leaves in the environment of the programs it starts.
    const std::string nsys = "/opt/nvidia/nsight-systems/2025.3.1/target-linux-x64/libToolsInjection64.so";
    ::setenv("NVTX_INJECTION64_PATH", nsys.c_str(), 1);
    ProgramRecorder recorder(test::clientOptions(GAPSCOPE_NVTX_CLIENT));
    const auto error = recorder.start();
    ::unsetenv("NVTX_INJECTION64_PATH");
    ASSERT_EQ(error, std::nullopt);
    test::CollectingObserver observer;
    auto result = recorder.wait(&observer);
    ASSERT_TRUE(result) << result.error().toString();
    const std::string warning = "NVTX_INJECTION64_PATH was set to " + nsys
        + " (Nsight Systems): GapScope replaced it with its collector, so that tool records nothing in this run";
    EXPECT_EQ(recorder.warnings(), (std::vector<std::string> { warning }));
    EXPECT_EQ(observer.notes, (std::vector<std::string> { warning }));
    EXPECT_EQ(result.value().summary.notes.front(), warning);
    EXPECT_EQ(
        ProgramRecorder::injectionToolName("/opt/nvidia/nsight-compute/2025.3/target/linux-desktop-glibc_2_11_3-x64/"
                                           "libInjection_64.so"),
        "Nsight Compute");
}

} // namespace
} // namespace gapscope::capture
