// SPDX-License-Identifier: MIT
#pragma once

// Internal to the analysis: a device's GPU activity reduced to unions ("busy spans"), by the classes that
// DESIGN.md §4 tells apart. Every device figure (busy, gaps, exposed time) is computed from these, so the
// events themselves are read once per device.

#include "core/analysis/analysis.h"

#include <algorithm>
#include <functional>
#include <vector>

namespace gapscope {

class NameClasses;

/// A maximal busy interval and the event that opened it (an earliest-starting event of the interval):
/// that event is the closing op of the gap before the interval.
struct BusySpan {
    TimeNs start = 0;
    TimeNs end = 0;
    EventRef opener;
};
/// Sorted, disjoint and non-adjacent, like IntervalSet.
using BusySpans = std::vector<BusySpan>;

/// One device's activity by class. Zero-length events are left out: they add nothing to busy time.
struct DeviceActivity {
    BusySpans computeKernels; // kernels whose name is not a communication kernel's
    BusySpans communication; // nccl/rccl kernels
    BusySpans memsets;
    BusySpans memcpys;
};

/// True for the events the activity set counts.
constexpr bool inActivitySet(EventKind kind, ActivitySet set)
{
    return set == ActivitySet::Kernels ? kind == EventKind::Kernel : isGpuActivity(kind);
}

/// The stream lanes of a device, in lane order.
std::vector<LaneIndex> streamLanesOf(const Trace& trace, DeviceIndex device);

/// Reads the device's events once. Cost: one pass over the events plus the size of the per-lane unions of
/// the classes other than compute kernels (those are unioned across streams while the events are read).
DeviceActivity scanDeviceActivity(const Trace& trace, DeviceIndex device, const NameClasses& names);

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

/// A RunningUnion flush that appends to a list.
struct AppendTo {
    BusySpans* list;
    void operator()(const BusySpan& s) const { list->push_back(s); }
};

/// What a device's figures need from its activity, from one merge of its classes.
struct DeviceUnion {
    /// |union of the activity set ∩ window|
    TimeNs busyInWindow = 0;
    /// Exposed time over the window (DESIGN.md §4); sums exactly to the window length.
    ExposedTime exposed;
};
/// Also hands every span of the activity set's union (not clipped to the window) to `busySpans`: the
/// source of the device's gaps.
DeviceUnion uniteDeviceActivity(
    const DeviceActivity& activity, ActivitySet set, const IntervalSet& window, const BusySpanSink& busySpans);

/// Union of two span lists; where spans merge, the opener of the earlier-starting one is kept.
BusySpans uniteSpans(const BusySpans& a, const BusySpans& b);

/// Hands the union of one stream lane's activity to `sink` (for stream gaps); false when the lane has none.
bool laneBusySpans(const Trace& trace, LaneIndex lane, ActivitySet set, const BusySpanSink& sink);

/// [first start, last end) of the device's activity (zero-length events left out), or nullopt.
std::optional<Interval> activityExtent(const Trace& trace, DeviceIndex device, ActivitySet set);

} // namespace gapscope
