// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/event.h"

#include <vector>

namespace gapscope {

/// Half-open time interval [start, end).
struct Interval {
    TimeNs start = 0;
    TimeNs end = 0;
    TimeNs length() const { return end - start; }
    friend bool operator==(const Interval&, const Interval&) = default;
};

/// A set of disjoint, non-adjacent, non-empty intervals in ascending order.
class IntervalSet {
public:
    IntervalSet() = default;
    /// Builds the union of arbitrary intervals (any order, overlaps allowed; empty ones are dropped).
    static IntervalSet unionOf(std::vector<Interval> intervals);
    /// Adopts intervals that already satisfy the class invariant (sorted, disjoint, non-adjacent, non-empty).
    static IntervalSet fromDisjointSorted(std::vector<Interval> intervals);

    const std::vector<Interval>& intervals() const { return m_intervals; }
    bool empty() const { return m_intervals.empty(); }
    TimeNs totalLength() const;
    bool contains(TimeNs t) const;

    IntervalSet unite(const IntervalSet& other) const;

    IntervalSet intersect(const IntervalSet& other) const;
    /// Parts of `this` not covered by `other`.
    IntervalSet subtract(const IntervalSet& other) const;
    IntervalSet clip(Interval range) const;
    /// Parts of `range` not covered by `this`.
    IntervalSet complement(Interval range) const;

private:
    std::vector<Interval> m_intervals;
};

} // namespace gapscope
