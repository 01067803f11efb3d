// SPDX-License-Identifier: MIT
#pragma once

// Internal to the analysis: gaps (DESIGN.md §4) from busy spans, and why they happened.

#include "core/analysis/analysis.h"
#include "core/analysis/busy_spans.h"
#include "core/analysis/host_scan.h"

#include <vector>

namespace gapscope {

/// Turns busy spans, fed in ascending order, into the gaps of a window: the maximal sub-intervals of each
/// window range that no span covers, in time order. Each gap gets `prototype`'s process/device/stream and,
/// as closing op, the opener of the first span starting at or after the gap's end (none when the activity
/// ends before). Causes are left Unknown. Nothing is stored but the gaps.
class GapEmitter {
public:
    GapEmitter(const IntervalSet& window, const Gap& prototype, std::vector<Gap>& out);
    void add(const BusySpan& span);
    /// Emits the idle ends of the window after the last span.
    void finish();

private:
    void emit(TimeNs start, TimeNs end, const BusySpan* closing);
    void nextRange();

    const std::vector<Interval>& m_ranges;
    const Gap& m_prototype;
    std::vector<Gap>& m_out;
    std::size_t m_range = 0;
    TimeNs m_cursor = 0;
};

/// Applies DESIGN.md §4's cause rules, in their order, to gaps whose closing op is set.
class GapClassifier {
public:
    /// `syncCalls` and `launches` are indexed by process; `launches` may be empty (then Trace::launchOf).
    GapClassifier(const Trace& trace, const std::vector<SyncCallIndex>& syncCalls,
        const std::vector<LaunchTable>& launches, TimeNs launchThresholdNs);
    /// Sets the cause and the evidence events (launch, sync call, host range); not the summary.
    void classify(Gap& gap) const;

private:
    std::optional<EventRef> hostRangeCovering(LaneIndex lane, TimeNs start, TimeNs end) const;

    const Trace& m_trace;
    const std::vector<SyncCallIndex>& m_syncCalls;
    const std::vector<LaunchTable>& m_launches;
    TimeNs m_launchThresholdNs;
};

} // namespace gapscope
