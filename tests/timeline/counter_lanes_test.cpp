// SPDX-License-Identifier: MIT
// The counter lanes and sample strips of the timeline, Qt-free: where the layout puts them and what each pixel
// column of a visible range holds, on hand-built traces whose answers are worked out in the comments.
#include "app/timeline/geometry/counter_draw_list.h"
#include "app/timeline/geometry/lane_layout.h"
#include "core/model/trace_builder.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace gapscope;
using namespace gapscope::timeline;

namespace {

CounterTrack track(std::vector<CounterPoint> points)
{
    CounterTrack t;
    t.points = std::move(points);
    return t;
}

TEST(CounterDrawListTest, EachColumnHoldsTheValuesTheSteppedLineTakesInIt)
{
    // 100 ns a column: nothing before the first point (column 1); 5, 7 and 2 inside column 1; 2 holds through
    // columns 2 and 3; column 4 steps from 2 up to 9, which holds to the end.
    const CounterTrack t = track({ { 100, 5 }, { 150, 7 }, { 160, 2 }, { 400, 9 } });
    const CounterDrawList list = buildCounterDrawList(t, CounterSummary::build(t), TimeAxis { 0, 1000, 10 }, 10);
    EXPECT_EQ(list.firstColumn, 1);
    ASSERT_EQ(list.columns.size(), 9u);
    EXPECT_EQ(list.columns[0].min, 2);
    EXPECT_EQ(list.columns[0].max, 7);
    EXPECT_EQ(list.columns[0].last, 2);
    for (const std::size_t c : { 1u, 2u }) {
        EXPECT_EQ(list.columns[c].min, 2);
        EXPECT_EQ(list.columns[c].max, 2);
    }
    EXPECT_EQ(list.columns[3].min, 2);
    EXPECT_EQ(list.columns[3].max, 9);
    EXPECT_EQ(list.columns[3].last, 9);
    EXPECT_EQ(list.columns[8].min, 9);
    EXPECT_EQ(list.top, 9);
    EXPECT_EQ(list.visited, 4u);
}

TEST(CounterDrawListTest, ARangeStartsWithTheValueHoldingAtItsStartAndReadsOnlyThePointsInside)
{
    const CounterTrack t = track({ { 100, 5 }, { 150, 7 }, { 160, 2 }, { 400, 9 }, { 900, 1 } });
    // [300, 500) over 2 columns: 2 (from 160) holds at 300; column 1 steps to 9 at 400.
    const CounterDrawList list = buildCounterDrawList(t, CounterSummary::build(t), TimeAxis { 300, 500, 2 }, 2);
    EXPECT_EQ(list.firstColumn, 0);
    ASSERT_EQ(list.columns.size(), 2u);
    EXPECT_EQ(list.columns[0].min, 2);
    EXPECT_EQ(list.columns[0].max, 2);
    EXPECT_EQ(list.columns[1].min, 2);
    EXPECT_EQ(list.columns[1].max, 9);
    EXPECT_EQ(list.visited, 1u); // the point at 400; 900 is past the range
    EXPECT_EQ(list.top, 9); // of the whole track: the lane's scale does not change with the range
}

TEST(CounterDrawListTest, ARangeBeforeTheFirstPointHasNoColumns)
{
    const CounterTrack t = track({ { 100, 5 } });
    const CounterDrawList list = buildCounterDrawList(t, CounterSummary::build(t), TimeAxis { 0, 50, 5 }, 5);
    EXPECT_EQ(list.firstColumn, 5);
    EXPECT_TRUE(list.columns.empty());
}

TEST(CounterDrawListTest, AColumnOfManyPointsReadsTheirBlocksAndGivesWhatEveryPointWouldGive)
{
    // 10,000 points, one a nanosecond, over 7 columns: about 1,430 points (some 44 blocks) a column.
    std::vector<CounterPoint> points;
    for (TimeNs t = 0; t < 10'000; ++t)
        points.push_back(CounterPoint { t, static_cast<double>((t * 7919) % 1000) - (t == 6'001 ? 5'000.0 : 0.0) });
    const CounterTrack t = track(points);
    const TimeAxis axis { 0, 10'000, 7 };
    const CounterDrawList list = buildCounterDrawList(t, CounterSummary::build(t), axis, 7);
    ASSERT_EQ(list.columns.size(), 7u);
    for (int c = 0; c < 7; ++c) {
        double low = 1e300;
        double high = -1e300;
        double last = 0;
        for (const CounterPoint& p : points) {
            if (static_cast<int>(axis.timeToX(p.time)) == c) {
                low = std::min(low, p.value);
                high = std::max(high, p.value);
                last = p.value;
            }
        }
        EXPECT_EQ(list.columns[static_cast<std::size_t>(c)].min, low) << c;
        EXPECT_EQ(list.columns[static_cast<std::size_t>(c)].max, high) << c;
        EXPECT_EQ(list.columns[static_cast<std::size_t>(c)].last, last) << c;
    }
    EXPECT_EQ(list.columns[4].min, 1.0 * ((6'001 * 7919) % 1000) - 5'000.0); // the dip, inside a block
    EXPECT_LT(list.visited, 1'000u); // blocks, not 10,000 points
    EXPECT_EQ(list.top, 999.0);
}

TEST(SampleColumnsTest, CountsTheSamplesOfEachColumnOfTheHalfOpenRange)
{
    ThreadSamples thread;
    for (const TimeNs t : { 10, 15, 250, 999, 1000 })
        thread.samples.push_back(CpuSample { t, 0, 0 });
    const std::vector<std::uint32_t> counts = buildSampleColumns(thread, TimeAxis { 0, 1000, 10 }, 10);
    const std::vector<std::uint32_t> expected { 2, 0, 1, 0, 0, 0, 0, 0, 0, 1 }; // 1000 is outside [0, 1000)
    EXPECT_EQ(counts, expected);
}

// Process 0 with thread 1 (sampled) and thread 2 (not), a `C` counter of its own; device 0 with one stream, its
// memory allocated and reserved, and one GPU metric.
Trace sampledTraceWithCounters()
{
    TraceBuilder trace;
    const ProcessIndex p = trace.addProcess({});
    trace.threadLane(p, 1); // lane 0
    trace.threadLane(p, 2); // lane 1
    const DeviceIndex gpu = trace.device(p, 0);
    trace.streamLane(gpu, 7); // lane 2
    CounterTracks& counters = trace.counters();
    const auto add = [&](std::string_view name, std::optional<DeviceIndex> device) {
        const std::size_t t = counters.track(name, p, device);
        counters.tracks()[t].points.push_back(CounterPoint { 10, 1.0 });
        return t;
    };
    add("SM Active [Throughput %]", gpu); // track 0
    add(kMemoryReservedTrack, gpu); // track 1
    add(kMemoryAllocatedTrack, gpu); // track 2
    add("queue depth", std::nullopt); // track 3
    CpuSamples& samples = trace.samples();
    samples.threads()[samples.thread(p, 1)].samples.push_back(CpuSample { 50, samples.addChain({}), 0 });
    return std::move(trace).finish();
}

TEST(CounterLaneLayoutTest, ADevicesMemoryIsOneLaneUnderItsUtilizationThenItsOtherCountersThenItsStreams)
{
    const Trace trace = sampledTraceWithCounters();
    const LayoutMetrics metrics;
    const LaneLayout layout = LaneLayout::build(trace, { 1, 1, 1 }, {});
    const auto& rows = layout.rows();
    // process header, thread 1, thread 2, the process's counter, device header, utilization, memory, metric,
    // stream 7.
    ASSERT_EQ(rows.size(), 9u);
    EXPECT_EQ(rows[1].lane, LaneIndex { 0 });
    ASSERT_TRUE(rows[1].samples.has_value());
    EXPECT_EQ(rows[1].height, metrics.depthRowHeight + metrics.laneSpacing + metrics.sampleRowHeight);
    EXPECT_EQ(layout.sampleStripTop(rows[1]), rows[1].y + metrics.depthRowHeight);
    EXPECT_FALSE(rows[2].samples.has_value());
    EXPECT_EQ(rows[2].height, metrics.depthRowHeight + metrics.laneSpacing);
    EXPECT_EQ(layout.sampleStripTop(rows[2]), std::nullopt);
    // The sample strip is no nesting row: no event is hit there.
    EXPECT_EQ(layout.depthAt(rows[1], *layout.sampleStripTop(rows[1])), std::nullopt);

    EXPECT_EQ(rows[3].kind, RowKind::CounterLane);
    EXPECT_EQ(rows[3].device, std::nullopt);
    EXPECT_EQ(rows[3].label, "queue depth");
    EXPECT_EQ(rows[3].counterTracks, std::vector<std::uint32_t> { 3 });

    EXPECT_EQ(rows[5].kind, RowKind::UtilizationLane);
    EXPECT_EQ(rows[6].kind, RowKind::CounterLane);
    EXPECT_EQ(rows[6].label, "memory (allocated, reserved)");
    EXPECT_EQ(rows[6].counterTracks, (std::vector<std::uint32_t> { 2, 1 })); // allocated first, whatever the order
    EXPECT_EQ(rows[6].height, metrics.counterHeight);
    EXPECT_EQ(rows[7].label, "SM Active [Throughput %]");
    EXPECT_EQ(rows[8].kind, RowKind::StreamLane);
    // The device's gap bands cover its counter lanes too.
    EXPECT_EQ(layout.deviceBand(DeviceIndex { 0 }), std::make_pair(rows[5].y, rows[8].y + rows[8].height));
}

} // namespace
