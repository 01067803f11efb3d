// SPDX-License-Identifier: MIT
// A truncated .json.gz opens in the viewer with the complete events before the cut, and
// the warning (file and byte) is shown, as the reader reports it.
#include "app/mainwindow/analysis_docks.h"
#include "app/mainwindow/cut_short_banner.h"
#include "app/mainwindow/details_panel.h"
#include "app/mainwindow/gaps_dock.h"
#include "app/mainwindow/load_status.h"
#include "app/mainwindow/main_window.h"
#include "app/timeline/timeline_view.h"
#include "test_paths.h"
#include "tests/temp_dir.h"

#include <QLabel>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTextBrowser>

#include <gtest/gtest.h>

#include <fstream>

using namespace gapscope;

namespace {

const char* const kFourWorkers
    = "kineto/tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz";

/// `head -c bytes` of a test trace, written as `name` in `dir`; empty when the trace is shorter.
std::string cutCopy(const test::TempDir& dir, const char* relative, const std::string& name, std::size_t bytes)
{
    std::ifstream in(test::dataPath(relative), std::ios::binary);
    std::string data(bytes, '\0');
    in.read(data.data(), static_cast<std::streamsize>(data.size()));
    if (static_cast<std::size_t>(in.gcount()) != bytes)
        return {};
    std::string path = dir.file(name);
    std::ofstream(path, std::ios::binary).write(data.data(), static_cast<std::streamsize>(data.size()));
    return path;
}

/// Shows a main window and opens `file` in it; false when it was not shown in time.
bool showAndOpen(app::MainWindow& window, const std::string& file)
{
    window.resize(1400, 900);
    window.show();
    QSignalSpy shown(&window, &app::MainWindow::traceShown);
    window.openFiles({ QString::fromStdString(file) });
    return shown.wait(60'000);
}

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

TEST(TruncatedLoad, BannerAboveTheLanesSaysTheFileIsCutShort)
{
    // `head -c 300000` of the four-worker ResNet-50 trace: its first 300 kB hold only CPU events.
    test::TempDir dir;
    const std::string cut = cutCopy(dir, kFourWorkers, "t.json.gz", 300'000);
    ASSERT_FALSE(cut.empty());
    app::MainWindow window;
    ASSERT_TRUE(showAndOpen(window, cut)) << window.loadStatus()->lastError().toStdString();
    const auto* banner = window.findChild<app::CutShortBanner*>();
    ASSERT_NE(banner, nullptr);
    ASSERT_TRUE(banner->isVisible());
    const QString expected = QStringLiteral("t.json.gz is cut short: the file ends after 300.0 kB, in the middle of "
                                            "its content; what followed is missing. Every figure covers only what "
                                            "was read");
    EXPECT_TRUE(banner->text().startsWith(expected)) << banner->text().toStdString();
    // Above the lanes, across the window: the first thing under the toolbar.
    EXPECT_LT(banner->mapTo(&window, QPoint(0, 0)).y(), window.timelineView()->mapTo(&window, QPoint(0, 0)).y());
    EXPECT_GT(banner->width(), 1000);
    // Details says it too, before the readers' notes.
    EXPECT_TRUE(window.details()->browser()->toPlainText().contains(expected))
        << window.details()->browser()->toPlainText().toStdString();

    // A complete file: no banner.
    QSignalSpy again(&window, &app::MainWindow::traceShown);
    window.openFiles({ QString::fromStdString(test::dataPath(kFourWorkers)) });
    ASSERT_TRUE(again.wait(60'000));
    EXPECT_FALSE(banner->isVisible());
}

TEST(TruncatedLoad, GapsDockSaysItsGapsAreThoseOfWhatWasRead)
{
    // The first 800 kB of the 1.1 MB four-worker ResNet-50 trace: GPU activity, and gaps, before the cut.
    test::TempDir dir;
    const std::string cut = cutCopy(dir, kFourWorkers, "half.json.gz", 800'000);
    ASSERT_FALSE(cut.empty());
    app::MainWindow window;
    ASSERT_TRUE(showAndOpen(window, cut)) << window.loadStatus()->lastError().toStdString();
    app::GapsDock* gaps = window.analysisDocks()->gapsDock();
    const auto* count = gaps->findChild<QLabel*>(QStringLiteral("gapCount"));
    ASSERT_NE(count, nullptr);
    EXPECT_GT(gaps->model()->rowCount(), 0);
    EXPECT_TRUE(count->text().endsWith(QStringLiteral(", in only what was read of half.json.gz (cut short)")))
        << count->text().toStdString();
    EXPECT_TRUE(count->text().startsWith(QStringLiteral("%1 gap(s) \u2265 ").arg(gaps->model()->rowCount())))
        << count->text().toStdString();

    // The whole file: its gaps, said plainly.
    QSignalSpy again(&window, &app::MainWindow::traceShown);
    window.openFiles({ QString::fromStdString(test::dataPath(kFourWorkers)) });
    ASSERT_TRUE(again.wait(60'000));
    EXPECT_FALSE(count->text().contains(QStringLiteral("cut short"))) << count->text().toStdString();
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
