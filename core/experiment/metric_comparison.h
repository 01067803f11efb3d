// SPDX-License-Identifier: MIT
#pragma once

// The verdict of an experiment, per metric, on p50 and on p95 (DESIGN.md §4 "Metrics of an experiment"; the rules
// in words: docs/experiments.md). p50 is judged exactly as the step time is (compareSteps(): two-sided
// Mann–Whitney U, bootstrap interval of the median difference, and with several runs per side disjoint ranges of
// the per-run medians); p95 by a bootstrap interval of the difference of 95th percentiles with its two-sided
// bootstrap p, and with several runs per side disjoint ranges of the per-run p95s. Pure functions, no I/O.

#include "core/analysis/compare.h"
#include "core/experiment/metric_spec.h"

#include <optional>
#include <string>
#include <vector>

namespace gapscope {

/// One side's values of a metric.
struct MetricSide {
    std::size_t runs = 0;
    std::size_t n = 0; // values, all runs pooled
    TimeNs p50Ns = 0; // nearest-rank, pooled
    TimeNs p95Ns = 0;
    /// p50 and p95 of each run that has values.
    std::vector<TimeNs> runP50sNs;
    std::vector<TimeNs> runP95sNs;
    /// max / min of the runs' p50s (p95s) - 1; nullopt with fewer than two runs with values.
    std::optional<double> runSpreadP50;
    std::optional<double> runSpreadP95;
};

/// The verdict on one percentile of one metric.
struct PercentileVerdict {
    TimeNs deltaNs = 0; // percentile(NEW) - percentile(BASE), pooled
    double deltaFraction = 0.0; // of the BASE percentile (0 when it is 0)
    std::optional<BootstrapInterval> interval95; // of the difference of the percentiles
    /// p50: Mann–Whitney's; p95: the bootstrap's.
    std::optional<double> pValue;
    /// Several runs per side: whether the ranges [min, max] of the two sides' per-run percentiles are disjoint.
    std::optional<bool> runRangesSeparate;
    Verdict verdict = Verdict::NoVerdict;
    /// One sentence: why the verdict is what it is.
    std::string reason;
};

struct MetricComparison {
    MetricSpec spec;
    MetricSide base;
    MetricSide fresh;
    PercentileVerdict p50;
    PercentileVerdict p95;
    /// The metric moved against the experiment's direction (markSideEffects()).
    bool sideEffect = false;
    /// What the verdict cannot know (one run per side: run-to-run noise); "" when nothing.
    std::string caveat;
    /// faster or slower: its p50 verdict when that is one, else its p95's; nullopt when neither moved.
    std::optional<Verdict> direction() const;
};

/// One metric's comparison. `baseRuns` / `newRuns`: the metric's values in each run of the side.
MetricComparison compareMetric(const MetricSpec& spec, const std::vector<std::vector<TimeNs>>& baseRuns,
    const std::vector<std::vector<TimeNs>>& newRuns, const BootstrapOptions& bootstrap = {});

/// Which way an experiment went, and which figure said so.
struct ExperimentDirection {
    Verdict verdict = Verdict::Faster; // Faster or Slower
    std::size_t metric = 0; // index in the metrics
    bool fromP95 = false; // the metric's p50 did not move; its p95 did
};

/// The experiment's direction: that of the first metric, in order, that moved (MetricComparison::direction());
/// nullopt when none did. Every later metric whose p50 or p95 moved the other way is then a side effect
/// (sets MetricComparison::sideEffect).
std::optional<ExperimentDirection> markSideEffects(std::vector<MetricComparison>& metrics);

/// How the sides were recorded, for the profiler's cost: one side NVTX only (no CUPTI) and the other with CUPTI
/// is a measurement of the profiler's overhead, not an experiment.
enum class RecordingMix : std::uint8_t { Same, BaseNvtxOnly, NewNvtxOnly, Mixed };
/// `baseNvtxOnly` / `newNvtxOnly`: per run, whether it was recorded with NVTX only.
RecordingMix recordingMix(const std::vector<bool>& baseNvtxOnly, const std::vector<bool>& newNvtxOnly);

} // namespace gapscope
