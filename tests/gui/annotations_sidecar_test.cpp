// SPDX-License-Identifier: MIT
// The sidecar's failure modes as the viewer shows them: a folder that cannot be written (the notes go to the
// user's notes folder), a sidecar path that cannot be replaced, and a sidecar that cannot be read. A note is
// never lost, and the user is told which file is involved and where the notes go.
#include "annotations_test_support.h"

#include "app/annotations/annotation_controller.h"
#include "app/annotations/annotation_list_model.h"
#include "app/annotations/annotation_session.h"
#include "app/annotations/annotations_dock.h"
#include "app/mainwindow/gaps_dock.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QStatusBar>
#include <QTableView>
#include <QTest>

#include <memory>

#include <sys/stat.h>
#include <unistd.h>

using namespace gapscope;
using namespace gapscope::test;

namespace {

/// After a failed save: the non-modal message names the file, the note is kept in memory, and Save
/// Notes As writes it elsewhere.
void expectKeptInMemoryUntilSavedElsewhere(app::MainWindow& window, const QString& unwritable, const QString& other)
{
    app::AnnotationSession* session = window.annotations();
    app::AnnotationController* controller = session->controller();
    ASSERT_EQ(controller->annotations().size(), 1u);
    EXPECT_TRUE(controller->hasUnsavedChanges());
    QMessageBox* message = session->messageBox();
    ASSERT_NE(message, nullptr);
    EXPECT_TRUE(message->isVisible());
    EXPECT_FALSE(message->isModal());
    EXPECT_TRUE(message->informativeText().contains(unwritable)) << message->informativeText().toStdString();
    EXPECT_TRUE(message->informativeText().contains(QStringLiteral("kept in memory")))
        << message->informativeText().toStdString();
    EXPECT_TRUE(message->informativeText().contains(QStringLiteral("Save Notes As")));
    EXPECT_EQ(controller->lastProblem(), message->informativeText());

    // The next change still tries the sidecar, fails again and still keeps everything.
    Annotation edited = controller->annotations()[0];
    edited.record.sideEffects = "none seen";
    EXPECT_TRUE(controller->edit(edited, QStringLiteral("Edit side effects")));
    EXPECT_EQ(controller->annotations()[0].record.sideEffects, "none seen");
    EXPECT_TRUE(controller->hasUnsavedChanges());

    ASSERT_TRUE(controller->saveAs(other));
    EXPECT_FALSE(controller->hasUnsavedChanges());
    EXPECT_FALSE(message->isVisible());
    const std::vector<Annotation> saved = readNotes(other);
    ASSERT_EQ(saved.size(), 1u);
    EXPECT_EQ(saved[0], controller->annotations()[0]);
    // Later changes go there too.
    edited.record.sideEffects = "more host memory";
    EXPECT_TRUE(controller->edit(edited, QStringLiteral("Edit side effects")));
    EXPECT_EQ(readNotes(other).at(0).record.sideEffects, "more host memory");
}

} // namespace

TEST(AnnotationsSidecarTest, AReadOnlyFolderHasItsNotesSavedInTheUserFolder)
{
    QTemporaryDir dir;
    QTemporaryDir data;
    const ScopedDataHome dataHome(data.path());
    const QString trace = copyDemoTrace(dir);
    ASSERT_FALSE(trace.isEmpty());
    const QByteArray folder = QFile::encodeName(dir.path());
    ASSERT_EQ(::chmod(folder.constData(), 0555), 0);
    // Writable again at the end, whatever happens, so that the temporary folder can be removed.
    const std::unique_ptr<const char, void (*)(const char*)> restore(
        folder.constData(), [](const char* path) { ::chmod(path, 0755); });
    if (::access(folder.constData(), W_OK) == 0)
        GTEST_SKIP() << "this user (root?) can write into a read-only folder; the next test covers a failed save";
    app::MainWindow window;
    ASSERT_TRUE(showAndOpen(window, trace, QSize(1400, 900)));
    ASSERT_FALSE(explainLongestGapFromTheDock(window).isEmpty());
    EXPECT_FALSE(QFileInfo::exists(trace + QStringLiteral(".gapscope.json")));
    const QString saved = window.annotations()->controller()->savePath();
    EXPECT_TRUE(saved.startsWith(data.path() + QStringLiteral("/gapscope/notes/demo.pt.trace.json.gz-")))
        << saved.toStdString();
    EXPECT_EQ(readNotes(saved).size(), 1u);
    EXPECT_FALSE(window.annotations()->controller()->hasUnsavedChanges());
    const auto* where = window.annotations()->dockWidget()->findChild<QLabel*>(QStringLiteral("notesWhere"));
    ASSERT_NE(where, nullptr);
    EXPECT_TRUE(where->text().contains(QStringLiteral("cannot be written"))) << where->text().toStdString();
}

TEST(AnnotationsSidecarTest, ASidecarPathThatCannotBeReplacedKeepsTheNotesInMemory)
{
    QTemporaryDir dir;
    const QString trace = copyDemoTrace(dir);
    ASSERT_FALSE(trace.isEmpty());
    app::MainWindow window;
    ASSERT_TRUE(showAndOpen(window, trace, QSize(1400, 900)));
    // After the notes were opened (there were none), something puts a folder where the sidecar goes:
    // no one, root included, can rename a file over it.
    const QString sidecar = trace + QStringLiteral(".gapscope.json");
    ASSERT_TRUE(QDir().mkdir(sidecar));
    ASSERT_FALSE(explainLongestGapFromTheDock(window).isEmpty());
    EXPECT_TRUE(QFileInfo(sidecar).isDir());
    EXPECT_TRUE(window.statusBar()->currentMessage().contains(sidecar));
    expectKeptInMemoryUntilSavedElsewhere(window, sidecar, dir.filePath(QStringLiteral("elsewhere.json")));
}

TEST(AnnotationsSidecarTest, ACorruptSidecarIsReportedLeftAloneAndNotesGoToANewFile)
{
    QTemporaryDir dir;
    const QString trace = copyDemoTrace(dir);
    ASSERT_FALSE(trace.isEmpty());
    const QString sidecar = trace + QStringLiteral(".gapscope.json");
    const QByteArray corrupt = R"({"format": "gapscope-annotations", "version": 1, "annotations": [{"id": )";
    {
        QFile file(sidecar);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(corrupt);
    }
    app::MainWindow window;
    ASSERT_TRUE(showAndOpen(window, trace, QSize(1400, 900)));
    app::AnnotationSession* session = window.annotations();
    const QString alternate = trace + QStringLiteral(".gapscope-1.json");
    EXPECT_EQ(session->controller()->savePath(), alternate);

    // Told at once: which file is broken (and where), and where new notes go.
    QMessageBox* message = session->messageBox();
    ASSERT_NE(message, nullptr);
    EXPECT_TRUE(message->isVisible());
    EXPECT_FALSE(message->isModal());
    const QString text = message->informativeText();
    EXPECT_TRUE(text.contains(sidecar + QStringLiteral(" could not be read"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("at byte"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("New notes go to ") + alternate)) << text.toStdString();
    EXPECT_TRUE(window.statusBar()->currentMessage().contains(alternate));

    ASSERT_FALSE(explainLongestGapFromTheDock(window).isEmpty());
    EXPECT_EQ(fileBytes(sidecar), corrupt);
    ASSERT_EQ(readNotes(alternate).size(), 1u);
    EXPECT_EQ(readNotes(alternate)[0], session->controller()->annotations().at(0));

    // The next session, facing the same broken sidecar, reads the notes back from the new file.
    app::MainWindow next;
    next.resize(1400, 900);
    next.show();
    ASSERT_TRUE(openAndWait(next, trace));
    EXPECT_EQ(next.annotations()->dock()->model()->rowCount(), 1);
    EXPECT_TRUE(next.annotations()->messageBox()->informativeText().contains(QStringLiteral("read from ") + alternate));
    EXPECT_EQ(fileBytes(sidecar), corrupt);
}

TEST(AnnotationsSidecarTest, ClosingTheWindowWithUnsavedNotesWritesThemToARecoveryFile)
{
    QTemporaryDir dir;
    const QString trace = copyDemoTrace(dir);
    ASSERT_FALSE(trace.isEmpty());
    app::MainWindow window;
    ASSERT_TRUE(showAndOpen(window, trace, QSize(1400, 900)));
    const QString sidecar = trace + QStringLiteral(".gapscope.json");
    ASSERT_TRUE(QDir().mkdir(sidecar));
    ASSERT_FALSE(explainLongestGapFromTheDock(window).isEmpty());
    app::AnnotationController* controller = window.annotations()->controller();
    ASSERT_TRUE(controller->hasUnsavedChanges());
    const Annotation note = controller->annotations().at(0);

    window.close();
    // Saved under the user's data folder (the tests' own, in Qt's test mode), and the user is told where.
    const QString recovery = controller->savePath();
    EXPECT_TRUE(recovery.contains(QStringLiteral("/recovered-notes/demo.pt.trace.json.gz-"))) << recovery.toStdString();
    EXPECT_FALSE(controller->hasUnsavedChanges());
    const std::vector<Annotation> saved = readNotes(recovery);
    ASSERT_EQ(saved.size(), 1u);
    EXPECT_EQ(saved[0], note);
    EXPECT_TRUE(window.annotations()->messageBox()->informativeText().contains(recovery));
    QFile::remove(recovery);
}
