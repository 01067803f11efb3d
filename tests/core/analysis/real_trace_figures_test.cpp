// SPDX-License-Identifier: MIT
// The analysis on the real traces under tests/data, against the figures their projects' own tools report
// (TraceLens' gpu_timeline.csv, the TensorBoard plugin's utilization and step times, HTA's tests) and the
// union figures of tests/data/NOTICE.md / ../shared/data/traces/SOURCES.md, marked "computed" there
// (computed independently of GapScope from the docs/definitions.md definitions).
#include "core/analysis/analysis.h"
#include "core/io/trace_file.h"
#include "tests/core/hand_trace.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>

#include <optional>

#include <algorithm>
#include <cmath>

namespace gapscope {
namespace {

using test::load;

/// The one device of a process that has GPU activity.
const DeviceFigures* activeDevice(const AnalysisResult& result, ProcessIndex process)
{
    const DeviceFigures* found = nullptr;
    for (const DeviceFigures& d : result.devices) {
        if (d.process == process && d.busyNs > 0) {
            EXPECT_EQ(found, nullptr) << "more than one active device in process " << process.value;
            found = &d;
        }
    }
    return found;
}

constexpr TimeNs kUs = 1000;

// ---- TraceLens (AMD-AGI/TraceLens), H100 traces with its own perf report beside them --------------------

struct TraceLensCase {
    const char* name;
    const char* file;
    // gpu_timeline.csv, "time ms" column.
    double totalMs;
    double busyMs;
    double idleMs;
    double computationMs;
    double exposedMemcpyMs;
};

class TraceLensFiguresTest : public testing::TestWithParam<TraceLensCase> { };

TEST_P(TraceLensFiguresTest, GpuWindowMatchesTraceLensGpuTimeline)
{
    const TraceLensCase& c = GetParam();
    const Trace trace = load({ c.file });
    const AnalysisResult result = analyze(trace, {});
    ASSERT_TRUE(result.hasGpuActivity);
    const DeviceFigures* d = activeDevice(result, ProcessIndex { 0 });
    ASSERT_NE(d, nullptr);
    // Within 0.01 µs: TraceLens works on the float µs timestamps, GapScope on them rounded to ns.
    constexpr double kToleranceNs = 10.0;
    EXPECT_NEAR(static_cast<double>(d->spanNs), c.totalMs * 1e6, kToleranceNs);
    EXPECT_NEAR(static_cast<double>(d->busyNs), c.busyMs * 1e6, kToleranceNs);
    EXPECT_NEAR(static_cast<double>(d->idleNs), c.idleMs * 1e6, kToleranceNs);
    EXPECT_NEAR(static_cast<double>(d->exposed.compute), c.computationMs * 1e6, kToleranceNs);
    EXPECT_NEAR(static_cast<double>(d->exposed.memcpy), c.exposedMemcpyMs * 1e6, kToleranceNs);
    EXPECT_EQ(d->exposed.communication, 0);
    EXPECT_EQ(d->exposed.compute + d->exposed.communication + d->exposed.memcpy + d->exposed.idle, d->spanNs);
}

INSTANTIATE_TEST_SUITE_P(H100, TraceLensFiguresTest,
    testing::Values(
        TraceLensCase { "FalconsaiNsfwImageDetection", "tracelens/h100/Falconsai_nsfw_image_detection__1016002.json.gz",
            7.559843994140625, 1.225308837890625, 6.33453515625, 1.225308837890625, 0.0 },
        TraceLensCase { "GaunernstBertSmallUncased", "tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz",
            3.907824951171875, 0.309437744140625, 3.59838720703125, 0.30719775390625, 0.002239990234375 }),
    [](const auto& info) { return std::string(info.param.name); });

// ---- Kineto: the TensorBoard plugin's figures ---------------------------------------------------------------

TEST(KinetoFiguresTest, PluginTestUtilizationOverTraceAndGpuWindows)
{
    // tb_plugin/test/test_profiler.py test_gpu_utilization: 0.5 = (40 + 20) / 120 over the trace.
    const Trace trace = load({ "kineto/derived/tb_plugin_test_gpu_utilization.json" });
    AnalysisOptions traceWindow;
    traceWindow.window.kind = WindowKind::Trace;
    const AnalysisResult t = analyze(trace, traceWindow);
    const DeviceFigures* d = activeDevice(t, ProcessIndex { 0 });
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->spanNs, 120 * kUs);
    EXPECT_EQ(d->busyNs, 60 * kUs);
    EXPECT_DOUBLE_EQ(d->utilization, 0.5);
    // Over the gpu window (computed): [130, 220) = 90 µs, busy 60.
    const AnalysisResult g = analyze(trace, {});
    const DeviceFigures* dg = activeDevice(g, ProcessIndex { 0 });
    ASSERT_NE(dg, nullptr);
    EXPECT_EQ(dg->spanNs, 90 * kUs);
    EXPECT_EQ(dg->busyNs, 60 * kUs);
    EXPECT_DOUBLE_EQ(dg->utilization, 60.0 / 90.0);
}

TEST(KinetoFiguresTest, ResNet50StepsAndUtilizationMatchTheTensorBoardPlugin)
{
    const Trace trace = load({ test::kResnet50Trace });
    AnalysisOptions options;
    options.window.kind = WindowKind::Steps;
    options.activity = ActivitySet::Kernels;
    const AnalysisResult result = analyze(trace, options);
    // The plugin's overview: steps 5-10 and their durations in µs.
    const std::vector<std::string> names = { "ProfilerStep#5", "ProfilerStep#6", "ProfilerStep#7", "ProfilerStep#8",
        "ProfilerStep#9", "ProfilerStep#10" };
    const std::vector<TimeNs> durationsUs = { 187948, 175153, 179733, 174564, 182172, 165983 };
    ASSERT_EQ(result.steps.size(), names.size());
    for (std::size_t i = 0; i < names.size(); ++i) {
        EXPECT_EQ(result.steps[i].name, names[i]);
        EXPECT_EQ(result.steps[i].end - result.steps[i].start, durationsUs[i] * kUs) << names[i];
        if (i > 0) {
            EXPECT_EQ(result.steps[i].start, result.steps[i - 1].end);
        }
    }
    // GPU utilization 55.51 %, to the 0.01 %.
    const DeviceFigures* d = activeDevice(result, result.steps[0].process);
    ASSERT_NE(d, nullptr);
    EXPECT_NEAR(d->utilization * 100.0, 55.51, 0.005);
    EXPECT_EQ(d->spanNs, (187948 + 175153 + 179733 + 174564 + 182172 + 165983) * kUs);
    // A host-bound run (the data loader runs on the main thread): host gaps hold most of the idle time.
    const auto host = d->idleByCause[static_cast<std::size_t>(GapCause::Host)];
    EXPECT_GT(host * 2, d->idleNs);
    ASSERT_EQ(result.stepStats.size(), 1u);
    EXPECT_EQ(result.stepStats[0].count, 6u);
    EXPECT_EQ(result.stepStats[0].p50Ns, 175153 * kUs); // nearest rank: ceil(0.5 * 6) = 3rd of the six sorted
    EXPECT_EQ(result.stepStats[0].p95Ns, 187948 * kUs);
}

TEST(KinetoFiguresTest, ResNet50FourWorkersStepsWindowIsTheTensorBoardPluginsAllStepsTime)
{
    // The TensorBoard plugin divides the kernels' busy time by "all steps time": the end of the last step minus
    // the start of the first, 846.542 ms here, giving 70.27 %. The union of the step ranges alone would leave
    // out the 64 µs and 70 µs between steps 8/9 and 9/10 (846.408 ms, 70.28 %).
    const Trace trace = load({ test::kResnet50Workers4Trace });
    AnalysisOptions options;
    options.window.kind = WindowKind::Steps;
    options.activity = ActivitySet::Kernels;
    const AnalysisResult result = analyze(trace, options);
    ASSERT_FALSE(result.steps.empty());
    const DeviceFigures* d = activeDevice(result, result.steps[0].process);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->spanNs, 846542 * kUs);
    EXPECT_EQ(d->window.ranges.intervals().size(), 1u);
    EXPECT_NEAR(d->utilization * 100.0, 70.27, 0.005);
}

// ---- HTA (facebookresearch/HolisticTraceAnalysis) tests -----------------------------------------------------

TEST(HtaFiguresTest, SimpleAddStreamGapAndLaunchDelay)
{
    const Trace trace = load({ "hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz" });
    // traceEvents[1051]: the kernel at ts 1694040010076734 µs, dur 63, stream 20; its cudaLaunchKernel is
    // traceEvents[1053] at ts ...076707; the next kernel on stream 20 (traceEvents[1067]) starts at ...076804.
    constexpr TimeNs kKernelStart = 1694040010076734 * kUs;
    std::optional<EventRef> kernel;
    for (std::uint32_t l = 0; l < trace.lanes().size() && !kernel; ++l) {
        const Lane& lane = trace.lanes()[l];
        if (lane.kind != LaneKind::GpuStream || lane.stream != 20)
            continue;
        for (std::uint32_t i = 0; i < lane.events.size(); ++i) {
            if (lane.events[i].start == kKernelStart && lane.events[i].kind == EventKind::Kernel)
                kernel = EventRef { LaneIndex { l }, i };
        }
    }
    ASSERT_TRUE(kernel.has_value());
    EXPECT_EQ(trace.event(*kernel).duration(), 63 * kUs);
    EXPECT_EQ(launchDelay(trace, *kernel), 27 * kUs); // HTA: 27 µs

    const AnalysisResult result = analyze(trace, {});
    std::optional<Gap> gap;
    for (const Gap& g : result.gaps) {
        if (g.stream == kernel->lane && g.start == trace.event(*kernel).end)
            gap = g;
    }
    ASSERT_TRUE(gap.has_value());
    EXPECT_EQ(gap->duration(), 7 * kUs); // HTA: 7 µs
    EXPECT_EQ(gap->end, 1694040010076804 * kUs);
    ASSERT_TRUE(gap->closingOp.has_value());
    EXPECT_EQ(trace.name(trace.event(*gap->closingOp)), "ampere_gcgemm_64x64_nt");
    // Its launch came before the gap and the gap is under 30 µs: `launch`.
    const GapEvidence evidence = gapEvidence(trace, *gap);
    ASSERT_TRUE(evidence.launch.has_value());
    EXPECT_LT(trace.event(*evidence.launch).start, gap->start);
    EXPECT_EQ(gap->cause, GapCause::Launch);
}

// ---- Union figures over the gpu window (SOURCES.md, computed) ----------------------------------------------

struct UnionCase {
    const char* name;
    std::vector<std::string> files;
    // Per process in load order: span, busy, idle in ns.
    std::vector<std::array<TimeNs, 3>> figures;
};

class UnionFiguresTest : public testing::TestWithParam<UnionCase> { };

TEST_P(UnionFiguresTest, SpanBusyIdlePerProcess)
{
    const UnionCase& c = GetParam();
    const Trace trace = load(c.files);
    const AnalysisResult result = analyze(trace, {});
    ASSERT_EQ(trace.processes().size(), c.figures.size());
    for (std::uint32_t p = 0; p < c.figures.size(); ++p) {
        SCOPED_TRACE(p);
        const DeviceFigures* d = activeDevice(result, ProcessIndex { p });
        ASSERT_NE(d, nullptr);
        EXPECT_EQ(d->spanNs, c.figures[p][0]);
        EXPECT_EQ(d->busyNs, c.figures[p][1]);
        EXPECT_EQ(d->idleNs, c.figures[p][2]);
        // The gaps tile the idle time, and their causes split it without loss.
        TimeNs gapTotal = 0;
        for (const Gap& g : result.gaps) {
            if (!g.stream && g.device == d->device)
                gapTotal += g.duration();
        }
        EXPECT_EQ(gapTotal, d->idleNs);
        TimeNs byCause = 0;
        for (TimeNs t : d->idleByCause)
            byCause += t;
        EXPECT_EQ(byCause, d->idleNs);
    }
}

INSTANTIATE_TEST_SUITE_P(Sources, UnionFiguresTest,
    testing::Values(UnionCase { "LegacyArrayFormat", { test::kResnet50LegacyTrace },
                        { { 1292150 * kUs, 649472 * kUs, 642678 * kUs } } },
        UnionCase { "HtaSimpleAdd", { "hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz" },
            { { 16025575 * kUs, 49758 * kUs, 15975817 * kUs } } },
        UnionCase { "HtaCudaEventSync", { "hta/critical_path/cuda_event_sync/event_sync_trace.json.gz" },
            { { 263 * kUs, 51 * kUs, 212 * kUs } } },
        UnionCase { "HtaCudaEventSyncMultiStream",
            { "hta/critical_path/cuda_event_sync_multi_stream/event_sync_trace.json.gz" },
            { { 19506 * kUs, 372 * kUs, 19134 * kUs } } },
        UnionCase { "HtaSampledRanks",
            { "hta/trace_filter/sampled_rank-0.json.gz", "hta/trace_filter/sampled_rank-1.json.gz" },
            { { 1222847 * kUs, 547656 * kUs, 675191 * kUs }, { 1231186 * kUs, 580050 * kUs, 651136 * kUs } } },
        // SOURCES.md gives 480029.25 / 472462.5 / 7566.75 µs: the same definition evaluated on float64
        // timestamps, which at 16 integer digits hold only quarter microseconds. The timestamps have three
        // decimals (ns); with exact decimal arithmetic (Python's decimal module on the same file) the figures
        // are 480029.179 / 472454.441 / 7574.738 µs, which is what GapScope's integer ns give.
        UnionCase { "HtaNsResolution", { "hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz" },
            { { 480029179, 472454441, 7574738 } } }),
    [](const auto& info) { return std::string(info.param.name); });

TEST(HtaFiguresTest, SampledRanksKeepTheirRanks)
{
    const Trace trace = load({ "hta/trace_filter/sampled_rank-0.json.gz", "hta/trace_filter/sampled_rank-1.json.gz" });
    ASSERT_EQ(trace.processes().size(), 2u);
    EXPECT_EQ(trace.processes()[0].rank, 0);
    EXPECT_EQ(trace.processes()[1].rank, 1);
    // NCCL kernels run on these ranks: some of their time is communication.
    const AnalysisResult result = analyze(trace, {});
    const DeviceFigures* d = activeDevice(result, ProcessIndex { 0 });
    ASSERT_NE(d, nullptr);
    EXPECT_GT(d->exposed.communication, 0);
    EXPECT_EQ(d->exposed.compute + d->exposed.communication + d->exposed.memcpy + d->exposed.idle, d->spanNs);
    EXPECT_EQ(d->exposed.idle, d->idleNs);
}

TEST(HtaFiguresTest, TheRankingOfTheLongestDeviceGapsSpansBothRanks)
{
    // Two ranks, 8 devices' worth of lists: the ranking the analysis makes as it finds the gaps is the one a
    // pass over all of them gives, with room for 5 and with room for every gap.
    const Trace trace = load({ "hta/trace_filter/sampled_rank-0.json.gz", "hta/trace_filter/sampled_rank-1.json.gz" });
    for (std::size_t ranked : { std::size_t { 5 }, std::size_t { 1'000'000 } }) {
        AnalysisOptions options;
        options.rankedDeviceGaps = ranked;
        options.parallelFromEvents = 1; // every device in slices, joined
        const AnalysisResult result = analyze(trace, options);
        std::size_t deviceGaps = 0;
        for (const DeviceFigures& d : result.devices)
            deviceGaps += d.gapCount;
        ASSERT_GT(deviceGaps, 5u);
        EXPECT_EQ(result.longestDeviceGaps.size(), std::min(ranked, deviceGaps));
        const std::vector<std::size_t> expected = longestGaps(result.gaps, ranked, true);
        EXPECT_EQ(longestDeviceGaps(result, ranked), expected);
        // Both ranks' gaps are in it, the longest first.
        ASSERT_FALSE(expected.empty());
        EXPECT_GE(result.gaps[expected.front()].duration(), result.gaps[expected.back()].duration());
        if (ranked > deviceGaps) {
            const auto ofRank = [&](std::uint32_t p) {
                return [&result, p](std::size_t i) { return result.gaps[i].process.value == p; };
            };
            EXPECT_TRUE(std::any_of(expected.begin(), expected.end(), ofRank(1)));
            EXPECT_TRUE(std::any_of(expected.begin(), expected.end(), ofRank(0)));
        }
        // Asking for more than it holds falls back to a pass over the list.
        EXPECT_EQ(longestDeviceGaps(result, ranked + 3), longestGaps(result.gaps, ranked + 3, true));
    }
}

TEST(HtaFiguresTest, CpuOnlyRankHasNoGpuActivity)
{
    const Trace trace = load({ "hta/rank_non_gpu/rank_non_gpu.json.gz" });
    const AnalysisResult result = analyze(trace, {});
    EXPECT_FALSE(result.hasGpuActivity);
    for (const DeviceFigures& d : result.devices) {
        EXPECT_EQ(d.busyNs, 0);
        EXPECT_EQ(d.utilization, 0.0);
    }
    EXPECT_TRUE(result.gaps.empty());
    EXPECT_TRUE(result.kernels.empty());
}

} // namespace
} // namespace gapscope
