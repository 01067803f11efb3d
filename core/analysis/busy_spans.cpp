// SPDX-License-Identifier: MIT
#include "core/analysis/busy_spans.h"

#include "core/analysis/name_classes.h"
#include "core/model/huge_pages.h"

#include <algorithm>
#include <limits>

namespace gapscope {

namespace {

/// Unions the per-stream span lists of one class into the device's, pairwise (log2(streams) linear passes).
BusySpans uniteAll(std::vector<BusySpans>&& lists)
{
    std::erase_if(lists, [](const BusySpans& l) { return l.empty(); });
    if (lists.empty())
        return {};
    while (lists.size() > 1) {
        std::vector<BusySpans> next;
        next.reserve((lists.size() + 1) / 2);
        for (std::size_t i = 0; i + 1 < lists.size(); i += 2)
            next.push_back(uniteSpans(lists[i], lists[i + 1]));
        if (lists.size() % 2)
            next.push_back(std::move(lists.back()));
        lists = std::move(next);
    }
    return std::move(lists.front());
}

enum class SideClass : std::uint8_t { None, Communication, Memset, Memcpy };

/// One stream being read: where its events are and the next one to take.
struct StreamCursor {
    const Event* begin = nullptr;
    const Event* it = nullptr;
    const Event* end = nullptr;
    std::uint32_t lane = 0;
};

constexpr TimeNs kNoHead = std::numeric_limits<TimeNs>::max();

/// Each stream's next event start, and which stream has the earliest. Heads only move later, so the
/// earliest changes only when its own head passes the runner-up's: with one busy stream among several
/// (the usual trace), finding the earliest costs nothing most of the time.
class StreamHeads {
public:
    explicit StreamHeads(std::vector<TimeNs> heads)
        : m_heads(std::move(heads))
    {
        recompute();
    }
    std::size_t earliest() const { return m_earliest; }
    TimeNs earliestStart() const { return m_heads.empty() ? kNoHead : m_heads[m_earliest]; }
    void advance(std::size_t stream, TimeNs head)
    {
        const TimeNs old = m_heads[stream];
        m_heads[stream] = head;
        if (stream == m_earliest ? head > m_runnerUp : old == m_runnerUp)
            recompute();
    }

private:
    void recompute()
    {
        m_earliest = 0;
        m_runnerUp = kNoHead;
        for (std::size_t i = 1; i < m_heads.size(); ++i) {
            if (m_heads[i] < m_heads[m_earliest]) {
                m_runnerUp = m_heads[m_earliest];
                m_earliest = i;
            } else {
                m_runnerUp = std::min(m_runnerUp, m_heads[i]);
            }
        }
    }

    std::vector<TimeNs> m_heads;
    std::size_t m_earliest = 0;
    TimeNs m_runnerUp = kNoHead; // earliest head among the other streams
};

} // namespace

std::vector<LaneIndex> streamLanesOf(const Trace& trace, DeviceIndex device)
{
    std::vector<LaneIndex> result;
    for (std::uint32_t l = 0; l < trace.lanes.size(); ++l) {
        const Lane& lane = trace.lanes[l];
        if (lane.kind == LaneKind::GpuStream && lane.device == device)
            result.push_back(LaneIndex { l });
    }
    return result;
}

DeviceActivity scanDeviceActivity(const Trace& trace, DeviceIndex device, const NameClasses& names)
{
    // Compute kernels, the bulk of almost every trace, are unioned across streams directly from the events
    // by a round-robin sweep: the current union [start, end) takes every stream's next events while they
    // start at or before `end`, until no stream has one; then the next union opens at the earliest next
    // event. StreamHeads answers both questions, and the per-event loop touches only locals. Each stream's
    // events are visited once, in order, so the other classes (communication kernels, memsets, memcpys:
    // usually few) are unioned per stream on the way and merged across streams afterwards.
    DeviceActivity result;
    const std::vector<LaneIndex> lanes = streamLanesOf(trace, device);
    const std::size_t k = lanes.size();
    std::vector<StreamCursor> cursors;
    cursors.reserve(k);
    std::vector<TimeNs> firstStarts(k, kNoHead);
    std::vector<BusySpans> communication(k);
    std::vector<BusySpans> memsets(k);
    std::vector<BusySpans> memcpys(k);
    std::vector<RunningUnion<AppendTo>> builders;
    builders.reserve(k * 3);
    std::size_t events = 0;
    for (std::size_t i = 0; i < k; ++i) {
        const Lane& lane = trace.lanes[lanes[i].value];
        const Event* data = lane.events.data();
        cursors.push_back({ data, data, data + lane.events.size(), lanes[i].value });
        firstStarts[i] = lane.events.empty() ? kNoHead : data->start;
        events += lane.events.size();
        builders.emplace_back(AppendTo { &communication[i] });
        builders.emplace_back(AppendTo { &memsets[i] });
        builders.emplace_back(AppendTo { &memcpys[i] });
    }
    BusySpans& spans = result.computeKernels;
    spans.reserve(events); // at most one span per event; reserved memory never written is never touched
    adviseHugePages(spans.data(), spans.capacity() * sizeof(BusySpan));
    StreamHeads heads(std::move(firstStarts));

    // Feeds a non-compute event to its stream's union; false for a compute kernel.
    const auto side = [&](std::size_t c, const Event& e, const Event* base) {
        SideClass cls = SideClass::None;
        if (e.kind == EventKind::Kernel) {
            if (!names.isCommunication(e.name))
                return false;
            cls = SideClass::Communication;
        } else if (e.kind == EventKind::Memset) {
            cls = SideClass::Memset;
        } else if (e.kind == EventKind::Memcpy) {
            cls = SideClass::Memcpy;
        }
        if (cls != SideClass::None && e.end > e.start)
            builders[c * 3 + static_cast<std::size_t>(cls) - 1].add(
                { e.start, e.end, { LaneIndex { cursors[c].lane }, static_cast<std::uint32_t>(&e - base) } });
        return true;
    };
    // Takes stream c's events that start at or before `end`, growing `end` by the compute kernels.
    const auto take = [&](std::size_t c, TimeNs end) {
        StreamCursor& cursor = cursors[c];
        const Event* it = cursor.it;
        const Event* const last = cursor.end;
        for (; it != last && it->start <= end; ++it) {
            if (!side(c, *it, cursor.begin))
                end = std::max(end, it->end);
        }
        cursor.it = it;
        heads.advance(c, it != last ? it->start : kNoHead);
        return end;
    };

    while (heads.earliestStart() != kNoHead) {
        const std::size_t c = heads.earliest();
        StreamCursor& cursor = cursors[c];
        const Event& first = *cursor.it;
        ++cursor.it;
        heads.advance(c, cursor.it != cursor.end ? cursor.it->start : kNoHead);
        if (side(c, first, cursor.begin) || first.end <= first.start)
            continue; // not a union's opener: a compute kernel with a length opens one
        BusySpan span { first.start, first.end,
            { LaneIndex { cursor.lane }, static_cast<std::uint32_t>(&first - cursor.begin) } };
        while (heads.earliestStart() <= span.end)
            span.end = take(heads.earliest(), span.end);
        spans.push_back(span);
    }
    for (auto& builder : builders)
        builder.finish();
    result.communication = uniteAll(std::move(communication));
    result.memsets = uniteAll(std::move(memsets));
    result.memcpys = uniteAll(std::move(memcpys));
    return result;
}

BusySpans uniteSpans(const BusySpans& a, const BusySpans& b)
{
    if (a.empty())
        return b;
    if (b.empty())
        return a;
    BusySpans out;
    out.reserve(a.size() + b.size());
    RunningUnion builder(AppendTo { &out });
    auto ia = a.begin();
    auto ib = b.begin();
    while (ia != a.end() || ib != b.end()) {
        const bool takeA = ib == b.end() || (ia != a.end() && ia->start <= ib->start);
        builder.add(takeA ? *ia++ : *ib++);
    }
    builder.finish();
    return out;
}

bool laneBusySpans(const Trace& trace, LaneIndex laneIndex, ActivitySet set, const BusySpanSink& sink)
{
    const Lane& lane = trace.lanes[laneIndex.value];
    RunningUnion<const BusySpanSink&> busy(sink);
    for (std::uint32_t i = 0; i < lane.events.size(); ++i) {
        const Event& e = lane.events[i];
        if (e.end > e.start && inActivitySet(e.kind, set))
            busy.add({ e.start, e.end, { laneIndex, i } });
    }
    return busy.finish();
}

std::optional<Interval> activityExtent(const Trace& trace, DeviceIndex device, ActivitySet set)
{
    std::optional<Interval> extent;
    for (LaneIndex laneIndex : streamLanesOf(trace, device)) {
        const Lane& lane = trace.lanes[laneIndex.value];
        const auto counts = [set](const Event& e) { return e.end > e.start && inActivitySet(e.kind, set); };
        const auto firstIt = std::find_if(lane.events.begin(), lane.events.end(), counts);
        if (firstIt == lane.events.end())
            continue;
        // Latest end: walk back from the last event; once the prefix maximum of ends can no longer beat the
        // best end found, no earlier event can either.
        TimeNs lastEnd = firstIt->end;
        for (std::size_t i = lane.events.size(); i-- > 0;) {
            if (lane.maxEndPrefix.size() == lane.events.size() && lane.maxEndPrefix[i] <= lastEnd)
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
    uniteDeviceActivity(scanDeviceActivity(trace, device, names), activity, {}, [&busy](const BusySpan& s) {
        busy.push_back({ s.start, s.end });
    });
    return IntervalSet::fromDisjointSorted(std::move(busy));
}

} // namespace gapscope
