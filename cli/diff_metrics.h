// SPDX-License-Identifier: MIT
#pragma once

// The metrics part of `gapscope diff`: each metric's p50 and p95 verdicts, the side effects, the profiler's
// overhead when one side was recorded with NVTX only (docs/experiments.md), as text and as the JSON `metrics`.

#include "core/experiment/metric_comparison.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace gapscope::cli {

struct ExperimentReport {
    std::vector<MetricComparison> metrics; // `step` first
    /// The window each metric's values were taken over (of the first run that has values).
    std::vector<WindowKind> windows;
    std::optional<ExperimentDirection> direction;
    RecordingMix mix = RecordingMix::Same;
    /// Where the timings came from when --timing-from named other runs ("" when from the compared runs).
    std::string timingSource;

    bool isProfilerOverhead() const { return mix == RecordingMix::BaseNvtxOnly || mix == RecordingMix::NewNvtxOnly; }
};

/// "Profiler overhead (...): step p50 +1.2 ms (+3.40 %), 95 % interval [...], p = ...; itl p50 ...".
std::string profilerOverheadLine(const ExperimentReport& report);

/// The metrics table with the verdict of each percentile, then the side effects.
void writeTextMetrics(const ExperimentReport& report, std::ostream& out);

/// `metrics` of `diff --json`: [{name, spec, window, base {n, runs, p50_ns, p95_ns, run_p50s_ns, run_p95s_ns,
/// run_spread_p50, run_spread_p95}, new {...}, p50 {delta_ns, delta_pct, ci95_ns, p_value, run_ranges_separate,
/// verdict, reason}, p95 {...}, side_effect, caveat}].
nlohmann::json metricsToJson(const ExperimentReport& report);
/// `direction` ({verdict, metric, percentile} or null) and `profiler_overhead` (null, or {nvtx_only_side,
/// line}) of `diff --json`, added to `doc`.
void addExperimentJson(const ExperimentReport& report, nlohmann::json& doc);

} // namespace gapscope::cli
