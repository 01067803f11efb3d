// SPDX-License-Identifier: MIT
// The values of each kind of metric, on hand-built traces whose answers are worked out in the comments.

#include "core/experiment/metric_samples.h"

#include "tests/core/hand_trace.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace gapscope {
namespace {

using test::HandTrace;
using test::us;

std::vector<TimeNs> sorted(std::vector<TimeNs> values)
{
    std::sort(values.begin(), values.end());
    return values;
}

MetricSamples samplesOf(const Trace& trace, const std::string& argument, const AnalysisOptions& options = {})
{
    const auto spec = parseMetricArgument(argument);
    EXPECT_TRUE(spec.ok()) << spec.error().message;
    return metricSamples(trace, analyze(trace, options), *spec);
}

// A server without GPU work, two threads (times in µs):
//   thread 1: serve [0, 100) around prefill [0, 30), decode [30, 40), decode [40, 50), prefill [50, 60),
//             decode [60, 70), decode [70, 80)
//   thread 2: decode [10, 15), decode [35, 45)
// No GPU activity: the `gpu` window is empty, so the values come from the trace window [0, 100).
Trace serverTrace()
{
    return HandTrace()
        .nvtx(1, 0, 100, "serve")
        .nvtx(1, 0, 30, "prefill")
        .nvtx(1, 30, 40, "decode")
        .nvtx(1, 40, 50, "decode")
        .nvtx(1, 50, 60, "prefill")
        .nvtx(1, 60, 70, "decode")
        .nvtx(1, 70, 80, "decode")
        .nvtx(2, 10, 15, "decode")
        .nvtx(2, 35, 45, "decode")
        .build();
}

TEST(MetricSamples, RangeIsTheDurationOfEveryMatch)
{
    const MetricSamples s = samplesOf(serverTrace(), "d=range:^decode$");
    EXPECT_EQ(sorted(s.values), (std::vector<TimeNs> { us(5), us(10), us(10), us(10), us(10), us(10) }));
    EXPECT_EQ(s.window, WindowKind::Trace);
}

// Thread 1's decodes start at 30, 40, 60, 70: intervals 10, 20, 10; thread 2's at 10 and 35: 25. No interval
// spans the two threads.
TEST(MetricSamples, IntervalIsFromOneStartToTheNextOnTheSameThread)
{
    const MetricSamples s = samplesOf(serverTrace(), "itl=interval:^decode$");
    EXPECT_EQ(sorted(s.values), (std::vector<TimeNs> { us(10), us(10), us(20), us(25) }));
}

// From the window start (0) to the end of the first match: the first prefill ends at 30; the first decode to
// end is thread 2's, at 15.
TEST(MetricSamples, FirstIsFromTheWindowStartToTheEndOfTheFirstMatch)
{
    EXPECT_EQ(samplesOf(serverTrace(), "ttft=first:prefill").values, (std::vector<TimeNs> { us(30) }));
    EXPECT_EQ(samplesOf(serverTrace(), "t=first:decode").values, (std::vector<TimeNs> { us(15) }));
    EXPECT_TRUE(samplesOf(serverTrace(), "t=first:nothing").values.empty());
}

// Two steps, each launching kernels (µs):
//   ProfilerStep#1 [0, 50):  launch [2, 4) -> gemm [10, 20); launch [5, 6) -> relu [20, 25)
//   ProfilerStep#2 [50, 100): launch [52, 54) -> gemm [60, 80); launch [90, 91) -> gemm [95, 110)
// Step 2 ends with the last GPU op it launched: [50, 110); step 1 is [0, 50). gpu:gemm sums per step 10 and
// 20 + 15 = 35; gpu:relu 5 and 0. The `gpu` window is [10, 110): ProfilerStep#1 starts before it and still counts
// as a range (it overlaps the window).
Trace stepTrace()
{
    return HandTrace()
        .cpuOp(1, 0, 50, "ProfilerStep#1")
        .runtime(1, 2, 4, "cudaLaunchKernel", 1)
        .runtime(1, 5, 6, "cudaLaunchKernel", 2)
        .cpuOp(1, 50, 100, "ProfilerStep#2")
        .runtime(1, 52, 54, "cudaLaunchKernel", 3)
        .runtime(1, 90, 91, "cudaLaunchKernel", 4)
        .kernel(7, 10, 20, "gemm", 1)
        .kernel(7, 20, 25, "relu", 2)
        .kernel(7, 60, 80, "gemm", 3)
        .kernel(7, 95, 110, "gemm", 4)
        .build();
}

TEST(MetricSamples, GpuIsTheKernelTimeOfEachCountedStep)
{
    const Trace trace = stepTrace();
    EXPECT_EQ(samplesOf(trace, "g=gpu:gemm").values, (std::vector<TimeNs> { us(10), us(35) }));
    EXPECT_EQ(samplesOf(trace, "r=gpu:relu").values, (std::vector<TimeNs> { us(5), 0 }));
    EXPECT_EQ(samplesOf(trace, "s=step").values, (std::vector<TimeNs> { us(50), us(60) }));
    AnalysisOptions warmup;
    warmup.window.warmupSteps = 1;
    EXPECT_EQ(samplesOf(trace, "g=gpu:gemm", warmup).values, (std::vector<TimeNs> { us(35) }));
}

TEST(MetricSamples, RangesOverlappingTheGpuWindowCountWhole)
{
    const MetricSamples s = samplesOf(stepTrace(), "p=range:ProfilerStep");
    EXPECT_EQ(s.values, (std::vector<TimeNs> { us(50), us(50) }));
    EXPECT_EQ(s.window, WindowKind::Gpu);
    // The CUDA calls are not ranges.
    EXPECT_TRUE(samplesOf(stepTrace(), "l=range:cudaLaunch").values.empty());
}

struct SpecCase {
    const char* argument;
    const char* error; // nullptr: valid
    MetricKind kind;
    const char* spec;
};

class MetricArgumentTest : public ::testing::TestWithParam<SpecCase> { };

TEST_P(MetricArgumentTest, ParsesNameAndSpec)
{
    const SpecCase& c = GetParam();
    const auto parsed = parseMetricArgument(c.argument);
    if (c.error) {
        ASSERT_FALSE(parsed.ok());
        EXPECT_NE(parsed.error().message.find(c.error), std::string::npos) << parsed.error().message;
        return;
    }
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    EXPECT_EQ(parsed->kind, c.kind);
    EXPECT_EQ(parsed->specText(), c.spec);
}

INSTANTIATE_TEST_SUITE_P(Arguments, MetricArgumentTest,
    ::testing::Values(SpecCase { "itl=interval:^decode", nullptr, MetricKind::Interval, "interval:^decode" },
        SpecCase { "ttft=first:first token", nullptr, MetricKind::First, "first:first token" },
        SpecCase { "steps=range:ProfilerStep#\\d+", nullptr, MetricKind::Range, "range:ProfilerStep#\\d+" },
        SpecCase { "gemm=gpu:gemm|sgemm", nullptr, MetricKind::Gpu, "gpu:gemm|sgemm" },
        SpecCase { "s=step", nullptr, MetricKind::Step, "step" }, SpecCase { "itl", "NAME=SPEC", MetricKind::Step, "" },
        SpecCase { "=range:x", "NAME=SPEC", MetricKind::Step, "" },
        SpecCase { "a b=range:x", "only letters", MetricKind::Step, "" },
        SpecCase { "x=ranges:x", "unknown spec", MetricKind::Step, "" },
        SpecCase { "x=range:", "needs a regular expression", MetricKind::Step, "" },
        SpecCase { "x=range:(", "invalid regular expression", MetricKind::Step, "" },
        SpecCase { "step=range:x", "the name 'step'", MetricKind::Step, "" }));

} // namespace
} // namespace gapscope
