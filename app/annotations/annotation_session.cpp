// SPDX-License-Identifier: MIT
#include "app/annotations/annotation_session.h"

#include "core/analysis/compared_traces.h"

#include "app/annotations/annotation_controller.h"
#include "app/annotations/annotation_editor.h"
#include "app/annotations/annotation_list_model.h"
#include "app/annotations/annotations_dock.h"
#include "app/annotations/note_measure_panel.h"
#include "app/mainwindow/gaps_dock.h"
#include "app/models/event_details.h"
#include "app/timeline/timeline_view.h"
#include "core/annotations/gap_explanation.h"
#include "core/annotations/markdown_report.h"
#include "core/annotations/plain_note_text.h"
#include "core/io/common/atomic_file.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QUndoStack>

namespace gapscope::app {

namespace {

constexpr int kStatusMs = 8000;
/// Context shown on each side of a note's range when it is zoomed to, as a fraction of its length.
constexpr double kNoteContext = 0.1;

bool sameGap(const GapOrigin& a, const GapOrigin& b)
{
    return a.pid == b.pid && a.deviceId == b.deviceId && a.stream == b.stream && a.start == b.start && a.end == b.end;
}

} // namespace

AnnotationSession::AnnotationSession(
    QMainWindow* window, timeline::TimelineView* view, timeline::TimelineState* state, GapsDock* gapsDock)
    : QObject(window)
    , m_window(window)
    , m_view(view)
    , m_state(state)
    , m_gapsDock(gapsDock)
    , m_controller(new AnnotationController(this))
    , m_dock(new AnnotationsDock(m_controller, window))
    , m_editor(new AnnotationEditor(m_controller, window))
    , m_dockWidget(new QDockWidget(tr("Annotations"), window))
    , m_editorWidget(new QDockWidget(tr("Note"), window))
{
    m_dockWidget->setObjectName(QStringLiteral("annotationsDock"));
    m_dockWidget->setWidget(m_dock);
    m_editorWidget->setObjectName(QStringLiteral("noteDock"));
    m_editorWidget->setWidget(m_editor);
    createActions();

    connect(m_dock, &AnnotationsDock::annotationActivated, this, [this](const QString& id) { showAnnotation(id); });
    // A bracket is already in view: its click selects without moving the view.
    connect(m_view, &timeline::TimelineView::annotationClicked, this,
        [this](const QString& id) { showAnnotation(id, false); });
    connect(m_controller, &AnnotationController::annotationsChanged, this, &AnnotationSession::updateMarks);
    connect(m_controller, &AnnotationController::annotationsReset, this, &AnnotationSession::updateMarks);
    connect(m_controller, &AnnotationController::selectionChanged, this, &AnnotationSession::updateMarks);
    connect(m_controller, &AnnotationController::selectionChanged, this, &AnnotationSession::updateActions);
    connect(m_controller, &AnnotationController::saveFailed, this,
        [this](const QString& message) { showMessage(tr("Notes not saved"), message, true); });
    connect(m_controller, &AnnotationController::notesRelocated, this,
        [this](const QString& message) { showMessage(tr("Where the notes go"), message, false); });
    connect(m_controller, &AnnotationController::saved, this, [this](const QString& path) {
        // A save that works again (after Save Notes As, say) ends the warning about failed saves.
        if (m_message && m_message->isVisible() && m_messageSaveAs && m_messageSaveAs->isVisible())
            m_message->hide();
        m_window->statusBar()->showMessage(tr("Notes saved to %1").arg(path), kStatusMs);
    });
    connect(m_state, &timeline::TimelineState::selectionChanged, this, &AnnotationSession::updateActions);
    connect(m_gapsDock, &GapsDock::explainRequested, this, [this](std::size_t gap) { explainGap(gap); });
    connect(m_view, &timeline::TimelineView::contextMenuRequested, this, [this](const QPoint& pos) {
        QMenu* menu = timelineMenu(pos, m_view);
        emit timelineMenuAboutToShow(menu, pos);
        if (!menu->isEmpty())
            menu->exec(m_view->canvas()->mapToGlobal(pos));
        menu->deleteLater();
    });
    updateActions();
}

AnnotationSession::~AnnotationSession() = default;

void AnnotationSession::createActions()
{
    m_undo = m_controller->undoStack()->createUndoAction(this, tr("&Undo"));
    m_undo->setShortcut(QKeySequence::Undo);
    m_redo = m_controller->undoStack()->createRedoAction(this, tr("&Redo"));
    m_redo->setShortcut(QKeySequence::Redo);
    // Text typed in the editor but not yet committed is committed first, so that Undo takes it back.
    connect(m_undo, &QAction::triggered, m_editor, &AnnotationEditor::commitPending, Qt::DirectConnection);
    disconnect(m_undo, &QAction::triggered, m_controller->undoStack(), nullptr);
    connect(m_undo, &QAction::triggered, m_controller->undoStack(), &QUndoStack::undo);

    m_annotateSelection = new QAction(tr("&Annotate Selection\u2026"), this);
    m_annotateSelection->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    m_annotateSelection->setToolTip(tr("Write a hypothesis about the selected range (Shift+drag to select)"));
    connect(m_annotateSelection, &QAction::triggered, this, [this] {
        if (const auto range = m_state->selectedRange())
            annotateRange(*range, m_state->selectedRangeLane());
        else if (const auto gap = m_state->selectedGap())
            explainGap(*gap);
    });

    m_explainGap = new QAction(tr("&Explain Selected Gap\u2026"), this);
    m_explainGap->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    connect(m_explainGap, &QAction::triggered, this, [this] {
        if (const auto gap = m_state->selectedGap())
            explainGap(*gap);
    });

    m_saveAs = new QAction(tr("Save &Notes As\u2026"), this);
    connect(m_saveAs, &QAction::triggered, this, &AnnotationSession::saveNotesAs);
    m_export = new QAction(tr("Export &Hypotheses\u2026"), this);
    m_export->setToolTip(tr("A Markdown report of the notes and the figures of their ranges"));
    connect(m_export, &QAction::triggered, this, &AnnotationSession::exportHypotheses);
}

void AnnotationSession::updateActions()
{
    const bool open = m_controller->isOpen();
    m_annotateSelection->setEnabled(open && (m_state->selectedRange() || m_state->selectedGap()));
    m_explainGap->setEnabled(open && m_state->selectedGap() && m_analysis.result);
    m_saveAs->setEnabled(open);
    m_export->setEnabled(open && m_loaded.trace);
}

void AnnotationSession::setTrace(const timeline::LoadedTrace& loaded)
{
    m_loaded = loaded;
    m_analysis = {};
    if (loaded.files.empty())
        m_controller->close();
    else
        m_controller->openForTraces(loaded.files, notesTrace().get()); // BASE's files and processes in a comparison
    const auto span = loaded.trace ? loaded.trace->timeSpan() : std::nullopt;
    const TimeNs origin = span ? span->first : 0;
    m_dock->model()->setOrigin(origin);
    m_editor->setTrace(notesTrace(), {}, origin);
    // In a comparison the run to measure a note against is most likely NEW: Measure against… offers it.
    const bool compared = loaded.comparison && !loaded.comparison->newFiles.empty();
    m_editor->measurePanel()->setComparedTrace(
        compared ? QString::fromStdString(loaded.comparison->newFiles.front()) : QString());
    updateMarks();
    updateActions();
}

std::shared_ptr<const Trace> AnnotationSession::notesTrace() const
{
    // In a comparison the notes are BASE's: their figures and measurements read BASE as read, not the combined
    // trace whose NEW block lies over the same times.
    return m_loaded.comparison ? m_loaded.comparison->base : m_loaded.trace;
}

void AnnotationSession::setAnalysis(const timeline::AnalysisSnapshot& analysis)
{
    m_analysis = analysis;
    if (m_analysis.result && m_loaded.trace) {
        const auto span = m_loaded.trace->timeSpan();
        m_editor->setTrace(notesTrace(), m_analysis.result->options, span ? span->first : 0);
    }
    updateActions();
}

QString AnnotationSession::explainGap(std::size_t gap)
{
    if (!m_controller->isOpen() || !m_loaded.trace || !m_analysis.result || gap >= m_analysis.result->gaps.size())
        return {};
    Annotation note = gapscope::explainGap(*m_loaded.trace, *m_analysis.result, m_analysis.result->gaps[gap]);
    // One gap, one note: explaining it again shows the note already written.
    for (const Annotation& existing : m_controller->annotations()) {
        if (existing.gap && note.gap && sameGap(*existing.gap, *note.gap)) {
            const QString id = QString::fromStdString(existing.id);
            showAnnotation(id);
            m_window->statusBar()->showMessage(tr("This gap already has a note: shown in the editor"), kStatusMs);
            return id;
        }
    }
    const QString id = m_controller->create(std::move(note), tr("Explain gap"));
    showAnnotation(id);
    return id;
}

QString AnnotationSession::annotateRange(timeline::TimeRange range, std::optional<LaneIndex> lane)
{
    if (!m_controller->isOpen() || !m_loaded.trace || range.second < range.first)
        return {};
    Annotation note;
    note.start = range.first;
    note.end = range.second;
    if (lane && lane->value < m_loaded.trace->lanes().size())
        note.lanes.push_back(laneIdentity(*m_loaded.trace, *lane));
    const auto span = m_loaded.trace->timeSpan();
    note.title = tr("Range of %1 at %2")
                     .arg(models::durationText(range.second - range.first),
                         models::relativeTime(range.first, span ? span->first : 0))
                     .toStdString();
    const QString id = m_controller->create(std::move(note), tr("Annotate range"));
    showAnnotation(id);
    m_editor->focusTitle();
    return id;
}

void AnnotationSession::showAnnotation(const QString& id, bool zoom)
{
    const Annotation* note = m_controller->find(id);
    if (!note)
        return;
    const TimeNs start = note->start;
    const TimeNs end = note->end;
    m_controller->select(id);
    m_dockWidget->show();
    m_dockWidget->raise();
    m_editorWidget->show();
    m_editorWidget->raise();
    if (zoom)
        m_view->zoomToRange(start, end, kNoteContext);
}

QString AnnotationSession::exportMarkdown(const QString& path)
{
    const NotesByFile* notes = m_controller->notes();
    if (!notes || !m_loaded.trace)
        return tr("No trace is open.");
    // The options of `gapscope export --markdown`, so that the viewer and the command line agree; several files
    // (the ranks of a job) are named one after the other, with the sidecar of each.
    MarkdownReportOptions options;
    for (std::size_t file = 0; file < notes->fileCount(); ++file) {
        const std::string separator = file ? ", " : "";
        options.traceName
            += separator + QFileInfo(QString::fromStdString(notes->tracePath(file))).fileName().toStdString();
        options.notesSource += separator + notes->store(file).savePath();
    }
    if (notes->dirty())
        options.notesSource.clear();
    const std::string text = writeMarkdownReport(*m_loaded.trace, notes->annotations(), options);
    const auto written = writeFileAtomically(path.toStdString(), text);
    if (!written)
        return QString::fromStdString(written.error().toString());
    return {};
}

QMenu* AnnotationSession::timelineMenu(const QPoint& viewportPos, QWidget* parent)
{
    auto* menu = new QMenu(parent);
    if (!m_controller->isOpen())
        return menu;
    if (const auto gap = m_view->gapAtPoint(viewportPos); gap && m_analysis.result) {
        const std::size_t index = *gap;
        menu->addAction(tr("Explain This Gap\u2026"), this, [this, index] { explainGap(index); });
    }
    if (const auto range = m_state->selectedRange()) {
        const timeline::TimeRange r = *range;
        const auto lane = m_state->selectedRangeLane();
        menu->addAction(tr("Annotate Range (%1)\u2026").arg(models::durationText(r.second - r.first)), this,
            [this, r, lane] { annotateRange(r, lane); });
    }
    return menu;
}

void AnnotationSession::aboutToClose()
{
    m_editor->commitPending();
    m_controller->rescueUnsaved();
}

void AnnotationSession::showMessage(const QString& title, const QString& text, bool offerSaveAs)
{
    if (!m_message) {
        // Non-modal: the notes stay editable (and tests are not blocked) while the message is up.
        m_message = new QMessageBox(QMessageBox::Warning, title, {}, QMessageBox::Ok, m_window);
        m_message->setModal(false);
        QPushButton* saveAs = m_message->addButton(tr("Save Notes As\u2026"), QMessageBox::ActionRole);
        m_messageSaveAs = new QAction(this); // stands for the button's visibility, see saved()
        connect(saveAs, &QPushButton::clicked, this, &AnnotationSession::saveNotesAs);
        connect(m_messageSaveAs, &QAction::visibleChanged, saveAs,
            [this, saveAs] { saveAs->setVisible(m_messageSaveAs->isVisible()); });
    }
    m_message->setWindowTitle(title);
    m_message->setText(title);
    m_message->setInformativeText(text);
    m_messageSaveAs->setVisible(offerSaveAs);
    m_message->show();
    m_window->statusBar()->showMessage(text, 4 * kStatusMs);
}

void AnnotationSession::saveNotesAs()
{
    if (!m_controller->isOpen())
        return;
    const QString suggested = m_controller->savePath().isEmpty()
        ? QFileInfo(m_controller->tracePath()).fileName() + QStringLiteral(".gapscope.json")
        : m_controller->savePath();
    const QString path = QFileDialog::getSaveFileName(
        m_window, tr("Save notes as"), suggested, tr("GapScope notes (*.gapscope.json *.json);;All files (*)"));
    if (!path.isEmpty())
        m_controller->saveAs(path);
}

void AnnotationSession::exportHypotheses()
{
    // Next to the trace, named after it (not in the working folder, not "….pt.trace.json-hypotheses.md").
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export hypotheses"),
        QString::fromStdString(
            defaultHypothesesReportPath(QFileInfo(m_controller->tracePath()).absoluteFilePath().toStdString())),
        tr("Markdown (*.md);;All files (*)"));
    if (path.isEmpty())
        return;
    const QString error = exportMarkdown(path);
    if (error.isEmpty())
        m_window->statusBar()->showMessage(
            tr("Wrote %n hypothesis(es) to %1", nullptr, static_cast<int>(m_controller->annotations().size()))
                .arg(path),
            kStatusMs);
    else
        showMessage(tr("Report not written"), error, false);
}

void AnnotationSession::updateMarks()
{
    // A bracket takes the colour of its note's status, so that settled and open notes tell apart at a
    // glance; the note's own colour marks it in the list and in exported reports.
    std::vector<timeline::AnnotationMark> marks;
    const QString selected = m_controller->selectedId();
    for (const Annotation& a : m_controller->annotations()) {
        timeline::AnnotationMark mark;
        mark.id = QString::fromStdString(a.id);
        mark.start = a.start;
        mark.end = a.end;
        mark.title = QString::fromStdString(plainNoteText(a.title));
        mark.hypothesis = QString::fromStdString(plainNoteText(a.record.hypothesis));
        const std::string_view colour = annotationStatusColour(a.status);
        mark.colour = QColor(QString::fromUtf8(colour.data(), static_cast<qsizetype>(colour.size())));
        mark.selected = mark.id == selected;
        if (!m_loaded.blocks.empty()) // BASE's block: the notes are BASE's
            mark.processes = std::pair(m_loaded.blocks.front().firstProcess, m_loaded.blocks.front().endProcess);
        marks.push_back(std::move(mark));
    }
    m_view->setAnnotationMarks(std::move(marks));
}

} // namespace gapscope::app
