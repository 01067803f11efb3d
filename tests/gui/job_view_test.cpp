// SPDX-License-Identifier: MIT
// The viewer's side of a job: the Job overview above the lanes and the Ranks dock, on the 8 ranks of
// facebookresearch/param's DLRM run, checked against `gapscope report --json` on the same files.
#include "app/job/job_session.h"
#include "app/job/ranks_dock.h"
#include "app/mainwindow/analysis_docks.h"
#include "app/mainwindow/details_panel.h"
#include "app/mainwindow/kernels_dock.h"
#include "app/mainwindow/main_window.h"
#include "app/models/event_details.h"
#include "app/timeline/timeline_view.h"
#include "cli/commands.h"
#include "core/summary/summary_json.h"
#include "gui/main_window_test_support.h"
#include "tests/test_paths.h"

#include <QCheckBox>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QThreadPool>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <map>
#include <sstream>

using namespace gapscope;
using namespace gapscope::timeline;

namespace {

using test::dataFile;
using test::openAndWait;

QStringList dlrmFiles()
{
    const QDir dir(dataFile("multirank/param_dlrm"));
    QStringList files;
    for (const QString& name : dir.entryList({ QStringLiteral("*.json.gz") }, QDir::Files, QDir::Name))
        files << dir.filePath(name);
    return files;
}

// `gapscope report --json` on the files: what the viewer's job must show.
nlohmann::json reportJob(const QStringList& files)
{
    std::vector<std::string> args { "--json" };
    for (const QString& f : files)
        args.push_back(f.toStdString());
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(cli::runReport(args, out, err), 0) << err.str();
    return nlohmann::json::parse(out.str()).at("job");
}

bool waitForJob(app::MainWindow& window)
{
    app::JobSession* job = window.jobSession();
    QSignalSpy shown(job, &app::JobSession::jobShown);
    for (int i = 0; i < 60 && !job->job(); ++i)
        shown.wait(1000);
    return job->job() != nullptr;
}

bool waitForHeatmap(app::MainWindow& window)
{
    auto* overview = window.jobSession()->overview();
    for (int i = 0; i < 200; ++i) {
        const auto& map = overview->heatmap();
        const auto axis = overview->axis();
        if (map && map->start == axis.start && map->end == axis.end)
            return true;
        QTest::qWait(50);
    }
    return false;
}

qlonglong cell(const app::RanksDock& dock, int row, int column)
{
    return dock.model()->index(row, column).data(models::RankModel::SortRole).toLongLong();
}

class JobViewTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        files = dlrmFiles();
        ASSERT_EQ(files.size(), 8);
        window.resize(1500, 1000);
        window.show();
        ASSERT_TRUE(openAndWait(window, files));
        ASSERT_TRUE(waitForJob(window));
    }
    QStringList files;
    app::MainWindow window;
};

TEST_F(JobViewTest, OverviewHasOneRowPerRankAndMarksTheStragglerTheCoreReports)
{
    const nlohmann::json expected = reportJob(files);
    const auto& job = *window.jobSession()->job();
    auto* overview = window.jobSession()->overview();
    EXPECT_TRUE(overview->isVisible());
    ASSERT_EQ(job.rankCount(), 8u);
    ASSERT_TRUE(waitForHeatmap(window));
    EXPECT_EQ(overview->heatmap()->rows, 8);
    EXPECT_EQ(overview->heatmap()->columns, static_cast<int>(overview->axis().width));
    for (std::size_t row = 0; row < 8; ++row)
        EXPECT_EQ(job.analysis.perRank[row].rank, static_cast<int>(row));
    ASSERT_FALSE(expected.at("straggler").is_null());
    const auto straggler = job.stragglerRow();
    ASSERT_TRUE(straggler);
    EXPECT_EQ(job.analysis.perRank[*straggler].rank, expected.at("straggler").at("rank").get<int>());
    EXPECT_EQ(job.analysis.collectives.size(), expected.at("collectives").size());
    // The overview shares the timeline's axis: zooming the lanes zooms it, and a heatmap for the new range comes.
    window.timelineView()->zoomBy(4.0);
    EXPECT_EQ(overview->axis().start, window.timelineState()->visibleRange().first);
    EXPECT_EQ(overview->axis().end, window.timelineState()->visibleRange().second);
    EXPECT_EQ(overview->axis().width, window.timelineView()->scene().axis.width);
    EXPECT_TRUE(waitForHeatmap(window));
}

TEST_F(JobViewTest, ClickingACollectiveSelectsItsKernelOnEveryRankAtTheReportedArrivals)
{
    const nlohmann::json expected = reportJob(files);
    const auto& job = *window.jobSession()->job();
    auto* overview = window.jobSession()->overview();
    // The collective with the largest skew: its marker is the tallest where it stands.
    std::size_t largest = 0;
    for (std::size_t i = 0; i < job.analysis.collectives.size(); ++i) {
        if (job.analysis.collectives[i].skewNs > job.analysis.collectives[largest].skewNs)
            largest = i;
    }
    const auto point = overview->markerPoint(largest);
    ASSERT_TRUE(point);
    QTest::mouseClick(overview, Qt::LeftButton, {}, *point);
    ASSERT_EQ(overview->selectedCollective(), largest);
    const std::vector<EventRef> kernels = window.jobSession()->selectedKernels();
    ASSERT_EQ(kernels.size(), 8u);
    const nlohmann::json& arrivals = expected.at("collectives").at(largest).at("arrivals_ns");
    ASSERT_EQ(arrivals.size(), 8u);
    const Trace& trace = *window.trace();
    for (std::size_t r = 0; r < 8; ++r) {
        const Event& e = trace.event(kernels[r]);
        EXPECT_EQ(e.start, arrivals.at(r).get<TimeNs>()) << "rank " << r;
        EXPECT_EQ(trace.processes()[trace.lanes()[kernels[r].lane.value].process.value].rank, static_cast<int>(r));
    }
    // The bracket spans the first to the last arrival, and the lanes zoomed onto it.
    const auto& spread = *window.jobSession()->laneOverlay()->spread();
    TimeNs first = arrivals.at(0).get<TimeNs>();
    TimeNs last = first;
    for (const auto& a : arrivals) {
        first = std::min(first, a.get<TimeNs>());
        last = std::max(last, a.get<TimeNs>());
    }
    EXPECT_EQ(spread.firstArrival, first);
    EXPECT_EQ(spread.lastArrival, last);
    EXPECT_EQ(last - first, expected.at("collectives").at(largest).at("skew_ns").get<TimeNs>());
    const auto visible = window.timelineState()->visibleRange();
    EXPECT_LE(visible.first, first);
    EXPECT_GE(visible.second, last);
    // Details lists each rank's arrival and wait: the last arriver waits 0 ns, the first the whole skew.
    const QString details = window.details()->browser()->toPlainText();
    EXPECT_TRUE(details.contains(
        QStringLiteral("last rank %1").arg(expected.at("collectives").at(largest).at("last_rank").get<int>())))
        << details.toStdString();
    EXPECT_TRUE(details.contains(models::durationText(last - first))) << details.toStdString();
}

TEST_F(JobViewTest, RanksDockShowsTheFiguresOfReportJsonAndSortsByWait)
{
    const nlohmann::json expected = reportJob(files);
    app::RanksDock& dock = *window.jobSession()->ranksDock();
    using M = models::RankModel;
    ASSERT_EQ(dock.model()->rowCount(), 8);
    const nlohmann::json& perRank = expected.at("per_rank");
    ASSERT_EQ(perRank.size(), 8u);
    for (int row = 0; row < 8; ++row) {
        const nlohmann::json& r = perRank.at(static_cast<std::size_t>(row));
        EXPECT_EQ(cell(dock, row, M::RankColumn), r.at("rank").get<int>());
        EXPECT_DOUBLE_EQ(dock.model()->index(row, M::UtilizationColumn).data(M::SortRole).toDouble(),
            r.at("utilization").get<double>());
        EXPECT_EQ(cell(dock, row, M::IdleColumn), r.at("idle_ns").get<qlonglong>());
        for (int c = 0; c < kGapCauseCount; ++c) {
            const std::string cause(gapCauseName(static_cast<GapCause>(c)));
            EXPECT_EQ(cell(dock, row, M::FirstCauseColumn + c), r.at("idle_by_cause_ns").at(cause).get<qlonglong>())
                << cause;
        }
        EXPECT_EQ(cell(dock, row, M::WaitColumn), r.at("wait_ns").get<qlonglong>());
        EXPECT_EQ(cell(dock, row, M::TimesLastColumn), r.at("times_last").get<qlonglong>());
        EXPECT_EQ(cell(dock, row, M::ExposedCommunicationColumn),
            r.at("exposed_communication_ns").at("total").get<qlonglong>());
    }
    EXPECT_TRUE(dock.header()->text().contains(QStringLiteral("gpu window")));

    // Sorted by wait, longest first: the ranks in the order of their wait in the report.
    dock.table()->sortByColumn(M::WaitColumn, Qt::DescendingOrder);
    std::vector<std::pair<qlonglong, int>> byWait;
    for (const auto& r : perRank)
        byWait.emplace_back(r.at("wait_ns").get<qlonglong>(), r.at("rank").get<int>());
    std::stable_sort(byWait.begin(), byWait.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    ASSERT_GT(byWait.front().first, byWait.back().first);
    for (int row = 0; row < 8; ++row) {
        const QModelIndex wait = dock.proxy()->index(row, M::WaitColumn);
        const QModelIndex rank = dock.proxy()->index(row, M::RankColumn);
        EXPECT_EQ(wait.data(M::SortRole).toLongLong(), byWait[static_cast<std::size_t>(row)].first);
        const auto r = static_cast<std::size_t>(row);
        if (row == 0 || byWait[r].first != byWait[r - 1].first) {
            EXPECT_EQ(rank.data(M::SortRole).toInt(), byWait[r].second);
        }
    }

    // Clicking the rank with the longest wait brings its lanes into view.
    QTableView* table = dock.table();
    window.jobSession()->ranksDockWidget()->raise();
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(dock.proxy()->index(0, 0)).center());
    const int rank = byWait.front().second;
    const Trace& trace = *window.trace();
    bool found = false;
    for (const LayoutRow& row : window.timelineView()->layout().rows()) {
        if (row.kind != RowKind::ProcessHeader || trace.processes()[row.process.value].rank != rank)
            continue;
        found = true;
        const int scroll = window.timelineView()->verticalScrollBar()->value();
        const int maxScroll = window.timelineView()->verticalScrollBar()->maximum();
        EXPECT_TRUE(row.y == scroll || scroll == maxScroll) << row.y << " " << scroll;
    }
    EXPECT_TRUE(found);
}

TEST_F(JobViewTest, ClickingARankRowOfTheOverviewScrollsToItsLanes)
{
    auto* overview = window.jobSession()->overview();
    auto* bar = window.timelineView()->verticalScrollBar();
    ASSERT_GT(bar->maximum(), 0);
    const Trace& trace = *window.trace();
    for (const std::size_t row : { std::size_t { 2 }, std::size_t { 0 } }) {
        QTest::mouseClick(overview, Qt::LeftButton, {}, overview->rowCentre(row));
        const int rank = window.jobSession()->job()->analysis.perRank[row].rank;
        for (const LayoutRow& r : window.timelineView()->layout().rows()) {
            if (r.kind == RowKind::ProcessHeader && trace.processes()[r.process.value].rank == rank) {
                EXPECT_TRUE(r.y == bar->value() || bar->value() == bar->maximum()) << rank;
            }
        }
    }
    EXPECT_EQ(bar->value(), 0);
}

TEST_F(JobViewTest, KernelsDockSplitsEachKernelByRank)
{
    const nlohmann::json expected = reportJob(files);
    app::KernelsDock& dock = *window.analysisDocks()->kernelsDock();
    ASSERT_TRUE(dock.perRankToggle()->isEnabled());
    QSignalSpy shown(&dock, &app::KernelsDock::perRankShown);
    dock.perRankToggle()->setChecked(true);
    ASSERT_TRUE(shown.wait(30'000));
    const models::KernelModel& model = *dock.model();
    ASSERT_TRUE(model.isPerRank());
    // The all-ranks figures of `report --json` are the sums of the per-rank rows.
    std::map<std::string, std::pair<std::size_t, TimeNs>> sums;
    std::map<std::string, std::map<int, std::size_t>> countByRank;
    for (int row = 0; row < model.rowCount(); ++row) {
        const KernelStats& k = model.kernelAt(row);
        sums[k.name].first += k.count;
        sums[k.name].second += k.totalNs;
        countByRank[k.name][model.rankAt(row)->rank] = k.count;
        EXPECT_EQ(model.index(row, models::KernelModel::RankColumn).data().toString(),
            QStringLiteral("rank %1").arg(model.rankAt(row)->rank));
    }
    std::ostringstream out;
    std::ostringstream err;
    std::vector<std::string> args { "--json" };
    for (const QString& f : files)
        args.push_back(f.toStdString());
    ASSERT_EQ(cli::runReport(args, out, err), 0);
    const nlohmann::json kernels = nlohmann::json::parse(out.str()).at("kernels");
    ASSERT_FALSE(kernels.empty());
    for (const auto& k : kernels) {
        const std::string name = k.at("name").get<std::string>();
        ASSERT_TRUE(sums.count(name)) << name;
        EXPECT_EQ(sums[name].first, k.at("count").get<std::size_t>()) << name;
        EXPECT_EQ(sums[name].second, k.at("total_ns").get<TimeNs>()) << name;
    }
    EXPECT_EQ(sums.size(), kernels.size());
    // Each rank's count of a collective kernel is the number of its occurrences the job analysis matched.
    const auto& job = *window.jobSession()->job();
    for (std::size_t row = 0; row < job.rankCount(); ++row) {
        std::map<std::string, std::size_t> occurrences;
        for (const CollectiveOccurrence& o : job.summaryOfRow(row).collectives)
            ++occurrences[o.kernel.str()];
        ASSERT_FALSE(occurrences.empty());
        for (const auto& [name, count] : occurrences)
            EXPECT_EQ(countByRank[name][job.analysis.perRank[row].rank], count) << name;
    }
    // Unchecked: one row per kernel again.
    dock.perRankToggle()->setChecked(false);
    EXPECT_FALSE(model.isPerRank());
    EXPECT_EQ(static_cast<std::size_t>(model.rowCount()), kernels.size());
}

TEST_F(JobViewTest, SummariesOpenAsTheSameJobWithoutLanes)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QStringList summaries;
    for (const QString& file : files) {
        auto summary = summarizeTraceFile(file.toStdString(), summaryAnalysisOptions(AnalysisOptions {}));
        ASSERT_TRUE(summary) << summary.error().toString();
        const QString out = dir.filePath(QFileInfo(file).fileName() + QStringLiteral(".summary.json"));
        ASSERT_TRUE(writeSummaryFile(out.toStdString(), summary.value()));
        summaries << out;
    }
    app::MainWindow fromSummaries;
    fromSummaries.resize(1500, 1000);
    fromSummaries.show();
    fromSummaries.openFiles(summaries);
    ASSERT_TRUE(waitForJob(fromSummaries));
    const auto& job = *fromSummaries.jobSession()->job();
    EXPECT_TRUE(job.fromSummaries);
    EXPECT_FALSE(fromSummaries.trace());
    EXPECT_TRUE(fromSummaries.jobSession()->overview()->isVisible());
    const models::RankModel& traces = *window.jobSession()->ranksDock()->model();
    const models::RankModel& fromFiles = *fromSummaries.jobSession()->ranksDock()->model();
    ASSERT_EQ(fromFiles.rowCount(), 8);
    for (int row = 0; row < 8; ++row) {
        for (int c = 0; c < models::RankModel::FileColumn; ++c) {
            EXPECT_EQ(fromFiles.index(row, c).data(models::RankModel::SortRole),
                traces.index(row, c).data(models::RankModel::SortRole))
                << "row " << row << " column " << c;
        }
    }
    // The heatmap comes from the summaries' bins, over the ranks' windows.
    ASSERT_TRUE(waitForHeatmap(fromSummaries));
    EXPECT_EQ(fromSummaries.jobSession()->overview()->heatmap()->rows, 8);
    // No lanes: a click on a rank says its trace is not open.
    EXPECT_FALSE(fromSummaries.jobSession()->revealRank(0));

    // Opened over the traces, the summaries replace them: no trace, no kernels, the same Ranks table.
    QSignalSpy shown(window.jobSession(), &app::JobSession::jobShown);
    window.openFiles(summaries);
    for (int i = 0; i < 60 && !window.jobSession()->job()->fromSummaries; ++i)
        shown.wait(1000);
    EXPECT_TRUE(window.jobSession()->job()->fromSummaries);
    EXPECT_FALSE(window.trace());
    EXPECT_EQ(window.analysisDocks()->kernelsDock()->model()->rowCount(), 0);
    EXPECT_EQ(window.jobSession()->ranksDock()->model()->rowCount(), 8);
}

} // namespace

// Two traces without ranks opened side by side are not one job: no overview (it crashed painting an empty job).
TEST(JobViewUnranked, TwoUnrankedTracesSideBySideShowNoJobOverview)
{
    app::MainWindow window;
    window.resize(1500, 1000);
    window.show();
    const QStringList files { dataFile(test::kResnet50Trace), dataFile(test::kResnet50Workers4Trace) };
    ASSERT_TRUE(openAndWait(window, files));
    // The job build runs on the thread pool: wait for it, then deliver its result.
    QThreadPool::globalInstance()->waitForDone();
    QCoreApplication::processEvents();
    EXPECT_EQ(window.jobSession()->job(), nullptr);
    EXPECT_FALSE(window.jobSession()->overview()->isVisible());
    const QImage shot = window.grab().toImage(); // paints every widget, the overview included
    EXPECT_EQ(shot.width(), window.width());
}
