// SPDX-License-Identifier: MIT
#include "core/analysis/busy_spans.h"

#include "core/analysis/device_pass.h"
#include "core/analysis/name_classes.h"

#include <algorithm>
#include <limits>

namespace gapscope {

std::vector<LaneIndex> streamLanesOf(const Trace& trace, DeviceIndex device)
{
    std::vector<LaneIndex> result;
    for (std::uint32_t l = 0; l < trace.lanes().size(); ++l) {
        const Lane& lane = trace.lanes()[l];
        if (lane.kind == LaneKind::GpuStream && lane.device == device)
            result.push_back(LaneIndex { l });
    }
    return result;
}

std::optional<Interval> activityExtent(const Trace& trace, DeviceIndex device, ActivitySet set)
{
    std::optional<Interval> extent;
    for (LaneIndex laneIndex : streamLanesOf(trace, device)) {
        const Lane& lane = trace.lanes()[laneIndex.value];
        const auto counts = [set](const Event& e) { return e.end > e.start && inActivitySet(e.kind, set); };
        const auto firstIt = std::find_if(lane.events.begin(), lane.events.end(), counts);
        if (firstIt == lane.events.end())
            continue;
        // Latest end: walk back from the last event; once the prefix maximum of ends can no longer beat the
        // best end found, no earlier event can either.
        TimeNs lastEnd = firstIt->end;
        for (std::size_t i = lane.events.size(); i-- > 0;) {
            if (lane.maxEndPrefix[i] <= lastEnd)
                break;
            if (counts(lane.events[i]))
                lastEnd = std::max(lastEnd, lane.events[i].end);
        }
        if (!extent)
            extent = Interval { firstIt->start, lastEnd };
        else
            extent = Interval { std::min(extent->start, firstIt->start), std::max(extent->end, lastEnd) };
    }
    return extent;
}

IntervalSet deviceBusy(const Trace& trace, DeviceIndex device, ActivitySet activity)
{
    std::vector<std::string> warnings;
    const NameClasses names(trace, {}, warnings);
    std::vector<Interval> busy;
    IntervalAppender sink { &busy };
    measureDevice(trace, streamLanesOf(trace, device), names, nullptr, activity, {}, {}, sink);
    return IntervalSet::fromDisjointSorted(std::move(busy));
}

} // namespace gapscope
