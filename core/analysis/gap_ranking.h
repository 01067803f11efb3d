// SPDX-License-Identifier: MIT
#pragma once

// Internal to the analysis: the longest of a sequence of gaps, kept as they go by.

#include "core/model/trace.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

namespace gapscope {

/// A gap in a ranking of the longest: its duration and its index in its list.
struct RankedGap {
    TimeNs duration;
    std::size_t index;
};
/// The order of longestGaps(): longer first, equal durations in list order.
inline bool rankedBefore(const RankedGap& a, const RankedGap& b)
{
    return a.duration != b.duration ? a.duration > b.duration : a.index < b.index;
}

/// Keeps the `capacity` gaps that come first (rankedBefore) of those offered in ascending index order, in a
/// heap whose top is the kept one that comes last: a new gap, which comes after every kept one of its length,
/// replaces it only if it is strictly longer. Once full, an offer is one comparison.
class GapRanking {
public:
    explicit GapRanking(std::size_t capacity)
        : m_capacity(capacity)
        , m_threshold(capacity == 0 ? std::numeric_limits<TimeNs>::max() : std::numeric_limits<TimeNs>::min())
    { }
    void reserve(std::size_t gaps) { m_heap.reserve(std::min(m_capacity, gaps)); }
    void offer(RankedGap gap)
    {
        if (gap.duration > m_threshold) [[unlikely]]
            insert(gap);
    }
    /// The kept gaps, in no particular order.
    const std::vector<RankedGap>& kept() const { return m_heap; }
    /// The kept gaps, first first.
    std::vector<RankedGap> sorted() const
    {
        std::vector<RankedGap> out = m_heap;
        std::sort_heap(out.begin(), out.end(), rankedBefore);
        return out;
    }

private:
    void insert(RankedGap gap)
    {
        if (m_heap.size() < m_capacity) {
            m_heap.push_back(gap);
            std::push_heap(m_heap.begin(), m_heap.end(), rankedBefore);
        } else {
            std::pop_heap(m_heap.begin(), m_heap.end(), rankedBefore);
            m_heap.back() = gap;
            std::push_heap(m_heap.begin(), m_heap.end(), rankedBefore);
        }
        if (m_heap.size() == m_capacity)
            m_threshold = m_heap.front().duration;
    }

    std::size_t m_capacity;
    /// Gaps longer than this get in: every gap until the ranking is full (none without room).
    TimeNs m_threshold;
    std::vector<RankedGap> m_heap;
};

} // namespace gapscope
