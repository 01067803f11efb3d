// SPDX-License-Identifier: MIT
// What Fit Whole Trace shows: the events, and the CPU samples and counter points that a profiler took before the
// first event or after the last one.
#include "core/io/nsys/nsys_sqlite_reader.h"
#include "core/model/view_extent.h"
#include "tests/make_event.h"

#include <gtest/gtest.h>

using namespace gapscope;

namespace {

TEST(DrawnExtent, SaxpysSamplesBeforeItsFirstEventWidenTheExtent)
{
    auto loaded = NsysSqliteReader::readFile(
        std::string(GAPSCOPE_TEST_DATA_DIR) + "/nsys/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite");
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    const Trace& trace = loaded.value();
    // By SQL on the export: the first event is the NVTX range at 65,117,824 (SELECT min(start) FROM NVTX_EVENTS
    // WHERE end IS NOT NULL; the MPI mark at 64,186,762 before it is an instant that is not read), the last end
    // the NVTX range ending at 2,088,944,716 (SELECT max(end) FROM NVTX_EVENTS, above the runtime calls'
    // 2,088,020,847). The first sample is 40.6 ms earlier: SELECT min(start) FROM COMPOSITE_EVENTS gives
    // 24,479,746; the last, max(start), 2,087,144,630, is inside the events' span.
    ASSERT_TRUE(trace.timeSpan());
    EXPECT_EQ(*trace.timeSpan(), (std::pair<TimeNs, TimeNs> { 65'117'824, 2'088'944'716 }));
    ASSERT_TRUE(drawnExtent(trace));
    EXPECT_EQ(*drawnExtent(trace), (std::pair<TimeNs, TimeNs> { 24'479'746, 2'088'944'716 }));
}

// A kernel [1000, 2000) on GPU 0 of pid 10.
TraceBuilder oneKernel()
{
    TraceBuilder builder;
    const ProcessIndex p = builder.addProcess({ .pid = 10 });
    const LaneIndex stream = builder.streamLane(builder.device(p, 0), 7);
    builder.lanes()[stream.value].events = { test::makeEvent(builder, EventKind::Kernel, "k", 1000, 2000) };
    return builder;
}

TEST(DrawnExtent, CounterPointsAndSamplesOnEitherSideCountAsOneNanosecondEach)
{
    EXPECT_EQ(*drawnExtent(oneKernel().finish()), (std::pair<TimeNs, TimeNs> { 1000, 2000 }));
    TraceBuilder builder = oneKernel();
    const ProcessIndex p { 0 };
    CounterTrack& memory
        = builder.counters().tracks()[builder.counters().track(kMemoryAllocatedTrack, p, DeviceIndex { 0 })];
    memory.points = { { 2500, 64.0 }, { 1500, 32.0 } }; // out of order: finish() sorts them
    builder.samples().threads()[builder.samples().thread(p, 42)].samples = { { .time = 700 } };
    const Trace trace = std::move(builder).finish();
    EXPECT_EQ(*drawnExtent(trace), (std::pair<TimeNs, TimeNs> { 700, 2501 }));
    EXPECT_EQ(*trace.timeSpan(), (std::pair<TimeNs, TimeNs> { 1000, 2000 }));
    EXPECT_FALSE(drawnExtent(TraceBuilder().finish()));
}

} // namespace
