// SPDX-License-Identifier: MIT
// What `diff` reads from rank summaries (core/summary/summary_run.h), on hand-built summaries whose answers are
// worked out below.
#include "core/summary/summary_run.h"

#include <gtest/gtest.h>

namespace gapscope {
namespace {

RankSummary rank(std::optional<int> number, const std::string& source, std::int64_t pid)
{
    RankSummary r;
    r.source = source;
    r.pid = pid;
    r.rank = number;
    r.skippedEvents = 3;
    DeviceSummary d;
    d.id = number.value_or(0);
    d.name = "A100";
    d.windowStart = 1'000;
    d.windowEnd = 11'000;
    d.spanNs = 10'000;
    d.busyNs = 6'000;
    d.idleNs = 4'000;
    d.utilization = 0.6;
    d.gapCount = 2;
    d.idleByCause[static_cast<int>(GapCause::Host)] = 4'000;
    r.devices.push_back(d);
    return r;
}

TEST(SummaryRun, DevicesStepsAndGapsOfTheRanks)
{
    RankSummary a = rank(0, "job.json", 10);
    a.stepDurationsNs = { 500, 700 };
    a.warmupSteps = 1;
    a.longestGaps = { { 0, 3'000, 5'500, GapCause::Host, "host gap" }, { 0, 8'000, 8'100, GapCause::Sync, "sync" } };
    RankSummary b = rank(1, "job.json", 11); // the same file: its skipped-event count is the file's, counted once
    b.stepDurationsNs = { 600 };
    b.longestGaps = { { 1, 1'500, 4'500, GapCause::Launch, "launch gap" } };
    RankSummary c = rank(std::nullopt, "other.json", 12);
    c.devices[0].name = "H100";

    const RunSummary run = runSummaryFromRanks({ a, b, c }, "label", 2);
    EXPECT_EQ(run.label, "label");
    EXPECT_EQ(run.processCount, 3u);
    EXPECT_EQ(run.ranks, (std::vector<int> { 0, 1 }));
    ASSERT_EQ(run.devices.size(), 3u);
    EXPECT_EQ(run.devices[1].rankKey, 1);
    EXPECT_EQ(run.devices[2].rankKey, -3); // no rank: -1 - its index, as summarizeRun() numbers processes
    EXPECT_EQ(run.devices[0].figures.busyNs, 6'000);
    EXPECT_DOUBLE_EQ(run.devices[0].figures.utilization, 0.6);
    EXPECT_EQ(run.devices[0].figures.idleByCause[static_cast<int>(GapCause::Host)], 4'000);
    EXPECT_EQ(run.stepDurations, (std::vector<TimeNs> { 500, 700, 600 }));
    EXPECT_EQ(run.warmupSteps, 1u);
    // The two longest over the ranks: rank 1's 3000 ns gap, then rank 0's 2500 ns one, counted from the window start.
    ASSERT_EQ(run.longestGaps.size(), 2u);
    EXPECT_EQ(run.longestGaps[0].rank, 1);
    EXPECT_EQ(run.longestGaps[0].durationNs, 3'000);
    EXPECT_EQ(run.longestGaps[0].startFromWindowNs, 500);
    EXPECT_EQ(run.longestGaps[0].cause, GapCause::Launch);
    EXPECT_EQ(run.longestGaps[1].evidence, "host gap");
    EXPECT_EQ(run.longestGaps[1].startFromWindowNs, 2'000);
    EXPECT_EQ(run.gpuModels, (std::vector<std::string> { "A100", "H100" }));
    EXPECT_TRUE(run.hasGpuActivity);
    EXPECT_TRUE(run.kernels.empty());
    ASSERT_EQ(run.importNotes.size(), 1u);
    EXPECT_EQ(run.importNotes[0].warning.message, "6 malformed event(s) skipped"); // 3 per file, two files
}

TEST(SummaryRun, OptionsComeFromTheSummariesAndMismatchesAreNamed)
{
    RankSummary a = rank(0, "a.json", 10);
    a.window = WindowKind::Steps;
    a.warmupSteps = 2;
    a.launchThresholdNs = 50'000;
    const AnalysisOptions options = analysisOptionsOf({ a });
    EXPECT_EQ(options.window.kind, WindowKind::Steps);
    EXPECT_EQ(options.window.warmupSteps, 2);
    EXPECT_EQ(options.launchThresholdNs, 50'000);
    EXPECT_TRUE(summaryOptionMismatches({ a, a }).empty());

    RankSummary b = rank(1, "b.json", 11);
    const auto problems = summaryOptionMismatches({ a, b });
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0],
        "b.json (pid 11) was summarized with window gpu, activity all, launch threshold 30000 ns, unlike a.json "
        "(window steps, activity all, launch threshold 50000 ns)");
}

} // namespace
} // namespace gapscope
