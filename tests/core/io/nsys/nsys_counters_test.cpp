// SPDX-License-Identifier: MIT
// GPU_METRICS (with TARGET_INFO_GPU_METRICS) and CUDA_GPU_MEMORY_USAGE_EVENTS as counter tracks. No export in the
// test data has GPU metrics or memory-usage rows (saxpy's CUDA_GPU_MEMORY_USAGE_EVENTS is empty), so the database
// is made here from the schema nsys documents for these tables (`nsys export --type sqlite`, the
// "SQLite Schema Reference" of the Nsight Systems user guide), with the columns the reader uses and a few more;
// its figures are worked out in the comments.
#include "core/analysis/analysis.h"
#include "core/analysis/counter_figures.h"
#include "core/analysis/gap_evidence.h"
#include "core/io/chrome/chrome_trace_reader.h"
#include "core/io/chrome/chrome_trace_writer.h"
#include "core/io/nsys/nsys_sqlite_reader.h"
#include "tests/core/hand_trace.h"
#include "tests/core/io/nsys/hand_made_export.h"
#include "tests/core/model/counter_track_named.h"
#include "tests/temp_dir.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <sstream>

namespace gapscope {
namespace {

using test::counterTrackNamed;

using test::execute;
using test::TempDir;

constexpr std::int64_t kPid = 400;
const std::string kGlobalPid = std::to_string(kPid << 24);

/// One process on CUDA device 0 (GPU 0): kernels [1,000, 2,000) and [5,000, 6,000). GPU 0's "SM Active" samples
/// 10 % at 0, 80 % at 1,000, 20 % at 2,000, 70 % at 5,000; GPU 1 (no process on it) is sampled once. Memory:
/// 1,000 bytes allocated at 1,500, 4,096 at 3,000, the 1,000 freed at 4,000.
std::string makeExport(const TempDir& dir)
{
    std::string path = dir.file("metrics.sqlite");
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    execute(db,
        "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
        "INSERT INTO StringIds VALUES (1, 'void k(float *)');"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER"
        "  NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,"
        "  demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL);"
        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1000, 2000, 0, 1, 7, 1, "
            + kGlobalPid + ", 1, 1), (5000, 6000, 0, 1, 7, 2, " + kGlobalPid
            + ", 1, 1);"
              "CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, cuDevice INTEGER);"
              "INSERT INTO TARGET_INFO_GPU VALUES (0, 0, 'NVIDIA H200', 0), (0, 1, 'NVIDIA H200', 1);"
              "CREATE TABLE TARGET_INFO_CUDA_DEVICE (gpuId INTEGER NOT NULL, cudaId INTEGER NOT NULL, pid INTEGER NOT"
              "  NULL, uuid TEXT, numMultiprocessors INTEGER);"
              "INSERT INTO TARGET_INFO_CUDA_DEVICE VALUES (0, 0, "
            + std::to_string(kPid)
            + ", NULL, 132);"
              // The documented columns of the two GPU metrics tables; typeId's low byte is the GPU.
              "CREATE TABLE TARGET_INFO_GPU_METRICS (typeId INTEGER NOT NULL, sourceId INTEGER NOT NULL, typeName TEXT"
              "  NOT NULL, metricId INTEGER NOT NULL, metricName TEXT NOT NULL);"
              "CREATE TABLE GPU_METRICS (rawTimestamp INTEGER NOT NULL, timestamp INTEGER NOT NULL, typeId INTEGER NOT"
              "  NULL, metricId INTEGER NOT NULL, value INTEGER NOT NULL);"
              "INSERT INTO TARGET_INFO_GPU_METRICS VALUES (65536, 1, 'GPU Metrics (GPU 0)', 3, 'SM Active [Throughput "
              "%]'),"
              "  (65536, 1, 'GPU Metrics (GPU 0)', 8, 'DRAM Read Bandwidth [Throughput %]'),"
              "  (65537, 1, 'GPU Metrics (GPU 1)', 3, 'SM Active [Throughput %]');"
              "INSERT INTO GPU_METRICS VALUES (0, 0, 65536, 3, 10), (0, 0, 65536, 8, 5), (0, 1000, 65536, 3, 80),"
              "  (0, 2000, 65536, 3, 20), (0, 5000, 65536, 3, 70), (0, 1000, 65537, 3, 50);"
              "CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (start INTEGER NOT NULL, globalPid INTEGER NOT NULL, deviceId"
              "  INTEGER NOT NULL, contextId INTEGER NOT NULL, address INTEGER NOT NULL, pc INTEGER NOT NULL, bytes"
              "  INTEGER NOT NULL, memKind INTEGER NOT NULL, memoryOperationType INTEGER NOT NULL, name TEXT,"
              "  correlationId INTEGER);"
              "INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS VALUES (1500, "
            + kGlobalPid + ", 0, 1, 4096, 0, 1000, 2, 0, NULL, NULL), (3000, " + kGlobalPid
            + ", 0, 1, 8192, 0, 4096, 2, 0, NULL, NULL), (4000, " + kGlobalPid
            + ", 0, 1, 4096, 0, 1000, 2, 1, NULL, NULL);");
    sqlite3_close(db);
    return path;
}

TEST(NsysGpuMetrics, EachMetricOfEachGpuIsATrackOnItsDevice)
{
    TempDir dir;
    auto loaded = NsysSqliteReader::readFile(makeExport(dir));
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    const Trace& trace = loaded.value();
    ASSERT_EQ(trace.devices().size(), 1u); // the metrics of GPU 1 make no device
    const CounterTrack* sm = counterTrackNamed(trace, "SM Active [Throughput %]");
    const CounterTrack* dram = counterTrackNamed(trace, "DRAM Read Bandwidth [Throughput %]");
    const CounterTrack* other = counterTrackNamed(trace, "SM Active [Throughput %] (GPU 1)");
    ASSERT_NE(sm, nullptr);
    ASSERT_NE(dram, nullptr);
    ASSERT_NE(other, nullptr);
    EXPECT_EQ(sm->unit, "%");
    ASSERT_TRUE(sm->device.has_value());
    EXPECT_EQ(sm->device->value, 0u);
    EXPECT_FALSE(other->device.has_value());
    ASSERT_EQ(sm->points.size(), 4u);
    EXPECT_EQ(sm->points[2].time, 2000);
    EXPECT_EQ(sm->points[2].value, 20.0);
    // Over the gpu window [1,000, 6,000): 80 % for 1,000 ns, 20 % for 3,000, 70 % for 1,000:
    // mean (80 + 60 + 70) / 5 = 42 %, min 20, max 80 (the 10 % at 0 is before the window).
    const auto figures = counterFigures(*sm, 1000, 6000);
    ASSERT_TRUE(figures.has_value());
    EXPECT_DOUBLE_EQ(figures->mean, 42.0);
    EXPECT_EQ(figures->min, 20.0);
    EXPECT_EQ(figures->max, 80.0);
    // During the first kernel [1,000, 2,000): 80 % throughout.
    EXPECT_DOUBLE_EQ(counterFigures(*sm, 1000, 2000)->mean, 80.0);
}

TEST(NsysGpuMemoryUsage, TheRunningSumOfAllocationsAndFreesAndTheGapThatHoldsOne)
{
    TempDir dir;
    auto loaded = NsysSqliteReader::readFile(makeExport(dir));
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    const Trace& trace = loaded.value();
    const CounterTrack* memory = counterTrackNamed(trace, "memory allocated");
    ASSERT_NE(memory, nullptr);
    ASSERT_TRUE(memory->device.has_value());
    EXPECT_EQ(memory->unit, "bytes");
    EXPECT_NE(memory->note.find("running sum"), std::string::npos);
    ASSERT_EQ(memory->points.size(), 3u);
    EXPECT_EQ(memory->points[0].value, 1000.0);
    EXPECT_EQ(memory->points[1].value, 5096.0);
    EXPECT_EQ(memory->points[2].value, 4096.0);
    // The device gap [2,000, 5,000) holds the allocation at 3,000 (its first) and the free at 4,000.
    const AnalysisResult result = analyze(trace, {});
    std::size_t deviceGaps = 0;
    for (const Gap gap : result.gaps) {
        if (gap.stream)
            continue;
        ++deviceGaps;
        EXPECT_EQ(gap.start, 2000);
        EXPECT_EQ(gap.end, 5000);
        const GapEvidence evidence = gapEvidence(trace, gap, result.options.launchThresholdNs);
        ASSERT_TRUE(evidence.memoryChange.has_value());
        EXPECT_EQ(evidence.memoryChange->point, 1u);
        EXPECT_NE(evidence.summary.find("an allocation of 4096 bytes on the device at +1.0"), std::string::npos)
            << evidence.summary;
    }
    EXPECT_EQ(deviceGaps, 1u);
}

TEST(NsysCounters, ChromeJsonCarriesTheMemoryAsKinetoEventsAndTheMetricsAsCounterEvents)
{
    TempDir dir;
    auto loaded = NsysSqliteReader::readFile(makeExport(dir));
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    std::ostringstream json;
    ChromeTraceWriter::write(loaded.value(), json);
    EXPECT_NE(json.str().find("\"name\":\"[memory]\""), std::string::npos);
    EXPECT_NE(json.str().find("\"ph\":\"C\",\"name\":\"SM Active [Throughput %]\""), std::string::npos);
    auto again = ChromeTraceReader::parse(json.str(), "converted.json");
    ASSERT_TRUE(again.ok()) << again.error().toString();
    const Trace& trace = again.value();
    // The memory comes back as the same steps on device 0, now from Total Allocated.
    const CounterTrack* memory = counterTrackNamed(trace, "memory allocated");
    ASSERT_NE(memory, nullptr);
    ASSERT_TRUE(memory->device.has_value());
    EXPECT_EQ(trace.devices()[memory->device->value].id, 0);
    ASSERT_EQ(memory->points.size(), 3u);
    EXPECT_EQ(memory->points[1].time, 3000);
    EXPECT_EQ(memory->points[1].value, 5096.0);
    EXPECT_EQ(memory->points[2].value, 4096.0);
    // The metric as a counter of the same values at the same times.
    const CounterTrack* sm = counterTrackNamed(trace, "SM Active [Throughput %]");
    ASSERT_NE(sm, nullptr);
    ASSERT_EQ(sm->points.size(), 4u);
    EXPECT_EQ(sm->points[3].time, 5000);
    EXPECT_EQ(sm->points[3].value, 70.0);
}

} // namespace
} // namespace gapscope
