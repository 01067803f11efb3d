// SPDX-License-Identifier: MIT
// The job path (DESIGN.md §8): `summarize` at the speed of `report`, and the merge of 1,024 rank summaries
// (read, matched, measured) in under 2 s and 500 MB.
#include "core/io/trace_file.h"
#include "core/summary/summary_json.h"
#include "kineto_trace_generator.h"

#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using namespace gapscope;
namespace fs = std::filesystem;

/// A generated Kineto trace of `gpuEvents` GPU ops (NCCL all-reduces among them), written once per run.
const std::string& generatedTraceFile(std::size_t gpuEvents)
{
    static std::string path;
    if (path.empty()) {
        path = (fs::temp_directory_path() / ("gapscope_job_bench_" + std::to_string(gpuEvents) + ".json")).string();
        bench::KinetoTraceSpec spec;
        spec.gpuEvents = gpuEvents;
        if (!bench::writeKinetoJsonFile(path, spec, false))
            path.clear();
    }
    return path;
}

/// What `report` does before printing: load and analyse the whole trace.
void BM_ReportAnalysisOfFile(benchmark::State& state)
{
    const std::string& path = generatedTraceFile(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) {
        auto trace = loadTraceFile(path);
        const AnalysisResult result = analyze(trace.value(), AnalysisOptions {});
        benchmark::DoNotOptimize(result.devices.size());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * fs::file_size(path)));
}
BENCHMARK(BM_ReportAnalysisOfFile)->Arg(200'000)->Unit(benchmark::kMillisecond);

/// What `summarize` does: load, analyse (device gaps only) and summarize, then write the JSON text.
void BM_SummarizeFile(benchmark::State& state)
{
    const std::string& path = generatedTraceFile(static_cast<std::size_t>(state.range(0)));
    std::size_t bytes = 0;
    for (auto _ : state) {
        auto summaries = summarizeTraceFile(path, AnalysisOptions {});
        const std::string text = summariesToJson(summaries.value());
        bytes = text.size();
        benchmark::DoNotOptimize(text.data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * fs::file_size(path)));
    state.counters["summary_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_SummarizeFile)->Arg(200'000)->Unit(benchmark::kMillisecond);

/// xorshift64*: fast and deterministic.
std::uint64_t nextRandom(std::uint64_t& state)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545F4914F6CDD1Dull;
}

/// A rank of a generated job of `ranks` ranks: one GPU, 256 utilization bins, `collectives` NCCL kernels (all-reduce
/// and send/recv alternating, arrivals jittered by up to 2 ms, common ends), 10 longest gaps.
RankSummary generatedRank(int rank, int ranks, std::size_t collectives)
{
    static const std::string kNames[] = {
        "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
        "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)",
    };
    std::uint64_t random = 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(rank + 1);
    RankSummary s;
    s.source = "/scratch/job/rank" + std::to_string(rank) + ".pt.trace.json.gz";
    s.pid = 1000 + rank;
    s.processName = "python3";
    s.rank = rank;
    s.worldSize = ranks;
    const TimeNs t0 = 1'700'000'000'000'000'000;
    const TimeNs period = 5'000'000; // one collective every 5 ms
    DeviceSummary d;
    d.id = rank % 8;
    d.name = "NVIDIA H100 80GB HBM3";
    d.windowStart = t0;
    d.windowEnd = t0 + period * static_cast<TimeNs>(collectives);
    d.spanNs = d.windowEnd - d.windowStart;
    d.binStart = t0;
    d.binWidthNs = (d.spanNs + 255) / 256;
    for (int b = 0; b < 256; ++b)
        d.busyPerBin.push_back(static_cast<TimeNs>(nextRandom(random) % static_cast<std::uint64_t>(d.binWidthNs)));
    for (const TimeNs busy : d.busyPerBin)
        d.busyNs += busy;
    d.idleNs = d.spanNs - d.busyNs;
    d.idleByCause
        = { d.idleNs / 4, d.idleNs / 4, d.idleNs / 4, d.idleNs / 8, d.idleNs - d.idleNs / 4 * 3 - d.idleNs / 8 };
    d.exposed = { d.busyNs / 2, d.busyNs / 3, d.busyNs - d.busyNs / 2 - d.busyNs / 3, d.idleNs };
    d.gapCount = 10'000;
    s.devices.push_back(std::move(d));
    for (std::size_t c = 0; c < collectives; ++c) {
        CollectiveOccurrence o;
        o.kernel = kNames[c % 2];
        o.device = rank % 8;
        o.start = t0 + period * static_cast<TimeNs>(c) + static_cast<TimeNs>(nextRandom(random) % 2'000'000);
        o.end = t0 + period * static_cast<TimeNs>(c) + 3'000'000 + static_cast<TimeNs>(nextRandom(random) % 5'000);
        o.exposed.push_back({ o.start, o.end });
        s.collectives.push_back(std::move(o));
    }
    for (int g = 0; g < 10; ++g) {
        s.longestGaps.push_back({ rank % 8, t0 + g * 1'000'000, t0 + g * 1'000'000 + 400'000, GapCause::Host,
            "cpu_op aten::to on thread 4242 covers 96 % of the gap; launch cudaLaunchKernel at +401.000 µs" });
    }
    return s;
}

/// The merge of `job`: every rank's summary file read, collectives matched, skew measured. Files are written
/// once per run to /tmp/gapscope_job_bench_<ranks>/ (left there for `gapscope job` to be timed on).
void BM_MergeSummaries(benchmark::State& state)
{
    const int ranks = static_cast<int>(state.range(0));
    const auto collectives = static_cast<std::size_t>(state.range(1));
    const fs::path dir = fs::temp_directory_path()
        / ("gapscope_job_bench_" + std::to_string(ranks) + "x" + std::to_string(collectives));
    std::vector<std::string> files;
    fs::create_directories(dir);
    for (int r = 0; r < ranks; ++r) {
        files.push_back((dir / ("rank-" + std::to_string(r) + ".summary.json")).string());
        if (!fs::exists(files.back()))
            writeSummaryFile(files.back(), { generatedRank(r, ranks, collectives) });
    }
    // Peak resident memory from here on: the kernel's high-water mark is reset (writing 5 to clear_refs).
    std::ofstream("/proc/self/clear_refs") << "5";
    std::size_t matched = 0;
    for (auto _ : state) {
        std::vector<RankSummary> summaries;
        summaries.reserve(files.size());
        for (const std::string& file : files) {
            auto read = readSummaryFile(file);
            summaries.push_back(std::move(read.value().front()));
        }
        std::vector<JobRankInput> inputs;
        for (const RankSummary& s : summaries)
            inputs.push_back(s.jobInput());
        const JobAnalysis job = analyzeJob(inputs);
        matched = job.collectives.size();
        benchmark::DoNotOptimize(job.totalWaitNs);
    }
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.starts_with("VmHWM:"))
            state.counters["peak_rss_MB"] = std::stod(line.substr(6)) / 1024.0;
    }
    state.counters["matched"] = static_cast<double>(matched);
    std::uintmax_t bytes = 0;
    for (const std::string& file : files)
        bytes += fs::file_size(file);
    state.counters["summary_MB"] = static_cast<double>(bytes) / 1e6;
}
BENCHMARK(BM_MergeSummaries)->Args({ 1024, 1000 })->Unit(benchmark::kMillisecond)->Iterations(3);

} // namespace
