// SPDX-License-Identifier: MIT
#pragma once

// Internal to the analysis: what the analysis needs from host (CPU) lanes, gathered in one pass over them.

#include "core/model/trace.h"

#include <optional>
#include <vector>

namespace gapscope {

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
    /// Whether some call that began before `t` runs past it. `cursor` (0 at first) remembers how far the
    /// calls were read: for times asked in ascending order, a whole pass costs one walk over the calls.
    bool anyRunningAt(TimeNs t, std::size_t& cursor) const
    {
        while (cursor < m_calls.size() && m_calls[cursor].start < t)
            ++cursor;
        return cursor > 0 && m_calls[m_latestEnding[cursor - 1]].end > t;
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

/// Gathers them for the given process (or all) from the candidates Trace::finalize() listed per host lane
/// (Lane::syncCalls, Lane::stepCandidates): the cost of those few events, not of the host lanes. (Launch
/// calls need no scan: Trace::launchOf is a table lookup.)
HostScan scanHostLanes(const Trace& trace, const NameClasses& names, std::optional<ProcessIndex> only);

} // namespace gapscope
