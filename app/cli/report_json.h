// SPDX-License-Identifier: MIT
#pragma once

#include "app/cli/report_options.h"

#include <nlohmann/json.hpp>

namespace gapscope::cli {

/// The `gapscope report --json` document (schema in README.md, "Report JSON").
nlohmann::json reportToJson(const Trace& trace, const AnalysisResult& result, const ReportOptions& options);

/// Step durations of one process, warm-up steps excluded from the percentiles.
struct StepSummary {
    std::size_t count = 0;
    std::size_t warmup = 0;
    TimeNs p50Ns = 0;
    TimeNs p95Ns = 0;
};
StepSummary summarizeSteps(const AnalysisResult& result, ProcessIndex process);

/// A readable name for a lane: "thread 1234 (python)", "device 0 stream 7".
std::string laneLabel(const Trace& trace, LaneIndex lane);

} // namespace gapscope::cli
