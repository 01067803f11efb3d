// SPDX-License-Identifier: MIT
#pragma once

// `--metric NAME=SPEC` (repeatable), the metrics of an experiment that report, diff and summarize take
// (core/experiment/metric_spec.h; docs/experiments.md).

#include "cli/argument_parser.h"
#include "core/experiment/metric_spec.h"

#include <vector>

namespace gapscope::cli {

/// Adds --metric to `spec`: each one parsed into `metrics`, in order; a name given twice is an error.
void metricOptions(ArgumentSpec& spec, std::vector<MetricSpec>& metrics);

/// The metrics a command measures: `step` first, then the --metric ones.
std::vector<MetricSpec> measuredMetrics(const std::vector<MetricSpec>& requested);

} // namespace gapscope::cli
