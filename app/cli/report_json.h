// SPDX-License-Identifier: MIT
#pragma once

#include "app/cli/report_options.h"

#include <ostream>

namespace gapscope::cli {

/// Writes the `gapscope report --json` document (schema in README.md, `report --json`) to `out`, the long lists
/// (gaps with evidence, steps, kernels) streamed as they are worked out.
void writeReportJson(std::ostream& out, const Trace& trace, const AnalysisResult& result, const ReportOptions& options);

} // namespace gapscope::cli
