// SPDX-License-Identifier: MIT
#pragma once

// The Gaps dock: a threshold for the shortest gap highlighted, and the gaps at least that long,
// longest first. Choosing a row asks for that gap to be shown.

#include "app/models/gap_model.h"

#include <QStringList>
#include <QWidget>

class QAction;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace gapscope::app {

class GapsDock : public QWidget {
    Q_OBJECT
public:
    explicit GapsDock(QWidget* parent = nullptr);

    void setData(std::shared_ptr<const Trace> trace, timeline::AnalysisSnapshot analysis);
    TimeNs threshold() const;
    /// Sets the threshold and shows it with its unit ("100 µs"); emits thresholdChanged when it changed.
    void setThreshold(TimeNs threshold);
    /// The field the threshold is typed in, with a unit ("10 ms"); a plain number is µs.
    QLineEdit* thresholdField() const { return m_threshold; }
    /// The legend of the gap colours above the table (View › Gap Legend).
    QLabel* legend() const { return m_legend; }
    void setLegendVisible(bool visible);
    /// The legend's text: one swatch per cause, in the colour its band has over a lane.
    static QString legendHtml();
    /// Selects the row of a gap without emitting gapActivated (the timeline already shows it).
    void showGap(std::optional<std::size_t> gap);

    QTableView* table() const { return m_table; }
    models::GapModel* model() const { return m_model; }
    /// The view row (after sorting) of a gap.
    std::optional<int> viewRowOf(std::size_t gap) const;
    /// "Explain This Gap…" (button and context menu): asks for a note about the current row's gap.
    QAction* explainAction() const { return m_explain; }

signals:
    void gapActivated(std::size_t gap);
    void thresholdChanged(gapscope::TimeNs threshold);
    /// "Explain This Gap…" was chosen for a gap (index into AnalysisResult::gaps).
    void explainRequested(std::size_t gap);

private:
    void updateCount();

    models::GapModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    QLineEdit* m_threshold;
    QLabel* m_legend;
    QLabel* m_count;
    /// The names of the trace's files that were cut short (the figures cover only what was read of them).
    QStringList m_cutShort;
    TimeNs m_thresholdNs = -1;
    QAction* m_explain;
    bool m_showing = false;
};

} // namespace gapscope::app
