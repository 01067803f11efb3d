// SPDX-License-Identifier: MIT
#pragma once

// The command lines of `gapscope critical-path` and `gapscope whatif` (docs/critical-path.md).

#include "core/analysis/critical_path.h"
#include "core/analysis/what_if.h"
#include "core/result.h"

#include <optional>
#include <string>
#include <vector>

namespace gapscope::cli {

struct CriticalPathOptions {
    std::string trace;
    /// --step N: the step named "...#N" (ProfilerStep#N); nullopt: critical-path takes the median step, whatif
    /// every counted step.
    std::optional<std::string> step;
    /// --window T0:T1 instead of steps.
    std::optional<std::pair<TimeNs, TimeNs>> window;
    /// --warmup N; without it, kDefaultPathWarmupSteps (countedStepWindows()).
    std::optional<int> warmupSteps;
    std::string stepPattern;
    bool json = false;
    std::size_t top = 20;
    /// whatif only.
    WhatIfChanges changes;
    /// whatif --note ID: the prediction goes into that note of the trace's sidecar.
    std::optional<std::string> note;
};

/// Parses `critical-path` (whatIf false) or `whatif` arguments: the options, or why they are wrong.
ParseResult<CriticalPathOptions> parseCriticalPathOptions(const std::vector<std::string>& args, bool whatIf);

} // namespace gapscope::cli
