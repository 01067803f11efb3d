// SPDX-License-Identifier: MIT
#include "core/analysis/compare.h"
#include "core/io/trace_file.h"
#include "tests/core/hand_trace.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace gapscope {
namespace {

constexpr TimeNs kUs = 1000;
const std::string kResnet0 = test::kResnet50Trace;
const std::string kResnet4 = test::kResnet50Workers4Trace;
const std::string kHtaControl = "hta/trace_diff/control/control.json.gz";
const std::string kHtaTest = "hta/trace_diff/test/test.json.gz";

using test::load;

/// One analyzed run.
struct Analyzed {
    Trace trace;
    AnalysisResult result;
    RunSummary summary() const
    {
        return summarizeRun(trace, result, trace.processes().empty() ? "" : trace.processes()[0].sourceFile);
    }
};

Analyzed analyzed(Trace trace, const AnalysisOptions& options)
{
    Analyzed a { std::move(trace), {} };
    a.result = analyze(a.trace, options);
    return a;
}

RunDiff diffOf(const Analyzed& base, const Analyzed& fresh)
{
    const RunSummary b[] = { base.summary() };
    const RunSummary n[] = { fresh.summary() };
    return compareRuns(b, n);
}

AnalysisOptions stepsWindow(int warmup)
{
    AnalysisOptions options;
    options.window.kind = WindowKind::Steps;
    options.window.warmupSteps = warmup;
    return options;
}

const DeviceDiff* activeDevice(const RunDiff& diff)
{
    for (const DeviceDiff& d : diff.devices) {
        if (d.base && d.base->busyNs > 0)
            return &d;
    }
    return nullptr;
}

// ---- the steps verdict on hand-built runs ---------------------------------------------------

std::vector<TimeNs> range(TimeNs first, TimeNs count)
{
    std::vector<TimeNs> values;
    for (TimeNs i = 0; i < count; ++i)
        values.push_back(first + i);
    return values;
}

TEST(CompareSteps, OneRunPerSideSeparatedIsFasterWithTheCaveat)
{
    // Ten steps each, every NEW step shorter than every BASE step: U = 100, p = 2 / C(20, 10) = 2 / 184756.
    const StepComparison c = compareSteps({ range(200, 10) }, { range(100, 10) });
    EXPECT_EQ(c.verdict, Verdict::Faster);
    ASSERT_TRUE(c.test && c.interval95);
    EXPECT_DOUBLE_EQ(c.test->u, 100.0);
    EXPECT_NEAR(c.test->pValue, 2.0 / 184756.0, 1e-15);
    // Medians 204 and 104 (lower middle of 10): delta -100; the resampled medians stay within each range.
    EXPECT_EQ(c.deltaP50Ns, -100);
    EXPECT_DOUBLE_EQ(c.deltaP50Fraction, -100.0 / 204.0);
    EXPECT_GE(c.interval95->low, 100 - 209);
    EXPECT_LE(c.interval95->high, 109 - 200);
    EXPECT_FALSE(c.runMediansSeparate);
    EXPECT_NE(c.caveat.find("run-to-run noise"), std::string::npos);
    EXPECT_EQ(c.base.runs, 1u);
    EXPECT_FALSE(c.base.runSpread);
}

TEST(CompareSteps, TooFewStepsGiveNoDetectableChange)
{
    // Two steps against two, fully separated: the smallest p possible is 2/6, never below 0.05.
    const StepComparison c = compareSteps({ { 200, 210 } }, { { 100, 110 } });
    EXPECT_EQ(c.verdict, Verdict::NoDetectableChange);
    EXPECT_NEAR(c.test->pValue, 1.0 / 3.0, 1e-12);
}

TEST(CompareSteps, SlowerIsTheMirrorOfFaster)
{
    const StepComparison c = compareSteps({ range(100, 8) }, { range(150, 8) });
    EXPECT_EQ(c.verdict, Verdict::Slower);
    EXPECT_GT(c.interval95->low, 0);
    EXPECT_EQ(c.deltaP50Ns, 50);
}

TEST(CompareSteps, NoStepsMeansNoVerdictAndSaysWhy)
{
    const StepComparison c = compareSteps({ {} }, { range(100, 5) });
    EXPECT_EQ(c.verdict, Verdict::NoVerdict);
    EXPECT_FALSE(c.test);
    EXPECT_NE(c.reason.find("BASE has no counted steps"), std::string::npos) << c.reason;
}

TEST(CompareSteps, OverlappingRunMediansHideAPooledDifference)
{
    // Three runs per side, ten steps each. BASE runs: 96..105, 106..115, 116..125 (medians 100, 110, 120); NEW
    // runs: 76..85, 86..95, 97..106 (medians 80, 90, 101). Pooled, U(BASE) = 840 of 900 (counted by a Python
    // script over the pairs), z = 5.76 with the tie correction: p < 0.05 and the interval below 0 -- the pooled
    // test alone says `faster`. But the run medians' ranges [100, 120] and [80, 101] overlap, so the change is
    // within the run-to-run noise.
    const StepComparison c = compareSteps(
        { range(96, 10), range(106, 10), range(116, 10) }, { range(76, 10), range(86, 10), range(97, 10) });
    ASSERT_TRUE(c.test && c.interval95);
    EXPECT_DOUBLE_EQ(c.test->u, 840.0);
    EXPECT_FALSE(c.test->exact);
    EXPECT_NEAR(c.test->pValue, 8.444651726800564e-09, 1e-15);
    EXPECT_LT(c.interval95->high, 0) << c.interval95->low << " " << c.interval95->high;
    ASSERT_TRUE(c.runMediansSeparate);
    EXPECT_FALSE(*c.runMediansSeparate);
    EXPECT_EQ(c.verdict, Verdict::NoDetectableChange);
    EXPECT_NE(c.reason.find("overlap"), std::string::npos) << c.reason;
    // Spread: max/min of the run medians - 1.
    EXPECT_DOUBLE_EQ(*c.base.runSpread, 120.0 / 100.0 - 1.0);
    EXPECT_DOUBLE_EQ(*c.fresh.runSpread, 101.0 / 80.0 - 1.0);
    EXPECT_EQ(c.base.runMediansNs, (std::vector<TimeNs> { 100, 110, 120 }));
    EXPECT_TRUE(c.caveat.empty());
}

TEST(CompareSteps, SeparateRunMediansGiveTheVerdict)
{
    // The same BASE; NEW's third run 91..100 (median 95): every NEW run median lies below BASE's lowest, 100.
    const StepComparison c = compareSteps(
        { range(96, 10), range(106, 10), range(116, 10) }, { range(76, 10), range(86, 10), range(91, 10) });
    ASSERT_TRUE(c.runMediansSeparate);
    EXPECT_TRUE(*c.runMediansSeparate);
    EXPECT_EQ(c.verdict, Verdict::Faster);
    EXPECT_NE(c.reason.find("do not overlap"), std::string::npos);
}

// ---- whole runs -------------------------------------------------------------------------------

TEST(CompareRuns, ATraceAgainstItselfChangesNothing)
{
    const Analyzed a = analyzed(load(kResnet0), stepsWindow(1));
    const Analyzed b = analyzed(load(kResnet0), stepsWindow(1));
    const RunDiff diff = diffOf(a, b);
    ASSERT_FALSE(diff.devices.empty());
    for (const DeviceDiff& d : diff.devices) {
        ASSERT_TRUE(d.base && d.fresh);
        const WindowFiguresDelta delta = figuresDelta(*d.base, *d.fresh);
        EXPECT_EQ(delta.spanNs, 0);
        EXPECT_EQ(delta.busyNs, 0);
        EXPECT_EQ(delta.idleNs, 0);
        EXPECT_EQ(delta.gapCount, 0);
        EXPECT_EQ(delta.utilization, 0.0);
        for (TimeNs v : delta.idleByCause)
            EXPECT_EQ(v, 0);
        EXPECT_EQ(delta.exposed.compute + delta.exposed.communication + delta.exposed.memcpy + delta.exposed.idle, 0);
    }
    EXPECT_EQ(diff.steps.verdict, Verdict::NoDetectableChange);
    EXPECT_EQ(diff.steps.deltaP50Ns, 0);
    EXPECT_DOUBLE_EQ(diff.steps.test->pValue, 1.0);
    EXPECT_FALSE(diff.steps.interval95->excludesZero());
    for (const KernelDiff& k : diff.kernels) {
        ASSERT_TRUE(k.base && k.fresh) << k.name;
        EXPECT_EQ(k.deltaCount(), 0);
        EXPECT_EQ(k.deltaTotalNs(), 0);
    }
    EXPECT_TRUE(diff.warnings.empty()) << diff.warnings.front();
}

TEST(CompareRuns, MoreDataLoaderWorkersMakeResNet50Faster)
{
    const Analyzed base = analyzed(load(kResnet0), stepsWindow(1));
    const Analyzed fresh = analyzed(load(kResnet4), stepsWindow(1));
    const RunDiff diff = diffOf(base, fresh);
    // Step durations as the TensorBoard plugin gives them: steps 6-10 of num_workers_0 (SOURCES.md) and of
    // num_workers_4 (computed by the plugin's rule from the JSON with a Python script: 126183, 127181, 123079,
    // 163461, 124198 µs). Nearest-rank p50: 175153 and 126183 µs.
    EXPECT_EQ(diff.steps.base.durations,
        (std::vector<TimeNs> { 175153 * kUs, 179733 * kUs, 174564 * kUs, 182172 * kUs, 165983 * kUs }));
    EXPECT_EQ(diff.steps.fresh.durations,
        (std::vector<TimeNs> { 126183 * kUs, 127181 * kUs, 123079 * kUs, 163461 * kUs, 124198 * kUs }));
    EXPECT_EQ(diff.steps.base.p50Ns, 175153 * kUs);
    EXPECT_EQ(diff.steps.fresh.p50Ns, 126183 * kUs);
    EXPECT_EQ(diff.steps.deltaP50Ns, (126183 - 175153) * kUs);
    EXPECT_EQ(diff.steps.base.warmup, 1u);
    // Every NEW step is shorter than every BASE step: U = 25, exact p = 2 / C(10, 5) = 2/252.
    ASSERT_TRUE(diff.steps.test);
    EXPECT_DOUBLE_EQ(diff.steps.test->u, 25.0);
    EXPECT_NEAR(diff.steps.test->pValue, 2.0 / 252.0, 1e-12);
    ASSERT_TRUE(diff.steps.interval95);
    EXPECT_LT(diff.steps.interval95->high, 0);
    EXPECT_GE(diff.steps.interval95->low, (123079 - 182172) * kUs);
    EXPECT_LE(diff.steps.interval95->high, (163461 - 165983) * kUs);
    EXPECT_EQ(diff.steps.verdict, Verdict::Faster);
    EXPECT_FALSE(diff.steps.caveat.empty());
    // The data loader off the main thread: host idle falls.
    const DeviceDiff* d = activeDevice(diff);
    ASSERT_NE(d, nullptr);
    ASSERT_TRUE(d->fresh);
    const auto host = static_cast<std::size_t>(GapCause::Host);
    EXPECT_LT(d->fresh->idleByCause[host], d->base->idleByCause[host]);
    EXPECT_LT(d->fresh->idleNs, d->base->idleNs);
    EXPECT_GT(d->fresh->utilization, d->base->utilization);
}

TEST(CompareRuns, HtaTraceDiffKernelCountsAndTotals)
{
    const Analyzed control = analyzed(load(kHtaControl), {});
    const Analyzed test = analyzed(load(kHtaTest), {});
    const RunDiff diff = diffOf(control, test);
    // Computed independently with a Python script over the gzip JSON (every `kernel` event, count and
    // sum of dur per name): 170 kernel names in control, 131 in test, 104 in both, 27 new, 66 gone.
    std::size_t both = 0;
    std::size_t fresh = 0;
    std::size_t gone = 0;
    for (const KernelDiff& k : diff.kernels) {
        both += k.base && k.fresh;
        fresh += !k.base;
        gone += !k.fresh;
    }
    EXPECT_EQ(both, 104u);
    EXPECT_EQ(fresh, 27u);
    EXPECT_EQ(gone, 66u);
    const auto find = [&](const std::string& name) {
        const auto it = std::find_if(
            diff.kernels.begin(), diff.kernels.end(), [&](const KernelDiff& k) { return k.name == name; });
        return it == diff.kernels.end() ? nullptr : &*it;
    };
    // Second-largest change in total time: the all-reduce, 18 -> 21 kernels, 32.880 -> 92.082 ms.
    const KernelDiff* allReduce = find("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)");
    ASSERT_NE(allReduce, nullptr);
    EXPECT_EQ(allReduce->base->count, 18u);
    EXPECT_EQ(allReduce->fresh->count, 21u);
    EXPECT_EQ(allReduce->deltaCount(), 3);
    EXPECT_EQ(allReduce->deltaTotalNs(), 59202000);
    EXPECT_EQ(&diff.kernels[1], allReduce);
    const KernelDiff* sendRecv = find("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclWorkElem)");
    ASSERT_NE(sendRecv, nullptr);
    EXPECT_EQ(sendRecv->base->totalNs, 130655000);
    EXPECT_EQ(sendRecv->fresh->totalNs, 159259000);
    EXPECT_EQ(sendRecv->deltaCount(), 1);
    EXPECT_EQ(&diff.kernels[3], sendRecv);
    // New in test: 218 volta_sgemm_128x32_nt kernels, 27.836 ms.
    const KernelDiff* sgemm = find("volta_sgemm_128x32_nt");
    ASSERT_NE(sgemm, nullptr);
    EXPECT_FALSE(sgemm->base);
    EXPECT_EQ(sgemm->fresh->count, 218u);
    EXPECT_EQ(sgemm->deltaTotalNs(), 27836000);
    // Steps: six each (no warm-up asked), by the TensorBoard plugin's rule computed with a Python script from the
    // JSON: control 75656, 76800, 76234, 76727, 78473, 81120 µs; test 157408, 117128, 114802, 123104, 116692,
    // 116143 µs. Every test step is longer: U = 0, exact p = 2 / C(12, 6) = 2/924; p50 76727 -> 116692 µs.
    EXPECT_EQ(diff.steps.base.p50Ns, 76727 * kUs);
    EXPECT_EQ(diff.steps.fresh.p50Ns, 116692 * kUs);
    EXPECT_NEAR(diff.steps.test->pValue, 2.0 / 924.0, 1e-12);
    EXPECT_EQ(diff.steps.verdict, Verdict::Slower);
    // Different GPU models (A100 against V100): said.
    const auto mentions = [&](const std::string& text) {
        return std::any_of(diff.warnings.begin(), diff.warnings.end(),
            [&](const std::string& w) { return w.find(text) != std::string::npos; });
    };
    EXPECT_TRUE(mentions("different GPU models")) << testing::PrintToString(diff.warnings);
    EXPECT_TRUE(mentions("A100")) << testing::PrintToString(diff.warnings);
}

TEST(CompareRuns, WithoutStepsOnlyTheWindowFiguresCompare)
{
    const std::string simpleAdd = "hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz";
    const Analyzed a = analyzed(load(simpleAdd), {});
    const Analyzed b = analyzed(load(simpleAdd), {});
    const RunDiff diff = diffOf(a, b);
    EXPECT_EQ(diff.steps.verdict, Verdict::NoVerdict);
    EXPECT_FALSE(diff.steps.test);
    EXPECT_NE(diff.steps.reason.find("neither side has counted steps"), std::string::npos) << diff.steps.reason;
    ASSERT_FALSE(diff.devices.empty());
    EXPECT_EQ(figuresDelta(*diff.devices.front().base, *diff.devices.front().fresh).busyNs, 0);
}

TEST(CompareRuns, DevicesMatchByRankAndWarningsNameTheDifferences)
{
    // BASE: ranks 0 and 1, each one kernel per device 0; NEW: rank 0 only, and an extra event kind (memcpy).
    Trace base = test::HandTrace()
                     .process(10, 0)
                     .kernel(7, 0, 50)
                     .kernel(7, 60, 100)
                     .process(11, 1)
                     .kernel(7, 0, 80)
                     .kernel(7, 90, 100)
                     .build();
    Trace fresh = test::HandTrace().process(20, 0).kernel(7, 0, 40).kernel(7, 50, 100).memcpy(7, 40, 45).build();
    const Analyzed b = analyzed(std::move(base), {});
    const Analyzed n = analyzed(std::move(fresh), {});
    const RunDiff diff = diffOf(b, n);
    // The builder's first process (pid 100) has no events: devices are those of ranks 0 and 1.
    std::vector<const DeviceDiff*> ranked;
    for (const DeviceDiff& d : diff.devices) {
        if (d.rank)
            ranked.push_back(&d);
    }
    ASSERT_EQ(ranked.size(), 2u);
    EXPECT_EQ(*ranked[0]->rank, 0);
    ASSERT_TRUE(ranked[0]->base && ranked[0]->fresh);
    // Rank 0: busy 90 of 100 µs, then 95 of 100 (kernel 0-40, memcpy 40-45, kernel 50-100).
    EXPECT_EQ(ranked[0]->base->busyNs, 90 * kUs);
    EXPECT_EQ(ranked[0]->fresh->busyNs, 95 * kUs);
    EXPECT_EQ(figuresDelta(*ranked[0]->base, *ranked[0]->fresh).idleNs, -5 * kUs);
    EXPECT_EQ(*ranked[1]->rank, 1);
    EXPECT_TRUE(ranked[1]->base);
    EXPECT_FALSE(ranked[1]->fresh);
    const auto mentions = [&](const std::string& text) {
        return std::any_of(diff.warnings.begin(), diff.warnings.end(),
            [&](const std::string& w) { return w.find(text) != std::string::npos; });
    };
    EXPECT_TRUE(mentions("different rank counts")) << testing::PrintToString(diff.warnings);
    EXPECT_TRUE(mentions("only NEW has memcpy")) << testing::PrintToString(diff.warnings);
}

} // namespace
} // namespace gapscope
