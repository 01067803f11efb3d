// SPDX-License-Identifier: MIT
#pragma once

// Ctrl+F: a name field with next/previous that steps through matching events in time order.

#include "app/models/event_search.h"

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;

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

signals:
    void found(gapscope::EventRef event);
    /// Asks the owner for the current selection and visible range, then calls findNext/findPrevious.
    void nextRequested();
    void previousRequested();

private:
    void updateSearch();

    std::shared_ptr<const Trace> m_trace;
    std::unique_ptr<models::EventSearch> m_search;
    QString m_searchText;
    QLineEdit* m_field;
    QLabel* m_status;
};

} // namespace gapscope::app
