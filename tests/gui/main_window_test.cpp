// SPDX-License-Identifier: MIT
#include "app/mainwindow/analysis_docks.h"
#include "app/mainwindow/details_panel.h"
#include "app/mainwindow/gaps_dock.h"
#include "app/mainwindow/load_status.h"
#include "app/mainwindow/main_window.h"
#include "app/mainwindow/window_selector.h"
#include "app/timeline/timeline_palette.h"
#include "app/timeline/timeline_view.h"
#include "gui/main_window_test_support.h"
#include "test_paths.h"

#include <QComboBox>
#include <QDragEnterEvent>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QThreadPool>

#include <gtest/gtest.h>

using namespace gapscope;
using namespace gapscope::timeline;

namespace {

/// Waits until every job on the thread pool (loads and analyses run there, app/mainwindow/latest_job.h) has
/// ended, then delivers what they queued for the GUI thread: after this, a dropped result had its chance to show.
void waitForWorkers()
{
    ASSERT_TRUE(QThreadPool::globalInstance()->waitForDone(120'000));
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
}

const char* const kResNet = test::kResnet50Trace;

using test::dataFile;
using test::openAndWait;

int colorDistance(const QColor& a, const QColor& b)
{
    return std::max({ std::abs(a.red() - b.red()), std::abs(a.green() - b.green()), std::abs(a.blue() - b.blue()) });
}

/// The File menu's action of that text ("Export &Image..."), or null.
QAction* fileAction(app::MainWindow& window, const QString& text)
{
    for (QAction* menu : window.menuBar()->actions()) {
        if (!menu->menu())
            continue;
        for (QAction* action : menu->menu()->actions()) {
            if (action->text() == text)
                return action;
        }
    }
    return nullptr;
}

TEST(MainWindowTest, ExportAndCompareAreGreyedUntilATraceIsOpen)
{
    app::MainWindow window;
    window.resize(1200, 800);
    window.show();
    const QStringList names { QStringLiteral("Export &Image..."), QStringLiteral("&Compare With..."),
        QStringLiteral("Compare With Runs &Folder...") };
    for (const QString& name : names) {
        QAction* action = fileAction(window, name);
        ASSERT_NE(action, nullptr) << name.toStdString();
        EXPECT_FALSE(action->isEnabled()) << name.toStdString() << " with no trace open";
    }
    ASSERT_TRUE(test::openAndWait(window, { test::dataFile(test::kResnet50Trace) }));
    for (const QString& name : names)
        EXPECT_TRUE(fileAction(window, name)->isEnabled()) << name.toStdString() << " with a trace open";
}

TEST(MainWindowTest, LongestGapSelectedFromTheGapsDockIsBandedWhereItLies)
{
    app::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    ASSERT_TRUE(openAndWait(window, { dataFile(kResNet) }));
    ASSERT_TRUE(window.analysis());

    // The dock lists gaps longest first; click its first row.
    QTableView* table = window.analysisDocks()->gapsDock()->table();
    ASSERT_GT(table->model()->rowCount(), 0);
    const QModelIndex first = table->model()->index(0, 0);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(first).center());
    QApplication::processEvents();

    // The longest idle interval of the union of kernels, memcpys and memsets, computed from the JSON
    // independently of GapScope: 62.339 ms from ts 1623142624177.570 ms to 1623142624239.909 ms.
    const auto selected = window.timelineState()->selectedGap();
    ASSERT_TRUE(selected.has_value());
    const Gap& gap = window.analysis()->gaps[*selected];
    EXPECT_EQ(gap.start, 1'623'142'624'177'570'000);
    EXPECT_EQ(gap.end, 1'623'142'624'239'909'000);
    EXPECT_FALSE(gap.stream.has_value());

    // Zoomed to the gap with a quarter of its length as context on each side.
    const TimeNs context = (gap.end - gap.start) / 4;
    EXPECT_EQ(window.timelineState()->visibleRange(), std::make_pair(gap.start - context, gap.end + context));

    TimelineView* view = window.timelineView();
    const QImage image = view->canvas()->grab().toImage();
    const TimelineScene scene = view->scene();
    ASSERT_EQ(image.width(), scene.width);
    const TimeAxis axis = scene.axis;
    const int gapLeft = scene.labelWidth + static_cast<int>(std::floor(axis.timeToX(gap.start)));
    const int gapRight = scene.labelWidth + static_cast<int>(std::ceil(axis.timeToX(gap.end)));
    // The gap is the middle two thirds of the lanes.
    EXPECT_NEAR(gapLeft - scene.labelWidth, axis.width / 6.0, 1.0);
    EXPECT_NEAR(gapRight - scene.labelWidth, axis.width * 5.0 / 6.0, 1.0);

    // Sample the middle of the device's utilization lane and of its stream lane: idle in the gap, so
    // the band over the lane background is all there is.
    const auto& rows = view->layout().rows();
    int checkedInside = 0;
    int checkedOutside = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const LayoutRow& row = rows[r];
        if (row.device != gap.device || (row.kind != RowKind::UtilizationLane && row.kind != RowKind::StreamLane))
            continue;
        const int y = TimelinePainter::contentYToScreen(scene, row.y) + row.height / 2;
        ASSERT_GT(y, scene.rulerHeight);
        ASSERT_LT(y, scene.height);
        const QColor background
            = row.kind == RowKind::UtilizationLane ? laneBackground(false) : laneBackground(r % 2 == 1);
        const QColor band = blendOver(background, gapBandColor(gap.cause, true));
        // Inside, away from the edge lines and the flow arrow that lands on the op ending the gap.
        for (int x = gapLeft + 8; x < gapRight - 8; x += 7) {
            EXPECT_LE(colorDistance(image.pixelColor(x, y), band), 3)
                << "x " << x << " y " << y << " " << image.pixelColor(x, y).name().toStdString() << " expected "
                << band.name().toStdString();
            ++checkedInside;
        }
        // Outside: the context on both sides never has the selected band's colour.
        for (int x = scene.labelWidth; x < scene.width; ++x) {
            if (x >= gapLeft - 2 && x <= gapRight + 2)
                continue;
            EXPECT_GT(colorDistance(image.pixelColor(x, y), band), 6) << "x " << x << " y " << y;
            ++checkedOutside;
        }
    }
    EXPECT_GT(checkedInside, 100);
    EXPECT_GT(checkedOutside, 300);

    // The details panel explains the gap: host-bound, the data loader on the launching thread.
    const QString details = window.details()->browser()->toPlainText();
    EXPECT_TRUE(details.contains(QStringLiteral("Idle gap of 62.34 ms"))) << details.toStdString();
    EXPECT_TRUE(details.contains(QStringLiteral("host"))) << details.toStdString();
}

TEST(MainWindowTest, WindowChoiceGivesTheFiguresOfGapscopeReport)
{
    app::MainWindow window;
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(openAndWait(window, { dataFile(kResNet) }));
    // Steps, skipping one warm-up step: steps 6..10.
    window.windowSelector()->combo()->setCurrentIndex(
        window.windowSelector()->combo()->findText(QStringLiteral("steps")));
    window.windowSelector()->findChild<QSpinBox*>()->setValue(1); // the warm-up box (the toolbar has another)
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            const auto result = window.analysis();
            return result && result->options.window.kind == WindowKind::Steps
                && result->options.window.warmupSteps == 1;
        },
        30'000));
    const DeviceFigures& figures = window.analysis()->devices.at(0);
    // The TensorBoard plugin's step durations 175153 + 179733 + 174564 + 182172 + 165983 us (SOURCES.md).
    EXPECT_EQ(figures.spanNs, 877'605'000);
    // `gapscope report --json --window steps --warmup 1` on the same file: busy_ns 502929000.
    EXPECT_EQ(figures.busyNs, 502'929'000);
    EXPECT_NEAR(figures.utilization, 0.57307, 1e-5);

    // A range selection is measured over exactly that range: the longest gap is all idle, all host.
    const TimeRange gapRange { 1'623'142'624'177'570'000, 1'623'142'624'239'909'000 };
    window.timelineState()->selectRange(gapRange);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return window.details()->browser()->toPlainText().contains(QStringLiteral("utilization")); }, 30'000));
    const QString details = window.details()->browser()->toPlainText();
    EXPECT_TRUE(details.contains(QStringLiteral("Range of 62.34 ms"))) << details.toStdString();
    EXPECT_TRUE(details.contains(QStringLiteral("0.00 %"))) << details.toStdString();
    // Table cells come out one per line in plain text.
    EXPECT_TRUE(details.contains(QStringLiteral("idle, host\n62.34 ms"))) << details.toStdString();
}

TEST(MainWindowTest, CorruptFileShowsAnErrorAndKeepsTheViewerUsable)
{
    app::MainWindow window;
    window.resize(1200, 800);
    window.show();
    // tb_plugin_test_gpu_utilization.json: 5 kernels and the CPU ops around them.
    const QString good = dataFile("kineto/derived/tb_plugin_test_gpu_utilization.json");
    ASSERT_TRUE(openAndWait(window, { good }));
    const auto before = window.trace();
    ASSERT_TRUE(before);

    QTemporaryDir dir;
    const QString corrupt = dir.filePath(QStringLiteral("truncated.json"));
    QFile file(corrupt);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    // Cut off inside its first event: nothing complete to load (a file cut after complete events loads them).
    file.write(R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": )");
    file.close();

    QSignalSpy failed(&window, &app::MainWindow::loadFailed);
    window.openFiles({ corrupt });
    ASSERT_TRUE(failed.wait(30'000));
    // The message names the file and the place.
    EXPECT_TRUE(window.loadStatus()->lastError().contains(corrupt)) << window.loadStatus()->lastError().toStdString();
    EXPECT_TRUE(window.loadStatus()->lastError().contains(QStringLiteral("at byte")))
        << window.loadStatus()->lastError().toStdString();
    QMessageBox* dialog = window.loadStatus()->errorDialog();
    ASSERT_NE(dialog, nullptr);
    EXPECT_TRUE(dialog->isVisible());
    EXPECT_FALSE(dialog->isModal());
    EXPECT_EQ(dialog->informativeText(), window.loadStatus()->lastError());
    // The viewer is still open, still shows the previous trace, and still loads.
    EXPECT_TRUE(window.isVisible());
    EXPECT_FALSE(window.isLoading());
    EXPECT_EQ(window.trace(), before);
    EXPECT_TRUE(openAndWait(window, { good }));
    EXPECT_NE(window.trace(), before);
}

TEST(MainWindowTest, TwoRanksOpenSideBySideInRankOrder)
{
    app::MainWindow window;
    window.resize(1400, 900);
    window.show();
    // Given rank 1 first: the timeline still shows rank 0 on top.
    ASSERT_TRUE(openAndWait(window,
        { dataFile("hta/trace_filter/sampled_rank-1.json.gz"), dataFile("hta/trace_filter/sampled_rank-0.json.gz") }));
    std::vector<std::string> headers;
    for (const LayoutRow& row : window.timelineView()->layout().rows()) {
        if (row.kind == RowKind::ProcessHeader)
            headers.push_back(row.label);
    }
    // HTA's sampled traces: pid 4037 is rank 0 and pid 4045 is rank 1 (distributedInfo.rank).
    ASSERT_EQ(headers.size(), 2u);
    EXPECT_EQ(headers[0].rfind("rank 0 \u00b7", 0), 0u) << headers[0];
    EXPECT_NE(headers[0].find("pid 4037"), std::string::npos) << headers[0];
    EXPECT_EQ(headers[1].rfind("rank 1 \u00b7", 0), 0u) << headers[1];
    EXPECT_EQ(window.analysis()->devices.size(), 2u);
}

TEST(MainWindowTest, CancelAbandonsTheLoad)
{
    app::MainWindow window;
    window.show();
    QSignalSpy shown(&window, &app::MainWindow::traceShown);
    window.openFiles({ dataFile(kResNet) });
    ASSERT_TRUE(window.isLoading());
    QPushButton* cancel = nullptr;
    for (QPushButton* button : window.findChildren<QPushButton*>()) {
        if (button->text() == QStringLiteral("Cancel"))
            cancel = button;
    }
    ASSERT_NE(cancel, nullptr);
    ASSERT_TRUE(cancel->isVisible());
    QTest::mouseClick(cancel, Qt::LeftButton);
    EXPECT_FALSE(window.isLoading());
    EXPECT_FALSE(cancel->isVisible());
    // The worker stops at its next step or finishes; either way nothing is shown, even once it has ended and
    // whatever it queued for the GUI thread has been delivered.
    waitForWorkers();
    EXPECT_EQ(shown.count(), 0);
    EXPECT_EQ(window.trace(), nullptr);
}

TEST(MainWindowTest, DroppedFilesOpenAndAreRemembered)
{
    app::MainWindow window;
    window.show();
    const QString small = dataFile("kineto/derived/tb_plugin_test_gpu_utilization.json");
    QMimeData mime;
    mime.setUrls({ QUrl::fromLocalFile(small) });
    QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    EXPECT_TRUE(enter.isAccepted());
    QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QSignalSpy shown(&window, &app::MainWindow::traceShown);
    QApplication::sendEvent(&window, &drop);
    ASSERT_TRUE(shown.wait(30'000));
    EXPECT_EQ(QString::fromStdString(window.trace()->processes().at(0).sourceFile), small);
    // File > Open Recent lists it first.
    const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    ASSERT_FALSE(recent.isEmpty());
    EXPECT_EQ(recent.first(), QFileInfo(small).absoluteFilePath());
}

TEST(MainWindowTest, ANewerLoadDropsTheOlderOne)
{
    app::MainWindow window;
    QSignalSpy shown(&window, &app::MainWindow::traceShown);
    window.openFiles({ dataFile(kResNet) });
    const QString small = dataFile("kineto/derived/tb_plugin_test_gpu_utilization.json");
    window.openFiles({ small });
    ASSERT_TRUE(shown.wait(60'000));
    // Let the first job finish too: its result must not replace the second.
    waitForWorkers();
    EXPECT_EQ(shown.count(), 1);
    ASSERT_TRUE(window.trace());
    ASSERT_EQ(window.trace()->processes().size(), 1u);
    EXPECT_EQ(QString::fromStdString(window.trace()->processes()[0].sourceFile), small);
}

} // namespace

TEST(MainWindowTest, AFolderWithoutARunsManifestSaysWhatItIsNotAndHowToOpenIt)
{
    app::MainWindow window;
    window.resize(1200, 800);
    window.show();
    QTemporaryDir dir;
    QFile file(dir.filePath(QStringLiteral("rank0.json")));
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(R"({"traceEvents": []})");
    file.close();
    QSignalSpy failed(&window, &app::MainWindow::loadFailed);
    window.openFiles({ dir.path() });
    ASSERT_TRUE(failed.wait(30'000));
    // Main said "the file is empty" of the folder.
    const QString error = window.loadStatus()->lastError();
    EXPECT_TRUE(error.startsWith(dir.path() + QStringLiteral(": a folder without gapscope-runs.json")))
        << error.toStdString();
    EXPECT_TRUE(error.contains(QStringLiteral("'gapscope job ") + dir.path() + QStringLiteral("'")))
        << error.toStdString();
    EXPECT_EQ(window.trace(), nullptr);
}
