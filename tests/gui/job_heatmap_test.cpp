// SPDX-License-Identifier: MIT
// The Job overview's heatmap (app/job/job_data.h) on hand-built ranks whose busy time per bin is worked out
// by hand, and its painter's geometry.
#include "app/job/job_data.h"
#include "app/job/job_overview_painter.h"

#include <QImage>
#include <QPainter>

#include <gtest/gtest.h>

using namespace gapscope;
using namespace gapscope::timeline;

namespace {

// A rank with one GPU whose window is [0, 100) ns in four summary bins of 25 ns.
RankSummary summaryRank(int rank, std::vector<TimeNs> busyPerBin)
{
    RankSummary s;
    s.rank = rank;
    s.worldSize = 2;
    DeviceSummary d;
    d.windowStart = 0;
    d.windowEnd = 100;
    d.spanNs = 100;
    d.binStart = 0;
    d.binWidthNs = 25;
    d.busyPerBin = std::move(busyPerBin);
    for (const TimeNs b : d.busyPerBin)
        d.busyNs += b;
    d.idleNs = d.spanNs - d.busyNs;
    s.devices.push_back(d);
    return s;
}

TEST(JobHeatmap, BusyIntervalsGiveTheExactBusyTimePerBin)
{
    const IntervalSet busy = IntervalSet::unionOf({ { 10, 30 }, { 60, 70 } });
    std::vector<double> bins(4, 0.0);
    addBusyPerBin(busy, 0, 100, bins);
    // [0,25): 10..25 = 15; [25,50): 25..30 = 5; [50,75): 60..70 = 10; [75,100): 0.
    EXPECT_EQ(bins, (std::vector<double> { 15, 5, 10, 0 }));
    std::vector<double> zoomed(2, 0.0);
    addBusyPerBin(busy, 20, 40, zoomed);
    // [20,30): 10 busy; [30,40): none.
    EXPECT_EQ(zoomed, (std::vector<double> { 10, 0 }));
}

TEST(JobHeatmap, SummaryBinsAreSpreadEvenlyAndNothingOutsideTheWindow)
{
    auto job = buildJobFromSummaries({ summaryRank(1, { 25, 0, 10, 25 }), summaryRank(0, { 0, 0, 0, 5 }) }, {});
    ASSERT_EQ(job->rankCount(), 2u);
    // Rows in rank order: rank 0 first.
    EXPECT_EQ(job->analysis.perRank[0].rank, 0);
    const JobHeatmap whole = computeJobHeatmap(*job, 0, 100, 2);
    ASSERT_EQ(whole.rows, 2);
    // Rank 1: [0,50) has 25 + 0 of 50 ns busy, [50,100) 10 + 25.
    EXPECT_FLOAT_EQ(whole.at(1, 0), 0.5f);
    EXPECT_FLOAT_EQ(whole.at(1, 1), 0.7f);
    EXPECT_FLOAT_EQ(whole.at(0, 0), 0.0f);
    EXPECT_FLOAT_EQ(whole.at(0, 1), 0.1f);
    // Zoomed on [50, 150): the second half has no data (outside the window).
    const JobHeatmap later = computeJobHeatmap(*job, 50, 150, 2);
    EXPECT_FLOAT_EQ(later.at(1, 0), 0.7f);
    EXPECT_LT(later.at(1, 1), 0.0f);
    // Inside one summary bin, its busy time is spread evenly: [75, 87) and [87, 100) of a bin 25/25 busy.
    const JobHeatmap fine = computeJobHeatmap(*job, 75, 100, 2);
    EXPECT_FLOAT_EQ(fine.at(1, 0), 1.0f);
    EXPECT_FLOAT_EQ(fine.at(0, 1), 0.2f);
    EXPECT_NE(whole.id, later.id);
}

TEST(JobHeatmap, OverviewRowsAndMarkersMapToRanksAndCollectives)
{
    std::vector<RankSummary> ranks { summaryRank(0, { 25, 25, 25, 25 }), summaryRank(1, { 0, 0, 0, 0 }) };
    // One all-reduce: rank 0 arrives at 20, rank 1 at 50 (skew 30, rank 1 last), both end at 60.
    for (int r = 0; r < 2; ++r) {
        CollectiveOccurrence o;
        o.kernel = SharedName("ncclKernel_AllReduce_RING_LL_Sum_float");
        o.start = r == 0 ? 20 : 50;
        o.end = 60;
        ranks[static_cast<std::size_t>(r)].collectives.push_back(o);
    }
    auto job = buildJobFromSummaries(std::move(ranks), {});
    ASSERT_EQ(job->analysis.collectives.size(), 1u);
    EXPECT_EQ(job->analysis.collectives[0].skewNs, 30);
    EXPECT_EQ(job->stragglerRow(), std::optional<std::size_t>(1));
    JobOverviewScene scene;
    scene.job = job.get();
    scene.axis = TimeAxis { 0, 100, 200.0 };
    scene.timeLeft = 240;
    scene.rect = QRect(0, 0, 440, JobOverviewPainter::preferredHeight(2));
    // Two rows of 16 px under the 22 px marker strip.
    EXPECT_DOUBLE_EQ(JobOverviewPainter::rowHeight(scene), 16.0);
    EXPECT_EQ(JobOverviewPainter::rowAt(scene, 22 + 3), std::optional<std::size_t>(0));
    EXPECT_EQ(JobOverviewPainter::rowAt(scene, 22 + 20), std::optional<std::size_t>(1));
    EXPECT_FALSE(JobOverviewPainter::rowAt(scene, 10));
    // The marker stands at the first arrival: t = 20 is x = 240 + 40.
    EXPECT_EQ(JobOverviewPainter::collectiveAt(scene, 280), std::optional<std::size_t>(0));
    EXPECT_FALSE(JobOverviewPainter::collectiveAt(scene, 300));
    // Colours: no data, idle and busy differ.
    EXPECT_NE(JobOverviewPainter::colourOf(-1.0f), JobOverviewPainter::colourOf(0.0f));
    EXPECT_NE(JobOverviewPainter::colourOf(0.0f), JobOverviewPainter::colourOf(1.0f));
}

TEST(JobHeatmap, OverviewHasALegendOfItsColours)
{
    std::vector<RankSummary> ranks { summaryRank(0, { 25, 25, 25, 25 }), summaryRank(1, { 0, 0, 0, 0 }) };
    auto job = buildJobFromSummaries(std::move(ranks), {});
    JobOverviewScene scene;
    scene.job = job.get();
    scene.axis = TimeAxis { 0, 100, 600.0 };
    scene.timeLeft = 240;
    scene.rect = QRect(0, 0, 840, JobOverviewPainter::preferredHeight(2));
    // The legend takes its own strip under the two 16 px rows: the rows keep their height.
    EXPECT_EQ(scene.rect.height(), 22 + 32 + JobOverviewPainter::kLegendHeight + 2);
    EXPECT_DOUBLE_EQ(JobOverviewPainter::rowHeight(scene), 16.0);
    const QRect legend = JobOverviewPainter::legendRect(scene);
    EXPECT_GE(legend.top(), JobOverviewPainter::rowsRect(scene).bottom());
    QImage image(scene.rect.size(), QImage::Format_RGB32);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        JobOverviewPainter().paint(painter, scene);
    }
    // The ramp runs from the colour of an idle bin (0 %) to that of a busy one (100 %), through a half-busy one.
    const QRect ramp = JobOverviewPainter::legendRampRect(scene);
    ASSERT_TRUE(legend.contains(ramp));
    const int y = ramp.center().y();
    EXPECT_EQ(image.pixel(ramp.left(), y), JobOverviewPainter::colourOf(0.0f));
    EXPECT_EQ(image.pixel(ramp.right(), y), JobOverviewPainter::colourOf(1.0f));
    const int middle = ramp.width() / 2;
    EXPECT_EQ(image.pixel(ramp.left() + middle, y),
        JobOverviewPainter::colourOf(static_cast<float>(middle) / static_cast<float>(ramp.width() - 1)));
    // Its labels are drawn: dark text left of the ramp ("0 %"), right of it ("100 %"), and in the label column
    // (what the colour is: the GPU busy share per time bin).
    const auto darkPixels = [&](const QRect& area) {
        int count = 0;
        for (int py = area.top(); py <= area.bottom(); ++py) {
            for (int px = area.left(); px <= area.right(); ++px)
                count += qGray(image.pixel(px, py)) < 120 ? 1 : 0;
        }
        return count;
    };
    EXPECT_GT(darkPixels(QRect(240, legend.top(), ramp.left() - 240, legend.height())), 10);
    EXPECT_GT(darkPixels(QRect(ramp.right() + 2, legend.top(), 40, legend.height())), 10);
    EXPECT_GT(darkPixels(QRect(0, legend.top(), 240, legend.height())), 40);
    // And a swatch of the no-data grey after "100 %".
    bool noData = false;
    for (int px = ramp.right() + 1; px < scene.rect.width(); ++px)
        noData = noData || image.pixel(px, y) == JobOverviewPainter::colourOf(-1.0f);
    EXPECT_TRUE(noData);
}

} // namespace
