// SPDX-License-Identifier: MIT
// Gap analysis speed (docs/performance.md: 10 M events in ≤ 100 ms) on a trace generated in memory: a training-like
// run of one process, 4 host threads launching onto 8 streams of one GPU, every GPU op with its launch call
// (correlation id), a data-loading stall every 2,000 ops that drains the GPU, short per-thread stalls, an
// NCCL stream, a copy stream and a few cudaStreamSynchronize calls. Like the real traces in tests/data
// (0.77 device gaps per GPU op on HTA's 5-stream sampled_rank-0, 0.9 on the ResNet-50 sample), most GPU ops
// are followed by a gap, so the cost per gap matters as much as the cost per event.
#include "core/analysis/analysis.h"
#include "core/model/trace_builder.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace gapscope;

constexpr int kStreams = 8;
constexpr int kThreads = 4;
constexpr TimeNs kUs = 1000;

/// xorshift64*: fast and deterministic.
class Random {
public:
    explicit Random(std::uint64_t seed)
        : m_state(seed * 0x9E3779B97F4A7C15ull + 1)
    { }
    std::uint64_t next()
    {
        m_state ^= m_state >> 12;
        m_state ^= m_state << 25;
        m_state ^= m_state >> 27;
        return m_state * 0x2545F4914F6CDD1Dull;
    }
    /// Uniform in [lo, hi].
    TimeNs between(TimeNs lo, TimeNs hi)
    {
        return lo + static_cast<TimeNs>(next() % static_cast<std::uint64_t>(hi - lo + 1));
    }
    bool chance(std::uint64_t oneIn) { return next() % oneIn == 0; }

private:
    std::uint64_t m_state;
};

struct GeneratedTrace {
    Trace trace;
    std::size_t gpuEvents = 0;
    std::size_t syncCalls = 0;
};

std::unique_ptr<GeneratedTrace> generate(std::size_t gpuEvents)
{
    auto out = std::make_unique<GeneratedTrace>();
    TraceBuilder trace;
    Random random(42);
    Process process;
    process.pid = 4242;
    process.name = "train.py";
    const ProcessIndex p = trace.addProcess(process);
    const DeviceIndex device = trace.device(p, 0);
    std::array<LaneIndex, kStreams> streams;
    std::array<LaneIndex, kThreads> threads;
    for (int s = 0; s < kStreams; ++s) {
        streams[s] = trace.streamLane(device, 7 + s);
        trace.lanes()[streams[s].value].events.reserve(gpuEvents / kStreams + 1);
    }
    for (int t = 0; t < kThreads; ++t) {
        threads[t] = trace.threadLane(p, 100 + t);
        trace.lanes()[threads[t].value].events.reserve(gpuEvents / kThreads + 16);
    }
    std::array<StringId, 16> kernelNames;
    for (std::size_t k = 0; k < kernelNames.size(); ++k)
        kernelNames[k]
            = trace.strings().intern("void kernel_" + std::to_string(k) + "<float, 128>(float const*, float*, int)");
    const StringId nccl
        = trace.strings().intern("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)");
    const StringId memcpy = trace.strings().intern("Memcpy HtoD (Pinned -> Device)");
    const StringId memset = trace.strings().intern("Memset (Device)");
    const StringId launchKernel = trace.strings().intern("cudaLaunchKernel");
    const StringId memcpyAsync = trace.strings().intern("cudaMemcpyAsync");
    const StringId memsetAsync = trace.strings().intern("cudaMemsetAsync");
    const StringId streamSync = trace.strings().intern("cudaStreamSynchronize");

    // Most work goes to one compute stream, as in real training traces (that is why real traces have about
    // one device gap per GPU op); auxiliary compute streams overlap it now and then; one stream carries NCCL,
    // one copies. Each stream is fed by one of the host threads.
    std::array<TimeNs, kThreads> cpu {};
    std::array<TimeNs, kStreams> streamEnd {};
    cpu.fill(1'000'000 * kUs);
    streamEnd.fill(0);
    for (std::size_t i = 0; i < gpuEvents; ++i) {
        const std::uint64_t pick = random.next() % 100;
        const int s = pick < 80 ? 0 : pick < 90 ? 1 + static_cast<int>(pick % 5) : pick < 95 ? 6 : 7;
        const int t = s == 0 ? 0 : 1 + s % (kThreads - 1);
        if (i % 2000 == 0 && i > 0) {
            // Data loading between iterations: every thread waits, the GPU drains.
            const TimeNs resume = *std::max_element(cpu.begin(), cpu.end()) + random.between(300 * kUs, 3000 * kUs);
            cpu.fill(resume);
        }
        // Threads other than the main one keep pace with it (they are fed by it).
        cpu[t] = std::max(cpu[t], cpu[0] - 20 * kUs) + random.between(1 * kUs, 4 * kUs);
        if (random.chance(4000))
            cpu[t] += random.between(50 * kUs, 500 * kUs); // a short stall of one thread (Python, allocator)
        if (random.chance(200000)) {
            Event sync;
            sync.start = cpu[t];
            sync.end = std::max(cpu[t], streamEnd[s]) + 5 * kUs;
            sync.kind = EventKind::RuntimeApi;
            sync.name = streamSync;
            trace.lanes()[threads[t].value].events.push_back(sync);
            cpu[t] = sync.end + kUs;
            ++out->syncCalls;
        }
        Event op;
        Event launch;
        const auto correlation = static_cast<std::uint32_t>(i + 1);
        if (s == 6) {
            op.kind = EventKind::Kernel;
            op.name = nccl;
            launch.name = launchKernel;
        } else if (s == 7 && pick % 4 != 0) {
            op.kind = EventKind::Memcpy;
            op.copyKind = CopyKind::HtoD;
            op.name = memcpy;
            op.bytes = 1 << 20;
            launch.name = memcpyAsync;
        } else if (s == 7) {
            op.kind = EventKind::Memset;
            op.name = memset;
            op.bytes = 1 << 16;
            launch.name = memsetAsync;
        } else {
            op.kind = EventKind::Kernel;
            op.name = kernelNames[random.next() % kernelNames.size()];
            launch.name = launchKernel;
        }
        launch.kind = EventKind::RuntimeApi;
        launch.start = cpu[t];
        launch.end = cpu[t] + random.between(2 * kUs, 4 * kUs);
        launch.correlation = correlation;
        cpu[t] = launch.end;
        // Consecutive ops of a stream are ~1 µs apart even when queued, as CUPTI shows them.
        const TimeNs queueGap = random.between(300, 1500);
        op.start = std::max(launch.start + 4 * kUs, streamEnd[s] + queueGap);
        if (s == 0 && random.chance(300))
            op.start = std::max(op.start, streamEnd[6] + 2 * kUs); // waits for the all-reduce (an event)
        const TimeNs duration = op.kind == EventKind::Memcpy ? random.between(3 * kUs, 20 * kUs)
            : op.name == nccl                                ? random.between(10 * kUs, 60 * kUs)
                                                             : random.between(1 * kUs, 8 * kUs);
        op.end = op.start + duration;
        op.correlation = correlation;
        streamEnd[s] = op.end;
        trace.lanes()[streams[s].value].events.push_back(op);
        trace.lanes()[threads[t].value].events.push_back(launch);
    }
    out->trace = std::move(trace).finish();
    out->gpuEvents = gpuEvents;
    return out;
}

const GeneratedTrace& generated(std::size_t gpuEvents)
{
    static std::map<std::size_t, std::unique_ptr<GeneratedTrace>> cache;
    auto& slot = cache[gpuEvents];
    if (!slot)
        slot = generate(gpuEvents);
    return *slot;
}

/// What `gapscope report` adds to analyze(): the longest device gaps with their evidence and summary line.
std::size_t explainLongestGaps(const Trace& trace, const AnalysisResult& result, std::size_t top)
{
    std::size_t characters = 0;
    for (const std::size_t index : longestDeviceGaps(result, top))
        characters += gapEvidence(trace, result.gaps[index], result.options.launchThresholdNs).summary.size();
    return characters;
}

/// `summaries`: the trace's lane summaries, built once beforehand as a viewer keeps them (nullptr: analyze()
/// builds them each time, as one `gapscope report` does).
void runAnalysis(benchmark::State& state, const AnalysisOptions& options, const LaneSummaries* summaries = nullptr)
{
    const GeneratedTrace& g = generated(static_cast<std::size_t>(state.range(0)));
    std::size_t deviceGaps = 0;
    std::size_t gaps = 0;
    double utilization = 0;
    for (auto _ : state) {
        const AnalysisResult result = summaries ? analyze(g.trace, *summaries, options) : analyze(g.trace, options);
        benchmark::DoNotOptimize(explainLongestGaps(g.trace, result, 20));
        benchmark::DoNotOptimize(result.devices.data());
        deviceGaps = result.devices.empty() ? 0 : result.devices[0].gapCount;
        gaps = result.gaps.size();
        utilization = result.devices.empty() ? 0 : result.devices[0].utilization;
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * g.gpuEvents));
    state.counters["gpu_events"] = static_cast<double>(g.gpuEvents);
    state.counters["host_events"] = static_cast<double>(g.trace.eventCount() - g.gpuEvents);
    state.counters["device_gaps"] = static_cast<double>(deviceGaps);
    state.counters["gaps_listed"] = static_cast<double>(gaps);
    state.counters["sync_calls"] = static_cast<double>(g.syncCalls);
    state.counters["utilization"] = utilization;
}

/// The figure docs/performance.md holds: windows, busy/idle/utilization, every device gap with its cause (evidence
/// events and summaries are worked out on demand: here for the 20 longest gaps, as `gapscope report` shows),
/// exposed time, steps; as a viewer asks for them on a large trace (no stream gaps, no kernel table).
AnalysisOptions idleGapOptions()
{
    AnalysisOptions options;
    options.streamGaps = false;
    options.kernelStatistics = false;
    return options;
}

void BM_IdleGapAnalysis(benchmark::State& state)
{
    runAnalysis(state, idleGapOptions());
}
BENCHMARK(BM_IdleGapAnalysis)->Arg(1'000'000)->Arg(10'000'000)->Unit(benchmark::kMillisecond);

/// BM_IdleGapAnalysis with the lane summaries built once per trace, as the viewer hands them to each analysis.
void BM_IdleGapAnalysisSummariesBuilt(benchmark::State& state)
{
    const LaneSummaries summaries(generated(static_cast<std::size_t>(state.range(0))).trace);
    runAnalysis(state, idleGapOptions(), &summaries);
}
BENCHMARK(BM_IdleGapAnalysisSummariesBuilt)->Arg(10'000'000)->Unit(benchmark::kMillisecond);

/// What analyze(trace, options) adds to that: the one pass over every event that builds the lane summaries.
void BM_LaneSummaries(benchmark::State& state)
{
    const GeneratedTrace& g = generated(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) {
        const LaneSummaries summaries(g.trace);
        benchmark::DoNotOptimize(&summaries[LaneIndex { 0 }]);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * g.trace.eventCount()));
}
BENCHMARK(BM_LaneSummaries)->Arg(10'000'000)->Unit(benchmark::kMillisecond);

/// BM_IdleGapAnalysis on a given number of threads (the second argument): how the analysis scales.
void BM_IdleGapAnalysisThreads(benchmark::State& state)
{
    AnalysisOptions options = idleGapOptions();
    options.threads = static_cast<unsigned>(state.range(1));
    runAnalysis(state, options);
}
BENCHMARK(BM_IdleGapAnalysisThreads)->Args({ 10'000'000, 1 })->Args({ 10'000'000, 2 })->Unit(benchmark::kMillisecond);

/// Everything `gapscope report` asks for: BM_IdleGapAnalysis's figures and per-kernel statistics. Stream gaps
/// are listed on demand, by the JSON report alone (BM_FullAnalysisWithStreamGaps).
void BM_FullAnalysis(benchmark::State& state)
{
    AnalysisOptions options;
    options.streamGaps = false;
    runAnalysis(state, options);
}
BENCHMARK(BM_FullAnalysis)->Arg(1'000'000)->Arg(10'000'000)->Unit(benchmark::kMillisecond);

/// What `gapscope report --json` asks for (AnalysisOptions {}): also every stream gap with its cause.
// NOLINTNEXTLINE(readability-identifier-naming): Google Benchmark names benchmarks BM_
void BM_FullAnalysisWithStreamGaps(benchmark::State& state)
{
    runAnalysis(state, AnalysisOptions {});
}
BENCHMARK(BM_FullAnalysisWithStreamGaps)->Arg(10'000'000)->Unit(benchmark::kMillisecond);

} // namespace

namespace {

/// The floor under BM_IdleGapAnalysis: one plain read of the start, end and name of every GPU event of the
/// same trace, lane after lane, with nothing computed: what the memory of this machine allows.
void BM_GpuEventReadFloor(benchmark::State& state)
{
    const GeneratedTrace& g = generated(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) {
        TimeNs sum = 0;
        for (const Lane& lane : g.trace.lanes()) {
            if (lane.kind != LaneKind::GpuStream)
                continue;
            for (const Event& e : lane.events)
                sum += e.end - e.start + e.name.value;
        }
        benchmark::DoNotOptimize(sum);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * g.gpuEvents));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g.gpuEvents * sizeof(Event)));
}
BENCHMARK(BM_GpuEventReadFloor)->Arg(10'000'000)->Unit(benchmark::kMillisecond);

} // namespace
