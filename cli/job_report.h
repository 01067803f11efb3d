// SPDX-License-Identifier: MIT
#pragma once

// The job section that `gapscope report` (several ranks) and `gapscope job` print: ranks, per-rank table, skew by
// collective, straggler, and the matched collectives. Written from rank summaries and their JobAnalysis only.

#include "core/analysis/collectives.h"
#include "core/summary/rank_summary.h"

#include <nlohmann/json_fwd.hpp>

#include <ostream>
#include <vector>

namespace gapscope::cli {

/// The job analysis of summaries (their jobInput()s, in order).
JobAnalysis analyzeSummaries(const std::vector<RankSummary>& summaries);

/// The readable job section; `top` bounds the list of collectives (largest skew first).
void writeJobText(
    const std::vector<RankSummary>& summaries, const JobAnalysis& job, std::size_t top, std::ostream& out);

/// The `job` object of `report --json` and `job --json` (its keys: docs/json-output.md).
nlohmann::json jobToJson(const std::vector<RankSummary>& summaries, const JobAnalysis& job);

} // namespace gapscope::cli
