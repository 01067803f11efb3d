// SPDX-License-Identifier: MIT
#include "core/analysis/gap_finder.h"
#include "core/model/time_format.h"

#include <algorithm>
#include <charconv>

namespace gapscope {

namespace {

void appendInteger(std::string& out, long long value)
{
    char buffer[24];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, end);
}

void appendDuration(std::string& out, TimeNs ns)
{
    out += formatDuration(ns);
}

/// "+12.0 µs", "-2.10 ms": a time relative to the gap start.
void appendOffset(std::string& out, TimeNs ns)
{
    out += ns < 0 ? '-' : '+';
    appendDuration(out, ns < 0 ? -ns : ns);
}

void appendName(std::string& out, std::string_view name)
{
    constexpr std::size_t kMax = 60;
    if (name.size() <= kMax) {
        out += name;
    } else {
        out += name.substr(0, kMax);
        out += "…";
    }
}

/// "cudaLaunchKernel on thread 1234"
void appendCall(std::string& out, const Trace& trace, EventRef call)
{
    out += trace.name(trace.event(call));
    out += " on thread ";
    appendInteger(out, trace.lanes[call.lane.value].tid);
}

} // namespace

GapClassifier::GapClassifier(const Trace& trace, const std::vector<SyncCallIndex>& syncCalls,
    const std::vector<LaunchTable>& launches, TimeNs launchThresholdNs)
    : m_trace(trace)
    , m_syncCalls(syncCalls)
    , m_launches(launches)
    , m_launchThresholdNs(launchThresholdNs)
{ }

std::optional<EventRef> GapClassifier::hostRangeCovering(LaneIndex laneIndex, TimeNs start, TimeNs end) const
{
    // A range that covers more than half of [start, end) contains its midpoint, so the candidates are the
    // ranges open at the midpoint. Walking back from the last range starting at or before it, those come
    // innermost first (ranges on a thread nest); the first that covers more than half is the answer. The
    // walk stops where the prefix maximum of ends shows that no earlier range reaches the midpoint.
    const Lane& lane = m_trace.lanes[laneIndex.value];
    const TimeNs length = end - start;
    const TimeNs mid = start + length / 2;
    const auto& events = lane.events;
    std::size_t i = static_cast<std::size_t>(std::partition_point(events.begin(), events.end(), [mid](const Event& e) {
        return e.start <= mid;
    }) - events.begin());
    while (i-- > 0) {
        if (lane.maxEndPrefix.size() == events.size() && lane.maxEndPrefix[i] <= mid)
            break;
        const Event& e = events[i];
        if (e.end <= mid || e.kind == EventKind::NvtxMark || e.end <= e.start)
            continue;
        const TimeNs overlap = std::min(e.end, end) - std::max(e.start, start);
        if (2 * overlap > length)
            return EventRef { laneIndex, static_cast<std::uint32_t>(i) };
    }
    return std::nullopt;
}

void GapClassifier::classify(Gap& gap) const
{
    GapEvidence& evidence = gap.evidence;
    gap.cause = GapCause::Unknown;
    if (!evidence.closingOp)
        return;
    const std::uint32_t process = gap.process.value;
    evidence.launch = process < m_launches.size() ? m_launches[process].launchOf(m_trace, *evidence.closingOp)
                                                  : m_trace.launchOf(*evidence.closingOp);
    if (!evidence.launch)
        return;
    if (process < m_syncCalls.size()) {
        if (const auto sync = m_syncCalls[process].runningAt(gap.start)) {
            gap.cause = GapCause::Sync;
            evidence.syncCall = sync;
            return;
        }
    }
    if (m_trace.event(*evidence.launch).start >= gap.start) {
        gap.cause = GapCause::Host;
        evidence.hostRange = hostRangeCovering(evidence.launch->lane, gap.start, gap.end);
        return;
    }
    gap.cause = gap.duration() <= m_launchThresholdNs ? GapCause::Launch : GapCause::Dependency;
}

std::string describeGap(const Trace& trace, const Gap& gap, TimeNs launchThresholdNs)
{
    const GapEvidence& evidence = gap.evidence;
    const TimeNs g0 = gap.start;
    std::string out;
    out.reserve(160);
    if (!evidence.closingOp)
        return "no GPU activity after the gap: nothing to say why it is idle";
    if (!evidence.launch) {
        out += "'";
        appendName(out, trace.name(trace.event(*evidence.closingOp)));
        out += "' after the gap has no launch call in the trace";
        return out;
    }
    const Event& launch = trace.event(*evidence.launch);
    switch (gap.cause) {
    case GapCause::Sync:
        if (evidence.syncCall) {
            const Event& call = trace.event(*evidence.syncCall);
            appendCall(out, trace, *evidence.syncCall);
            out += " from ";
            appendOffset(out, call.start - g0);
            out += " to ";
            appendOffset(out, call.end - g0);
            out += "; next op launched by ";
            appendCall(out, trace, *evidence.launch);
            out += " at ";
            appendOffset(out, launch.start - g0);
        }
        return out;
    case GapCause::Host:
        appendCall(out, trace, *evidence.launch);
        out += " began at ";
        appendOffset(out, launch.start - g0);
        out += " into a ";
        appendDuration(out, gap.duration());
        out += " gap";
        if (evidence.hostRange) {
            const Event& range = trace.event(*evidence.hostRange);
            out += "; the thread was in '";
            appendName(out, trace.name(range));
            out += "' from ";
            appendOffset(out, range.start - g0);
            out += " to ";
            appendOffset(out, range.end - g0);
        } else {
            out += "; no range on that thread covers most of the gap";
        }
        return out;
    case GapCause::Launch:
    case GapCause::Dependency:
    case GapCause::Unknown: {
        const bool within = gap.duration() <= launchThresholdNs;
        appendCall(out, trace, *evidence.launch);
        out += " began at ";
        appendOffset(out, launch.start - g0);
        out += ", before the gap; gap ";
        appendDuration(out, gap.duration());
        out += within ? " <= " : " > ";
        appendDuration(out, launchThresholdNs);
        out += " launch threshold";
        if (!within)
            out += ": the op waited on something else";
        return out;
    }
    }
    return out;
}

} // namespace gapscope
