// SPDX-License-Identifier: MIT
#include "core/analysis/gap_finder.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace gapscope {

GapEmitter::GapEmitter(const IntervalSet& window, const GapClassifier& classifier, GapRun& out, std::size_t ranked)
    : m_ranges(window.intervals())
    , m_classifier(classifier)
    , m_out(out)
    , m_context(classifier.context(out.process))
    , m_ranking(ranked)
{
    assert(out.gaps.empty());
    if (m_ranges.size() == 1)
        m_oneRangeEnd = m_ranges.front().end;
    m_ranking.reserve(ranked);
    if (!m_ranges.empty())
        m_cursor = m_ranges.front().start;
}

void GapEmitter::add(std::span<const BusySpan> spans)
{
    for (std::size_t i = 0; (i = takeUsual(spans, i)) < spans.size(); ++i)
        addInGeneral(spans[i]);
}

std::size_t GapEmitter::takeUsual(std::span<const BusySpan> spans, std::size_t first)
{
    // The usual spans are those that start before m_fastEnd: spans come in ascending order, so they are
    // those from `first` up to a point. Once the cursor passes m_fastEnd (the range is done), the rest of
    // them lie in busy time and emit nothing, as addInGeneral() would have it.
    const BusySpan* const end = std::partition_point(spans.data() + first, spans.data() + spans.size(),
        [fastEnd = m_fastEnd](const BusySpan& span) { return span.start < fastEnd; });
    // Everything the loop changes, in locals (a store of a gap could otherwise alias any member).
    TimeNs cursor = m_cursor;
    GapClassifier::Context context = m_context;
    std::array<TimeNs, kGapCauseCount> idle = m_idleByCause;
    std::size_t emitted = m_emitted;
    auto& gaps = m_out.gaps;
    for (const BusySpan* span = spans.data() + first; span != end; ++span) {
        if (span->start > cursor) {
            const GapCause cause = m_classifier.classify(cursor, span->start, span->openerCorrelation, context);
            gaps.emplace_back(cursor, span->start, span->opener, cause);
            idle[static_cast<std::size_t>(cause)] += span->start - cursor;
            m_ranking.offer({ span->start - cursor, emitted++ });
        }
        cursor = std::max(cursor, span->end);
    }
    if (cursor >= m_fastEnd && end != spans.data() + first) {
        m_range = 1;
        m_fastEnd = std::numeric_limits<TimeNs>::min();
    }
    m_cursor = cursor;
    m_context = context;
    m_idleByCause = idle;
    m_emitted = emitted;
    return static_cast<std::size_t>(end - spans.data());
}

void GapEmitter::addInGeneral(const BusySpan& span)
{
    if (!m_firstOpener)
        m_firstOpener = span.opener;
    if (m_oneRangeEnd) {
        // A window of one range: the loops below, unrolled; add() takes the next spans while the range lasts.
        if (m_range > 0)
            return;
        const TimeNs end = *m_oneRangeEnd;
        if (span.start >= end) {
            if (m_cursor < end)
                emit(m_cursor, end, &span);
            m_range = 1;
            m_fastEnd = std::numeric_limits<TimeNs>::min();
            return;
        }
        if (span.start > m_cursor)
            emit(m_cursor, span.start, &span);
        m_cursor = std::max(m_cursor, span.end);
        m_range = m_cursor >= end ? 1 : 0;
        m_fastEnd = m_range == 0 ? end : std::numeric_limits<TimeNs>::min();
        return;
    }
    // `m_cursor` is the earliest time of range m_range not yet known to be busy or in a gap.
    // Ranges that end before this span starts end idle: their closing op is this span's opener, the
    // first activity starting at or after their end.
    while (m_range < m_ranges.size() && m_ranges[m_range].end <= span.start) {
        if (m_cursor < m_ranges[m_range].end)
            emit(m_cursor, m_ranges[m_range].end, &span);
        nextRange();
    }
    if (m_range == m_ranges.size())
        return;
    if (span.start > m_cursor)
        emit(m_cursor, span.start, &span);
    m_cursor = std::max(m_cursor, span.end);
    while (m_range < m_ranges.size() && m_ranges[m_range].end <= m_cursor)
        nextRange();
}

void GapEmitter::nextRange()
{
    ++m_range;
    if (m_range < m_ranges.size())
        m_cursor = std::max(m_cursor, m_ranges[m_range].start);
}

void GapEmitter::finish()
{
    for (; m_range < m_ranges.size(); nextRange()) {
        if (m_cursor < m_ranges[m_range].end)
            emit(m_cursor, m_ranges[m_range].end, nullptr);
    }
}

std::uint32_t GapEmitter::closingCorrelation(const StoredGap& gap) const
{
    const std::optional<EventRef> closing = gap.closingOp();
    return closing ? m_classifier.trace().event(*closing).correlation : 0;
}

void GapEmitter::reclassify(StoredGap& gap)
{
    GapClassifier::Context fresh = m_classifier.context(m_out.process);
    gap.setCause(m_classifier.classify(gap.start, gap.end, closingCorrelation(gap), fresh));
    m_idleByCause[static_cast<std::size_t>(gap.cause())] += gap.duration();
}

void GapEmitter::join(GapEmitter& next, TimeNs cut)
{
    if (m_joined.empty())
        m_joined.push_back(&m_out);
    const auto uncount
        = [this](const StoredGap& gap) { m_idleByCause[static_cast<std::size_t>(gap.cause())] -= gap.duration(); };
    // Only the gaps after the last span so far lack a closing op: the next slice's first span closes them. They
    // can lie in several lists, after slices without spans.
    if (next.m_firstOpener) {
        for (auto list = m_joined.rbegin(); list != m_joined.rend(); ++list) {
            auto& gaps = (*list)->gaps;
            std::size_t g = gaps.size();
            for (; g > 0 && !gaps[g - 1].closingOp(); --g) {
                uncount(gaps[g - 1]);
                gaps[g - 1].setClosingOp(*next.m_firstOpener);
                reclassify(gaps[g - 1]);
            }
            if (g > 0)
                break;
        }
    }
    for (int c = 0; c < kGapCauseCount; ++c)
        m_idleByCause[c] += next.m_idleByCause[c];
    // A gap that ends at the cut and the next slice's that starts there are one gap: next's first.
    auto last = std::find_if(m_joined.rbegin(), m_joined.rend(), [](const GapRun* g) { return !g->gaps.empty(); });
    if (last != m_joined.rend() && (*last)->gaps.back().end == cut && !next.m_out.gaps.empty()
        && next.m_out.gaps.front().start == cut) {
        StoredGap& rest = next.m_out.gaps.front();
        uncount((*last)->gaps.back());
        uncount(rest);
        rest.start = (*last)->gaps.back().start;
        (*last)->gaps.pop_back();
        reclassify(rest);
    }
    m_joined.push_back(&next.m_out);
    if (!m_firstOpener)
        m_firstOpener = next.m_firstOpener;
}

} // namespace gapscope
