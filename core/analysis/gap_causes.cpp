// SPDX-License-Identifier: MIT
#include "core/analysis/gap_evidence.h"
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
    appendInteger(out, trace.lanes()[call.lane.value].tid);
}

/// "; the launching thread was sampled 12 times in this gap: read_input (libfoo.so) 8 self / 10 total, ...":
/// the three functions with the most self samples.
void appendSamples(std::string& out, const Trace& trace, const GapEvidence::Samples& samples)
{
    out += "; the launching thread was sampled ";
    appendInteger(out, samples.count);
    out += samples.count == 1 ? " time in this gap" : " times in this gap";
    constexpr std::size_t kNamed = 3;
    for (std::size_t i = 0; i < samples.top.size() && i < kNamed; ++i) {
        const SampledFunction& f = samples.top[i];
        out += i == 0 ? ": " : ", ";
        appendName(out, trace.strings().view(f.frame.function));
        if (const std::string_view module = trace.strings().view(f.frame.module); !module.empty()) {
            out += " (";
            appendName(out, module.substr(module.rfind('/') + 1));
            out += ")";
        }
        out += " ";
        appendInteger(out, f.self);
        out += " self / ";
        appendInteger(out, f.total);
        out += " total";
    }
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

namespace {

/// The summary of what the cause's rule found.
std::string causeSummary(const Trace& trace, const Gap& gap, const GapEvidence& evidence, TimeNs launchThresholdNs)
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
        if (evidence.samples)
            appendSamples(out, trace, *evidence.samples);
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
        if (evidence.samples)
            appendSamples(out, trace, *evidence.samples);
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
        if (within)
            return out;
        // Name what the op waited on where the trace shows it.
        out += ": the op waited on ";
        if (const std::string_view op = trace.name(trace.event(*evidence.closingOp)); isCommunicationKernel(op)) {
            out += "the collective '";
            appendName(out, op);
            out += "', which starts when every rank has joined";
        } else if (evidence.awaitedWait) {
            out += "the event of ";
            appendCall(out, trace, *evidence.awaitedWait);
            out += " issued ";
            appendDuration(out, launch.start - trace.event(*evidence.awaitedWait).start);
            out += " before the launch";
        } else if (const std::string streams = gap.stream ? busyOtherStreams(trace, gap) : std::string();
                   !streams.empty()) {
            out += "stream(s) " + streams + " of the same GPU, busy during the gap";
        } else {
            out += "something the trace does not show (an event, another stream or device)";
        }
        return out;
    }
    }
    return out;
}

} // namespace

std::string gapEvidenceSummary(
    const Trace& trace, const Gap& gap, const GapEvidence& evidence, TimeNs launchThresholdNs)
{
    std::string out = causeSummary(trace, gap, evidence, launchThresholdNs);
    if (evidence.memoryChange) {
        // The caching allocator's cudaMalloc and cudaFree synchronize the device: a classic cause of a gap.
        const CounterTrack& track = trace.counters().tracks()[evidence.memoryChange->track];
        const std::uint32_t i = evidence.memoryChange->point;
        const double before = i > 0 ? track.points[i - 1].value : 0.0;
        const auto delta = static_cast<long long>(track.points[i].value - before);
        out += out.empty() ? "" : "; ";
        out += delta < 0 ? "a free of " : "an allocation of ";
        appendInteger(out, delta < 0 ? -delta : delta);
        out += " bytes on the device at ";
        appendOffset(out, track.points[i].time - gap.start);
        out += " (cudaMalloc/cudaFree synchronize)";
    }
    return out;
}

} // namespace gapscope
