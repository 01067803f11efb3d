// SPDX-License-Identifier: MIT
// Critical path and what-if speed (docs/performance.md: one 100 k-event step ≤ 50 ms to graph and path, a what-if
// re-schedule of it ≤ 20 ms, the viewer's what-if of it ≤ 50 ms, every step of 10 M events ≤ 2 s on 2 cores; ≤ 64 B
// per graph node). The trace is
// generated in memory, shaped like a training step: the main thread loads a batch in a __next__ range, then each
// GPU op is a cpu_op holding its cudaLaunchKernel; kernels alternate over two compute streams, every 50th op is
// an NCCL kernel on a third stream that waits on an event (a Kineto cuda_sync record with its args), and the step
// ends in cudaStreamSynchronize. Three model events per GPU op.
#include "core/analysis/critical_path.h"
#include "core/analysis/what_if.h"
#include "core/annotations/step_predictor.h"
#include "core/model/trace_builder.h"

#include <benchmark/benchmark.h>

#include <memory>
#include <string>

namespace {

using namespace gapscope;

constexpr TimeNs kUs = 1000;

Trace generateSteps(std::size_t steps, std::size_t eventsPerStep)
{
    TraceBuilder b;
    Process p;
    p.pid = 1;
    p.name = "train";
    const ProcessIndex process = b.addProcess(p);
    const LaneIndex main = b.threadLane(process, 1);
    const DeviceIndex device = b.device(process, 0);
    const LaneIndex streams[3] = { b.streamLane(device, 7), b.streamLane(device, 8), b.streamLane(device, 9) };
    const StringId next = b.strings().intern("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
    const StringId ops[4] = { b.strings().intern("aten::conv2d"), b.strings().intern("aten::batch_norm"),
        b.strings().intern("aten::relu"), b.strings().intern("aten::add_") };
    const StringId kernels[4] = { b.strings().intern("implicit_convolve_sgemm"), b.strings().intern("bn_fw_tr_1C11"),
        b.strings().intern("elementwise_kernel<relu>"), b.strings().intern("elementwise_kernel<add>") };
    const StringId nccl = b.strings().intern("ncclKernel_AllReduce_RING_LL_Sum_float");
    const StringId launch = b.strings().intern("cudaLaunchKernel");
    const StringId record = b.strings().intern("cudaEventRecord");
    const StringId waitCall = b.strings().intern("cudaStreamWaitEvent");
    const StringId waitSync = b.strings().intern("Stream Wait Event");
    const StringId streamSync = b.strings().intern("cudaStreamSynchronize");
    auto push = [&](LaneIndex lane, EventKind kind, StringId name, TimeNs start, TimeNs end, std::uint32_t corr) {
        Event e;
        e.kind = kind;
        e.name = name;
        e.start = start;
        e.end = end;
        e.correlation = corr;
        b.lanes()[lane.value].events.push_back(e);
        return &b.lanes()[lane.value].events.back();
    };
    const std::size_t opsPerStep = eventsPerStep / 3;
    TimeNs t = 0;
    std::uint32_t corr = 1;
    TimeNs gpuFree[3] = { 0, 0, 0 };
    for (std::size_t s = 0; s < steps; ++s) {
        const TimeNs stepStart = t;
        const std::size_t stepIndex = b.lanes()[main.value].events.size();
        push(main, EventKind::UserAnnotation, b.strings().intern("ProfilerStep#" + std::to_string(s)), stepStart,
            stepStart, 0);
        push(main, EventKind::CpuOp, next, t, t + 20'000 * kUs / 100, 0);
        t += 20'000 * kUs / 100 + 5 * kUs;
        for (std::size_t i = 0; i < opsPerStep; ++i) {
            const bool comm = i % 50 == 49;
            const int k = static_cast<int>(i % 4);
            push(main, EventKind::CpuOp, ops[k], t, t + 12 * kUs, 0);
            if (comm) {
                push(main, EventKind::RuntimeApi, record, t + 1 * kUs, t + 2 * kUs, corr);
                const std::uint32_t recordCorr = corr++;
                push(main, EventKind::RuntimeApi, waitCall, t + 3 * kUs, t + 4 * kUs, corr);
                const TimeNs ready = std::max(gpuFree[0], t + 4 * kUs);
                Event* sync = push(streams[2], EventKind::Sync, waitSync, t + 3 * kUs, t + 4 * kUs, corr++);
                sync->args = b.addArgs(R"({"wait_on_stream": 7, "wait_on_cuda_event_record_corr_id": )"
                    + std::to_string(recordCorr) + "}");
                push(main, EventKind::RuntimeApi, launch, t + 5 * kUs, t + 10 * kUs, corr);
                const TimeNs start = std::max({ ready, gpuFree[2], t + 8 * kUs });
                push(streams[2], EventKind::Kernel, nccl, start, start + 40 * kUs, corr++);
                gpuFree[2] = start + 40 * kUs;
            } else {
                const int stream = static_cast<int>(i % 2);
                push(main, EventKind::RuntimeApi, launch, t + 2 * kUs, t + 8 * kUs, corr);
                const TimeNs start = std::max(gpuFree[stream], t + 6 * kUs);
                const TimeNs length = (k == 0 ? 30 : 8) * kUs;
                push(streams[stream], EventKind::Kernel, kernels[k], start, start + length, corr++);
                gpuFree[stream] = start + length;
            }
            t += 14 * kUs;
        }
        const TimeNs drained = std::max({ gpuFree[0], gpuFree[1], gpuFree[2], t + 2 * kUs });
        push(main, EventKind::RuntimeApi, streamSync, t, drained + 3 * kUs, corr++);
        t = drained + 3 * kUs;
        b.lanes()[main.value].events[stepIndex].end = t; // the step range ends with the sync
        t += 10 * kUs;
    }
    return std::move(b).finish();
}

const Trace& oneStep()
{
    static const Trace trace = generateSteps(1, 100'000);
    return trace;
}

void BM_CriticalPathOfOneStep(benchmark::State& state)
{
    const Trace& trace = oneStep();
    const auto windows = stepPathWindows(trace, "", 0);
    std::size_t nodes = 0;
    std::size_t bytes = 0;
    for (auto _ : state) {
        const DependencyGraph graph = buildDependencyGraph(trace, windows.front());
        const PathWeights weights = measuredWeights(graph);
        const CriticalPath path = criticalPathOf(graph, weights, scheduleNodes(graph, weights), {});
        benchmark::DoNotOptimize(path.lengthNs);
        nodes = graph.nodes.size();
        bytes = graph.bytes();
    }
    state.counters["events"] = static_cast<double>(trace.eventCount());
    state.counters["nodes"] = static_cast<double>(nodes);
    state.counters["bytes_per_node"] = static_cast<double>(bytes) / static_cast<double>(nodes);
}
BENCHMARK(BM_CriticalPathOfOneStep)->Unit(benchmark::kMillisecond);

void BM_WhatIfOfOneStep(benchmark::State& state)
{
    const Trace& trace = oneStep();
    const auto windows = stepPathWindows(trace, "", 0);
    const DependencyGraph graph = buildDependencyGraph(trace, windows.front());
    WhatIfChanges changes;
    changes.scales = { { "sgemm", 0.5 } };
    for (auto _ : state) {
        const auto outcome = whatIf(graph, changes, trace, { 20, 0 });
        benchmark::DoNotOptimize(outcome->predictedNs);
    }
}
BENCHMARK(BM_WhatIfOfOneStep)->Unit(benchmark::kMillisecond);

// What the viewer recomputes when the dock's "N % less" changes or another op is right-clicked: the prediction
// over the counted steps from the graphs it built on the first what-if, on the one thread it uses.
// NOLINTNEXTLINE(readability-identifier-naming): Google Benchmark names benchmarks BM_
void BM_ViewerWhatIfOfOneStep(benchmark::State& state)
{
    const Trace& trace = oneStep();
    const StepPredictor predictor(trace, 1);
    WhatIfChanges changes;
    changes.scales = { { "^implicit_convolve_sgemm$", 0.5 } };
    for (auto _ : state) {
        const auto prediction = predictor.predict(trace, changes, "", 1);
        benchmark::DoNotOptimize(prediction->predictedP50Ns);
    }
    state.counters["steps"] = static_cast<double>(predictor.windows().size());
    state.counters["graphs_kept"] = predictor.keepsGraphs() ? 1.0 : 0.0;
}
BENCHMARK(BM_ViewerWhatIfOfOneStep)->Unit(benchmark::kMillisecond);

// The viewer's first what-if of a trace: the step windows and their graphs built, then the prediction.
// NOLINTNEXTLINE(readability-identifier-naming): Google Benchmark names benchmarks BM_
void BM_ViewerFirstWhatIfOfOneStep(benchmark::State& state)
{
    const Trace& trace = oneStep();
    WhatIfChanges changes;
    changes.scales = { { "^implicit_convolve_sgemm$", 0.5 } };
    for (auto _ : state) {
        const StepPredictor predictor(trace, 1);
        const auto prediction = predictor.predict(trace, changes, "", 1);
        benchmark::DoNotOptimize(prediction->predictedP50Ns);
    }
}
BENCHMARK(BM_ViewerFirstWhatIfOfOneStep)->Unit(benchmark::kMillisecond);

void BM_CriticalPathEveryStep10M(benchmark::State& state)
{
    static const Trace trace = generateSteps(100, 100'000);
    const auto windows = stepPathWindows(trace, "", 0);
    for (auto _ : state) {
        const auto paths = criticalPaths(trace, windows, {}, static_cast<unsigned>(state.range(0)));
        benchmark::DoNotOptimize(paths.size());
    }
    state.counters["events"] = static_cast<double>(trace.eventCount());
    state.counters["steps"] = static_cast<double>(windows.size());
}
BENCHMARK(BM_CriticalPathEveryStep10M)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(1);

} // namespace
