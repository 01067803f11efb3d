// SPDX-License-Identifier: MIT
// Every figure on screen says its window and agrees with `gapscope report`; a
// gap's start is counted from the trace start everywhere; the ranks of a job are listed in rank order and
// named, whatever order their files were given in.
#include "app/mainwindow/analysis_docks.h"
#include "app/mainwindow/details_panel.h"
#include "app/mainwindow/gaps_dock.h"
#include "app/mainwindow/main_window.h"
#include "app/mainwindow/window_selector.h"
#include "app/models/event_details.h"
#include "app/timeline/timeline_view.h"
#include "gui/main_window_test_support.h"
#include "test_paths.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>

#include <gtest/gtest.h>

using namespace gapscope;
using namespace gapscope::timeline;

namespace {

const char* const kResNet = test::kResnet50Trace;

using test::dataFile;
using test::openAndWait;

QString statusFigures(app::MainWindow& window)
{
    // The permanent label of the status bar that shows the window's figures.
    for (QLabel* label : window.statusBar()->findChildren<QLabel*>()) {
        if (label->text().startsWith(QStringLiteral("window ")))
            return label->text();
    }
    return {};
}

std::vector<QString> utilizationLabels(const TimelineView& view)
{
    const TimelineScene scene = view.scene();
    std::vector<QString> labels;
    for (const LayoutRow& row : view.layout().rows()) {
        if (row.kind == RowKind::UtilizationLane)
            labels.push_back(TimelinePainter::rowLabel(scene, row));
    }
    return labels;
}

TEST(FiguresAgree, UtilizationLaneSaysItsWindowAndDoesNotChangeWithTheView)
{
    app::MainWindow window;
    window.resize(1500, 900);
    window.show();
    ASSERT_TRUE(openAndWait(window, { dataFile(kResNet) }));
    // `gapscope report` on this file: "utilization 60.57 %" over the gpu window (tests/cli/report_test.cpp).
    // Before: the lane said busy / span of the view, 51.4 % at open.
    ASSERT_EQ(utilizationLabels(*window.timelineView()), std::vector<QString> { "utilization 60.57 % (gpu window)" });
    // The status bar and the Details panel give the same figure to the same digits, and name the window.
    EXPECT_TRUE(statusFigures(window).startsWith(QStringLiteral("window gpu"))) << statusFigures(window).toStdString();
    EXPECT_TRUE(statusFigures(window).contains(QStringLiteral("(60.57 %)"))) << statusFigures(window).toStdString();
    EXPECT_TRUE(window.details()->browser()->toPlainText().contains(
        QStringLiteral("GPU 0: utilization 60.57 % over the gpu window")))
        << window.details()->browser()->toPlainText().toStdString();

    // Zoomed into the longest gap (all idle), the lane still gives the window's figure.
    window.timelineView()->zoomToRange(1'623'142'624'177'570'000, 1'623'142'624'239'909'000, 0.0);
    EXPECT_EQ(utilizationLabels(*window.timelineView()), std::vector<QString> { "utilization 60.57 % (gpu window)" });

    // The label follows the window selector: the trace window (first to last event, CPU included).
    QSignalSpy analysed(&window, &app::MainWindow::analysisShown);
    window.windowSelector()->combo()->setCurrentIndex(
        window.windowSelector()->combo()->findData(static_cast<int>(WindowKind::Trace)));
    ASSERT_TRUE(analysed.wait(30'000));
    const DeviceFigures& trace = window.analysis()->devices.at(0);
    EXPECT_EQ(trace.window.kind, WindowKind::Trace);
    const QString expected
        = QStringLiteral("utilization %1 % (trace window)").arg(100.0 * trace.utilization, 0, 'f', 2);
    EXPECT_EQ(utilizationLabels(*window.timelineView()), std::vector<QString> { expected });
    EXPECT_NE(expected, QStringLiteral("utilization 60.57 % (trace window)"));
}

TEST(FiguresAgree, GapStartIsCountedFromTheTraceStartInTheDockAndTheDetails)
{
    app::MainWindow window;
    window.resize(1500, 900);
    window.show();
    ASSERT_TRUE(openAndWait(window, { dataFile(kResNet) }));
    QTableView* table = window.analysisDocks()->gapsDock()->table();
    ASSERT_GT(table->model()->rowCount(), 0);
    // The longest gap starts at ts 1623142624177.570 ms; the trace's first event at 1623142623460.016 ms
    // (both read from the JSON): 717.554 ms from the trace start, as the ruler counts. `gapscope report`
    // says "at +717.6 ms from trace start" (tests/cli/report_origin_test.cpp); before, it said +648.3 ms,
    // counted from the gpu window's start.
    const QModelIndex start = table->model()->index(0, models::GapModel::StartColumn);
    EXPECT_EQ(start.data().toString(), QStringLiteral("+717.6 ms"));
    EXPECT_EQ(start.data(Qt::ToolTipRole).toString(), QStringLiteral("+717.6 ms from trace start"));
    EXPECT_EQ(table->model()->headerData(models::GapModel::StartColumn, Qt::Horizontal).toString(),
        QStringLiteral("Start (from trace start)"));
    window.showGap(window.analysisDocks()->gapsDock()->model()->gapAt(0));
    const QString details = window.details()->browser()->toPlainText();
    EXPECT_TRUE(details.contains(QStringLiteral("+717.6 ms from trace start"))) << details.toStdString();
}

TEST(FiguresAgree, DetailsAndTheGapsDockSayTheThresholdTheyCountAt)
{
    app::MainWindow window;
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(openAndWait(window, { dataFile(kResNet) }));
    ASSERT_TRUE(window.analysis());
    const int listed = window.analysisDocks()->gapsDock()->model()->rowCount();
    ASSERT_GT(listed, 0);
    std::size_t all = 0;
    for (std::size_t g = 0; g < window.analysis()->gaps.size(); ++g)
        all += window.analysis()->gaps[g].stream ? 0 : 1;
    ASSERT_GT(all, static_cast<std::size_t>(listed)); // the dock lists only the gaps of at least 100 µs
    bool dockSaysIt = false;
    for (const QLabel* label : window.analysisDocks()->gapsDock()->findChildren<QLabel*>())
        dockSaysIt |= label->text() == QStringLiteral("%1 gap(s) \u2265 100.0 \u00b5s").arg(listed);
    EXPECT_TRUE(dockSaysIt);
    const QString details = window.details()->browser()->toPlainText();
    EXPECT_TRUE(details.contains(
        QStringLiteral("%1 gaps (%2 of them \u2265 100.0 \u00b5s, listed in the Gaps dock)").arg(all).arg(listed)))
        << details.toStdString();
}

TEST(FiguresAgree, RanksAreListedInRankOrderAndNamedEverywhere)
{
    app::MainWindow window;
    window.resize(1500, 900);
    window.show();
    // Given rank 1 first.
    ASSERT_TRUE(openAndWait(window,
        { dataFile("hta/trace_filter/sampled_rank-1.json.gz"), dataFile("hta/trace_filter/sampled_rank-0.json.gz") }));
    const auto& trace = *window.trace();
    const auto& devices = window.analysis()->devices;
    ASSERT_EQ(devices.size(), 2u);
    // The analysis lists rank 0 first (SOURCES.md: rank 0 span 1222847 µs, rank 1 1231186 µs).
    EXPECT_EQ(trace.processes()[devices[0].process.value].rank, 0);
    EXPECT_EQ(devices[0].spanNs, 1'222'847'000);
    EXPECT_EQ(trace.processes()[devices[1].process.value].rank, 1);
    EXPECT_EQ(devices[1].spanNs, 1'231'186'000);

    // Status bar: rank 0 before rank 1, each named with its rank.
    const QString status = statusFigures(window);
    const auto rank0 = status.indexOf(QStringLiteral("rank 0 GPU 0:"));
    // Rank 1 drove its GPU 1 (device ids as the traces give them).
    const auto rank1 = status.indexOf(QStringLiteral("rank 1 GPU 1:"));
    ASSERT_GE(rank0, 0) << status.toStdString();
    EXPECT_GT(rank1, rank0) << status.toStdString();
    // Details: the same order, with the rank (it said "GPU 0" twice, in file order).
    const QString details = window.details()->browser()->toPlainText();
    const auto details0 = details.indexOf(QStringLiteral("rank 0 GPU 0: utilization"));
    const auto details1 = details.indexOf(QStringLiteral("rank 1 GPU 1: utilization"));
    ASSERT_GE(details0, 0) << details.toStdString();
    EXPECT_GT(details1, details0) << details.toStdString();
    // The timeline: rank 0's GPU lanes above rank 1's.
    std::vector<int> ranks;
    for (const LayoutRow& row : window.timelineView()->layout().rows()) {
        if (row.kind == RowKind::DeviceHeader)
            ranks.push_back(*trace.processes()[row.process.value].rank);
    }
    EXPECT_EQ(ranks, (std::vector<int> { 0, 1 }));
    // A gap's details name the rank of its GPU.
    window.showGap(window.analysisDocks()->gapsDock()->model()->gapAt(0));
    const Gap gap = window.analysis()->gaps[window.analysisDocks()->gapsDock()->model()->gapAt(0)];
    const QString gapDetails = window.details()->browser()->toPlainText();
    const int rank = *trace.processes()[gap.process.value].rank;
    EXPECT_TRUE(
        gapDetails.contains(QStringLiteral("rank %1 GPU %2").arg(rank).arg(trace.devices()[gap.device.value].id)))
        << gapDetails.toStdString();
}

} // namespace
