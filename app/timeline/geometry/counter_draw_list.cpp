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

CounterSummary CounterSummary::build(const CounterTrack& track)
{
    CounterSummary summary;
    const std::vector<CounterPoint>& points = track.points;
    summary.blocks.reserve((points.size() + kCounterBlock - 1) / kCounterBlock);
    for (std::size_t b = 0; b < points.size(); b += kCounterBlock) {
        std::pair<double, double> range { points[b].value, points[b].value };
        for (std::size_t i = b + 1; i < std::min(points.size(), b + kCounterBlock); ++i) {
            range.first = std::min(range.first, points[i].value);
            range.second = std::max(range.second, points[i].value);
        }
        summary.top = std::max(summary.top, range.second);
        summary.blocks.push_back(range);
    }
    return summary;
}

CounterDrawList buildCounterDrawList(
    const CounterTrack& track, const CounterSummary& summary, const TimeAxis& axis, int columns)
{
    CounterDrawList list;
    list.top = summary.top;
    const std::vector<CounterPoint>& points = track.points;
    if (points.empty() || columns <= 0)
        return list;
    const auto after = [](TimeNs t, const CounterPoint& p) { return t < p.time; };
    const auto before = [](const CounterPoint& p, TimeNs t) { return p.time < t; };
    // The last point at or before the range's start holds at column 0.
    std::size_t i
        = static_cast<std::size_t>(std::upper_bound(points.begin(), points.end(), axis.start, after) - points.begin());
    bool hasValue = i > 0;
    double current = hasValue ? points[i - 1].value : 0.0;
    int filled = 0; // columns [0, filled) are done
    if (!hasValue) {
        if (i == points.size() || points[i].time >= axis.end) {
            list.firstColumn = columns;
            return list;
        }
        list.firstColumn = columnOf(axis, points[i].time, columns);
        filled = list.firstColumn;
    }
    list.columns.reserve(static_cast<std::size_t>(columns - list.firstColumn));
    while (i < points.size() && points[i].time < axis.end) {
        const int c = columnOf(axis, points[i].time, columns);
        for (; filled <= c; ++filled)
            list.columns.push_back(CounterColumn { current, current, current });
        CounterColumn& col = list.columns[static_cast<std::size_t>(c - list.firstColumn)];
        if (!hasValue) {
            col = CounterColumn { points[i].value, points[i].value, points[i].value };
            hasValue = true;
        }
        // Points [i, j) lie in this column: whole blocks by their summary, the rest one by one.
        const TimeNs boundary = c + 1 >= columns ? axis.end : std::max(axis.xToTime(c + 1), points[i].time + 1);
        const std::size_t j = static_cast<std::size_t>(
            std::lower_bound(points.begin() + static_cast<std::ptrdiff_t>(i), points.end(), boundary, before)
            - points.begin());
        while (i < j) {
            if (i % kCounterBlock == 0 && i + kCounterBlock <= j && i / kCounterBlock < summary.blocks.size()) {
                const auto& [low, high] = summary.blocks[i / kCounterBlock];
                col.min = std::min(col.min, low);
                col.max = std::max(col.max, high);
                i += kCounterBlock;
            } else {
                col.min = std::min(col.min, points[i].value);
                col.max = std::max(col.max, points[i].value);
                ++i;
            }
            ++list.visited;
        }
        col.last = current = points[j - 1].value;
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
