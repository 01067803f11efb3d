// SPDX-License-Identifier: MIT
// The device pass on a GPU with more streams than FewRunsMerge takes beside the busiest (8): the path that
// merges the other streams' events through the general merge (device_pass.cpp). A generated trace of one GPU with
// 16 streams: half the kernels on the busiest stream, the rest spread over the other 15, each stream's kernels
// back to back with short gaps, so that the other streams' events come between the busiest's all the time.
#include "core/analysis/analysis.h"
#include "core/model/trace_builder.h"

#include <benchmark/benchmark.h>

#include <array>
#include <memory>

namespace {

using namespace gapscope;

constexpr int kStreams = 16;

std::unique_ptr<Trace> generate(std::size_t gpuEvents)
{
    auto trace = std::make_unique<TraceBuilder>();
    Process process;
    process.pid = 4243;
    const ProcessIndex p = trace->addProcess(process);
    const DeviceIndex device = trace->device(p, 0);
    std::array<LaneIndex, kStreams> streams;
    for (int s = 0; s < kStreams; ++s)
        streams[s] = trace->streamLane(device, 7 + s);
    const StringId kernel = trace->strings().intern("void gemm_kernel<float, 128>(float const*, float*, int)");
    std::array<TimeNs, kStreams> streamEnd {};
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    const auto next = [&] {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        return state * 0x2545F4914F6CDD1Dull;
    };
    for (std::size_t i = 0; i < gpuEvents; ++i) {
        const std::uint64_t pick = next();
        const int s = pick % 2 == 0 ? 0 : 1 + static_cast<int>((pick >> 1) % (kStreams - 1));
        Event op;
        op.kind = EventKind::Kernel;
        op.name = kernel;
        // The busiest stream runs 15 times as often as each other one: its kernels and gaps are shorter.
        const TimeNs scale = s == 0 ? 1 : kStreams - 1;
        op.start = streamEnd[s] + static_cast<TimeNs>(next() % 2'000) * scale;
        op.end = op.start + static_cast<TimeNs>(1'000 + next() % 6'000) * scale;
        streamEnd[s] = op.end;
        trace->lanes()[streams[s].value].events.push_back(op);
    }
    return std::make_unique<Trace>(std::move(*trace).finish());
}

void BM_IdleGapAnalysisManyStreams(benchmark::State& state)
{
    static std::unique_ptr<Trace> trace;
    if (!trace)
        trace = generate(static_cast<std::size_t>(state.range(0)));
    AnalysisOptions options;
    options.streamGaps = false;
    options.kernelStatistics = false;
    options.threads = 1; // the merge itself, not how the slices share the cores
    std::size_t gaps = 0;
    for (auto _ : state) {
        const AnalysisResult result = analyze(*trace, options);
        benchmark::DoNotOptimize(result.devices.data());
        gaps = result.gaps.size();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
    state.counters["device_gaps"] = static_cast<double>(gaps);
}
BENCHMARK(BM_IdleGapAnalysisManyStreams)->Arg(4'000'000)->Unit(benchmark::kMillisecond);

} // namespace
