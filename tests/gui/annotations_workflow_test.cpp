// SPDX-License-Identifier: MIT
// The note workflow of a new user on the demo trace: explain the longest gap from the Gaps dock, find
// the note saved next to the (copied) trace, undo and redo it, edit a field, reopen the trace.
#include "annotations_test_support.h"

#include "app/annotations/annotation_controller.h"
#include "app/annotations/annotation_editor.h"
#include "app/annotations/annotation_list_model.h"
#include "app/annotations/annotation_session.h"
#include "app/annotations/annotations_dock.h"
#include "app/mainwindow/analysis_docks.h"
#include "app/mainwindow/gaps_dock.h"
#include "app/models/event_details.h"
#include "app/timeline/timeline_view.h"
#include "core/annotations/markdown_report.h"
#include "core/annotations/plain_note_text.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFileInfo>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>
#include <QUndoStack>

using namespace gapscope;
using namespace gapscope::test;

TEST(AnnotationsWorkflowTest, ExplainTheLongestGapThenUndoRedoAndEdit)
{
    QTemporaryDir dir;
    const QString trace = copyDemoTrace(dir);
    ASSERT_FALSE(trace.isEmpty());
    const QString sidecar = trace + QStringLiteral(".gapscope.json");
    app::MainWindow window;
    ASSERT_TRUE(showAndOpen(window, trace, QSize(1600, 1000)));
    app::AnnotationSession* session = window.annotations();
    app::AnnotationController* controller = session->controller();
    EXPECT_EQ(controller->savePath(), sidecar);
    EXPECT_FALSE(QFileInfo::exists(sidecar)); // nothing written before the first note

    const QString id = explainLongestGapFromTheDock(window);
    ASSERT_FALSE(id.isEmpty());
    ASSERT_EQ(controller->annotations().size(), 1u);
    const Annotation note = controller->annotations()[0];
    EXPECT_EQ(QString::fromStdString(note.id), id);
    EXPECT_EQ(note.start, kDemoLongestGapStart);
    EXPECT_EQ(note.end, kDemoLongestGapEnd);
    ASSERT_TRUE(note.gap.has_value());
    EXPECT_EQ(note.gap->cause, "host");
    // Pre-filled from the cause and its evidence: the host range the launching thread was in.
    EXPECT_EQ(note.title.rfind("Host-bound gap of 62.34 ms: ", 0), 0u) << note.title;
    EXPECT_NE(note.record.hypothesis.find("starves the GPU"), std::string::npos) << note.record.hypothesis;
    EXPECT_NE(note.record.change.find("data-loader workers"), std::string::npos) << note.record.change;
    EXPECT_EQ(note.status, AnnotationStatus::Open);

    // Saved at once, to the sidecar next to the trace.
    std::vector<Annotation> saved = readNotes(sidecar);
    ASSERT_EQ(saved.size(), 1u);
    EXPECT_EQ(saved[0], note);

    // Selected in the dock, open in the editor, the timeline zoomed to it with a tenth as context.
    app::AnnotationsDock* dock = session->dock();
    ASSERT_EQ(dock->model()->rowCount(), 1);
    EXPECT_EQ(dock->table()->currentIndex().row(), 0);
    EXPECT_EQ(dock->model()->idAt(0), id);
    app::AnnotationEditor* editor = session->editor();
    EXPECT_EQ(editor->annotationId(), id);
    EXPECT_EQ(editor->titleEdit()->text().toStdString(), note.title);
    EXPECT_EQ(
        editor->fieldEdit(app::AnnotationEditor::HypothesisField)->toPlainText().toStdString(), note.record.hypothesis);
    const TimeNs context = (kDemoLongestGapEnd - kDemoLongestGapStart) / 10;
    EXPECT_EQ(window.timelineState()->visibleRange(),
        std::make_pair(kDemoLongestGapStart - context, kDemoLongestGapEnd + context));

    // The figures of the range, measured when shown: all of it idle, all host-bound.
    ASSERT_TRUE(QTest::qWaitFor([&] { return editor->figures().has_value(); }, 30'000));
    ASSERT_EQ(editor->figures()->devices.size(), 1u);
    const DeviceFigures& figures = editor->figures()->devices[0];
    EXPECT_EQ(figures.spanNs, 62'339'000);
    EXPECT_EQ(figures.busyNs, 0);
    EXPECT_EQ(figures.idleByCause[static_cast<int>(GapCause::Host)], 62'339'000);
    EXPECT_TRUE(editor->figuresView()->toPlainText().contains(QStringLiteral("idle, host")));

    // Undo removes it from the store, the list and the file; redo brings back the same note.
    QUndoStack* undo = controller->undoStack();
    ASSERT_EQ(undo->count(), 1);
    session->undoAction()->trigger();
    EXPECT_TRUE(controller->annotations().empty());
    EXPECT_EQ(dock->model()->rowCount(), 0);
    EXPECT_TRUE(readNotes(sidecar).empty());
    EXPECT_TRUE(editor->annotationId().isEmpty());
    session->redoAction()->trigger();
    ASSERT_EQ(controller->annotations().size(), 1u);
    EXPECT_EQ(controller->annotations()[0], note);
    saved = readNotes(sidecar);
    ASSERT_EQ(saved.size(), 1u);
    EXPECT_EQ(saved[0], note);

    // Typing in a field is one undo command, made after a pause, not one per keystroke.
    dock->table()->setCurrentIndex(dock->model()->index(0, 0));
    ASSERT_EQ(editor->annotationId(), id);
    QPlainTextEdit* performance = editor->fieldEdit(app::AnnotationEditor::PerformanceChangeField);
    performance->setFocus();
    QTest::keyClicks(performance, QStringLiteral("Step time p50 175 ms -> 120 ms"));
    EXPECT_EQ(controller->annotations()[0].record.performanceChange, "");
    EXPECT_EQ(undo->count(), 1);
    ASSERT_TRUE(QTest::qWaitFor([&] { return !controller->annotations()[0].record.performanceChange.empty(); },
        4 * app::AnnotationEditor::kCommitDelayMs));
    EXPECT_EQ(controller->annotations()[0].record.performanceChange, "Step time p50 175 ms -> 120 ms");
    EXPECT_EQ(undo->count(), 2);
    EXPECT_EQ(readNotes(sidecar).at(0).record.performanceChange, "Step time p50 175 ms -> 120 ms");

    // The status: one command, and the bracket takes the status colour.
    QComboBox* status = editor->statusCombo();
    const int supported = status->findText(QStringLiteral("supported"));
    ASSERT_GE(supported, 0);
    status->setCurrentIndex(supported);
    emit status->activated(supported);
    EXPECT_EQ(controller->annotations()[0].status, AnnotationStatus::Supported);
    EXPECT_EQ(readNotes(sidecar).at(0).status, AnnotationStatus::Supported);
    EXPECT_EQ(undo->count(), 3);
    ASSERT_EQ(window.timelineView()->annotationMarks().size(), 1u);
    EXPECT_EQ(window.timelineView()->annotationMarks()[0].colour,
        QColor(QString::fromUtf8(annotationStatusColour(AnnotationStatus::Supported).data())));
    EXPECT_TRUE(window.timelineView()->annotationMarks()[0].selected);

    // Undoing the text edit puts the old text back in the store, the file and the editor.
    session->undoAction()->trigger();
    session->undoAction()->trigger();
    EXPECT_EQ(controller->annotations()[0].status, AnnotationStatus::Open);
    EXPECT_EQ(controller->annotations()[0].record.performanceChange, "");
    EXPECT_EQ(readNotes(sidecar).at(0).record.performanceChange, "");
    EXPECT_EQ(performance->toPlainText(), QString());
}

TEST(AnnotationsWorkflowTest, AReopenedTraceListsItsNote)
{
    QTemporaryDir dir;
    const QString trace = copyDemoTrace(dir);
    ASSERT_FALSE(trace.isEmpty());
    std::string title;
    {
        app::MainWindow window;
        ASSERT_TRUE(showAndOpen(window, trace, QSize(1400, 900)));
        ASSERT_FALSE(explainLongestGapFromTheDock(window).isEmpty());
        title = window.annotations()->controller()->annotations().at(0).title;
        window.close();
    }
    app::MainWindow reopened;
    reopened.resize(1400, 900);
    reopened.show();
    ASSERT_TRUE(openAndWait(reopened, trace));
    app::AnnotationListModel* model = reopened.annotations()->dock()->model();
    ASSERT_EQ(model->rowCount(), 1);
    EXPECT_EQ(
        model->index(0, app::AnnotationListModel::TitleColumn).data().toString().toStdString(), plainNoteText(title));
    EXPECT_EQ(model->index(0, app::AnnotationListModel::StatusColumn).data().toString(), QStringLiteral("open"));
    EXPECT_EQ(model->index(0, app::AnnotationListModel::DurationColumn).data().toString(), QStringLiteral("62.34 ms"));
    // Nothing to undo in a fresh session.
    EXPECT_EQ(reopened.annotations()->controller()->undoStack()->count(), 0);

    // Explaining the same gap again shows the note already written rather than a second one.
    QTableView* gaps = reopened.analysisDocks()->gapsDock()->table();
    gaps->setCurrentIndex(gaps->model()->index(0, 0));
    reopened.analysisDocks()->gapsDock()->explainAction()->trigger();
    EXPECT_EQ(reopened.annotations()->controller()->annotations().size(), 1u);
    EXPECT_EQ(reopened.annotations()->controller()->selectedId(), model->idAt(0));
}

TEST(AnnotationsWorkflowTest, NoteTitlesShowWithoutMarkdownBackticks)
{
    QTemporaryDir dir;
    const QString trace = copyDemoTrace(dir);
    ASSERT_FALSE(trace.isEmpty());
    app::MainWindow window;
    ASSERT_TRUE(showAndOpen(window, trace, QSize(1400, 900)));
    ASSERT_FALSE(explainLongestGapFromTheDock(window).isEmpty());
    const Annotation note = window.annotations()->controller()->annotations().at(0);
    // The explanation names the range it fell in as Markdown code: kept so in the sidecar and the report.
    ASSERT_NE(note.title.find('`'), std::string::npos) << note.title;
    const QString listed
        = window.annotations()->dock()->model()->index(0, app::AnnotationListModel::TitleColumn).data().toString();
    EXPECT_FALSE(listed.contains(QLatin1Char('`'))) << listed.toStdString();
    EXPECT_EQ(listed.toStdString(), plainNoteText(note.title));
    ASSERT_EQ(window.timelineView()->annotationMarks().size(), 1u);
    EXPECT_FALSE(window.timelineView()->annotationMarks()[0].title.contains(QLatin1Char('`')));
    EXPECT_FALSE(window.timelineView()->annotationMarks()[0].hypothesis.contains(QLatin1Char('`')));
}

TEST(AnnotationsWorkflowTest, ClickingANoteZoomsToItsRangeAndDeleteIsUndoable)
{
    QTemporaryDir dir;
    const QString trace = copyDemoTrace(dir);
    ASSERT_FALSE(trace.isEmpty());
    app::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    ASSERT_TRUE(openAndWait(window, trace));
    app::AnnotationSession* session = window.annotations();
    // Two notes: a range of the first 5 ms of the longest gap's second half, and the gap itself.
    const TimeNs rangeStart = kDemoLongestGapStart + 40'000'000;
    const TimeNs rangeEnd = rangeStart + 5'000'000;
    window.timelineState()->selectRange(std::make_pair(rangeStart, rangeEnd));
    ASSERT_TRUE(session->annotateSelectionAction()->isEnabled());
    session->annotateSelectionAction()->trigger();
    const QString rangeId = session->controller()->selectedId();
    ASSERT_FALSE(rangeId.isEmpty());
    const TimeNs origin = window.timelineState()->origin();
    EXPECT_EQ(QString::fromStdString(session->controller()->find(rangeId)->title),
        QStringLiteral("Range of %1 at %2")
            .arg(models::durationText(5'000'000), models::relativeTime(rangeStart, origin)));
    const QString gapId = [&] {
        QTableView* gaps = window.analysisDocks()->gapsDock()->table();
        gaps->setCurrentIndex(gaps->model()->index(0, 0));
        window.analysisDocks()->gapsDock()->explainAction()->trigger();
        return session->controller()->selectedId();
    }();
    ASSERT_NE(gapId, rangeId);

    // Sorted by start: the gap (earlier start) first.
    QTableView* table = session->dock()->table();
    ASSERT_EQ(table->model()->rowCount(), 2);
    EXPECT_EQ(session->dock()->model()->idAt(0), gapId);
    EXPECT_EQ(session->dock()->model()->idAt(1), rangeId);

    window.timelineView()->fitAll();
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(table->model()->index(1, 0)).center());
    EXPECT_EQ(session->controller()->selectedId(), rangeId);
    EXPECT_EQ(session->editor()->annotationId(), rangeId);
    EXPECT_EQ(window.timelineState()->visibleRange(), std::make_pair(rangeStart - 500'000, rangeEnd + 500'000));
    const timeline::TimelineScene scene = window.timelineView()->scene();
    EXPECT_EQ(scene.axis.start, rangeStart - 500'000);
    EXPECT_EQ(scene.axis.end, rangeEnd + 500'000);

    // Delete in the list removes the selected note; undo puts it back in its place.
    table->setFocus();
    QTest::keyClick(table, Qt::Key_Delete);
    ASSERT_EQ(session->controller()->annotations().size(), 1u);
    EXPECT_EQ(session->controller()->annotations()[0].id, gapId.toStdString());
    EXPECT_EQ(readNotes(session->controller()->savePath()).size(), 1u);
    session->undoAction()->trigger();
    ASSERT_EQ(session->controller()->annotations().size(), 2u);
    EXPECT_EQ(session->controller()->annotations()[0].id, rangeId.toStdString());
    EXPECT_EQ(readNotes(session->controller()->savePath()).size(), 2u);
}

TEST(AnnotationsWorkflowTest, ExportHypothesesWritesWhatTheCommandLineWrites)
{
    QTemporaryDir dir;
    const QString trace = copyDemoTrace(dir);
    ASSERT_FALSE(trace.isEmpty());
    app::MainWindow window;
    ASSERT_TRUE(showAndOpen(window, trace, QSize(1400, 900)));
    ASSERT_FALSE(explainLongestGapFromTheDock(window).isEmpty());
    const QString report = dir.filePath(QStringLiteral("hypotheses.md"));
    EXPECT_EQ(window.annotations()->exportMarkdown(report), QString());
    const QString text = QString::fromUtf8(fileBytes(report));
    EXPECT_TRUE(text.contains(QStringLiteral("Host-bound gap of 62.34 ms"))) << text.toStdString();

    // `gapscope export TRACE --markdown OUT` reads the sidecar back and writes the same report.
    const AnnotationStore store = AnnotationStore::openForTrace(trace.toStdString());
    MarkdownReportOptions options;
    options.traceName = "demo.pt.trace.json.gz";
    options.notesSource = store.loadedFrom();
    EXPECT_EQ(text.toStdString(), writeMarkdownReport(*window.trace(), store.annotations(), options));
}
