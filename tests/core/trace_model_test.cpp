// SPDX-License-Identifier: MIT
#include "core/model/time_format.h"
#include "tests/make_event.h"
#include "core/model/trace.h"

#include <gtest/gtest.h>

namespace gapscope {
namespace {

using test::makeEvent;

TEST(StringTable, InternsEachStringOnceAndKeepsViewsStable)
{
    StringTable table;
    EXPECT_EQ(table.view(StringId { 0 }), "");
    const StringId a = table.intern("gemm");
    const StringId b = table.intern("relu");
    EXPECT_EQ(table.intern("gemm"), a);
    EXPECT_NE(a, b);
    const std::string_view before = table.view(a);
    for (int i = 0; i < 10000; ++i)
        table.intern("k" + std::to_string(i));
    EXPECT_EQ(table.view(a).data(), before.data()); // storage never moves
    EXPECT_EQ(table.size(), 10003u);
    StringTable copy = table;
    EXPECT_EQ(copy.view(b), "relu");
    EXPECT_EQ(*copy.find("k9999"), *table.find("k9999"));
    EXPECT_FALSE(copy.find("absent").has_value());
}

TEST(Trace, FinalizeSortsLanesAndComputesDepth)
{
    Trace trace;
    const ProcessIndex p = trace.addProcess({ .pid = 10 });
    const LaneIndex thread = trace.threadLane(p, 11);
    EXPECT_EQ(trace.threadLane(p, 11), thread);
    auto& events = trace.lanes[thread.value].events;
    // Added out of order: outer [0,100), child [10,50), grandchild [20,30), sibling [60,90), next [100,110).
    events.push_back(makeEvent(trace, EventKind::CpuOp, "sibling", 60, 90));
    events.push_back(makeEvent(trace, EventKind::CpuOp, "grandchild", 20, 30));
    events.push_back(makeEvent(trace, EventKind::CpuOp, "next", 100, 110));
    events.push_back(makeEvent(trace, EventKind::CpuOp, "child", 10, 50));
    events.push_back(makeEvent(trace, EventKind::CpuOp, "outer", 0, 100));
    trace.finalize();

    const Lane& lane = trace.lanes[thread.value];
    const char* names[] = { "outer", "child", "grandchild", "sibling", "next" };
    const std::uint16_t depths[] = { 0, 1, 2, 1, 0 };
    const TimeNs prefix[] = { 100, 100, 100, 100, 110 };
    ASSERT_EQ(lane.events.size(), 5u);
    for (std::size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(trace.name(lane.events[i]), names[i]) << i;
        EXPECT_EQ(lane.events[i].depth, depths[i]) << i;
        EXPECT_EQ(lane.maxEndPrefix[i], prefix[i]) << i;
    }
}

struct RangeCase {
    TimeNs t0;
    TimeNs t1;
    std::vector<std::string> overlapping; // exact set of events overlapping [t0, t1)
};

class LaneVisibleRange : public ::testing::TestWithParam<RangeCase> { };

TEST_P(LaneVisibleRange, HoldsEveryOverlappingEvent)
{
    Trace trace;
    const ProcessIndex p = trace.addProcess({ .pid = 1 });
    const DeviceIndex d = trace.device(p, 0);
    const LaneIndex l = trace.streamLane(d, 7);
    auto& events = trace.lanes[l.value].events;
    events.push_back(makeEvent(trace, EventKind::Kernel, "a", 0, 10));
    events.push_back(makeEvent(trace, EventKind::Kernel, "b", 10, 20));
    events.push_back(makeEvent(trace, EventKind::Kernel, "zero", 25, 25));
    events.push_back(makeEvent(trace, EventKind::Kernel, "long", 30, 100));
    events.push_back(makeEvent(trace, EventKind::Kernel, "shadowed", 40, 45));
    events.push_back(makeEvent(trace, EventKind::Kernel, "late", 120, 130));
    trace.finalize();

    const RangeCase& c = GetParam();
    const Lane& lane = trace.lanes[l.value];
    const auto [first, last] = lane.visibleRange(c.t0, c.t1);
    std::vector<std::string> found;
    for (std::size_t i = 0; i < lane.events.size(); ++i) {
        const Event& e = lane.events[i];
        const bool overlaps = e.start == e.end ? (e.start >= c.t0 && e.start < c.t1) : (e.start < c.t1 && e.end > c.t0);
        if (overlaps) {
            EXPECT_GE(i, first) << trace.name(e);
            EXPECT_LT(i, last) << trace.name(e);
            found.emplace_back(trace.name(e));
        }
    }
    EXPECT_EQ(found, c.overlapping);
}

INSTANTIATE_TEST_SUITE_P(Cases, LaneVisibleRange,
                         ::testing::Values(RangeCase { 0, 5, { "a" } }, RangeCase { 10, 11, { "b" } },
                                           RangeCase { 9, 11, { "a", "b" } }, RangeCase { 20, 25, {} },
                                           RangeCase { 25, 26, { "zero" } }, RangeCase { 50, 60, { "long" } },
                                           RangeCase { 41, 42, { "long", "shadowed" } },
                                           RangeCase { 100, 120, {} }, RangeCase { 0, 1000,
                                                                                    { "a", "b", "zero", "long",
                                                                                      "shadowed", "late" } }));

TEST(Trace, CorrelationLinksLaunchAndGpuOpsWithinAProcess)
{
    Trace trace;
    const ProcessIndex p1 = trace.addProcess({ .pid = 1 });
    const ProcessIndex p2 = trace.addProcess({ .pid = 2 });
    const LaneIndex t1 = trace.threadLane(p1, 100);
    const LaneIndex t2 = trace.threadLane(p2, 200);
    const LaneIndex s1 = trace.streamLane(trace.device(p1, 0), 7);
    const LaneIndex s2 = trace.streamLane(trace.device(p2, 0), 7);
    trace.lanes[t1.value].events.push_back(makeEvent(trace, EventKind::RuntimeApi, "cudaLaunchKernel", 0, 5, 42));
    trace.lanes[t1.value].events.push_back(makeEvent(trace, EventKind::CpuOp, "aten::mm", 0, 10, 42));
    trace.lanes[t2.value].events.push_back(makeEvent(trace, EventKind::RuntimeApi, "cudaLaunchKernel", 3, 4, 42));
    trace.lanes[s1.value].events.push_back(makeEvent(trace, EventKind::Kernel, "k1", 20, 30, 42));
    trace.lanes[s2.value].events.push_back(makeEvent(trace, EventKind::Kernel, "k2", 40, 50, 42));
    trace.lanes[s2.value].events.push_back(makeEvent(trace, EventKind::Kernel, "unlinked", 60, 70));
    trace.finalize();

    const auto launch1 = trace.launchOf({ s1, 0 });
    ASSERT_TRUE(launch1.has_value());
    EXPECT_EQ(launch1->lane, t1);
    EXPECT_EQ(trace.name(trace.event(*launch1)), "cudaLaunchKernel"); // not the cpu_op with the same id
    const auto launch2 = trace.launchOf({ s2, 0 });
    ASSERT_TRUE(launch2.has_value());
    EXPECT_EQ(launch2->lane, t2);
    EXPECT_FALSE(trace.launchOf({ s2, 1 }).has_value());
    const auto ops = trace.gpuOpsOf(*launch1);
    ASSERT_EQ(ops.size(), 1u);
    EXPECT_EQ(trace.name(trace.event(ops[0])), "k1");
}

TEST(Trace, AppendRemapsProcessesDevicesStringsAndArgs)
{
    Trace a;
    const ProcessIndex pa = a.addProcess({ .pid = 1, .rank = 0 });
    const LaneIndex la = a.streamLane(a.device(pa, 0), 7);
    a.lanes[la.value].events.push_back(makeEvent(a, EventKind::Kernel, "shared", 0, 10, 1));
    Trace b;
    const ProcessIndex pb = b.addProcess({ .pid = 2, .rank = 1 });
    const LaneIndex lb = b.streamLane(b.device(pb, 0), 7);
    Event e = makeEvent(b, EventKind::Kernel, "only-b", 5, 25, 1);
    e.args = b.addArgs(R"({"grid":[1,1,1]})");
    b.lanes[lb.value].events.push_back(e);
    const LaneIndex tb = b.threadLane(pb, 9);
    b.lanes[tb.value].events.push_back(makeEvent(b, EventKind::RuntimeApi, "cudaLaunchKernel", 1, 2, 1));

    a.append(std::move(b));
    a.finalize();
    ASSERT_EQ(a.processes.size(), 2u);
    ASSERT_EQ(a.devices.size(), 2u);
    EXPECT_EQ(a.devices[1].process.value, 1u);
    EXPECT_EQ(a.processes[1].rank, 1);
    const Lane& moved = a.lanes[1];
    EXPECT_EQ(moved.device.value, 1u);
    EXPECT_EQ(a.name(moved.events[0]), "only-b");
    EXPECT_EQ(a.argsJson(moved.events[0]), R"({"grid":[1,1,1]})");
    EXPECT_EQ(a.streamLane(DeviceIndex { 1 }, 7), LaneIndex { 1 }); // index rebuilt for appended lanes
    // Correlation 1 exists in both processes: each kernel finds its own process's launch.
    EXPECT_FALSE(a.launchOf({ la, 0 }).has_value());
    const auto launch = a.launchOf({ LaneIndex { 1 }, 0 });
    ASSERT_TRUE(launch.has_value());
    EXPECT_EQ(a.lanes[launch->lane.value].process.value, 1u);
    const auto span = a.timeSpan();
    ASSERT_TRUE(span.has_value());
    EXPECT_EQ(span->first, 0);
    EXPECT_EQ(span->second, 25);
    EXPECT_EQ(a.eventCount(), 3u);
}

TEST(EventKinds, CopyKindFromKinetoMemcpyNames)
{
    EXPECT_EQ(copyKindFromMemcpyName("Memcpy HtoD (Pageable -> Device)"), CopyKind::HtoD);
    EXPECT_EQ(copyKindFromMemcpyName("Memcpy DtoH (Device -> Pinned)"), CopyKind::DtoH);
    EXPECT_EQ(copyKindFromMemcpyName("Memcpy DtoD (Device -> Device)"), CopyKind::DtoD);
    EXPECT_EQ(copyKindFromMemcpyName("Memcpy PtoP (Device -> Device)"), CopyKind::PtoP);
    EXPECT_EQ(copyKindFromMemcpyName("MemcpyHtoDAsync"), CopyKind::Unknown);
    for (int k = 0; k < kEventKindCount; ++k) {
        const auto kind = static_cast<EventKind>(k);
        EXPECT_EQ(eventKindFromName(eventKindName(kind)), kind);
    }
}

struct DurationCase {
    TimeNs ns;
    const char* text;
};
class FormatDuration : public ::testing::TestWithParam<DurationCase> { };
TEST_P(FormatDuration, PicksUnitAndPrecision)
{
    EXPECT_EQ(formatDuration(GetParam().ns, true), GetParam().text);
}
INSTANTIATE_TEST_SUITE_P(Cases, FormatDuration,
                         ::testing::Values(DurationCase { 0, "0 ns" }, DurationCase { 999, "999 ns" },
                                           DurationCase { 1000, "1.000 us" }, DurationCase { 27000, "27.00 us" },
                                           DurationCase { 187948000, "187.9 ms" },
                                           DurationCase { 1234567890, "1.235 s" },
                                           DurationCase { -5000000, "-5.000 ms" }));

} // namespace
} // namespace gapscope
