// SPDX-License-Identifier: MIT
#pragma once

#include "app/cli/report_options.h"

#include <ostream>

namespace gapscope::cli {

/// The readable `gapscope report`: window, per-device figures, idle by cause, longest gaps with
/// evidence, exposed time, steps, top kernels.
void writeTextReport(const Trace& trace, const AnalysisResult& result, const ReportOptions& options, std::ostream& out);

} // namespace gapscope::cli
