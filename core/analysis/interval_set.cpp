// SPDX-License-Identifier: MIT
#include "core/analysis/interval_set.h"

#include <algorithm>

namespace gapscope {

IntervalSet IntervalSet::unionOf(std::vector<Interval> intervals)
{
    std::erase_if(intervals, [](const Interval& i) { return i.end <= i.start; });
    if (!std::is_sorted(
            intervals.begin(), intervals.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; }))
        std::sort(
            intervals.begin(), intervals.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
    // Merge in place: touching intervals ([a, b) and [b, c)) become one, so the result is non-adjacent.
    std::size_t out = 0;
    for (std::size_t i = 0; i < intervals.size(); ++i) {
        if (out > 0 && intervals[i].start <= intervals[out - 1].end)
            intervals[out - 1].end = std::max(intervals[out - 1].end, intervals[i].end);
        else
            intervals[out++] = intervals[i];
    }
    intervals.resize(out);
    IntervalSet set;
    set.m_intervals = std::move(intervals);
    return set;
}

IntervalSet IntervalSet::fromDisjointSorted(std::vector<Interval> intervals)
{
    IntervalSet set;
    set.m_intervals = std::move(intervals);
    return set;
}

TimeNs IntervalSet::totalLength() const
{
    TimeNs total = 0;
    for (const Interval& i : m_intervals)
        total += i.length();
    return total;
}

bool IntervalSet::contains(TimeNs t) const
{
    const auto it = std::upper_bound(
        m_intervals.begin(), m_intervals.end(), t, [](TimeNs value, const Interval& i) { return value < i.end; });
    return it != m_intervals.end() && it->start <= t;
}

IntervalSet IntervalSet::unite(const IntervalSet& other) const
{
    std::vector<Interval> merged;
    merged.reserve(m_intervals.size() + other.m_intervals.size());
    std::merge(m_intervals.begin(), m_intervals.end(), other.m_intervals.begin(), other.m_intervals.end(),
        std::back_inserter(merged), [](const Interval& a, const Interval& b) { return a.start < b.start; });
    return unionOf(std::move(merged));
}

IntervalSet IntervalSet::intersect(const IntervalSet& other) const
{
    IntervalSet result;
    auto a = m_intervals.begin();
    auto b = other.m_intervals.begin();
    while (a != m_intervals.end() && b != other.m_intervals.end()) {
        const TimeNs start = std::max(a->start, b->start);
        const TimeNs end = std::min(a->end, b->end);
        if (start < end)
            result.m_intervals.push_back({ start, end });
        // Advance whichever ends first; the other may still overlap the next one.
        if (a->end < b->end)
            ++a;
        else
            ++b;
    }
    return result;
}

IntervalSet IntervalSet::subtract(const IntervalSet& other) const
{
    IntervalSet result;
    auto b = other.m_intervals.begin();
    for (const Interval& a : m_intervals) {
        TimeNs cursor = a.start;
        // Skip the subtrahends that end before this interval.
        while (b != other.m_intervals.end() && b->end <= cursor)
            ++b;
        auto c = b;
        while (c != other.m_intervals.end() && c->start < a.end) {
            if (c->start > cursor)
                result.m_intervals.push_back({ cursor, c->start });
            cursor = std::max(cursor, c->end);
            if (c->end > a.end)
                break; // c also covers the start of the next interval: keep it for that one
            ++c;
        }
        b = c;
        if (cursor < a.end)
            result.m_intervals.push_back({ cursor, a.end });
    }
    return result;
}

IntervalSet IntervalSet::clip(Interval range) const
{
    IntervalSet result;
    if (range.end <= range.start)
        return result;
    auto it = std::upper_bound(m_intervals.begin(), m_intervals.end(), range.start,
        [](TimeNs value, const Interval& i) { return value < i.end; });
    for (; it != m_intervals.end() && it->start < range.end; ++it)
        result.m_intervals.push_back({ std::max(it->start, range.start), std::min(it->end, range.end) });
    return result;
}

IntervalSet IntervalSet::complement(Interval range) const
{
    if (range.end <= range.start)
        return {};
    return IntervalSet::fromDisjointSorted({ range }).subtract(*this).clip(range);
}

} // namespace gapscope
