// SPDX-License-Identifier: MIT
#include "app/timeline/geometry/hit_test.h"
#include "timeline/timeline_test_traces.h"

#include <gtest/gtest.h>

using namespace gapscope;
using namespace gapscope::timeline;

namespace {

// Lanes of makeSmallTrace(): lane 0 is thread 1, lane 1 is stream 7. Once finished, thread 1 holds
// 0: step [1000, 9000) depth 0, 1: launch [1000, 1100) depth 1, 2: launch [5000, 5100) depth 1,
// 3: sync [6000, 8000) depth 1; stream 7 holds 0: k1 [2000, 3000), 1: k2 [7000, 7500).
struct LaneHitCase {
    const char* what;
    std::uint32_t lane;
    int depth;
    TimeNs t;
    TimeNs tolerance;
    std::optional<std::uint32_t> expected;
};

class HitTestLaneTest : public ::testing::TestWithParam<LaneHitCase> { };

TEST_P(HitTestLaneTest, ReturnsTheEventUnderThePoint)
{
    static const Trace trace = test::makeSmallTrace();
    static const TimelineIndex index = TimelineIndex::build(trace);
    const LaneHitCase& c = GetParam();
    EXPECT_EQ(hitTestLane(trace, index, LaneIndex { c.lane }, c.depth, c.t, c.tolerance), c.expected) << c.what;
}

INSTANTIATE_TEST_SUITE_P(Cases, HitTestLaneTest,
    ::testing::Values(LaneHitCase { "inside k1", 1, 0, 2500, 0, 0u },
        LaneHitCase { "first ns of k2", 1, 0, 7000, 0, 1u },
        LaneHitCase { "end of k1 is outside (half-open)", 1, 0, 3000, 0, std::nullopt },
        LaneHitCase { "just after k1 within tolerance", 1, 0, 3010, 20, 0u },
        LaneHitCase { "nearer to k2 than k1", 1, 0, 6990, 500, 1u },
        LaneHitCase { "between kernels, out of tolerance", 1, 0, 5000, 100, std::nullopt },
        LaneHitCase { "outer range at depth 0", 0, 0, 5050, 0, 0u },
        LaneHitCase { "launch at depth 1", 0, 1, 5050, 0, 2u }, LaneHitCase { "sync at depth 1", 0, 1, 7999, 0, 3u },
        LaneHitCase { "no depth 2", 0, 2, 5050, 0, std::nullopt },
        LaneHitCase { "before everything", 0, 0, 10, 100, std::nullopt }));

TEST(HitTestTest, MapsPixelsThroughLayoutAndAxis)
{
    const Trace trace = test::makeSmallTrace();
    const TimelineIndex index = TimelineIndex::build(trace);
    const LaneLayout layout = LaneLayout::build(trace, { index.depthCount(LaneIndex { 0 }), 1 }, {});
    const TimeAxis axis { 0, 10'000, 1000 }; // 10 ns per pixel
    const LayoutMetrics& m = layout.metrics();
    // Rows: process header, thread 1 (2 depth rows), device header, utilization, stream 7.
    const int threadTop = m.headerHeight;
    const int streamTop = threadTop + 2 * m.depthRowHeight + m.laneSpacing + m.headerHeight + m.utilizationHeight;
    ASSERT_EQ(layout.rows()[4].y, streamTop);
    // x 250 is t 2500: k1 on stream 7.
    EXPECT_EQ(hitTest(trace, index, layout, axis, 250, streamTop + 5), (EventRef { LaneIndex { 1 }, 0 }));
    // x 505 is t 5050: the launch on the second depth row of the thread, the step on the first.
    EXPECT_EQ(
        hitTest(trace, index, layout, axis, 505, threadTop + m.depthRowHeight + 5), (EventRef { LaneIndex { 0 }, 2 }));
    EXPECT_EQ(hitTest(trace, index, layout, axis, 505, threadTop + 5), (EventRef { LaneIndex { 0 }, 0 }));
    // 2 px right of k1's end (x 300) is within the 3 px tolerance; 5 px is not.
    EXPECT_EQ(hitTest(trace, index, layout, axis, 302, streamTop + 5), (EventRef { LaneIndex { 1 }, 0 }));
    EXPECT_EQ(hitTest(trace, index, layout, axis, 305, streamTop + 5), std::nullopt);
    // Headers and the utilization lane hold no events.
    EXPECT_EQ(hitTest(trace, index, layout, axis, 250, 3), std::nullopt);
    EXPECT_EQ(hitTest(trace, index, layout, axis, 250, streamTop - 3), std::nullopt);
}

} // namespace
