// SPDX-License-Identifier: MIT
#pragma once

#include "cli/report_options.h"
#include "core/experiment/metric_spec.h"

#include <optional>
#include <string>
#include <vector>

namespace gapscope::cli {

/// The parsed command line of `gapscope diff BASE NEW` / `gapscope diff BASE... -- NEW...`.
struct DiffOptions {
    /// The options every run is analyzed with (the report's: --window, --warmup, --activity, ...).
    AnalysisOptions analysis;
    bool json = false;
    /// Rows of the kernel and longest-gap lists; nullopt: 10 in text, all kernels and 10 gaps in JSON.
    std::optional<std::size_t> top;
    /// Exit 3 when NEW's step p50 is slower by more than this many percent and the verdict is `slower`.
    std::optional<double> failIfSlowerPercent;
    /// Measure the note with this id (from BASE's sidecar) against NEW: fill its performance change, name NEW as
    /// its after trace, save the sidecar, print the proposed status. One run per side.
    std::optional<std::string> note;
    /// With --note: also set the note's status to the proposed one.
    bool acceptStatus = false;
    /// --metric NAME=SPEC, in order (the step time is always measured too, as the metric `step`).
    std::vector<MetricSpec> metrics;
    /// --timing-from, once or twice: the runs the timings (step verdict and metrics) come from, for BASE then NEW
    /// (a side without one takes its own); kernels, gaps and devices still come from BASE and NEW.
    std::vector<std::string> timingFrom;
    /// Each run: a trace file, a folder holding the per-rank files of one job, a `.summary.json`, a folder of them,
    /// or a folder of repeated runs (`gapscope record --runs N -o DIR`: its manifest names the runs).
    std::vector<std::string> baseRuns;
    std::vector<std::string> newRuns;
};

/// Parses `diff` arguments: the options, or why they are wrong.
ParseResult<DiffOptions> parseDiffOptions(const std::vector<std::string>& args);

} // namespace gapscope::cli
