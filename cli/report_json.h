// SPDX-License-Identifier: MIT
#pragma once

#include "cli/report_options.h"

#include <nlohmann/json_fwd.hpp>

#include <ostream>

namespace gapscope::cli {

/// Writes the `gapscope report --json` document (its keys: docs/json-output.md) to `out`, the long lists
/// (gaps with evidence, steps, kernels) streamed as they are worked out. `job`: the job section of several ranks
/// (job_report.h), written last as the `job` member.
void writeReportJson(std::ostream& out, const Trace& trace, const AnalysisResult& result, const ReportOptions& options,
    const nlohmann::json* job = nullptr);

} // namespace gapscope::cli
