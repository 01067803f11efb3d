// SPDX-License-Identifier: MIT
#pragma once

// The diff of a comparison on screen: `gapscope diff` over the two traces as read (never the shifted copy), with
// the viewer's window options. Qt-free; the viewer runs it off the GUI thread (a LatestJob).

#include "core/analysis/compare.h"
#include "core/analysis/compared_traces.h"

#include <stop_token>

namespace gapscope {

struct ComparisonDiff {
    RunDiff diff;
    AnalysisOptions options; // what both runs were analysed with
    /// The window of each side's first process that has one (as `gapscope diff` prints it).
    Window baseWindow;
    Window newWindow;
    /// The ruler's zero (the combined trace's first event) on each side's own clock: the viewer's times of a
    /// side's gap or window count from it, as the Gaps dock's and the ruler's do.
    TimeNs baseRulerOrigin = 0;
    TimeNs newRulerOrigin = 0;
    bool stopped = false;
};

/// The options the diff uses: the rules a note is measured by (noteComparisonOptions(): the `steps` window with at
/// least one warm-up step when BASE has steps, else `gpu`), from the viewer's (an explicit range, on BASE's clock
/// only, counts as `gpu`), so that the Diff dock and Measure against… give one verdict for one comparison.
AnalysisOptions comparisonDiffOptions(AnalysisOptions viewer, const Trace& base);

/// Analyses both traces with `options` and compares them (summarizeRun(), compareRuns()), the longest `longestGaps`
/// gaps per side. A side of repeated runs (ComparedTraces::baseRuns / newRuns) counts every one of its runs, the
/// others read from their files here, one at a time, as `gapscope diff DIR_A DIR_B` pools them.
ComparisonDiff computeComparisonDiff(
    const ComparedTraces& compared, const AnalysisOptions& options, std::size_t longestGaps, std::stop_token stop = {});

/// Kernels named `name` in the processes [firstProcess, endProcess) of a trace: the occurrences a Diff dock row
/// highlights in one block.
std::size_t kernelOccurrences(
    const Trace& trace, std::string_view name, std::uint32_t firstProcess, std::uint32_t endProcess);

} // namespace gapscope
