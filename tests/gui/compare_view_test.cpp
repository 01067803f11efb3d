// SPDX-License-Identifier: MIT
// File › Compare With… puts NEW under BASE in two titled blocks aligned on the first counted
// step, and the Diff dock shows what `gapscope diff` computes (verdict, step p50s), with kernel rows that outline
// the kernel's occurrences in both blocks and device rows that select the device's gap bands in both.
#include "app/annotations/annotation_editor.h"
#include "app/annotations/annotation_session.h"
#include "app/annotations/note_measure_panel.h"
#include "app/compare/comparison_controller.h"
#include "app/compare/diff_dock.h"
#include "app/mainwindow/main_window.h"
#include "app/mainwindow/window_selector.h"
#include "app/timeline/timeline_state.h"
#include "app/timeline/timeline_view.h"
#include "core/analysis/compare.h"
#include "core/analysis/compare_text.h"
#include "core/analysis/compared_traces.h"
#include "core/annotations/note_measurement.h"
#include "core/io/trace_file.h"
#include "core/model/time_format.h"
#include "core/model/view_extent.h"
#include "gui/main_window_test_support.h"
#include "tests/test_paths.h"

#include <QApplication>
#include <QFileInfo>
#include <QLabel>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>

#include <gtest/gtest.h>

using namespace gapscope;
using namespace gapscope::timeline;

namespace {

const char* const kBase = test::kResnet50Trace;
const char* const kNew = test::kResnet50Workers4Trace;

using test::dataFile;
using test::openAndWait;

Trace load(const char* relative)
{
    auto loaded = loadTraceFile(test::dataPath(relative));
    EXPECT_TRUE(loaded.ok()) << loaded.error().toString();
    return std::move(loaded.value());
}

/// `gapscope diff --window steps --warmup 1 BASE NEW`, computed here from core as diff_command.cpp does.
RunDiff cliDiff(const Trace& base, const Trace& fresh)
{
    AnalysisOptions options;
    options.window = WindowSpec { WindowKind::Steps, 1 };
    const std::vector<RunSummary> b { summarizeRun(base, analyze(base, options), kBase) };
    const std::vector<RunSummary> n { summarizeRun(fresh, analyze(fresh, options), kNew) };
    return compareRuns(b, n);
}

TimeNs firstCountedStepStart(const Trace& trace)
{
    for (const Step& step : findSteps(trace, {}, 1)) {
        if (!step.warmup)
            return step.start;
    }
    return -1;
}

std::size_t kernelsNamed(const Trace& trace, const std::string& name)
{
    std::size_t count = 0;
    for (const Lane& lane : trace.lanes()) {
        for (const Event& e : lane.events)
            count += e.kind == EventKind::Kernel && trace.name(e) == name ? 1 : 0;
    }
    return count;
}

QString cell(const QTableWidget* table, const QString& first, int column)
{
    for (int r = 0; r < table->rowCount(); ++r) {
        if (table->item(r, 0) && table->item(r, 0)->text() == first)
            return table->item(r, column)->text();
    }
    return {};
}

class CompareViewTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_window.resize(1500, 900);
        m_window.windowSelector()->setSpec(WindowSpec { WindowKind::Steps, 1 });
        m_window.show();
        ASSERT_TRUE(openAndWait(m_window, { dataFile(kBase) }));
        QSignalSpy shown(&m_window, &app::MainWindow::traceShown);
        QSignalSpy diffShown(m_window.comparison(), &app::ComparisonController::diffShown);
        m_window.comparison()->compareWith({ dataFile(kNew) });
        ASSERT_TRUE(shown.wait(60'000));
        ASSERT_TRUE(diffShown.count() > 0 || diffShown.wait(60'000));
    }

    app::MainWindow m_window;
};

TEST_F(CompareViewTest, TwoTitledBlocksAlignedOnTheFirstCountedStep)
{
    const auto compared = m_window.loadedTrace().comparison;
    ASSERT_NE(compared, nullptr);
    const Trace& combined = *m_window.trace();
    ASSERT_EQ(compared->newFirstProcess, 1u);
    ASSERT_EQ(combined.processes().size(), compared->base->processes().size() + compared->fresh->processes().size());

    // Every process header says its block: BASE's above NEW's.
    std::vector<std::string> headers;
    for (const LayoutRow& row : m_window.timelineView()->layout().rows()) {
        if (row.kind == RowKind::ProcessHeader)
            headers.push_back(row.label);
    }
    ASSERT_EQ(headers.size(), 2u);
    EXPECT_TRUE(headers[0].starts_with("Base: worker0.1623143089861.pt.trace.json.gz \u00b7 ")) << headers[0];
    EXPECT_TRUE(headers[1].starts_with("New: worker0.1623212756351.pt.trace.json.gz \u00b7 ")) << headers[1];

    // The first counted step (warm-up 1) of each run as read, and where the combined trace puts them.
    const Trace base = load(kBase);
    const Trace fresh = load(kNew);
    const TimeNs baseStep = firstCountedStepStart(base);
    const TimeNs newStep = firstCountedStepStart(fresh);
    ASSERT_GT(baseStep, 0);
    ASSERT_GT(newStep, 0);
    ASSERT_NE(baseStep, newStep); // two runs, two days apart: only the shift lines them up
    EXPECT_EQ(compared->newOffset, baseStep - newStep);
    std::optional<TimeNs> shownBase;
    std::optional<TimeNs> shownNew;
    for (const Step& step : m_window.analysis()->steps) {
        if (step.warmup)
            continue;
        auto& slot = step.process.value < compared->newFirstProcess ? shownBase : shownNew;
        if (!slot)
            slot = step.start;
    }
    ASSERT_TRUE(shownBase && shownNew);
    EXPECT_EQ(*shownBase, baseStep);
    EXPECT_EQ(*shownNew, newStep + compared->newOffset);
    // One axis for both blocks: the same x.
    const TimeAxis axis = m_window.timelineView()->scene().axis;
    EXPECT_EQ(axis.timeToX(*shownBase), axis.timeToX(*shownNew));

    // Align on the third counted step instead: NEW moves so that the two third steps start together.
    QSignalSpy shown(&m_window, &app::MainWindow::traceShown);
    m_window.comparison()->alignSpinBox()->setValue(3);
    ASSERT_TRUE(shown.wait(60'000));
    std::vector<TimeNs> baseStarts;
    std::vector<TimeNs> newStarts;
    for (const Step& step : findSteps(base, {}, 1))
        if (!step.warmup)
            baseStarts.push_back(step.start);
    for (const Step& step : findSteps(fresh, {}, 1))
        if (!step.warmup)
            newStarts.push_back(step.start);
    ASSERT_GE(std::min(baseStarts.size(), newStarts.size()), 3u);
    EXPECT_EQ(m_window.loadedTrace().comparison->alignStep, std::optional<std::size_t>(2));
    EXPECT_EQ(m_window.loadedTrace().comparison->newOffset, baseStarts[2] - newStarts[2]);
}

TEST_F(CompareViewTest, DiffDockShowsTheVerdictAndStepsOfGapscopeDiff)
{
    const app::DiffDock* dock = m_window.comparison()->dock();
    const RunDiff expected = cliDiff(load(kBase), load(kNew));
    ASSERT_EQ(expected.steps.verdict, Verdict::Faster);
    EXPECT_EQ(dock->verdictLabel()->text().toStdString(), verdictLine(expected.steps));
    EXPECT_TRUE(dock->verdictLabel()->text().startsWith(QStringLiteral("Verdict: faster: step p50 ")));
    EXPECT_TRUE(dock->windowLabel()->text().contains(QStringLiteral("steps (warm-up 1 excluded)")))
        << dock->windowLabel()->text().toStdString();
    // One run a side: the caveat follows the why as a sentence of its own, not run into it.
    const QString window = dock->windowLabel()->text();
    ASSERT_TRUE(window.contains(QStringLiteral(" Caveat: one run per side"))) << window.toStdString();
    EXPECT_TRUE(window.contains(QRegularExpression(QStringLiteral("Why: [^\n]*[.!?] Caveat: "))))
        << window.toStdString();
    EXPECT_TRUE(window.endsWith(QLatin1Char('.'))) << window.toStdString();
    const QTableWidget* steps = dock->stepsTable();
    EXPECT_EQ(cell(steps, QStringLiteral("p50"), 1).toStdString(), formatDuration(expected.steps.base.p50Ns));
    EXPECT_EQ(cell(steps, QStringLiteral("p50"), 2).toStdString(), formatDuration(expected.steps.fresh.p50Ns));
    EXPECT_EQ(cell(steps, QStringLiteral("steps"), 1), QString::number(expected.steps.base.durations.size()));
    EXPECT_EQ(dock->kernelsTable()->rowCount(), static_cast<int>(expected.kernels.size()));
    // Host idle fell with four data-loader workers: the devices table says it as the CLI does.
    ASSERT_EQ(expected.devices.size(), 1u);
    EXPECT_EQ(cell(dock->devicesTable(), QStringLiteral("    idle host"), 1).toStdString(),
        formatDuration(expected.devices[0].base->idleByCause[static_cast<int>(GapCause::Host)]));
}

TEST_F(CompareViewTest, DiffCountsTimesFromTheTraceStartAsTheRulerAndTheGapsDockDo)
{
    // BASE's longest gap, 62.34 ms, where the ruler (and the Gaps dock) put it in the combined trace.
    const auto compared = m_window.loadedTrace().comparison;
    std::optional<TimeNs> longestStart;
    for (std::size_t g = 0; g < m_window.analysis()->gaps.size(); ++g) {
        const Gap gap = m_window.analysis()->gaps[g];
        if (!gap.stream && gap.process.value < compared->newFirstProcess
            && formatDuration(gap.duration()) == "62.34 ms")
            longestStart = gap.start;
    }
    ASSERT_TRUE(longestStart);
    const QString expected
        = QString::fromStdString(formatRelativeTime(*longestStart, m_window.timelineState()->origin()));
    const QTableWidget* gaps = m_window.comparison()->dock()->gapsTable();
    ASSERT_EQ(gaps->horizontalHeaderItem(2)->text(), QStringLiteral("Start (from trace start)"));
    QString start;
    for (int r = 0; r < gaps->rowCount(); ++r) {
        if (gaps->item(r, 0)->text() == QStringLiteral("BASE")
            && gaps->item(r, 1)->text() == QStringLiteral("62.34 ms"))
            start = gaps->item(r, 2)->text();
    }
    EXPECT_EQ(start, expected);
    // The window line gives the ruler's times, not raw nanosecond timestamps.
    const QString window = m_window.comparison()->dock()->windowLabel()->text();
    EXPECT_FALSE(window.contains(QStringLiteral(") ns"))) << window.toStdString();
    EXPECT_TRUE(window.contains(QStringLiteral("from the trace start"))) << window.toStdString();
}

TEST_F(CompareViewTest, DiffTablesShowAScreenfulOfRows)
{
    // As the window opens (1500 x 900, the docks at their share of it), the Diff dock raised: each table shows
    // at least six whole rows (seven at this size), not three under the verdict and window lines.
    QTest::qWait(50);
    const app::DiffDock* dock = m_window.comparison()->dock();
    auto* tabs = dock->findChild<QTabWidget*>();
    ASSERT_NE(tabs, nullptr);
    ASSERT_TRUE(dock->isVisible());
    for (QTableWidget* table : { dock->kernelsTable(), dock->gapsTable() }) {
        tabs->setCurrentWidget(table);
        QApplication::processEvents();
        ASSERT_GE(table->rowCount(), 10);
        int whole = 0;
        for (int r = 0; r < table->rowCount(); ++r) {
            const QRect row = table->visualRect(table->model()->index(r, 0));
            whole += table->viewport()->rect().contains(row) ? 1 : 0;
        }
        EXPECT_GE(whole, 6) << table->horizontalHeaderItem(0)->text().toStdString() << ": " << whole
                            << " whole rows in a viewport " << table->viewport()->height() << " px high";
    }
}

TEST_F(CompareViewTest, MeasureAgainstOffersTheNewTraceBeingCompared)
{
    // Its file dialog opens with NEW chosen; a trace alone gives the folder of the note's trace.
    const app::NoteMeasurePanel* panel = m_window.annotations()->editor()->measurePanel();
    EXPECT_EQ(panel->dialogStart(), QFileInfo(dataFile(kNew)).absoluteFilePath());
    ASSERT_TRUE(openAndWait(m_window, { dataFile(kBase) }));
    EXPECT_EQ(panel->dialogStart(), QFileInfo(dataFile(kBase)).absolutePath());
}

TEST(CompareViewVerdict, DiffDockUsesTheRulesOfTheNoteMeasurementWhateverTheViewersWindow)
{
    // The viewer on its default gpu window; the Diff dock's verdict is over the steps window with warm-up 1, as
    // Measure against… measures a note (noteComparisonOptions), and says so.
    app::MainWindow window;
    window.resize(1500, 900);
    window.show();
    ASSERT_TRUE(openAndWait(window, { dataFile(kBase) }));
    QSignalSpy shown(&window, &app::MainWindow::traceShown);
    QSignalSpy diffShown(window.comparison(), &app::ComparisonController::diffShown);
    window.comparison()->compareWith({ dataFile(kNew) });
    ASSERT_TRUE(shown.wait(60'000));
    ASSERT_TRUE(diffShown.count() > 0 || diffShown.wait(60'000));
    const Trace base = load(kBase);
    const Trace fresh = load(kNew);
    const NoteMeasurement note = measureNoteAgainst(base, fresh, Annotation {}, noteComparisonOptions(base));
    const RunDiff expected = cliDiff(base, fresh); // steps, warm-up 1
    ASSERT_EQ(note.window, WindowKind::Steps);
    ASSERT_EQ(note.warmupSteps, 1);
    EXPECT_EQ(note.steps.base.durations.size(), expected.steps.base.durations.size());
    EXPECT_EQ(window.comparison()->dock()->verdictLabel()->text().toStdString(), verdictLine(expected.steps));
    EXPECT_EQ(window.comparison()->dock()->verdictLabel()->text().toStdString(), verdictLine(note.steps));
    EXPECT_TRUE(
        window.comparison()->dock()->windowLabel()->text().contains(QStringLiteral("BASE steps (warm-up 1 excluded)")))
        << window.comparison()->dock()->windowLabel()->text().toStdString();
}

TEST_F(CompareViewTest, KernelRowOutlinesItsOccurrencesInBothBlocks)
{
    QTableWidget* kernels = m_window.comparison()->dock()->kernelsTable();
    ASSERT_GT(kernels->rowCount(), 0);
    const RunDiff expected = cliDiff(load(kBase), load(kNew));
    const std::string name = expected.kernels.front().name; // the largest change in total time
    QTest::mouseClick(kernels->viewport(), Qt::LeftButton, {}, kernels->visualItemRect(kernels->item(0, 5)).center());
    const Trace& combined = *m_window.trace();
    const auto id = combined.strings().find(name);
    ASSERT_TRUE(id.has_value());
    const std::vector<bool>& outlined = m_window.timelineView()->highlightedNames();
    ASSERT_GT(outlined.size(), id->value);
    EXPECT_TRUE(outlined[id->value]);
    EXPECT_EQ(std::count(outlined.begin(), outlined.end(), true), 1);
    // Counted against each run as read: every occurrence is in its block.
    const std::size_t inBase = kernelsNamed(load(kBase), name);
    const std::size_t inNew = kernelsNamed(load(kNew), name);
    ASSERT_GT(inBase, 0u);
    ASSERT_GT(inNew, 0u);
    EXPECT_EQ(m_window.comparison()->highlightKernel(QString::fromStdString(name)), std::make_pair(inBase, inNew));
    EXPECT_EQ(kernelsNamed(combined, name), inBase + inNew);
    EXPECT_TRUE(
        m_window.statusBar()->currentMessage().contains(QStringLiteral("%1 in Base, %2 in New").arg(inBase).arg(inNew)))
        << m_window.statusBar()->currentMessage().toStdString();
}

TEST_F(CompareViewTest, DeviceRowSelectsTheDevicesGapBandsInBothBlocks)
{
    QTableWidget* devices = m_window.comparison()->dock()->devicesTable();
    ASSERT_GT(devices->rowCount(), 0);
    QTest::mouseClick(devices->viewport(), Qt::LeftButton, {}, devices->visualItemRect(devices->item(0, 0)).center());
    const std::vector<bool>& selected = m_window.timelineView()->selectedDevices();
    const Trace& combined = *m_window.trace();
    const auto compared = m_window.loadedTrace().comparison;
    ASSERT_EQ(selected.size(), combined.devices().size());
    std::size_t inBase = 0;
    std::size_t inNew = 0;
    for (std::uint32_t d = 0; d < selected.size(); ++d) {
        if (!selected[d])
            continue;
        EXPECT_EQ(combined.devices()[d].id, m_window.comparison()->dock()->diff()->diff.devices[0].deviceId);
        ++(combined.devices()[d].process.value < compared->newFirstProcess ? inBase : inNew);
    }
    EXPECT_EQ(inBase, 1u);
    EXPECT_EQ(inNew, 1u);
}

} // namespace

TEST_F(CompareViewTest, NewsMemoryPointsMoveWithItsEventsSoTheWholeTraceSpansOneClock)
{
    const auto compared = m_window.loadedTrace().comparison;
    ASSERT_NE(compared, nullptr);
    const Trace base = load(kBase);
    const Trace fresh = load(kNew);
    const auto baseExtent = drawnExtent(base);
    const auto freshExtent = drawnExtent(fresh);
    ASSERT_TRUE(baseExtent && freshExtent);
    // The ResNet-50 traces carry [memory] events, read as counter points, on their own clocks a day apart.
    ASSERT_FALSE(fresh.counters().empty());
    const TimeNs off = compared->newOffset;
    const TimeRange expected { std::min(baseExtent->first, freshExtent->first + off),
        std::max(baseExtent->second, freshExtent->second + off) };
    EXPECT_EQ(drawnExtent(*m_window.trace()), std::make_optional(expected));
    m_window.timelineView()->fitAll();
    EXPECT_EQ(m_window.timelineView()->state()->visibleRange(), expected);
    EXPECT_LT(expected.second - expected.first, 5'000'000'000); // two runs of about 1 s each, not 19 hours
}
