// SPDX-License-Identifier: MIT
#include "core/experiment/metric_prediction.h"

#include <gtest/gtest.h>

namespace gapscope {
namespace {

/// A metric whose verdicts are set by hand (what compareMetric() would have found).
MetricComparison judged(std::string name, Verdict p50, Verdict p95, TimeNs p50Delta = 0, double p50Fraction = 0.0)
{
    MetricComparison m;
    m.spec = MetricSpec { std::move(name), MetricKind::Interval, "decode" };
    m.p50.verdict = p50;
    m.p95.verdict = p95;
    m.p50.deltaNs = p50Delta;
    m.p50.deltaFraction = p50Fraction;
    return m;
}

std::vector<MetricComparison> servingMetrics()
{
    std::vector<MetricComparison> metrics;
    metrics.push_back(judged("step", Verdict::NoVerdict, Verdict::NoVerdict));
    metrics.push_back(judged("itl", Verdict::NoDetectableChange, Verdict::Faster));
    metrics.push_back(judged("ttft", Verdict::Slower, Verdict::NoDetectableChange, 9'000'000, 0.6));
    metrics[2].sideEffect = true;
    return metrics;
}

TEST(MetricPrediction, FindsTheNamedMetricItsPercentileAndDirection)
{
    const auto metrics = servingMetrics();
    const auto p = predictionIn("Long prefills stall decoding: with chunks the ITL p95 falls", metrics);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->metric, 1u);
    EXPECT_TRUE(p->p95);
    EXPECT_EQ(p->direction, Verdict::Faster);
    const PredictionJudgement j = judgePrediction(*p, metrics);
    EXPECT_EQ(j.status, AnnotationStatus::Supported);
    EXPECT_EQ(j.reason, "itl p95 moved as predicted (fall)");

    // p50 when no percentile is named: itl's p50 did not move.
    const auto p50 = predictionIn("itl drops", metrics);
    ASSERT_TRUE(p50);
    EXPECT_FALSE(p50->p95);
    EXPECT_EQ(judgePrediction(*p50, metrics).status, AnnotationStatus::Inconclusive);

    const auto ttft = predictionIn("ttft is lower with small chunks", metrics);
    ASSERT_TRUE(ttft);
    EXPECT_EQ(ttft->metric, 2u);
    const PredictionJudgement refuted = judgePrediction(*ttft, metrics);
    EXPECT_EQ(refuted.status, AnnotationStatus::Refuted);
    EXPECT_EQ(refuted.reason, "ttft p50 moved the other way (predicted to fall, slower)");

    EXPECT_EQ(predictionIn("step time rises", metrics)->metric, 0u);
}

TEST(MetricPrediction, NeedsAWholeNamedMetricAndADirection)
{
    const auto metrics = servingMetrics();
    EXPECT_FALSE(predictionIn("the split lowers nothing", metrics)); // no metric named
    EXPECT_FALSE(predictionIn("itl changes", metrics)); // no direction
    EXPECT_FALSE(predictionIn("itlx falls", metrics)); // not a whole word
}

TEST(MetricPrediction, SideEffectsTextListsTheMetricsThatMovedTheOtherWay)
{
    EXPECT_EQ(sideEffectsText(servingMetrics()), "ttft p50 slower +9.000 ms (+60.00 %)");
    std::vector<MetricComparison> none { judged("itl", Verdict::Faster, Verdict::Faster) };
    EXPECT_EQ(sideEffectsText(none), "none");
}

} // namespace
} // namespace gapscope
