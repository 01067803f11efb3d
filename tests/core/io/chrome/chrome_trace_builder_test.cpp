// SPDX-License-Identifier: MIT
// ChromeTraceBuilder's lane storage on a large file: once a 32nd of the content is read, each lane gets a vector
// of its projected size that its events fill directly; a lane that outgrows it goes on in chunks. The events
// come out in the same order either way.
#include "core/io/chrome/chrome_trace_builder.h"

#include <gtest/gtest.h>

namespace gapscope::chrome {
namespace {

constexpr std::uint64_t kContent = std::uint64_t { 1 } << 30; // 1 GiB: projected at 32 MiB

Event op(TimeNs start, std::uint32_t correlation)
{
    Event e;
    e.start = start;
    e.end = start + 1;
    e.kind = EventKind::CpuOp;
    e.correlation = correlation;
    return e;
}

/// Adds `count` events to a lane, starting at `first` µs, correlations numbered from `first`.
void addOps(ChromeTraceBuilder& builder, std::uint32_t lane, std::uint32_t first, std::uint32_t count)
{
    for (std::uint32_t i = first; i < first + count; ++i)
        ASSERT_NE(builder.addEvent(lane, op(TimeNs { i } * 1000, i)), nullptr);
}

TEST(ChromeTraceBuilderTest, ProjectedLanesKeepEveryEventInOrderAndOutgrowingOnesGoOnInChunks)
{
    ChromeTraceBuilder builder("big.json");
    builder.expectContentBytes(kContent);
    const std::uint32_t steady = builder.hostLane(RawId { 1 }, RawId { 1 }, {});
    const std::uint32_t bursty = builder.hostLane(RawId { 1 }, RawId { 2 }, {});
    // Before the projection: 100 events on each (in chunks of 64, then 128).
    addOps(builder, steady, 0, 100);
    addOps(builder, bursty, 0, 100);
    // At 32 MiB of 1 GiB each lane is projected to 32 x 100 x 1.05 + 1024 = 4,384 events.
    builder.noteProgress(kContent / 32);
    // The steady lane stays inside it; the bursty one outgrows it by 5,000 events.
    addOps(builder, steady, 100, 3000);
    addOps(builder, bursty, 100, 4284 + 5000);
    // A lane first seen after the projection has none: chunks only.
    const std::uint32_t late = builder.hostLane(RawId { 1 }, RawId { 3 }, {});
    addOps(builder, late, 0, 70000);
    const Trace trace = builder.takeTrace().finish();
    ASSERT_EQ(trace.lanes().size(), 3u);
    const std::size_t expected[] = { 3100, 9384, 70000 };
    for (std::size_t l = 0; l < 3; ++l) {
        const Lane& lane = trace.lanes()[l];
        EXPECT_EQ(lane.tid, static_cast<std::int64_t>(l + 1));
        ASSERT_EQ(lane.events.size(), expected[l]) << "lane " << l;
        for (std::uint32_t i = 0; i < lane.events.size(); ++i) {
            ASSERT_EQ(lane.events[i].start, TimeNs { i } * 1000) << "lane " << l << " event " << i;
            ASSERT_EQ(lane.events[i].correlation, i);
        }
    }
    // The projected vector became the lane: no copy, its capacity the projection's.
    EXPECT_EQ(trace.lanes()[0].events.capacity(), 4384u);
}

TEST(ChromeTraceBuilderTest, EventPointersStayValidUntilFinish)
{
    // A flow binds the event added last through the pointer addEvent returned: it must survive the projection.
    ChromeTraceBuilder builder("big.json");
    builder.expectContentBytes(kContent);
    const std::uint32_t lane = builder.hostLane(RawId { 7 }, RawId { 7 }, {});
    Event* before = builder.addEvent(lane, op(1000, 0));
    builder.noteProgress(kContent / 2);
    Event* after = builder.addEvent(lane, op(2000, 0));
    before->correlation = 11;
    after->correlation = 12;
    const Trace trace = builder.takeTrace().finish();
    ASSERT_EQ(trace.lanes().size(), 1u);
    ASSERT_EQ(trace.lanes()[0].events.size(), 2u);
    EXPECT_EQ(trace.lanes()[0].events[0].correlation, 11u);
    EXPECT_EQ(trace.lanes()[0].events[1].correlation, 12u);
}

} // namespace
} // namespace gapscope::chrome
