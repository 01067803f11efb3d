// SPDX-License-Identifier: MIT
// OSRT_API, the OS runtime calls Nsight Systems traces (pthread, poll, ioctl, read, ...): on pipit's CloverLeaf
// export (nsys 2024.5.1, tests/data/NOTICE.md), with counts checked by hand with sqlite3 queries, and on a
// database made here with and without the table, whose figures and gap evidence are worked out below.
#include "core/analysis/analysis.h"
#include "core/analysis/gap_evidence.h"
#include "core/io/nsys/nsys_sqlite_reader.h"
#include "core/io/trace_file.h"
#include "tests/core/hand_trace.h"
#include "tests/core/io/nsys/hand_made_export.h"
#include "tests/temp_dir.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <map>

namespace gapscope {
namespace {

using test::allWarnings;
using test::countKind;

using test::execute;
using test::load;
using test::TempDir;

const std::string kCloverLeaf = "pipit/cloverleaf-nsys/perlmutter-cloverleaf-cuda.sqlite";

const Lane* threadLaneOf(const Trace& trace, std::int64_t tid)
{
    for (const Lane& lane : trace.lanes()) {
        if (lane.kind == LaneKind::CpuThread && lane.tid == tid)
            return &lane;
    }
    return nullptr;
}

// ---- CloverLeaf: 1,831 OSRT_API rows --------------------------------------------------------------------------

TEST(NsysOsRuntimeCloverLeaf, CallsOnTheThreadLanesTheyWereMadeOn)
{
    const Trace trace = load(kCloverLeaf);
    // SELECT eventClass, count(*) FROM OSRT_API GROUP BY 1: 1,828 calls (class 27), and three markers where
    // tracing started and finished (classes 31 and 32, zero-length, on thread id 0), which are not calls.
    EXPECT_EQ(countKind(trace, { EventKind::Other }), 1828u);
    EXPECT_EQ(threadLaneOf(trace, 0), nullptr);
    // ... GROUP BY globalTid & 0xffffff: the main thread and two threads that make no CUDA call.
    const Lane* main = threadLaneOf(trace, 1701896);
    const Lane* handler = threadLaneOf(trace, 1701908);
    const Lane* other = threadLaneOf(trace, 1701906);
    ASSERT_NE(main, nullptr);
    ASSERT_NE(handler, nullptr);
    ASSERT_NE(other, nullptr);
    const auto osCalls = [](const Lane& lane) {
        return std::count_if(
            lane.events.begin(), lane.events.end(), [](const Event& e) { return e.kind == EventKind::Other; });
    };
    EXPECT_EQ(osCalls(*main), 1797);
    EXPECT_EQ(osCalls(*handler), 29);
    EXPECT_EQ(osCalls(*other), 2);
    EXPECT_EQ(handler->name, "cuda-EvtHandlr"); // ThreadNames
    EXPECT_EQ(other->name, "cuda-EvtHandlr");
    EXPECT_EQ(main->name, "cuda-cloverleaf");
    // The handler thread's first two calls, rows of OSRT_API by start.
    ASSERT_GE(handler->events.size(), 2u);
    EXPECT_EQ(trace.name(handler->events[0]), "poll");
    EXPECT_EQ(handler->events[0].start, 298622262);
    EXPECT_EQ(handler->events[0].end, 375833303);
    EXPECT_EQ(trace.name(handler->events[1]), "read");
    EXPECT_EQ(handler->events[1].start, 376479848);
    EXPECT_EQ(handler->events[1].end, 376482053);

    // Calls and time by name (SELECT value, count(*), sum(end - start) ... GROUP BY value).
    std::map<std::string, std::pair<int, TimeNs>> byName;
    for (const Lane& lane : trace.lanes()) {
        for (const Event& e : lane.events) {
            if (e.kind != EventKind::Other)
                continue;
            auto& [count, total] = byName[std::string(trace.name(e))];
            ++count;
            total += e.duration();
            EXPECT_EQ(e.correlation, 0u); // they launch nothing
        }
    }
    EXPECT_EQ(byName["ioctl"], std::make_pair(1253, TimeNs { 281'949'575 }));
    EXPECT_EQ(byName["write"], std::make_pair(133, TimeNs { 19'377'264 }));
    EXPECT_EQ(byName["poll"], std::make_pair(18, TimeNs { 500'924'932 }));
    EXPECT_EQ(byName["pthread_create"], std::make_pair(4, TimeNs { 872'021 }));
    // The CUDA calls are what they were: 3,048 RUNTIME rows, none of them doubled.
    EXPECT_EQ(countKind(trace, { EventKind::RuntimeApi, EventKind::DriverApi }), 3048u);
}

TEST(NsysOsRuntimeCloverLeaf, GpuFiguresUnchangedAndTheTraceWindowStartsAtTheFirstCall)
{
    const Trace trace = load(kCloverLeaf);
    // Over the gpu window the OS calls change nothing: they are not GPU activity, not launches and not
    // synchronizing calls (the figures are those of the import without OSRT_API).
    const AnalysisResult gpu = analyze(trace, {});
    ASSERT_EQ(gpu.devices.size(), 1u);
    EXPECT_EQ(gpu.devices[0].spanNs, 342'407'810);
    EXPECT_EQ(gpu.devices[0].busyNs, 303'795'463);
    EXPECT_EQ(gpu.devices[0].idleNs, 38'612'347);
    EXPECT_EQ(gpu.devices[0].gapCount, 1590u);
    EXPECT_EQ(gpu.devices[0].idleByCause[static_cast<std::size_t>(GapCause::Sync)], 38'558'908);
    EXPECT_EQ(gpu.devices[0].idleByCause[static_cast<std::size_t>(GapCause::Host)], 48'319);
    EXPECT_EQ(gpu.devices[0].idleByCause[static_cast<std::size_t>(GapCause::Launch)], 5'120);
    // The trace window is every recorded event's: it starts at the first OS call (78,291,151 ns, an `open` on
    // the main thread) 186 ms before the first CUDA call (264,403,140 ns), and ends with the last (883,810,446).
    AnalysisOptions options;
    options.window.kind = WindowKind::Trace;
    const AnalysisResult whole = analyze(trace, options);
    ASSERT_EQ(whole.windows.size(), 1u);
    EXPECT_EQ(whole.windows[0].start(), 78'291'151);
    EXPECT_EQ(whole.windows[0].end(), 883'810'446);
}

// ---- a database made here -------------------------------------------------------------------------------------

constexpr std::int64_t kPid = 100;
constexpr std::int64_t kGlobalPid = kPid << 24;
constexpr std::int64_t kMainThread = kGlobalPid | kPid; // tid 100
constexpr std::int64_t kOtherThread = kGlobalPid | 101;

/// Two kernels on stream 7, launched at 1,000 and 50,000 ns by thread 100; the second launch comes 47 µs into
/// the 48 µs gap between the kernels [2,000, 3,000) and [51,000, 52,000): a host gap. With `osRuntime`, thread
/// 100 was in poll() for [4,000, 45,000) of it, 41 of the 48 µs.
std::string makeExport(const TempDir& dir, bool osRuntime)
{
    const std::string path = dir.file(osRuntime ? "with_osrt.sqlite" : "without_osrt.sqlite");
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    execute(db,
        "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
        "INSERT INTO StringIds VALUES (0, 'cudaLaunchKernel_v7000'), (1, 'void scale(float *)'), (2, 'poll'),"
        "  (3, 'pthread_mutex_lock'), (4, 'read'), (5, 'OS runtime libraries profiling started');"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER,"
        "  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER, shortName INTEGER);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER,"
        "  globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL)");
    execute(db,
        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (2000, 3000, 0, 7, 1, " + std::to_string(kGlobalPid)
            + ", 1, 1), (51000, 52000, 0, 7, 2, " + std::to_string(kGlobalPid) + ", 1, 1);"
            + "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1000, 1100, 0, " + std::to_string(kMainThread)
            + ", 1, 0), (50000, 50100, 0, " + std::to_string(kMainThread) + ", 2, 0)");
    if (osRuntime) {
        // nsys's columns; row 3 ends before it starts, row 5 is the marker nsys writes when tracing starts.
        execute(db,
            "CREATE TABLE OSRT_API (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,"
            "  globalTid INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, nestingLevel INTEGER,"
            "  callchainId INTEGER NOT NULL);"
            "INSERT INTO OSRT_API VALUES (4000, 45000, 27, "
                + std::to_string(kMainThread) + ", 2, 1, 0, 0), (45500, 45600, 27, " + std::to_string(kMainThread)
                + ", 3, 0, 0, 0), (6000, 5000, 27, " + std::to_string(kMainThread)
                + ", 4, 0, 0, 0), (10000, 20000, 27, " + std::to_string(kOtherThread)
                + ", 4, 64, 0, 0), (500, 500, 31, " + std::to_string(kGlobalPid) + ", 5, 0, NULL, 0)");
    }
    sqlite3_close(db);
    return path;
}

/// The device gap of the trace, with its evidence.
std::pair<Gap, GapEvidence> onlyDeviceGap(const Trace& trace)
{
    const AnalysisResult result = analyze(trace, {});
    std::vector<Gap> gaps;
    for (const Gap gap : result.gaps) {
        if (!gap.stream)
            gaps.push_back(gap);
    }
    EXPECT_EQ(gaps.size(), 1u);
    EXPECT_EQ(result.devices.size(), 1u);
    if (gaps.size() != 1 || result.devices.size() != 1)
        return {};
    // [2,000, 52,000): 2,000 ns busy, 48,000 idle in one gap.
    EXPECT_EQ(result.devices[0].spanNs, 50'000);
    EXPECT_EQ(result.devices[0].busyNs, 2'000);
    EXPECT_EQ(result.devices[0].idleNs, 48'000);
    return { gaps[0], gapEvidence(trace, gaps[0], result.options.launchThresholdNs) };
}

TEST(NsysOsRuntimeHandMade, CallsAreRangesOfTheirThreadsAndNameWhatTheLauncherWasDoing)
{
    TempDir dir;
    const std::string path = makeExport(dir, true);
    auto loaded = NsysSqliteReader::readFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    const Trace& trace = loaded.value();
    // Rows 1, 2 and 4 are calls; row 3 is skipped and counted, row 5 (the marker) is no event.
    EXPECT_EQ(countKind(trace, { EventKind::Other }), 3u);
    EXPECT_EQ(trace.skippedEvents(), 1u);
    const auto skipped = std::find_if(trace.warnings().begin(), trace.warnings().end(),
        [](const ImportWarning& w) { return w.place == "table OSRT_API, row 3"; });
    ASSERT_NE(skipped, trace.warnings().end()) << allWarnings(trace);
    EXPECT_EQ(skipped->message, "skipped: it ends before it starts");
    EXPECT_EQ(threadLaneOf(trace, 0), nullptr);

    const Lane* main = threadLaneOf(trace, 100);
    const Lane* other = threadLaneOf(trace, 101);
    ASSERT_NE(main, nullptr);
    ASSERT_NE(other, nullptr);
    ASSERT_EQ(main->events.size(), 4u); // by start: launch, poll, pthread_mutex_lock, launch
    EXPECT_EQ(trace.name(main->events[1]), "poll");
    EXPECT_EQ(main->events[1].kind, EventKind::Other);
    EXPECT_EQ(main->events[1].start, 4000);
    EXPECT_EQ(main->events[1].end, 45000);
    EXPECT_EQ(trace.name(main->events[2]), "pthread_mutex_lock");
    EXPECT_EQ(main->events[3].kind, EventKind::RuntimeApi);
    ASSERT_EQ(other->events.size(), 1u);
    EXPECT_EQ(trace.name(other->events[0]), "read");
    EXPECT_EQ(other->events[0].start, 10000);
    EXPECT_EQ(other->events[0].end, 20000);
    // OS runtime calls are no synchronizing CUDA calls: the analysis's summary of the thread lists none.
    const LaneSummaries summaries(trace);
    const auto mainIndex = static_cast<std::uint32_t>(main - trace.lanes().data());
    EXPECT_TRUE(summaries[LaneIndex { mainIndex }].syncCalls.empty());

    // The launch of the second kernel began 47 µs into the gap: a host gap, and the launching thread spent
    // 41 of its 48 µs in poll(), which the evidence names.
    const auto [gap, evidence] = onlyDeviceGap(trace);
    EXPECT_EQ(gap.start, 3000);
    EXPECT_EQ(gap.end, 51000);
    EXPECT_EQ(gap.cause, GapCause::Host);
    ASSERT_TRUE(evidence.hostRange.has_value());
    EXPECT_EQ(trace.name(trace.event(*evidence.hostRange)), "poll");
    EXPECT_NE(evidence.summary.find("the thread was in 'poll'"), std::string::npos) << evidence.summary;
    EXPECT_EQ(allWarnings(trace).find("OSRT_API (OS runtime calls)"), std::string::npos) << allWarnings(trace);
}

TEST(NsysOsRuntimeHandMade, WithoutTheTableTheSameFiguresAndAWarningNamingIt)
{
    TempDir dir;
    const std::string path = makeExport(dir, false);
    auto loaded = NsysSqliteReader::readFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    const Trace& trace = loaded.value();
    EXPECT_EQ(countKind(trace, { EventKind::Other }), 0u);
    EXPECT_EQ(countKind(trace, { EventKind::RuntimeApi }), 2u);
    EXPECT_NE(allWarnings(trace).find("tables not in this export (nothing of their kind was recorded or exported): "),
        std::string::npos)
        << allWarnings(trace);
    EXPECT_NE(allWarnings(trace).find("OSRT_API (OS runtime calls)"), std::string::npos) << allWarnings(trace);
    // The same gap and cause; nothing on the thread covers most of it now.
    const auto [gap, evidence] = onlyDeviceGap(trace);
    EXPECT_EQ(gap.start, 3000);
    EXPECT_EQ(gap.end, 51000);
    EXPECT_EQ(gap.cause, GapCause::Host);
    EXPECT_FALSE(evidence.hostRange.has_value());
    EXPECT_NE(evidence.summary.find("no range on that thread covers most of the gap"), std::string::npos)
        << evidence.summary;
}

} // namespace
} // namespace gapscope
