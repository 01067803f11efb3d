// SPDX-License-Identifier: MIT
#include "core/model/view_extent.h"

#include <algorithm>

namespace gapscope {

std::optional<std::pair<TimeNs, TimeNs>> drawnExtent(const Trace& trace)
{
    std::optional<std::pair<TimeNs, TimeNs>> extent = trace.timeSpan();
    const auto cover = [&extent](TimeNs first, TimeNs last) {
        extent = extent ? std::make_pair(std::min(extent->first, first), std::max(extent->second, last + 1))
                        : std::make_pair(first, last + 1);
    };
    for (const ThreadSamples& thread : trace.samples().threads()) {
        if (!thread.samples.empty())
            cover(thread.samples.front().time, thread.samples.back().time);
    }
    for (const CounterTrack& track : trace.counters().tracks()) {
        if (!track.points.empty())
            cover(track.points.front().time, track.points.back().time);
    }
    return extent;
}

} // namespace gapscope
