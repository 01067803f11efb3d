// SPDX-License-Identifier: MIT
#pragma once

// The backend-neutral pass between the model and the painter: for one lane and one visible range it
// lists the rectangles to draw, folding runs of sub-pixel events into one item with a count. The
// painter (QPainter on a widget or an offscreen image) only reads these lists.

#include "app/timeline/geometry/counter_draw_list.h"
#include "app/timeline/geometry/time_axis.h"
#include "app/timeline/geometry/timeline_index.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace gapscope::timeline {

/// One rectangle of a lane: [x0, x1) in fractional pixels of the axis (clipped to just outside
/// [0, width]), on nesting row `depth`. A folded item stands for `count` events; `event` is the index in
/// the lane of its longest one (the one it is coloured and named after).
struct DrawItem {
    float x0 = 0.0f;
    float x1 = 0.0f;
    std::uint32_t count = 1;
    std::uint32_t event = 0;
    std::uint16_t depth = 0;
};

struct LaneDrawList {
    /// Sorted by depth, then by x0; items of one depth do not overlap.
    std::vector<DrawItem> items;
    /// How many events or summary spans were visited to build it (for tests and benchmarks).
    std::size_t visited = 0;
};

struct DrawListOptions {
    /// Runs of events narrower than this (pixels) fold into one item.
    double foldWidthPx = 2.0;
    /// Rows deeper than this are not built (the layout does not show them).
    int maxDepth = 64;
    /// Walk raw events while a row has at most this many per pixel in view; use summaries beyond.
    double rawEventsPerPixel = 1.0;
};

/// Builds the draw list of one lane for one visible range. Never walks events outside the range, and
/// every event overlapping the range lies inside the columns (columnsOf) of an item at its depth.
LaneDrawList buildLaneDrawList(const Trace& trace, const TimelineIndex& index, LaneIndex lane, const TimeAxis& axis,
    const DrawListOptions& options = {});

/// Busy fraction (0..1) of a device for each pixel column [c, c+1) of the axis.
std::vector<float> buildUtilization(const BusyProfile& busy, const TimeAxis& axis, int columns);

/// Caches draw lists for one (range, width): a lane's list is built on first use and kept until the
/// range or the width changes, so repaints for hover, selection or vertical scrolling cost no rebuild.
class DrawListCache {
public:
    /// Drops everything if the axis differs from the cached one.
    void setAxis(const TimeAxis& axis);
    /// Drops everything (new trace, new options).
    void clear();
    const LaneDrawList& lane(
        const Trace& trace, const TimelineIndex& index, LaneIndex lane, const DrawListOptions& options = {});
    const std::vector<float>& utilization(const TimelineIndex& index, DeviceIndex device, int columns);
    /// Track `track` of the trace's counters over `columns` pixels.
    const CounterDrawList& counter(const Trace& trace, const TimelineIndex& index, std::uint32_t track, int columns);
    /// Samples per column of thread `thread` of the trace's samples.
    const std::vector<std::uint32_t>& samples(const Trace& trace, std::uint32_t thread, int columns);
    std::size_t builds() const { return m_builds; }

private:
    std::optional<TimeAxis> m_axis;
    std::vector<std::optional<LaneDrawList>> m_lanes;
    std::vector<std::optional<std::vector<float>>> m_utilization;
    std::vector<std::optional<std::pair<int, CounterDrawList>>> m_counters; // (columns, list)
    std::vector<std::optional<std::vector<std::uint32_t>>> m_samples;
    std::size_t m_builds = 0;
};

} // namespace gapscope::timeline
