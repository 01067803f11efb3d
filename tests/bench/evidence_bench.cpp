// SPDX-License-Identifier: MIT
// What reading CPU samples and counters adds to an nsys import (target: <= 15 %, docs/evidence.md). One database
// shaped like `nsys export --type sqlite` of a 4 s capture: 400,000 kernels and their launches on 4 threads (100 k
// a second), CPU samples at nsys's default 1 kHz on each thread (16,000 samples of 20 frames from 64 distinct
// stacks), GPU metrics at the default 10 kHz (10 metrics: 400,000 rows) and 20,000 memory-usage rows; and a copy
// without the sample and counter tables. Both are imported whole; the difference is what the evidence costs
// (docs/evidence.md: +71 % on the shared 2-core machine, over the target).
#include "core/io/nsys/nsys_sqlite_reader.h"
#include "tests/bench/bench_sqlite.h"

#include <benchmark/benchmark.h>
#include <sqlite3.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

using namespace gapscope;
using bench::exec;
using bench::insert;
using bench::prepare;

constexpr std::int64_t kKernels = 400'000;
constexpr int kThreads = 4;
constexpr std::int64_t kSamplesPerThread = 4'000;
constexpr int kFrames = 20;
constexpr int kStacks = 64;
constexpr int kMetrics = 10;
constexpr std::int64_t kMetricSamples = 40'000; // per metric: 4 s at 10 kHz
constexpr std::int64_t kMemoryRows = 20'000;
constexpr std::int64_t kPid = 777;
constexpr std::int64_t kGlobalPid = kPid << 24;
constexpr std::int64_t kCaptureNs = 4'000'000'000;

void generate(const std::string& path)
{
    sqlite3* db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK)
        std::abort();
    exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN");
    exec(db,
        "CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT"
        "  NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,"
        "  demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER"
        "  NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL);"
        "CREATE TABLE COMPOSITE_EVENTS (id INTEGER NOT NULL PRIMARY KEY, start INTEGER NOT NULL, cpu INTEGER,"
        "  threadState INTEGER, globalTid INTEGER, cpuCycles INTEGER NOT NULL);"
        "CREATE TABLE SAMPLING_CALLCHAINS (id INTEGER NOT NULL, symbol INTEGER NOT NULL, module INTEGER NOT NULL,"
        "  kernelMode INTEGER, thumbCode INTEGER, unresolved INTEGER, specialEntry INTEGER, originalIP INTEGER,"
        "  unwindMethod INTEGER, stackDepth INTEGER NOT NULL, PRIMARY KEY (id, stackDepth));"
        "CREATE TABLE TARGET_INFO_GPU_METRICS (typeId INTEGER NOT NULL, sourceId INTEGER NOT NULL, typeName TEXT NOT"
        "  NULL, metricId INTEGER NOT NULL, metricName TEXT NOT NULL);"
        "CREATE TABLE GPU_METRICS (rawTimestamp INTEGER NOT NULL, timestamp INTEGER NOT NULL, typeId INTEGER NOT"
        "  NULL, metricId INTEGER NOT NULL, value INTEGER NOT NULL);"
        "CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (start INTEGER NOT NULL, globalPid INTEGER NOT NULL, deviceId"
        "  INTEGER NOT NULL, contextId INTEGER NOT NULL, address INTEGER NOT NULL, pc INTEGER NOT NULL, bytes INTEGER"
        "  NOT NULL, memKind INTEGER NOT NULL, memoryOperationType INTEGER NOT NULL, name TEXT, correlationId"
        "  INTEGER)");
    exec(db, "INSERT INTO StringIds VALUES (0, 'cudaLaunchKernel_v7000'), (1, 'void kernel(float *)')");
    for (int f = 0; f < 200; ++f)
        exec(db, "INSERT INTO StringIds VALUES (" + std::to_string(3 + f) + ", 'function_" + std::to_string(f) + "')");
    // Ids without holes, as nsys numbers its strings.
    exec(db, "INSERT INTO StringIds VALUES (2, '/usr/lib/libapp.so')");
    for (int m = 0; m < kMetrics; ++m) {
        exec(db,
            "INSERT INTO TARGET_INFO_GPU_METRICS VALUES (65536, 1, 'GPU Metrics (GPU 0)', " + std::to_string(m)
                + ", 'metric " + std::to_string(m) + " [Throughput %]')");
    }
    sqlite3_stmt* kernel = prepare(db, "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?, ?, 0, 1, 7, ?, ?, 1, 1)");
    sqlite3_stmt* runtime = prepare(db, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?, ?, 0, ?, ?, 0)");
    const std::int64_t step = kCaptureNs / kKernels;
    for (std::int64_t i = 0; i < kKernels; ++i) {
        const std::int64_t launch = i * step;
        insert(runtime, { launch, launch + step / 4, kGlobalPid | (kPid + i % kThreads), i + 1 });
        insert(kernel, { launch + step / 2, launch + step - 100, i + 1, kGlobalPid });
    }
    sqlite3_stmt* sample = prepare(db, "INSERT INTO COMPOSITE_EVENTS VALUES (?, ?, 3, 1, ?, 1)");
    sqlite3_stmt* frame
        = prepare(db, "INSERT INTO SAMPLING_CALLCHAINS VALUES (?, ?, 2, NULL, NULL, NULL, NULL, 0, 7, ?)");
    std::int64_t id = 0;
    for (std::int64_t s = 0; s < kSamplesPerThread; ++s) {
        for (int t = 0; t < kThreads; ++t) {
            ++id;
            insert(sample, { id, s * (kCaptureNs / kSamplesPerThread) + t, kGlobalPid | (kPid + t) });
            const int stack = static_cast<int>(id % kStacks);
            for (int d = 0; d < kFrames; ++d)
                insert(frame, { id, 3 + (stack * 3 + d) % 200, d });
        }
    }
    sqlite3_stmt* metric = prepare(db, "INSERT INTO GPU_METRICS VALUES (0, ?, 65536, ?, ?)");
    for (std::int64_t s = 0; s < kMetricSamples; ++s) {
        for (int m = 0; m < kMetrics; ++m)
            insert(metric, { s * (kCaptureNs / kMetricSamples), m, (s * 7 + m) % 100 });
    }
    sqlite3_stmt* memory = prepare(
        db, "INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS VALUES (?, ?, 0, 1, 4096, 0, 1048576, 2, ?, NULL, NULL)");
    for (std::int64_t r = 0; r < kMemoryRows; ++r)
        insert(memory, { r * (kCaptureNs / kMemoryRows), kGlobalPid, r % 2 });
    for (sqlite3_stmt* s : { kernel, runtime, sample, frame, metric, memory })
        sqlite3_finalize(s);
    exec(db, "COMMIT");
    sqlite3_close(db);
}

struct Databases {
    std::string with;
    std::string without;
    std::string samplesOnly; // with the samples, without the counter tables
    ~Databases()
    {
        std::error_code ec;
        std::filesystem::remove(with, ec);
        std::filesystem::remove(without, ec);
        std::filesystem::remove(samplesOnly, ec);
    }
};

/// A copy of `from` at `to` without `tables` (SQL statements dropping them), vacuumed.
void copyWithout(const std::string& from, const std::string& to, const char* dropTables)
{
    std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing);
    sqlite3* db = nullptr;
    if (sqlite3_open(to.c_str(), &db) != SQLITE_OK)
        std::abort();
    exec(db, std::string(dropTables) + "; VACUUM");
    sqlite3_close(db);
}

const Databases& databases()
{
    static Databases d = [] {
        Databases made;
        const auto dir = std::filesystem::temp_directory_path();
        made.with = (dir / ("gapscope_evidence_bench_" + std::to_string(::getpid()) + ".sqlite")).string();
        made.without = (dir / ("gapscope_evidence_bench_" + std::to_string(::getpid()) + "_bare.sqlite")).string();
        generate(made.with);
        // Both files vacuumed: each table's pages then lie together in both, as `nsys export` writes them, and
        // the difference is the tables, not the layout.
        {
            sqlite3* db = nullptr;
            if (sqlite3_open(made.with.c_str(), &db) != SQLITE_OK)
                std::abort();
            exec(db, "VACUUM");
            sqlite3_close(db);
        }
        made.samplesOnly = made.without.substr(0, made.without.size() - 12) + "_samples.sqlite";
        copyWithout(made.with, made.without,
            "DROP TABLE COMPOSITE_EVENTS; DROP TABLE SAMPLING_CALLCHAINS; DROP TABLE GPU_METRICS;"
            "DROP TABLE TARGET_INFO_GPU_METRICS; DROP TABLE CUDA_GPU_MEMORY_USAGE_EVENTS");
        copyWithout(made.with, made.samplesOnly,
            "DROP TABLE GPU_METRICS; DROP TABLE TARGET_INFO_GPU_METRICS; DROP TABLE CUDA_GPU_MEMORY_USAGE_EVENTS");
        return made;
    }();
    return d;
}

void import(benchmark::State& state, const std::string& path, bool expectSamples, bool expectCounters)
{
    for (auto _ : state) {
        auto loaded = NsysSqliteReader::readFile(path);
        if (!loaded) {
            state.SkipWithError(loaded.error().toString().c_str());
            return;
        }
        const Trace& trace = loaded.value();
        if (trace.eventCount() != 2 * static_cast<std::size_t>(kKernels)
            || (trace.samples().count() == kThreads * static_cast<std::size_t>(kSamplesPerThread)) != expectSamples
            || (trace.counters().pointCount() == static_cast<std::size_t>(kMetrics * kMetricSamples + kMemoryRows))
                != expectCounters) {
            state.SkipWithError("the import did not give the events, samples and counter points generated");
            return;
        }
        benchmark::DoNotOptimize(trace.lanes().data());
    }
    state.counters["events"] = static_cast<double>(2 * kKernels);
}

/// The capture with its samples and counters.
// NOLINTNEXTLINE(readability-identifier-naming): Google Benchmark names benchmarks BM_
void BM_ImportNsysWithSamplesAndCounters(benchmark::State& state)
{
    import(state, databases().with, true, true);
}
BENCHMARK(BM_ImportNsysWithSamplesAndCounters)
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0)
    ->UseRealTime()
    ->MeasureProcessCPUTime();

/// The same capture without the sample and counter tables.
// NOLINTNEXTLINE(readability-identifier-naming): Google Benchmark names benchmarks BM_
void BM_ImportNsysWithoutSamplesAndCounters(benchmark::State& state)
{
    import(state, databases().without, false, false);
}
BENCHMARK(BM_ImportNsysWithoutSamplesAndCounters)
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0)
    ->UseRealTime()
    ->MeasureProcessCPUTime();

/// With the CPU samples only (no GPU metrics or memory rows): what the samples cost alone.
// NOLINTNEXTLINE(readability-identifier-naming): Google Benchmark names benchmarks BM_
void BM_ImportNsysWithSamplesOnly(benchmark::State& state)
{
    import(state, databases().samplesOnly, true, false);
}
BENCHMARK(BM_ImportNsysWithSamplesOnly)
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0)
    ->UseRealTime()
    ->MeasureProcessCPUTime();

} // namespace
