// SPDX-License-Identifier: MIT
// Recordings of a program whose threads start and end, that forks without exec and (in one case) aborts
// (tests/clients/churn_client.cpp). In the sanitizer build (scripts/ci_hardening.sh: the collector, the
// client and this test built with -fsanitize=address,undefined) the client's stderr must hold no report;
// in every build the recording must hold exactly what the client did.

#include "core/io/native/native_format.h"
#include "tests/capture/record_test_support.h"

#include <gtest/gtest.h>

#include <csignal>
#include <map>
#include <string>
#include <vector>

namespace gapscope::capture {
namespace {

using test::namesOf;

/// Lane name -> the names of its events, in time order, for the thread lanes of one process that hold events
/// (the collector's own overhead lane aside: its flushes vary from run to run).
std::map<std::string, std::vector<std::string>> threadLanesOf(const Trace& trace, ProcessIndex process)
{
    std::map<std::string, std::vector<std::string>> lanes;
    for (const Lane& lane : trace.lanes()) {
        if (lane.kind == LaneKind::CpuThread && lane.process == process && !lane.events.empty()
            && lane.name != native::kCollectorLaneName)
            lanes[lane.name] = namesOf(trace, lane);
    }
    return lanes;
}

/// What churn_client records in its own process (main:done last; no "never-closed": it was never popped).
std::map<std::string, std::vector<std::string>> expectedParentLanes()
{
    std::map<std::string, std::vector<std::string>> lanes;
    lanes["churn-main"] = { "main:round-0", "main:round-1", "main:round-2", "main:done" };
    for (int round = 0; round < 3; ++round) {
        for (int index = 0; index < 3; ++index) {
            const std::string r = std::to_string(round);
            const std::string i = std::to_string(index);
            lanes["churn-" + r + "-" + i] = { "work:" + r + ":" + i, "mark:" + r + ":" + i };
        }
    }
    return lanes;
}

/// The lines of a sanitizer report, if the program's stderr holds one.
bool hasSanitizerReport(const std::string& err)
{
    return err.find("AddressSanitizer") != std::string::npos || err.find("LeakSanitizer") != std::string::npos
        || err.find("runtime error:") != std::string::npos;
}

struct ChurnCase {
    const char* name;
    std::vector<std::string> arguments;
    int signal; // 0: exits with 0
};

class RecordChurnTest : public ::testing::TestWithParam<ChurnCase> { };

TEST_P(RecordChurnTest, EveryThreadAndForkedChildIsRecordedWithoutASanitizerReport)
{
    const ChurnCase& c = GetParam();
    RecordOptions options = test::clientOptions(GAPSCOPE_CHURN_CLIENT, c.arguments);
    options.output = RecordOptions::Output::Capture;
    ProgramRecorder recorder(options);
    ASSERT_EQ(recorder.start(), std::nullopt);
    const pid_t parentPid = recorder.pid();
    test::CollectingObserver observer;
    auto result = recorder.wait(&observer);
    ASSERT_TRUE(result) << result.error().toString();
    const RecordResult& r = result.value();
    EXPECT_FALSE(hasSanitizerReport(observer.err)) << observer.err;
    if (c.signal == 0)
        EXPECT_EQ(r.exit.exitCode, 0) << observer.err;
    else
        EXPECT_EQ(r.exit.signal, c.signal) << observer.err;

    const Trace& trace = r.trace;
    ASSERT_EQ(trace.processes().size(), 3u); // the client and its two forked children
    std::vector<std::map<std::string, std::vector<std::string>>> children;
    bool sawParent = false;
    for (std::uint32_t p = 0; p < trace.processes().size(); ++p) {
        const auto lanes = threadLanesOf(trace, ProcessIndex { p });
        if (trace.processes()[p].pid == parentPid) {
            sawParent = true;
            EXPECT_EQ(lanes, expectedParentLanes());
        } else {
            children.push_back(lanes);
        }
    }
    EXPECT_TRUE(sawParent);
    // Children are ordered by pid: the one forked in round 0 first.
    ASSERT_EQ(children.size(), 2u);
    for (std::size_t round = 0; round < 2; ++round) {
        const std::string r = std::to_string(round);
        EXPECT_EQ(children[round],
            (std::map<std::string, std::vector<std::string>> { { "forked-" + r, { "forked:" + r } } }));
    }
    ASSERT_EQ(r.summary.processes.size(), 3u);
    std::size_t closedCleanly = 0;
    for (const auto& process : r.summary.processes)
        closedCleanly += process.closedCleanly ? 1 : 0;
    // An aborting client leaves its own file unclosed; its children ended normally before that.
    EXPECT_EQ(closedCleanly, c.signal == 0 ? 3u : 2u);
    EXPECT_EQ(r.summary.droppedRecords, 0u);
}

INSTANTIATE_TEST_SUITE_P(Modes, RecordChurnTest,
    ::testing::Values(ChurnCase { "ExitsNormally", {}, 0 }, ChurnCase { "Aborts", { "abort" }, SIGABRT }),
    [](const ::testing::TestParamInfo<ChurnCase>& info) { return std::string(info.param.name); });

} // namespace
} // namespace gapscope::capture
