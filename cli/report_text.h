// SPDX-License-Identifier: MIT
#pragma once

#include "cli/report_options.h"

#include <ostream>

namespace gapscope::cli {

/// The readable `gapscope report`: window, per-device figures, idle by cause, longest gaps with
/// evidence, exposed time, steps, top kernels.
void writeTextReport(const Trace& trace, const AnalysisResult& result, const ReportOptions& options, std::ostream& out);

/// The lines under a device's window line, as `report` prints them from a trace or from summaries: span, busy and
/// utilization, idle and gaps, idle by cause, exposed time (each % of the span).
void writeDeviceFigureLines(const WindowFigures& d, std::ostream& out);

} // namespace gapscope::cli
