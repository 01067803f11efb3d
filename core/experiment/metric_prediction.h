// SPDX-License-Identifier: MIT
#pragma once

// A note's hypothesis that names a metric and the way it predicts it to move ("decode interval p95 falls",
// "itl p95 falls", "ttft rises"), and the status the experiment's verdict on that metric proposes
// (docs/experiments.md "Notes").

#include "core/annotations/annotation.h"
#include "core/experiment/metric_comparison.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gapscope {

struct MetricPrediction {
    std::size_t metric = 0; // index in the metrics
    bool p95 = false; // the hypothesis names p95 (else p50)
    Verdict direction = Verdict::Faster; // falls: faster; rises: slower
};

/// The first metric the hypothesis names (by its name, case-insensitive, as a whole word; `step` also as "step
/// time"), with "p95" or "p50" after it (p50 when neither) and the first direction word after that: falls, drops,
/// decreases, shrinks, lower, faster (Faster); rises, grows, increases, higher, slower (Slower). nullopt when no
/// metric is named with a direction.
std::optional<MetricPrediction> predictionIn(std::string_view hypothesis, const std::vector<MetricComparison>& metrics);

struct PredictionJudgement {
    AnnotationStatus status = AnnotationStatus::Inconclusive;
    std::string reason;
};

/// supported: the metric's percentile moved as predicted; refuted: it moved the other way; inconclusive: no
/// detectable change, or no verdict.
PredictionJudgement judgePrediction(const MetricPrediction& prediction, const std::vector<MetricComparison>& metrics);

/// The note's *side effects* field: "ttft p50 slower +9.1 ms (+60.2 %)" for each side effect, "none" when the
/// metrics moved one way only.
std::string sideEffectsText(const std::vector<MetricComparison>& metrics);

} // namespace gapscope
