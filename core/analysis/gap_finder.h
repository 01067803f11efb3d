// SPDX-License-Identifier: MIT
#pragma once

// Internal to the analysis: gaps (docs/definitions.md) from busy spans, and why they happened.

#include "core/analysis/analysis.h"
#include "core/analysis/busy_spans.h"
#include "core/analysis/gap_ranking.h"
#include "core/analysis/host_scan.h"

#include <array>
#include <limits>
#include <optional>
#include <span>
#include <vector>

namespace gapscope {

/// Applies docs/definitions.md's cause rules, in their order, to gaps whose closing op is set.
class GapClassifier {
public:
    /// `syncCalls` is indexed by process.
    GapClassifier(const Trace& trace, const std::vector<SyncCallIndex>& syncCalls, TimeNs launchThresholdNs);
    /// What classify() keeps for the gaps of one device or stream: its process's tables, and how far its
    /// synchronizing calls were read.
    struct Context {
        ProcessIndex process;
        Trace::LaunchStartTable launches;
        const SyncCallIndex* syncCalls = nullptr; // none: the process has none
        SyncCallIndex::Cursor syncCursor;
    };
    Context context(ProcessIndex process) const;
    /// The cause of the gap [start, end) from its closing op's launch, found by the op's correlation id (0:
    /// none, or no closing op) in the process's table of launch starts (one load); the evidence events are
    /// looked up again by gapEvidence() when someone asks. `context` serves gaps in time order.
    GapCause classify(TimeNs start, TimeNs end, std::uint32_t closingCorrelation, Context& context) const
    {
        TimeNs launchStart = Trace::LaunchStartTable::kNone;
        if (context.launches.present) [[likely]] {
            // Below base, the offset wraps and is large; id 0 (none) has no slot, nor has any id without a launch.
            const std::uint32_t offset = closingCorrelation - context.launches.base;
            const bool inTable = offset < context.launches.size;
            launchStart = context.launches.starts[inTable ? offset : 0];
            launchStart = inTable ? launchStart : Trace::LaunchStartTable::kNone;
        } else if (const std::optional<TimeNs> found = m_trace.launchStartOf(context.process, closingCorrelation)) {
            launchStart = *found;
        }
        // docs/definitions.md's rules in their order: no launch call, unknown; else sync, host, launch, dependency.
        // Which one applies is what the data decides: selects, not branches.
        const bool launched = launchStart != Trace::LaunchStartTable::kNone;
        const bool sync = context.syncCalls && context.syncCalls->anyRunningAt(start, context.syncCursor);
        static_assert(static_cast<int>(GapCause::Sync) == 0 && static_cast<int>(GapCause::Host) == 1
            && static_cast<int>(GapCause::Launch) == 2 && static_cast<int>(GapCause::Dependency) == 3
            && static_cast<int>(GapCause::Unknown) == 4);
        unsigned cause = end - start <= m_launchThresholdNs ? 2u : 3u;
        cause = launchStart >= start ? 1u : cause;
        cause = sync ? 0u : cause;
        cause = launched ? cause : 4u;
        return static_cast<GapCause>(cause);
    }
    const Trace& trace() const { return m_trace; }

private:
    const Trace& m_trace;
    const std::vector<SyncCallIndex>& m_syncCalls;
    TimeNs m_launchThresholdNs;
};

/// Turns busy spans, fed in ascending order, into the classified gaps of a window: the maximal sub-intervals
/// of each window range that no span covers, in time order. Each gap gets `prototype`'s process/device/stream,
/// as closing op the opener of the first span starting at or after the gap's end (none when the activity ends
/// before), and its cause. Nothing is stored but the gaps.
class GapEmitter {
public:
    /// With `ranked` > 0, also keeps the `ranked` longest of its gaps (ranked()), as they are emitted.
    /// The gaps go to `out` (empty), whose process, device and stream they get.
    GapEmitter(const IntervalSet& window, const GapClassifier& classifier, GapRun& out, std::size_t ranked = 0);
    /// Takes the next busy spans (spans come in ascending order), a batch at a time (device_pass.h), in a loop
    /// whose state stays in registers.
    void add(std::span<const BusySpan> spans);
    /// Emits the idle ends of the window after the last span.
    void finish();
    /// Idle time of the emitted gaps by cause.
    const std::array<TimeNs, kGapCauseCount>& idleByCause() const { return m_idleByCause; }
    /// Whether any span came (a stream without activity has no gaps of its own: then finish() is not called).
    bool sawActivity() const { return m_firstOpener.has_value(); }
    /// Its longest gaps (at most `ranked`; all of them if it has fewer), in no particular order, by their index
    /// in its list; as emitted (join() does not update it).
    const std::vector<RankedGap>& ranked() const { return m_ranking.kept(); }
    /// Joins the gaps of `next`, which covered the time slice after the last one joined so far (device_pass.h;
    /// at first, this one's) and emitted into a list of its own, as one pass over the slices would have found
    /// them: the trailing gaps so far get the next slice's first span as closing op, and a gap that ends at
    /// `cut` and the next slice's gap starting there become one gap (next's first; the list that held the
    /// other no longer ends with it); causes and idle time by cause (here, for all the slices) follow. All
    /// emitters have finished; the lists, one after the other, are then the gaps of the slices.
    void join(GapEmitter& next, TimeNs cut);

private:
    [[gnu::always_inline]] void emit(TimeNs start, TimeNs end, const BusySpan* closing)
    {
        const GapCause cause = m_classifier.classify(start, end, closing ? closing->openerCorrelation : 0, m_context);
        m_out.gaps.emplace_back(start, end, closing ? std::optional<EventRef>(closing->opener) : std::nullopt, cause);
        m_idleByCause[static_cast<std::size_t>(cause)] += end - start;
        m_ranking.offer({ end - start, m_emitted++ });
    }

    /// `spans` from `first` on, up to the first that is not the usual case (a window of one range, a span
    /// that starts inside it, not the first): gaps emitted on the way; returns where it stopped.
    std::size_t takeUsual(std::span<const BusySpan> spans, std::size_t first);
    /// The other cases: the first span, windows of several ranges, spans past the window's end.
    void addInGeneral(const BusySpan& span);
    void nextRange();
    /// Gives a gap its cause again (after its closing op or extent changed).
    void reclassify(StoredGap& gap);
    /// The correlation id of a gap's closing op, 0 without one.
    std::uint32_t closingCorrelation(const StoredGap& gap) const;

    const std::vector<Interval>& m_ranges;
    const GapClassifier& m_classifier;
    GapRun& m_out;
    std::size_t m_emitted = 0; // the gaps it has put in m_out
    std::size_t m_range = 0;
    TimeNs m_cursor = 0;
    /// The end of the window's range when it has one (the usual case, which add() serves on a short path).
    std::optional<TimeNs> m_oneRangeEnd;
    /// Spans starting before this are the usual case (takeUsual()): the one range's end once the first span
    /// came and while that range is not done; before every time otherwise.
    TimeNs m_fastEnd = std::numeric_limits<TimeNs>::min();
    std::array<TimeNs, kGapCauseCount> m_idleByCause {};
    GapClassifier::Context m_context;
    /// The op that opened the first span.
    std::optional<EventRef> m_firstOpener;
    /// The lists joined so far, this one's first (join()).
    std::vector<GapRun*> m_joined;
    GapRanking m_ranking;
};

} // namespace gapscope
