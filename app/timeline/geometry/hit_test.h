// SPDX-License-Identifier: MIT
#pragma once

// Which event lies under a point of the timeline. Pure functions over the model, the index, the layout
// and the axis, so that tooltips, clicks and tests agree.

#include "app/timeline/geometry/lane_layout.h"
#include "app/timeline/geometry/time_axis.h"
#include "app/timeline/geometry/timeline_index.h"

#include <optional>

namespace gapscope::timeline {

/// The event at nesting `depth` of `lane` that contains `t`; failing that, the one nearest to `t` within
/// `toleranceNs` (small events are hard to hit exactly); nullopt when there is none.
std::optional<std::uint32_t> hitTestLane(
    const Trace& trace, const TimelineIndex& index, LaneIndex lane, int depth, TimeNs t, TimeNs toleranceNs);

/// The event under axis x and content y (y as in LaneLayout, before scrolling), with a tolerance of
/// `tolerancePx` pixels to either side.
std::optional<EventRef> hitTest(const Trace& trace, const TimelineIndex& index, const LaneLayout& layout,
    const TimeAxis& axis, double x, int contentY, double tolerancePx = 3.0);

} // namespace gapscope::timeline
