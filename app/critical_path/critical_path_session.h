// SPDX-License-Identifier: MIT
#pragma once

// View › Critical Path: the Critical Path dock and the outline of the path on the timeline. The path is computed
// off the GUI thread when the dock is first shown for a trace (not at load): the median counted step of the first
// process with GPU activity, as `gapscope critical-path` takes without options. A right click on an op offers
// "What if this took 50 % less?", answered with the predicted step p50 over every counted step (as `gapscope
// whatif`); "Write Prediction into Note" records it in the selected note (undoable, saved at once), where `diff
// --note` and Measure against… check it.

#include "app/mainwindow/latest_job.h"
#include "core/analysis/critical_path_outline.h"
#include "core/annotations/annotation.h"

#include <QObject>

#include <memory>
#include <optional>

class QDockWidget;
class QLabel;
class QMenu;
class QPoint;
class QPushButton;
class QTextBrowser;

namespace gapscope::timeline {
class TimelineView;
} // namespace gapscope::timeline

namespace gapscope::app {

class AnnotationSession;
class CriticalPathOverlay;
class MainWindow;

class CriticalPathSession : public QObject {
    Q_OBJECT
public:
    /// Adds the dock (hidden) to `window`, beside the Gaps dock; its toggle is View › Critical Path.
    CriticalPathSession(MainWindow* window, timeline::TimelineView* view, AnnotationSession* annotations);

    /// Computes the path of the trace on screen (off the GUI thread); pathShown() follows.
    void compute();
    /// Predicts the step time if `event`'s name took `percentLess` % less (off the GUI thread); whatIfShown()
    /// follows.
    void whatIfShorter(EventRef event, int percentLess);
    /// For a gap of the analysis on screen: the what-if of its cause, the host range it waited for (a `host` gap)
    /// or the synchronizing call that drained the GPU (`sync`), `percentLess` % shorter. False when the gap's
    /// evidence names neither.
    bool whatIfGap(std::size_t gap, int percentLess);
    /// Writes the last prediction into the selected note; false when there is no prediction or no note selected.
    bool recordPrediction();

    QDockWidget* dockWidget() const { return m_dock; }
    /// The dock's account of the path (or why there is none), scrollable.
    QTextBrowser* summary() const { return m_summary; }
    QLabel* whatIfLabel() const { return m_whatIf; }
    QPushButton* recordButton() const { return m_record; }
    CriticalPathOverlay* overlay() const { return m_overlay; }
    const std::optional<PredictedChange>& prediction() const { return m_prediction; }

signals:
    void pathShown();
    void whatIfShown();

private:
    void onTraceShown();
    void showPath(std::shared_ptr<const PathOutline> outline);
    void addMenuEntries(QMenu* menu, const QPoint& viewportPos);
    /// The event a gap's evidence blames: its host range, else its synchronizing call.
    std::optional<EventRef> gapCause(std::size_t gap) const;
    void updateRecordButton();

    MainWindow* m_window;
    timeline::TimelineView* m_view;
    AnnotationSession* m_annotations;
    QDockWidget* m_dock;
    QTextBrowser* m_summary;
    QLabel* m_whatIf;
    QPushButton* m_record;
    CriticalPathOverlay* m_overlay;
    std::shared_ptr<const Trace> m_trace;
    bool m_computed = false;
    std::optional<PredictedChange> m_prediction;
    LatestJob m_pathJob;
    LatestJob m_whatIfJob;
};

} // namespace gapscope::app
