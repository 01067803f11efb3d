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

/// The GapEvidence::summary line.
std::string summaryOf(const Trace& trace, const Gap& gap, const GapEvidence& evidence, TimeNs launchThresholdNs);

/// The innermost range on the lane that covers more than half of [start, end).
std::optional<EventRef> hostRangeCovering(const Trace& trace, LaneIndex laneIndex, TimeNs start, TimeNs end)
{
    // A range that covers more than half of [start, end) contains its midpoint, so the candidates are the
    // ranges open at the midpoint. Walking back from the last range starting at or before it, those come
    // innermost first (ranges on a thread nest); the first that covers more than half is the answer. The
    // walk stops where the prefix maximum of ends shows that no earlier range reaches the midpoint.
    const Lane& lane = trace.lanes[laneIndex.value];
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

/// The synchronizing API call of the process that began before `t` and ends latest, if it runs past `t`:
/// what SyncCallIndex::runningAt answers, found by walking back over the calls open at `t` on each thread.
/// Ties go to the earlier start, then to the lower lane and index.
std::optional<EventRef> syncCallRunningAt(const Trace& trace, ProcessIndex process, TimeNs t)
{
    std::optional<EventRef> best;
    const Event* bestEvent = nullptr;
    for (std::uint32_t l = 0; l < trace.lanes.size(); ++l) {
        const Lane& lane = trace.lanes[l];
        if (lane.kind != LaneKind::CpuThread || lane.process != process)
            continue;
        const auto& events = lane.events;
        std::size_t i = static_cast<std::size_t>(
            std::partition_point(events.begin(), events.end(), [t](const Event& e) { return e.start < t; })
            - events.begin());
        while (i-- > 0) {
            if (lane.maxEndPrefix.size() == events.size() && lane.maxEndPrefix[i] <= t)
                break;
            const Event& e = events[i];
            if (e.end <= t || (e.kind != EventKind::RuntimeApi && e.kind != EventKind::DriverApi)
                || !isSynchronizingCall(trace.name(e)))
                continue;
            if (!bestEvent || e.end > bestEvent->end || (e.end == bestEvent->end && e.start <= bestEvent->start)) {
                best = EventRef { LaneIndex { l }, static_cast<std::uint32_t>(i) };
                bestEvent = &e;
            }
        }
    }
    return best;
}

} // namespace

GapClassifier::GapClassifier(const Trace& trace, const std::vector<SyncCallIndex>& syncCalls, TimeNs launchThresholdNs)
    : m_trace(trace)
    , m_syncCalls(syncCalls)
    , m_launchThresholdNs(launchThresholdNs)
{ }

GapClassifier::Context GapClassifier::context(ProcessIndex process) const
{
    Context context;
    context.process = process;
    context.launches = m_trace.launchStartTable(process);
    if (process.value < m_syncCalls.size() && m_syncCalls[process.value].size() > 0)
        context.syncCalls = &m_syncCalls[process.value];
    return context;
}

GapEvidence gapEvidence(const Trace& trace, const Gap& gap, TimeNs launchThresholdNs)
{
    GapEvidence evidence;
    evidence.closingOp = gap.closingOp;
    if (gap.closingOp)
        evidence.launch = trace.launchOf(*gap.closingOp);
    if (evidence.launch && gap.cause == GapCause::Sync)
        evidence.syncCall = syncCallRunningAt(trace, gap.process, gap.start);
    if (evidence.launch && gap.cause == GapCause::Host)
        evidence.hostRange = hostRangeCovering(trace, evidence.launch->lane, gap.start, gap.end);
    evidence.summary = summaryOf(trace, gap, evidence, launchThresholdNs);
    return evidence;
}

std::string describeGap(const Trace& trace, const Gap& gap, TimeNs launchThresholdNs)
{
    return gapEvidence(trace, gap, launchThresholdNs).summary;
}

namespace {

std::string summaryOf(const Trace& trace, const Gap& gap, const GapEvidence& evidence, TimeNs launchThresholdNs)
{
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

} // namespace

} // namespace gapscope
