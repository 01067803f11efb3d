// SPDX-License-Identifier: MIT
#include "core/analysis/device_pass.h"

#include "core/analysis/gap_finder.h"
#include "core/analysis/name_classes.h"
#include "core/analysis/start_order_merge.h"

#include <algorithm>

namespace gapscope {

namespace {

/// The running unions of one pass. DESIGN.md §4's exposed time charges each instant to the highest active
/// category, compute > communication > memcpy. With C (compute kernels and memsets), M (communication kernels)
/// and P (memcpys):
///   compute = |C ∩ W|,  communication = |(C ∪ M) ∩ W| − |C ∩ W|,
///   memcpy = |(C ∪ M ∪ P) ∩ W| − |(C ∪ M) ∩ W|,  idle = |W| − |(C ∪ M ∪ P) ∩ W|,
/// which sum to |W| by construction. Events come in start order across streams, so each union is a running
/// union fed a sorted subsequence: an event either extends the current span or closes it and opens the next.
/// The busy union is C ∪ M ∪ P for the activity set `all`, the kernels (C's kernels and M) for `kernels`.
/// Everything is plain scalars in one object that never escapes, so that the per-event work stays in
/// registers; only the busy union's closed spans leave, to the sink.
template <bool KernelsOnly, typename Sink> class UnionSweep {
public:
    /// `covered`: the window holds every event the sweep will take.
    UnionSweep(const IntervalSet& window, bool covered, const NameClasses& names, Sink& sink)
        : m_window(window.intervals())
        , m_windowLength(window.totalLength())
        , m_covered(covered)
        , m_oneRange(m_window.size() == 1)
        , m_rangeStart(m_oneRange ? m_window[0].start : 0)
        , m_rangeEnd(m_oneRange ? m_window[0].end : 0)
        , m_names(names)
        , m_sink(sink)
    { }

    [[gnu::always_inline]] void take(const Event& e, TimeNs start, TimeNs end, EventRef ref)
    {
        if (end <= start)
            return; // zero-length: adds nothing to busy time
        bool compute = false; // in C
        bool communication = false; // in M
        switch (e.kind) {
        case EventKind::Kernel:
            communication = m_names.isCommunication(e.name);
            compute = !communication;
            break;
        case EventKind::Memset:
            compute = true;
            break;
        case EventKind::Memcpy:
            break;
        default:
            return; // waits and annotations drawn on GPU lanes are not activity
        }
        const bool kernel = e.kind == EventKind::Kernel;
        if (compute)
            fold(m_c, start, end);
        if (compute || communication)
            fold(m_cm, start, end);
        if (start > m_all.end) {
            m_all.total += inWindow(m_all);
            if (!KernelsOnly)
                close(m_all, m_allOpener, { ref, e.correlation });
            m_all.start = start;
            m_all.end = end;
        } else {
            m_all.end = std::max(m_all.end, end);
        }
        if (KernelsOnly && kernel) {
            if (start > m_kernels.end) {
                m_kernels.total += inWindow(m_kernels);
                close(m_kernels, m_kernelsOpener, { ref, e.correlation });
                m_kernels.start = start;
                m_kernels.end = end;
            } else {
                m_kernels.end = std::max(m_kernels.end, end);
            }
        }
    }

    DeviceMeasure finish()
    {
        for (Span* span : { &m_c, &m_cm, &m_all, &m_kernels })
            span->total += inWindow(*span);
        if (KernelsOnly)
            close(m_kernels, m_kernelsOpener, {});
        else
            close(m_all, m_allOpener, {});
        DeviceMeasure out;
        out.busyInWindow = KernelsOnly ? m_kernels.total : m_all.total;
        out.exposed.compute = m_c.total;
        out.exposed.communication = m_cm.total - m_c.total;
        out.exposed.memcpy = m_all.total - m_cm.total;
        out.exposed.idle = m_windowLength - m_all.total;
        return out;
    }

private:
    /// A span before every real time, far enough from the limit that window arithmetic cannot overflow.
    static constexpr TimeNs kNever = std::numeric_limits<TimeNs>::min() / 4;
    /// One union: its current span, and the length in the window of the spans it closed.
    struct Span {
        TimeNs start = kNever;
        TimeNs end = kNever;
        TimeNs total = 0;
        std::size_t nextRange = 0; // multi-range windows: the first range not before the spans closed
    };

    [[gnu::always_inline]] void fold(Span& span, TimeNs start, TimeNs end)
    {
        if (start > span.end) {
            span.total += inWindow(span);
            span.start = start;
            span.end = end;
        } else {
            span.end = std::max(span.end, end);
        }
    }
    /// The event that opened a span of the busy union.
    struct Opener {
        EventRef ref;
        std::uint32_t correlation = 0;
    };
    /// Hands the busy union's closed span to the sink; `next` opens the next one.
    [[gnu::always_inline]] void close(const Span& span, Opener& opener, Opener next)
    {
        if (span.end != kNever)
            m_sink.add({ span.start, span.end, opener.ref, opener.correlation });
        opener = next;
        if constexpr (requires { m_sink.expect(next.correlation); })
            m_sink.expect(next.correlation);
    }
    /// |current span ∩ window|; the spans of one union come in ascending order.
    [[gnu::always_inline]] TimeNs inWindow(Span& span) const
    {
        if (m_covered) [[likely]] // the gpu and trace windows: no clipping
            return span.end - span.start;
        if (m_oneRange) { // a window of one range
            const TimeNs clipped = std::min(span.end, m_rangeEnd) - std::max(span.start, m_rangeStart);
            return clipped > 0 ? clipped : 0;
        }
        TimeNs total = 0;
        while (span.nextRange < m_window.size() && m_window[span.nextRange].end <= span.start)
            ++span.nextRange;
        for (std::size_t j = span.nextRange; j < m_window.size() && m_window[j].start < span.end; ++j)
            total += std::min(span.end, m_window[j].end) - std::max(span.start, m_window[j].start);
        return total;
    }

    const std::vector<Interval>& m_window;
    const TimeNs m_windowLength;
    const bool m_covered;
    // The window's one range, copied here so that the hot loop keeps it in registers.
    const bool m_oneRange;
    const TimeNs m_rangeStart;
    const TimeNs m_rangeEnd;
    const NameClasses& m_names;
    Sink& m_sink;
    Span m_c;
    Span m_cm;
    Span m_all;
    Span m_kernels;
    Opener m_allOpener;
    Opener m_kernelsOpener;
};

/// A StartOrderMerge read one event at a time, as FewRunsMerge is.
class ChunkedMerge {
public:
    explicit ChunkedMerge(const std::vector<LaneRun>& runs)
        : m_merge(runs)
    {
        nextChunk();
    }
    TimeNs nextStart() const { return m_at != m_end ? m_at->start : std::numeric_limits<TimeNs>::max(); }
    bool done() const { return m_at == m_end; }
    MergedEvent take()
    {
        const MergedEvent out = *m_at;
        if (++m_at == m_end) [[unlikely]]
            nextChunk();
        return out;
    }

private:
    void nextChunk()
    {
        const std::span<const MergedEvent> chunk = m_merge.next();
        m_at = chunk.data();
        m_end = m_at + chunk.size();
    }
    StartOrderMerge m_merge;
    const MergedEvent* m_at = nullptr;
    const MergedEvent* m_end = nullptr;
};

/// Sweeps the busiest stream's run and the other streams' events (`others`: FewRunsMerge or ChunkedMerge) in
/// start order, the other streams first on equal starts. The busiest stream is read in a tight loop up to the
/// next other event's start; in a real trace one stream carries most of the work, so most events cost a read
/// and a well-predicted comparison. All of it is inlined, so that the sweep's running unions stay in registers.
template <typename Sweep, typename Others>
[[gnu::always_inline]] inline void sweepMerged(Sweep& sweep, const LaneRun& main, Others& others, TimeSlice slice)
{
    const Event* e = main.first;
    for (;;) {
        const TimeNs next = others.nextStart();
        for (; e != main.last && e->start < next; ++e) {
            __builtin_prefetch(e + 24); // about 1 KB ahead: the lane is read at the speed of memory
            sweep.take(
                *e, e->start, std::min(e->end, slice.to), { main.lane, static_cast<std::uint32_t>(e - main.begin) });
        }
        if (others.done())
            return;
        const TimeNs mainStart = e != main.last ? e->start : std::numeric_limits<TimeNs>::max();
        do {
            const MergedEvent o = others.take();
            sweep.take(*o.event, o.start, std::min(o.event->end, slice.to), { o.lane, o.index });
        } while (!others.done() && others.nextStart() <= mainStart);
    }
}

/// measureDevice() for one activity set.
template <bool KernelsOnly, typename Sink>
DeviceMeasure sweepDevice(const Trace& trace, const std::vector<LaneIndex>& lanes, const NameClasses& names,
    const IntervalSet& window, TimeSlice slice, Sink& sink)
{
    // Each lane's run of events that start in the slice, and the extent of what the slice takes.
    std::vector<LaneRun> runs;
    std::vector<const Event*> firsts;
    runs.reserve(lanes.size());
    firsts.reserve(lanes.size());
    TimeNs earliest = std::numeric_limits<TimeNs>::max();
    TimeNs latest = std::numeric_limits<TimeNs>::min();
    bool extentKnown = true;
    for (LaneIndex laneIndex : lanes) {
        const Lane& lane = trace.lanes[laneIndex.value];
        const Event* const begin = lane.events.data();
        const Event* const end = begin + lane.events.size();
        const Event* first = std::partition_point(begin, end, [&](const Event& e) { return e.start < slice.from; });
        const Event* last = std::partition_point(first, end, [&](const Event& e) { return e.start < slice.to; });
        firsts.push_back(first);
        const bool prefixKnown = lane.maxEndPrefix.size() == lane.events.size();
        extentKnown = extentKnown && prefixKnown;
        // The latest end of the events before `last`, those running at the slice's start included.
        if (prefixKnown && last != begin)
            latest = std::max(latest, lane.maxEndPrefix[static_cast<std::size_t>(last - begin) - 1]);
        if (first == last)
            continue;
        runs.push_back({ laneIndex, begin, first, last });
        earliest = std::min(earliest, first->start);
    }
    if (slice.from != std::numeric_limits<TimeNs>::min())
        earliest = std::min(earliest, slice.from); // where what earlier events leave running starts
    latest = std::min(latest, slice.to);
    // Whether the window holds all of it (the gpu and trace windows do): then no span needs clipping to it.
    const std::vector<Interval>& ranges = window.intervals();
    const bool covered = extentKnown && ranges.size() == 1 && ranges[0].start <= earliest && ranges[0].end >= latest;
    UnionSweep<KernelsOnly, Sink> sweep(window, covered, names, sink);
    // What earlier events leave running at the slice's start comes first: it all starts there. The walk back
    // stops where the prefix maximum of ends shows that no earlier event reaches the start.
    for (std::size_t l = 0; l < lanes.size() && slice.from != std::numeric_limits<TimeNs>::min(); ++l) {
        const Lane& lane = trace.lanes[lanes[l].value];
        for (auto i = static_cast<std::size_t>(firsts[l] - lane.events.data()); i-- > 0;) {
            if (lane.maxEndPrefix.size() == lane.events.size() && lane.maxEndPrefix[i] <= slice.from)
                break;
            const Event& e = lane.events[i];
            if (e.end > slice.from)
                sweep.take(e, slice.from, std::min(e.end, slice.to), { lanes[l], static_cast<std::uint32_t>(i) });
        }
    }
    // The busiest stream is read directly; the others, merged among themselves, are taken in between.
    if (runs.empty())
        return sweep.finish();
    const auto busiest = std::max_element(runs.begin(), runs.end(),
        [](const LaneRun& a, const LaneRun& b) { return a.last - a.first < b.last - b.first; });
    const LaneRun main = *busiest;
    runs.erase(busiest);
    if (runs.size() <= FewRunsMerge::kMaxRuns) {
        FewRunsMerge others(runs);
        sweepMerged(sweep, main, others, slice);
    } else {
        ChunkedMerge others(runs);
        sweepMerged(sweep, main, others, slice);
    }
    return sweep.finish();
}

} // namespace

template <typename Sink>
DeviceMeasure measureDevice(const Trace& trace, const std::vector<LaneIndex>& lanes, const NameClasses& names,
    ActivitySet set, const IntervalSet& window, TimeSlice slice, Sink& sink)
{
    return set == ActivitySet::Kernels ? sweepDevice<true>(trace, lanes, names, window, slice, sink)
                                       : sweepDevice<false>(trace, lanes, names, window, slice, sink);
}

template DeviceMeasure measureDevice<GapEmitter>(const Trace&, const std::vector<LaneIndex>&, const NameClasses&,
    ActivitySet, const IntervalSet&, TimeSlice, GapEmitter&);
template DeviceMeasure measureDevice<IntervalAppender>(const Trace&, const std::vector<LaneIndex>&, const NameClasses&,
    ActivitySet, const IntervalSet&, TimeSlice, IntervalAppender&);
template DeviceMeasure measureDevice<DiscardSpans>(const Trace&, const std::vector<LaneIndex>&, const NameClasses&,
    ActivitySet, const IntervalSet&, TimeSlice, DiscardSpans&);

} // namespace gapscope
