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

/// The same sequence for a few runs, taken one event at a time by comparing the runs' next starts: for the
/// streams beside a device's busiest, which are few and whose events come one or two at a time between the
/// busiest stream's. Measured: the 10 M-event pass alone, one thread, 136-140 -> 124-125 ms against a merge
/// tree; replaying only three matches per event, 1.04 G -> 0.99 G instructions, 6.8 M -> 5.1 M
/// mispredicted branches. The runs' next starts are the leaves of a tournament of
/// eight whose every match keeps its winner: taking an event replays only the three matches on its run's
/// way up, each a comparison and a select. Equal starts come in run order (the left one wins a tie).
class FewRunsMerge {
public:
    static constexpr std::size_t kMaxRuns = 8;
    /// At most kMaxRuns runs.
    explicit FewRunsMerge(const std::vector<LaneRun>& runs);
    /// The start of the next event; TimeNs's maximum once all are taken.
    TimeNs nextStart() const { return m_head[m_winner]; }
    bool done() const { return nextStart() == kDone; }
    /// The next event and where it lies; then moves past it. Not done().
    [[gnu::always_inline]] MergedEvent take()
    {
        const std::size_t r = m_winner;
        const Event* e = m_next[r];
        const MergedEvent out { e->start, e, m_begin[r], m_lane[r] };
        m_next[r] = ++e;
        __builtin_prefetch(e + 8); // each run is read at its own pace: the hardware does not see them all
        m_head[r] = e != m_last[r] ? e->start : kDone;
        replay(r);
        return out;
    }

private:
    static constexpr TimeNs kDone = std::numeric_limits<TimeNs>::max();
    /// The winner of two runs: the right one only if it starts earlier.
    [[gnu::always_inline]] std::uint8_t match(std::uint8_t left, std::uint8_t right) const
    {
        return m_head[right] < m_head[left] ? right : left;
    }
    /// Replays the matches on run r's way up.
    [[gnu::always_inline]] void replay(std::size_t r)
    {
        const std::size_t pair = r >> 1;
        m_pairs[pair] = match(static_cast<std::uint8_t>(2 * pair), static_cast<std::uint8_t>(2 * pair + 1));
        const std::size_t half = pair >> 1;
        m_halves[half] = match(m_pairs[2 * half], m_pairs[2 * half + 1]);
        m_winner = match(m_halves[0], m_halves[1]);
    }

    std::array<TimeNs, kMaxRuns> m_head; // each run's next start, kDone for a run taken in full
    std::array<const Event*, kMaxRuns> m_next {};
    std::array<const Event*, kMaxRuns> m_last {};
    std::array<const Event*, kMaxRuns> m_begin {};
    std::array<LaneIndex, kMaxRuns> m_lane {};
    std::array<std::uint8_t, kMaxRuns / 2> m_pairs {}; // winners of runs 0-1, 2-3, 4-5, 6-7
    std::array<std::uint8_t, kMaxRuns / 4> m_halves {}; // winners of runs 0-3, 4-7
    std::uint8_t m_winner = 0;
};

/// The same sequence for any number of runs (a device with more streams beside its busiest than FewRunsMerge
/// takes, which is rare): a binary heap of the runs' next starts (std::push_heap, std::pop_heap). Equal starts
/// come in run order.
class HeapMerge {
public:
    explicit HeapMerge(const std::vector<LaneRun>& runs);
    /// The start of the next event; TimeNs's maximum once all are taken.
    TimeNs nextStart() const { return m_heap.empty() ? std::numeric_limits<TimeNs>::max() : m_heap.front().start; }
    bool done() const { return m_heap.empty(); }
    /// The next event and where it lies; then moves past it. Not done().
    MergedEvent take();

private:
    struct Head {
        TimeNs start;
        std::uint32_t run;
    };
    /// The heap's order: std's heaps keep the greatest first, so the later start (then the later run) is "less".
    static bool later(const Head& a, const Head& b) { return a.start != b.start ? a.start > b.start : a.run > b.run; }

    std::vector<LaneRun> m_runs; // each run's `first`: its next event
    std::vector<Head> m_heap;
};

} // namespace gapscope
