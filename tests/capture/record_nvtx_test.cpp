// SPDX-License-Identifier: MIT
// End to end without a GPU: tests/clients/nvtx_client.cpp is recorded through NVTX injection, by
// the launcher library and by `gapscope record`; the recording holds exactly the client's ranges,
// marks and thread names (the shape is documented in the client).

#include "capture/launcher/program_lookup.h"
#include "cli/commands.h"
#include "core/io/trace_file.h"
#include "tests/capture/record_test_support.h"

#include "tests/temp_dir.h"

#include <gtest/gtest.h>

#include <csignal>
#include <sstream>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace gapscope::capture {
namespace {

using test::namesOf;
using test::shapeOf;
using test::threadNamed;

/// Checks the whole shape nvtx_client.cpp promises.
void expectNvtxClientShape(const Trace& trace)
{
    ASSERT_EQ(trace.processes().size(), 1u);
    const ProcessIndex process { 0 };
    EXPECT_EQ(trace.processes()[0].name, "gapscope_nvtx_client");

    const Lane* main = threadNamed(trace, process, "nvtx-main");
    const Lane* a = threadNamed(trace, process, "worker-a");
    const Lane* b = threadNamed(trace, process, "worker-b");
    ASSERT_NE(main, nullptr);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(main->tid, trace.processes()[0].pid); // the main thread's tid is the pid
    EXPECT_NE(a->tid, b->tid);

    EXPECT_EQ(
        shapeOf(trace, *main, EventKind::NvtxRange), (std::vector<std::string> { "main:setup@0", "main:load@1" }));
    EXPECT_EQ(shapeOf(trace, *main, EventKind::NvtxMark), (std::vector<std::string> { "main:loaded@2" }));
    EXPECT_EQ(namesOf(trace, *main), (std::vector<std::string> { "main:setup", "main:load", "main:loaded" }));
    EXPECT_EQ(shapeOf(trace, *a, EventKind::NvtxRange),
        (std::vector<std::string> { "a:outer@0", "a:inner-1@1", "a:inner-2@1" }));
    EXPECT_EQ(shapeOf(trace, *a, EventKind::NvtxMark), (std::vector<std::string> { "a:mark@2" }));
    // async:shared starts on worker-b before b:outer and ends on the main thread after the join:
    // it is drawn on the thread that started it and encloses everything worker-b did.
    EXPECT_EQ(shapeOf(trace, *b, EventKind::NvtxRange),
        (std::vector<std::string> { "async:shared@0", "b:outer@1", "b:middle@2", "b:inner@3", "b:domain-range@1" }));

    // Ranges last what the client slept: at least 2 ms each, nesting intact.
    for (const Lane* lane : { main, a, b }) {
        for (const Event& e : lane->events) {
            if (e.kind == EventKind::NvtxRange)
                EXPECT_GE(e.duration(), 2'000'000) << trace.name(e);
            else
                EXPECT_EQ(e.duration(), 0) << trace.name(e);
        }
    }
    EXPECT_EQ(trace.argsJson(main->events[0]), R"({"color":"#00aa55","payload":42})");
    EXPECT_EQ(trace.argsJson(b->events.back()), R"({"domain":"gapscope-test","category":"phase"})");
    EXPECT_GE(b->events[0].end, main->events[0].end); // async:shared ended last

    // Nothing else on the program's threads: only the collector's own lane besides them.
    std::size_t nvtxEvents = 0;
    for (const Lane& lane : trace.lanes()) {
        for (const Event& e : lane.events) {
            if (e.kind == EventKind::NvtxRange || e.kind == EventKind::NvtxMark)
                ++nvtxEvents;
            else
                EXPECT_EQ(e.kind, EventKind::Overhead) << trace.name(e);
        }
    }
    EXPECT_EQ(nvtxEvents, 12u); // 10 ranges, 2 marks
}

TEST(RecordNvtxTest, LauncherRecordsTheClientsRangesThreadsAndMarks)
{
    ProgramRecorder recorder(test::clientOptions(GAPSCOPE_NVTX_CLIENT));
    ASSERT_EQ(recorder.start(), std::nullopt);
    test::CollectingObserver observer;
    auto result = recorder.wait(&observer);
    ASSERT_TRUE(result) << result.error().toString();
    const RecordResult& r = result.value();
    EXPECT_EQ(r.exit.exitCode, 0);
    expectNvtxClientShape(r.trace);
    EXPECT_TRUE(r.trace.warnings().empty());

    ASSERT_EQ(r.summary.processes.size(), 1u);
    EXPECT_TRUE(r.summary.processes[0].closedCleanly);
    EXPECT_FALSE(r.summary.processes[0].cuptiActive.has_value()); // the client never touches CUDA
    EXPECT_EQ(r.summary.eventsByKind[static_cast<int>(EventKind::NvtxRange)], 10u);
    EXPECT_EQ(r.summary.eventsByKind[static_cast<int>(EventKind::NvtxMark)], 2u);
    EXPECT_EQ(r.summary.droppedRecords, 0u);
    if (!nvidiaDriverPresent()) {
        ASSERT_FALSE(r.summary.notes.empty());
        EXPECT_EQ(
            r.summary.notes[0], "No NVIDIA driver was found on this machine: only NVTX and CPU ranges were recorded.");
    }
    // The last progress report counts every record the files hold.
    ASSERT_FALSE(observer.updates.empty());
    EXPECT_EQ(observer.updates.back().records, r.trace.eventCount());
    EXPECT_EQ(observer.updates.back().processes, 1u);
}

TEST(RecordNvtxTest, RecordCommandWritesANativeTraceThatLoads)
{
    gapscope::test::TempDir dir;
    const std::string output = dir.file("nvtx.gapscope");
    std::ostringstream out;
    std::ostringstream err;
    const int status = cli::runRecord({ "-o", output, "--kinds", "nvtx", "--", GAPSCOPE_NVTX_CLIENT }, out, err);
    ASSERT_EQ(status, 0) << err.str();
    EXPECT_EQ(out.str(), ""); // stdout belongs to the program
    EXPECT_NE(err.str().find("The program exited with code 0"), std::string::npos) << err.str();
    EXPECT_NE(err.str().find("Records by kind: nvtx_range 10, nvtx_mark 2,"), std::string::npos) << err.str();
    EXPECT_NE(err.str().find("Dropped records: 0"), std::string::npos) << err.str();
    EXPECT_NE(err.str().find("Collector overhead: "), std::string::npos) << err.str();
    EXPECT_NE(err.str().find("Wrote " + output), std::string::npos) << err.str();

    auto loaded = loadTraceFile(output); // what `gapscope OUT` and `gapscope convert` read
    ASSERT_TRUE(loaded) << loaded.error().toString();
    expectNvtxClientShape(loaded.value());
}

TEST(RecordNvtxTest, KindsWithoutNvtxRecordNoRanges)
{
    ProgramRecorder recorder([] {
        RecordOptions options = test::clientOptions(GAPSCOPE_NVTX_CLIENT);
        options.kinds = kCudaRecordKinds;
        return options;
    }());
    ASSERT_EQ(recorder.start(), std::nullopt);
    auto result = recorder.wait();
    // NVTX was not asked for and the client does not use CUDA: nothing loaded the collector.
    ASSERT_FALSE(result);
    EXPECT_NE(result.error().message.find("nothing was recorded"), std::string::npos);
}

// NVTX dlclose()s an injection library whose InitializeInjectionNvtx2 returns 0. When the collector has
// started by then (here: its folder does not exist, so it cannot create its file), its SIGINT/SIGTERM handler
// is installed: the library must stay loaded (-z nodelete), or the next SIGTERM jumps into unmapped code
// and the program dies of SIGSEGV (what it did) instead of the SIGTERM it was sent.
TEST(RecordNvtxTest, TheCollectorStaysLoadedWhenNvtxInitFails)
{
    gapscope::test::TempDir dir;
    const std::string missingFolder = dir.file("missing");
    const std::string errPath = dir.file("stderr.txt");
    int out[2];
    ASSERT_EQ(::pipe(out), 0);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        ::dup2(out[1], 1);
        const int err = ::open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ::dup2(err, 2);
        ::close(out[0]);
        ::setenv("NVTX_INJECTION64_PATH", GAPSCOPE_INJECT_LIBRARY, 1);
        ::setenv("GAPSCOPE_OUTPUT_DIR", missingFolder.c_str(), 1);
        ::execl(GAPSCOPE_LONG_CLIENT, GAPSCOPE_LONG_CLIENT, static_cast<char*>(nullptr));
        ::_exit(127);
    }
    ::close(out[1]);
    // "ready" comes after the client's first NVTX call: NVTX has tried the collector and closed it by then.
    std::string said;
    char buffer[64];
    while (said.find("ready\n") == std::string::npos) {
        const ssize_t got = ::read(out[0], buffer, sizeof(buffer));
        if (got <= 0)
            break;
        said.append(buffer, static_cast<std::size_t>(got));
    }
    ::close(out[0]);
    EXPECT_EQ(said, "ready\n");
    ASSERT_EQ(::kill(pid, SIGTERM), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    const std::string err = gapscope::test::readWholeFile(errPath);
    ASSERT_TRUE(WIFSIGNALED(status)) << "exit status " << WEXITSTATUS(status) << "\n" << err;
    EXPECT_EQ(WTERMSIG(status), SIGTERM) << err;
    EXPECT_NE(err.find("cannot create " + missingFolder + "/gapscope-" + std::to_string(pid)), std::string::npos)
        << err;
}

} // namespace
} // namespace gapscope::capture
