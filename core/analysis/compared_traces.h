// SPDX-License-Identifier: MIT
#pragma once

// Two runs on one timeline (File › Compare With…, `gapscope BASE --compare NEW`): the timeline draws one trace,
// so the comparison is one trace made of BASE's processes followed by NEW's, NEW's times shifted so that the two
// blocks line up on a chosen step (or on their windows' starts). The two traces as read are kept too: the diff
// and the note measurement read them, never the shifted copy.

#include "core/analysis/analysis.h"
#include "core/model/trace.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gapscope {

/// A side opened as a folder of repeated runs (readRunsFolder()): one run is shown, every run counts towards the
/// verdict. Empty runFiles: the side is the one run it shows.
struct ComparedSideRuns {
    std::string folder;
    /// Each good run's trace, in run order; runFiles[shown] is the one on screen.
    std::vector<std::string> runFiles;
    std::size_t shown = 0;
    /// "run 2 of 3, the median" (medianRunText()).
    std::string shownText;
};

struct ComparedTraces {
    std::shared_ptr<const Trace> base;
    std::shared_ptr<const Trace> fresh;
    std::vector<std::string> baseFiles;
    std::vector<std::string> newFiles;
    /// Starts of the counted steps (warm-up excluded) of each side's first process with steps, in time order.
    std::vector<TimeNs> baseStepStarts;
    std::vector<TimeNs> newStepStarts;
    /// The counted step both blocks start together at (0: the first); nullopt: aligned on the window starts
    /// (asked for, or a side has no counted steps).
    std::optional<std::size_t> alignStep;
    /// Added to every NEW time in the combined trace.
    TimeNs newOffset = 0;
    /// NEW's first process in the combined trace (BASE's come first).
    std::uint32_t newFirstProcess = 0;
    std::string baseTitle; // "Base: run_a.json.gz", "Base (run 2 of 3, the median): run-2.json.gz"
    std::string newTitle;
    /// The runs of a side opened as a folder of repeated runs; empty runFiles otherwise.
    ComparedSideRuns baseRuns;
    ComparedSideRuns newRuns;
};

/// Starts of the counted steps (options.window.warmupSteps excluded) of the first process, in rank order, that
/// has any; empty without steps.
std::vector<TimeNs> countedStepStarts(const Trace& trace, const AnalysisOptions& options);

/// Start of the window (options.window; an explicit range counts as `gpu`) of the first process, in rank order,
/// whose window is not empty; the trace's first event without one.
TimeNs alignmentWindowStart(const Trace& trace, const AnalysisOptions& options);

/// Fills alignStep and newOffset: BASE's step `step` start minus NEW's (the last step both have when `step` is
/// beyond), or the window starts' difference when `step` is nullopt or a side has no counted steps.
void alignComparison(ComparedTraces& compared, std::optional<std::size_t> step, const AnalysisOptions& options);

/// BASE's processes, then NEW's with every time plus compared.newOffset, finished. Process names are kept
/// (the layout's blocks carry the titles).
Trace combineComparedTraces(const ComparedTraces& compared);

/// "Base: NAME" / "New: NAME": the file name of the first file, "and N more" for a run of several files; for a
/// side of repeated runs, which run is shown: "Base (run 2 of 3, the median): NAME".
std::string comparisonTitle(const char* side, const std::vector<std::string>& files, const ComparedSideRuns& runs = {});

} // namespace gapscope
