// SPDX-License-Identifier: MIT
#include "app/timeline/geometry/counter_draw_list.h"

#include <algorithm>
#include <cmath>

namespace gapscope::timeline {

namespace {

int columnOf(const TimeAxis& axis, TimeNs t, int columns)
{
    return std::clamp(static_cast<int>(std::floor(axis.timeToX(t))), 0, columns - 1);
}

} // namespace

CounterDrawList buildCounterDrawList(const CounterTrack& track, const TimeAxis& axis, int columns)
{
    CounterDrawList list;
    const std::vector<CounterPoint>& points = track.points;
    if (points.empty() || columns <= 0)
        return list;
    for (const CounterPoint& p : points)
        list.top = std::max(list.top, p.value);
    // The last point at or before the range's start holds at column 0.
    auto it = std::upper_bound(
        points.begin(), points.end(), axis.start, [](TimeNs t, const CounterPoint& p) { return t < p.time; });
    bool hasValue = it != points.begin();
    double current = hasValue ? std::prev(it)->value : 0.0;
    int filled = 0; // columns [0, filled) are done
    if (!hasValue) {
        if (it == points.end() || it->time >= axis.end) {
            list.firstColumn = columns;
            return list;
        }
        list.firstColumn = columnOf(axis, it->time, columns);
        filled = list.firstColumn;
    }
    list.columns.reserve(static_cast<std::size_t>(columns - list.firstColumn));
    const auto column
        = [&](int c) -> CounterColumn& { return list.columns[static_cast<std::size_t>(c - list.firstColumn)]; };
    for (; it != points.end() && it->time < axis.end; ++it) {
        ++list.visited;
        const int c = columnOf(axis, it->time, columns);
        for (; filled <= c; ++filled)
            list.columns.push_back(CounterColumn { current, current, current });
        CounterColumn& col = column(c);
        if (!hasValue) {
            col = CounterColumn { it->value, it->value, it->value };
            hasValue = true;
        }
        col.min = std::min(col.min, it->value);
        col.max = std::max(col.max, it->value);
        col.last = it->value;
        current = it->value;
    }
    for (; filled < columns; ++filled)
        list.columns.push_back(CounterColumn { current, current, current });
    return list;
}

std::vector<std::uint32_t> buildSampleColumns(const ThreadSamples& thread, const TimeAxis& axis, int columns)
{
    std::vector<std::uint32_t> counts(static_cast<std::size_t>(std::max(columns, 0)), 0);
    if (columns <= 0)
        return counts;
    const auto [first, last] = samplesIn(thread, axis.start, axis.end);
    for (std::size_t i = first; i < last; ++i)
        ++counts[static_cast<std::size_t>(columnOf(axis, thread.samples[i].time, columns))];
    return counts;
}

} // namespace gapscope::timeline
