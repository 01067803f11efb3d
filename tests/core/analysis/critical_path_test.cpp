// SPDX-License-Identifier: MIT
// Critical path and what-if on hand-built traces whose answers are worked out in the comments.
#include "core/analysis/critical_path.h"
#include "core/analysis/critical_path_outline.h"
#include "core/analysis/what_if.h"
#include "tests/core/hand_trace.h"

#include <gtest/gtest.h>

#include <numeric>

namespace gapscope {
namespace {

using test::HandTrace;
using test::ms;
using test::us;

TimeNs category(const CriticalPath& path, PathCategory c)
{
    return path.byCategory[static_cast<std::size_t>(c)];
}

TimeNs categorySum(const CriticalPath& path)
{
    return std::accumulate(path.byCategory.begin(), path.byCategory.end(), TimeNs { 0 });
}

TimeNs onPath(const Trace& trace, const CriticalPath& path, std::string_view name)
{
    TimeNs total = 0;
    for (const NameOnPath& n : path.top)
        total += pathSegmentName(trace, n.name) == name ? n.onPathNs : 0;
    return total;
}

/// The seed's step (docs/definitions.md "Critical path"): 20 ms of data preparation on the main thread, then
/// two compute kernels on stream 7 (40 ms, 20 ms) and 30 ms of communication on stream 9, which waits on an
/// event recorded on stream 7 after the first kernel (`serial`: after both, so it waits for all 60 ms).
Trace seedStep(bool serial)
{
    HandTrace t;
    t.cpuOp(1, 0, 20'030, "ProfilerStep#1");
    t.cpuOp(1, 0, 20'000, "data");
    t.runtime(1, 20'000, 20'004, "cudaLaunchKernel", 1).kernel(7, 20'000, 60'000, "compute_first", 1);
    if (!serial)
        t.runtime(1, 20'004, 20'008, "cudaEventRecord", 2);
    t.runtime(1, 20'008, 20'012, "cudaLaunchKernel", 3).kernel(7, 60'000, 80'000, "compute_second", 3);
    if (serial)
        t.runtime(1, 20'012, 20'013, "cudaEventRecord", 2);
    t.runtime(1, 20'013, 20'016, "cudaStreamWaitEvent", 4);
    t.syncRecord(9, 20'014, 20'015, "Stream Wait Event", 4)
        .args(R"({"wait_on_stream": 7, "wait_on_cuda_event_record_corr_id": 2, "stream": 9, "correlation": 4})");
    const double commStart = serial ? 80'000 : 60'000;
    t.runtime(1, 20'016, 20'020, "cudaLaunchKernel", 5).kernel(9, commStart, commStart + 30'000, "ncclAllReduce", 5);
    return t.build();
}

PathWindow onlyStep(const Trace& trace)
{
    const auto windows = stepPathWindows(trace, "", 0);
    EXPECT_EQ(windows.size(), 1u);
    return windows.empty() ? PathWindow {} : windows.front();
}

TEST(CriticalPathTest, TheSeedStepIs90MsWithTheCommunicationOverlapped)
{
    const Trace trace = seedStep(false);
    const PathWindow window = onlyStep(trace);
    EXPECT_EQ(window.start, 0);
    EXPECT_EQ(window.end, ms(90));
    const CriticalPath path = criticalPath(trace, window);
    EXPECT_EQ(path.lengthNs, ms(90));
    // data 20 → first kernel 40 → (event) → communication 30; the second kernel runs beside the communication.
    EXPECT_EQ(category(path, PathCategory::Cpu), ms(20));
    EXPECT_EQ(category(path, PathCategory::Compute), ms(40));
    EXPECT_EQ(category(path, PathCategory::Communication), ms(30));
    EXPECT_EQ(categorySum(path), ms(90));
    EXPECT_EQ(onPath(trace, path, "data"), ms(20));
    EXPECT_EQ(onPath(trace, path, "compute_first"), ms(40));
    EXPECT_EQ(onPath(trace, path, "compute_second"), 0);
    ASSERT_EQ(path.segments.size(), 3u);
    EXPECT_EQ(path.segments[1].start, ms(20));
    EXPECT_EQ(path.segments[2].start, ms(60));
    EXPECT_EQ(path.segments[2].end, ms(90));
}

TEST(CriticalPathTest, TheOutlineOfTheSeedStepCrossesLanesOnlyWhereThePathDoes)
{
    // data on the main thread [0, 20) ms -> compute_first on stream 7 [20, 60) -> ncclAllReduce on stream 9
    // [60, 90): three lanes, two hand-overs, and nothing on compute_second (it runs beside the communication).
    const Trace trace = seedStep(false);
    const auto window = medianStepOrGpuWindow(trace, "", 0);
    ASSERT_TRUE(window);
    EXPECT_EQ(window->name, "ProfilerStep#1");
    const PathOutline outline = criticalPathOutline(trace, *window);
    ASSERT_EQ(outline.segments.size(), 3u);
    const char* const names[] = { "data", "compute_first", "ncclAllReduce" };
    const TimeNs bounds[][2] = { { 0, ms(20) }, { ms(20), ms(60) }, { ms(60), ms(90) } };
    for (std::size_t i = 0; i < 3; ++i) {
        const PathOutlineSegment& s = outline.segments[i];
        EXPECT_EQ(trace.strings().view(trace.event(s.event).name), names[i]);
        EXPECT_EQ(s.start, bounds[i][0]);
        EXPECT_EQ(s.end, bounds[i][1]);
    }
    EXPECT_EQ(outline.segments[1].category, PathCategory::Compute);
    EXPECT_EQ(outline.segments[2].category, PathCategory::Communication);
    ASSERT_EQ(outline.handOvers.size(), 2u);
    EXPECT_EQ(outline.handOvers[0].from, 0u);
    EXPECT_EQ(outline.handOvers[1].from, 1u);
    EXPECT_EQ(outline.handOvers[1].to, 2u);
    EXPECT_EQ(outline.path.lengthNs, ms(90));
}

TEST(CriticalPathTest, TheSerialSeedStepIs110Ms)
{
    const Trace trace = seedStep(true);
    const CriticalPath path = criticalPath(trace, onlyStep(trace));
    EXPECT_EQ(path.lengthNs, ms(110));
    EXPECT_EQ(category(path, PathCategory::Cpu), ms(20));
    EXPECT_EQ(category(path, PathCategory::Compute), ms(60));
    EXPECT_EQ(category(path, PathCategory::Communication), ms(30));
    EXPECT_EQ(categorySum(path), ms(110));
}

TEST(CriticalPathTest, TheHiddenKernelHasTenMsOfSlack)
{
    const Trace trace = seedStep(false);
    const CriticalPath path = criticalPath(trace, onlyStep(trace));
    // compute_second ends at 80 ms, the step at 90: it could take 10 ms longer before the step grows.
    const auto it = std::find_if(path.slack.begin(), path.slack.end(),
        [&](const OpSlack& s) { return trace.strings().view(s.name) == "compute_second"; });
    ASSERT_NE(it, path.slack.end());
    EXPECT_EQ(it->slackNs, ms(10));
    EXPECT_EQ(it->duration, ms(20));
    // Nothing on the path has slack.
    for (const OpSlack& s : path.slack) {
        EXPECT_NE(trace.strings().view(s.name), "compute_first");
        EXPECT_NE(trace.strings().view(s.name), "ncclAllReduce");
    }
}

TimeNs predicted(const Trace& trace, const std::vector<ScaleRule>& scales)
{
    const DependencyGraph graph = buildDependencyGraph(trace, onlyStep(trace));
    WhatIfChanges changes;
    changes.scales = scales;
    const auto outcome = whatIf(graph, changes, trace);
    EXPECT_TRUE(outcome.ok());
    if (!outcome)
        return -1;
    EXPECT_EQ(categorySum(outcome->predicted), outcome->predictedNs);
    return outcome->predictedNs;
}

TEST(WhatIfTest, ReproducesTheSeedsArithmetic)
{
    const Trace trace = seedStep(false);
    EXPECT_EQ(predicted(trace, {}), ms(90));
    // The hidden kernel (10 ms of slack) halved: nothing changes.
    EXPECT_EQ(predicted(trace, { { "compute_second", 0.5 } }), ms(90));
    // The first kernel halved: 20 + 20 + 30.
    EXPECT_EQ(predicted(trace, { { "compute_first", 0.5 } }), ms(70));
    // The communication halved: 15 ms shorter on its own, but the compute path (20 + 60) takes over at 80.
    EXPECT_EQ(predicted(trace, { { "nccl", 0.5 } }), ms(80));
    // Both compute kernels halved: data 20 + first 20, then max(second 10, communication 30).
    EXPECT_EQ(predicted(trace, { { "^compute_", 0.5 } }), ms(70));
    // Data preparation gone: 0 + 40 + 30.
    EXPECT_EQ(predicted(trace, { { "^data$", 0.0 } }), ms(70));
    // Several rules multiply.
    EXPECT_EQ(predicted(trace, { { "compute_first", 0.5 }, { "first", 0.5 } }), ms(60));
}

TEST(WhatIfTest, TheSerialSeedStepShortensByTheOverlap)
{
    const Trace trace = seedStep(true);
    EXPECT_EQ(predicted(trace, {}), ms(110));
    EXPECT_EQ(predicted(trace, { { "compute_second", 0.5 } }), ms(100));
    EXPECT_EQ(predicted(trace, { { "nccl", 0.5 } }), ms(95));
}

TEST(WhatIfTest, ParsesScaleRules)
{
    const auto rule = parseScaleRule("aten::(conv|mm)=0.25");
    ASSERT_TRUE(rule.ok());
    EXPECT_EQ(rule->pattern, "aten::(conv|mm)");
    EXPECT_DOUBLE_EQ(rule->factor, 0.25);
    EXPECT_TRUE(parseScaleRule("a=b=2").ok());
    EXPECT_EQ(parseScaleRule("a=b=2")->pattern, "a=b");
    EXPECT_FALSE(parseScaleRule("nccl").ok());
    EXPECT_FALSE(parseScaleRule("nccl=-1").ok());
    EXPECT_FALSE(parseScaleRule("nccl=x").ok());
    const Trace trace = seedStep(false);
    const DependencyGraph graph = buildDependencyGraph(trace, onlyStep(trace));
    WhatIfChanges bad;
    bad.scales = { { "(", 0.5 } };
    EXPECT_FALSE(whatIf(graph, bad, trace).ok());
}

/// A host sync: the thread launches a 1 ms kernel, waits for it in cudaDeviceSynchronize, then works 0.5 ms.
Trace hostSync()
{
    HandTrace t;
    t.runtime(1, 0, 5, "cudaLaunchKernel", 1).kernel(7, 10, 1'010, "gemm", 1);
    t.runtime(1, 6, 1'015, "cudaDeviceSynchronize", 2);
    t.cpuOp(1, 1'015, 1'515, "post");
    return t.build();
}

TEST(CriticalPathTest, AHostSyncMakesTheCpuWaitForTheKernel)
{
    const Trace trace = hostSync();
    const PathWindow window = explicitPathWindow(ProcessIndex { 0 }, 0, us(1'515));
    const DependencyGraph graph = buildDependencyGraph(trace, window);
    EXPECT_EQ(graph.hostWaits.size(), 1u);
    const CriticalPath path = criticalPath(trace, window);
    // launch 10 µs (call start to kernel start) + kernel 1000 + sync return 5 + post 500 = 1515.
    EXPECT_EQ(path.lengthNs, us(1'515));
    EXPECT_EQ(category(path, PathCategory::Launch), us(10));
    EXPECT_EQ(category(path, PathCategory::Compute), us(1'000));
    EXPECT_EQ(category(path, PathCategory::Sync), us(5));
    EXPECT_EQ(category(path, PathCategory::Cpu), us(500));
    EXPECT_EQ(categorySum(path), us(1'515));
}

TEST(WhatIfTest, DroppingTheHostSyncOrHalvingTheKernel)
{
    const Trace trace = hostSync();
    const DependencyGraph graph = buildDependencyGraph(trace, explicitPathWindow(ProcessIndex { 0 }, 0, us(1'515)));
    WhatIfChanges drop;
    drop.dropSyncs = { 0 };
    // Without the wait the call takes its own 5 µs (6 → 11) and post runs 11 → 511; the kernel still ends at 1010.
    const auto dropped = whatIf(graph, drop, trace);
    ASSERT_TRUE(dropped.ok());
    EXPECT_EQ(dropped->predictedNs, us(1'010));
    WhatIfChanges half;
    half.scales = { { "gemm", 0.5 } };
    // Kernel 10 → 510, the call returns at 515, post ends at 1015.
    const auto halved = whatIf(graph, half, trace);
    ASSERT_TRUE(halved.ok());
    EXPECT_EQ(halved->predictedNs, us(1'015));
    WhatIfChanges tooFar;
    tooFar.dropSyncs = { 1 };
    EXPECT_FALSE(whatIf(graph, tooFar, trace).ok());
}

/// A CUDA graph launch: one cudaGraphLaunch (correlation 1) whose three kernels run back to back.
Trace graphLaunch()
{
    HandTrace t;
    t.cpuOp(1, 0, 50, "prepare");
    t.runtime(1, 50, 60, "cudaGraphLaunch", 1);
    t.kernel(7, 70, 170, "graph_kernel_a", 1).kernel(7, 170, 270, "graph_kernel_b", 1);
    t.kernel(7, 270, 370, "graph_kernel_c", 1);
    return t.build();
}

TEST(CriticalPathTest, TheKernelsOfAGraphLaunchDependOnIt)
{
    const Trace trace = graphLaunch();
    const PathWindow window = explicitPathWindow(ProcessIndex { 0 }, 0, us(370));
    const DependencyGraph graph = buildDependencyGraph(trace, window);
    EXPECT_EQ(graph.edgeCounts[static_cast<std::size_t>(DependencyGraph::EdgeKind::Launch)], 3u);
    const CriticalPath path = criticalPath(trace, window);
    // prepare 50 → launch delay 20 (call start 50, first kernel 70) → three kernels of 100.
    EXPECT_EQ(category(path, PathCategory::Cpu), us(50));
    EXPECT_EQ(category(path, PathCategory::Launch), us(20));
    EXPECT_EQ(category(path, PathCategory::Compute), us(300));
    EXPECT_EQ(categorySum(path), us(370));
    // Without the host preparation every kernel of the graph moves 50 µs earlier.
    WhatIfChanges noPrep;
    noPrep.scales = { { "prepare", 0.0 } };
    EXPECT_EQ(whatIf(graph, noPrep, trace)->predictedNs, us(320));
    // Launch delays cut to 5 µs: the first kernel starts at 55.
    WhatIfChanges cap;
    cap.launchDelayCapNs = us(5);
    EXPECT_EQ(whatIf(graph, cap, trace)->predictedNs, us(355));
}

TEST(CriticalPathTest, AnIdleStartIsUnexplainedAndTheWindowTailToo)
{
    // One kernel with no launch call in the trace, in a window that starts 10 µs before it and ends 20 µs after.
    HandTrace t;
    t.kernel(7, 110, 200, "orphan");
    const Trace trace = t.build();
    const CriticalPath path = criticalPath(trace, explicitPathWindow(ProcessIndex { 0 }, us(100), us(220)));
    EXPECT_EQ(path.lengthNs, us(120));
    EXPECT_EQ(category(path, PathCategory::Unexplained), us(30));
    EXPECT_EQ(category(path, PathCategory::Compute), us(90));
}

TEST(CriticalPathTest, AWindowCutsTheOpsAtItsEdges)
{
    // The seed step seen through [30 ms, 70 ms): the first kernel from 30 to 60, the communication from 60 to 70.
    const Trace trace = seedStep(false);
    const CriticalPath path = criticalPath(trace, explicitPathWindow(ProcessIndex { 0 }, ms(30), ms(70)));
    EXPECT_EQ(path.lengthNs, ms(40));
    EXPECT_EQ(categorySum(path), ms(40));
    EXPECT_EQ(category(path, PathCategory::Compute) + category(path, PathCategory::Communication), ms(40));
}

TEST(CriticalPathTest, AWorkerThreadWokenByTheMainThreadFollowsIt)
{
    // The main thread prepares for 100 µs, then a second thread (as PyTorch's autograd thread) launches a kernel.
    HandTrace t;
    t.cpuOp(1, 0, 100, "forward");
    t.cpuOp(2, 105, 120, "backward_op");
    t.runtime(2, 110, 115, "cudaLaunchKernel", 1).kernel(7, 120, 220, "grad_kernel", 1);
    const Trace trace = t.build();
    const PathWindow window = explicitPathWindow(ProcessIndex { 0 }, 0, us(220));
    const CriticalPath path = criticalPath(trace, window);
    // forward 100 → wake 5 → backward_op 5 → launch 10 → kernel 100.
    EXPECT_EQ(path.lengthNs, us(220));
    EXPECT_EQ(category(path, PathCategory::Cpu), us(110));
    EXPECT_EQ(category(path, PathCategory::Launch), us(10));
    EXPECT_EQ(category(path, PathCategory::Compute), us(100));
    const DependencyGraph graph = buildDependencyGraph(trace, window);
    WhatIfChanges faster;
    faster.scales = { { "forward", 0.5 } };
    EXPECT_EQ(whatIf(graph, faster, trace)->predictedNs, us(170));
}

TEST(CriticalPathTest, AStreamWaitWithoutItsEventIsChargedToSync)
{
    // As nsys and the collector record it: a "Stream Wait Event" on stream 9 with no event named. The kernel it
    // held (launched at 9, started at 110 when the stream-7 kernel ended) waited 101 µs; the graph does not know
    // on what, so the delay stays as measured, charged to sync, and the wait is counted as unresolved.
    HandTrace t;
    t.runtime(1, 0, 5, "cudaLaunchKernel", 1).kernel(7, 10, 110, "producer", 1);
    t.runtime(1, 6, 8, "cudaStreamWaitEvent", 2).syncRecord(9, 7, 8, "Stream Wait Event", 2);
    t.runtime(1, 9, 12, "cudaLaunchKernel", 3).kernel(9, 110, 160, "consumer", 3);
    const Trace trace = t.build();
    const PathWindow window = explicitPathWindow(ProcessIndex { 0 }, 0, us(160));
    const DependencyGraph graph = buildDependencyGraph(trace, window);
    EXPECT_EQ(graph.eventWaitsUnresolved, 1u);
    EXPECT_EQ(graph.edgeCounts[static_cast<std::size_t>(DependencyGraph::EdgeKind::EventWait)], 0u);
    const CriticalPath path = criticalPath(trace, window);
    // 9 µs of host time before the launch call, 101 µs held, 50 µs of kernel.
    EXPECT_EQ(category(path, PathCategory::Sync), us(101));
    EXPECT_EQ(category(path, PathCategory::Compute), us(50));
    EXPECT_EQ(categorySum(path), us(160));
}

TEST(CriticalPathTest, GraphNodesStayCompact)
{
    const Trace trace = seedStep(false);
    const DependencyGraph graph = buildDependencyGraph(trace, onlyStep(trace));
    // Source, sink, two per CPU event (7) and per GPU op (3).
    EXPECT_EQ(graph.nodes.size(), 2u + 2 * 7 + 2 * 3);
    EXPECT_EQ(graph.order.size(), graph.nodes.size());
    EXPECT_EQ(graph.cycleEdgesDropped, 0u);
}

/// Steps ProfilerStep#1..#count, 100 µs apart, each 50 µs long with one 30 µs kernel.
Trace stepsOf(int count)
{
    HandTrace t;
    for (int s = 0; s < count; ++s) {
        const double at = 100.0 * s;
        t.cpuOp(1, at, at + 50, "ProfilerStep#" + std::to_string(s + 1));
        const auto corr = static_cast<std::uint32_t>(s + 1);
        t.runtime(1, at + 1, at + 5, "cudaLaunchKernel", corr).kernel(7, at + 10, at + 40, "k", corr);
    }
    return t.build();
}

std::vector<std::string> namesOf(const std::vector<PathWindow>& windows)
{
    std::vector<std::string> names;
    names.reserve(windows.size());
    for (const PathWindow& w : windows)
        names.push_back(w.name);
    return names;
}

TEST(CriticalPathTest, TheCountedStepsLeaveOutOneWarmUpStepUnlessTheTraceHasOnlyOne)
{
    // As the measured verdict (diff --note) leaves out at least one step: #1 is warm-up.
    const Trace three = stepsOf(3);
    const CountedStepWindows byDefault = countedStepWindows(three, "", std::nullopt);
    EXPECT_EQ(byDefault.warmupSteps, 1);
    EXPECT_EQ(namesOf(byDefault.windows), (std::vector<std::string> { "ProfilerStep#2", "ProfilerStep#3" }));
    const CountedStepWindows none = countedStepWindows(three, "", 0);
    EXPECT_EQ(none.warmupSteps, 0);
    EXPECT_EQ(none.windows.size(), 3u);
    // The median of #2 and #3 (both 50 µs, nearest rank): #2, not the warm-up #1.
    const auto median = medianStepOrGpuWindow(three, "", std::nullopt);
    ASSERT_TRUE(median);
    EXPECT_EQ(median->name, "ProfilerStep#2");

    // One step: the default would leave nothing to count, so it leaves none out; a warm-up asked for is kept.
    const Trace one = stepsOf(1);
    const CountedStepWindows single = countedStepWindows(one, "", std::nullopt);
    EXPECT_EQ(single.warmupSteps, 0);
    EXPECT_EQ(namesOf(single.windows), (std::vector<std::string> { "ProfilerStep#1" }));
    const CountedStepWindows asked = countedStepWindows(one, "", 1);
    EXPECT_EQ(asked.warmupSteps, 1);
    EXPECT_TRUE(asked.windows.empty());
}

} // namespace
} // namespace gapscope
