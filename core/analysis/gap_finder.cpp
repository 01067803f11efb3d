// SPDX-License-Identifier: MIT
#include "core/analysis/gap_finder.h"

#include <algorithm>

namespace gapscope {

GapEmitter::GapEmitter(const IntervalSet& window, const Gap& prototype, std::vector<Gap>& out)
    : m_ranges(window.intervals())
    , m_prototype(prototype)
    , m_out(out)
{
    if (!m_ranges.empty())
        m_cursor = m_ranges.front().start;
}

void GapEmitter::emit(TimeNs start, TimeNs end, const BusySpan* closing)
{
    Gap& gap = m_out.emplace_back();
    gap.process = m_prototype.process;
    gap.device = m_prototype.device;
    gap.stream = m_prototype.stream;
    gap.start = start;
    gap.end = end;
    if (closing)
        gap.evidence.closingOp = closing->opener;
}

void GapEmitter::add(const BusySpan& span)
{
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

} // namespace gapscope
