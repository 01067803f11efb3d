// SPDX-License-Identifier: MIT
#include "core/analysis/device_pass.h"

#include "core/analysis/gap_finder.h"
#include "core/analysis/lane_summaries.h"
#include "core/analysis/name_classes.h"
#include "core/analysis/start_order_merge.h"

#include <algorithm>
#include <array>

namespace gapscope {

namespace {

/// The running unions of one pass. docs/definitions.md's exposed time charges each instant to the highest active
/// category, compute > communication > memcpy. With C (compute kernels and memsets), M (communication kernels)
/// and P (memcpys):
///   compute = |C ∩ W|,  communication = |(C ∪ M) ∩ W| − |C ∩ W|,
///   memcpy = |(C ∪ M ∪ P) ∩ W| − |(C ∪ M) ∩ W|,  idle = |W| − |(C ∪ M ∪ P) ∩ W|,
/// which sum to |W| by construction. The busy union is C ∪ M ∪ P for the activity set `all`, the kernels (C's
/// kernels and M) for `kernels`.
///
/// Events come in start order across streams, so each union is a running union fed a sorted subsequence, and
/// its measure grows by what each event adds past the latest end so far: |[max(start, latest end), end) ∩ W|
/// (that part is disjoint from everything before). So a union is its latest end and its running total, and
/// an event costs it two maxima and a subtraction (and a clip, when the window does not cover the events), no
/// branch; only the busy union has spans, which close (to the sink) when an event starts after its latest end.
///
/// `Covered`: the window holds every event the sweep will take (the gpu and trace windows), so that nothing
/// needs clipping to it. Everything is plain scalars in one object that never escapes, so that the per-event
/// work stays in registers.
template <bool KernelsOnly, bool Covered, typename Sink> class UnionSweep {
public:
    /// The spans go to `sink` in batches gathered in `batch` (room for kSpanBatch).
    UnionSweep(const IntervalSet& window, const NameClasses& names, Sink& sink, BusySpan* batch)
        : m_window(window.intervals())
        , m_windowLength(window.totalLength())
        , m_oneRange(m_window.size() == 1)
        , m_rangeStart(m_oneRange ? m_window[0].start : 0)
        , m_rangeEnd(m_oneRange ? m_window[0].end : 0)
        , m_isCommunication(names.communicationTest())
        , m_sink(sink)
        , m_batch(batch)
    { }

    /// Takes event `e` of `lane` (whose first event is `laneBegin`), cut to [start, end).
    [[gnu::always_inline]] void take(const Event& e, TimeNs start, TimeNs end, LaneIndex lane, const Event* laneBegin)
    {
        if (end <= start)
            return; // zero-length: adds nothing to busy time
        // Which unions the event is in, with as few branches as can be: most events are compute kernels.
        const bool kernel = e.kind == EventKind::Kernel;
        const bool communication = kernel & m_isCommunication(e.name); // in M
        const bool compute = (kernel & !communication) | (e.kind == EventKind::Memset); // in C
        if (compute && (kernel || !KernelsOnly)) [[likely]] {
            add<true, false, true>(e, start, end, lane, laneBegin);
            return;
        }
        if (compute)
            add<true, false, false>(e, start, end, lane, laneBegin); // a memset, for `kernels`
        else if (communication)
            add<false, true, true>(e, start, end, lane, laneBegin);
        else if (e.kind == EventKind::Memcpy)
            add<false, false, false>(e, start, end, lane, laneBegin);
        // else: waits and annotations drawn on GPU lanes are not activity
    }

    /// take() for an event known to be a compute kernel.
    [[gnu::always_inline]] void takeComputeKernel(
        const Event& e, TimeNs start, TimeNs end, LaneIndex lane, const Event* laneBegin)
    {
        if (end > start) [[likely]]
            add<true, false, true>(e, start, end, lane, laneBegin);
    }

    [[gnu::always_inline]] DeviceMeasure finish()
    {
        const Union& busiest = KernelsOnly ? m_kernels : m_all;
        if (busiest.end != kNever)
            m_batch[m_closed++].end = busiest.end;
        m_sink.add({ m_batch, m_closed });
        DeviceMeasure out;
        out.busyInWindow = KernelsOnly ? m_kernels.total : m_all.total;
        out.exposed.compute = m_c.total;
        out.exposed.communication = m_cm.total - m_c.total;
        out.exposed.memcpy = m_all.total - m_cm.total;
        out.exposed.idle = m_windowLength - m_all.total;
        return out;
    }

private:
    /// Before every real time, far enough from the limit that window arithmetic cannot overflow.
    static constexpr TimeNs kNever = std::numeric_limits<TimeNs>::min() / 4;
    /// One union: the latest end of its events so far, and its measure in the window so far.
    struct Union {
        TimeNs end = kNever;
        TimeNs total = 0;
        std::size_t nextRange = 0; // multi-range windows: the first range not before what it measured
    };

    /// An activity event, not of zero length: in all activity, in C when `Compute`, in M when `Communication`,
    /// a kernel when `Kernel`; in the busy union for `all`, and for `kernels` when a kernel.
    template <bool Compute, bool Communication, bool Kernel>
    [[gnu::always_inline]] void add(const Event& e, TimeNs start, TimeNs end, LaneIndex lane, const Event* laneBegin)
    {
        if (!KernelsOnly)
            busy(m_all, e, start, lane, laneBegin);
        extend(m_all, start, end);
        if (Compute || Communication)
            extend(m_cm, start, end);
        if (Compute)
            extend(m_c, start, end);
        if (KernelsOnly && Kernel) {
            busy(m_kernels, e, start, lane, laneBegin);
            extend(m_kernels, start, end);
        }
    }
    /// Adds [start, end) (start <= end) to the union.
    [[gnu::always_inline]] void extend(Union& u, TimeNs start, TimeNs end)
    {
        const TimeNs from = std::max(start, u.end);
        const TimeNs latest = std::max(u.end, end);
        if constexpr (Covered)
            u.total += latest - from; // [from, end) when end passes the latest end; else from = latest
        else
            u.total += inWindow(u, from, end);
        u.end = latest;
    }
    /// Before event `e` of `lane` (whose first event is `laneBegin`) of the busy union `u`, cut to start at
    /// `start`: if it starts after the union's latest end, the current span ends there and `e` opens the next.
    /// The open span is the batch's last record, written when it opens (its end when it closes), so that
    /// nothing about its opener is kept meanwhile; a full batch of closed spans goes to the sink.
    [[gnu::always_inline]] void busy(
        const Union& u, const Event& e, TimeNs start, LaneIndex lane, const Event* laneBegin)
    {
        if (start <= u.end)
            return;
        if (u.end != kNever) [[likely]] {
            m_batch[m_closed].end = u.end;
            if (++m_closed == kSpanBatch) [[unlikely]] {
                m_sink.add({ m_batch, m_closed });
                m_closed = 0;
            }
        }
        BusySpan& open = m_batch[m_closed]; // its end comes when it closes
        open.start = start;
        open.opener = { lane, static_cast<std::uint32_t>(&e - laneBegin) };
        open.openerCorrelation = e.correlation;
    }
    /// |[from, to) ∩ window| (0 when to <= from) for windows that do not cover the events; `from` never
    /// decreases from one call to the next for a union.
    [[gnu::always_inline]] TimeNs inWindow(Union& u, TimeNs from, TimeNs to) const
    {
        if (m_oneRange) // a window of one range
            return std::max<TimeNs>(std::min(to, m_rangeEnd) - std::max(from, m_rangeStart), 0);
        TimeNs total = 0;
        while (u.nextRange < m_window.size() && m_window[u.nextRange].end <= from)
            ++u.nextRange;
        for (std::size_t j = u.nextRange; j < m_window.size() && m_window[j].start < to; ++j)
            total += std::max<TimeNs>(std::min(to, m_window[j].end) - std::max(from, m_window[j].start), 0);
        return total;
    }

    const std::vector<Interval>& m_window;
    const TimeNs m_windowLength;
    // The window's one range, copied here so that the hot loop keeps it in registers.
    const bool m_oneRange;
    const TimeNs m_rangeStart;
    const TimeNs m_rangeEnd;
    const NameClasses::CommunicationTest m_isCommunication;
    Sink& m_sink;
    BusySpan* const m_batch;
    std::size_t m_closed = 0; // the batch's closed spans, before the open one
    Union m_c;
    Union m_cm;
    Union m_all;
    Union m_kernels;
};

/// Sweeps the busiest stream's run and the other streams' events (`others`: FewRunsMerge or HeapMerge) in
/// start order, the other streams first on equal starts. The busiest stream is read in a tight loop up to the
/// next other event's start; in a real trace one stream carries most of the work, so most events cost a read
/// and a well-predicted comparison. All of it is inlined, so that the sweep's running unions stay in registers.
/// `MainComputeOnly`: the busiest stream holds compute kernels only.
template <bool MainComputeOnly, typename Sweep, typename Others>
[[gnu::always_inline]] inline void sweepMerged(Sweep& sweep, const LaneRun& main, Others& others, TimeSlice slice)
{
    const Event* e = main.first;
    for (;;) {
        const TimeNs next = others.nextStart();
        for (; e != main.last && e->start < next; ++e) {
            __builtin_prefetch(e + 24); // about 1 KB ahead: the lane is read at the speed of memory
            if constexpr (MainComputeOnly)
                sweep.takeComputeKernel(*e, e->start, std::min(e->end, slice.to), main.lane, main.begin);
            else
                sweep.take(*e, e->start, std::min(e->end, slice.to), main.lane, main.begin);
        }
        if (others.done())
            return;
        const TimeNs mainStart = e != main.last ? e->start : std::numeric_limits<TimeNs>::max();
        do {
            const MergedEvent o = others.take();
            sweep.take(*o.event, o.start, std::min(o.event->end, slice.to), o.lane, o.laneBegin);
        } while (!others.done() && others.nextStart() <= mainStart);
    }
}

/// Sweeps one slice with `Sweep`: what earlier events leave running at its start (`firsts`: each lane's first
/// event in the slice), then the runs of events that start in it (`runs`, which it takes apart).
template <typename Sweep, typename Sink>
DeviceMeasure sweepRuns(const Trace& trace, const std::vector<LaneIndex>& lanes, const NameClasses& names,
    const LaneSummaries* summaries, const IntervalSet& window, TimeSlice slice, Sink& sink,
    const std::vector<const Event*>& firsts, std::vector<LaneRun>& runs)
{
    std::array<BusySpan, kSpanBatch> batch; // apart from the sweep, whose scalars then stay in registers
    Sweep sweep(window, names, sink, batch.data());
    // What earlier events leave running at the slice's start comes first: it all starts there. The walk back
    // stops where the prefix maximum of ends shows that no earlier event reaches the start.
    for (std::size_t l = 0; l < lanes.size() && slice.from != std::numeric_limits<TimeNs>::min(); ++l) {
        const Lane& lane = trace.lanes()[lanes[l].value];
        for (auto i = static_cast<std::size_t>(firsts[l] - lane.events.data()); i-- > 0;) {
            if (lane.maxEndPrefix[i] <= slice.from)
                break;
            const Event& e = lane.events[i];
            if (e.end > slice.from)
                sweep.take(e, slice.from, std::min(e.end, slice.to), lanes[l], lane.events.data());
        }
    }
    // The busiest stream is read directly; the others, merged among themselves, are taken in between.
    if (runs.empty())
        return sweep.finish();
    const auto busiest = std::max_element(runs.begin(), runs.end(),
        [](const LaneRun& a, const LaneRun& b) { return a.last - a.first < b.last - b.first; });
    const LaneRun main = *busiest;
    runs.erase(busiest);
    // A busiest stream of compute kernels only (its lane summary says so), the usual case: its events are
    // taken as such, without asking each what it is (measured: 1.22 G -> 1.11 G instructions for the 10 M-event
    // pass under callgrind).
    const bool mainComputeOnly = summaries && (*summaries)[main.lane].holdsOnlyComputeKernels();
    if (runs.size() <= FewRunsMerge::kMaxRuns) {
        FewRunsMerge others(runs);
        if (mainComputeOnly)
            sweepMerged<true>(sweep, main, others, slice);
        else
            sweepMerged<false>(sweep, main, others, slice);
    } else {
        HeapMerge others(runs);
        sweepMerged<false>(sweep, main, others, slice);
    }
    return sweep.finish();
}

/// measureDevice() for one activity set.
template <bool KernelsOnly, typename Sink>
DeviceMeasure sweepDevice(const Trace& trace, const std::vector<LaneIndex>& lanes, const NameClasses& names,
    const LaneSummaries* summaries, const IntervalSet& window, TimeSlice slice, Sink& sink)
{
    // Each lane's run of events that start in the slice, and the extent of what the slice takes.
    std::vector<LaneRun> runs;
    std::vector<const Event*> firsts;
    runs.reserve(lanes.size());
    firsts.reserve(lanes.size());
    TimeNs earliest = std::numeric_limits<TimeNs>::max();
    TimeNs latest = std::numeric_limits<TimeNs>::min();
    for (LaneIndex laneIndex : lanes) {
        const Lane& lane = trace.lanes()[laneIndex.value];
        const Event* const begin = lane.events.data();
        const std::span<const Event> starting = eventsStartingIn(lane, slice);
        const Event* const first = starting.data();
        const Event* const last = first + starting.size();
        firsts.push_back(first);
        // The latest end of the events before `last`, those running at the slice's start included.
        if (last != begin)
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
    const bool covered = ranges.size() == 1 && ranges[0].start <= earliest && ranges[0].end >= latest;
    return covered ? sweepRuns<UnionSweep<KernelsOnly, true, Sink>>(
               trace, lanes, names, summaries, window, slice, sink, firsts, runs)
                   : sweepRuns<UnionSweep<KernelsOnly, false, Sink>>(
                       trace, lanes, names, summaries, window, slice, sink, firsts, runs);
}

} // namespace

template <typename Sink>
DeviceMeasure measureDevice(const Trace& trace, const std::vector<LaneIndex>& lanes, const NameClasses& names,
    const LaneSummaries* summaries, ActivitySet set, const IntervalSet& window, TimeSlice slice, Sink& sink)
{
    return set == ActivitySet::Kernels ? sweepDevice<true>(trace, lanes, names, summaries, window, slice, sink)
                                       : sweepDevice<false>(trace, lanes, names, summaries, window, slice, sink);
}

template DeviceMeasure measureDevice<GapEmitter>(const Trace&, const std::vector<LaneIndex>&, const NameClasses&,
    const LaneSummaries*, ActivitySet, const IntervalSet&, TimeSlice, GapEmitter&);
template DeviceMeasure measureDevice<IntervalAppender>(const Trace&, const std::vector<LaneIndex>&, const NameClasses&,
    const LaneSummaries*, ActivitySet, const IntervalSet&, TimeSlice, IntervalAppender&);

} // namespace gapscope
