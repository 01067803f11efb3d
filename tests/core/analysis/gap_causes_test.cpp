// SPDX-License-Identifier: MIT
// One hand-built timeline per gap cause of docs/definitions.md, each with the gap, the cause and the evidence
// worked out by hand from the timeline in the comment.
#include "core/analysis/analysis.h"
#include "core/analysis/gap_finder.h"
#include "core/analysis/host_scan.h"
#include "core/analysis/name_classes.h"
#include "tests/core/hand_trace.h"

#include <gtest/gtest.h>

#include <optional>

#include <functional>

namespace gapscope {
namespace {

using test::findEvent;
using test::HandTrace;
using test::us;

struct CauseCase {
    const char* name;
    std::function<Trace()> build;
    TimeNs gapStart;
    TimeNs gapEnd;
    GapCause cause;
    const char* closingOp; // event names; "" for none
    const char* launch;
    std::size_t launchNth; // which event of that name
    const char* syncCall;
    const char* hostRange;
    const char* summaryPart;
};

std::optional<EventRef> named(const Trace& trace, const char* name, std::size_t nth = 0)
{
    if (!*name)
        return std::nullopt;
    return test::findEvent(trace, name, nth);
}

class GapCauseTest : public testing::TestWithParam<CauseCase> { };

TEST_P(GapCauseTest, ClassifiesTheDeviceGapWithItsEvidence)
{
    const CauseCase& c = GetParam();
    const Trace trace = c.build();
    AnalysisOptions options;
    options.window.kind = WindowKind::Explicit;
    options.window.explicitStart = us(0);
    options.window.explicitEnd = us(200);
    const AnalysisResult result = analyze(trace, options);
    std::optional<Gap> found;
    for (const Gap& gap : result.gaps) {
        if (!gap.stream && gap.start == c.gapStart)
            found = gap;
    }
    ASSERT_TRUE(found.has_value()) << "no device gap starting at " << c.gapStart;
    const Gap& gap = *found;
    EXPECT_EQ(gap.end, c.gapEnd);
    EXPECT_EQ(gapCauseName(gap.cause), gapCauseName(c.cause));
    const GapEvidence evidence = gapEvidence(trace, gap, options.launchThresholdNs);
    EXPECT_EQ(gap.closingOp, named(trace, c.closingOp));
    EXPECT_EQ(evidence.closingOp, named(trace, c.closingOp));
    EXPECT_EQ(evidence.launch, named(trace, c.launch, c.launchNth));
    EXPECT_EQ(evidence.syncCall, named(trace, c.syncCall));
    EXPECT_EQ(evidence.hostRange, named(trace, c.hostRange));
    EXPECT_NE(evidence.summary.find(c.summaryPart), std::string::npos) << evidence.summary;
    // The device's idle time is split among causes without loss.
    ASSERT_EQ(result.devices.size(), 1u);
    TimeNs byCause = 0;
    for (TimeNs t : result.devices[0].idleByCause)
        byCause += t;
    EXPECT_EQ(byCause, result.devices[0].idleNs);
    EXPECT_GE(result.devices[0].idleByCause[static_cast<std::size_t>(c.cause)], gap.duration());
}

INSTANTIATE_TEST_SUITE_P(Causes, GapCauseTest,
    testing::Values(
        // Thread 1 launches A, then waits in cudaDeviceSynchronize [3, 12) while A runs [5, 10) and past its
        // end, then launches B, which runs at 20. The host drained the GPU: gap [10, 20) is `sync`, although
        // B's launch (12) came after the gap began (the sync rule is evaluated first).
        CauseCase { "sync",
            [] {
                return HandTrace()
                    .runtime(1, 0, 2, "cudaLaunchKernel", 1)
                    .runtime(1, 3, 12, "cudaDeviceSynchronize")
                    .runtime(1, 12, 14, "cudaLaunchKernel", 2)
                    .kernel(7, 5, 10, "A", 1)
                    .kernel(7, 20, 25, "B", 2)
                    .build();
            },
            us(10), us(20), GapCause::Sync, "B", "cudaLaunchKernel", 1, "cudaDeviceSynchronize", "",
            "cudaDeviceSynchronize on thread 1 from -7.000 µs to +2.000 µs" },
        // The synchronous cudaMemcpy (driver name with ABI suffix) counts as synchronizing too.
        CauseCase { "syncDriverMemcpy",
            [] {
                return HandTrace()
                    .runtime(1, 0, 2, "cudaLaunchKernel", 1)
                    .driver(2, 8, 30, "cuMemcpyDtoH_v2")
                    .runtime(1, 15, 17, "cudaLaunchKernel", 2)
                    .kernel(7, 5, 10, "A", 1)
                    .kernel(7, 40, 45, "B", 2)
                    .build();
            },
            us(10), us(40), GapCause::Sync, "B", "cudaLaunchKernel", 1, "cuMemcpyDtoH_v2", "",
            "cuMemcpyDtoH_v2 on thread 2" },
        // A sync call that returned exactly when the gap began, and an async copy spanning the gap, are not
        // a host waiting for the device: B was launched at 60, inside the gap [10, 65), so the GPU waited
        // for the host, which was in load_batch [9, 60) for 50 of the gap's 55 µs. train_step covers the gap
        // too but is outer; tokenize [30, 40) holds the midpoint but covers only 10 µs.
        CauseCase { "host",
            [] {
                return HandTrace()
                    .cpuOp(1, 0, 70, "train_step")
                    .runtime(1, 0, 2, "cudaLaunchKernel", 1)
                    .runtime(1, 3, 10, "cudaStreamSynchronize")
                    .runtime(2, 4, 50, "cudaMemcpyAsync")
                    .cpuOp(1, 10, 60, "load_batch")
                    .cpuOp(1, 30, 40, "tokenize")
                    .runtime(1, 60, 62, "cudaLaunchKernel", 2)
                    .kernel(7, 5, 10, "A", 1)
                    .kernel(7, 65, 70, "B", 2)
                    .build();
            },
            us(10), us(65), GapCause::Host, "B", "cudaLaunchKernel", 1, "", "load_batch",
            "thread was in 'load_batch' from +0 ns to +50.00 µs" },
        // Both launches long before; B starts 5 µs after A ends: at most the 30 µs threshold.
        CauseCase { "launch",
            [] {
                return HandTrace()
                    .runtime(1, 0, 2, "cudaLaunchKernel", 1)
                    .runtime(1, 3, 5, "cudaLaunchKernel", 2)
                    .kernel(7, 10, 20, "A", 1)
                    .kernel(7, 25, 30, "B", 2)
                    .build();
            },
            us(20), us(25), GapCause::Launch, "B", "cudaLaunchKernel", 1, "", "", "5.000 µs <= 30.00 µs" },
        // Exactly the threshold is still `launch`.
        CauseCase { "launchAtThreshold",
            [] {
                return HandTrace()
                    .runtime(1, 0, 2, "cudaLaunchKernel", 1)
                    .runtime(1, 3, 5, "cudaLaunchKernel", 2)
                    .kernel(7, 10, 20, "A", 1)
                    .kernel(7, 50, 60, "B", 2)
                    .build();
            },
            us(20), us(50), GapCause::Launch, "B", "cudaLaunchKernel", 1, "", "", "30.00 µs <= 30.00 µs" },
        // Launched before the gap, and the gap (80 µs) is longer than the threshold: B waited on something.
        CauseCase { "dependency",
            [] {
                return HandTrace()
                    .runtime(1, 0, 2, "cudaLaunchKernel", 1)
                    .runtime(1, 3, 5, "cudaLaunchKernel", 2)
                    .kernel(7, 10, 20, "A", 1)
                    .kernel(7, 100, 110, "B", 2)
                    .build();
            },
            us(20), us(100), GapCause::Dependency, "B", "cudaLaunchKernel", 1, "", "",
            "80.00 µs > 30.00 µs launch threshold: the op waited on something the trace does not show" },
        // The same, with a cudaStreamWaitEvent enqueued just before B's launch: the summary names it.
        CauseCase { "dependencyOnAnEvent",
            [] {
                return HandTrace()
                    .runtime(1, 0, 2, "cudaLaunchKernel", 1)
                    .runtime(1, 3, 4, "cudaStreamWaitEvent")
                    .runtime(1, 5, 7, "cudaLaunchKernel", 2)
                    .kernel(7, 10, 20, "A", 1)
                    .kernel(7, 100, 110, "B", 2)
                    .build();
            },
            us(20), us(100), GapCause::Dependency, "B", "cudaLaunchKernel", 1, "", "",
            "the op waited on the event of cudaStreamWaitEvent on thread 1 issued 2.000 µs before the launch" },
        // A collective that starts late waited on the other ranks.
        CauseCase { "dependencyOnACollective",
            [] {
                return HandTrace()
                    .runtime(1, 0, 2, "cudaLaunchKernel", 1)
                    .runtime(1, 3, 5, "cudaLaunchKernel", 2)
                    .kernel(7, 10, 20, "A", 1)
                    .kernel(7, 100, 110, "ncclKernel_AllReduce_RING_LL_Sum_float", 2)
                    .build();
            },
            us(20), us(100), GapCause::Dependency, "ncclKernel_AllReduce_RING_LL_Sum_float", "cudaLaunchKernel", 1, "",
            "", "the op waited on the collective 'ncclKernel_AllReduce_RING_LL_Sum_float'" },
        // B has no correlation id: nothing links it to a launch.
        CauseCase { "unknownWithoutLaunch",
            [] {
                return HandTrace()
                    .runtime(1, 0, 2, "cudaLaunchKernel", 1)
                    .kernel(7, 10, 20, "A", 1)
                    .kernel(7, 100, 110, "B")
                    .build();
            },
            us(20), us(100), GapCause::Unknown, "B", "", 0, "", "", "'B' after the gap has no launch call" },
        // The explicit window runs to 200 µs; nothing runs after B: the trailing gap has no closing op.
        CauseCase { "unknownAfterLastOp",
            [] { return HandTrace().runtime(1, 0, 2, "cudaLaunchKernel", 1).kernel(7, 10, 20, "A", 1).build(); },
            us(20), us(200), GapCause::Unknown, "", "", 0, "", "", "no GPU activity after the gap" }),
    [](const auto& info) { return std::string(info.param.name); });

TEST(GapCauseTest, LeadingGapOfTheWindowIsClosedByTheFirstOp)
{
    // Window [0, 200): the device is idle until A at 10. A's launch began at 0, when the gap began: not
    // before it, so the GPU was waiting for the host: `host`.
    const Trace trace = HandTrace().runtime(1, 0, 2, "cudaLaunchKernel", 1).kernel(7, 10, 20, "A", 1).build();
    AnalysisOptions options;
    options.window = { WindowKind::Explicit, 0, us(0), us(200) };
    const AnalysisResult result = analyze(trace, options);
    ASSERT_FALSE(result.gaps.empty());
    EXPECT_EQ(result.gaps[0].start, 0);
    EXPECT_EQ(result.gaps[0].end, us(10));
    EXPECT_EQ(result.gaps[0].cause, GapCause::Host);
    EXPECT_EQ(result.gaps[0].closingOp, findEvent(trace, "A"));
}

TEST(GapCauseTest, StreamGapsAreListedPerStreamAfterDeviceGaps)
{
    // Stream 7: A [10, 20), C [60, 70); stream 8: B [30, 40). Window gpu = [10, 70).
    // Device gaps: [20, 30) closed by B, [40, 60) closed by C. Stream 7 gap: [20, 60) closed by C;
    // stream 8 gaps: [10, 30) and [40, 70), the last with no op after it on stream 8.
    const Trace trace = HandTrace()
                            .runtime(1, 0, 1, "cudaLaunchKernel", 1)
                            .runtime(1, 2, 3, "cudaLaunchKernel", 2)
                            .runtime(1, 4, 5, "cudaLaunchKernel", 3)
                            .kernel(7, 10, 20, "A", 1)
                            .kernel(8, 30, 40, "B", 2)
                            .kernel(7, 60, 70, "C", 3)
                            .build();
    const AnalysisResult result = analyze(trace, {});
    const LaneIndex s7 = test::streamLaneOf(trace, 0, 7);
    const LaneIndex s8 = test::streamLaneOf(trace, 0, 8);
    struct Expected {
        std::optional<LaneIndex> stream;
        TimeNs start, end;
        GapCause cause;
        std::optional<EventRef> closing;
    };
    const std::vector<Expected> expected = {
        { std::nullopt, us(20), us(30), GapCause::Launch, findEvent(trace, "B") },
        { std::nullopt, us(40), us(60), GapCause::Launch, findEvent(trace, "C") },
        { s7, us(20), us(60), GapCause::Dependency, findEvent(trace, "C") },
        { s8, us(10), us(30), GapCause::Launch, findEvent(trace, "B") },
        { s8, us(40), us(70), GapCause::Unknown, std::nullopt },
    };
    ASSERT_EQ(result.gaps.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(result.gaps[i].stream, expected[i].stream);
        EXPECT_EQ(result.gaps[i].start, expected[i].start);
        EXPECT_EQ(result.gaps[i].end, expected[i].end);
        EXPECT_EQ(result.gaps[i].cause, expected[i].cause);
        EXPECT_EQ(result.gaps[i].closingOp, expected[i].closing);
    }
    EXPECT_EQ(result.devices[0].gapCount, 2u);

    AnalysisOptions noStreams;
    noStreams.streamGaps = false;
    EXPECT_EQ(analyze(trace, noStreams).gaps.size(), 2u);
}

TEST(GapCauseTest, LaunchThresholdIsASetting)
{
    // The same 80 µs gap is `launch` under a 100 µs threshold.
    const Trace trace = HandTrace()
                            .runtime(1, 0, 2, "cudaLaunchKernel", 1)
                            .runtime(1, 3, 5, "cudaLaunchKernel", 2)
                            .kernel(7, 10, 20, "A", 1)
                            .kernel(7, 100, 110, "B", 2)
                            .build();
    AnalysisOptions options;
    options.launchThresholdNs = us(100);
    const AnalysisResult result = analyze(trace, options);
    ASSERT_EQ(result.devices.size(), 1u);
    EXPECT_EQ(result.devices[0].idleByCause[static_cast<std::size_t>(GapCause::Launch)], us(80));
}

TEST(GapCauseTest, LaunchIsTheEarliestCallWithTheOpsIdInSparseIdsToo)
{
    // Correlation 7 has two calls (the earlier one, cuLaunchKernel at 5, is the launch); 9 has none;
    // 5,000,000 makes the ids too sparse for a table, so the process's calls are looked up in a sorted list.
    const Trace trace = HandTrace()
                            .runtime(1, 10, 12, "cudaLaunchKernel", 7)
                            .driver(2, 5, 6, "cuLaunchKernel", 7)
                            .runtime(1, 20, 22, "cudaLaunchKernel", 5'000'000)
                            .kernel(7, 30, 40, "seven", 7)
                            .kernel(7, 50, 60, "nine", 9)
                            .kernel(7, 70, 80, "big", 5'000'000)
                            .kernel(7, 90, 95, "none")
                            .build();
    EXPECT_EQ(trace.launchOf(findEvent(trace, "seven")), findEvent(trace, "cuLaunchKernel"));
    EXPECT_EQ(trace.launchOf(findEvent(trace, "nine")), std::nullopt);
    EXPECT_EQ(trace.launchOf(findEvent(trace, "big")), findEvent(trace, "cudaLaunchKernel", 1));
    EXPECT_EQ(trace.launchOf(findEvent(trace, "none")), std::nullopt);
    // The analysis finds the same launches: [40, 50) before "nine" and [80, 90) before "none" have none
    // (unknown); [60, 70) before "big", launched at 20, is a launch gap (10 us <= 30 us).
    const AnalysisResult result = analyze(trace, {});
    ASSERT_EQ(result.gaps.size(), 6u); // 3 device gaps, then the one stream's: the same 3
    EXPECT_EQ(result.gaps[0].start, us(40));
    EXPECT_EQ(result.gaps[0].cause, GapCause::Unknown);
    EXPECT_EQ(result.gaps[1].start, us(60));
    EXPECT_EQ(result.gaps[1].cause, GapCause::Launch);
    EXPECT_EQ(result.gaps[2].start, us(80));
    EXPECT_EQ(result.gaps[2].cause, GapCause::Unknown);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(result.gaps[3 + i].start, result.gaps[i].start);
        EXPECT_EQ(result.gaps[3 + i].cause, result.gaps[i].cause);
    }
}

struct CallCase {
    const char* name;
    bool synchronizing;
};

class SynchronizingCallTest : public testing::TestWithParam<CallCase> { };

TEST_P(SynchronizingCallTest, KnowsWhichCallsBlockTheHost)
{
    EXPECT_EQ(isSynchronizingCall(GetParam().name), GetParam().synchronizing) << GetParam().name;
}

INSTANTIATE_TEST_SUITE_P(Calls, SynchronizingCallTest,
    testing::Values(CallCase { "cudaDeviceSynchronize", true }, CallCase { "cudaStreamSynchronize", true },
        CallCase { "cudaStreamSynchronize_ptsz", true }, CallCase { "cudaEventSynchronize", true },
        CallCase { "cudaMemcpy", true }, CallCase { "cudaMemset", true }, CallCase { "cuCtxSynchronize", true },
        CallCase { "cuStreamSynchronize", true }, CallCase { "cuMemcpyDtoH_v2", true },
        CallCase { "cuMemcpyHtoD_v2", true }, CallCase { "cudaMemcpyAsync", false },
        CallCase { "cudaMemsetAsync", false }, CallCase { "cuMemcpyDtoHAsync_v2", false },
        CallCase { "cuMemcpyDtoD_v2", false }, CallCase { "cudaStreamWaitEvent", false },
        CallCase { "cudaEventQuery", false }, CallCase { "cudaLaunchKernel", false }, CallCase { "", false }));

TEST(CommunicationKernelTest, MatchesNcclAndRcclInAnyCase)
{
    EXPECT_TRUE(isCommunicationKernel("ncclKernel_AllReduce_RING_LL_Sum_float"));
    EXPECT_TRUE(isCommunicationKernel("ncclDevKernel_AllGather_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"));
    EXPECT_TRUE(isCommunicationKernel("void NCCL_reduce<float>"));
    EXPECT_TRUE(isCommunicationKernel("rcclGenericKernel"));
    EXPECT_FALSE(isCommunicationKernel("volta_sgemm_128x64_nn"));
    EXPECT_FALSE(isCommunicationKernel("ncc"));
}

} // namespace
} // namespace gapscope
