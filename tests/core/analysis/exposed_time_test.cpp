// SPDX-License-Identifier: MIT
#include "core/analysis/analysis.h"
#include "tests/core/hand_trace.h"

#include <gtest/gtest.h>

namespace gapscope {
namespace {

using test::findEvent;
using test::HandTrace;
using test::ms;
using test::us;

TimeNs sum(const ExposedTime& e)
{
    return e.compute + e.communication + e.memcpy + e.idle;
}

// docs/definitions.md: a step with 20 ms data prep, 60 ms GPU compute and 30 ms communication, 20 ms of which
// overlaps the compute. Serially that is 110 ms; overlapped, the step is 90 ms and only 10 ms of
// communication is exposed. The CPU range ProfilerStep#1 [0, 21 ms) holds the data prep [0, 20 ms) and
// both launches; its GPU ops end at 90 ms, so the step (and the `steps` window) is [0, 90 ms).
Trace designExampleStep()
{
    return HandTrace()
        .cpuOp(1, 0, 21'000, "ProfilerStep#1")
        .cpuOp(1, 0, 20'000, "data_prep")
        .runtime(1, 20'000, 20'010, "cudaLaunchKernel", 1)
        .runtime(1, 20'010, 20'020, "cudaLaunchKernel", 2)
        .kernel(7, 20'000, 80'000, "volta_sgemm_128x64_nn", 1)
        .kernel(8, 60'000, 90'000, "ncclKernel_AllReduce_RING_LL_Sum_float", 2)
        .build();
}

TEST(ExposedTimeTest, DesignExampleChargesOnlyTheUnoverlappedCommunication)
{
    const Trace trace = designExampleStep();
    const TimeNs serial = ms(20) + ms(60) + ms(30);
    EXPECT_EQ(serial, ms(110));

    AnalysisOptions options;
    options.window.kind = WindowKind::Steps;
    const AnalysisResult result = analyze(trace, options);
    ASSERT_EQ(result.steps.size(), 1u);
    EXPECT_EQ(result.steps[0].start, 0);
    EXPECT_EQ(result.steps[0].end, ms(90));
    ASSERT_EQ(result.devices.size(), 1u);
    const DeviceFigures& d = result.devices[0];
    EXPECT_EQ(d.spanNs, ms(90));
    EXPECT_EQ(d.exposed.compute, ms(60));
    EXPECT_EQ(d.exposed.communication, ms(10));
    EXPECT_EQ(d.exposed.memcpy, 0);
    EXPECT_EQ(d.exposed.idle, ms(20));
    EXPECT_EQ(sum(d.exposed), d.spanNs);
    EXPECT_EQ(d.busyNs, ms(70));
    EXPECT_DOUBLE_EQ(d.utilization, 70.0 / 90.0);
    // The 20 ms before the first kernel: the host was preparing data when it should have been launching.
    ASSERT_EQ(d.gapCount, 1u);
    const Gap& gap = result.gaps[0];
    EXPECT_EQ(gap.start, 0);
    EXPECT_EQ(gap.end, ms(20));
    EXPECT_EQ(gap.cause, GapCause::Host);
    EXPECT_EQ(gapEvidence(trace, gap).hostRange, findEvent(trace, "data_prep"));
}

struct ExposedCase {
    const char* name;
    TimeNs windowStart;
    TimeNs windowEnd;
    ExposedTime expected;
};

class ExposedPriorityTest : public testing::TestWithParam<ExposedCase> { };

// Compute kernel [0, 10), nccl kernel [5, 20), memcpy [15, 30), memset [25, 28) (memsets count as
// compute), each on its own stream.
TEST_P(ExposedPriorityTest, ChargesEachInstantToTheHighestActiveCategory)
{
    const Trace trace = HandTrace()
                            .kernel(1, 0, 10, "gemm")
                            .kernel(2, 5, 20, "ncclDevKernel_AllReduce")
                            .memcpy(3, 15, 30)
                            .memset(4, 25, 28)
                            .build();
    const ExposedCase& c = GetParam();
    Window window;
    window.kind = WindowKind::Explicit;
    window.ranges = IntervalSet::unionOf({ { c.windowStart, c.windowEnd } });
    const ExposedTime e = exposedTime(trace, DeviceIndex { 0 }, window);
    EXPECT_EQ(e.compute, c.expected.compute);
    EXPECT_EQ(e.communication, c.expected.communication);
    EXPECT_EQ(e.memcpy, c.expected.memcpy);
    EXPECT_EQ(e.idle, c.expected.idle);
    EXPECT_EQ(sum(e), window.length());
}

INSTANTIATE_TEST_SUITE_P(Windows, ExposedPriorityTest,
    testing::Values(
        // compute [0,10)+[25,28) = 13; compute∪comm = [0,20)+[25,28) = 23: comm 10; all = [0,30): memcpy 7.
        ExposedCase { "whole", us(0), us(40), { us(13), us(10), us(7), us(10) } },
        // [5, 26): compute [5,10)+[25,26) = 6; +comm [5,20)+[25,26) = 16: 10; all [5,26) = 21: memcpy 5.
        ExposedCase { "clipped", us(5), us(26), { us(6), us(10), us(5), 0 } },
        // Only the memcpy's own time [20, 25) is exposed there.
        ExposedCase { "memcpyOnly", us(20), us(25), { 0, 0, us(5), 0 } }),
    [](const auto& info) { return std::string(info.param.name); });

TEST(ExposedTimeTest, StepsWindowWithAPauseBetweenStepsSumsToItsLength)
{
    // Two steps with a CPU-only stretch between them: the window is one range, [0, 60), pause included.
    Trace trace = HandTrace()
                      .cpuOp(1, 0, 10, "ProfilerStep#1")
                      .cpuOp(1, 50, 60, "ProfilerStep#2")
                      .kernel(7, 2, 8, "k")
                      .kernel(7, 30, 40, "inPause")
                      .kernel(7, 55, 65, "k")
                      .build();
    AnalysisOptions options;
    options.window.kind = WindowKind::Steps;
    const AnalysisResult result = analyze(trace, options);
    ASSERT_EQ(result.devices.size(), 1u);
    const DeviceFigures& d = result.devices[0];
    EXPECT_EQ(d.window.ranges.intervals(), (std::vector<Interval> { { 0, us(60) } }));
    EXPECT_EQ(d.spanNs, us(60));
    // [2,8) + [30,40) + [55,60) clipped.
    EXPECT_EQ(d.busyNs, us(6) + us(10) + us(5));
    EXPECT_EQ(d.exposed.compute, us(21));
    EXPECT_EQ(sum(d.exposed), us(60));
    // Gaps: [0,2), [8,30), [40,55).
    ASSERT_EQ(d.gapCount, 3u);
    EXPECT_EQ(result.gaps[1].start, us(8));
    EXPECT_EQ(result.gaps[1].end, us(30));
    EXPECT_EQ(result.gaps[2].start, us(40));
    EXPECT_EQ(result.gaps[2].end, us(55));
}

} // namespace
} // namespace gapscope
