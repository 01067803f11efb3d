// SPDX-License-Identifier: MIT
#pragma once

// What a viewer asks of one trace again and again: the step p50 predicted under a change, over every counted step
// (as `gapscope whatif` without --step). The windows and their dependency graphs are built once, so that each
// further change (another op, another percentage) is only a re-schedule of graphs already built.

#include "core/analysis/critical_path.h"
#include "core/analysis/what_if.h"
#include "core/annotations/annotation.h"
#include "core/result.h"

#include <cstddef>
#include <string>
#include <vector>

namespace gapscope {

class StepPredictor {
public:
    /// Graphs of all windows together beyond this are not kept but built again for each prediction: a trace of
    /// a hundred 100 k-event steps would otherwise hold 1.3 GB.
    static constexpr std::size_t kDefaultGraphBudgetBytes = std::size_t { 256 } << 20;

    /// The counted steps of `trace` (warm-up as countedStepWindows() without --warmup), else its GPU window; no
    /// windows when it has neither. Builds the graphs on up to `threads` threads (0: every core).
    StepPredictor(const Trace& trace, unsigned threads = 0, std::size_t graphBudgetBytes = kDefaultGraphBudgetBytes);

    const std::vector<PathWindow>& windows() const { return m_windows; }
    int warmupSteps() const { return m_warmupSteps; }
    /// Whether the graphs are kept (they fit the budget).
    bool keepsGraphs() const { return !m_graphs.empty() || m_windows.empty(); }

    /// The prediction of `changes` over the windows, as `gapscope whatif` computes it for the same windows;
    /// `made` is its time stamp. An error for no window, a bad regex or a sync index past the end.
    ParseResult<PredictedChange> predict(
        const Trace& trace, const WhatIfChanges& changes, std::string made, unsigned threads = 0) const;

private:
    std::vector<PathWindow> m_windows;
    int m_warmupSteps = 0;
    std::vector<DependencyGraph> m_graphs; // by window; empty when over the budget
};

} // namespace gapscope
