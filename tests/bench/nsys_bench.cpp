// SPDX-License-Identifier: MIT
// Nsight Systems SQLite import speed (target: >= 3 M GPU events/s with their API calls, README). A database shaped
// like `nsys export --type sqlite` (schema 3.x columns) with 2 M kernels and their 2 M cudaLaunchKernel rows, on
// 4 threads and 4 streams, is generated once into a temporary file with the SQLite API, then imported.
#include "core/io/nsys/nsys_sqlite_reader.h"
#include "tests/bench/bench_sqlite.h"

#include <benchmark/benchmark.h>
#include <sqlite3.h>

#include <fcntl.h>
#include <sys/resource.h>
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

constexpr std::int64_t kGpuOps = 2'000'000;
constexpr int kThreads = 4;
constexpr int kStreams = 4;
constexpr int kKernelNames = 64;
constexpr std::int64_t kPid = 4242;
constexpr std::int64_t kGlobalPid = (std::int64_t { 1 } << 48) | (kPid << 24);

void generate(const std::string& path)
{
    sqlite3* db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK)
        std::abort();
    exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN");
    exec(db,
        "CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);"
        "CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT);"
        "INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_VERSION', 'benchmark'),"
        "  ('EXPORT_SCHEMA_VERSION', '3.13.2');"
        "CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);"
        "CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER);"
        "CREATE TABLE TARGET_INFO_GPU (vmId INTEGER, id INTEGER, name TEXT, cuDevice INTEGER, totalMemory INTEGER,"
        "  smCount INTEGER);"
        "INSERT INTO TARGET_INFO_GPU VALUES (281474976710656, 0, 'NVIDIA A100-SXM4-80GB', 0, 84990623744, 108);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT"
        "  NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER,"
        "  globalPid INTEGER, demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, mangledName INTEGER,"
        "  launchType INTEGER, cacheConfig INTEGER, registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL,"
        "  gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL, blockY INTEGER NOT NULL,"
        "  blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL,"
        "  localMemoryPerThread INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL, gridId INTEGER NOT NULL,"
        "  sharedMemoryExecuted INTEGER, graphNodeId INTEGER, sharedMemoryLimitConfig INTEGER);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER"
        "  NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL,"
        "  callchainId INTEGER)");
    sqlite3_stmt* strings = prepare(db, "INSERT INTO StringIds VALUES (?, ?)");
    const auto addString = [&](std::int64_t id, const std::string& text) {
        sqlite3_bind_int64(strings, 1, id);
        sqlite3_bind_text(strings, 2, text.c_str(), -1, SQLITE_TRANSIENT);
        if (sqlite3_step(strings) != SQLITE_DONE)
            std::abort();
        sqlite3_reset(strings);
    };
    addString(0, "cudaLaunchKernel_v7000");
    addString(1, "python");
    for (int k = 0; k < kKernelNames; ++k) {
        addString(2 + 2 * k, "void gemm_kernel_" + std::to_string(k) + "<float, 128, 64>(float *, const float *, int)");
        addString(3 + 2 * k, "gemm_kernel_" + std::to_string(k));
    }
    sqlite3_finalize(strings);
    exec(db, ("INSERT INTO PROCESSES VALUES (" + std::to_string(kGlobalPid) + ", 4242, 'python')").c_str());
    for (int t = 0; t < kThreads; ++t)
        exec(db, ("INSERT INTO ThreadNames VALUES (1, 20, " + std::to_string(kGlobalPid + kPid + t) + ")").c_str());

    sqlite3_stmt* kernel = prepare(db,
        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?, ?, 0, 1, NULL, ?, ?, ?, ?, ?, NULL, 1, 1, ?, ?, 1, 1, ?, "
        "1, 1, ?, 0, 0, 0, ?, 0, NULL, 0)");
    sqlite3_stmt* runtime = prepare(db, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?, ?, 0, ?, ?, 0, 0, NULL)");
    std::int64_t threadClock[kThreads];
    std::int64_t streamClock[kStreams];
    for (auto& c : threadClock)
        c = 1'000'000;
    for (auto& c : streamClock)
        c = 1'000'000;
    for (std::int64_t i = 0; i < kGpuOps; ++i) {
        const int t = static_cast<int>(i % kThreads);
        const int s = static_cast<int>(i % kStreams);
        const std::int64_t launchStart = threadClock[t];
        const std::int64_t launchEnd = launchStart + 3'000;
        insert(runtime, { launchStart, launchEnd, kGlobalPid + kPid + t, i + 1 });
        threadClock[t] = launchEnd + 1'000;
        const std::int64_t start = std::max(streamClock[s], launchStart + 5'000);
        const std::int64_t end = start + 2'000 + (i * 7919) % 48'000;
        const std::int64_t k = i % kKernelNames;
        const std::int64_t config = i % 16; // a handful of launch configurations, as real programs have
        insert(kernel,
            { start, end, 7 + s, i + 1, kGlobalPid, 2 + 2 * k, 3 + 2 * k, 32 + config, 1024 >> (config % 4),
                128 << (config % 3), 1024 * (config % 5), i + 1 });
        streamClock[s] = end + 500;
    }
    sqlite3_finalize(kernel);
    sqlite3_finalize(runtime);
    exec(db, "COMMIT");
    sqlite3_close(db);
}

struct BenchDatabase {
    std::string path;
    std::uint64_t bytes = 0;
    ~BenchDatabase()
    {
        std::error_code ec;
        if (!path.empty())
            std::filesystem::remove(path, ec);
    }
};

const BenchDatabase& benchDatabase()
{
    static BenchDatabase database = [] {
        BenchDatabase d;
        d.path = (std::filesystem::temp_directory_path()
            / ("gapscope_nsys_bench_" + std::to_string(::getpid()) + ".sqlite"))
                     .string();
        generate(d.path);
        // Written to the disk before the first import: the kernel's write-back of 211 MB of dirty pages would
        // otherwise run beside the first imports and slow them (first repetitions 700-800 ms, later 520-570).
        if (const int fd = ::open(d.path.c_str(), O_RDONLY); fd >= 0) {
            ::fsync(fd);
            ::close(fd);
        }
        d.bytes = std::filesystem::file_size(d.path);
        return d;
    }();
    return database;
}

double processCpuSeconds()
{
    rusage usage {};
    ::getrusage(RUSAGE_SELF, &usage);
    const auto seconds
        = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

void importNsys(benchmark::State& state, bool keepArgs, unsigned threads)
{
    const BenchDatabase& database = benchDatabase();
    std::size_t events = 0;
    double cpuSeconds = 0;
    for (auto _ : state) {
        const double cpuBefore = processCpuSeconds();
        auto loaded = NsysSqliteReader::readFile(database.path, NsysReadOptions { keepArgs, threads });
        cpuSeconds += processCpuSeconds() - cpuBefore;
        if (!loaded) {
            state.SkipWithError(loaded.error().toString().c_str());
            return;
        }
        events = loaded.value().eventCount();
        benchmark::DoNotOptimize(loaded.value().lanes().data());
    }
    if (events != 2 * static_cast<std::size_t>(kGpuOps)) {
        state.SkipWithError("the import did not give 2 M kernels and 2 M launch calls");
        return;
    }
    const double imported = static_cast<double>(kGpuOps) * static_cast<double>(state.iterations());
    // Per wall-clock second (UseRealTime), and per second of CPU time of all the import's threads together.
    state.counters["gpu_events_per_s"] = benchmark::Counter(imported, benchmark::Counter::kIsRate);
    state.counters["gpu_events_per_cpu_s"] = imported / cpuSeconds;
    state.counters["events"] = static_cast<double>(events);
    state.counters["file_MB"] = static_cast<double>(database.bytes) / 1e6;
}

/// The whole import of 2 M kernels and their 2 M launch calls: open, read each table (on up to 4 threads), merge
/// the threads' shares, finish.
void BM_ImportNsysSqlite(benchmark::State& state)
{
    importNsys(state, true, 0);
}
BENCHMARK(BM_ImportNsysSqlite)->Unit(benchmark::kMillisecond)->MinTime(3.0)->UseRealTime();

/// The same on the calling thread only.
void BM_ImportNsysSqliteOneThread(benchmark::State& state)
{
    importNsys(state, true, 1);
}
BENCHMARK(BM_ImportNsysSqliteOneThread)->Unit(benchmark::kMillisecond)->MinTime(3.0)->UseRealTime();

/// Without the kernels' launch configurations (NsysReadOptions::keepArgs off): nine columns fewer per kernel.
void BM_ImportNsysSqliteNoArgs(benchmark::State& state)
{
    importNsys(state, false, 0);
}
BENCHMARK(BM_ImportNsysSqliteNoArgs)->Unit(benchmark::kMillisecond)->MinTime(3.0)->UseRealTime();

} // namespace
