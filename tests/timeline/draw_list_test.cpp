// SPDX-License-Identifier: MIT
#include "app/timeline/geometry/draw_list.h"
#include "core/model/trace_builder.h"
#include "timeline/timeline_test_traces.h"

#include <gtest/gtest.h>

#include <map>

using namespace gapscope;
using namespace gapscope::timeline;

namespace {

Event kernel(TraceBuilder& trace, TimeNs start, TimeNs end, const char* name = "k")
{
    Event e;
    e.kind = EventKind::Kernel;
    e.name = trace.strings().intern(name);
    e.start = start;
    e.end = end;
    return e;
}

TEST(DrawListTest, FoldsNarrowNeighboursAndKeepsWideEventsApart)
{
    TraceBuilder builder;
    const ProcessIndex p = builder.addProcess({});
    const LaneIndex lane = builder.streamLane(builder.device(p, 0), 7);
    auto& events = builder.lanes()[lane.value].events;
    // 10 ns per pixel: three sub-pixel kernels within a pixel of each other, a 20 px kernel, a
    // sub-pixel kernel right after it, a zero-length one, and one entirely outside the range.
    events = { kernel(builder, 0, 3), kernel(builder, 4, 6), kernel(builder, 7, 12, "longest"),
        kernel(builder, 100, 300), kernel(builder, 305, 306), kernel(builder, 500, 500), kernel(builder, 2000, 2100) };
    Trace trace = std::move(builder).finish();
    const TimelineIndex index = TimelineIndex::build(trace);
    const LaneDrawList list = buildLaneDrawList(trace, index, lane, TimeAxis { 0, 1000, 100 });
    ASSERT_EQ(list.items.size(), 4u);
    EXPECT_FLOAT_EQ(list.items[0].x0, 0.0f);
    EXPECT_FLOAT_EQ(list.items[0].x1, 1.2f);
    EXPECT_EQ(list.items[0].count, 3u);
    EXPECT_EQ(list.items[0].event, 2u); // the longest of the fold: [7, 12)
    EXPECT_FLOAT_EQ(list.items[1].x0, 10.0f);
    EXPECT_FLOAT_EQ(list.items[1].x1, 30.0f);
    EXPECT_EQ(list.items[1].count, 1u);
    // A narrow event does not fold into a wide one before it.
    EXPECT_FLOAT_EQ(list.items[2].x0, 30.5f);
    EXPECT_EQ(list.items[2].count, 1u);
    EXPECT_FLOAT_EQ(list.items[3].x0, 50.0f);
    EXPECT_FLOAT_EQ(list.items[3].x1, 50.0f);
    // The event at 2000 is outside [0, 1000): never visited.
    EXPECT_EQ(list.visited, 6u);
}

struct LodCase {
    const char* name;
    double rangeFraction; // of the trace span
    double offsetFraction; // where the range starts
    double width;
};

class LodCoverageTest : public ::testing::TestWithParam<LodCase> {
protected:
    static void SetUpTestSuite()
    {
        s_trace = new Trace(test::makeGeneratedTrace(2, 2, 200'000, 7));
        s_index = new TimelineIndex(TimelineIndex::build(*s_trace));
    }
    static void TearDownTestSuite()
    {
        delete s_index;
        delete s_trace;
    }
    static Trace* s_trace;
    static TimelineIndex* s_index;
};
Trace* LodCoverageTest::s_trace = nullptr;
TimelineIndex* LodCoverageTest::s_index = nullptr;

// The promise of the LOD: every pixel column an event covers is covered by an item at its depth.
TEST_P(LodCoverageTest, NeverDropsAnEventFromAColumnItCovers)
{
    const LodCase& c = GetParam();
    const auto [traceStart, traceEnd] = *s_trace->timeSpan();
    const auto span = static_cast<double>(traceEnd - traceStart);
    const TimeNs start = traceStart + static_cast<TimeNs>(span * c.offsetFraction);
    const TimeAxis axis { start, start + std::max<TimeNs>(1, static_cast<TimeNs>(span * c.rangeFraction)), c.width };
    const int columns = static_cast<int>(c.width);
    for (std::uint32_t l = 0; l < s_trace->lanes().size(); ++l) {
        const Lane& lane = s_trace->lanes()[l];
        const LaneDrawList list = buildLaneDrawList(*s_trace, *s_index, LaneIndex { l }, axis);
        std::map<int, std::vector<bool>> covered;
        for (const DrawItem& item : list.items) {
            auto& columnsOfDepth = covered[item.depth];
            columnsOfDepth.resize(static_cast<std::size_t>(columns), false);
            const ColumnSpan cs = columnsOf(item.x0, item.x1);
            for (int x = std::max(0, cs.first); x < std::min(columns, cs.last); ++x)
                columnsOfDepth[static_cast<std::size_t>(x)] = true;
        }
        std::size_t overlapping = 0;
        for (const Event& e : lane.events) {
            if (!(e.start < axis.end && e.end > axis.start))
                continue;
            ++overlapping;
            const ColumnSpan cs = columnsOf(axis.timeToX(e.start), axis.timeToX(e.end));
            const auto& columnsOfDepth = covered[e.depth];
            ASSERT_FALSE(columnsOfDepth.empty()) << "lane " << l << " depth " << e.depth << " has no items";
            for (int x = std::max(0, cs.first); x < std::min(columns, cs.last); ++x)
                ASSERT_TRUE(columnsOfDepth[static_cast<std::size_t>(x)])
                    << c.name << ": lane " << l << " event [" << e.start << ", " << e.end << ") column " << x;
        }
        // Folding bounds the work by the pixels: at most a few items and visits per column and depth.
        const std::size_t depths = covered.size();
        EXPECT_LE(list.items.size(), depths * static_cast<std::size_t>(columns) + depths) << c.name;
        EXPECT_LE(list.visited, std::max<std::size_t>(overlapping, 1) + 2 * depths)
            << c.name << ": visited more than the events in view";
        if (overlapping > 100'000) {
            EXPECT_LT(list.visited, overlapping / 4) << c.name << ": a full zoom-out should use the summaries";
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Ranges, LodCoverageTest,
    ::testing::Values(LodCase { "full", 1.0, 0.0, 1920 }, LodCase { "full narrow", 1.0, 0.0, 37 },
        LodCase { "ten percent", 0.1, 0.45, 1920 }, LodCase { "one percent", 0.01, 0.3, 1920 },
        LodCase { "one percent odd width", 0.01, 0.7, 1333 }, LodCase { "hundredth of a percent", 0.0001, 0.5, 1920 },
        LodCase { "past the end", 0.2, 0.9, 800 }),
    [](const auto& info) {
        std::string name = info.param.name;
        for (char& ch : name)
            ch = std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
        return name;
    });

TEST(DrawListTest, UtilizationIsTheBusyFractionOfEachColumn)
{
    // Busy [0, 15) and [25, 30) and [28, 40) (overlapping: union [25, 40)); 10 ns per column.
    const BusyProfile busy = BusyProfile::fromIntervals({ { 0, 15 }, { 28, 40 }, { 25, 30 } });
    EXPECT_EQ(busy.busyWithin(0, 100), 30);
    EXPECT_EQ(busy.busyWithin(12, 27), 5); // 3 + 2
    const auto fractions = buildUtilization(busy, TimeAxis { 0, 50, 5 }, 5);
    ASSERT_EQ(fractions.size(), 5u);
    EXPECT_FLOAT_EQ(fractions[0], 1.0f);
    EXPECT_FLOAT_EQ(fractions[1], 0.5f);
    EXPECT_FLOAT_EQ(fractions[2], 0.5f);
    EXPECT_FLOAT_EQ(fractions[3], 1.0f);
    EXPECT_FLOAT_EQ(fractions[4], 0.0f);
}

TEST(DrawListTest, CacheRebuildsOnlyWhenTheRangeOrWidthChanges)
{
    const Trace trace = test::makeSmallTrace();
    const TimelineIndex index = TimelineIndex::build(trace);
    DrawListCache cache;
    cache.setAxis({ 0, 10'000, 500 });
    const LaneIndex gpuLane { 1 };
    const auto& first = cache.lane(trace, index, gpuLane);
    EXPECT_EQ(first.items.size(), 2u);
    cache.lane(trace, index, gpuLane);
    cache.setAxis({ 0, 10'000, 500 });
    cache.lane(trace, index, gpuLane);
    EXPECT_EQ(cache.builds(), 1u);
    cache.setAxis({ 0, 10'000, 600 });
    cache.lane(trace, index, gpuLane);
    EXPECT_EQ(cache.builds(), 2u);
}

} // namespace
