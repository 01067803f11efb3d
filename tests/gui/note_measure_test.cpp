// SPDX-License-Identifier: MIT
// The hypothesis gets its measured answer in the viewer: "Measure against…" on the note of the longest gap
// of the host-bound ResNet-50 run, against the run with four data-loader workers, fills the note exactly as
// `gapscope diff --note ID BASE NEW` does, proposes `supported`, and leaves the status to the user.
#include "app/annotations/annotation_controller.h"
#include "app/annotations/annotation_editor.h"
#include "app/annotations/annotation_session.h"
#include "app/annotations/note_measure_panel.h"
#include "cli/commands.h"
#include "core/annotations/annotation_store.h"
#include "gui/annotations_test_support.h"
#include "tests/test_paths.h"

#include <QDir>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

using namespace gapscope;

namespace {

const char* const kBase = test::kResnet50Trace;
const char* const kNew = test::kResnet50Workers4Trace;

TEST(NoteMeasure, MeasureAgainstFillsTheNoteAsTheCliDoesAndTheUserAcceptsTheStatus)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    ASSERT_TRUE(QDir(dir.path()).mkpath(QStringLiteral("viewer")));
    ASSERT_TRUE(QDir(dir.path()).mkpath(QStringLiteral("cli")));
    const QString viewerTrace = dir.filePath(QStringLiteral("viewer/before.json.gz"));
    const QString cliTrace = dir.filePath(QStringLiteral("cli/before.json.gz"));
    ASSERT_TRUE(QFile::copy(QString::fromStdString(test::dataPath(kBase)), viewerTrace));
    ASSERT_TRUE(QFile::copy(QString::fromStdString(test::dataPath(kBase)), cliTrace));
    const QString after = QString::fromStdString(test::dataPath(kNew));

    app::MainWindow window;
    ASSERT_TRUE(test::showAndOpen(window, viewerTrace, QSize(1500, 900)));
    const QString id = test::explainLongestGapFromTheDock(window);
    ASSERT_FALSE(id.isEmpty());
    app::AnnotationController* controller = window.annotations()->controller();
    ASSERT_EQ(controller->find(id)->status, AnnotationStatus::Open);

    // The CLI path on a copy of the same note: `gapscope diff --note ID BASE NEW` (no --accept).
    ASSERT_TRUE(
        QFile::copy(viewerTrace + QStringLiteral(".gapscope.json"), cliTrace + QStringLiteral(".gapscope.json")));
    std::ostringstream out;
    std::ostringstream err;
    ASSERT_EQ(cli::runDiff({ "--note", id.toStdString(), cliTrace.toStdString(), after.toStdString() }, out, err), 0)
        << err.str();
    EXPECT_NE(out.str().find("Proposed status: supported (not set"), std::string::npos) << out.str();
    const AnnotationStore cliStore = AnnotationStore::openForTrace(cliTrace.toStdString());
    const Annotation* cliNote = cliStore.find(id.toStdString());
    ASSERT_NE(cliNote, nullptr);
    ASSERT_FALSE(cliNote->record.performanceChange.empty());

    // The viewer: the Note panel's Measure against… (its file dialog gives this path).
    app::NoteMeasurePanel* panel = window.annotations()->editor()->measurePanel();
    EXPECT_TRUE(panel->measureButton()->isEnabled());
    EXPECT_FALSE(panel->acceptButton()->isEnabled());
    QSignalSpy measured(panel, &app::NoteMeasurePanel::measured);
    panel->measureAgainst(after);
    ASSERT_TRUE(measured.wait(60'000));

    const Annotation* note = controller->find(id);
    ASSERT_NE(note, nullptr);
    EXPECT_EQ(note->record.performanceChange, cliNote->record.performanceChange);
    EXPECT_NE(note->record.performanceChange.find("step p50 175.2 ms -> 126.2 ms"), std::string::npos)
        << note->record.performanceChange;
    EXPECT_EQ(note->afterTrace, cliNote->afterTrace); // relative to each trace's folder, both one level down
    EXPECT_EQ(std::filesystem::weakly_canonical(
                  std::filesystem::path(viewerTrace.toStdString()).parent_path() / note->afterTrace),
        std::filesystem::weakly_canonical(after.toStdString()));
    EXPECT_EQ(window.annotations()->editor()->fieldEdit(app::AnnotationEditor::PerformanceChangeField)->toPlainText(),
        QString::fromStdString(cliNote->record.performanceChange));
    ASSERT_TRUE(panel->measurement().has_value());
    EXPECT_EQ(panel->measurement()->proposedStatus, AnnotationStatus::Supported);
    EXPECT_TRUE(panel->resultLabel()->text().contains(QStringLiteral("Proposed status: supported")));
    // The panel names the file it measured against (the row is "After trace").
    EXPECT_TRUE(panel->resultLabel()->text().startsWith(
        QStringLiteral("Measured against %1.").arg(QString::fromStdString(note->afterTrace).toHtmlEscaped())))
        << panel->resultLabel()->text().toStdString();
    // Nothing changed the status without the user; the sidecar holds the measurement already.
    EXPECT_EQ(note->status, AnnotationStatus::Open);
    std::vector<Annotation> saved = test::readNotes(viewerTrace + QStringLiteral(".gapscope.json"));
    ASSERT_EQ(saved.size(), 1u);
    EXPECT_EQ(saved[0].record.performanceChange, cliNote->record.performanceChange);
    EXPECT_EQ(saved[0].afterTrace, cliNote->afterTrace);
    EXPECT_EQ(saved[0].status, AnnotationStatus::Open);

    // The user accepts: the status is set and saved (and can be undone).
    ASSERT_TRUE(panel->acceptButton()->isEnabled());
    panel->acceptButton()->click();
    EXPECT_EQ(controller->find(id)->status, AnnotationStatus::Supported);
    EXPECT_FALSE(panel->acceptButton()->isEnabled());
    saved = test::readNotes(viewerTrace + QStringLiteral(".gapscope.json"));
    ASSERT_EQ(saved.size(), 1u);
    EXPECT_EQ(saved[0].status, AnnotationStatus::Supported);
    window.annotations()->undoAction()->trigger();
    EXPECT_EQ(controller->find(id)->status, AnnotationStatus::Open);
}

} // namespace
