// SPDX-License-Identifier: MIT
// Steps by the TensorBoard plugin's rule (see core/analysis/steps.cpp), on hand-built timelines.
#include "core/analysis/analysis.h"
#include "tests/core/hand_trace.h"

#include <gtest/gtest.h>

#include <functional>

namespace gapscope {
namespace {

using test::HandTrace;
using test::us;

struct StepCase {
    const char* name;
    std::function<Trace()> build;
    std::vector<Interval> expected; // µs
};

class StepRuleTest : public testing::TestWithParam<StepCase> { };

TEST_P(StepRuleTest, FindsTheStepsThePluginWould)
{
    const Trace trace = GetParam().build();
    const std::vector<Step> steps = findSteps(trace, {}, 0);
    std::vector<Interval> got;
    for (const Step& s : steps)
        got.push_back({ s.start, s.end });
    std::vector<Interval> expected;
    for (const Interval& i : GetParam().expected)
        expected.push_back({ us(static_cast<double>(i.start)), us(static_cast<double>(i.end)) });
    EXPECT_EQ(got, expected);
}

HandTrace& launches(HandTrace& b, std::uint32_t correlation, double launchAt, double kernelStart, double kernelEnd)
{
    return b.runtime(1, launchAt, launchAt + 2, "cudaLaunchKernel", correlation)
        .kernel(7, kernelStart, kernelEnd, "k", correlation);
}

INSTANTIATE_TEST_SUITE_P(Rules, StepRuleTest,
    testing::Values(
        // The GPU lags the CPU: each step ends with the last op it launched and the next one starts there.
        // Step 4 launched nothing and is the last: dropped.
        StepCase { "gpuLagExtendsSteps",
            [] {
                HandTrace b;
                b.cpuOp(1, 0, 100, "ProfilerStep#1")
                    .cpuOp(1, 100, 200, "ProfilerStep#2")
                    .cpuOp(1, 200, 300, "ProfilerStep#3")
                    .cpuOp(1, 300, 400, "ProfilerStep#4");
                launches(b, 1, 10, 50, 150);
                launches(b, 2, 110, 150, 260);
                launches(b, 3, 210, 260, 280);
                return b.build();
            },
            { { 0, 150 }, { 150, 260 }, { 260, 300 } } },
        // A launch call [95, 105) straddles the step boundary: its op [150, 400) belongs to no step.
        StepCase { "straddlingLaunchCountsForNoStep",
            [] {
                HandTrace b;
                b.cpuOp(1, 0, 100, "ProfilerStep#1").cpuOp(1, 100, 200, "ProfilerStep#2");
                b.runtime(1, 95, 105, "cudaLaunchKernel", 1).kernel(8, 150, 400, "straddler", 1);
                launches(b, 2, 20, 30, 60);
                launches(b, 3, 120, 130, 170);
                return b.build();
            },
            { { 0, 100 }, { 100, 200 } } },
        // An op launched before the first step ends at 130, before step 1's first op (140): step 1 starts
        // there instead of at its CPU start 100.
        StepCase { "opBeforeFirstStepMovesItsStart",
            [] {
                HandTrace b;
                b.cpuOp(1, 100, 200, "ProfilerStep#1").cpuOp(1, 200, 300, "ProfilerStep#2");
                launches(b, 1, 10, 20, 130);
                launches(b, 2, 110, 140, 190);
                launches(b, 3, 210, 220, 280);
                return b.build();
            },
            { { 130, 200 }, { 200, 300 } } },
        // Step 2 launched 3 ops against step 1's 5: fewer than 80 %, so the profiler probably missed some
        // of its work and it is dropped.
        StepCase { "lastStepWithTooFewOpsIsDropped",
            [] {
                HandTrace b;
                b.cpuOp(1, 0, 100, "ProfilerStep#1").cpuOp(1, 100, 200, "ProfilerStep#2");
                for (std::uint32_t i = 0; i < 5; ++i)
                    launches(b, 1 + i, 10 + 10 * i, 20 + 10 * i, 25 + 10 * i);
                for (std::uint32_t i = 0; i < 3; ++i)
                    launches(b, 10 + i, 110 + 10 * i, 120 + 10 * i, 125 + 10 * i);
                return b.build();
            },
            { { 0, 100 } } },
        // No step launched anything: the steps are the CPU ranges as they are, none dropped.
        StepCase { "withoutGpuTheCpuRangesStand",
            [] { return HandTrace().cpuOp(1, 0, 100, "ProfilerStep#1").cpuOp(1, 150, 250, "ProfilerStep#2").build(); },
            { { 0, 100 }, { 150, 250 } } }),
    [](const auto& info) { return std::string(info.param.name); });

TEST(StepsTest, WarmupStepsAreFlaggedAndLeftOutOfTheStepsWindow)
{
    HandTrace b;
    b.cpuOp(1, 0, 100, "ProfilerStep#1").cpuOp(1, 100, 200, "ProfilerStep#2").cpuOp(1, 200, 300, "ProfilerStep#3");
    launches(b, 1, 10, 20, 90);
    launches(b, 2, 110, 120, 180);
    launches(b, 3, 210, 220, 250);
    const Trace trace = b.build();
    AnalysisOptions options;
    options.window.kind = WindowKind::Steps;
    options.window.warmupSteps = 1;
    const AnalysisResult result = analyze(trace, options);
    ASSERT_EQ(result.steps.size(), 3u);
    EXPECT_TRUE(result.steps[0].warmup);
    EXPECT_FALSE(result.steps[1].warmup);
    EXPECT_EQ(result.steps[1].name, "ProfilerStep#2");
    EXPECT_EQ(result.steps[1].cpuRange, test::findEvent(trace, "ProfilerStep#2"));
    EXPECT_EQ(result.windows[0].ranges.intervals(), (std::vector<Interval> { { us(100), us(300) } }));
    ASSERT_EQ(result.devices.size(), 1u);
    EXPECT_EQ(result.devices[0].busyNs, us(60) + us(30));
    ASSERT_EQ(result.stepStats.size(), 1u);
    EXPECT_EQ(result.stepStats[0].count, 2u);
    EXPECT_EQ(result.stepStats[0].warmup, 1u);
    EXPECT_EQ(result.stepStats[0].p50Ns, us(100));
    EXPECT_EQ(result.stepStats[0].meanNs, us(100));
}

TEST(StepsTest, NvtxRangesMatchingThePatternAreSteps)
{
    // "train_step 1/2" match; "forward" does not; "train_step_inner" matches but lies inside a step.
    const Trace trace = HandTrace()
                            .nvtx(1, 0, 100, "train_step 1")
                            .nvtx(1, 10, 50, "forward")
                            .nvtx(1, 10, 20, "train_step_inner")
                            .nvtx(1, 100, 180, "train_step 2")
                            .build();
    const std::vector<Step> steps = findSteps(trace, "^train_step", 0);
    ASSERT_EQ(steps.size(), 2u);
    EXPECT_EQ(steps[0].name, "train_step 1");
    EXPECT_EQ(steps[1].name, "train_step 2");
    EXPECT_EQ(steps[1].end - steps[1].start, us(80));
    EXPECT_TRUE(findSteps(trace, {}, 0).empty());
}

TEST(StepsTest, InvalidPatternIsAWarningNotAFailure)
{
    const Trace trace = HandTrace().cpuOp(1, 0, 100, "ProfilerStep#7").nvtx(1, 0, 50, "step").build();
    AnalysisOptions options;
    options.stepPattern = "(unclosed";
    const AnalysisResult result = analyze(trace, options);
    ASSERT_EQ(result.warnings.size(), 1u);
    EXPECT_NE(result.warnings[0].find("(unclosed"), std::string::npos);
    ASSERT_EQ(result.steps.size(), 1u);
    EXPECT_EQ(result.steps[0].name, "ProfilerStep#7");
}

} // namespace
} // namespace gapscope
