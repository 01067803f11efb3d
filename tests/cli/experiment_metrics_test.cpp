// SPDX-License-Identifier: MIT
// `--metric` on `diff` and `report` over the real ResNet-50 traces, and the metric options' errors.

#include "app/cli/commands.h"
#include "tests/cli/cli_run.h"
#include "tests/test_paths.h"

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

const nlohmann::json& metricNamed(const nlohmann::json& doc, const std::string& name)
{
    for (const nlohmann::json& m : doc["metrics"]) {
        if (m["name"] == name)
            return m;
    }
    static const nlohmann::json none;
    ADD_FAILURE() << "no metric " << name;
    return none;
}

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
