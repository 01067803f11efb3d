// SPDX-License-Identifier: MIT
#include "core/analysis/gap_finder.h"

#include <algorithm>
#include <cassert>

namespace gapscope {

GapEmitter::GapEmitter(const IntervalSet& window, const Gap& prototype, const GapClassifier& classifier,
    std::vector<Gap>& out, std::size_t ranked)
    : m_ranges(window.intervals())
    , m_prototype(prototype)
    , m_classifier(classifier)
    , m_out(out)
    , m_first(out.size())
    , m_context(classifier.context(prototype.process))
    , m_ranking(ranked)
{
    if (m_ranges.size() == 1)
        m_oneRangeEnd = m_ranges.front().end;
    m_ranking.reserve(ranked);
    if (!m_ranges.empty())
        m_cursor = m_ranges.front().start;
}

void GapEmitter::emit(TimeNs start, TimeNs end, const BusySpan* closing)
{
    const GapCause cause = m_classifier.classify(start, end, closing ? closing->openerCorrelation : 0, m_context);
    // In place, field by field (a Gap built first would be copied in).
    Gap& gap = m_out.emplace_back(start, end, m_prototype.process, m_prototype.device, m_prototype.stream,
        closing ? PackedOptional<EventRef>(closing->opener) : PackedOptional<EventRef>(), cause);
    m_idleByCause[static_cast<std::size_t>(gap.cause)] += gap.duration();
    m_ranking.offer({ gap.duration(), m_emitted++ });
}

void GapEmitter::add(const BusySpan& span)
{
    if (!m_firstSpan) [[unlikely]]
        m_firstSpan = span;
    if (m_oneRangeEnd) [[likely]] {
        // The usual window, one range: the loops below, unrolled.
        if (m_range > 0)
            return;
        const TimeNs end = *m_oneRangeEnd;
        if (span.start >= end) {
            if (m_cursor < end)
                emit(m_cursor, end, &span);
            m_range = 1;
            return;
        }
        if (span.start > m_cursor)
            emit(m_cursor, span.start, &span);
        m_cursor = std::max(m_cursor, span.end);
        m_range = m_cursor >= end ? 1 : 0;
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

std::uint32_t GapEmitter::closingCorrelation(const Gap& gap) const
{
    return gap.closingOp ? m_classifier.trace().event(*gap.closingOp).correlation : 0;
}

void GapEmitter::reclassify(Gap& gap)
{
    GapClassifier::Context fresh = m_classifier.context(gap.process);
    gap.cause = m_classifier.classify(gap.start, gap.end, closingCorrelation(gap), fresh);
    m_idleByCause[static_cast<std::size_t>(gap.cause)] += gap.duration();
}

void GapEmitter::join(GapEmitter& next, TimeNs cut)
{
    assert(m_first == 0 && next.m_first == 0);
    if (m_joined.empty())
        m_joined.push_back(&m_out);
    const auto uncount
        = [this](const Gap& gap) { m_idleByCause[static_cast<std::size_t>(gap.cause)] -= gap.duration(); };
    // Only the gaps after the last span so far lack a closing op: the next slice's first span closes them. They
    // can lie in several lists, after slices without spans.
    if (next.m_firstSpan) {
        for (auto list = m_joined.rbegin(); list != m_joined.rend(); ++list) {
            std::vector<Gap>& gaps = **list;
            std::size_t g = gaps.size();
            for (; g > 0 && !gaps[g - 1].closingOp; --g) {
                uncount(gaps[g - 1]);
                gaps[g - 1].closingOp = next.m_firstSpan->opener;
                reclassify(gaps[g - 1]);
            }
            if (g > 0)
                break;
        }
    }
    for (int c = 0; c < kGapCauseCount; ++c)
        m_idleByCause[c] += next.m_idleByCause[c];
    // A gap that ends at the cut and the next slice's that starts there are one gap: next's first.
    auto last = std::find_if(m_joined.rbegin(), m_joined.rend(), [](const std::vector<Gap>* g) { return !g->empty(); });
    if (last != m_joined.rend() && (*last)->back().end == cut && !next.m_out.empty()
        && next.m_out.front().start == cut) {
        Gap& rest = next.m_out.front();
        uncount((*last)->back());
        uncount(rest);
        rest.start = (*last)->back().start;
        (*last)->pop_back();
        reclassify(rest);
    }
    m_joined.push_back(&next.m_out);
    if (!m_firstSpan)
        m_firstSpan = next.m_firstSpan;
}

} // namespace gapscope
