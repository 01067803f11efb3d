// SPDX-License-Identifier: MIT
#include "core/analysis/host_scan.h"

#include "core/analysis/lane_summaries.h"
#include "core/analysis/name_classes.h"

#include <algorithm>

namespace gapscope {

void SyncCallIndex::add(TimeNs start, TimeNs end, EventRef call)
{
    m_calls.push_back({ start, end, call });
}

void SyncCallIndex::finish()
{
    std::sort(m_calls.begin(), m_calls.end(), [](const Call& a, const Call& b) { return a.start < b.start; });
    m_latestEnding.resize(m_calls.size());
    for (std::uint32_t i = 0; i < m_calls.size(); ++i) {
        const bool later = i == 0 || m_calls[i].end > m_calls[m_latestEnding[i - 1]].end;
        m_latestEnding[i] = later ? i : m_latestEnding[i - 1];
    }
}

std::optional<EventRef> SyncCallIndex::runningAt(TimeNs t) const
{
    const auto it = std::partition_point(m_calls.begin(), m_calls.end(), [t](const Call& c) { return c.start < t; });
    if (it == m_calls.begin())
        return std::nullopt;
    const Call& latest = m_calls[m_latestEnding[static_cast<std::size_t>(it - m_calls.begin()) - 1]];
    if (latest.end > t)
        return latest.ref;
    return std::nullopt;
}

HostScan scanHostLanes(
    const Trace& trace, const LaneSummaries& summaries, const NameClasses& names, std::optional<ProcessIndex> only)
{
    HostScan scan;
    const std::size_t processes = trace.processes().size();
    scan.stepRanges.resize(processes);
    scan.syncCalls.resize(processes);
    // The summaries listed the candidates of each lane; only those are read.
    for (std::uint32_t l = 0; l < trace.lanes().size(); ++l) {
        const Lane& lane = trace.lanes()[l];
        if (lane.kind != LaneKind::CpuThread || (only && lane.process != *only))
            continue;
        const std::uint32_t p = lane.process.value;
        for (std::uint32_t i : summaries[LaneIndex { l }].stepCandidates) {
            const Event& e = lane.events[i];
            if (names.isProfilerStep(e.name)
                || ((e.kind == EventKind::NvtxRange || e.kind == EventKind::UserAnnotation)
                    && names.matchesStepPattern(e.name)))
                scan.stepRanges[p].push_back({ LaneIndex { l }, i });
        }
        for (std::uint32_t i : summaries[LaneIndex { l }].syncCalls)
            scan.syncCalls[p].add(lane.events[i].start, lane.events[i].end, { LaneIndex { l }, i });
    }
    for (SyncCallIndex& index : scan.syncCalls)
        index.finish();
    return scan;
}

} // namespace gapscope
