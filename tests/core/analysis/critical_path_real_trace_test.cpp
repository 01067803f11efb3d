// SPDX-License-Identifier: MIT
// Critical path and what-if on the PyTorch profiler's ResNet-50 samples (tests/data/kineto/tb_plugin): the run
// with the data loader on the main thread (num_workers=0), and the real experiment, four loader workers.
#include "core/analysis/critical_path.h"
#include "core/analysis/what_if.h"
#include "tests/core/hand_trace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

namespace gapscope {
namespace {

constexpr const char* kZeroWorkers
    = "kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz";
constexpr const char* kFourWorkers
    = "kineto/tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz";
constexpr std::string_view kNext = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__";

TimeNs median(std::vector<TimeNs> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[(values.size() + 1) / 2 - 1]; // nearest rank, as the step statistics
}

bool insideNext(const Trace& trace, const DependencyGraph& graph, std::uint32_t op, std::uint32_t ownNext)
{
    for (std::uint32_t o = op; o != DependencyGraph::kNone; o = graph.ops[o].parent) {
        if (ownNext == DependencyGraph::kNone ? trace.strings().view(graph.ops[o].name) == kNext : o == ownNext)
            return true;
    }
    return false;
}

TEST(CriticalPathRealTraceTest, ResNet50PathRunsThroughAllOfEachStepsDataLoading)
{
    const Trace trace = test::load({ kZeroWorkers });
    const auto windows = stepPathWindows(trace, "", 0);
    ASSERT_EQ(windows.size(), 6u);
    for (const PathWindow& w : windows) {
        const DependencyGraph graph = buildDependencyGraph(trace, w);
        const PathWeights weights = measuredWeights(graph);
        const CriticalPath path = criticalPathOf(graph, weights, scheduleNodes(graph, weights), {});
        EXPECT_EQ(path.lengthNs, w.length()) << w.name;
        EXPECT_EQ(std::accumulate(path.byCategory.begin(), path.byCategory.end(), TimeNs { 0 }), w.length());
        // The step's own __next__ (the child of its ProfilerStep range), as far as it lies in the step's window:
        // the window starts where the previous step's GPU work ended, which can be after __next__ began.
        std::uint32_t ownNext = DependencyGraph::kNone;
        for (std::uint32_t o = 0; o < graph.ops.size(); ++o) {
            const std::uint32_t parent = graph.ops[o].parent;
            if (parent != DependencyGraph::kNone && w.stepRange && graph.ops[parent].event == *w.stepRange
                && trace.strings().view(graph.ops[o].name) == kNext)
                ownNext = o;
        }
        ASSERT_NE(ownNext, DependencyGraph::kNone) << w.name;
        const TimeNs inWindow
            = graph.nodes[graph.ops[ownNext].endNode].time - graph.nodes[graph.ops[ownNext].startNode].time;
        TimeNs onPath = 0;
        for (const PathSegment& s : path.segments)
            onPath += insideNext(trace, graph, s.op, ownNext) ? s.end - s.start : 0;
        // All of it is on the path: the main thread loads the batch, and nothing of the step can start before.
        EXPECT_EQ(onPath, inWindow) << w.name;
        EXPECT_GT(inWindow * 4, w.length()) << w.name; // a quarter of the step or more (27-37 %)
        // By innermost range, __next__'s own time is the longest name on the path.
        ASSERT_FALSE(path.top.empty());
        EXPECT_EQ(pathSegmentName(trace, path.top.front().name), kNext) << w.name;
        EXPECT_EQ(path.top.front().category, PathCategory::Cpu);
    }
}

TEST(CriticalPathRealTraceTest, ResNet50WithoutTheLoadersHostTimePredictsFourWorkers)
{
    const Trace zero = test::load({ kZeroWorkers });
    const Trace four = test::load({ kFourWorkers });
    std::vector<TimeNs> predicted;
    // The counted steps, 6-10 (warm-up 1 excluded, as the measurement of a note's prediction leaves it out).
    for (const PathWindow& w : countedStepWindows(zero, "", std::nullopt).windows) {
        const DependencyGraph graph = buildDependencyGraph(zero, w);
        WhatIfChanges changes;
        changes.scales = { { "__next__", 0.0 } };
        const auto outcome = whatIf(graph, changes, zero);
        ASSERT_TRUE(outcome.ok());
        // Bounds that hold for any longest path: weights only went down, by the __next__ time in the window.
        TimeNs removed = 0;
        for (std::uint32_t o = 0; o < graph.ops.size(); ++o) {
            if (zero.strings().view(graph.ops[o].name) == kNext)
                removed += graph.nodes[graph.ops[o].endNode].time - graph.nodes[graph.ops[o].startNode].time;
        }
        EXPECT_LE(outcome->predictedNs, outcome->measuredNs) << w.name;
        EXPECT_GE(outcome->predictedNs, outcome->measuredNs - removed) << w.name;
        EXPECT_EQ(
            std::accumulate(outcome->predicted.byCategory.begin(), outcome->predicted.byCategory.end(), TimeNs { 0 }),
            outcome->predictedNs);
        predicted.push_back(outcome->predictedNs);
    }
    std::vector<TimeNs> measuredFour;
    for (const PathWindow& w : countedStepWindows(four, "", std::nullopt).windows)
        measuredFour.push_back(w.length());
    ASSERT_EQ(predicted.size(), 5u);
    ASSERT_EQ(measuredFour.size(), 5u);
    EXPECT_EQ(median(predicted), 118'709'000);
    EXPECT_EQ(median(measuredFour), 126'183'000);
    // Measured here: predicted p50 118.709 ms against 126.183 ms measured with four workers (their __next__
    // takes 0.08-4.3 ms): 7.474 ms, 5.92 % short. The model keeps the main thread's other host work as it was with no
    // workers; with four worker processes on the machine it takes longer. The tolerance is 10 %: two runs of one
    // ResNet-50 setup differ by 15 % in step p50 (docs/definitions.md), so a prediction checked against one run
    // of the other setup cannot be held closer than that run's own noise.
    const double error
        = static_cast<double>(median(predicted) - median(measuredFour)) / static_cast<double>(median(measuredFour));
    EXPECT_LT(std::abs(error), 0.10) << "predicted p50 " << median(predicted) << " ns, measured "
                                     << median(measuredFour) << " ns";
    EXPECT_LT(median(predicted), median(measuredFour));
}

TEST(CriticalPathRealTraceTest, HtaEventSyncTraceLinksTheStreamWaitAndTheDeviceSync)
{
    // HTA's cuda_event_sync_multi_stream trace: a "Stream Wait Event" record on stream 24 (correlation 1389) names
    // stream 20 and the cudaEventRecord of correlation 1385; the last op launched on stream 20 before that record
    // is the sgemm at +348.700 ms (µs after 1712867402 s). cudaDeviceSynchronize (+368.166, 20 µs) returns 13 µs
    // after the sgemm on stream 24 (+368.050, 123 µs) ends; that sgemm waited for its own launch (+368.035, the
    // instant the memset before it on stream 24 ended: a tie, which goes to the launch).
    const Trace trace = test::load({ "hta/critical_path/cuda_event_sync_multi_stream/event_sync_trace.json.gz" });
    constexpr TimeNs kBase = 1712867402000000 * 1000;
    const PathWindow window = explicitPathWindow(defaultPathProcess(trace), kBase + 348'200'000, kBase + 368'186'000);
    const DependencyGraph graph = buildDependencyGraph(trace, window);
    EXPECT_EQ(graph.edgeCounts[static_cast<std::size_t>(DependencyGraph::EdgeKind::EventWait)], 1u);
    EXPECT_EQ(graph.eventWaitsUnresolved, 0u);
    EXPECT_EQ(graph.hostWaits.size(), 1u);
    for (std::uint32_t v = 0; v < graph.nodes.size(); ++v) {
        for (std::uint32_t e = graph.nodes[v].firstEdge; e < graph.edgeEnd(v); ++e) {
            if (graph.edges[e].kind != DependencyGraph::EdgeKind::EventWait)
                continue;
            EXPECT_EQ(graph.nodes[graph.edges[e].from].time, kBase + 348'823'000); // the stream-20 sgemm's end
            EXPECT_EQ(graph.nodes[v].time, kBase + 368'034'000); // the memset that opens stream 24's work
        }
    }
    const CriticalPath path = criticalPath(trace, window);
    EXPECT_EQ(path.lengthNs, window.length());
    EXPECT_EQ(std::accumulate(path.byCategory.begin(), path.byCategory.end(), TimeNs { 0 }), window.length());
    ASSERT_GE(path.segments.size(), 3u);
    const PathSegment& last = path.segments.back();
    EXPECT_EQ(last.category, PathCategory::Sync);
    EXPECT_EQ(pathSegmentName(trace, last.name), "cudaDeviceSynchronize");
    EXPECT_EQ(last.end - last.start, 13'000);
    const PathSegment& kernel = path.segments[path.segments.size() - 2];
    EXPECT_EQ(kernel.category, PathCategory::Compute);
    EXPECT_EQ(kernel.start, kBase + 368'050'000);
    EXPECT_EQ(kernel.end - kernel.start, 123'000);
    const PathSegment& launch = path.segments[path.segments.size() - 3];
    EXPECT_EQ(launch.category, PathCategory::Launch);
    EXPECT_EQ(launch.end - launch.start, 15'000);
}

} // namespace
} // namespace gapscope
