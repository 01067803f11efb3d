// SPDX-License-Identifier: MIT
#pragma once

// Ctrl+F: a name field with next/previous that steps through matching events in time order.

#include "app/models/event_search.h"

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QMainWindow;

namespace gapscope::timeline {
class TimelineView;
} // namespace gapscope::timeline

namespace gapscope::app {

class SearchBar : public QWidget {
    Q_OBJECT
public:
    explicit SearchBar(QWidget* parent = nullptr);
    void setTrace(std::shared_ptr<const Trace> trace);
    QLineEdit* field() const { return m_field; }
    /// Steps to the next/previous match after `current` (or from `visibleStart` without one).
    void findNext(std::optional<EventRef> current, TimeNs visibleStart);
    void findPrevious(std::optional<EventRef> current, TimeNs visibleEnd);

    /// "3/12" after stepping to a match, "12 matches" before; empty without a search.
    QString statusText() const;
    /// By StringId, the names that match the text searched for; null without a search.
    const std::vector<bool>* matchingNames() const { return m_search ? &m_search->matchingNames() : nullptr; }

signals:
    void found(gapscope::EventRef event);
    /// Escape in the field: the owner gives the focus back to the timeline.
    void leaveRequested();
    /// The names searched for changed (the timeline highlights their events).
    void matchesChanged();
    /// Asks the owner for the current selection and visible range, then calls findNext/findPrevious.
    void nextRequested();
    void previousRequested();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void updateSearch();
    void showPosition(EventRef hit);

    std::shared_ptr<const Trace> m_trace;
    std::unique_ptr<models::EventSearch> m_search;
    QString m_searchText;
    std::size_t m_count = 0;
    QLineEdit* m_field;
    QLabel* m_status;
};

/// Puts the bar in the right corner of the window's menu bar (never folded into a toolbar's overflow menu on a narrow
/// window) and wires it: Ctrl+F to the field, F3 / Shift+F3 and the bar's buttons step from the view's selection (or
/// its visible range), the view outlines the matching names, Escape gives the focus back to the view.
void installSearchBar(QMainWindow* window, SearchBar* bar, timeline::TimelineView* view);

} // namespace gapscope::app
