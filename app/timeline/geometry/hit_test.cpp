// SPDX-License-Identifier: MIT
#include "app/timeline/geometry/hit_test.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gapscope::timeline {

namespace {

// Distance from t to [start, end): 0 inside; zero-length events count as the point `start`.
TimeNs distanceTo(const Event& e, TimeNs t)
{
    if (t < e.start)
        return e.start - t;
    if (t >= e.end)
        return e.start == e.end ? t - e.start : t - e.end + 1;
    return 0;
}

struct Best {
    std::optional<std::uint32_t> index;
    TimeNs distance = std::numeric_limits<TimeNs>::max();
    TimeNs duration = 0;
    void offer(const Event& e, std::uint32_t i, TimeNs t)
    {
        const TimeNs d = distanceTo(e, t);
        // Prefer the nearest; among equals, the shorter (the one drawn on top of a fold is the longest,
        // but a click within an event should give that event).
        if (d < distance || (d == distance && e.duration() < duration)) {
            index = i;
            distance = d;
            duration = e.duration();
        }
    }
};

} // namespace

std::optional<std::uint32_t> hitTestLane(
    const Trace& trace, const TimelineIndex& index, LaneIndex laneIndex, int depth, TimeNs t, TimeNs toleranceNs)
{
    if (depth < 0 || depth >= index.depthCount(laneIndex))
        return std::nullopt;
    const Lane& lane = trace.lanes()[laneIndex.value];
    const TimeNs t0 = t - toleranceNs;
    const TimeNs t1 = t + toleranceNs + 1;
    Best best;
    const RowSummary& row = index.row(laneIndex, depth);
    if (index.depthCount(laneIndex) > 1 && row.endsSorted) {
        const auto& ids = row.indices;
        auto it
            = std::partition_point(ids.begin(), ids.end(), [&](std::uint32_t i) { return lane.events[i].end < t0; });
        for (; it != ids.end() && lane.events[*it].start < t1; ++it)
            best.offer(lane.events[*it], *it, t);
    } else {
        const auto [first, last] = lane.visibleRange(t0, t1);
        for (std::size_t i = first; i < last; ++i) {
            const Event& e = lane.events[i];
            if (e.depth == depth)
                best.offer(e, static_cast<std::uint32_t>(i), t);
        }
    }
    if (!best.index || best.distance > toleranceNs)
        return std::nullopt;
    return best.index;
}

std::optional<EventRef> hitTest(const Trace& trace, const TimelineIndex& index, const LaneLayout& layout,
    const TimeAxis& axis, double x, int contentY, double tolerancePx)
{
    const auto rowIndex = layout.rowAt(contentY);
    if (!rowIndex)
        return std::nullopt;
    const LayoutRow& row = layout.rows()[*rowIndex];
    const auto depth = layout.depthAt(row, contentY);
    if (!row.lane || !depth)
        return std::nullopt;
    const TimeNs t = axis.xToTime(x);
    const auto tolerance = static_cast<TimeNs>(std::ceil(tolerancePx * axis.nsPerPixel()));
    const auto hit = hitTestLane(trace, index, *row.lane, *depth, t, tolerance);
    if (!hit)
        return std::nullopt;
    return EventRef { *row.lane, *hit };
}

} // namespace gapscope::timeline
