// SPDX-License-Identifier: MIT
// `--metric` on `diff` and `report` over the real ResNet-50 traces, and the metric options' errors.

#include "cli/commands.h"
#include "core/annotations/annotation_store.h"
#include "tests/cli/cli_run.h"
#include "tests/cli/metric_json.h"
#include "tests/temp_dir.h"
#include "tests/test_paths.h"

#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gapscope::cli {
namespace {

using test::RunResult;

constexpr std::int64_t kUs = 1000;
const std::string kResnet0
    = test::dataPath("kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
const std::string kResnet4
    = test::dataPath("kineto/tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz");

using test::metricNamed;

// ProfilerStep#6..#10 (warm-up #5 excluded: it ends before the steps window starts) last 173992, 176918, 181259,
// 176468, 164261 µs in num_workers_0 and 123884, 126824, 126272, 163461, 116146 µs in num_workers_4 (the CPU
// ranges' `dur`). Two copies per side: 10 values each, p50 the 5th: 176468 and 126272 µs; p95 the 10th: 181259
// and 163461 µs. Every NEW value lies below every BASE value: the exact Mann–Whitney p is 2 / C(20, 10), and the
// per-run medians {176468, 176468} and {126272, 126272} separate: faster, as the step verdict.
TEST(ExperimentMetrics, ProfilerStepRangesGiveTheStepVerdictOnResNet50)
{
    const RunResult r = test::run(runDiff,
        { "--json", "--window", "steps", "--warmup", "1", "--metric", "p=range:ProfilerStep", kResnet0, kResnet0, "--",
            kResnet4, kResnet4 });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["steps"]["verdict"], "faster");
    ASSERT_EQ(doc["metrics"].size(), 2u);

    const nlohmann::json& step = doc["metrics"][0];
    EXPECT_EQ(step["name"], "step");
    EXPECT_EQ(step["spec"], "step");
    EXPECT_EQ(step["p50"]["verdict"], doc["steps"]["verdict"]);
    EXPECT_EQ(step["base"]["p50_ns"], doc["steps"]["base"]["p50_ns"]);
    EXPECT_EQ(step["p50"]["p_value"], doc["steps"]["p_value"]);
    EXPECT_EQ(step["p50"]["ci95_ns"], doc["steps"]["ci95_ns"]);

    const nlohmann::json& p = metricNamed(doc, "p");
    EXPECT_EQ(p["spec"], "range:ProfilerStep");
    EXPECT_EQ(p["window"], "steps");
    EXPECT_EQ(p["base"]["n"], 10);
    EXPECT_EQ(p["base"]["runs"], 2);
    EXPECT_EQ(p["base"]["p50_ns"], 176468 * kUs);
    EXPECT_EQ(p["new"]["p50_ns"], 126272 * kUs);
    EXPECT_EQ(p["base"]["p95_ns"], 181259 * kUs);
    EXPECT_EQ(p["new"]["p95_ns"], 163461 * kUs);
    EXPECT_EQ(p["p50"]["delta_ns"], (126272 - 176468) * kUs);
    EXPECT_NEAR(p["p50"]["p_value"].get<double>(), 2.0 / 184756.0, 1e-12);
    EXPECT_EQ(p["p50"]["run_ranges_separate"], true);
    EXPECT_EQ(p["p50"]["verdict"], doc["steps"]["verdict"]);
    EXPECT_EQ(p["p95"]["delta_ns"], (163461 - 181259) * kUs);
    EXPECT_FALSE(p["side_effect"].get<bool>());
    EXPECT_EQ(doc["direction"]["metric"], "step");
    EXPECT_EQ(doc["direction"]["verdict"], "faster");

    const RunResult text = test::run(runDiff,
        { "--window", "steps", "--warmup", "1", "--metric", "p=range:ProfilerStep", kResnet0, kResnet0, "--", kResnet4,
            kResnet4 });
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("  p (range:ProfilerStep, window steps)\n    BASE n = 10, p50 176.5 ms"), std::string::npos)
        << text.out.substr(0, 2000);
    EXPECT_NE(text.out.find("side effects: none"), std::string::npos);
}

TEST(ExperimentMetrics, ReportGivesEachMetricsPercentiles)
{
    const RunResult r = test::run(
        runReport, { "--json", "--window", "steps", "--warmup", "1", "--metric", "p=range:ProfilerStep", kResnet0 });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc["metrics"].size(), 2u);
    EXPECT_EQ(doc["metrics"][0]["name"], "step");
    EXPECT_EQ(doc["metrics"][0]["n"], 5);
    EXPECT_EQ(doc["metrics"][0]["p50_ns"], 175153 * kUs); // the step figures of the steps window
    const nlohmann::json& p = doc["metrics"][1];
    EXPECT_EQ(p["spec"], "range:ProfilerStep");
    EXPECT_EQ(p["n"], 5);
    EXPECT_EQ(p["p50_ns"], 176468 * kUs);
    EXPECT_EQ(p["p95_ns"], 181259 * kUs);

    const RunResult text
        = test::run(runReport, { "--window", "steps", "--warmup", "1", "--metric", "p=range:ProfilerStep", kResnet0 });
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(
        text.out.find("  p (range:ProfilerStep, window steps): n = 5, p50 176.5 ms, p95 181.3 ms"), std::string::npos)
        << text.out;
}

// A note whose hypothesis names the metric: judged on it. One run per side, 5 ranges each: the resampled p95 of 5
// values is their maximum, and every NEW value (at most 163461 µs) lies below every BASE value (at least 164261 µs),
// so p95 is faster for certain: the hypothesis "p p95 rises" is refuted. Step and p both moved faster: no side
// effect.
TEST(ExperimentMetrics, ANoteWhoseHypothesisNamesAMetricIsJudgedOnIt)
{
    test::TempDir dir;
    const std::string before = dir.file("before.json.gz");
    std::filesystem::copy_file(kResnet0, before);
    {
        Annotation note;
        note.id = "workers";
        note.title = "Data loading in the step";
        note.record.hypothesis = "With four workers the P p95 rises (more processes contend)";
        AnnotationStore store = AnnotationStore::openForTrace(before);
        store.add(note);
        ASSERT_TRUE(store.save());
    }
    const RunResult r = test::run(runDiff,
        { "--window", "steps", "--warmup", "1", "--metric", "p=range:ProfilerStep", "--note", "workers", "--accept",
            before, kResnet4 });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("Proposed status: refuted (set)"), std::string::npos) << r.out;
    const AnnotationStore reread = AnnotationStore::openForTrace(before);
    const Annotation* note = reread.find("workers");
    ASSERT_NE(note, nullptr);
    EXPECT_EQ(note->status, AnnotationStatus::Refuted);
    EXPECT_EQ(note->record.sideEffects, "none");
    EXPECT_NE(note->record.performanceChange.find("The hypothesis names p p95 (range:ProfilerStep): faster, n = 5 vs "
                                                  "5; proposed status on it: refuted (p p95 moved the other way "
                                                  "(predicted to rise, faster))."),
        std::string::npos)
        << note->record.performanceChange;
}

// summarize --metric keeps each rank's values, and diff of the summaries judges them as of the traces.
TEST(ExperimentMetrics, SummariesKeepTheMetricsForDiff)
{
    test::TempDir dir;
    const std::string base = dir.file("base.summary.json");
    const std::string fresh = dir.file("new.summary.json");
    for (const auto& [trace, summary] : { std::pair { kResnet0, base }, std::pair { kResnet4, fresh } }) {
        const RunResult s = test::run(runSummarize,
            { "--window", "steps", "--warmup", "1", "--metric", "p=range:ProfilerStep", trace, "-o", summary });
        ASSERT_EQ(s.exitCode, 0) << s.err;
    }
    const RunResult r = test::run(runDiff, { "--json", "--metric", "p=range:ProfilerStep", base, fresh });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    const nlohmann::json& p = metricNamed(doc, "p");
    EXPECT_EQ(p["base"]["n"], 5);
    EXPECT_EQ(p["base"]["p50_ns"], 176468 * kUs);
    EXPECT_EQ(p["new"]["p50_ns"], 126272 * kUs);
    EXPECT_NEAR(p["p50"]["p_value"].get<double>(), 2.0 / 252.0, 1e-12); // every NEW value below every BASE one
    EXPECT_EQ(p["p50"]["verdict"], "faster");
    // A metric the summaries were not made with has no values.
    const RunResult other = test::run(runDiff, { "--json", "--metric", "q=range:Optimizer", base, fresh });
    ASSERT_EQ(other.exitCode, 0) << other.err;
    EXPECT_EQ(metricNamed(nlohmann::json::parse(other.out), "q")["p50"]["verdict"], "no verdict");
}

// report of summaries gives each metric over every rank's values: ProfilerStep#6..#10 of both runs pooled, 10
// values (see the top); sorted, the 5th (nearest-rank p50) is 163461 µs and the 10th (p95) 181259 µs.
TEST(ExperimentMetrics, ReportOfSummariesPoolsEachMetricOverTheRanks)
{
    test::TempDir dir;
    std::vector<std::string> summaries;
    for (const std::string& trace : { kResnet0, kResnet4 }) {
        summaries.push_back(dir.file(std::to_string(summaries.size()) + ".summary.json"));
        const RunResult s = test::run(runSummarize,
            { "--window", "steps", "--warmup", "1", "--metric", "p=range:ProfilerStep", trace, "-o",
                summaries.back() });
        ASSERT_EQ(s.exitCode, 0) << s.err;
    }
    const RunResult r = test::run(runReport, { "--json", summaries[0], summaries[1] });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    const nlohmann::json& p = metricNamed(doc, "p");
    EXPECT_EQ(p["spec"], "range:ProfilerStep");
    EXPECT_EQ(p["window"], "steps");
    EXPECT_EQ(p["n"], 10);
    EXPECT_EQ(p["ranks"], 2);
    EXPECT_EQ(p["p50_ns"], 163461 * kUs);
    EXPECT_EQ(p["p95_ns"], 181259 * kUs);

    const RunResult text = test::run(runReport, { summaries[0], summaries[1] });
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("  p (range:ProfilerStep, window steps, 2 rank(s)): n = 10, p50 163.5 ms, p95 181.3 ms"),
        std::string::npos)
        << text.out;
}

TEST(ExperimentMetrics, ABadMetricIsAUsageError)
{
    const RunResult bad = test::run(runDiff, { "--metric", "x=range:(", kResnet0, kResnet4 });
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("invalid regular expression"), std::string::npos) << bad.err;
    const RunResult twice
        = test::run(runDiff, { "--metric", "x=range:a", "--metric", "x=range:b", kResnet0, kResnet4 });
    EXPECT_EQ(twice.exitCode, 2);
    EXPECT_NE(twice.err.find("--metric x is given twice"), std::string::npos) << twice.err;
}

} // namespace
} // namespace gapscope::cli
