// SPDX-License-Identifier: MIT
#pragma once

// What the counter lanes (a device's memory, GPU metrics, Chrome `C` counters) and the sample rows of thread
// lanes draw for one visible range: one entry per pixel column, however many points or samples the range holds,
// so that a lane of a million points costs a pass over the points in view and a column's worth of drawing.

#include "app/timeline/geometry/time_axis.h"
#include "core/model/counter_tracks.h"
#include "core/model/cpu_samples.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace gapscope::timeline {

/// The values a stepped counter line takes inside one pixel column [c, c + 1): the value holding at the
/// column's start and every point inside it give `min` and `max`; `last` holds at the column's end.
struct CounterColumn {
    double min = 0.0;
    double max = 0.0;
    double last = 0.0;
};

/// The lowest and highest value of each block of kCounterBlock points of a track, and the track's largest value:
/// a column spanning thousands of points reads their blocks, not each point. Built with the TimelineIndex.
inline constexpr std::size_t kCounterBlock = 32;
struct CounterSummary {
    /// Block b: points [b * kCounterBlock, (b + 1) * kCounterBlock), the last block possibly shorter.
    std::vector<std::pair<double, double>> blocks;
    /// The largest value of the track, and 0 when none is larger.
    double top = 0.0;
    static CounterSummary build(const CounterTrack& track);
};

struct CounterDrawList {
    /// Columns before this one lie before the track's first point: the counter has no value there.
    int firstColumn = 0;
    /// Columns [firstColumn, firstColumn + columns.size()): every column from the first with a value to the end of
    /// the axis (a stepped line holds its last value).
    std::vector<CounterColumn> columns;
    /// The largest value of the whole track, and 0 when none is larger: the lane's top, the same at every zoom.
    double top = 0.0;
    /// Points and blocks read to build it (for tests and the benchmark).
    std::size_t visited = 0;
};

/// Builds the columns of a track (points sorted by time, as a finished trace has them) over `columns` pixels of
/// `axis`. Reads the point before the range (the value holding at its start) and what lies inside it only: each
/// point, or where a column holds whole blocks, their summary (`summary` of this track).
CounterDrawList buildCounterDrawList(
    const CounterTrack& track, const CounterSummary& summary, const TimeAxis& axis, int columns);

/// The samples of a thread in each pixel column [c, c + 1) of the axis (samples sorted by time).
std::vector<std::uint32_t> buildSampleColumns(const ThreadSamples& thread, const TimeAxis& axis, int columns);

} // namespace gapscope::timeline
