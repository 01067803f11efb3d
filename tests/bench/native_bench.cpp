// SPDX-License-Identifier: MIT
// Native capture file load speed (docs/performance.md: >= 30 M events/s). A synthetic recording shaped like
// what the collector writes (launch calls on host threads, their kernels on streams, correlated,
// NVTX ranges around groups of launches) is written once to a temporary file, then loaded.
#include "core/io/native/native_trace_reader.h"
#include "core/io/native/native_trace_writer.h"

#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

using namespace gapscope;

// 2 M GPU ops: 2 M launches + 2 M kernels + 125 k NVTX ranges, about 4.1 M events and 200 MB.
constexpr std::uint32_t kGpuOps = 2'000'000;
constexpr int kThreads = 4;
constexpr int kStreams = 4;
constexpr std::uint32_t kLaunchesPerRange = 16;

Trace syntheticRecording()
{
    TraceBuilder trace;
    Process process;
    process.pid = 4242;
    process.name = "train.py";
    const ProcessIndex p = trace.addProcess(process);
    const DeviceIndex gpu = trace.device(p, 0);
    std::vector<LaneIndex> threads;
    std::vector<LaneIndex> streams;
    for (int i = 0; i < kThreads; ++i)
        threads.push_back(trace.threadLane(p, 4242 + i));
    for (int i = 0; i < kStreams; ++i)
        streams.push_back(trace.streamLane(gpu, 7 + i));
    std::vector<StringId> kernelNames;
    for (int i = 0; i < 64; ++i)
        kernelNames.push_back(
            trace.strings().intern("void gemm_kernel_" + std::to_string(i) + "<float, 128, 64>(float*)"));
    const StringId launchName = trace.strings().intern("cudaLaunchKernel");
    const StringId rangeName = trace.strings().intern("forward");
    std::vector<TimeNs> threadClock(kThreads, 1'000'000);
    std::vector<TimeNs> streamClock(kStreams, 1'000'000);
    std::vector<TimeNs> rangeStart(kThreads, 0);
    for (std::uint32_t i = 0; i < kGpuOps; ++i) {
        const int t = static_cast<int>(i % kThreads);
        const int s = static_cast<int>(i % kStreams);
        const std::uint32_t nth = i / kThreads; // launch number on this thread
        if (nth % kLaunchesPerRange == 0)
            rangeStart[t] = threadClock[t];
        Event launch;
        launch.start = threadClock[t];
        launch.end = launch.start + 3'000;
        launch.name = launchName;
        launch.kind = EventKind::RuntimeApi;
        launch.correlation = i + 1;
        trace.lanes()[threads[t].value].events.push_back(launch);
        threadClock[t] = launch.end + 1'000;
        Event kernel;
        kernel.start = std::max(streamClock[s], launch.start + 5'000);
        kernel.end = kernel.start + 2'000 + (i * 7919) % 48'000;
        kernel.name = kernelNames[i % kernelNames.size()];
        kernel.kind = EventKind::Kernel;
        kernel.correlation = i + 1;
        trace.lanes()[streams[s].value].events.push_back(kernel);
        streamClock[s] = kernel.end + 500;
        if (nth % kLaunchesPerRange == kLaunchesPerRange - 1) {
            Event range;
            range.start = rangeStart[t] - 1;
            range.end = threadClock[t];
            range.name = rangeName;
            range.kind = EventKind::NvtxRange;
            trace.lanes()[threads[t].value].events.push_back(range);
        }
    }
    return std::move(trace).finish();
}

struct BenchFile {
    std::string path;
    std::uint64_t bytes = 0;
    std::size_t events = 0;
    ~BenchFile()
    {
        std::error_code ec;
        if (!path.empty())
            std::filesystem::remove(path, ec);
    }
};

const BenchFile& benchFile()
{
    static BenchFile file = [] {
        BenchFile f;
        f.path = (std::filesystem::temp_directory_path()
            / ("gapscope_native_bench_" + std::to_string(::getpid()) + native::kFileExtension))
                     .string();
        const Trace trace = syntheticRecording();
        f.events = trace.eventCount();
        if (!NativeTraceWriter::writeFile(trace, f.path)) {
            std::fprintf(stderr, "cannot write %s\n", f.path.c_str());
            std::abort();
        }
        f.bytes = std::filesystem::file_size(f.path);
        return f;
    }();
    return file;
}

std::uint64_t residentBytes()
{
    std::ifstream statm("/proc/self/statm");
    std::uint64_t size = 0, resident = 0;
    statm >> size >> resident;
    return resident * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

/// The whole load: read, build lanes, finish (sort check, depths, correlation index).
void BM_LoadNativeTrace(benchmark::State& state)
{
    const BenchFile& file = benchFile();
    std::size_t events = 0;
    std::uint64_t resident = 0;
    for (auto _ : state) {
        const std::uint64_t before = residentBytes();
        auto loaded = NativeTraceReader::readFile(file.path);
        if (!loaded) {
            state.SkipWithError(loaded.error().toString().c_str());
            return;
        }
        events = loaded.value().eventCount();
        resident = residentBytes() - before;
        benchmark::DoNotOptimize(loaded.value().lanes().data());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * events));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * file.bytes));
    state.counters["events"] = static_cast<double>(events);
    state.counters["resident_bytes_per_event"] = events ? static_cast<double>(resident) / events : 0.0;
}
BENCHMARK(BM_LoadNativeTrace)->Unit(benchmark::kMillisecond)->MinTime(2.0);

/// Parsing alone: read the file and build the lanes, without TraceBuilder::finish().
void BM_ParseNativeTrace(benchmark::State& state)
{
    const BenchFile& file = benchFile();
    std::size_t events = 0;
    for (auto _ : state) {
        auto loaded = NativeTraceReader::readUnfinished(file.path);
        if (!loaded) {
            state.SkipWithError(loaded.error().toString().c_str());
            return;
        }
        events = 0;
        for (const Lane& lane : loaded.value().trace.lanes())
            events += lane.events.size();
        benchmark::DoNotOptimize(loaded.value().trace.lanes().data());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * events));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * file.bytes));
}
BENCHMARK(BM_ParseNativeTrace)->Unit(benchmark::kMillisecond)->MinTime(2.0);

/// Finishing alone, on the loaded trace reopened (lanes already sorted): the share of the load the model costs.
void BM_FinishLoadedNativeTrace(benchmark::State& state)
{
    auto loaded = NativeTraceReader::readFile(benchFile().path);
    if (!loaded) {
        state.SkipWithError(loaded.error().toString().c_str());
        return;
    }
    Trace& trace = loaded.value();
    for (auto _ : state)
        trace = TraceBuilder(std::move(trace)).finish();
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * trace.eventCount()));
}
BENCHMARK(BM_FinishLoadedNativeTrace)->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_WriteNativeTrace(benchmark::State& state)
{
    const Trace trace = syntheticRecording();
    const std::string path = benchFile().path + ".write";
    for (auto _ : state) {
        if (!NativeTraceWriter::writeFile(trace, path)) {
            state.SkipWithError("write failed");
            return;
        }
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * trace.eventCount()));
    std::error_code ec;
    std::filesystem::remove(path, ec);
}
BENCHMARK(BM_WriteNativeTrace)->Unit(benchmark::kMillisecond)->MinTime(2.0);

} // namespace
