// SPDX-License-Identifier: MIT
#pragma once

// View › Critical Path: the Critical Path dock and the outline of the path on the timeline. The path is computed
// off the GUI thread when the dock is first shown for a trace (not at load): the median counted step of the first
// process with GPU activity, as `gapscope critical-path` takes without options. A right click on an op or a gap
// offers "What if this took 25 / 50 / 75 % less, or were removed?", and the dock's "N % less" box any other
// share, answered with the predicted step p50 over every counted step (as `gapscope whatif`, warm-up left out as
// there); the step graphs are built on the first what-if and kept, so that each further one is a re-schedule.
// "Write Prediction into Note" records it in the selected note (undoable, saved at once), where `diff --note` and
// Measure against… check it.

#include "app/mainwindow/latest_job.h"
#include "core/analysis/critical_path_outline.h"
#include "core/annotations/annotation.h"

#include <QObject>

#include <memory>
#include <optional>
#include <string>

class QDockWidget;
class QLabel;
class QMenu;
class QPoint;
class QPushButton;
class QSpinBox;
class QTextBrowser;

namespace gapscope::timeline {
class TimelineView;
} // namespace gapscope::timeline

namespace gapscope {
class StepPredictor;
} // namespace gapscope

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
    /// Predicts the step time if the ops of `event`'s name took `percentLess` % less (100: removed), off the GUI
    /// thread; whatIfShown() follows. The name stays the dock's what-if target: its "N % less" box asks again.
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
    /// The dock's "N % less" of the last what-if's op: a new value predicts again at once.
    QSpinBox* percentBox() const { return m_percent; }
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
    /// The what-if of m_targetName at the box's percentage.
    void predictTarget();

    MainWindow* m_window;
    timeline::TimelineView* m_view;
    AnnotationSession* m_annotations;
    QDockWidget* m_dock;
    QTextBrowser* m_summary;
    QLabel* m_whatIf;
    QPushButton* m_record;
    QSpinBox* m_percent;
    CriticalPathOverlay* m_overlay;
    std::shared_ptr<const Trace> m_trace;
    bool m_computed = false;
    std::optional<PredictedChange> m_prediction;
    /// The op name the what-ifs are of (the last one asked about), and the graphs they re-schedule.
    std::optional<std::string> m_targetName;
    std::shared_ptr<const StepPredictor> m_predictor;
    LatestJob m_pathJob;
    LatestJob m_whatIfJob;
};

} // namespace gapscope::app
