// SPDX-License-Identifier: MIT
#pragma once

// The CPU Samples dock: the top-down tree (callers first) of the samples in the selected range, one top row per
// sampled thread; the range's Details give the bottom-up list of the same samples. Rows are made as they are
// expanded (models::SampleTreeModel).

#include "app/models/sample_tree_model.h"

#include <QObject>

#include <memory>

class QDockWidget;
class QLabel;
class QMainWindow;
class QTreeView;

namespace gapscope::timeline {
class TimelineState;
} // namespace gapscope::timeline

namespace gapscope::app {

class SamplesDock : public QObject {
    Q_OBJECT
public:
    SamplesDock(QMainWindow* window, timeline::TimelineState* state);

    QDockWidget* dockWidget() const { return m_dockWidget; }
    QTreeView* tree() const { return m_tree; }
    models::SampleTreeModel* model() const { return m_model; }
    QLabel* header() const { return m_header; }

    /// A new trace (or none) is on screen.
    void setTrace(std::shared_ptr<const Trace> trace);

private:
    /// The selected range's samples, or a line saying what to select.
    void showSelection();

    timeline::TimelineState* m_state;
    std::shared_ptr<const Trace> m_trace;
    models::SampleTreeModel* m_model;
    QDockWidget* m_dockWidget;
    QLabel* m_header;
    QTreeView* m_tree;
};

} // namespace gapscope::app
