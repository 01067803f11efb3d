// SPDX-License-Identifier: MIT
#pragma once

// Internal to the analysis: GPU activity reduced to unions ("busy spans"), the source of gaps. A device's
// spans come from one pass over its events (device_pass.h); a stream's from laneBusySpans().

#include "core/analysis/analysis.h"

#include <algorithm>
#include <functional>
#include <vector>

namespace gapscope {

/// A maximal busy interval and the event that opened it (an earliest-starting event of the interval):
/// that event is the closing op of the gap before the interval.
struct BusySpan {
    TimeNs start = 0;
    TimeNs end = 0;
    EventRef opener;
    /// The opener's correlation id (0: none): the gap before the span is classified by it.
    std::uint32_t openerCorrelation = 0;
};
/// True for the events the activity set counts.
constexpr bool inActivitySet(EventKind kind, ActivitySet set)
{
    return set == ActivitySet::Kernels ? kind == EventKind::Kernel : isGpuActivity(kind);
}

/// The stream lanes of a device, in lane order.
std::vector<LaneIndex> streamLanesOf(const Trace& trace, DeviceIndex device);

/// Receives busy spans in ascending order.
using BusySpanSink = std::function<void(const BusySpan&)>;

/// The union of spans fed in ascending start order; hands each completed span to `flush`, in order.
/// Touching spans merge ([a, b) and [b, c)); the merged span keeps the first one's opener.
template <typename Flush> class RunningUnion {
public:
    explicit RunningUnion(Flush flush)
        : m_flush(std::move(flush))
    { }
    void add(const BusySpan& s)
    {
        if (m_open && s.start <= m_current.end) {
            m_current.end = std::max(m_current.end, s.end);
            return;
        }
        if (m_open)
            m_flush(m_current);
        m_current = s;
        m_open = true;
    }
    /// Flushes the last span; returns whether any span came.
    bool finish()
    {
        const bool any = m_open;
        if (m_open)
            m_flush(m_current);
        m_open = false;
        return any;
    }

private:
    Flush m_flush;
    BusySpan m_current;
    bool m_open = false;
};

/// Hands the union of one stream lane's activity to `sink` (for stream gaps); false when the lane has none.
bool laneBusySpans(const Trace& trace, LaneIndex lane, ActivitySet set, const BusySpanSink& sink);

/// [first start, last end) of the device's activity (zero-length events left out), or nullopt.
std::optional<Interval> activityExtent(const Trace& trace, DeviceIndex device, ActivitySet set);

} // namespace gapscope
