// SPDX-License-Identifier: MIT
// CPU samples of Nsight Systems exports (COMPOSITE_EVENTS, SAMPLING_CALLCHAINS): pipit's CloverLeaf and saxpy
// exports (tests/data/NOTICE.md), every figure found by a sqlite3 query on the file, quoted beside it, and a
// database made here with a host gap whose samples are worked out by hand.
// nsightful's power-iteration export, which the issue also names, is not in the test data.
#include "core/analysis/analysis.h"
#include "core/analysis/gap_evidence.h"
#include "core/io/nsys/nsys_sqlite_reader.h"
#include "tests/core/hand_trace.h"
#include "tests/core/io/nsys/hand_made_export.h"
#include "tests/temp_dir.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <map>
#include <tuple>

namespace gapscope {
namespace {

using test::execute;

using test::load;

const std::string kCloverLeaf = "pipit/cloverleaf-nsys/perlmutter-cloverleaf-cuda.sqlite";
const std::string kSaxpy = "nsys/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite";

std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> countsByThread(const Trace& trace)
{
    std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> counts;
    for (const ThreadSamples& t : trace.samples().threads())
        counts[{ trace.processes()[t.process.value].pid, t.tid }] += t.samples.size();
    return counts;
}

bool sortedByTime(const ThreadSamples& t)
{
    return std::is_sorted(
        t.samples.begin(), t.samples.end(), [](const CpuSample& a, const CpuSample& b) { return a.time < b.time; });
}

TEST(NsysCpuSamples, CloverLeafCountsPerThreadAreTheRowsPerThread)
{
    const Trace trace = load(kCloverLeaf);
    // SELECT globalTid >> 24 & 0xffffff, globalTid & 0xffffff, count(*) FROM COMPOSITE_EVENTS GROUP BY globalTid
    const std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> expected
        = { { { 1701896, 1701896 }, 1512 }, { { 1701896, 1701902 }, 16 }, { { 1701896, 1701905 }, 3 } };
    EXPECT_EQ(countsByThread(trace), expected);
    EXPECT_EQ(trace.samples().count(), 1531u);
    for (const ThreadSamples& t : trace.samples().threads())
        EXPECT_TRUE(sortedByTime(t));
    // Sample 1 (the first of the main thread, at 18,318,190 ns, on CPU 39): SELECT stackDepth, s.value, m.value
    // FROM SAMPLING_CALLCHAINS JOIN StringIds s ON s.id = symbol JOIN StringIds m ON m.id = module WHERE id = 1.
    const ThreadSamples* main = trace.samples().find(ProcessIndex { 0 }, 1701896);
    ASSERT_NE(main, nullptr);
    const CpuSample& first = main->samples.front();
    EXPECT_EQ(first.time, 18'318'190);
    EXPECT_EQ(first.cpu, 39u);
    const auto frames = trace.samples().chain(first.callchain);
    const std::vector<std::string_view> functions = { "do_lookup_x", "_dl_lookup_symbol_x", "_dl_relocate_object",
        "dl_main", "_dl_sysdep_start", "_dl_start", "0x7f72bf047558" };
    ASSERT_EQ(frames.size(), functions.size());
    for (std::size_t i = 0; i < frames.size(); ++i) {
        EXPECT_EQ(trace.strings().view(frames[i].function), functions[i]);
        EXPECT_EQ(trace.strings().view(frames[i].module), "/lib64/ld-2.31.so");
    }
    // The same stacks are stored once: the file holds a chain per sample (SELECT count(DISTINCT id) FROM
    // SAMPLING_CALLCHAINS: 1,531), 553 of them distinct (count(DISTINCT group_concat(symbol || ':' || module))
    // over each id's rows in stackDepth order).
    EXPECT_EQ(trace.samples().chainCount(), 553u);
}

TEST(NsysCpuSamples, SaxpyCountsAndASyncGapsTopFunctionsAreThoseOfTheRowsInIt)
{
    const Trace trace = load(kSaxpy);
    // SELECT count(*) FROM COMPOSITE_EVENTS GROUP BY globalTid: one thread, 1230493.
    const std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> expected = { { { 1230493, 1230493 }, 5451 } };
    EXPECT_EQ(countsByThread(trace), expected);

    // The device gap [962,467,264, 1,158,713,065) ends with a copy whose cudaMemcpy began 196 ms after its start,
    // while the cudaMemcpy before it [924,941,352, 962,567,400), begun before the gap, was still returning: `sync`.
    // The launching thread was sampled during the 196 ms the GPU waited for it.
    const AnalysisResult result = analyze(trace, {});
    std::optional<Gap> found;
    for (const Gap gap : result.gaps) {
        if (!gap.stream && gap.start == 962'467'264)
            found = gap;
    }
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->end, 1'158'713'065);
    ASSERT_EQ(found->cause, GapCause::Sync);
    const GapEvidence evidence = gapEvidence(trace, *found, result.options.launchThresholdNs);
    ASSERT_TRUE(evidence.samples.has_value()) << evidence.summary;
    // SELECT count(*) FROM COMPOSITE_EVENTS WHERE globalTid = 302119224788637 AND start >= 962467264 AND
    // start < 1158713065: 968. Self: the same rows joined with their stackDepth 0 frame, GROUP BY symbol: main 605,
    // std::abs(double) 90, cxip_cq_progress 58. Total: count(DISTINCT id) of the rows with the symbol at any depth:
    // main 692, std::abs(double) 90, cxip_cq_progress 61.
    EXPECT_EQ(evidence.samples->count, 968u);
    ASSERT_GE(evidence.samples->top.size(), 3u);
    const auto expectTop = [&](std::size_t i, std::string_view function, std::string_view module, std::uint32_t self,
                               std::uint32_t total) {
        SCOPED_TRACE("top function " + std::to_string(i));
        const SampledFunction& f = evidence.samples->top[i];
        EXPECT_EQ(trace.strings().view(f.frame.function), function);
        EXPECT_EQ(trace.strings().view(f.frame.module), module);
        EXPECT_EQ(f.self, self);
        EXPECT_EQ(f.total, total);
    };
    const std::string app = "/global/u2/o/ocankur/apps/chatterbug/saxpy-mpi-cuda/saxpy-mpi-cuda";
    expectTop(0, "main", app, 605, 692);
    expectTop(1, "std::abs(double)", app, 90, 90);
    expectTop(2, "cxip_cq_progress", "/opt/cray/libfabric/1.15.2.0/lib64/libfabric.so.1.18.2", 58, 61);
    EXPECT_NE(evidence.summary.find("; the launching thread was sampled 968 times in this gap: main (saxpy-mpi-cuda) "
                                    "605 self / 692 total, std::abs(double) (saxpy-mpi-cuda) 90 self / 90 total"),
        std::string::npos)
        << evidence.summary;
}

/// Kernels [2,000, 3,000) and [51,000, 52,000) launched at 1,000 and 50,000 by thread 100: a host gap [3,000,
/// 51,000). Thread 100 is sampled at 5,000 (read_input < load < main), 10,000 (the same stack), 15,000 (memcpy <
/// read_input < load < main), 20,000 (main) and 60,000 (after the gap); thread 101 at 10,000 (poll).
std::string makeSampledExport(const test::TempDir& dir)
{
    std::string path = dir.file("sampled.sqlite");
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    const std::string gp = std::to_string(std::int64_t { 100 } << 24);
    const std::string t100 = std::to_string((std::int64_t { 100 } << 24) | 100);
    const std::string t101 = std::to_string((std::int64_t { 100 } << 24) | 101);
    execute(db,
        "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
        "INSERT INTO StringIds VALUES (0, 'cudaLaunchKernel_v7000'), (1, 'void k(float *)'), (2, 'read_input'),"
        "  (3, 'load'), (4, 'main'), (5, 'memcpy'), (6, 'poll'), (7, '/opt/foo/lib/libfoo.so'), (8, '/opt/app'),"
        "  (9, '/usr/lib/libc.so.6');"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER,"
        "  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER, shortName INTEGER);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER,"
        "  globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL);"
        "CREATE TABLE COMPOSITE_EVENTS (id INTEGER NOT NULL PRIMARY KEY, start INTEGER NOT NULL, cpu INTEGER,"
        "  threadState INTEGER, globalTid INTEGER, cpuCycles INTEGER NOT NULL);"
        "CREATE TABLE SAMPLING_CALLCHAINS (id INTEGER NOT NULL, symbol INTEGER NOT NULL, module INTEGER NOT NULL,"
        "  kernelMode INTEGER, thumbCode INTEGER, unresolved INTEGER, specialEntry INTEGER, originalIP INTEGER,"
        "  unwindMethod INTEGER, stackDepth INTEGER NOT NULL, PRIMARY KEY (id, stackDepth));"
        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (2000, 3000, 0, 7, 1, "
            + gp + ", 1, 1), (51000, 52000, 0, 7, 2, " + gp + ", 1, 1);"
            + "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1000, 1100, 0, " + t100 + ", 1, 0), (50000, 50100, 0, "
            + t100 + ", 2, 0);" + "INSERT INTO COMPOSITE_EVENTS VALUES (1, 5000, 2, 1, " + t100
            + ", 1), (2, 10000, 2, 1, " + t100 + ", 1), (3, 10000, 5, 1, " + t101 + ", 1), (4, 15000, 2, 1, " + t100
            + ", 1), (5, 20000, 2, 1, " + t100 + ", 1), (6, 60000, 2, 1, " + t100
            + ", 1);"
              "INSERT INTO SAMPLING_CALLCHAINS (id, symbol, module, stackDepth) VALUES"
              "  (1, 2, 7, 0), (1, 3, 7, 1), (1, 4, 8, 2), (2, 2, 7, 0), (2, 3, 7, 1), (2, 4, 8, 2), (3, 6, 9, 0),"
              "  (4, 5, 9, 0), (4, 2, 7, 1), (4, 3, 7, 2), (4, 4, 8, 3), (5, 4, 8, 0), (6, 4, 8, 0);");
    sqlite3_close(db);
    return path;
}

TEST(NsysCpuSamples, AHostGapNamesWhatTheLaunchingThreadWasSampledRunning)
{
    test::TempDir dir;
    auto loaded = NsysSqliteReader::readFile(makeSampledExport(dir));
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    const Trace& trace = loaded.value();
    EXPECT_EQ(trace.samples().count(), 6u);
    // Samples 1 and 2 share a stack, and so do 5 and 6: 4 chains for 6 samples.
    EXPECT_EQ(trace.samples().chainCount(), 4u);
    const AnalysisResult result = analyze(trace, {});
    std::optional<Gap> found;
    for (const Gap gap : result.gaps) {
        if (!gap.stream)
            found = gap;
    }
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->start, 3000);
    EXPECT_EQ(found->end, 51000);
    ASSERT_EQ(found->cause, GapCause::Host);
    const GapEvidence evidence = gapEvidence(trace, *found, result.options.launchThresholdNs);
    ASSERT_TRUE(evidence.samples.has_value());
    // Thread 100's samples in [3,000, 51,000): 1, 2, 4, 5. Self: read_input 2, memcpy 1, main 1, load 0. Total:
    // main 4, read_input 3, load 3, memcpy 1. By self, then total: read_input, main, memcpy, load.
    EXPECT_EQ(evidence.samples->count, 4u);
    ASSERT_EQ(evidence.samples->top.size(), 4u);
    const std::vector<std::tuple<std::string_view, std::uint32_t, std::uint32_t>> top
        = { { "read_input", 2, 3 }, { "main", 1, 4 }, { "memcpy", 1, 1 }, { "load", 0, 3 } };
    for (std::size_t i = 0; i < top.size(); ++i) {
        EXPECT_EQ(trace.strings().view(evidence.samples->top[i].frame.function), std::get<0>(top[i]));
        EXPECT_EQ(evidence.samples->top[i].self, std::get<1>(top[i]));
        EXPECT_EQ(evidence.samples->top[i].total, std::get<2>(top[i]));
    }
    EXPECT_NE(evidence.summary.find("; the launching thread was sampled 4 times in this gap: read_input (libfoo.so) 2 "
                                    "self / 3 total, main (app) 1 self / 4 total, memcpy (libc.so.6) 1 self / 1 total"),
        std::string::npos)
        << evidence.summary;
}

TEST(NsysCpuSamples, AnExportWithoutSamplesHasNoneAndSaysNothingOfThem)
{
    const Trace trace = load("nsys/nsys-ai/mock.sqlite");
    EXPECT_TRUE(trace.samples().empty());
    for (const ImportWarning& w : trace.warnings())
        EXPECT_EQ(w.message.find("COMPOSITE_EVENTS"), std::string::npos) << w.message;
}

} // namespace
} // namespace gapscope
