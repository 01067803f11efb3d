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

/// A process's launch calls by correlation id: one load per lookup where Trace::launchOf binary-searches
/// every correlated event of the trace. Worth its one pass over the host events when there are many gaps
/// to explain (a real trace has about one per GPU op).
class LaunchTable {
public:
    /// Ids at or above `limit` are not stored (lookups of those fall back to Trace::launchOf), so that a
    /// trace with huge, sparse ids cannot make the table huge.
    explicit LaunchTable(std::uint32_t limit = 0)
        : m_limit(limit)
    { }
    void add(const Trace& trace, std::uint32_t correlation, EventRef call);
    /// Same answer as trace.launchOf(gpuOp) (the earliest-starting call with the op's id).
    std::optional<EventRef> launchOf(const Trace& trace, EventRef gpuOp) const;

private:
    static constexpr std::uint32_t kAbsent = 0xffffffffu;
    std::vector<EventRef> m_byCorrelation; // lane kAbsent: no call with that id
    std::uint32_t m_limit = 0;
};

struct HostScan {
    /// Per process: the CPU ranges that define steps (ProfilerStep#N, NVTX ranges matching the step pattern).
    std::vector<std::vector<EventRef>> stepRanges;
    /// Per process.
    std::vector<SyncCallIndex> syncCalls;
    /// Per process; empty when the scan was not asked to build them.
    std::vector<LaunchTable> launches;
};

/// Reads the host lanes of the given process (or all) once. Without `withLaunchTables`, skips the read when
/// no name in the trace can be a step or a synchronizing call.
HostScan scanHostLanes(
    const Trace& trace, const NameClasses& names, std::optional<ProcessIndex> only, bool withLaunchTables = false);

} // namespace gapscope
