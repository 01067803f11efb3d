// SPDX-License-Identifier: MIT
// The per-metric verdicts on p50 and p95 and the side effects, on hand-built values whose answers are worked out
// in the comments.

#include "core/experiment/metric_comparison.h"

#include <gtest/gtest.h>

namespace gapscope {
namespace {

/// `count` values first, first + step, ...
std::vector<TimeNs> rising(TimeNs first, std::size_t count, TimeNs step = 1)
{
    std::vector<TimeNs> values;
    for (std::size_t i = 0; i < count; ++i)
        values.push_back(first + static_cast<TimeNs>(i) * step);
    return values;
}

std::vector<TimeNs> joined(std::vector<TimeNs> a, const std::vector<TimeNs>& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

MetricSpec metric(std::string name, MetricKind kind = MetricKind::Interval)
{
    return MetricSpec { std::move(name), kind, "decode" };
}

// 80 values 1000..1079 on both sides, then a tail of 20: 5000 in BASE, 2000 in NEW.
// p50 (the 50th of 100) lies in the shared part: 1049 on both sides. A resampled median leaves the shared part
// only if 51 of 100 draws hit the tail (P(Bin(100, 0.2) >= 51) ~ 1e-11), so the median differences are those of
// two resamples of the same 80 values: the interval holds 0. Mann–Whitney: the 80 x 80 shared pairs tie (3200),
// BASE's tail beats all 100 of NEW (2000): U = 5200 against a mean of 5000, sd ~ 409, p ~ 0.6.
// p95 (the 95th of 100) lies in the tail on both sides unless fewer than 6 of 100 draws hit it
// (P(Bin(100, 0.2) <= 5) ~ 3e-4): the resampled difference is 2000 - 5000 nearly always, so the 95 % interval
// is exactly [-3000, -3000] and faster.
TEST(MetricComparison, P95FallsWhileP50StaysTheSame)
{
    const std::vector<TimeNs> base = joined(rising(1000, 80), std::vector<TimeNs>(20, 5000));
    const std::vector<TimeNs> fresh = joined(rising(1000, 80), std::vector<TimeNs>(20, 2000));
    const MetricComparison m = compareMetric(metric("itl"), { base }, { fresh });
    EXPECT_EQ(m.base.n, 100u);
    EXPECT_EQ(m.base.p50Ns, 1049);
    EXPECT_EQ(m.fresh.p50Ns, 1049);
    EXPECT_EQ(m.base.p95Ns, 5000);
    EXPECT_EQ(m.fresh.p95Ns, 2000);

    EXPECT_EQ(m.p50.deltaNs, 0);
    EXPECT_EQ(m.p50.verdict, Verdict::NoDetectableChange);
    ASSERT_TRUE(m.p50.pValue);
    EXPECT_GT(*m.p50.pValue, 0.5);
    EXPECT_LT(*m.p50.pValue, 0.7);
    EXPECT_FALSE(m.p50.interval95->excludesZero());

    EXPECT_EQ(m.p95.deltaNs, -3000);
    EXPECT_DOUBLE_EQ(m.p95.deltaFraction, -0.6);
    EXPECT_EQ(m.p95.interval95->low, -3000);
    EXPECT_EQ(m.p95.interval95->high, -3000);
    EXPECT_LT(*m.p95.pValue, 0.01);
    EXPECT_EQ(m.p95.verdict, Verdict::Faster);
    EXPECT_FALSE(m.p95.runRangesSeparate.has_value()); // one run per side: no run rule
    EXPECT_NE(m.caveat.find("one run per side"), std::string::npos);
    EXPECT_EQ(m.direction(), Verdict::Faster);
}

// 70 values per side below a shared tail of 30 values of 9000: BASE 1000..1069, NEW 500..569.
// p50 (the 50th) is 1049 and 549: -500. Mann–Whitney: BASE's low part beats NEW's (70 x 70 = 4900), BASE's tail
// beats NEW's low part (30 x 70 = 2100), the tails tie (30 x 30 / 2 = 450): U = 7450 against a mean of 5000,
// z ~ 6, p < 1e-6. A resampled median stays in the low part unless 51 of 100 draws hit
// the tail (P(Bin(100, 0.3) >= 51) ~ 1e-5), so the interval lies within [500 - 1069, 569 - 1000] = [-569, -431].
// p95 is 9000 on both sides (the tail holds the 71st..100th) and a resample leaves the tail only with fewer than
// 6 tail draws of 100 (~1e-7): the interval is [0, 0], p = 1.
TEST(MetricComparison, P50FallsWhileP95StaysTheSame)
{
    const std::vector<TimeNs> base = joined(rising(1000, 70), std::vector<TimeNs>(30, 9000));
    const std::vector<TimeNs> fresh = joined(rising(500, 70), std::vector<TimeNs>(30, 9000));
    const MetricComparison m = compareMetric(metric("ttft"), { base }, { fresh });
    EXPECT_EQ(m.base.p50Ns, 1049);
    EXPECT_EQ(m.fresh.p50Ns, 549);
    EXPECT_EQ(m.p50.deltaNs, -500);
    EXPECT_LT(*m.p50.pValue, 1e-6);
    EXPECT_GE(m.p50.interval95->low, -569);
    EXPECT_LE(m.p50.interval95->high, -431);
    EXPECT_EQ(m.p50.verdict, Verdict::Faster);

    EXPECT_EQ(m.base.p95Ns, 9000);
    EXPECT_EQ(m.fresh.p95Ns, 9000);
    EXPECT_EQ(m.p95.deltaNs, 0);
    EXPECT_EQ(m.p95.interval95->low, 0);
    EXPECT_EQ(m.p95.interval95->high, 0);
    EXPECT_DOUBLE_EQ(*m.p95.pValue, 1.0);
    EXPECT_EQ(m.p95.verdict, Verdict::NoDetectableChange);
}

// The p50 verdict is the step verdict's, whatever the metric: the same values through compareSteps().
TEST(MetricComparison, P50VerdictIsTheStepVerdict)
{
    const std::vector<std::vector<TimeNs>> base { rising(1000, 12, 10), rising(1010, 12, 10) };
    const std::vector<std::vector<TimeNs>> fresh { rising(900, 12, 10), rising(905, 12, 10) };
    const StepComparison steps = compareSteps(base, fresh);
    const MetricComparison m = compareMetric(stepMetric(), base, fresh);
    EXPECT_EQ(m.p50.verdict, steps.verdict);
    EXPECT_EQ(m.p50.deltaNs, steps.deltaP50Ns);
    EXPECT_EQ(m.p50.pValue, steps.test->pValue);
    EXPECT_EQ(m.p50.interval95->low, steps.interval95->low);
    EXPECT_EQ(m.p50.interval95->high, steps.interval95->high);
    EXPECT_EQ(m.p50.runRangesSeparate, steps.runMediansSeparate);
    EXPECT_EQ(m.base.runSpreadP50, steps.base.runSpread);
}

// Two runs per side, each 80 shared values 1000..1079 and a tail of 20. BASE's tails: 5000 and 2000; NEW's: 2100
// and 1900. Pooled (200 values), p95 is the 190th: BASE's 5000 (its top 20), NEW's 2100: the bootstrap separates
// them. But the per-run p95s are BASE {5000, 2000}, NEW {2100, 1900}: [2000, 5000] and [1900, 2100] overlap, so
// the change is within the run-to-run noise. With BASE's second tail at 4000 instead, [4000, 5000] and
// [1900, 2100] are disjoint: faster.
TEST(MetricComparison, SeveralRunsNeedDisjointRangesOfPerRunP95s)
{
    const auto run = [](TimeNs tail) { return joined(rising(1000, 80), std::vector<TimeNs>(20, tail)); };
    const MetricComparison overlapping
        = compareMetric(metric("itl"), { run(5000), run(2000) }, { run(2100), run(1900) });
    EXPECT_EQ(overlapping.base.p95Ns, 5000);
    EXPECT_EQ(overlapping.fresh.p95Ns, 2100);
    EXPECT_EQ(overlapping.base.runP95sNs, (std::vector<TimeNs> { 5000, 2000 }));
    EXPECT_TRUE(overlapping.p95.interval95->excludesZero());
    ASSERT_TRUE(overlapping.p95.runRangesSeparate.has_value());
    EXPECT_FALSE(*overlapping.p95.runRangesSeparate);
    EXPECT_EQ(overlapping.p95.verdict, Verdict::NoDetectableChange);
    EXPECT_NE(overlapping.p95.reason.find("overlap"), std::string::npos);
    EXPECT_DOUBLE_EQ(*overlapping.base.runSpreadP95, 1.5); // 5000 / 2000 - 1
    EXPECT_EQ(overlapping.caveat, "");

    const MetricComparison separate = compareMetric(metric("itl"), { run(5000), run(4000) }, { run(2100), run(1900) });
    EXPECT_TRUE(*separate.p95.runRangesSeparate);
    EXPECT_EQ(separate.p95.verdict, Verdict::Faster);
    EXPECT_EQ(separate.p50.verdict, Verdict::NoDetectableChange);
}

TEST(MetricComparison, ASideWithoutValuesHasNoVerdict)
{
    const MetricComparison m = compareMetric(metric("itl"), { {} }, { rising(1, 5) });
    EXPECT_EQ(m.base.n, 0u);
    EXPECT_EQ(m.fresh.n, 5u);
    EXPECT_EQ(m.p50.verdict, Verdict::NoVerdict);
    EXPECT_EQ(m.p95.verdict, Verdict::NoVerdict);
    EXPECT_NE(m.p50.reason.find("BASE has no values of interval:decode"), std::string::npos);
    EXPECT_FALSE(m.direction());
}

// The seed's serving record: the decode interval's p95 falls (the experiment's direction: faster) while time to
// first token rises: a side effect. A third metric that also fell is not one; nor is one that did not move.
TEST(MetricComparison, AMetricThatMovedTheOtherWayIsASideEffect)
{
    const std::vector<TimeNs> shared = rising(1000, 80);
    std::vector<MetricComparison> metrics;
    metrics.push_back(compareMetric(stepMetric(), { {} }, { {} })); // no steps: no direction from it
    metrics.push_back(compareMetric(metric("itl"), { joined(shared, std::vector<TimeNs>(20, 5000)) },
        { joined(shared, std::vector<TimeNs>(20, 2000)) }));
    metrics.push_back(
        compareMetric(metric("ttft", MetricKind::First), { joined(rising(500, 70), std::vector<TimeNs>(30, 9000)) },
            { joined(rising(1000, 70), std::vector<TimeNs>(30, 9000)) }));
    metrics.push_back(compareMetric(metric("latency", MetricKind::Range), { rising(2000, 30) }, { rising(1000, 30) }));
    metrics.push_back(compareMetric(metric("same", MetricKind::Range), { rising(2000, 30) }, { rising(2000, 30) }));
    EXPECT_EQ(metrics[2].p50.verdict, Verdict::Slower);
    EXPECT_EQ(metrics[2].p95.verdict, Verdict::NoDetectableChange);

    const auto direction = markSideEffects(metrics);
    ASSERT_TRUE(direction);
    EXPECT_EQ(direction->verdict, Verdict::Faster);
    EXPECT_EQ(direction->metric, 1u); // itl, by its p95
    EXPECT_TRUE(direction->fromP95);
    EXPECT_FALSE(metrics[0].sideEffect);
    EXPECT_FALSE(metrics[1].sideEffect);
    EXPECT_TRUE(metrics[2].sideEffect);
    EXPECT_FALSE(metrics[3].sideEffect);
    EXPECT_FALSE(metrics[4].sideEffect);
}

TEST(MetricComparison, NothingMovedMeansNoDirectionAndNoSideEffect)
{
    std::vector<MetricComparison> metrics;
    metrics.push_back(compareMetric(metric("a"), { rising(2000, 30) }, { rising(2000, 30) }));
    metrics.push_back(compareMetric(metric("b"), { rising(10, 30) }, { rising(11, 30) }));
    EXPECT_FALSE(markSideEffects(metrics));
    EXPECT_FALSE(metrics[1].sideEffect);
}

TEST(RecordingMix, NvtxOnlyAgainstCuptiIsTheProfilersCost)
{
    EXPECT_EQ(recordingMix({ true, true }, { false, false }), RecordingMix::BaseNvtxOnly);
    EXPECT_EQ(recordingMix({ false }, { true, true }), RecordingMix::NewNvtxOnly);
    EXPECT_EQ(recordingMix({ true }, { true }), RecordingMix::Same);
    EXPECT_EQ(recordingMix({ false }, { false }), RecordingMix::Same);
    EXPECT_EQ(recordingMix({ true, false }, { false }), RecordingMix::Mixed);
}

// fraction 0.5 is the step verdict's median bootstrap, draw for draw.
TEST(PercentileBootstrap, TheMedianIsBootstrapMedianDifference)
{
    const std::vector<TimeNs> base { 5, 9, 1, 7, 7, 3, 12, 4, 8 };
    const std::vector<TimeNs> fresh { 2, 6, 3, 3, 1, 9, 4, 5 };
    const auto median = bootstrapMedianDifference(base, fresh);
    const auto percentile = bootstrapPercentileDifference(base, fresh, 0.5);
    ASSERT_TRUE(median && percentile);
    EXPECT_EQ(median->low, percentile->interval.low);
    EXPECT_EQ(median->high, percentile->interval.high);
    EXPECT_FALSE(bootstrapPercentileDifference({}, fresh, 0.95));
}

} // namespace
} // namespace gapscope
