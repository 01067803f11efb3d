// SPDX-License-Identifier: MIT
#pragma once

// Internal to the analysis: the events of several sorted lanes as one sequence in start order.

#include "core/model/trace.h"

#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace gapscope {

/// One event of the merged sequence.
struct MergedEvent {
    TimeNs start;
    const Event* event;
    const Event* laneBegin; // the first event of its lane
    LaneIndex lane;
    std::uint32_t index() const { return static_cast<std::uint32_t>(event - laneBegin); } // within the lane
};

/// A run of one lane's events, [first, last) of `lane`'s vector, to be merged.
struct LaneRun {
    LaneIndex lane;
    const Event* begin; // the lane's first event (for indices)
    const Event* first;
    const Event* last;
};

/// Merges lane runs (each sorted by start) into one sequence sorted by start, handed out in chunks. The merge
/// is a tree of two-way merges shaped by the runs' sizes (the two smallest joined first, as in a Huffman
/// code), so that the events of a busy stream pass through one merge and those of rare streams through a few;
/// each two-way merge picks its next event with a comparison and selects, not a branch, since which stream
/// comes next is what the data decides. Equal starts come in an order the tree's shape decides.
class StartOrderMerge {
public:
    explicit StartOrderMerge(const std::vector<LaneRun>& runs);
    /// The next events in start order; empty once all are handed out. Valid until the next call.
    std::span<const MergedEvent> next();

private:
    struct Node {
        // A leaf reads a run; an inner node merges two nodes.
        LaneRun run {};
        int left = -1;
        int right = -1;
        std::vector<MergedEvent> chunk;
        std::size_t pos = 0; // next unread in `chunk`
        bool done = false; // nothing more will come
    };
    /// Refills node `n`'s chunk (its unread part consumed); sets done when nothing came.
    void refill(int n);
    /// Makes sure node `n` has an unread event, if any remain; false when it has none.
    bool ready(int n);

    std::vector<Node> m_nodes;
    int m_root = -1;
};

/// The same sequence for a few runs, taken one event at a time by comparing the runs' next starts: for the
/// streams beside a device's busiest, which are few and whose events come one or two at a time between the
/// busiest stream's, cheaper than a merge tree. Equal starts come in run order.
class FewRunsMerge {
public:
    static constexpr std::size_t kMaxRuns = 8;
    /// At most kMaxRuns runs.
    explicit FewRunsMerge(const std::vector<LaneRun>& runs);
    /// The start of the next event; TimeNs's maximum once all are taken.
    TimeNs nextStart() const { return m_nextStart; }
    bool done() const { return m_nextStart == kDone; }
    /// The next event and where it lies; then moves past it. Not done().
    [[gnu::always_inline]] MergedEvent take()
    {
        const std::size_t r = m_min;
        const Event* e = m_next[r];
        const MergedEvent out { e->start, e, m_begin[r], m_lane[r] };
        m_next[r] = ++e;
        __builtin_prefetch(e + 8); // each run is read at its own pace: the hardware does not see them all
        m_head[r] = e != m_last[r] ? e->start : kDone;
        findNext();
        return out;
    }

private:
    static constexpr TimeNs kDone = std::numeric_limits<TimeNs>::max();
    /// The run with the earliest next start, the first of equals: a tournament of selects over the heads.
    [[gnu::always_inline]] void findNext()
    {
        // Values and indices carried through the rounds in registers; the right one wins only if earlier.
        TimeNs value[4];
        std::size_t index[4];
#pragma GCC unroll 4
        for (std::size_t i = 0; i < 4; ++i) {
            const bool right = m_head[2 * i + 1] < m_head[2 * i];
            value[i] = right ? m_head[2 * i + 1] : m_head[2 * i];
            index[i] = 2 * i + (right ? 1 : 0);
        }
        const bool lowRight = value[1] < value[0];
        const TimeNs low = lowRight ? value[1] : value[0];
        const std::size_t lowIndex = lowRight ? index[1] : index[0];
        const bool highRight = value[3] < value[2];
        const TimeNs high = highRight ? value[3] : value[2];
        const std::size_t highIndex = highRight ? index[3] : index[2];
        m_min = high < low ? highIndex : lowIndex;
        m_nextStart = high < low ? high : low;
    }

    std::array<TimeNs, kMaxRuns> m_head; // each run's next start, kDone for a run taken in full
    std::array<const Event*, kMaxRuns> m_next {};
    std::array<const Event*, kMaxRuns> m_last {};
    std::array<const Event*, kMaxRuns> m_begin {};
    std::array<LaneIndex, kMaxRuns> m_lane {};
    std::size_t m_min = 0;
    TimeNs m_nextStart = kDone;
};

} // namespace gapscope
