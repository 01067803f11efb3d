// SPDX-License-Identifier: MIT
// The notes of the bundled demo trace: saved in the user's notes folder, never in the program's folder, and the
// Annotations panel says where.
#include "annotations_test_support.h"

#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QTemporaryDir>

using namespace gapscope;
using namespace gapscope::test;

TEST(DemoNotesFolderTest, TheDemosNotesGoToTheUserFolderAndThePanelSaysWhere)
{
    const QString demo = app::MainWindow::demoTracePath();
    ASSERT_FALSE(demo.isEmpty());
    const QString nextToDemo = demo + QStringLiteral(".gapscope.json");
    const bool hadNextToDemo = QFileInfo::exists(nextToDemo);
    QTemporaryDir data;
    const ScopedDataHome dataHome(data.path());
    const QString expected = data.path() + QStringLiteral("/gapscope/notes/") + QFileInfo(demo).fileName()
        + QStringLiteral(".gapscope.json");

    app::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    QSignalSpy shown(&window, &app::MainWindow::traceShown);
    window.openDemo();
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_EQ(window.annotations()->controller()->savePath(), expected);

    ASSERT_FALSE(explainLongestGapFromTheDock(window).isEmpty());
    const bool wroteNextToDemo = !hadNextToDemo && QFileInfo::exists(nextToDemo);
    if (wroteNextToDemo)
        QFile::remove(nextToDemo); // keep the program's folder clean even when the test fails
    EXPECT_FALSE(wroteNextToDemo) << "a note of the demo was written into the program's folder";
    ASSERT_TRUE(QFileInfo::exists(expected));
    const std::vector<Annotation> notes = readNotes(expected);
    ASSERT_EQ(notes.size(), 1U);
    EXPECT_EQ(notes[0].start, kDemoLongestGapStart);

    const auto* where = window.annotations()->dockWidget()->findChild<QLabel*>(QStringLiteral("notesWhere"));
    ASSERT_NE(where, nullptr);
    EXPECT_TRUE(where->text().contains(QStringLiteral("saved in your notes folder"))) << where->text().toStdString();
    EXPECT_TRUE(where->text().contains(QStringLiteral("/gapscope/notes/") + QFileInfo(demo).fileName()))
        << where->text().toStdString();
    EXPECT_TRUE(where->text().contains(QStringLiteral("belongs to the program"))) << where->text().toStdString();
    EXPECT_EQ(where->toolTip(), expected);
}
