// SPDX-License-Identifier: MIT
#pragma once

// Per-lane summaries that let the timeline draw any zoom level in time proportional to the pixels on
// screen rather than the events in the trace (docs/architecture.md). Built once per loaded trace, off the GUI
// thread, and read-only afterwards.

#include "app/timeline/geometry/counter_draw_list.h"
#include "core/model/trace.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace gapscope::timeline {

/// Events of one row merged into one span: `count` events, `longest` is the index (in the lane) of the
/// longest of them, which gives the span its colour and tooltip.
struct SummarySpan {
    TimeNs start = 0;
    TimeNs end = 0;
    std::uint32_t count = 0;
    std::uint32_t longest = 0;
};
static_assert(sizeof(SummarySpan) == 24, "summaries cost at most half an event each; keep them small");

/// The events of a row with every gap shorter than `mergeGap` filled: a span covers exactly the events
/// it counts, so drawing it never hides one. Spans are disjoint and sorted.
struct SummaryLevel {
    TimeNs mergeGap = 0;
    std::vector<SummarySpan> spans;
};

/// One row of a lane: the events at one nesting depth.
struct RowSummary {
    /// Indices into Lane::events of this depth's events, in start order, for lanes with more than one
    /// depth (empty for single-depth lanes, whose events are the lane's events).
    std::vector<std::uint32_t> indices;
    /// True when the row's event ends are non-decreasing, so that its visible part is two binary searches.
    bool endsSorted = true;
    std::uint32_t eventCount = 0;
    /// Coarser and coarser summaries: mergeGap grows by 4x, each level at most half the size of the last.
    std::vector<SummaryLevel> levels;

    /// The coarsest level whose merged gaps are all narrower than a pixel, or nullptr (draw raw events).
    const SummaryLevel* levelFor(double nsPerPixel) const;
};

/// Busy time of a device as a sorted union of intervals with prefix sums: the busy time in any range
/// is two binary searches.
class BusyProfile {
public:
    /// `intervals` need not be sorted or disjoint.
    static BusyProfile fromIntervals(std::vector<std::pair<TimeNs, TimeNs>> intervals);
    TimeNs busyWithin(TimeNs t0, TimeNs t1) const;
    std::size_t size() const { return m_starts.size(); }

private:
    std::vector<TimeNs> m_starts;
    std::vector<TimeNs> m_ends;
    /// m_prefix[i]: total length of intervals [0, i).
    std::vector<TimeNs> m_prefix;
};

class TimelineIndex {
public:
    /// Holds no reference to the trace.
    static TimelineIndex build(const Trace& trace);

    /// Number of nesting depths in a lane (1 for an empty lane).
    int depthCount(LaneIndex lane) const { return static_cast<int>(m_rows[lane.value].size()); }
    const RowSummary& row(LaneIndex lane, int depth) const
    {
        return m_rows[lane.value][static_cast<std::size_t>(depth)];
    }
    /// Union of kernels, memcpys and memsets over all streams of a device (activity set `all`).
    const BusyProfile& deviceBusy(DeviceIndex device) const { return m_deviceBusy[device.value]; }
    /// The block summary of counter track `track` (an index of the trace's CounterTracks::tracks()).
    const CounterSummary& counter(std::size_t track) const { return m_counters[track]; }
    /// Bytes the summaries hold, for the memory budget.
    std::size_t memoryBytes() const;

private:
    std::vector<std::vector<RowSummary>> m_rows; // [lane][depth]
    std::vector<BusyProfile> m_deviceBusy; // [device]
    std::vector<CounterSummary> m_counters; // [counter track]
};

} // namespace gapscope::timeline
