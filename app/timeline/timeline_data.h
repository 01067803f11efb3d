// SPDX-License-Identifier: MIT
#pragma once

// The immutable results a load or an analysis hands to the GUI thread. Shared, never modified after
// they are built, so the GUI and background jobs can read them at the same time.

#include "app/timeline/geometry/gap_overlay.h"
#include "app/timeline/geometry/lane_layout.h"
#include "app/timeline/geometry/timeline_index.h"

#include <memory>
#include <string>
#include <vector>

namespace gapscope {
struct ComparedSideRuns;
struct ComparedTraces;
} // namespace gapscope

namespace gapscope::timeline {

struct LoadedTrace {
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const TimelineIndex> index;
    /// The analysis's summaries of the trace's lanes, built once with the load and handed to every analysis of
    /// the trace (a new window, a range); null: each analysis builds them.
    std::shared_ptr<const LaneSummaries> laneSummaries;
    std::vector<std::string> files;
    /// A comparison (File › Compare With…): `trace` holds BASE's processes, then NEW's with NEW's times shifted,
    /// laid out in these two titled blocks; `comparison` keeps the two traces as read. Empty / null otherwise.
    std::vector<ProcessBlock> blocks;
    std::shared_ptr<const ComparedTraces> comparison;
    /// A folder of repeated runs opened as one trace: `files` is the run shown (the median), `runs` all of them,
    /// which a comparison with this trace as BASE pools. Null otherwise.
    std::shared_ptr<const ComparedSideRuns> runs;
};

struct AnalysisSnapshot {
    std::shared_ptr<const AnalysisResult> result;
    std::shared_ptr<const GapOverlay> gaps;
};

/// Builds the overlay for a result (cheap: one pass over the gaps).
inline AnalysisSnapshot makeAnalysisSnapshot(const Trace& trace, AnalysisResult result)
{
    auto shared = std::make_shared<const AnalysisResult>(std::move(result));
    auto gaps = std::make_shared<const GapOverlay>(*shared, trace.devices().size());
    return { std::move(shared), std::move(gaps) };
}

} // namespace gapscope::timeline
