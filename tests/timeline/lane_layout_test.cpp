// SPDX-License-Identifier: MIT
#include "app/timeline/geometry/lane_layout.h"
#include "core/io/chrome/chrome_trace_builder.h"

#include <gtest/gtest.h>

using namespace gapscope;
using namespace gapscope::timeline;

namespace {

// Two ranks loaded in the order rank 1, rank 0; rank 0 has two threads, one GPU with streams 13 and 7.
Trace twoRanks()
{
    TraceBuilder trace;
    Process rank1;
    rank1.pid = 20;
    rank1.name = "train";
    rank1.rank = 1;
    Process rank0 = rank1;
    rank0.pid = 10;
    rank0.rank = 0;
    const ProcessIndex p1 = trace.addProcess(rank1);
    const ProcessIndex p0 = trace.addProcess(rank0);
    trace.threadLane(p1, 5); // lane 0
    trace.threadLane(p0, 9); // lane 1
    trace.threadLane(p0, 3); // lane 2
    const DeviceIndex gpu0 = trace.device(p0, 0); // device 0
    trace.streamLane(gpu0, 13); // lane 3
    trace.streamLane(gpu0, 7); // lane 4
    trace.devices()[gpu0.value].name = "Tesla V100";
    return std::move(trace).finish();
}

TEST(LaneLayoutTest, OrdersRanksThenThreadsThenDevicesWithTheirStreams)
{
    const Trace trace = twoRanks();
    const std::vector<int> depths { 1, 3, 1, 1, 2 };
    const LaneLayout layout = LaneLayout::build(trace, depths, {});
    const auto& rows = layout.rows();
    ASSERT_EQ(rows.size(), 9u);
    EXPECT_EQ(rows[0].kind, RowKind::ProcessHeader);
    EXPECT_EQ(rows[0].label, "rank 0 \u00b7 train (pid 10)");
    EXPECT_EQ(rows[1].lane, LaneIndex { 2 }); // tid 3 before tid 9
    EXPECT_EQ(rows[2].lane, LaneIndex { 1 });
    EXPECT_EQ(rows[2].depthRows, 3);
    EXPECT_EQ(rows[3].kind, RowKind::DeviceHeader);
    EXPECT_EQ(rows[3].label, "GPU 0 \u00b7 Tesla V100");
    EXPECT_EQ(rows[4].kind, RowKind::UtilizationLane);
    EXPECT_EQ(rows[5].label, "stream 7");
    EXPECT_EQ(rows[5].depthRows, 2);
    EXPECT_EQ(rows[6].label, "stream 13");
    EXPECT_EQ(rows[7].label, "rank 1 \u00b7 train (pid 20)");
    EXPECT_EQ(rows[8].label, "thread 5");

    // Heights: header 22, thread 1 x 18 + 3, thread 3 x 18 + 3, header 22, utilization 22, ...
    const LayoutMetrics m;
    EXPECT_EQ(rows[2].y, m.headerHeight + m.depthRowHeight + m.laneSpacing);
    const int bandTop = rows[4].y;
    const int bandBottom = rows[6].y + rows[6].height;
    EXPECT_EQ(layout.deviceBand(DeviceIndex { 0 }), std::make_pair(bandTop, bandBottom));
    EXPECT_EQ(layout.totalHeight(), rows[8].y + rows[8].height);

    EXPECT_EQ(layout.rowAt(0), 0u);
    EXPECT_EQ(layout.rowAt(rows[5].y + rows[5].height - 1), 5u);
    EXPECT_EQ(layout.rowAt(layout.totalHeight()), std::nullopt);
    EXPECT_EQ(layout.depthAt(rows[5], rows[5].y + m.depthRowHeight + 1), 1);
    EXPECT_EQ(layout.depthAt(rows[5], rows[5].y + 2 * m.depthRowHeight + 1), std::nullopt); // the spacing
    EXPECT_EQ(layout.rowsIn(rows[2].y + 1, rows[4].y + 1), std::make_pair(std::size_t { 2 }, std::size_t { 5 }));
    EXPECT_EQ(layout.laneDepthTop(LaneIndex { 4 }, 1), rows[5].y + m.depthRowHeight);
}

TEST(LaneLayoutTest, CollapsedGroupsHideTheirLanes)
{
    const Trace trace = twoRanks();
    CollapseState collapse;
    collapse.devices.insert(0);
    collapse.processes.insert(0); // rank 1 (process index 0)
    const LaneLayout layout = LaneLayout::build(trace, { 1, 1, 1, 1, 1 }, collapse);
    const auto& rows = layout.rows();
    ASSERT_EQ(rows.size(), 5u); // rank 0 header, 2 threads, device header, rank 1 header
    EXPECT_TRUE(rows[3].collapsed);
    EXPECT_EQ(rows[3].kind, RowKind::DeviceHeader);
    EXPECT_TRUE(rows[4].collapsed);
    EXPECT_EQ(layout.deviceBand(DeviceIndex { 0 }), std::nullopt);
    EXPECT_EQ(layout.rowOfLane(LaneIndex { 3 }), std::nullopt);
    EXPECT_EQ(layout.rowOfLane(LaneIndex { 0 }), std::nullopt);
}

} // namespace

// Kineto writes pseudo-threads named by text ("PyTorch Profiler", and an instant with tid "") that readers
// give synthetic ids; the label shows the text, never that number. Numeric tids keep their number.
TEST(LaneLayoutTest, ThreadsNamedByTextAreLabelledByTheirText)
{
    Lane profiler;
    profiler.tid = chrome::syntheticId("PyTorch Profiler");
    profiler.name = "PyTorch Profiler";
    EXPECT_EQ(threadLabel(profiler), "PyTorch Profiler");
    Lane unnamed;
    unnamed.tid = chrome::syntheticId("");
    EXPECT_EQ(threadLabel(unnamed), "global markers");
    Lane numeric;
    numeric.tid = 25772;
    numeric.name = "thread 25772 (python)";
    EXPECT_EQ(threadLabel(numeric), "thread 25772 (python)");
    numeric.name = "dataloader";
    EXPECT_EQ(threadLabel(numeric), "dataloader (tid 25772)");
    numeric.name.clear();
    EXPECT_EQ(threadLabel(numeric), "thread 25772");
}
