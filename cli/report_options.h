// SPDX-License-Identifier: MIT
#pragma once

#include "cli/argument_parser.h"
#include "core/analysis/analysis.h"
#include "core/experiment/metric_spec.h"
#include "core/io/common/read_filter.h"

#include <optional>
#include <string>
#include <vector>

namespace gapscope::cli {

/// The parsed command line of `gapscope report`.
struct ReportOptions {
    AnalysisOptions analysis;
    bool json = false;
    /// Rows in the "longest gaps" and "top kernels" lists; nullopt: 10 in text, all in JSON.
    std::optional<std::size_t> top;
    std::vector<std::string> traces;
    /// --metric NAME=SPEC, in order; `step` is always reported first.
    std::vector<MetricSpec> metrics;
    /// --gpu-only / --load-range T0:T1: what is read of the files (everything by default).
    ReadFilter load;
};

/// Parses `report` arguments: the options, or why they are wrong.
ParseResult<ReportOptions> parseReportOptions(const std::vector<std::string>& args);

} // namespace gapscope::cli
