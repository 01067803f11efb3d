// SPDX-License-Identifier: MIT
// Exposed time and the device's busy union, from one merge of the activity classes.
#include "core/analysis/analysis.h"
#include "core/analysis/busy_spans.h"
#include "core/analysis/name_classes.h"

#include <algorithm>
#include <limits>

namespace gapscope {

namespace {

/// Sums the lengths of spans fed in ascending start order, clipped to a window.
class WindowMeter {
public:
    explicit WindowMeter(const IntervalSet& window)
        : m_ranges(&window.intervals())
    { }
    void add(TimeNs start, TimeNs end)
    {
        const auto& w = *m_ranges;
        if (w.size() == 1) { // the usual window: one range
            const TimeNs clipped = std::min(end, w[0].end) - std::max(start, w[0].start);
            m_total += clipped > 0 ? clipped : 0;
            return;
        }
        while (m_next < w.size() && w[m_next].end <= start)
            ++m_next;
        for (std::size_t j = m_next; j < w.size() && w[j].start < end; ++j)
            m_total += std::min(end, w[j].end) - std::max(start, w[j].start);
    }
    TimeNs total() const { return m_total; }

private:
    const std::vector<Interval>* m_ranges;
    std::size_t m_next = 0;
    TimeNs m_total = 0;
};

} // namespace

DeviceUnion uniteDeviceActivity(
    const DeviceActivity& activity, ActivitySet set, const IntervalSet& window, const BusySpanSink& busySpans)
{
    // Exposed time charges each instant to the highest active category, compute > communication > memcpy.
    // With C (compute kernels and memsets), M (communication) and P (memcpys):
    //   compute = |C ∩ W|,  communication = |(C ∪ M) ∩ W| − |C ∩ W|,
    //   memcpy = |(C ∪ M ∪ P) ∩ W| − |(C ∪ M) ∩ W|,  idle = |W| − |(C ∪ M ∪ P) ∩ W|,
    // which sum to |W| by construction. One merge of the four class lists by start feeds the three nested
    // unions and the activity set's union at once.
    DeviceUnion out;
    WindowMeter compute(window);
    WindowMeter withCommunication(window);
    WindowMeter all(window);
    WindowMeter busy(window);
    const bool onlyCompute = activity.memsets.empty() && activity.communication.empty() && activity.memcpys.empty();
    if (onlyCompute) {
        for (const BusySpan& s : activity.computeKernels) {
            compute.add(s.start, s.end);
            busySpans(s);
        }
        out.busyInWindow = compute.total();
        out.exposed = { compute.total(), 0, 0, window.totalLength() - compute.total() };
        return out;
    }
    enum Class { Compute, Memset, Communication, Memcpy };
    const BusySpans* lists[4]
        = { &activity.computeKernels, &activity.memsets, &activity.communication, &activity.memcpys };
    // Each list's next span and its start (kNone when the list is done): picking the next span is a
    // minimum of four integers.
    constexpr TimeNs kNone = std::numeric_limits<TimeNs>::max();
    const BusySpan* next[4];
    const BusySpan* last[4];
    TimeNs head[4];
    for (int c = 0; c < 4; ++c) {
        next[c] = lists[c]->data();
        last[c] = lists[c]->data() + lists[c]->size();
        head[c] = next[c] != last[c] ? next[c]->start : kNone;
    }
    const auto emitBusy = [&](const BusySpan& s) {
        busy.add(s.start, s.end);
        busySpans(s);
    };
    RunningUnion level1([&](const BusySpan& s) { compute.add(s.start, s.end); });
    RunningUnion level2([&](const BusySpan& s) { withCommunication.add(s.start, s.end); });
    RunningUnion level3([&](const BusySpan& s) {
        all.add(s.start, s.end);
        if (set == ActivitySet::All)
            emitBusy(s);
    });
    RunningUnion kernels([&](const BusySpan& s) { emitBusy(s); });
    for (;;) {
        int best = 0;
        for (int c = 1; c < 4; ++c)
            best = head[c] < head[best] ? c : best;
        if (head[best] == kNone)
            break;
        const BusySpan& s = *next[best]++;
        head[best] = next[best] != last[best] ? next[best]->start : kNone;
        if (best == Compute || best == Memset)
            level1.add(s);
        if (best != Memcpy)
            level2.add(s);
        level3.add(s);
        if (set == ActivitySet::Kernels && (best == Compute || best == Communication))
            kernels.add(s);
    }
    level1.finish();
    level2.finish();
    level3.finish();
    kernels.finish();
    out.busyInWindow = busy.total();
    out.exposed.compute = compute.total();
    out.exposed.communication = withCommunication.total() - compute.total();
    out.exposed.memcpy = all.total() - withCommunication.total();
    out.exposed.idle = window.totalLength() - all.total();
    return out;
}

ExposedTime exposedTime(const Trace& trace, DeviceIndex device, const Window& window)
{
    std::vector<std::string> warnings;
    const NameClasses names(trace, {}, warnings);
    return uniteDeviceActivity(
        scanDeviceActivity(trace, device, names), ActivitySet::All, window.ranges, [](const BusySpan&) {})
        .exposed;
}

} // namespace gapscope
