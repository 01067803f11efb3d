// SPDX-License-Identifier: MIT
#include "core/annotations/gap_explanation.h"
#include "core/model/trace_builder.h"
#include "tests/make_event.h"

#include <gtest/gtest.h>

#include <optional>

#include <functional>

namespace gapscope {
namespace {

/// One process (pid 100), one host thread (tid 101), one GPU (device 0) with one stream (7).
struct OneStreamTrace {
    TraceBuilder trace;
    ProcessIndex process;
    LaneIndex thread;
    LaneIndex stream;

    OneStreamTrace()
    {
        process = trace.addProcess({ .pid = 100, .name = "train" });
        thread = trace.threadLane(process, 101);
        stream = trace.streamLane(trace.device(process, 0), 7);
    }
    void host(EventKind kind, const char* name, TimeNs start, TimeNs end, std::uint32_t correlation = 0)
    {
        add(thread, kind, name, start, end, correlation);
    }
    void launch(TimeNs start, TimeNs end, std::uint32_t correlation)
    {
        add(thread, EventKind::RuntimeApi, "cudaLaunchKernel", start, end, correlation);
    }
    void kernel(const char* name, TimeNs start, TimeNs end, std::uint32_t correlation = 0)
    {
        add(stream, EventKind::Kernel, name, start, end, correlation);
    }

private:
    void add(LaneIndex lane, EventKind kind, const char* name, TimeNs start, TimeNs end, std::uint32_t correlation)
    {
        trace.lanes()[lane.value].events.push_back(test::makeEvent(trace, kind, name, start, end, correlation));
    }
};

struct ExplainCase {
    const char* name;
    std::function<void(OneStreamTrace&)> build;
    /// The device gap to explain, by its start.
    TimeNs gapStart;
    TimeNs gapEnd;
    GapCause cause;
    /// The annotation's range (the gap, or the launch-bound stretch).
    TimeNs start;
    TimeNs end;
    /// Text each field must contain: the real names and durations of the evidence.
    std::vector<std::string> title, problem, baseline, hypothesis, change;
    /// Whether the launching thread is among the note's lanes (not when there is no launch).
    bool threadLane = true;
};

// Host: the thread is in `DataLoader.__next__` for 10 µs of a 10.4 µs gap, then launches `relu_b`.
// gpu window [1000, 13000) = 12 µs; the gap [2000, 12400) is 10400 / 12000 = 86.7 % of it.
// Step ProfilerStep#1 spans [0, 13500): p50 13.5 µs over 1 step.
void buildHost(OneStreamTrace& b)
{
    b.host(EventKind::CpuOp, "ProfilerStep#1", 0, 13500);
    b.launch(100, 200, 1);
    b.kernel("gemm_a", 1000, 2000, 1);
    b.host(EventKind::CpuOp, "DataLoader.__next__", 2100, 12100);
    b.launch(12200, 12300, 2);
    b.kernel("relu_b", 12400, 13000, 2);
}

// Sync: cudaDeviceSynchronize [300, 50100) is running when the GPU goes idle at 50000; the next kernel
// starts at 61000. Gap 11 µs of a [1000, 62000) = 61 µs window: 18.0 %.
void buildSync(OneStreamTrace& b)
{
    b.launch(100, 200, 1);
    b.host(EventKind::RuntimeApi, "cudaDeviceSynchronize", 300, 50100);
    b.kernel("conv_fwd", 1000, 50000, 1);
    b.launch(60000, 60100, 2);
    b.kernel("loss_bwd", 61000, 62000, 2);
}

// Launch: four 2 µs kernels, each launched by a 5 µs call issued back to back, leave three 3 µs gaps
// [6000, 9000), [11000, 14000), [16000, 19000); then a host gap [21000, 46000) ends the run.
// gpu window [4000, 48000) = 44 µs; launch idle 9 µs = 20.5 % of it.
void buildLaunch(OneStreamTrace& b)
{
    for (std::uint32_t i = 0; i < 4; ++i) {
        const TimeNs t = static_cast<TimeNs>(i) * 5000;
        b.launch(t, t + 5000, i + 1);
        b.kernel("elementwise_add", t + 4000, t + 6000, i + 1);
    }
    b.launch(40000, 45000, 5);
    b.kernel("elementwise_add", 46000, 48000, 5);
}

// Dependency: `matmul_c` is launched at 500, right after a cudaStreamWaitEvent at 300, and runs only at
// 100000: a 98 µs gap whose launch came 1.5 µs before it began.
void buildWaitEvent(OneStreamTrace& b)
{
    b.launch(100, 200, 1);
    b.kernel("matmul_b", 1000, 2000, 1);
    b.host(EventKind::RuntimeApi, "cudaStreamWaitEvent", 300, 400);
    b.launch(500, 600, 2);
    b.kernel("matmul_c", 100000, 101000, 2);
}

// Dependency on a collective: the all-reduce is launched at 500 and starts at 52000.
void buildCollective(OneStreamTrace& b)
{
    b.launch(100, 200, 1);
    b.kernel("matmul_b", 1000, 2000, 1);
    b.launch(500, 600, 2);
    b.kernel("ncclKernel_AllReduce_RING_LL_Sum_float", 52000, 60000, 2);
}

// Unknown: kernels without correlation ids (an import without API events).
void buildUnknown(OneStreamTrace& b)
{
    b.kernel("volta_sgemm_128x64_nn", 1000, 2000);
    b.kernel("volta_sgemm_128x64_tn", 5000, 6000);
}

const ExplainCase kCases[] = {
    { "Host", buildHost, 2000, 12400, GapCause::Host, 2000, 12400,
        { "Host-bound gap of 10.40 µs: `DataLoader.__next__`" },
        { "The GPU waited 10.40 µs while the launching thread (thread 101) was in `DataLoader.__next__`",
            "The next GPU op, `relu_b`, was launched by `cudaLaunchKernel` only 10.20 µs after the gap began" },
        { "Gap of 10.40 µs on GPU 0", "starting +2.000 µs from the trace start", "86.7 % of the gpu window (12.00 µs)",
            "GPU utilization over the window: 13.3 %", "Step time p50 13.50 µs over 1 step." },
        { "CPU-side `DataLoader.__next__` starves the GPU" },
        { "Overlap `DataLoader.__next__` with GPU work (more data-loader workers, prefetching, pinned memory",
            "compare the step time" } },
    { "Sync", buildSync, 50000, 61000, GapCause::Sync, 50000, 61000,
        { "Sync gap of 11.00 µs: `cudaDeviceSynchronize`" },
        { "The GPU sat idle for 11.00 µs after a blocking `cudaDeviceSynchronize` on thread 101 (begun 49.70 µs "
          "before the gap, lasting 49.80 µs)" },
        { "Gap of 11.00 µs on GPU 0", "starting +49.90 µs from the trace start",
            "18.0 % of the gpu window (61.00 µs)" },
        { "A blocking `cudaDeviceSynchronize` drains the queue" },
        { "Remove or defer the `cudaDeviceSynchronize`", "compare the step time" } },
    { "Launch", buildLaunch, 11000, 14000, GapCause::Launch, 6000, 19000,
        { "Launch-bound stretch: 4 kernels shorter than their launch" },
        { "3 consecutive gaps of at most 30.00 µs (9.000 µs idle in all, over 13.00 µs) separate 4 kernels; 4 "
          "kernels are shorter than their launch cost (kernel p50 2.000 µs, launch call p50 5.000 µs)" },
        { "9.000 µs of launch gaps over 13.00 µs on GPU 0", "20.5 % of the gpu window (44.00 µs)" },
        { "4 kernels shorter than their launch cost" },
        { "CUDA graph", "fuse the small kernels",
            "The most it can win here is the launch idle time, 9.000 µs (69.2 % of the stretch)" } },
    { "DependencyOnEvent", buildWaitEvent, 2000, 100000, GapCause::Dependency, 2000, 100000,
        { "Dependency wait of 98.00 µs before `matmul_c`" },
        { "`matmul_c` was launched by `cudaLaunchKernel` 1.500 µs before the gap began, yet started only when the "
          "gap ended",
            "waited on the event of `cudaStreamWaitEvent` (issued 200 ns before the launch)" },
        { "Gap of 98.00 µs on GPU 0" }, { "The op waited on the event of `cudaStreamWaitEvent`" },
        { "find the producer that records that event" } },
    { "DependencyOnCollective", buildCollective, 2000, 52000, GapCause::Dependency, 2000, 52000,
        { "Dependency wait of 50.00 µs before `ncclKernel_AllReduce_RING_LL_Sum_float`" },
        { "waited on the collective `ncclKernel_AllReduce_RING_LL_Sum_float`, which starts only when every rank "
          "has joined" },
        { "Gap of 50.00 µs on GPU 0" }, { "a slow producer or a late peer" }, { "rank skew" } },
    { "Unknown", buildUnknown, 2000, 5000, GapCause::Unknown, 2000, 5000, { "Unexplained gap of 3.000 µs" },
        { "The GPU was idle 3.000 µs before `volta_sgemm_128x64_tn`", "no launch information" },
        { "Gap of 3.000 µs on GPU 0", "60.0 % of the gpu window (5.000 µs)" }, { "Unknown until the launching side" },
        { "ProfilerActivity.CPU", "GapScope capture" }, false },
};

void expectContains(const std::string& field, const std::vector<std::string>& parts, const char* what)
{
    for (const std::string& part : parts)
        EXPECT_NE(field.find(part), std::string::npos) << what << " lacks \"" << part << "\":\n" << field;
}

class GapExplanationTest : public ::testing::TestWithParam<ExplainCase> { };

TEST_P(GapExplanationTest, PrefillsTheRecordFromTheEvidence)
{
    const ExplainCase& c = GetParam();
    OneStreamTrace b;
    c.build(b);
    const Trace trace = std::move(b.trace).finish();
    const AnalysisResult result = analyze(trace, {});
    std::optional<Gap> gap;
    for (const Gap& g : result.gaps) {
        if (!g.stream && g.start == c.gapStart)
            gap = g;
    }
    ASSERT_TRUE(gap.has_value()) << "no device gap at " << c.gapStart;
    ASSERT_EQ(gap->end, c.gapEnd);
    ASSERT_EQ(gap->cause, c.cause) << gapCauseName(gap->cause) << ": " << describeGap(trace, *gap);

    const Annotation a = explainGap(trace, result, *gap);
    EXPECT_EQ(a.start, c.start);
    EXPECT_EQ(a.end, c.end);
    EXPECT_EQ(a.status, AnnotationStatus::Open);
    EXPECT_EQ(a.colour, "#e69f00");
    EXPECT_TRUE(a.id.empty()); // the store gives it one
    ASSERT_TRUE(a.gap.has_value());
    EXPECT_EQ(*a.gap, (GapOrigin { 100, 0, std::nullopt, c.gapStart, c.gapEnd, std::string(gapCauseName(c.cause)) }));
    ASSERT_FALSE(a.lanes.empty());
    EXPECT_EQ(a.lanes[0], LaneIdentity::gpuStream(100, 0, 7));
    const bool hasThread = std::find(a.lanes.begin(), a.lanes.end(), LaneIdentity::thread(100, 101)) != a.lanes.end();
    EXPECT_EQ(hasThread, c.threadLane);

    expectContains(a.title, c.title, "title");
    expectContains(a.record.problem, c.problem, "problem");
    expectContains(a.record.baseline, c.baseline, "baseline");
    expectContains(a.record.hypothesis, c.hypothesis, "hypothesis");
    expectContains(a.record.change, c.change, "change");
    EXPECT_FALSE(a.record.correctnessCheck.empty());
    // What the experiment showed is for the user to write.
    EXPECT_TRUE(a.record.performanceChange.empty());
    EXPECT_TRUE(a.record.sideEffects.empty());
    // The analysis's own one-line evidence is quoted too.
    EXPECT_NE(a.record.problem.find("Evidence: " + describeGap(trace, *gap)), std::string::npos) << a.record.problem;
}

INSTANTIATE_TEST_SUITE_P(Causes, GapExplanationTest, ::testing::ValuesIn(kCases),
    [](const ::testing::TestParamInfo<ExplainCase>& info) { return std::string(info.param.name); });

TEST(GapExplanation, AStreamGapNamesItsStreamAndTheBusyOnes)
{
    // Stream 7 waits [2000, 40000) on stream 9, which runs [3000, 39000): a stream gap, not a device gap.
    OneStreamTrace b;
    const LaneIndex other = b.trace.streamLane(DeviceIndex { 0 }, 9);
    b.launch(100, 200, 1);
    b.kernel("producer_prep", 1000, 2000, 1);
    b.launch(300, 400, 2);
    b.launch(500, 600, 3);
    b.kernel("consumer", 40000, 41000, 3);
    Event producer;
    producer.kind = EventKind::Kernel;
    producer.name = b.trace.strings().intern("producer");
    producer.start = 3000;
    producer.end = 39000;
    producer.correlation = 2;
    b.trace.lanes()[other.value].events.push_back(producer);
    const Trace trace = std::move(b.trace).finish();
    const AnalysisResult result = analyze(trace, {});
    std::optional<Gap> gap;
    for (const Gap& g : result.gaps) {
        if (g.stream == std::optional<LaneIndex>(b.stream) && g.start == 2000)
            gap = g;
    }
    ASSERT_TRUE(gap.has_value());
    ASSERT_EQ(gap->cause, GapCause::Dependency);
    const Annotation a = explainGap(trace, result, *gap);
    ASSERT_TRUE(a.gap.has_value());
    EXPECT_EQ(a.gap->stream, std::optional<std::int64_t>(7));
    EXPECT_EQ(a.lanes.at(0), LaneIdentity::gpuStream(100, 0, 7));
    EXPECT_NE(a.record.problem.find("work on stream(s) 9 of the same GPU, busy during the gap"), std::string::npos)
        << a.record.problem;
    EXPECT_NE(a.record.baseline.find("Gap of 38.00 µs on GPU 0 stream 7"), std::string::npos) << a.record.baseline;
}

TEST(GapExplanation, WhatToTryGivesOneNextStepPerCause)
{
    // The viewer's gap details show these; each names the experiment its cause suggests.
    EXPECT_NE(whatToTry(GapCause::Sync).find("Try removing the synchronization"), std::string_view::npos);
    EXPECT_NE(whatToTry(GapCause::Host).find("Try more data-loader workers"), std::string_view::npos);
    EXPECT_NE(whatToTry(GapCause::Launch).find("Try CUDA graphs or kernel fusion."), std::string_view::npos);
    EXPECT_NE(whatToTry(GapCause::Dependency).find("it waited on something else"), std::string_view::npos);
    EXPECT_NE(whatToTry(GapCause::Unknown).find("no cause can be suggested"), std::string_view::npos);
}

} // namespace
} // namespace gapscope
