// SPDX-License-Identifier: MIT
// A selected GPU op's Details give the mean of its device's counters over its duration: the evidence for a
// bandwidth-bound kernel ("DRAM Bandwidth 92 %, SM Active 18 %"). No export in the test data has GPU_METRICS, so
// the tracks are built by hand on the small trace, with the answers worked out below.
#include "app/models/counter_details.h"
#include "app/models/event_details.h"
#include "core/io/nsys/nsys_sqlite_reader.h"
#include "core/model/trace_builder.h"
#include "timeline/timeline_test_traces.h"

#include <QRegularExpression>

#include <gtest/gtest.h>

using namespace gapscope;

namespace {

// The small trace (k1 [2000, 3000) on GPU 0 stream 7, lane 1 event 0) with three counter tracks: DRAM bandwidth
// 90 % over [2000, 2500) and 94 % from 2500 (mean over k1: 92 %); SM active from 2500 only (18 %: half of k1 has a
// value); and a track of another GPU, which k1's Details leave out.
Trace smallTraceWithMetrics()
{
    TraceBuilder builder(test::makeSmallTrace());
    const ProcessIndex p = builder.devices()[0].process;
    const DeviceIndex gpu0 { 0 };
    const DeviceIndex gpu1 = builder.device(p, 1);
    CounterTracks& counters = builder.counters();
    CounterTrack& dram = counters.tracks()[counters.track("DRAM Bandwidth [Throughput %]", p, gpu0)];
    dram.unit = "%";
    dram.points = { { 1500, 10 }, { 2000, 90 }, { 2500, 94 }, { 3200, 5 } };
    CounterTrack& sm = counters.tracks()[counters.track("SM Active [Throughput %]", p, gpu0)];
    sm.unit = "%";
    sm.points = { { 2500, 18 } };
    CounterTrack& other = counters.tracks()[counters.track("SM Active [Throughput %]", p, gpu1)];
    other.points = { { 0, 50 } };
    return std::move(builder).finish();
}

TEST(GpuOpCountersTest, TheMeanOfEachCounterOfTheDeviceOverTheOpIsInItsDetails)
{
    const Trace trace = smallTraceWithMetrics();
    const EventRef k1 { LaneIndex { 1 }, 0 };
    ASSERT_EQ(trace.name(trace.event(k1)), "k1");
    const auto rows = models::gpuOpCounterRows(trace, k1);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].first, QStringLiteral("DRAM Bandwidth [Throughput %]"));
    EXPECT_EQ(rows[0].second, QStringLiteral("mean 92.0 % (90.0 % – 94.0 %) over 1.000 µs of its 1.000 µs"));
    EXPECT_EQ(rows[1].first, QStringLiteral("SM Active [Throughput %]"));
    EXPECT_EQ(rows[1].second, QStringLiteral("mean 18.0 % over 500 ns of its 1.000 µs"));
    const QString html = models::eventDetailsHtml(trace, k1, 1000);
    EXPECT_TRUE(html.contains(QStringLiteral("mean 92.0 %"))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("mean 18.0 %"))) << html.toStdString();
    // A launch call is no GPU op: no counters.
    EXPECT_TRUE(models::gpuOpCounterRows(trace, EventRef { LaneIndex { 0 }, 1 }).empty());
}

TEST(GpuOpCountersTest, ACounterLanesTooltipGivesTheValueOrTheRangeUnderThePointer)
{
    const Trace trace = smallTraceWithMetrics();
    const std::vector<std::uint32_t> dram { 0 };
    EXPECT_EQ(models::counterTooltip(trace, dram, 2100, 2200), QStringLiteral("DRAM Bandwidth [Throughput %]: 90.0 %"));
    EXPECT_EQ(models::counterTooltip(trace, dram, 2400, 2600),
        QStringLiteral("DRAM Bandwidth [Throughput %]: 90.0 % – 94.0 %"));
    EXPECT_EQ(models::counterTooltip(trace, dram, 1000, 1100), QString()); // before its first point
}

TEST(RangeSamplesTest, ASelectedRangeListsTheSampledFunctionsBottomUpAsSqlCountsThem)
{
    auto loaded = NsysSqliteReader::readFile(
        std::string(GAPSCOPE_TEST_DATA_DIR) + "/nsys/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite");
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    const Trace& trace = loaded.value();
    // [1.0 s, 1.1 s) of the capture's clock. By SQL: SELECT count(*) FROM COMPOSITE_EVENTS WHERE start >= 1e9 AND
    // start < 1.1e9 gives 492; joined with SAMPLING_CALLCHAINS at stackDepth 0 and grouped by symbol, main
    // (saxpy-mpi-cuda) leads with 282, then std::abs(double) with 44; main is on the stack of 332 of them.
    const QString html = models::rangeSamplesHtml(trace, 1'000'000'000, 1'100'000'000);
    EXPECT_TRUE(html.contains(QStringLiteral("492 in the range, bottom-up"))) << html.toStdString();
    const qsizetype mainRow = html.indexOf(QStringLiteral("<tr><td>main <span"));
    const qsizetype absRow = html.indexOf(QStringLiteral("<tr><td>std::abs(double) <span"));
    ASSERT_GE(mainRow, 0) << html.toStdString();
    EXPECT_LT(mainRow, absRow);
    EXPECT_TRUE(html.mid(mainRow).contains(QRegularExpression(
        QStringLiteral("^<tr><td>main <span[^<]*</span></td><td align='right'>282</td><td align='right'>332</td>"))))
        << html.mid(mainRow, 300).toStdString();
    const QString absCells = html.mid(absRow, html.indexOf(QStringLiteral("</tr>"), absRow) - absRow);
    EXPECT_TRUE(absCells.contains(QStringLiteral("<td align='right'>44</td>"))) << absCells.toStdString();
    // No sample in a range before the capture.
    EXPECT_EQ(models::rangeSamplesHtml(trace, 0, 1'000), QString());
}

} // namespace
