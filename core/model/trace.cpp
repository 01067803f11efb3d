// SPDX-License-Identifier: MIT
#include "core/model/trace.h"

#include <algorithm>

namespace gapscope {

std::string ImportWarning::toString() const
{
    return file + ": " + (place.empty() ? "at byte " + std::to_string(byteOffset) : place) + ": " + message;
}

std::pair<std::size_t, std::size_t> Lane::visibleRange(TimeNs t0, TimeNs t1) const
{
    const auto firstIt
        = std::partition_point(maxEndPrefix.begin(), maxEndPrefix.end(), [t0](TimeNs maxEnd) { return maxEnd < t0; });
    const auto first = static_cast<std::size_t>(firstIt - maxEndPrefix.begin());
    const auto lastIt = std::partition_point(events.begin() + static_cast<std::ptrdiff_t>(first), events.end(),
        [t1](const Event& e) { return e.start < t1; });
    return { first, static_cast<std::size_t>(lastIt - events.begin()) };
}

std::vector<EventRef> Trace::gpuOpsOf(EventRef apiCall) const
{
    std::vector<EventRef> result;
    const Event& e = event(apiCall);
    if (e.correlation == 0)
        return result;
    m_gpuOps.all(m_content.lanes[apiCall.lane.value].process, e.correlation, result);
    return result;
}

std::optional<std::pair<TimeNs, TimeNs>> Trace::timeSpan() const
{
    std::optional<std::pair<TimeNs, TimeNs>> span;
    for (const Lane& lane : m_content.lanes) {
        if (lane.events.empty())
            continue;
        const TimeNs first = lane.events.front().start;
        const TimeNs last = lane.maxEndPrefix.back();
        if (!span)
            span = std::make_pair(first, last);
        else
            span = std::make_pair(std::min(span->first, first), std::max(span->second, last));
    }
    return span;
}

std::size_t Trace::eventCount() const
{
    std::size_t n = 0;
    for (const Lane& lane : m_content.lanes)
        n += lane.events.size();
    return n;
}

} // namespace gapscope
