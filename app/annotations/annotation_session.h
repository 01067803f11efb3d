// SPDX-License-Identifier: MIT
#pragma once

// The notes part of the main window: the controller of the trace on screen, the Annotations and
// Note docks, the actions (undo/redo, annotate a range, explain a gap, save notes as, export the
// hypotheses report), the messages about the sidecar, and the brackets on the timeline. The main
// window creates one, hands it each trace and analysis it shows, and puts its actions in its menus.

#include "app/timeline/timeline_data.h"
#include "app/timeline/timeline_state.h"

#include <QObject>
#include <QString>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;
class QMessageBox;
class QPoint;

namespace gapscope::timeline {
class TimelineView;
} // namespace gapscope::timeline

namespace gapscope::app {

class AnnotationController;
class AnnotationEditor;
class AnnotationsDock;
class GapsDock;

class AnnotationSession : public QObject {
    Q_OBJECT
public:
    AnnotationSession(
        QMainWindow* window, timeline::TimelineView* view, timeline::TimelineState* state, GapsDock* gapsDock);
    ~AnnotationSession() override;

    /// A new trace is on screen: its notes are opened from the sidecar of each of its files (a note is kept with
    /// the file whose lanes it was made on, NotesByFile).
    void setTrace(const timeline::LoadedTrace& loaded);
    /// The analysis shown (gaps to explain, options the figures use).
    void setAnalysis(const timeline::AnalysisSnapshot& analysis);

    /// Makes a note from a gap of the analysis shown (AnalysisResult::gaps index), or shows the note
    /// already made from it; selects it and opens it in the editor. Returns its id ("" when impossible).
    QString explainGap(std::size_t gap);
    /// Makes a note over [range.first, range.second), selects it and opens it in the editor. With `lane` (the lane
    /// the range was drawn on) the note concerns that lane and is kept with the file of its process; without, it is
    /// over the whole trace (kept with the first file).
    QString annotateRange(timeline::TimeRange range, std::optional<LaneIndex> lane = std::nullopt);
    /// Selects a note, opens it in the editor and (with `zoom`) zooms the timeline to its range.
    void showAnnotation(const QString& id, bool zoom = true);
    /// Writes the hypotheses report (the same text as `gapscope export TRACE --markdown OUT`).
    /// Returns an error message, empty on success.
    QString exportMarkdown(const QString& path);
    /// The right-click menu of the timeline at a viewport point (the caller owns and runs it).
    QMenu* timelineMenu(const QPoint& viewportPos, QWidget* parent);
    /// Before the window closes: notes that could not be saved go to a recovery file.
    void aboutToClose();

    AnnotationController* controller() const { return m_controller; }
    AnnotationsDock* dock() const { return m_dock; }
    AnnotationEditor* editor() const { return m_editor; }
    QDockWidget* dockWidget() const { return m_dockWidget; }
    QDockWidget* editorDockWidget() const { return m_editorWidget; }
    /// The non-modal message about a failed save or a sidecar that cannot be read (null until needed).
    QMessageBox* messageBox() const { return m_message; }

    QAction* undoAction() const { return m_undo; }
    QAction* redoAction() const { return m_redo; }
    QAction* annotateSelectionAction() const { return m_annotateSelection; }
    QAction* explainGapAction() const { return m_explainGap; }
    QAction* saveNotesAsAction() const { return m_saveAs; }
    QAction* exportHypothesesAction() const { return m_export; }

signals:
    /// The timeline's right-click menu is about to show: other parts add their entries to it.
    void timelineMenuAboutToShow(QMenu* menu, const QPoint& viewportPos);

private:
    /// The trace the notes are on: BASE as read while comparing, else the trace on screen.
    std::shared_ptr<const Trace> notesTrace() const;
    void createActions();
    void showMessage(const QString& title, const QString& text, bool offerSaveAs);
    void updateActions();
    void updateMarks();
    void saveNotesAs();
    void exportHypotheses();

    QMainWindow* m_window;
    timeline::TimelineView* m_view;
    timeline::TimelineState* m_state;
    GapsDock* m_gapsDock;
    AnnotationController* m_controller;
    AnnotationsDock* m_dock;
    AnnotationEditor* m_editor;
    QDockWidget* m_dockWidget;
    QDockWidget* m_editorWidget;
    QMessageBox* m_message = nullptr;
    QAction* m_undo = nullptr;
    QAction* m_redo = nullptr;
    QAction* m_annotateSelection = nullptr;
    QAction* m_explainGap = nullptr;
    QAction* m_saveAs = nullptr;
    QAction* m_export = nullptr;
    QAction* m_messageSaveAs = nullptr;

    timeline::LoadedTrace m_loaded;
    timeline::AnalysisSnapshot m_analysis;
};

} // namespace gapscope::app
