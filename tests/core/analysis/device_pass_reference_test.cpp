// SPDX-License-Identifier: MIT
// The one-pass device measure (device_pass.cpp), on one thread and split in time slices joined at cuts,
// against a plain reference written straight from docs/definitions.md with IntervalSet: busy, exposed time, every
// device gap and stream gap with its closing op and cause, and idle time by cause. Random traces (several streams of
// kernels, NCCL kernels, memcpys, memsets, zero-length ops and GPU-side waits, launch calls on two threads,
// ops without a launch, synchronizing calls, ProfilerStep ranges), every window kind, both activity sets.
#include "core/analysis/analysis.h"
#include "tests/make_event.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <set>

namespace gapscope {
namespace {

struct Generated {
    Trace trace;
    std::vector<EventRef> gpuOps;
};

Generated generate(std::uint32_t seed)
{
    Generated out;
    TraceBuilder trace;
    std::mt19937_64 random(seed);
    const auto between = [&](TimeNs lo, TimeNs hi) { return std::uniform_int_distribution<TimeNs>(lo, hi)(random); };
    Process process;
    process.pid = 7;
    const ProcessIndex p = trace.addProcess(process);
    const DeviceIndex device = trace.device(p, 0);
    // Every fifth trace has more streams than the device pass merges head by head (FewRunsMerge::kMaxRuns
    // beside the busiest): those go through HeapMerge.
    const int streams = static_cast<int>(seed % 5 == 0 ? between(10, 14) : between(1, 5));
    std::vector<LaneIndex> lanes;
    for (int s = 0; s < streams; ++s)
        lanes.push_back(trace.streamLane(device, 7 + s));
    const LaneIndex threads[2] = { trace.threadLane(p, 100), trace.threadLane(p, 101) };

    // Distinct starts across all GPU ops, so that the op that ends a gap is one event.
    std::set<TimeNs> starts;
    std::uint32_t correlation = 1;
    const int ops = static_cast<int>(between(50, 1500));
    // Every third trace has a busiest stream of compute kernels only, which the device pass takes without
    // asking each event what it is (LaneSummary::holdsOnlyComputeKernels()).
    const bool computeOnlyFirst = seed % 3 == 0;
    for (int i = 0; i < ops; ++i) {
        const int s = between(0, 9) < 6 ? 0 : static_cast<int>(between(0, streams - 1));
        TimeNs start = between(0, 2'000'000);
        while (!starts.insert(start).second)
            ++start;
        const TimeNs kindRoll = computeOnlyFirst && s == 0 ? 99 : between(0, 99);
        EventKind kind = EventKind::Kernel;
        std::string name = "gemm";
        if (kindRoll < 10) {
            name = "ncclDevKernel_AllReduce";
        } else if (kindRoll < 25) {
            kind = EventKind::Memcpy;
            name = "Memcpy HtoD (Pageable -> Device)";
        } else if (kindRoll < 35) {
            kind = EventKind::Memset;
            name = "Memset (Device)";
        } else if (kindRoll < 40) {
            kind = EventKind::Sync;
            name = "Stream Sync";
        }
        const TimeNs duration = between(0, 9) == 0 ? 0 : between(1, between(0, 3) == 0 ? 40'000 : 4'000);
        Event op = test::makeEvent(trace, kind, name, start, start + duration);
        if (between(0, 9) != 0) {
            op.correlation = correlation++;
            const LaneIndex thread = threads[between(0, 1)];
            // The launch came before the op, now and then long before (a queue), or, for a host-bound gap,
            // just before.
            const TimeNs launchStart = start - (between(0, 3) == 0 ? between(1'000, 100'000) : between(100, 5'000));
            trace.lanes()[thread.value].events.push_back(test::makeEvent(trace, EventKind::RuntimeApi,
                "cudaLaunchKernel", launchStart, launchStart + between(50, 2'000), op.correlation));
        }
        trace.lanes()[lanes[static_cast<std::size_t>(s)].value].events.push_back(op);
    }
    // A few host syncs, and steps on the first thread.
    for (int k = 0; k < 4; ++k) {
        const TimeNs t = between(0, 2'000'000);
        trace.lanes()[threads[1].value].events.push_back(
            test::makeEvent(trace, EventKind::RuntimeApi, "cudaStreamSynchronize", t, t + between(1'000, 60'000)));
    }
    for (int k = 0; k < 5; ++k) {
        const TimeNs t = 100'000 + k * 380'000;
        trace.lanes()[threads[0].value].events.push_back(test::makeEvent(
            trace, EventKind::UserAnnotation, "ProfilerStep#" + std::to_string(k), t, t + between(100'000, 300'000)));
    }
    out.trace = std::move(trace).finish();
    for (LaneIndex lane : lanes) {
        for (std::uint32_t i = 0; i < out.trace.lanes()[lane.value].events.size(); ++i)
            out.gpuOps.push_back({ lane, i });
    }
    return out;
}

struct Expected {
    TimeNs busy = 0;
    ExposedTime exposed;
    std::vector<Gap> gaps;
    std::array<TimeNs, kGapCauseCount> idleByCause {};
};

/// docs/definitions.md, read literally, for the device or (`stream`) one of its streams.
Expected reference(const Generated& g, const Window& window, ActivitySet set, TimeNs threshold,
    std::optional<LaneIndex> stream = std::nullopt)
{
    const Trace& trace = g.trace;
    std::vector<Interval> compute;
    std::vector<Interval> communication;
    std::vector<Interval> memcpy;
    std::vector<Interval> activity;
    std::vector<EventRef> counted; // ops with a length in the activity set
    for (EventRef ref : g.gpuOps) {
        const Event& e = trace.event(ref);
        if (e.end <= e.start || !isGpuActivity(e.kind) || (stream && ref.lane != *stream))
            continue;
        const bool nccl = e.kind == EventKind::Kernel && isCommunicationKernel(trace.name(e));
        (e.kind == EventKind::Memcpy ? memcpy : nccl ? communication : compute).push_back({ e.start, e.end });
        if (set == ActivitySet::All || e.kind == EventKind::Kernel) {
            activity.push_back({ e.start, e.end });
            counted.push_back(ref);
        }
    }
    const IntervalSet& w = window.ranges;
    const IntervalSet c = IntervalSet::unionOf(compute);
    const IntervalSet cm = c.unite(IntervalSet::unionOf(communication));
    const IntervalSet all = cm.unite(IntervalSet::unionOf(memcpy));
    Expected out;
    out.busy = IntervalSet::unionOf(activity).intersect(w).totalLength();
    out.exposed.compute = c.intersect(w).totalLength();
    out.exposed.communication = cm.intersect(w).totalLength() - out.exposed.compute;
    out.exposed.memcpy = all.intersect(w).totalLength() - cm.intersect(w).totalLength();
    out.exposed.idle = w.totalLength() - all.intersect(w).totalLength();

    std::vector<Interval> syncCalls;
    for (const Lane& lane : trace.lanes()) {
        for (const Event& e : lane.events) {
            if (lane.kind == LaneKind::CpuThread && isSynchronizingCall(trace.name(e)))
                syncCalls.push_back({ e.start, e.end });
        }
    }
    const IntervalSet busy = IntervalSet::unionOf(activity);
    const IntervalSet idle = w.subtract(busy);
    for (const Interval& gapRange : idle.intervals()) {
        Gap gap;
        gap.stream = stream;
        gap.start = gapRange.start;
        gap.end = gapRange.end;
        const Event* first = nullptr;
        for (EventRef ref : counted) {
            const Event& e = trace.event(ref);
            if (e.start >= gap.end && (!first || e.start < first->start)) {
                first = &e;
                gap.closingOp = ref;
            }
        }
        const auto launch = gap.closingOp ? trace.launchOf(*gap.closingOp) : std::nullopt;
        if (!launch)
            gap.cause = GapCause::Unknown;
        else if (std::any_of(syncCalls.begin(), syncCalls.end(),
                     [&](const Interval& s) { return s.start < gap.start && s.end > gap.start; }))
            gap.cause = GapCause::Sync;
        else if (trace.event(*launch).start >= gap.start)
            gap.cause = GapCause::Host;
        else
            gap.cause = gap.duration() <= threshold ? GapCause::Launch : GapCause::Dependency;
        out.idleByCause[static_cast<std::size_t>(gap.cause)] += gap.duration();
        out.gaps.push_back(gap);
    }
    return out;
}

struct Case {
    WindowKind window;
    ActivitySet set;
    std::size_t parallelFrom;
    unsigned threads = 0; // 8: 16 slices, many of them short or without a span
};

class DevicePassReference : public ::testing::TestWithParam<Case> { };

TEST_P(DevicePassReference, MatchesTheDefinitionsOnRandomTraces)
{
    const Case c = GetParam();
    for (std::uint32_t seed = 1; seed <= 40; ++seed) {
        const Generated g = generate(seed);
        AnalysisOptions options;
        options.window.kind = c.window;
        options.window.explicitStart = 300'000;
        options.window.explicitEnd = 1'700'000;
        options.window.warmupSteps = 1;
        options.activity = c.set;
        options.launchThresholdNs = 2'000;
        options.streamGaps = true;
        options.parallelFromEvents = c.parallelFrom;
        options.threads = c.threads;
        const AnalysisResult result = analyze(g.trace, options);
        ASSERT_EQ(result.devices.size(), 1u);
        const DeviceFigures& d = result.devices[0];
        const Expected expected = reference(g, result.windows[0], c.set, options.launchThresholdNs);
        SCOPED_TRACE("seed " + std::to_string(seed));
        EXPECT_EQ(d.busyNs, expected.busy);
        EXPECT_EQ(d.exposed.compute, expected.exposed.compute);
        EXPECT_EQ(d.exposed.communication, expected.exposed.communication);
        EXPECT_EQ(d.exposed.memcpy, expected.exposed.memcpy);
        EXPECT_EQ(d.exposed.idle, expected.exposed.idle);
        EXPECT_EQ(d.idleByCause, expected.idleByCause);
        EXPECT_EQ(d.gapCount, expected.gaps.size());
        // Then each stream that has activity, in lane order.
        std::vector<Gap> expectedGaps = expected.gaps;
        for (const Lane& lane : g.trace.lanes()) {
            const auto index = static_cast<std::uint32_t>(&lane - g.trace.lanes().data());
            if (lane.kind != LaneKind::GpuStream
                || std::none_of(lane.events.begin(), lane.events.end(), [&](const Event& e) {
                       return e.end > e.start
                           && (c.set == ActivitySet::All ? isGpuActivity(e.kind) : e.kind == EventKind::Kernel);
                   }))
                continue;
            const Expected streamExpected
                = reference(g, result.windows[0], c.set, options.launchThresholdNs, LaneIndex { index });
            expectedGaps.insert(expectedGaps.end(), streamExpected.gaps.begin(), streamExpected.gaps.end());
        }
        ASSERT_EQ(result.gaps.size(), expectedGaps.size());
        for (std::size_t i = 0; i < expectedGaps.size(); ++i) {
            const Gap& want = expectedGaps[i];
            SCOPED_TRACE("gap " + std::to_string(i));
            EXPECT_EQ(result.gaps[i].stream, want.stream);
            EXPECT_EQ(result.gaps[i].start, want.start);
            EXPECT_EQ(result.gaps[i].end, want.end);
            EXPECT_EQ(result.gaps[i].closingOp, want.closingOp);
            EXPECT_EQ(result.gaps[i].cause, want.cause);
        }
        // The ranking of the longest device gaps, made as they are found (in slices joined at cuts when
        // parallelFrom is 1), is the one a pass over the list gives: with room for all, and for 3.
        EXPECT_EQ(longestDeviceGaps(result, d.gapCount), longestGaps(result.gaps, d.gapCount, true));
        AnalysisOptions fewRanked = options;
        fewRanked.rankedDeviceGaps = 3;
        const AnalysisResult few = analyze(g.trace, fewRanked);
        EXPECT_EQ(few.longestDeviceGaps.size(), std::min<std::size_t>(3, d.gapCount));
        EXPECT_EQ(longestDeviceGaps(few, 3), longestGaps(few.gaps, 3, true));
    }
}

INSTANTIATE_TEST_SUITE_P(Windows, DevicePassReference,
    ::testing::Values(Case { WindowKind::Gpu, ActivitySet::All, std::numeric_limits<std::size_t>::max() },
        Case { WindowKind::Gpu, ActivitySet::All, 1 },
        Case { WindowKind::Gpu, ActivitySet::Kernels, std::numeric_limits<std::size_t>::max() },
        Case { WindowKind::Gpu, ActivitySet::Kernels, 1 }, Case { WindowKind::Trace, ActivitySet::All, 1 },
        Case { WindowKind::Steps, ActivitySet::All, std::numeric_limits<std::size_t>::max() },
        Case { WindowKind::Steps, ActivitySet::All, 1 }, Case { WindowKind::Steps, ActivitySet::Kernels, 1 },
        Case { WindowKind::Explicit, ActivitySet::All, std::numeric_limits<std::size_t>::max() },
        Case { WindowKind::Explicit, ActivitySet::All, 1 }, Case { WindowKind::Gpu, ActivitySet::All, 1, 8 },
        Case { WindowKind::Trace, ActivitySet::Kernels, 1, 8 }, Case { WindowKind::Steps, ActivitySet::All, 1, 8 },
        Case { WindowKind::Explicit, ActivitySet::Kernels, 1, 8 }));

} // namespace
} // namespace gapscope
