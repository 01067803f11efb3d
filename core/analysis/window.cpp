// SPDX-License-Identifier: MIT
#include "core/analysis/analysis.h"
#include "core/analysis/busy_spans.h"

#include <algorithm>

namespace gapscope {

TimeNs Window::start() const
{
    return ranges.empty() ? 0 : ranges.intervals().front().start;
}

TimeNs Window::end() const
{
    return ranges.empty() ? 0 : ranges.intervals().back().end;
}

TimeNs Window::length() const
{
    return ranges.totalLength();
}

std::string_view windowKindName(WindowKind kind)
{
    switch (kind) {
    case WindowKind::Gpu:
        return "gpu";
    case WindowKind::Trace:
        return "trace";
    case WindowKind::Steps:
        return "steps";
    case WindowKind::Explicit:
        return "explicit";
    }
    return "gpu";
}

std::string_view activitySetName(ActivitySet set)
{
    return set == ActivitySet::Kernels ? "kernels" : "all";
}

std::string_view gapCauseName(GapCause cause)
{
    switch (cause) {
    case GapCause::Sync:
        return "sync";
    case GapCause::Host:
        return "host";
    case GapCause::Launch:
        return "launch";
    case GapCause::Dependency:
        return "dependency";
    case GapCause::Unknown:
        return "unknown";
    }
    return "unknown";
}

namespace {

/// [first start, last end) over every lane of the process, GPU streams of its devices included.
std::optional<Interval> processEventExtent(const Trace& trace, ProcessIndex process)
{
    std::optional<Interval> extent;
    for (const Lane& lane : trace.lanes()) {
        if (lane.process != process || lane.events.empty())
            continue;
        const TimeNs first = lane.events.front().start;
        const TimeNs last = lane.maxEndPrefix.back();
        extent = extent ? Interval { std::min(extent->start, first), std::max(extent->end, last) }
                        : Interval { first, last };
    }
    return extent;
}

Window singleRange(WindowKind kind, std::optional<Interval> range)
{
    Window window;
    window.kind = kind;
    if (range && range->end > range->start)
        window.ranges = IntervalSet::fromDisjointSorted({ *range });
    return window;
}

} // namespace

Window computeWindow(const Trace& trace, ProcessIndex process, const WindowSpec& spec, ActivitySet activity,
    const std::vector<Step>& steps)
{
    switch (spec.kind) {
    case WindowKind::Gpu: {
        std::optional<Interval> extent;
        for (std::uint32_t d = 0; d < trace.devices().size(); ++d) {
            if (trace.devices()[d].process != process)
                continue;
            if (const auto e = activityExtent(trace, DeviceIndex { d }, activity))
                extent = extent ? Interval { std::min(extent->start, e->start), std::max(extent->end, e->end) } : *e;
        }
        return singleRange(WindowKind::Gpu, extent);
    }
    case WindowKind::Trace:
        return singleRange(WindowKind::Trace, processEventExtent(trace, process));
    case WindowKind::Steps: {
        // One range from the start of the first counted step to the end of the last step: pauses between
        // steps are inside it and count as idle, as in the TensorBoard plugin's "all steps time".
        std::optional<Interval> range;
        for (const Step& step : steps) {
            if (step.process != process || step.warmup)
                continue;
            range = range ? Interval { std::min(range->start, step.start), std::max(range->end, step.end) }
                          : Interval { step.start, step.end };
        }
        return singleRange(WindowKind::Steps, range);
    }
    case WindowKind::Explicit:
        return singleRange(WindowKind::Explicit, Interval { spec.explicitStart, spec.explicitEnd });
    }
    return {};
}

} // namespace gapscope
