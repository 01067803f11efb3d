// SPDX-License-Identifier: MIT
#include "core/model/time_format.h"
#include "core/model/trace_builder.h"
#include "tests/make_event.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

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
    TraceBuilder builder;
    const ProcessIndex p = builder.addProcess({ .pid = 10 });
    const LaneIndex thread = builder.threadLane(p, 11);
    EXPECT_EQ(builder.threadLane(p, 11), thread);
    auto& events = builder.lanes()[thread.value].events;
    // Added out of order: outer [0,100), child [10,50), grandchild [20,30), sibling [60,90), next [100,110).
    events.push_back(makeEvent(builder, EventKind::CpuOp, "sibling", 60, 90));
    events.push_back(makeEvent(builder, EventKind::CpuOp, "grandchild", 20, 30));
    events.push_back(makeEvent(builder, EventKind::CpuOp, "next", 100, 110));
    events.push_back(makeEvent(builder, EventKind::CpuOp, "child", 10, 50));
    events.push_back(makeEvent(builder, EventKind::CpuOp, "outer", 0, 100));
    Trace trace = std::move(builder).finish();

    const Lane& lane = trace.lanes()[thread.value];
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

TEST(Trace, FinishRecordsTheLargestEndOfEachBlockOf32EventsOnCpuLanes)
{
    TraceBuilder builder;
    const ProcessIndex p = builder.addProcess({ .pid = 10 });
    const LaneIndex thread = builder.threadLane(p, 11);
    const LaneIndex stream = builder.streamLane(builder.device(p, 0), 7);
    // 70 calls added last to first (finish() sorts them): call k is [100 k, 100 k + 10), except call 40, which
    // runs to 7,000 (past the starts of calls 41-69), and call 69, the last, which ends at 9,000.
    auto& calls = builder.lanes()[thread.value].events;
    for (int k = 69; k >= 0; --k) {
        const TimeNs end = k == 40 ? 7000 : k == 69 ? 9000 : 100 * k + 10;
        calls.push_back(makeEvent(builder, EventKind::RuntimeApi, "cudaLaunchKernel", 100 * k, end));
    }
    for (int k = 0; k < 40; ++k)
        builder.lanes()[stream.value].events.push_back(
            makeEvent(builder, EventKind::Kernel, "k", 100 * k, 100 * k + 50));
    const Trace trace = std::move(builder).finish();
    // Blocks [0, 32): call 31 ends at 3,110; [32, 64): call 40's 7,000 (call 63 ends at 6,310); [64, 70): call 69's
    // 9,000.
    EXPECT_EQ(trace.lanes()[thread.value].blockMaxEnd, (std::vector<TimeNs> { 3110, 7000, 9000 }));
    EXPECT_TRUE(trace.lanes()[stream.value].blockMaxEnd.empty());
}

struct RangeCase {
    TimeNs t0;
    TimeNs t1;
    std::vector<std::string> overlapping; // exact set of events overlapping [t0, t1)
};

class LaneVisibleRange : public ::testing::TestWithParam<RangeCase> { };

TEST_P(LaneVisibleRange, HoldsEveryOverlappingEvent)
{
    TraceBuilder builder;
    const ProcessIndex p = builder.addProcess({ .pid = 1 });
    const DeviceIndex d = builder.device(p, 0);
    const LaneIndex l = builder.streamLane(d, 7);
    auto& events = builder.lanes()[l.value].events;
    events.push_back(makeEvent(builder, EventKind::Kernel, "a", 0, 10));
    events.push_back(makeEvent(builder, EventKind::Kernel, "b", 10, 20));
    events.push_back(makeEvent(builder, EventKind::Kernel, "zero", 25, 25));
    events.push_back(makeEvent(builder, EventKind::Kernel, "long", 30, 100));
    events.push_back(makeEvent(builder, EventKind::Kernel, "shadowed", 40, 45));
    events.push_back(makeEvent(builder, EventKind::Kernel, "late", 120, 130));
    Trace trace = std::move(builder).finish();

    const RangeCase& c = GetParam();
    const Lane& lane = trace.lanes()[l.value];
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
    ::testing::Values(RangeCase { 0, 5, { "a" } }, RangeCase { 10, 11, { "b" } }, RangeCase { 9, 11, { "a", "b" } },
        RangeCase { 20, 25, {} }, RangeCase { 25, 26, { "zero" } }, RangeCase { 50, 60, { "long" } },
        RangeCase { 41, 42, { "long", "shadowed" } }, RangeCase { 100, 120, {} },
        RangeCase { 0, 1000, { "a", "b", "zero", "long", "shadowed", "late" } }));

TEST(Trace, CorrelationLinksLaunchAndGpuOpsWithinAProcess)
{
    TraceBuilder builder;
    const ProcessIndex p1 = builder.addProcess({ .pid = 1 });
    const ProcessIndex p2 = builder.addProcess({ .pid = 2 });
    const LaneIndex t1 = builder.threadLane(p1, 100);
    const LaneIndex t2 = builder.threadLane(p2, 200);
    const LaneIndex s1 = builder.streamLane(builder.device(p1, 0), 7);
    const LaneIndex s2 = builder.streamLane(builder.device(p2, 0), 7);
    builder.lanes()[t1.value].events.push_back(makeEvent(builder, EventKind::RuntimeApi, "cudaLaunchKernel", 0, 5, 42));
    builder.lanes()[t1.value].events.push_back(makeEvent(builder, EventKind::CpuOp, "aten::mm", 0, 10, 42));
    builder.lanes()[t2.value].events.push_back(makeEvent(builder, EventKind::RuntimeApi, "cudaLaunchKernel", 3, 4, 42));
    builder.lanes()[s1.value].events.push_back(makeEvent(builder, EventKind::Kernel, "k1", 20, 30, 42));
    builder.lanes()[s2.value].events.push_back(makeEvent(builder, EventKind::Kernel, "k2", 40, 50, 42));
    builder.lanes()[s2.value].events.push_back(makeEvent(builder, EventKind::Kernel, "unlinked", 60, 70));
    Trace trace = std::move(builder).finish();

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

/// The correlation index's three layouts, with answers worked out by hand: dense ids (a direct table, one
/// slot per id), the same ids in two processes (one table each), several events with one id (the slot keeps
/// the earliest start, the rest are listed), ids outside a table's range, and ids too sparse for a table.
TEST(Trace, CorrelationIndexAnswersForDenseDuplicatedAndSparseIds)
{
    TraceBuilder builder;
    Trace trace;
    const auto add = [&builder](LaneIndex lane, EventKind kind, const char* name, TimeNs start, TimeNs end,
                         std::uint32_t correlation) {
        builder.lanes()[lane.value].events.push_back(makeEvent(builder, kind, name, start, end, correlation));
    };
    const auto ref = [&trace](const char* name) -> std::optional<EventRef> {
        for (std::uint32_t l = 0; l < trace.lanes().size(); ++l) {
            for (std::uint32_t i = 0; i < trace.lanes()[l].events.size(); ++i) {
                if (trace.name(trace.lanes()[l].events[i]) == name)
                    return EventRef { LaneIndex { l }, i };
            }
        }
        return std::nullopt;
    };
    const auto launchName = [&](const char* op) -> std::string {
        const auto launch = trace.launchOf(*ref(op));
        return launch ? std::string(trace.name(trace.event(*launch))) : std::string("none");
    };
    const auto opNames = [&](const char* call) {
        std::vector<std::string> names;
        for (const EventRef& op : trace.gpuOpsOf(*ref(call)))
            names.emplace_back(trace.name(trace.event(op)));
        return names;
    };
    using Names = std::vector<std::string>;

    // Process A: ids 1..3 (dense). Id 3 has two calls; the one on the later lane starts first (5 < 6), so it
    // replaces the first one seen in the slot. Kernel id 5 has no call (past the table's last id).
    const ProcessIndex a = builder.addProcess({ .pid = 1 });
    const LaneIndex a10 = builder.threadLane(a, 10);
    const LaneIndex a11 = builder.threadLane(a, 11);
    const LaneIndex aStream = builder.streamLane(builder.device(a, 0), 7);
    add(a10, EventKind::RuntimeApi, "A call 1", 0, 2, 1);
    add(a10, EventKind::CpuOp, "A op with id 2", 2, 3, 2); // not an API call: never a launch
    add(a10, EventKind::RuntimeApi, "A call 2", 3, 5, 2);
    add(a10, EventKind::RuntimeApi, "A call 3 late", 6, 8, 3);
    add(a11, EventKind::DriverApi, "A call 3 early", 5, 6, 3);
    add(aStream, EventKind::Kernel, "A k1", 10, 20, 1);
    add(aStream, EventKind::Kernel, "A k2", 20, 30, 2);
    add(aStream, EventKind::Kernel, "A k3", 30, 40, 3);
    add(aStream, EventKind::Kernel, "A k5", 40, 50, 5);
    add(aStream, EventKind::Kernel, "A uncorrelated", 50, 60, 0);

    // Process B: the same ids 1 and 2 again, in its own table. Id 2 launched two ops (a graph): the one on
    // the later stream lane starts first (110 < 120).
    const ProcessIndex b = builder.addProcess({ .pid = 2 });
    const LaneIndex b20 = builder.threadLane(b, 20);
    const DeviceIndex bDevice = builder.device(b, 0);
    const LaneIndex bStream7 = builder.streamLane(bDevice, 7);
    const LaneIndex bStream8 = builder.streamLane(bDevice, 8);
    add(b20, EventKind::RuntimeApi, "B call 1", 100, 102, 1);
    add(b20, EventKind::RuntimeApi, "B call 2", 103, 105, 2);
    add(bStream7, EventKind::Kernel, "B k1", 106, 108, 1);
    add(bStream7, EventKind::Kernel, "B k2 second", 120, 130, 2);
    add(bStream8, EventKind::Kernel, "B k2 first", 110, 115, 2);

    // Process C: ids 100 and 101 (a table starting at 100); kernel id 99 lies below it.
    const ProcessIndex c = builder.addProcess({ .pid = 3 });
    const LaneIndex c30 = builder.threadLane(c, 30);
    const LaneIndex cStream = builder.streamLane(builder.device(c, 0), 7);
    add(c30, EventKind::RuntimeApi, "C call 100", 0, 1, 100);
    add(c30, EventKind::RuntimeApi, "C call 101", 2, 3, 101);
    add(cStream, EventKind::Kernel, "C k99", 5, 6, 99);
    add(cStream, EventKind::Kernel, "C k101", 7, 8, 101);

    // Process D: 3 calls with ids spread over 3e9 (a table would need 3e9 slots): the sorted list.
    const ProcessIndex d = builder.addProcess({ .pid = 4 });
    const LaneIndex d40 = builder.threadLane(d, 40);
    const LaneIndex dStream = builder.streamLane(builder.device(d, 0), 7);
    add(d40, EventKind::RuntimeApi, "D call 7", 0, 1, 7);
    add(d40, EventKind::RuntimeApi, "D call 3e9", 2, 3, 3'000'000'000u);
    add(d40, EventKind::RuntimeApi, "D call 1e9", 4, 5, 1'000'000'000u);
    add(d40, EventKind::RuntimeApi, "D call 1e9 again", 6, 7, 1'000'000'000u);
    add(dStream, EventKind::Kernel, "D k7", 10, 11, 7);
    add(dStream, EventKind::Kernel, "D k1e9", 12, 13, 1'000'000'000u);
    add(dStream, EventKind::Kernel, "D k3e9", 14, 15, 3'000'000'000u);
    add(dStream, EventKind::Kernel, "D k8", 16, 17, 8);
    add(dStream, EventKind::Kernel, "D k1e9+1", 18, 19, 1'000'000'001u);

    trace = std::move(builder).finish();
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 1) // reopened and finished again: the same index
            trace = TraceBuilder(std::move(trace)).finish();
        EXPECT_EQ(launchName("A k1"), "A call 1");
        EXPECT_EQ(launchName("A k2"), "A call 2");
        EXPECT_EQ(launchName("A k3"), "A call 3 early");
        EXPECT_EQ(launchName("A k5"), "none");
        EXPECT_EQ(launchName("A uncorrelated"), "none");
        EXPECT_EQ(opNames("A call 2"), Names { "A k2" });
        EXPECT_EQ(opNames("A call 3 late"), Names { "A k3" });
        EXPECT_EQ(opNames("A op with id 2"), Names { "A k2" }); // any host event's id finds its GPU ops

        EXPECT_EQ(launchName("B k1"), "B call 1");
        EXPECT_EQ(launchName("B k2 first"), "B call 2");
        EXPECT_EQ(launchName("B k2 second"), "B call 2");
        EXPECT_EQ(opNames("B call 2"), (Names { "B k2 first", "B k2 second" }));
        EXPECT_EQ(opNames("B call 1"), Names { "B k1" });

        EXPECT_EQ(launchName("C k99"), "none");
        EXPECT_EQ(launchName("C k101"), "C call 101");
        EXPECT_EQ(opNames("C call 100"), Names {});

        EXPECT_EQ(launchName("D k7"), "D call 7");
        EXPECT_EQ(launchName("D k1e9"), "D call 1e9");
        EXPECT_EQ(launchName("D k3e9"), "D call 3e9");
        EXPECT_EQ(launchName("D k8"), "none");
        EXPECT_EQ(launchName("D k1e9+1"), "none");
        EXPECT_EQ(opNames("D call 1e9 again"), Names { "D k1e9" });
    }
}

TEST(Trace, AppendRemapsProcessesDevicesStringsAndArgs)
{
    TraceBuilder aBuilder;
    const ProcessIndex pa = aBuilder.addProcess({ .pid = 1, .rank = 0 });
    const LaneIndex la = aBuilder.streamLane(aBuilder.device(pa, 0), 7);
    aBuilder.lanes()[la.value].events.push_back(makeEvent(aBuilder, EventKind::Kernel, "shared", 0, 10, 1));
    TraceBuilder b;
    const ProcessIndex pb = b.addProcess({ .pid = 2, .rank = 1 });
    const LaneIndex lb = b.streamLane(b.device(pb, 0), 7);
    Event e = makeEvent(b, EventKind::Kernel, "only-b", 5, 25, 1);
    e.args = b.addArgs(R"({"grid":[1,1,1]})");
    b.lanes()[lb.value].events.push_back(e);
    const LaneIndex tb = b.threadLane(pb, 9);
    b.lanes()[tb.value].events.push_back(makeEvent(b, EventKind::RuntimeApi, "cudaLaunchKernel", 1, 2, 1));

    aBuilder.append(std::move(b));
    EXPECT_EQ(aBuilder.streamLane(DeviceIndex { 1 }, 7), LaneIndex { 1 }); // index rebuilt for appended lanes
    Trace a = std::move(aBuilder).finish();
    ASSERT_EQ(a.processes().size(), 2u);
    ASSERT_EQ(a.devices().size(), 2u);
    EXPECT_EQ(a.devices()[1].process.value, 1u);
    EXPECT_EQ(a.processes()[1].rank, 1);
    const Lane& moved = a.lanes()[1];
    EXPECT_EQ(moved.device.value, 1u);
    EXPECT_EQ(a.name(moved.events[0]), "only-b");
    EXPECT_EQ(a.argsJson(moved.events[0]), R"({"grid":[1,1,1]})");
    // Correlation 1 exists in both processes: each kernel finds its own process's launch.
    EXPECT_FALSE(a.launchOf({ la, 0 }).has_value());
    const auto launch = a.launchOf({ LaneIndex { 1 }, 0 });
    ASSERT_TRUE(launch.has_value());
    EXPECT_EQ(a.lanes()[launch->lane.value].process.value, 1u);
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
    ::testing::Values(DurationCase { 0, "0 ns" }, DurationCase { 999, "999 ns" }, DurationCase { 1000, "1.000 us" },
        DurationCase { 27000, "27.00 us" }, DurationCase { 187948000, "187.9 ms" },
        DurationCase { 1234567890, "1.235 s" }, DurationCase { -5000000, "-5.000 ms" }));

} // namespace
} // namespace gapscope

namespace gapscope {
namespace {

TEST(ImportWarningTest, SaysTheByteOrThePlace)
{
    EXPECT_EQ((ImportWarning { "t.json", 219, "the file ends early" }).toString(),
        "t.json: at byte 219: the file ends early");
    EXPECT_EQ((ImportWarning { "x.sqlite", 0, "table StringIds is missing", "in the SQLite database" }).toString(),
        "x.sqlite: in the SQLite database: table StringIds is missing");
}

} // namespace
} // namespace gapscope
