// SPDX-License-Identifier: MIT
// Chrome JSON import speed and resident memory on a synthetic Kineto trace (docs/performance.md: ≥ 300 MB/s on one
// core, ≤ 64 bytes per GPU event strings and args aside). The trace is written once to a temporary file.
// Throughput is per CPU second of the process (parsing and the mapping thread of core/io/chrome/event_pipeline.h
// together), so a busy shared machine does not skew it; the Time column is wall time.
#include "core/io/chrome/chrome_trace_reader.h"
#include "tests/bench/kineto_trace_generator.h"

#include <benchmark/benchmark.h>

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace {

using namespace gapscope;

// 250,000 GPU ops give about 1.25 M events (cpu_op, launch, GPU op, two flow events each) and ~330 MB of JSON.
constexpr std::size_t kGpuOps = 250000;

struct BenchFile {
    std::string path;
    bench::KinetoTraceStats stats;
    std::uint64_t fileBytes = 0;
};

/// Temporary trace files, removed at exit.
class BenchFiles {
public:
    ~BenchFiles()
    {
        std::error_code ec;
        for (const auto& f : m_files)
            std::filesystem::remove(f, ec);
    }
    const BenchFile& get(bool gzip)
    {
        BenchFile& file = gzip ? m_gzip : m_plain;
        if (file.path.empty()) {
            file.path = (std::filesystem::temp_directory_path()
                / ("gapscope_import_bench_" + std::to_string(::getpid()) + (gzip ? ".json.gz" : ".json")))
                            .string();
            if (!bench::writeKinetoJsonFile(
                    file.path, bench::KinetoTraceSpec { kGpuOps, 4, 2, 42 }, gzip, &file.stats)) {
                std::fprintf(stderr, "cannot write %s\n", file.path.c_str());
                std::abort();
            }
            m_files.push_back(file.path);
            file.fileBytes = std::filesystem::file_size(file.path);
            checkImport(file);
        }
        return file;
    }

private:
    /// A benchmark of a wrong import measures nothing: the model must hold what the generator wrote.
    static void checkImport(const BenchFile& file)
    {
        auto result = ChromeTraceReader::readFile(file.path);
        if (!result) {
            std::fprintf(stderr, "%s\n", result.error().toString().c_str());
            std::abort();
        }
        const Trace& trace = result.value();
        std::size_t kernels = 0, linked = 0;
        for (std::uint32_t l = 0; l < trace.lanes().size(); ++l) {
            for (std::uint32_t i = 0; i < trace.lanes()[l].events.size(); ++i) {
                if (trace.lanes()[l].events[i].kind != EventKind::Kernel)
                    continue;
                ++kernels;
                linked += trace.launchOf({ LaneIndex { l }, i }).has_value();
            }
        }
        const bench::KinetoTraceStats& s = file.stats;
        const std::size_t expected = s.cpuOps + s.runtimeCalls + s.gpuEvents + s.userAnnotations;
        if (trace.eventCount() != expected || kernels != s.kernels || linked != s.kernels || trace.skippedEvents()) {
            std::fprintf(stderr, "import of %s: %zu events (expected %zu), %zu kernels (%zu linked, expected %zu)\n",
                file.path.c_str(), trace.eventCount(), expected, kernels, linked, s.kernels);
            std::abort();
        }
    }

    BenchFile m_plain;
    BenchFile m_gzip;
    std::vector<std::string> m_files;
};

BenchFiles& benchFiles()
{
    static BenchFiles files;
    return files;
}

std::uint64_t residentBytes()
{
    std::ifstream statm("/proc/self/statm");
    std::uint64_t size = 0, resident = 0;
    statm >> size >> resident;
    return resident * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

/// Starts a new peak-RSS measurement (Linux: "5" to clear_refs resets VmHWM to the current RSS).
void resetPeakResident()
{
    std::ofstream("/proc/self/clear_refs") << "5";
}

std::uint64_t peakResidentBytes()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stoull(line.substr(6)) * 1024; // "VmHWM:   123456 kB"
    }
    return 0;
}

void importFile(benchmark::State& state, bool gzip, bool keepArgs, unsigned threads = 0)
{
    const BenchFile& file = benchFiles().get(gzip);
    std::size_t events = 0;
    ChromeReadOptions options;
    options.keepArgs = keepArgs;
    options.threads = threads;
    for (auto _ : state) {
        std::optional<IoResult<Trace>> result;
        result.emplace(ChromeTraceReader::readFile(file.path, options));
        if (!result->ok()) {
            state.SkipWithError(result->error().toString().c_str());
            return;
        }
        events = result->value().eventCount();
        benchmark::DoNotOptimize(events);
        // Freeing the model is not part of the import.
        state.PauseTiming();
        result.reset();
        state.ResumeTiming();
    }
    // Bytes of JSON text parsed (the decompressed size for .json.gz).
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * file.stats.bytes));
    // Events in the file (flows and metadata included) and events in the model (X, B/E pairs, instants).
    state.counters["file_events"] = static_cast<double>(file.stats.events);
    state.counters["events"] = static_cast<double>(events);
    state.counters["events_per_s"]
        = benchmark::Counter(static_cast<double>(file.stats.events), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["json_MB"] = static_cast<double>(file.stats.bytes) / 1e6;
    state.counters["file_MB"] = static_cast<double>(file.fileBytes) / 1e6;
}

/// Runs first, on a fresh heap: what an earlier import freed would blur the peak.
/// Resident memory of the imported model per GPU event: measured (RSS growth while the trace is alive) and
/// computed from the containers (events, max-end prefix and correlation index; strings; args).
void measureImportMemory(benchmark::State& state, const std::string& path, bool keepArgs)
{
    for (auto _ : state) {
        ::malloc_trim(0);
        const std::uint64_t before = residentBytes();
        resetPeakResident();
        auto result = ChromeTraceReader::readFile(path, ChromeReadOptions { keepArgs });
        const std::uint64_t peak = peakResidentBytes();
        if (!result) {
            state.SkipWithError(result.error().toString().c_str());
            return;
        }
        ::malloc_trim(0);
        const std::uint64_t after = residentBytes();
        const Trace& trace = result.value();

        std::uint64_t gpuEvents = 0, events = 0, laneBytes = 0, gpuLaneBytes = 0;
        for (const Lane& lane : trace.lanes()) {
            const std::uint64_t bytes
                = lane.events.capacity() * sizeof(Event) + lane.maxEndPrefix.capacity() * sizeof(TimeNs);
            laneBytes += bytes;
            events += lane.events.size();
            if (lane.kind == LaneKind::GpuStream) {
                gpuEvents += lane.events.size();
                gpuLaneBytes += bytes;
            }
        }
        // The correlation index: a table slot per id where ids are dense, a 12-byte entry where not.
        const auto [launchIndexBytes, gpuIndexBytes] = trace.correlationIndexBytes();
        const std::uint64_t modelBytes = laneBytes + launchIndexBytes + gpuIndexBytes;
        const std::uint64_t argsBytes = trace.args().memoryBytes();
        std::uint64_t stringBytes = 0;
        for (std::size_t i = 0; i < trace.strings().size(); ++i)
            stringBytes += trace.strings().view(StringId { static_cast<std::uint32_t>(i) }).size() + 32 + 16 + 32;

        state.counters["events"] = static_cast<double>(events);
        state.counters["gpu_events"] = static_cast<double>(gpuEvents);
        // Per GPU event, a GPU lane's own cost: the Event, its max-end prefix entry, its correlation entry.
        state.counters["gpu_lane_B_per_gpu_event"]
            = static_cast<double>(gpuLaneBytes + gpuIndexBytes) / static_cast<double>(gpuEvents);
        // The whole model (CPU events included) divided by GPU events: Kineto has ~4 CPU events per GPU op.
        state.counters["model_B_per_gpu_event"] = static_cast<double>(modelBytes) / static_cast<double>(gpuEvents);
        state.counters["model_B_per_event"] = static_cast<double>(modelBytes) / static_cast<double>(events);
        state.counters["args_B_per_event"] = static_cast<double>(argsBytes) / static_cast<double>(events);
        state.counters["strings_kB"] = static_cast<double>(stringBytes) / 1e3;
        state.counters["rss_B_per_event"] = static_cast<double>(after - before) / static_cast<double>(events);
        state.counters["rss_B_per_gpu_event"] = static_cast<double>(after - before) / static_cast<double>(gpuEvents);
        // docs/performance.md: peak during load ≤ 1.5 × final (both above the baseline before the import).
        state.counters["peak_over_final"]
            = static_cast<double>(peak - before) / static_cast<double>(std::max<std::uint64_t>(after - before, 1));
        // The final model's resident size (RSS growth while the trace is alive) and the peak above the baseline.
        state.counters["model_rss_MB"] = static_cast<double>(after - before) / 1e6;
        state.counters["peak_rss_MB"] = static_cast<double>(peak - before) / 1e6;
    }
}

void BM_ImportChromeJsonMemory(benchmark::State& state)
{
    measureImportMemory(state, benchFiles().get(false).path, state.range(0) != 0);
}
BENCHMARK(BM_ImportChromeJsonMemory)
    ->Arg(0)
    ->Arg(1)
    ->ArgName("keep_args")
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

/// The same on a file of your own (the 3.16 GB trace of docs/performance.md: `build/tests/gapscope_make_kineto_trace
/// big.json 2000000`), named by GAPSCOPE_BENCH_JSON; skipped without it.
void BM_ImportChromeJsonFileMemory(benchmark::State& state)
{
    const char* path = std::getenv("GAPSCOPE_BENCH_JSON");
    if (!path || !*path) {
        state.SkipWithError("set GAPSCOPE_BENCH_JSON to a Chrome JSON file to measure");
        return;
    }
    measureImportMemory(state, path, true);
}
BENCHMARK(BM_ImportChromeJsonFileMemory)->Iterations(1)->Unit(benchmark::kMillisecond);

void BM_ImportChromeJson(benchmark::State& state)
{
    importFile(state, false, true);
}
// The CPU column and the MB/s are per CPU second of the whole process (parsing and the mapping thread together).
BENCHMARK(BM_ImportChromeJson)->Unit(benchmark::kMillisecond)->MinTime(3.0)->MeasureProcessCPUTime();

/// Parsing and mapping on the calling thread only (ChromeReadOptions::threads = 1).
void BM_ImportChromeJsonOneThread(benchmark::State& state)
{
    importFile(state, false, true, 1);
}
BENCHMARK(BM_ImportChromeJsonOneThread)->Unit(benchmark::kMillisecond)->MinTime(3.0)->MeasureProcessCPUTime();

void BM_ImportChromeJsonNoArgs(benchmark::State& state)
{
    importFile(state, false, false);
}
BENCHMARK(BM_ImportChromeJsonNoArgs)->Unit(benchmark::kMillisecond)->MinTime(3.0)->MeasureProcessCPUTime();

void BM_ImportChromeJsonGz(benchmark::State& state)
{
    importFile(state, true, true);
}
BENCHMARK(BM_ImportChromeJsonGz)->Unit(benchmark::kMillisecond)->MinTime(3.0)->MeasureProcessCPUTime();

} // namespace
