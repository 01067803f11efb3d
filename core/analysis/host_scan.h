// SPDX-License-Identifier: MIT
#pragma once

// Internal to the analysis: what the analysis needs from host (CPU) lanes, gathered in one pass over them.

#include "core/model/trace.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <vector>

namespace gapscope {

class LaneSummaries;
class NameClasses;

/// A process's synchronizing host calls (cudaDeviceSynchronize, synchronous cudaMemcpy, ...) on all its
/// threads, sorted by start, with the latest-ending call of every prefix: "was a thread inside a
/// synchronizing call at t that began before t" is one binary search.
class SyncCallIndex {
public:
    void add(TimeNs start, TimeNs end, EventRef call);
    /// Sorts and builds the prefix; call once after the last add().
    void finish();
    /// The call that began before `t` and ends latest, if it was still running at `t` (ends after `t`).
    std::optional<EventRef> runningAt(TimeNs t) const;
    /// How far anyRunningAt() has read the calls: for times asked in ascending order, a whole pass costs one
    /// walk over the calls and, per time, two comparisons.
    struct Cursor {
        std::size_t next = 0; // the calls before it began before the times asked so far
        TimeNs nextStart = std::numeric_limits<TimeNs>::min(); // its start (max once all are read)
        TimeNs latestEnd = std::numeric_limits<TimeNs>::min(); // the latest end of the calls before it
    };
    /// Whether some call that began before `t` runs past it; `cursor` (default-constructed at first)
    /// serves times in ascending order.
    bool anyRunningAt(TimeNs t, Cursor& cursor) const
    {
        if (cursor.nextStart < t) [[unlikely]] {
            for (; cursor.next < m_calls.size() && m_calls[cursor.next].start < t; ++cursor.next)
                cursor.latestEnd = std::max(cursor.latestEnd, m_calls[cursor.next].end);
            cursor.nextStart
                = cursor.next < m_calls.size() ? m_calls[cursor.next].start : std::numeric_limits<TimeNs>::max();
        }
        return cursor.latestEnd > t;
    }
    std::size_t size() const { return m_calls.size(); }

private:
    struct Call {
        TimeNs start;
        TimeNs end;
        EventRef ref;
    };
    std::vector<Call> m_calls;
    std::vector<std::uint32_t> m_latestEnding; // index of the latest-ending call among m_calls[0..i]
};

struct HostScan {
    /// Per process: the CPU ranges that define steps (ProfilerStep#N, NVTX ranges matching the step pattern).
    std::vector<std::vector<EventRef>> stepRanges;
    /// Per process.
    std::vector<SyncCallIndex> syncCalls;
};

/// Gathers them for the given process (or all) from the candidates the lane summaries list per host lane
/// (LaneSummary::syncCalls, stepCandidates): the cost of those few events, not of the host lanes. (Launch
/// calls need no scan: Trace::launchOf is a table lookup.)
HostScan scanHostLanes(
    const Trace& trace, const LaneSummaries& summaries, const NameClasses& names, std::optional<ProcessIndex> only);

} // namespace gapscope
