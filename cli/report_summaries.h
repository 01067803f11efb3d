// SPDX-License-Identifier: MIT
#pragma once

// `gapscope report a.summary.json b.summary.json ...`: the report of a job from its ranks' summaries (core/summary/)
// instead of their traces: device figures, longest gaps, step figures and the Job section, the same values the
// traces give; the sections that need the events are named as left out (summaryOmissions()).

#include "cli/report_options.h"
#include "core/summary/rank_summary.h"

#include <ostream>
#include <vector>

namespace gapscope::cli {

/// Reads the summaries `options.traces` names (every one a `.summary.json`) and writes the report, text or JSON.
/// Exit 0, or 1 when a summary cannot be read (the message names the file) or the ranks were summarized with
/// different options.
int runReportFromSummaries(const ReportOptions& options, std::ostream& out, std::ostream& err);

/// The JSON report of summaries (keys as `report --json`'s where the summaries hold the figures, plus `source`
/// "summaries" and `omitted`).
void writeSummaryReportJson(const std::vector<RankSummary>& ranks, const ReportOptions& options, std::ostream& out);

/// The readable report of summaries.
void writeSummaryReportText(const std::vector<RankSummary>& ranks, const ReportOptions& options, std::ostream& out);

} // namespace gapscope::cli
