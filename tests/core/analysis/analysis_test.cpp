// SPDX-License-Identifier: MIT
// Windows, busy/idle/utilization, activity sets and kernel statistics on hand-built traces.
#include "core/analysis/analysis.h"
#include "tests/core/hand_trace.h"

#include <gtest/gtest.h>

#include <random>

namespace gapscope {
namespace {

using test::findEvent;
using test::HandTrace;
using test::us;

// Kineto's test_gpu_utilization timeline (tb_plugin/test/test_profiler.py), rebuilt by hand: kernels
// [130,140) and [145,170) on stream 7, [135,150) and a zero-length one at 150 on stream 8, [200,220) on
// stream 7; CPU ops over [100,220). Union of kernels: [130,170) + [200,220) = 60.
Trace kinetoUtilizationTimeline()
{
    return HandTrace()
        .cpuOp(1, 100, 220, "aten::mm")
        .kernel(7, 130, 140)
        .kernel(7, 145, 170)
        .kernel(8, 135, 150)
        .kernel(8, 150, 150, "zero")
        .kernel(7, 200, 220)
        .build();
}

struct WindowCase {
    const char* name;
    WindowSpec spec;
    TimeNs span;
    TimeNs busy;
    std::size_t gaps;
};

class WindowFiguresTest : public testing::TestWithParam<WindowCase> { };

TEST_P(WindowFiguresTest, MeasuresBusyOverTheChosenWindow)
{
    const Trace trace = kinetoUtilizationTimeline();
    const WindowCase& c = GetParam();
    AnalysisOptions options;
    options.window = c.spec;
    const AnalysisResult result = analyze(trace, options);
    ASSERT_EQ(result.devices.size(), 1u);
    const DeviceFigures& d = result.devices[0];
    EXPECT_EQ(d.window.kind, c.spec.kind);
    EXPECT_EQ(d.spanNs, c.span);
    EXPECT_EQ(d.busyNs, c.busy);
    EXPECT_EQ(d.idleNs, c.span - c.busy);
    EXPECT_DOUBLE_EQ(d.utilization, static_cast<double>(c.busy) / static_cast<double>(c.span));
    EXPECT_EQ(d.gapCount, c.gaps);
    EXPECT_EQ(d.exposed.compute + d.exposed.idle, c.span);
}

INSTANTIATE_TEST_SUITE_P(Windows, WindowFiguresTest,
    testing::Values(
        // First to last kernel: [130, 220) = 90, one gap [170, 200); the zero-length kernel adds nothing.
        WindowCase { "gpu", { WindowKind::Gpu }, us(90), us(60), 1 },
        // First to last event of any kind: the CPU op starts at 100: 60 / 120 = 0.5, the plugin's figure.
        WindowCase { "trace", { WindowKind::Trace }, us(120), us(60), 2 },
        // [140, 210): busy [140,170) (stream 8's [135,150) bridges the two stream-7 kernels) + [200,210)
        // = 40; one gap [170, 200).
        WindowCase { "explicit", { WindowKind::Explicit, 0, us(140), us(210) }, us(70), us(40), 1 }),
    [](const auto& info) { return std::string(info.param.name); });

TEST(AnalysisTest, ZeroLengthKernelsAddNothingAndSplitNoGap)
{
    // [0,10), zero-length at 20, [30,40): busy 20 and one gap [10, 30), closed by the [30,40) kernel.
    const Trace trace = HandTrace().kernel(7, 0, 10, "a").kernel(7, 20, 20, "zero").kernel(7, 30, 40, "b").build();
    const AnalysisResult result = analyze(trace, {});
    ASSERT_EQ(result.devices.size(), 1u);
    EXPECT_EQ(result.devices[0].busyNs, us(20));
    EXPECT_EQ(result.devices[0].gapCount, 1u);
    EXPECT_EQ(result.gaps[0].start, us(10));
    EXPECT_EQ(result.gaps[0].end, us(30));
    EXPECT_EQ(result.gaps[0].closingOp, findEvent(trace, "b"));
    EXPECT_EQ(deviceBusy(trace, DeviceIndex { 0 }, ActivitySet::All).intervals(),
        (std::vector<Interval> { { 0, us(10) }, { us(30), us(40) } }));
}

TEST(AnalysisTest, ActivitySetKernelsLeavesOutCopiesAndMemsetsButSyncIsNeverActivity)
{
    // Kernel [0,10), memcpy [20,30), memset [30,35), a GPU-side sync [40, 90) and a kernel [90, 100).
    const Trace trace = HandTrace()
                            .kernel(7, 0, 10)
                            .memcpy(7, 20, 30)
                            .memset(7, 30, 35)
                            .gpuSync(7, 40, 90)
                            .kernel(7, 90, 100)
                            .build();
    AnalysisOptions all;
    const AnalysisResult a = analyze(trace, all);
    ASSERT_EQ(a.devices.size(), 1u);
    EXPECT_EQ(a.devices[0].spanNs, us(100));
    EXPECT_EQ(a.devices[0].busyNs, us(35));
    EXPECT_EQ(a.devices[0].gapCount, 2u); // [10,20) and [35,90): the sync is a wait, not work
    EXPECT_EQ(a.devices[0].exposed.compute, us(25));
    EXPECT_EQ(a.devices[0].exposed.memcpy, us(10));

    AnalysisOptions kernels;
    kernels.activity = ActivitySet::Kernels;
    const AnalysisResult k = analyze(trace, kernels);
    EXPECT_EQ(k.devices[0].spanNs, us(100));
    EXPECT_EQ(k.devices[0].busyNs, us(20));
    EXPECT_EQ(k.devices[0].gapCount, 1u); // [10, 90)
    EXPECT_EQ(deviceBusy(trace, DeviceIndex { 0 }, ActivitySet::Kernels).totalLength(), us(20));

    // With only the memcpy counted as the window's edges under `kernels`, the gpu window shrinks.
    const Trace copyFirst = HandTrace().memcpy(7, 0, 50).kernel(7, 60, 70).build();
    EXPECT_EQ(analyze(copyFirst, kernels).devices[0].spanNs, us(10));
    EXPECT_EQ(analyze(copyFirst, all).devices[0].spanNs, us(70));
}

TEST(AnalysisTest, TheStepsWindowIsOneRangeWithThePausesBetweenStepsInside)
{
    // Steps [0,10) and [20,30) (no launches: the CPU ranges stand) with a pause [10,20) between them; one kernel
    // [5, 25) spans the pause. The window is [0,30) (the TensorBoard plugin's "all steps time"): span 30, busy 20.
    // Gaps: [0,5), closed by the kernel, and [25,30), after which nothing runs.
    const Trace trace = HandTrace()
                            .cpuOp(1, 0, 10, "ProfilerStep#1")
                            .cpuOp(1, 20, 30, "ProfilerStep#2")
                            .kernel(7, 5, 25, "long")
                            .build();
    AnalysisOptions options;
    options.window.kind = WindowKind::Steps;
    const AnalysisResult result = analyze(trace, options);
    ASSERT_EQ(result.devices.size(), 1u);
    EXPECT_EQ(result.windows[0].ranges.intervals().size(), 1u);
    EXPECT_EQ(result.devices[0].spanNs, us(30));
    EXPECT_EQ(result.devices[0].busyNs, us(20));
    ASSERT_EQ(result.devices[0].gapCount, 2u);
    EXPECT_EQ(result.gaps[0].start, 0);
    EXPECT_EQ(result.gaps[0].end, us(5));
    EXPECT_EQ(result.gaps[0].closingOp, findEvent(trace, "long"));
    EXPECT_EQ(result.gaps[1].start, us(25));
    EXPECT_EQ(result.gaps[1].end, us(30));
    EXPECT_FALSE(result.gaps[1].closingOp.has_value());
    // A pause with no GPU work is idle inside the window: kernel [2, 8) only, busy 6 of 30.
    const Trace paused = HandTrace()
                             .cpuOp(1, 0, 10, "ProfilerStep#1")
                             .cpuOp(1, 20, 30, "ProfilerStep#2")
                             .kernel(7, 2, 8, "short")
                             .build();
    const AnalysisResult p = analyze(paused, options);
    ASSERT_EQ(p.devices.size(), 1u);
    EXPECT_EQ(p.devices[0].spanNs, us(30));
    EXPECT_EQ(p.devices[0].busyNs, us(6));
    EXPECT_EQ(p.devices[0].idleNs, us(24));
}

TEST(AnalysisTest, CpuOnlyTraceHasNoDevicesAndNoDivisionByZero)
{
    const Trace trace = HandTrace().cpuOp(1, 0, 100, "main").runtime(1, 10, 20, "cudaGetDeviceCount").build();
    for (WindowKind kind : { WindowKind::Gpu, WindowKind::Trace, WindowKind::Steps }) {
        AnalysisOptions options;
        options.window.kind = kind;
        const AnalysisResult result = analyze(trace, options);
        EXPECT_FALSE(result.hasGpuActivity);
        EXPECT_TRUE(result.devices.empty());
        EXPECT_TRUE(result.gaps.empty());
        EXPECT_TRUE(result.kernels.empty());
        ASSERT_EQ(result.windows.size(), 1u);
        EXPECT_EQ(result.windows[0].kind, kind);
    }
    EXPECT_EQ(computeWindow(trace, ProcessIndex { 0 }, { WindowKind::Trace }, ActivitySet::All, {}).length(), us(100));
    EXPECT_EQ(computeWindow(trace, ProcessIndex { 0 }, { WindowKind::Gpu }, ActivitySet::All, {}).length(), 0);
}

TEST(AnalysisTest, DeviceWithoutActivityInItsWindowIsAllIdle)
{
    // The device only has a GPU-side sync: no activity, so its gpu window is empty and nothing divides by 0.
    const Trace trace = HandTrace().gpuSync(7, 0, 100).build();
    const AnalysisResult result = analyze(trace, {});
    EXPECT_FALSE(result.hasGpuActivity);
    ASSERT_EQ(result.devices.size(), 1u);
    EXPECT_EQ(result.devices[0].spanNs, 0);
    EXPECT_EQ(result.devices[0].utilization, 0.0);
    AnalysisOptions traceWindow;
    traceWindow.window.kind = WindowKind::Trace;
    const AnalysisResult t = analyze(trace, traceWindow);
    EXPECT_EQ(t.devices[0].spanNs, us(100));
    EXPECT_EQ(t.devices[0].idleNs, us(100));
    EXPECT_EQ(t.devices[0].gapCount, 1u);
    EXPECT_EQ(t.gaps[0].cause, GapCause::Unknown);
}

TEST(AnalysisTest, EachProcessHasItsOwnWindowAndOptionsCanSelectOne)
{
    // Two ranks of one job: rank 0's kernels over [0, 100), rank 1's over [1000, 1050).
    const Trace trace = HandTrace().kernel(7, 0, 40).kernel(7, 60, 100).process(200, 1).kernel(7, 1000, 1050).build();
    const AnalysisResult both = analyze(trace, {});
    ASSERT_EQ(both.windows.size(), 2u);
    EXPECT_EQ(both.windows[0].start(), 0);
    EXPECT_EQ(both.windows[0].end(), us(100));
    EXPECT_EQ(both.windows[1].start(), us(1000));
    EXPECT_EQ(both.windows[1].length(), us(50));
    ASSERT_EQ(both.devices.size(), 2u);
    // Devices are listed in rank order (processesInRankOrder): rank 1 first, then the process without a rank.
    EXPECT_EQ(both.devices[0].process, ProcessIndex { 1 });
    EXPECT_EQ(both.devices[0].utilization, 1.0);
    EXPECT_EQ(both.devices[1].process, ProcessIndex { 0 });
    EXPECT_EQ(both.devices[1].busyNs, us(80));

    AnalysisOptions second;
    second.process = ProcessIndex { 1 };
    const AnalysisResult one = analyze(trace, second);
    ASSERT_EQ(one.devices.size(), 1u);
    EXPECT_EQ(one.devices[0].process, ProcessIndex { 1 });
    EXPECT_TRUE(one.gaps.empty());
}

TEST(KernelStatsTest, CountsWholeKernelsStartingInTheWindowSortedByTotal)
{
    // Window [0, 100): "gemm" x4 (10, 20, 30, 40 µs), "relu" x2 (5, 5), and a "gemm" starting at 95 that
    // ends after the window (counted whole: 50); "late" starts at 100, outside.
    const Trace trace = HandTrace()
                            .kernel(7, 0, 10, "gemm")
                            .kernel(7, 10, 30, "gemm")
                            .kernel(8, 0, 30, "gemm")
                            .kernel(8, 30, 70, "gemm")
                            .kernel(9, 0, 5, "relu")
                            .kernel(9, 5, 10, "relu")
                            .kernel(9, 95, 145, "gemm")
                            .kernel(9, 100, 300, "late")
                            .build();
    AnalysisOptions options;
    options.window = { WindowKind::Explicit, 0, us(0), us(100) };
    const AnalysisResult result = analyze(trace, options);
    ASSERT_EQ(result.kernels.size(), 2u);
    const KernelStats& gemm = result.kernels[0];
    EXPECT_EQ(gemm.name, "gemm");
    EXPECT_EQ(gemm.count, 5u);
    EXPECT_EQ(gemm.totalNs, us(150));
    EXPECT_EQ(gemm.meanNs, us(30));
    EXPECT_EQ(gemm.p50Ns, us(30)); // nearest rank: ceil(0.5 * 5) = 3rd of 10, 20, 30, 40, 50
    EXPECT_EQ(gemm.p95Ns, us(50)); // ceil(0.95 * 5) = 5th
    EXPECT_EQ(gemm.maxNs, us(50));
    const KernelStats& relu = result.kernels[1];
    EXPECT_EQ(relu.name, "relu");
    EXPECT_EQ(relu.count, 2u);
    EXPECT_EQ(relu.totalNs, us(10));
    EXPECT_EQ(relu.p50Ns, us(5));

    AnalysisOptions without = options;
    without.kernelStatistics = false;
    EXPECT_TRUE(analyze(trace, without).kernels.empty());
}

TEST(KernelStatsTest, PercentilesAreTheSameWhateverTheSpreadOfDurations)
{
    // "tiny": ten kernels of 3, 1, 4, 1, 5, 9, 2, 6, 5, 3 ns (fewer distinct durations than kernels: counted per
    // duration); sorted 1 1 2 3 3 4 5 5 6 9, so p50 = the 5th = 3 ns, p95 = the 10th = 9 ns. "long": 1 s and 5 s
    // (beyond 32 bits of ns): p50 = the 1st = 1 s, p95 = the 2nd = 5 s. "spread": 50, 10, 90, 30, 70, 20, 80, 40,
    // 100, 60 µs: p50 = the 5th = 50 µs, p95 = the 10th = 100 µs.
    HandTrace hand;
    const int tinyNs[] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3 };
    for (int i = 0; i < 10; ++i)
        hand.kernel(7, 100.0 * i, 100.0 * i + tinyNs[i] / 1000.0, "tiny");
    hand.kernel(8, 0, 1e6, "long").kernel(8, 2e6, 7e6, "long");
    const int spreadUs[] = { 50, 10, 90, 30, 70, 20, 80, 40, 100, 60 };
    for (int i = 0; i < 10; ++i)
        hand.kernel(9, 1000.0 * i, 1000.0 * i + spreadUs[i], "spread");
    const Trace trace = hand.build();
    AnalysisOptions options;
    options.window = { WindowKind::Explicit, 0, us(0), us(1e7) };
    const std::vector<KernelStats> kernels = analyze(trace, options).kernels;
    ASSERT_EQ(kernels.size(), 3u);
    // By total time: "long" (6 s), "spread" (550 µs), "tiny" (39 ns).
    EXPECT_EQ(kernels[0].name, "long");
    EXPECT_EQ(kernels[0].p50Ns, 1'000'000'000);
    EXPECT_EQ(kernels[0].p95Ns, 5'000'000'000);
    EXPECT_EQ(kernels[0].maxNs, 5'000'000'000);
    EXPECT_EQ(kernels[1].name, "spread");
    EXPECT_EQ(kernels[1].p50Ns, us(50));
    EXPECT_EQ(kernels[1].p95Ns, us(100));
    EXPECT_EQ(kernels[2].name, "tiny");
    EXPECT_EQ(kernels[2].count, 10u);
    EXPECT_EQ(kernels[2].totalNs, 39);
    EXPECT_EQ(kernels[2].p50Ns, 3);
    EXPECT_EQ(kernels[2].p95Ns, 9);
    EXPECT_EQ(kernels[2].maxNs, 9);
}

TEST(LaunchDelayTest, IsOpStartMinusLaunchStart)
{
    const Trace trace = HandTrace()
                            .runtime(1, 100, 105, "cudaLaunchKernel", 42)
                            .kernel(7, 127, 190, "k", 42)
                            .kernel(7, 200, 210, "orphan")
                            .build();
    EXPECT_EQ(launchDelay(trace, findEvent(trace, "k")), us(27));
    EXPECT_EQ(launchDelay(trace, findEvent(trace, "orphan")), std::nullopt);
}

TEST(AnalysisPropertyTest, RandomTracesAgreeWithTheDefinitions)
{
    // Random multi-stream timelines (overlaps, zero-length ops, every class): the device busy set is the
    // union of all activity intervals; gaps tile the idle time; exposed time sums to the window.
    std::mt19937 random(20240601);
    for (int trial = 0; trial < 300; ++trial) {
        SCOPED_TRACE(trial);
        HandTrace builder;
        std::vector<Interval> all;
        std::vector<Interval> kernels;
        const int streams = 1 + static_cast<int>(random() % 6);
        for (int s = 0; s < streams; ++s) {
            double t = random() % 50;
            const int n = static_cast<int>(random() % 40);
            for (int i = 0; i < n; ++i) {
                const double start = t + random() % 20;
                const double end = start + random() % 15;
                switch (random() % 5) {
                case 0:
                    builder.memcpy(s, start, end);
                    break;
                case 1:
                    builder.memset(s, start, end);
                    break;
                case 2:
                    builder.kernel(s, start, end, "ncclKernel_AllGather");
                    kernels.push_back({ us(start), us(end) });
                    break;
                default:
                    builder.kernel(s, start, end, "gemm");
                    kernels.push_back({ us(start), us(end) });
                    break;
                }
                all.push_back({ us(start), us(end) });
                t = random() % 3 == 0 ? end : start;
            }
        }
        builder.gpuSync(0, 0, 1000);
        const Trace trace = builder.build();
        EXPECT_EQ(
            deviceBusy(trace, DeviceIndex { 0 }, ActivitySet::All).intervals(), IntervalSet::unionOf(all).intervals());
        EXPECT_EQ(deviceBusy(trace, DeviceIndex { 0 }, ActivitySet::Kernels).intervals(),
            IntervalSet::unionOf(kernels).intervals());
        AnalysisOptions options;
        options.window = { WindowKind::Explicit, 0, us(10), us(400) };
        const AnalysisResult result = analyze(trace, options);
        ASSERT_EQ(result.devices.size(), 1u);
        const DeviceFigures& d = result.devices[0];
        const IntervalSet window = IntervalSet::unionOf({ { us(10), us(400) } });
        EXPECT_EQ(d.busyNs, IntervalSet::unionOf(all).intersect(window).totalLength());
        EXPECT_EQ(d.exposed.compute + d.exposed.communication + d.exposed.memcpy + d.exposed.idle, d.spanNs);
        EXPECT_EQ(d.exposed.idle, d.idleNs);
        std::vector<Interval> gapIntervals;
        for (const Gap& g : result.gaps) {
            if (!g.stream)
                gapIntervals.push_back({ g.start, g.end });
        }
        EXPECT_EQ(gapIntervals, IntervalSet::unionOf(all).complement({ us(10), us(400) }).intervals());
    }
}

TEST(AnalysisNamesTest, NamesMatchTheDesignDocument)
{
    EXPECT_EQ(windowKindName(WindowKind::Gpu), "gpu");
    EXPECT_EQ(windowKindName(WindowKind::Trace), "trace");
    EXPECT_EQ(windowKindName(WindowKind::Steps), "steps");
    EXPECT_EQ(windowKindName(WindowKind::Explicit), "explicit");
    EXPECT_EQ(activitySetName(ActivitySet::All), "all");
    EXPECT_EQ(activitySetName(ActivitySet::Kernels), "kernels");
    EXPECT_EQ(gapCauseName(GapCause::Sync), "sync");
    EXPECT_EQ(gapCauseName(GapCause::Host), "host");
    EXPECT_EQ(gapCauseName(GapCause::Launch), "launch");
    EXPECT_EQ(gapCauseName(GapCause::Dependency), "dependency");
    EXPECT_EQ(gapCauseName(GapCause::Unknown), "unknown");
}

} // namespace
} // namespace gapscope
