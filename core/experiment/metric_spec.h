// SPDX-License-Identifier: MIT
#pragma once

// What an experiment measures (DESIGN.md §4 "Metrics of an experiment"): the step time, the metric `step`, or a
// metric the user names on the command line as NAME=SPEC (docs/experiments.md).

#include "core/result.h"

#include <string>
#include <string_view>

namespace gapscope {

enum class MetricKind : std::uint8_t {
    Step, // the counted step durations (DESIGN.md §4 "Steps")
    Range, // durations of the CPU, NVTX and annotation ranges whose name matches
    Interval, // from one match's start to the next match's start on the same thread
    First, // from the window start to the end of the first match, one value per process
    Gpu, // the total time of the matching kernels that start inside each counted step, one value per step
};

/// "step", "range", "interval", "first", "gpu".
std::string_view metricKindName(MetricKind kind);

struct MetricSpec {
    std::string name;
    MetricKind kind = MetricKind::Step;
    /// ECMAScript regex searched for (std::regex_search) in event names; empty for `step`.
    std::string pattern;
    /// "step" or "KIND:PATTERN", as the user wrote it.
    std::string specText() const;
};

/// The step time as a metric: name "step", spec "step".
MetricSpec stepMetric();

/// Parses NAME=SPEC, SPEC one of `step`, `range:REGEX`, `interval:REGEX`, `first:REGEX`, `gpu:REGEX`; the name is
/// letters, digits, `_`, `-` and `.` (it becomes a JSON value and a column of text) and is not `step` unless the
/// spec is. A regex that std::regex rejects is an error here, before any trace is read.
ParseResult<MetricSpec> parseMetricArgument(std::string_view argument);

} // namespace gapscope
