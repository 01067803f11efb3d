// SPDX-License-Identifier: MIT
#pragma once

// Internal to the analysis: GPU activity reduced to unions ("busy spans"), the source of gaps; they come from
// one pass over the events of a device, or of one stream (device_pass.h).

#include "core/analysis/analysis.h"

#include <optional>
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

/// [first start, last end) of the device's activity (zero-length events left out), or nullopt.
std::optional<Interval> activityExtent(const Trace& trace, DeviceIndex device, ActivitySet set);

} // namespace gapscope
