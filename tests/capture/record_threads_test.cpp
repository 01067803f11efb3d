// SPDX-License-Identifier: MIT
// Threads under the collector: short-lived threads keep their names,
// and a process with two copies of NVTX records every range once.

#include "tests/capture/record_test_support.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace gapscope::capture {
namespace {

using test::namesOf;
using test::threadNamed;

TEST(RecordThreadsTest, ThreadsThatEndEarlyKeepTheirNames)
{
    ProgramRecorder recorder(test::clientOptions(GAPSCOPE_THREAD_NAME_CLIENT));
    ASSERT_EQ(recorder.start(), std::nullopt);
    auto result = recorder.wait();
    ASSERT_TRUE(result) << result.error().toString();
    const Trace& trace = result.value().trace;
    EXPECT_EQ(result.value().exit.exitCode, 0);
    ASSERT_EQ(trace.processes().size(), 1u);
    const ProcessIndex process { 0 };
    // The loader named itself, recorded three ranges and was gone 300 ms before the program ended.
    const Lane* loader = threadNamed(trace, process, "loader");
    ASSERT_NE(loader, nullptr) << "the loader's lane lost its name";
    EXPECT_EQ(namesOf(trace, *loader), (std::vector<std::string> { "load:0", "load:1", "load:2" }));
    EXPECT_NE(loader->tid, trace.processes()[0].pid);
    // This one recorded as "early" and renamed itself "late" before it ended: the name it left with.
    const Lane* late = threadNamed(trace, process, "late");
    ASSERT_NE(late, nullptr);
    EXPECT_EQ(namesOf(trace, *late), (std::vector<std::string> { "rename:work" }));
    EXPECT_EQ(threadNamed(trace, process, "early"), nullptr);
    // The main thread carries the kernel's name of the executable (cut at 15 characters).
    const Lane* main = threadNamed(trace, process, "gapscope_thread");
    ASSERT_NE(main, nullptr);
    EXPECT_EQ(main->tid, trace.processes()[0].pid);
    EXPECT_EQ(namesOf(trace, *main), (std::vector<std::string> { "main:start", "main:end" }));
}

TEST(RecordThreadsTest, TwoCopiesOfNvtxInOneProcessRecordEveryRangeOnce)
{
    ProgramRecorder recorder(test::clientOptions(GAPSCOPE_NVTX_COPIES_CLIENT));
    ASSERT_EQ(recorder.start(), std::nullopt);
    const pid_t pid = recorder.pid();
    auto result = recorder.wait();
    ASSERT_TRUE(result) << result.error().toString();
    const Trace& trace = result.value().trace;
    EXPECT_EQ(result.value().exit.exitCode, 0);
    ASSERT_EQ(trace.processes().size(), 2u); // the program and its forked child
    const ProcessIndex parent { trace.processes()[0].pid == pid ? 0u : 1u };
    const ProcessIndex child { 1u - parent.value };

    const Lane* main = nullptr;
    std::vector<std::string> parentRanges;
    std::vector<std::string> childRanges;
    for (const Lane& lane : trace.lanes()) {
        if (lane.kind == LaneKind::CpuThread && lane.process == parent && lane.tid == pid)
            main = &lane;
        for (const Event& e : lane.events) {
            if (e.kind == EventKind::NvtxRange)
                (lane.process == parent ? parentRanges : childRanges).emplace_back(trace.name(e));
        }
    }
    EXPECT_NE(trace.processes()[child.value].pid, pid);
    std::sort(parentRanges.begin(), parentRanges.end());
    EXPECT_EQ(parentRanges, (std::vector<std::string> { "library:main", "library:thread", "main:outer" }));
    EXPECT_EQ(childRanges, (std::vector<std::string> { "library:child" }));
    // The program's copy and the library's nest on one lane.
    ASSERT_NE(main, nullptr);
    EXPECT_EQ(test::shapeOf(trace, *main, EventKind::NvtxRange),
        (std::vector<std::string> { "main:outer@0", "library:main@1" }));
    for (const RecordedProcess& p : result.value().summary.processes)
        EXPECT_TRUE(p.closedCleanly) << p.pid;
}

} // namespace
} // namespace gapscope::capture
