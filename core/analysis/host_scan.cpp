// SPDX-License-Identifier: MIT
#include "core/analysis/host_scan.h"

#include "core/analysis/name_classes.h"

#include <algorithm>
#include <limits>

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

void LaunchTable::add(const Trace& trace, std::uint32_t correlation, EventRef call)
{
    if (correlation >= m_limit)
        return;
    if (correlation >= m_byCorrelation.size()) {
        // Reserved up to the limit once: growing never copies, and pages are touched only as ids reach them.
        if (m_byCorrelation.capacity() < m_limit)
            m_byCorrelation.reserve(m_limit);
        m_byCorrelation.resize(correlation + 1, EventRef { LaneIndex { kAbsent }, 0 });
    }
    EventRef& entry = m_byCorrelation[correlation];
    // Several calls with one id (rare): keep the earliest, as Trace::launchOf does.
    if (entry.lane.value == kAbsent || trace.event(call).start < trace.event(entry).start)
        entry = call;
}

std::optional<EventRef> LaunchTable::launchOf(const Trace& trace, EventRef gpuOp) const
{
    const std::uint32_t correlation = trace.event(gpuOp).correlation;
    if (correlation == 0)
        return std::nullopt;
    if (correlation >= m_limit)
        return trace.launchOf(gpuOp);
    if (correlation >= m_byCorrelation.size() || m_byCorrelation[correlation].lane.value == kAbsent)
        return std::nullopt;
    return m_byCorrelation[correlation];
}

HostScan scanHostLanes(
    const Trace& trace, const NameClasses& names, std::optional<ProcessIndex> only, bool withLaunchTables)
{
    HostScan scan;
    const std::size_t processes = trace.processes.size();
    scan.stepRanges.resize(processes);
    scan.syncCalls.resize(processes);
    if (withLaunchTables) {
        // Correlation ids count calls, so a process's ids stay below a small multiple of its host events.
        std::vector<std::size_t> hostEvents(processes, 0);
        for (const Lane& lane : trace.lanes) {
            if (lane.kind == LaneKind::CpuThread)
                hostEvents[lane.process.value] += lane.events.size();
        }
        for (std::size_t p = 0; p < processes; ++p)
            scan.launches.emplace_back(static_cast<std::uint32_t>(
                std::min<std::size_t>(4 * hostEvents[p] + 65536, std::numeric_limits<std::uint32_t>::max())));
    }
    if (names.anyHostInterest() || withLaunchTables) {
        for (std::uint32_t l = 0; l < trace.lanes.size(); ++l) {
            const Lane& lane = trace.lanes[l];
            if (lane.kind != LaneKind::CpuThread || (only && lane.process != *only))
                continue;
            const std::uint32_t p = lane.process.value;
            LaunchTable* launches = withLaunchTables ? &scan.launches[p] : nullptr;
            for (std::uint32_t i = 0; i < lane.events.size(); ++i) {
                const Event& e = lane.events[i];
                const bool api = e.kind == EventKind::RuntimeApi || e.kind == EventKind::DriverApi;
                if (launches && api && e.correlation != 0)
                    launches->add(trace, e.correlation, { LaneIndex { l }, i });
                if (!names.isHostInterest(e.name))
                    continue;
                const EventRef ref { LaneIndex { l }, i };
                if (names.isProfilerStep(e.name)
                    || ((e.kind == EventKind::NvtxRange || e.kind == EventKind::UserAnnotation)
                        && names.matchesStepPattern(e.name)))
                    scan.stepRanges[p].push_back(ref);
                else if (api && names.isSynchronizing(e.name))
                    scan.syncCalls[p].add(e.start, e.end, ref);
            }
        }
    }
    for (SyncCallIndex& index : scan.syncCalls)
        index.finish();
    return scan;
}

} // namespace gapscope
