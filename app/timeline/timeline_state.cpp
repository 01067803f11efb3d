// SPDX-License-Identifier: MIT
#include "app/timeline/timeline_state.h"

namespace gapscope::timeline {

namespace {

// Continuous navigation within this many ms of the last step is one history entry.
constexpr qint64 kCoalesceMs = 700;
constexpr std::size_t kMaxHistory = 200;

} // namespace

TimelineState::TimelineState(QObject* parent)
    : QObject(parent)
{ }

void TimelineState::reset(TimeNs start, TimeNs end, std::optional<TimeNs> origin)
{
    m_bounds = { start, std::max(end, start + 1) };
    m_origin = origin.value_or(start);
    m_visible = m_bounds;
    m_back.clear();
    m_forward.clear();
    m_lastCoalesced.invalidate();
    m_selectedEvent.reset();
    m_selectedGap.reset();
    m_selectedRange.reset();
    m_selectedRangeLane.reset();
    emit historyChanged();
    emit selectionChanged();
    emit visibleRangeChanged(m_visible);
}

void TimelineState::pushHistory()
{
    if (!m_back.empty() && m_back.back() == m_visible)
        return;
    m_back.push_back(m_visible);
    if (m_back.size() > kMaxHistory)
        m_back.erase(m_back.begin());
    m_forward.clear();
}

void TimelineState::setVisibleRange(TimeRange range, History history)
{
    if (range.second <= range.first)
        range.second = range.first + 1;
    if (range == m_visible)
        return;
    const bool hadBack = canGoBack();
    const bool hadForward = canGoForward();
    if (history == History::Push) {
        pushHistory();
        m_lastCoalesced.invalidate();
    } else if (history == History::Coalesce) {
        if (!m_lastCoalesced.isValid() || m_lastCoalesced.elapsed() > kCoalesceMs)
            pushHistory();
        m_lastCoalesced.start();
    }
    m_visible = range;
    if (hadBack != canGoBack() || hadForward != canGoForward() || history != History::None)
        emit historyChanged();
    emit visibleRangeChanged(m_visible);
}

void TimelineState::goBack()
{
    if (m_back.empty())
        return;
    m_forward.push_back(m_visible);
    m_visible = m_back.back();
    m_back.pop_back();
    m_lastCoalesced.invalidate();
    emit historyChanged();
    emit visibleRangeChanged(m_visible);
}

void TimelineState::goForward()
{
    if (m_forward.empty())
        return;
    m_back.push_back(m_visible);
    m_visible = m_forward.back();
    m_forward.pop_back();
    m_lastCoalesced.invalidate();
    emit historyChanged();
    emit visibleRangeChanged(m_visible);
}

void TimelineState::selectEvent(std::optional<EventRef> event)
{
    if (event == m_selectedEvent && !m_selectedGap && !m_selectedRange)
        return;
    m_selectedEvent = event;
    m_selectedGap.reset();
    m_selectedRange.reset();
    m_selectedRangeLane.reset();
    emit selectionChanged();
}

void TimelineState::selectGap(std::optional<std::size_t> gap)
{
    if (gap == m_selectedGap && !m_selectedEvent && !m_selectedRange)
        return;
    m_selectedGap = gap;
    m_selectedEvent.reset();
    m_selectedRange.reset();
    m_selectedRangeLane.reset();
    emit selectionChanged();
}

void TimelineState::selectRange(std::optional<TimeRange> range, std::optional<LaneIndex> lane)
{
    if (!range)
        lane.reset();
    if (range == m_selectedRange && lane == m_selectedRangeLane && !m_selectedEvent && !m_selectedGap)
        return;
    m_selectedRange = range;
    m_selectedRangeLane = lane;
    m_selectedEvent.reset();
    m_selectedGap.reset();
    emit selectionChanged();
}

void TimelineState::clearSelection()
{
    if (!m_selectedEvent && !m_selectedGap && !m_selectedRange)
        return;
    m_selectedEvent.reset();
    m_selectedGap.reset();
    m_selectedRange.reset();
    m_selectedRangeLane.reset();
    emit selectionChanged();
}

} // namespace gapscope::timeline
