// SPDX-License-Identifier: MIT
// The keyboard leaves the search box and the Gaps table, search says where it is,
// the docks give way on a small window, the gap threshold reads units, the Kernels dock's names get the
// room, the export dialog remembers, and a finished recording asks before it replaces the open trace.
#include "app/export/export_image_dialog.h"
#include "app/export/image_export_controller.h"
#include "app/mainwindow/analysis_docks.h"
#include "app/mainwindow/gaps_dock.h"
#include "app/mainwindow/kernels_dock.h"
#include "app/mainwindow/main_window.h"
#include "app/mainwindow/search_bar.h"
#include "app/models/duration_input.h"
#include "app/models/kernel_model.h"
#include "app/record/recording_offer.h"
#include "app/timeline/timeline_view.h"
#include "gui/main_window_test_support.h"
#include "test_paths.h"

#include <QAbstractButton>
#include <QDockWidget>
#include <QHeaderView>
#include <QLineEdit>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

using namespace gapscope;

namespace {

// Hand-made by the Kineto authors: three cunn_ClassNLLCriterion kernels (at 130, 145 and 200 µs) and two gemm.
const char* const kSmall = "kineto/derived/tb_plugin_test_gpu_utilization.json";
const char* const kResNet = test::kResnet50Trace;

using test::dataFile;
using test::openAndWait;

TEST(SearchKeys, PositionOfTheMatchAndEscapeGivesTheFocusBack)
{
    app::MainWindow window;
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(openAndWait(window, { dataFile(kSmall) }));
    QLineEdit* field = window.searchBar()->field();
    field->setText(QStringLiteral("cunn"));
    EXPECT_EQ(window.searchBar()->statusText(), QStringLiteral("3 matches"));
    QTest::keyClick(field, Qt::Key_Return);
    EXPECT_EQ(window.searchBar()->statusText(), QStringLiteral("1/3"));
    QTest::keyClick(field, Qt::Key_Return);
    EXPECT_EQ(window.searchBar()->statusText(), QStringLiteral("2/3"));
    const auto selected = window.timelineState()->selectedEvent();
    ASSERT_TRUE(selected);
    // The second of them in time: the kernel at 145 µs.
    EXPECT_EQ(window.trace()->event(*selected).duration(), 25'000);
    // The matches are outlined on the timeline.
    ASSERT_NE(window.timelineView()->scene().highlightNames, nullptr);
    EXPECT_TRUE((*window.timelineView()->scene().highlightNames)[window.trace()->event(*selected).name.value]);

    window.activateWindow();
    if (!QTest::qWaitForWindowActive(&window, 2000))
        GTEST_SKIP() << "the platform activates no window";
    field->setFocus();
    ASSERT_TRUE(field->hasFocus());
    QTest::keyClick(field, Qt::Key_Escape);
    EXPECT_TRUE(window.timelineView()->hasFocus());
    // W now zooms instead of being typed into the field.
    const auto before = window.timelineState()->visibleRange();
    QTest::keyClick(window.timelineView(), Qt::Key_W);
    EXPECT_EQ(field->text(), QStringLiteral("cunn"));
    EXPECT_NE(window.timelineState()->visibleRange(), before);
}

TEST(GapsDockKeys, TabLeavesTheTableAndTheThresholdReadsUnits)
{
    app::GapsDock dock;
    EXPECT_FALSE(dock.table()->tabKeyNavigation());
    QSignalSpy changed(&dock, &app::GapsDock::thresholdChanged);
    QLineEdit* field = dock.thresholdField();
    EXPECT_EQ(field->text(), QStringLiteral("100.0 \u00b5s"));
    // "10 ms" was read as 10 µs before.
    field->setText(QStringLiteral("10 ms"));
    emit field->editingFinished();
    EXPECT_EQ(dock.threshold(), 10'000'000);
    ASSERT_EQ(changed.count(), 1);
    EXPECT_EQ(changed.at(0).at(0).value<TimeNs>(), 10'000'000);
    EXPECT_EQ(field->text(), QStringLiteral("10.00 ms"));
    // Not a duration: the threshold stays, and the dock says why.
    field->setText(QStringLiteral("ten"));
    emit field->editingFinished();
    EXPECT_EQ(dock.threshold(), 10'000'000);
    EXPECT_EQ(changed.count(), 1);
}

struct DurationCase {
    const char* text;
    std::optional<TimeNs> ns;
};

class DurationInputTest : public ::testing::TestWithParam<DurationCase> { };

TEST_P(DurationInputTest, UnitsAndErrors)
{
    EXPECT_EQ(models::parseDurationInput(QString::fromUtf8(GetParam().text)), GetParam().ns) << GetParam().text;
}

INSTANTIATE_TEST_SUITE_P(Cases, DurationInputTest,
    ::testing::Values(DurationCase { "10 ms", 10'000'000 }, DurationCase { "10ms", 10'000'000 },
        DurationCase { "2.5 us", 2'500 }, DurationCase { "2.5 \u00b5s", 2'500 }, DurationCase { "2.5 \u03bcs", 2'500 },
        DurationCase { "250 ns", 250 }, DurationCase { "1.5 s", 1'500'000'000 }, DurationCase { "100", 100'000 },
        DurationCase { " 7 MS ", 7'000'000 }, DurationCase { "", std::nullopt }, DurationCase { "ms", std::nullopt },
        DurationCase { "-1 ms", std::nullopt }, DurationCase { "10 min", std::nullopt },
        DurationCase { "1e3 ns", 1'000 }));

TEST(SmallWindow, DocksGiveWayToTheTimelineAndSearchStaysOnTheToolbar)
{
    app::MainWindow window;
    window.resize(1000, 650);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    QApplication::processEvents();
    QApplication::processEvents();
    auto* details = window.findChild<QDockWidget*>(QStringLiteral("detailsDock"));
    auto* gaps = window.findChild<QDockWidget*>(QStringLiteral("gapsDock"));
    ASSERT_TRUE(details && gaps);
    // Before: Details kept ~430 px and the timeline got ~310 px of height.
    EXPECT_LE(details->width(), 1000 * 0.28 + 1);
    EXPECT_LE(gaps->height(), 650 * 0.28 + 1);
    EXPECT_GE(window.timelineView()->width(), 650);
    EXPECT_GE(window.timelineView()->height(), 330);
    // The search field is in the menu bar, not folded into the toolbar's overflow menu.
    EXPECT_TRUE(window.searchBar()->field()->isVisible());
}

TEST(KernelsDock, NamesTakeTheRoomTheFiguresLeave)
{
    app::MainWindow window;
    window.resize(1500, 900);
    window.show();
    ASSERT_TRUE(openAndWait(window, { dataFile(kResNet) }));
    QTableView* table = window.analysisDocks()->kernelsDock()->findChild<QTableView*>();
    ASSERT_NE(table, nullptr);
    window.findChild<QDockWidget*>(QStringLiteral("kernelsDock"))->raise();
    QApplication::processEvents();
    int figures = 0;
    for (int c = 0; c < models::KernelModel::ColumnCount; ++c) {
        if (c != models::KernelModel::NameColumn)
            figures += table->columnWidth(c);
    }
    const int name = table->columnWidth(models::KernelModel::NameColumn);
    // The name column fills what the figures leave of the table (it was 240-320 px with the rest empty).
    EXPECT_GT(name, 320);
    EXPECT_NEAR(name + figures, table->viewport()->width(), 2);
}

TEST(ExportDialog, RemembersSizeRangeAndFile)
{
    app::MainWindow window;
    window.resize(1200, 800);
    window.show();
    ASSERT_TRUE(openAndWait(window, { dataFile(kSmall) }));
    QTemporaryDir dir;
    picture::ExportImageChoice choice;
    choice.range = picture::PictureRange::AnalysisWindow;
    choice.size = QSize(800, 600);
    choice.path = dir.filePath(QStringLiteral("picture.png"));
    QSignalSpy exported(window.imageExport(), &app::ImageExportController::exported);
    ASSERT_TRUE(window.imageExport()->exportTo(choice));
    ASSERT_TRUE(exported.wait(30'000));
    EXPECT_TRUE(exported.at(0).at(1).toString().isEmpty()) << exported.at(0).at(1).toString().toStdString();
    const auto last = window.imageExport()->lastChoice();
    ASSERT_TRUE(last);
    EXPECT_EQ(last->size, QSize(800, 600));
    EXPECT_EQ(last->path, choice.path);
    EXPECT_EQ(last->range, picture::PictureRange::AnalysisWindow);
}

TEST(RecordingOpens, AskFirstWhenATraceIsOpen)
{
    app::MainWindow window;
    window.resize(1200, 800);
    window.show();
    ASSERT_TRUE(openAndWait(window, { dataFile(kSmall) }));
    const auto before = window.trace();
    // A recording finishes (any trace file stands for it here).
    window.recording()->offer(dataFile("hta/trace_filter/sampled_rank-0.json.gz"));
    QMessageBox* prompt = window.recording()->prompt();
    ASSERT_NE(prompt, nullptr);
    EXPECT_TRUE(prompt->isVisible());
    EXPECT_FALSE(window.isLoading());
    EXPECT_EQ(window.trace(), before);
    // "Open Side by Side" keeps the open trace and adds the recording.
    QAbstractButton* sideBySide = nullptr;
    for (QAbstractButton* button : prompt->buttons()) {
        if (button->text() == QStringLiteral("Open Side by Side"))
            sideBySide = button;
    }
    ASSERT_NE(sideBySide, nullptr);
    QSignalSpy shown(&window, &app::MainWindow::traceShown);
    sideBySide->click();
    ASSERT_TRUE(shown.wait(60'000));
    QStringList sources;
    for (const Process& process : window.trace()->processes())
        sources << QString::fromStdString(process.sourceFile);
    EXPECT_TRUE(sources.contains(dataFile(kSmall))) << sources.join(QLatin1Char(' ')).toStdString();
    EXPECT_TRUE(sources.contains(dataFile("hta/trace_filter/sampled_rank-0.json.gz")));
}

} // namespace
