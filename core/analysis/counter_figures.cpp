// SPDX-License-Identifier: MIT
#include "core/analysis/counter_figures.h"

#include <algorithm>

namespace gapscope {

std::optional<CounterFigures> counterFigures(const CounterTrack& track, TimeNs start, TimeNs end)
{
    const auto& points = track.points;
    if (points.empty() || end <= start)
        return std::nullopt;
    // The point in force at `start` (the last at or before it), else the first inside the window.
    auto it
        = std::partition_point(points.begin(), points.end(), [&](const CounterPoint& p) { return p.time <= start; });
    if (it != points.begin())
        --it;
    if (it->time >= end)
        return std::nullopt;
    CounterFigures figures;
    figures.min = figures.max = it->value;
    double weighted = 0.0;
    double plain = 0.0;
    std::size_t seen = 0;
    for (; it != points.end() && it->time < end; ++it) {
        const TimeNs from = std::max(it->time, start);
        const TimeNs to = std::next(it) != points.end() ? std::min(std::next(it)->time, end) : end;
        figures.min = std::min(figures.min, it->value);
        figures.max = std::max(figures.max, it->value);
        if (to > from) {
            weighted += it->value * static_cast<double>(to - from);
            figures.coveredNs += to - from;
        }
        plain += it->value;
        ++seen;
    }
    figures.mean
        = figures.coveredNs > 0 ? weighted / static_cast<double>(figures.coveredNs) : plain / static_cast<double>(seen);
    return figures;
}

} // namespace gapscope
