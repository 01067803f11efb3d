// SPDX-License-Identifier: MIT
// `gapscope critical-path` and `gapscope whatif` on the ResNet-50 sample with the data loader on the main thread.
#include "cli/commands.h"
#include "core/model/event.h"
#include "tests/cli/cli_run.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gapscope::cli {
namespace {

const std::string kResnet = test::dataPath(test::kResnet50Trace);

TimeNs categorySum(const nlohmann::json& byCategory)
{
    TimeNs sum = 0;
    for (const char* key : { "cpu", "launch", "compute", "communication", "memcpy", "sync", "unexplained" })
        sum += byCategory.at(key).get<TimeNs>();
    return sum;
}

TEST(CriticalPathCommand, JsonOfAStepHasTheWindowTheCategoriesAndTheSlack)
{
    const auto r = test::run(runCriticalPath, { "--json", "--step", "7", kResnet });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["window"]["kind"], "step");
    EXPECT_EQ(doc["window"]["name"], "ProfilerStep#7");
    // The TensorBoard plugin's step 7: 179.733 ms.
    const TimeNs length = doc["window"]["end_ns"].get<TimeNs>() - doc["window"]["start_ns"].get<TimeNs>();
    EXPECT_EQ(length, 179'733'000);
    EXPECT_EQ(doc["length_ns"].get<TimeNs>(), length);
    EXPECT_EQ(categorySum(doc["by_category_ns"]), length);
    ASSERT_FALSE(doc["top"].empty());
    EXPECT_EQ(doc["top"][0]["name"], "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
    EXPECT_EQ(doc["top"][0]["category"], "cpu");
    EXPECT_LE(doc["top"].size(), 20u);
    ASSERT_FALSE(doc["slack"].empty());
    for (const auto& s : doc["slack"])
        EXPECT_GT(s["slack_ns"].get<TimeNs>(), 0);
    // The segments tile the window.
    TimeNs at = doc["window"]["start_ns"].get<TimeNs>();
    for (const auto& s : doc["segments"]) {
        EXPECT_EQ(s["start_ns"].get<TimeNs>(), at);
        at = s["end_ns"].get<TimeNs>();
    }
    EXPECT_EQ(at, doc["window"]["end_ns"].get<TimeNs>());
}

TEST(CriticalPathCommand, WithoutAStepTheTextIsOfTheMedianCountedStep)
{
    // Nearest-rank median of steps 6-10 (165.983 ... 182.2 ms; #5, 187.948 ms, is warm-up): ProfilerStep#6,
    // 175.153 ms.
    const auto r = test::run(runCriticalPath, { kResnet });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("Critical path of ProfilerStep#6 of process"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("the median counted step (warm-up 1 excluded)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Slack of the longest ops off the path"), std::string::npos);
    // The warm-up step itself when named.
    const auto warmup = test::run(runCriticalPath, { "--json", "--step", "5", kResnet });
    ASSERT_EQ(warmup.exitCode, 0) << warmup.err;
    const auto doc = nlohmann::json::parse(warmup.out);
    EXPECT_EQ(doc["window"]["name"], "ProfilerStep#5");
    EXPECT_EQ(doc["length_ns"].get<TimeNs>(), 187'948'000);
    EXPECT_EQ(doc["warmup_steps"].get<int>(), 0);
}

TEST(CriticalPathCommand, AnUnknownStepListsTheSteps)
{
    const auto r = test::run(runCriticalPath, { "--step", "99", kResnet });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("ProfilerStep#5, ProfilerStep#6"), std::string::npos) << r.err;
}

TEST(WhatIfCommand, WithoutTheDataLoaderEveryStepIsShorter)
{
    const auto r = test::run(runWhatIf, { "--json", "--scale", "__next__=0", kResnet });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    // Steps 6-10: ProfilerStep#5 is warm-up, as diff --note leaves it out of the measurement.
    EXPECT_EQ(doc["warmup_steps"].get<int>(), 1);
    ASSERT_EQ(doc["steps"].size(), 5u);
    // Measured: the TensorBoard plugin's step times; p50 175.153 ms (nearest rank).
    EXPECT_EQ(doc["steps"][0]["name"], "ProfilerStep#6");
    EXPECT_EQ(doc["steps"][0]["measured_ns"].get<TimeNs>(), 175'153'000);
    EXPECT_EQ(doc["measured_p50_ns"].get<TimeNs>(), 175'153'000);
    TimeNs predictedTotal = 0;
    for (const auto& s : doc["steps"]) {
        EXPECT_LT(s["predicted_ns"].get<TimeNs>(), s["measured_ns"].get<TimeNs>());
        predictedTotal += s["predicted_ns"].get<TimeNs>();
    }
    EXPECT_EQ(categorySum(doc["by_category_ns"]), predictedTotal);
    EXPECT_LT(doc["predicted_p50_ns"].get<TimeNs>(), doc["measured_p50_ns"].get<TimeNs>());
    // Each step's own __next__, and in steps 6-9 the start of the next one, which begins before their GPU work ends.
    EXPECT_EQ(doc["scale"][0]["matched_ops"].get<std::size_t>(), 9u);

    const auto text = test::run(runWhatIf, { "--scale", "__next__=0", kResnet });
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("over 5 steps (warm-up 1 excluded, as diff --note measures)"), std::string::npos)
        << text.out;
    const auto all = test::run(runWhatIf, { "--json", "--warmup", "0", "--scale", "__next__=0", kResnet });
    ASSERT_EQ(all.exitCode, 0) << all.err;
    EXPECT_EQ(nlohmann::json::parse(all.out)["steps"].size(), 6u);
}

TEST(WhatIfCommand, NothingToChangeIsAUsageError)
{
    const auto r = test::run(runWhatIf, { kResnet });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("nothing to change"), std::string::npos);
    const auto bad = test::run(runWhatIf, { "--scale", "nccl", kResnet });
    EXPECT_EQ(bad.exitCode, 2);
}

} // namespace
} // namespace gapscope::cli
