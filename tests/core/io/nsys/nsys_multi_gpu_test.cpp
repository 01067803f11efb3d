// SPDX-License-Identifier: MIT
// Two processes, one GPU each, in one Nsight Systems export: the layout of a job run with one process per GPU.
// CUPTI's synchronization records carry no device, and nsys writes 0 in their deviceId column whatever device
// the context is on, so the second process's synchronization rows say device 0 while all its work is on
// device 1. The database is made here with nsys's columns (nsys 2026.2, export schema 3.25, the columns the
// reader uses); its figures are worked out in the comments.
#include "core/analysis/analysis.h"
#include "core/io/nsys/nsys_sqlite_reader.h"
#include "tests/core/hand_trace.h"
#include "tests/core/io/nsys/hand_made_export.h"
#include "tests/temp_dir.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>

namespace gapscope {
namespace {

using test::allWarnings;
using test::execute;
using test::TempDir;

constexpr std::int64_t kPidA = 200; // on device 0
constexpr std::int64_t kPidB = 300; // on device 1
std::string globalPid(std::int64_t pid)
{
    return std::to_string(pid << 24);
}
std::string globalTid(std::int64_t pid)
{
    return std::to_string((pid << 24) | pid);
}

/// Each process: cudaLaunchKernel [1,000, 1,100) and [3,200, 3,300), cudaStreamSynchronize [1,200, 3,100) on its
/// main thread; kernels [2,000, 3,000) and [4,000, 5,000) on its device, and the GPU side of the synchronization
/// [1,200, 3,050) on the same stream. Both processes number their context 1. Process B also has a context 5
/// that ran nothing, with one synchronization row.
std::string makeTwoProcessExport(const TempDir& dir)
{
    std::string path = dir.file("two_gpus.sqlite");
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    execute(db,
        "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
        "INSERT INTO StringIds VALUES (0, 'cudaLaunchKernel_v7000'), (1, 'void step(float *)'),"
        "  (2, 'cudaStreamSynchronize_v3020');"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER"
        "  NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId"
        "  INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId"
        "  INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL,"
        "  correlationId INTEGER, globalPid INTEGER, deprecatedSyncType INTEGER, syncType INTEGER NOT NULL,"
        "  eventId INTEGER NOT NULL, eventSyncId INTEGER);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER"
        "  NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL);"
        "CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, totalMemory INTEGER,"
        "  smCount INTEGER, cuDevice INTEGER);"
        "INSERT INTO TARGET_INFO_GPU VALUES (0, 0, 'NVIDIA H100 80GB HBM3', 85029158912, 132, 0),"
        "  (0, 1, 'NVIDIA H100 80GB HBM3', 85029158912, 132, 1);");
    const auto processRows = [&](std::int64_t pid, int device, int stream, int firstCorrelation) {
        const std::string gp = globalPid(pid);
        const std::string gt = globalTid(pid);
        const std::string c1 = std::to_string(firstCorrelation);
        const std::string c2 = std::to_string(firstCorrelation + 1);
        const std::string c3 = std::to_string(firstCorrelation + 2);
        const std::string d = std::to_string(device);
        const std::string s = std::to_string(stream);
        execute(db,
            "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (2000, 3000, " + d + ", 1, NULL, " + s + ", " + c1 + ", "
                + gp + ", 1, 1), (4000, 5000, " + d + ", 1, NULL, " + s + ", " + c3 + ", " + gp + ", 1, 1);"
                + "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1000, 1100, 0, " + gt + ", " + c1 + ", 0), (1200, "
                + "3100, 0, " + gt + ", " + c2 + ", 2), (3200, 3300, 0, " + gt + ", " + c3
                + ", 0);"
                // deviceId 0 whatever the device, as nsys writes it; syncType 2 is a stream synchronization.
                + "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (1200, 3050, 0, 1, NULL, " + s + ", " + c2
                + ", " + gp + ", NULL, 2, 0, NULL);");
    };
    processRows(kPidA, 0, 7, 1);
    processRows(kPidB, 1, 13, 101);
    execute(db,
        "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (6000, 6100, 0, 5, NULL, 21, 200, " + globalPid(kPidB)
            + ", NULL, 1, 0, NULL)");
    sqlite3_close(db);
    return path;
}

const Process* processOf(const Trace& trace, const Device& device)
{
    return &trace.processes()[device.process.value];
}

class NsysTwoProcessesTwoGpus : public testing::TestWithParam<unsigned> { };

TEST_P(NsysTwoProcessesTwoGpus, DevicesAreTheGpusThatRanWorkAndSyncRowsGoToTheirContextsDevice)
{
    TempDir dir;
    const std::string path = makeTwoProcessExport(dir);
    NsysReadOptions options;
    options.threads = GetParam();
    options.parallelFromRows = 0; // with 2 threads: shares of every table, joined
    auto loaded = NsysSqliteReader::readFile(path, options);
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    const Trace& trace = loaded.value();

    // Exactly the GPUs that ran work: device 0 of process 200 and device 1 of process 300, no device 0 of 300.
    ASSERT_EQ(trace.devices().size(), 2u);
    std::vector<std::pair<std::int64_t, int>> devices;
    for (const Device& d : trace.devices())
        devices.emplace_back(processOf(trace, d)->pid, d.id);
    std::sort(devices.begin(), devices.end());
    EXPECT_EQ(devices, (std::vector<std::pair<std::int64_t, int>> { { kPidA, 0 }, { kPidB, 1 } }));

    // Each synchronization row is on the lane of its stream on its context's device, beside the kernels.
    for (const Lane& lane : trace.lanes()) {
        if (lane.kind != LaneKind::GpuStream)
            continue;
        const Device& device = trace.devices()[lane.device.value];
        const std::int64_t pid = processOf(trace, device)->pid;
        SCOPED_TRACE("lane " + lane.name + " of process " + std::to_string(pid));
        EXPECT_EQ(lane.stream, pid == kPidA ? 7 : 13);
        EXPECT_EQ(device.id, pid == kPidA ? 0 : 1);
        ASSERT_EQ(lane.events.size(), 3u); // by start: the sync [1,200, 3,050), then the two kernels
        EXPECT_EQ(lane.events[0].kind, EventKind::Sync);
        EXPECT_EQ(trace.name(lane.events[0]), "Stream Sync");
        EXPECT_EQ(lane.events[0].start, 1200);
        EXPECT_EQ(lane.events[0].end, 3050);
        EXPECT_EQ(lane.events[1].kind, EventKind::Kernel);
        EXPECT_EQ(lane.events[2].kind, EventKind::Kernel);
    }
    // The row of context 5, which ran nothing, is skipped and said so.
    EXPECT_EQ(trace.skippedEvents(), 1u);
    EXPECT_NE(allWarnings(trace).find("1 synchronization rows name a CUDA context that ran no kernel, copy or memset"),
        std::string::npos)
        << allWarnings(trace);

    // Over the gpu window [2,000, 5,000) each device is busy 2,000 ns, idle 1,000 ns in one gap [3,000, 4,000)
    // whose closing kernel's launch began after the gap start, while cudaStreamSynchronize [1,200, 3,100),
    // begun before it, was running: `sync`, with that call as evidence, on both devices.
    const AnalysisResult result = analyze(trace, {});
    ASSERT_EQ(result.devices.size(), 2u);
    for (const DeviceFigures& figures : result.devices) {
        EXPECT_EQ(figures.spanNs, 3000);
        EXPECT_EQ(figures.busyNs, 2000);
        EXPECT_EQ(figures.idleNs, 1000);
        EXPECT_EQ(figures.gapCount, 1u);
        EXPECT_EQ(figures.idleByCause[static_cast<std::size_t>(GapCause::Sync)], 1000);
    }
    std::size_t deviceGaps = 0;
    for (const Gap gap : result.gaps) {
        if (gap.stream)
            continue;
        ++deviceGaps;
        EXPECT_EQ(gap.start, 3000);
        EXPECT_EQ(gap.end, 4000);
        EXPECT_EQ(gap.cause, GapCause::Sync);
        const GapEvidence evidence = gapEvidence(trace, gap, result.options.launchThresholdNs);
        ASSERT_TRUE(evidence.syncCall.has_value());
        EXPECT_EQ(trace.name(trace.event(*evidence.syncCall)), "cudaStreamSynchronize");
        EXPECT_EQ(trace.lanes()[evidence.syncCall->lane.value].process, gap.process);
    }
    EXPECT_EQ(deviceGaps, 2u);
}

INSTANTIATE_TEST_SUITE_P(OneAndTwoThreads, NsysTwoProcessesTwoGpus, testing::Values(1u, 2u));

} // namespace
} // namespace gapscope
