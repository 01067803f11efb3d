// SPDX-License-Identifier: MIT
// A truncated .json.gz opens in the viewer with the complete events before the cut, and
// the warning (file and byte) is shown, as the reader reports it.
#include "app/mainwindow/details_panel.h"
#include "app/mainwindow/load_status.h"
#include "app/mainwindow/main_window.h"
#include "app/timeline/timeline_view.h"
#include "test_paths.h"

#include <QSignalSpy>
#include <QStatusBar>
#include <QTextBrowser>

#include <gtest/gtest.h>

using namespace gapscope;

namespace {

TEST(TruncatedLoad, ViewerShowsTheEventsBeforeTheCutAndTheWarning)
{
    app::MainWindow window;
    window.resize(1400, 900);
    window.show();
    // The first 12,000 bytes of HTA's simple_add trace (tests/data/malformed/README.md).
    const QString path = QString::fromStdString(test::dataPath("malformed/truncated_simple_add.json.gz"));
    QSignalSpy shown(&window, &app::MainWindow::traceShown);
    QSignalSpy failed(&window, &app::MainWindow::loadFailed);
    window.openFiles({ path });
    ASSERT_TRUE(shown.wait(30'000)) << window.loadStatus()->lastError().toStdString();
    EXPECT_EQ(failed.count(), 0);
    // The reader's own test finds more than 100 events before the cut; the timeline has them.
    ASSERT_TRUE(window.trace());
    EXPECT_GT(window.trace()->eventCount(), 100u);
    EXPECT_FALSE(window.timelineView()->layout().rows().empty());
    // The warning, with the file and the byte, in Details; the status bar points there.
    const ImportWarning& cut = window.trace()->warnings().back();
    const QString details = window.details()->browser()->toPlainText();
    EXPECT_TRUE(details.contains(QStringLiteral("at byte %1").arg(cut.byteOffset))) << details.toStdString();
    EXPECT_TRUE(details.contains(QStringLiteral("truncated"))) << details.toStdString();
    EXPECT_TRUE(details.contains(path)) << details.toStdString();
    EXPECT_TRUE(window.statusBar()->currentMessage().contains(QStringLiteral("see Details")))
        << window.statusBar()->currentMessage().toStdString();
}

TEST(ImportNotes, ReadersNotesWithoutASkippedEventAreNotCalledSkippedEvents)
{
    // The CloverLeaf export loads whole; the nsys reader's two notes (its version, the tables it lacks) are not
    // skipped events, and neither Details nor the status bar may say "0 event(s) skipped".
    app::MainWindow window;
    window.resize(1400, 900);
    window.show();
    QSignalSpy shown(&window, &app::MainWindow::traceShown);
    window.openFiles(
        { QString::fromStdString(test::dataPath("pipit/cloverleaf-nsys/perlmutter-cloverleaf-cuda.sqlite")) });
    ASSERT_TRUE(shown.wait(30'000)) << window.loadStatus()->lastError().toStdString();
    ASSERT_TRUE(window.trace());
    EXPECT_EQ(window.trace()->skippedEvents(), 0u);
    ASSERT_EQ(window.trace()->warnings().size(), 2u);
    const QString details = window.details()->browser()->toPlainText();
    EXPECT_TRUE(details.contains(QStringLiteral("Notes from loading (no event skipped)"))) << details.toStdString();
    EXPECT_FALSE(details.contains(QStringLiteral("skipped while loading"))) << details.toStdString();
    EXPECT_TRUE(details.contains(QStringLiteral("export schema 3.13.2"))) << details.toStdString();
    const QString status = window.statusBar()->currentMessage();
    EXPECT_TRUE(status.contains(QStringLiteral("2 import note(s), see Details"))) << status.toStdString();
    EXPECT_FALSE(status.contains(QStringLiteral("skipped"))) << status.toStdString();
}

} // namespace
