// SPDX-License-Identifier: MIT
#pragma once

// Zoom and selection of the timeline, kept out of the widget so that docks, menus and tests can drive
// and observe it (hotspot's FilterAndZoomStack plays this part there).

#include "core/model/trace.h"

#include <QElapsedTimer>
#include <QObject>

#include <optional>
#include <utility>
#include <vector>

namespace gapscope::timeline {

using TimeRange = std::pair<TimeNs, TimeNs>;

class TimelineState : public QObject {
    Q_OBJECT
public:
    /// How a range change enters the back/forward history.
    enum class History {
        Push, // a discrete jump (fit, zoom to a gap): the old range can be gone back to
        Coalesce, // continuous navigation (wheel, drag, keys): one entry per burst
        None,
    };

    explicit TimelineState(QObject* parent = nullptr);

    /// New trace: the whole [start, end) is visible, history and selection are cleared. Times are shown from
    /// `origin` (the first event, which samples or counters taken earlier may precede), or from `start`.
    void reset(TimeNs start, TimeNs end, std::optional<TimeNs> origin = std::nullopt);
    /// What Fit Whole Trace shows and navigation stays within: everything drawn (core/model/view_extent.h).
    TimeRange bounds() const { return m_bounds; }
    /// The time shown as 0 (rulers, tooltips, Details): the trace's first event.
    TimeNs origin() const { return m_origin; }
    TimeRange visibleRange() const { return m_visible; }
    void setVisibleRange(TimeRange range, History history);

    bool canGoBack() const { return !m_back.empty(); }
    bool canGoForward() const { return !m_forward.empty(); }
    void goBack();
    void goForward();

    std::optional<EventRef> selectedEvent() const { return m_selectedEvent; }
    /// Index into AnalysisResult::gaps.
    std::optional<std::size_t> selectedGap() const { return m_selectedGap; }
    std::optional<TimeRange> selectedRange() const { return m_selectedRange; }
    /// The lane the selected range was drawn on (its press point), if any: a note made from the range concerns it.
    std::optional<LaneIndex> selectedRangeLane() const { return m_selectedRangeLane; }
    /// Selecting one kind of thing clears the others: the details panel shows one at a time.
    void selectEvent(std::optional<EventRef> event);
    void selectGap(std::optional<std::size_t> gap);
    void selectRange(std::optional<TimeRange> range, std::optional<LaneIndex> lane = std::nullopt);
    void clearSelection();

signals:
    void visibleRangeChanged(gapscope::timeline::TimeRange range);
    void historyChanged();
    void selectionChanged();

private:
    void pushHistory();

    TimeRange m_bounds { 0, 1 };
    TimeNs m_origin = 0;
    TimeRange m_visible { 0, 1 };
    std::vector<TimeRange> m_back;
    std::vector<TimeRange> m_forward;
    QElapsedTimer m_lastCoalesced;
    std::optional<EventRef> m_selectedEvent;
    std::optional<std::size_t> m_selectedGap;
    std::optional<TimeRange> m_selectedRange;
    std::optional<LaneIndex> m_selectedRangeLane;
};

} // namespace gapscope::timeline
