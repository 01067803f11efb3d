// SPDX-License-Identifier: MIT
#pragma once

// What-if: the same dependency graph re-scheduled with changed durations (docs/critical-path.md "What-if").
// Every node as early as its incoming edges allow; each edge keeps its measured delay unless a change names it.

#include "core/analysis/critical_path.h"
#include "core/result.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gapscope {

/// Scale the ops whose name the ECMAScript regex finds a match in (std::regex_search) by `factor` (0.5: twice as
/// fast, 0: gone). On a CPU range it scales all the time inside it, its children's too.
struct ScaleRule {
    std::string pattern;
    double factor = 1.0;
};
/// Parses `REGEX=F` (the last `=` splits, so the pattern may hold one); F a number >= 0.
ParseResult<ScaleRule> parseScaleRule(std::string_view text);

struct WhatIfChanges {
    std::vector<ScaleRule> scales;
    /// Host waits to leave out, by their index in DependencyGraph::hostWaits (start order of their calls).
    std::vector<std::size_t> dropSyncs;
    /// Launch delays (launch call to GPU op start, and a stream's op-to-op delay) above this are cut to it.
    std::optional<TimeNs> launchDelayCapNs;
};

struct WhatIfOutcome {
    TimeNs measuredNs = 0; // the window's length
    TimeNs predictedNs = 0;
    CriticalPath predicted;
    /// Ops some scale rule matched (each counted once), per rule.
    std::vector<std::size_t> matchedOps;
};

/// The weights of the graph under the changes: a bad regex or a sync index past the end is the error.
ParseResult<PathWeights> whatIfWeights(const Trace& trace, const DependencyGraph& graph, const WhatIfChanges& changes,
    std::vector<std::size_t>* matchedOps = nullptr);
/// Re-schedules the graph under the changes and takes the new critical path.
ParseResult<WhatIfOutcome> whatIf(
    const DependencyGraph& graph, const WhatIfChanges& changes, const Trace& trace, const PathOptions& options = {});

/// whatIf() of each window's graph, on up to `threads` threads (0: every core); the first error, if any.
ParseResult<std::vector<WhatIfOutcome>> whatIfWindows(const Trace& trace, const std::vector<PathWindow>& windows,
    const WhatIfChanges& changes, const PathOptions& options = {}, unsigned threads = 0);

} // namespace gapscope
