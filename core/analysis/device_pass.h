// SPDX-License-Identifier: MIT
#pragma once

// Internal to the analysis: every figure of a device (busy time, exposed time, and the busy spans its gaps
// come from) from one pass over its stream lanes in start order. Nothing is listed on the way: each event is
// read once and folded into running unions, and each busy span goes straight to a sink (the gap emitter).

#include "core/analysis/busy_spans.h"

#include <algorithm>
#include <limits>
#include <span>
#include <vector>

namespace gapscope {

class LaneSummaries;
class NameClasses;

/// The stretch of the time axis one pass covers: the events that start in [from, to), cut at `to`, and the
/// parts after `from` of earlier events still running then. Slices that tile the axis split every figure
/// exactly: their busy and exposed times add up, and a gap across a cut is the two pieces that meet there.
struct TimeSlice {
    TimeNs from = std::numeric_limits<TimeNs>::min();
    TimeNs to = std::numeric_limits<TimeNs>::max();
};

/// The events of `lane` that start in `slice`, found by two binary searches (the lane is sorted by start).
inline std::span<const Event> eventsStartingIn(const Lane& lane, TimeSlice slice)
{
    const Event* const begin = lane.events.data();
    const Event* const end = begin + lane.events.size();
    const Event* first = std::partition_point(begin, end, [&](const Event& e) { return e.start < slice.from; });
    const Event* last = std::partition_point(first, end, [&](const Event& e) { return e.start < slice.to; });
    return { first, last };
}

struct DeviceMeasure {
    /// |activity-set union ∩ window|
    TimeNs busyInWindow = 0;
    /// Exposed time over the window (docs/definitions.md): sums exactly to the window's length.
    ExposedTime exposed;
    /// Adds the measure of the next time slice.
    DeviceMeasure& operator+=(const DeviceMeasure& next)
    {
        busyInWindow += next.busyInWindow;
        exposed.compute += next.exposed.compute;
        exposed.communication += next.exposed.communication;
        exposed.memcpy += next.exposed.memcpy;
        exposed.idle += next.exposed.idle;
        return *this;
    }
};

/// Measures the activity of `lanes` (the stream lanes of one device) within `slice` over `window` (which lies
/// inside the slice), and hands every span of the activity set's union, cut to the slice, to `sink.add()` in
/// ascending order, in batches of up to kSpanBatch. Sinks: GapEmitter, and IntervalAppender below. With the
/// trace's lane summaries, a busiest stream of compute kernels only is read without asking each event what it
/// is (the same figures, sooner); without (nullptr), every event is asked.
template <typename Sink>
DeviceMeasure measureDevice(const Trace& trace, const std::vector<LaneIndex>& lanes, const NameClasses& names,
    const LaneSummaries* summaries, ActivitySet set, const IntervalSet& window, TimeSlice slice, Sink& sink);

inline constexpr std::size_t kSpanBatch = 256;

/// A sink that keeps the spans as intervals in `out`, or drops them (no `out`) when only the figures matter
/// (exposed time): one sink type for both, so that the sweep is compiled for two sinks, not three (device_pass.o's
/// code 181,596 -> 123,626 bytes).
struct IntervalAppender {
    std::vector<Interval>* out = nullptr;
    void add(std::span<const BusySpan> spans)
    {
        if (!out)
            return;
        for (const BusySpan& s : spans)
            out->push_back({ s.start, s.end });
    }
};

} // namespace gapscope
