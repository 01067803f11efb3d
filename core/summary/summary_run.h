// SPDX-License-Identifier: MIT
#pragma once

// What `report` and `diff` read from `.summary.json` files instead of traces: the device figures, steps,
// longest gaps and collectives a summary keeps. What needs the events (the kernel table, every gap and its
// evidence events, the list of steps, import warnings) is not in a summary: summaryOmissions() names it.

#include "core/analysis/compare.h"
#include "core/summary/rank_summary.h"

#include <string>
#include <vector>

namespace gapscope {

/// The run `diff` compares, from the summaries of its ranks: device figures per (rank, device), the counted step
/// durations (when the summaries keep them), the longest gaps with their evidence line, the skipped-event count,
/// the GPU models. No kernels (a summary has none), no recorded event kinds (unknown: 0).
RunSummary runSummaryFromRanks(const std::vector<RankSummary>& ranks, std::string label, std::size_t longestGaps = 10);

/// The analysis options the summaries were made with (window kind, activity, launch threshold of the first).
AnalysisOptions analysisOptionsOf(const std::vector<RankSummary>& ranks);

/// Problems that make summaries not comparable as one job or run: ranks measured with other options (window
/// kind, activity, launch threshold) than the first. Empty when they agree.
std::vector<std::string> summaryOptionMismatches(const std::vector<RankSummary>& ranks);

/// The parts of a report that need the events and are left out when it is made from summaries, one phrase each.
const std::vector<std::string>& summaryOmissions();

/// The start of a rank's window: the earliest window start of its devices (0 without devices).
TimeNs rankWindowStart(const RankSummary& rank);

} // namespace gapscope
