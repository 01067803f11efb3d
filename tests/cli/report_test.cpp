// SPDX-License-Identifier: MIT
#include "cli/commands.h"
#include "cli/report_options.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

namespace gapscope::cli {
namespace {

struct RunResult {
    int exitCode;
    std::string out;
    std::string err;
};

RunResult report(std::vector<std::string> args)
{
    std::ostringstream out;
    std::ostringstream err;
    const int code = runReport(args, out, err);
    return { code, out.str(), err.str() };
}

const std::string kResnet = test::kResnet50Trace;

TEST(ReportCommand, JsonOverStepsWithKernelsGivesTheTensorBoardFigures)
{
    const RunResult r = report({ "--json", "--window", "steps", "--activity", "kernels", test::dataPath(kResnet) });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["window"]["kind"], "steps");
    EXPECT_EQ(doc["activity"], "kernels");
    ASSERT_EQ(doc["devices"].size(), 1u);
    const auto& device = doc["devices"][0];
    // The PyTorch TensorBoard plugin reports 55.51 % GPU utilization for this trace.
    EXPECT_NEAR(device["utilization"].get<double>(), 0.5551, 0.00005);
    EXPECT_EQ(device["span_ns"].get<std::int64_t>(),
        device["busy_ns"].get<std::int64_t>() + device["idle_ns"].get<std::int64_t>());
    std::int64_t byCause = 0;
    for (const auto& [cause, ns] : device["idle_by_cause_ns"].items())
        byCause += ns.get<std::int64_t>();
    EXPECT_EQ(byCause, device["idle_ns"].get<std::int64_t>());
    const auto& exposed = device["exposed_ns"];
    EXPECT_EQ(exposed["compute"].get<std::int64_t>() + exposed["communication"].get<std::int64_t>()
            + exposed["memcpy"].get<std::int64_t>() + exposed["idle"].get<std::int64_t>(),
        device["span_ns"].get<std::int64_t>());
    // Step durations from the plugin, in µs.
    const std::int64_t expected[] = { 187948, 175153, 179733, 174564, 182172, 165983 };
    ASSERT_EQ(doc["steps"].size(), 6u);
    for (std::size_t i = 0; i < 6; ++i)
        EXPECT_EQ(doc["steps"][i]["end_ns"].get<std::int64_t>() - doc["steps"][i]["start_ns"].get<std::int64_t>(),
            expected[i] * 1000)
            << i;
    // Longest gap first, each with a cause and evidence.
    ASSERT_FALSE(doc["gaps"].empty());
    EXPECT_GE(doc["gaps"][0]["end_ns"].get<std::int64_t>() - doc["gaps"][0]["start_ns"].get<std::int64_t>(),
        doc["gaps"][1]["end_ns"].get<std::int64_t>() - doc["gaps"][1]["start_ns"].get<std::int64_t>());
    EXPECT_FALSE(doc["gaps"][0]["evidence"]["summary"].get<std::string>().empty());
    EXPECT_FALSE(doc["kernels"].empty());
}

TEST(ReportCommand, TwoRanksAreReportedSideBySide)
{
    const RunResult r = report({ "--json", "--top", "3", test::dataPath("hta/trace_filter/sampled_rank-0.json.gz"),
        test::dataPath("hta/trace_filter/sampled_rank-1.json.gz") });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc["devices"].size(), 2u);
    // Union figures from shared/data/traces/SOURCES.md (computed), per rank, in µs.
    EXPECT_EQ(doc["devices"][0]["rank"], 0);
    EXPECT_EQ(doc["devices"][0]["span_ns"], 1222847000);
    EXPECT_EQ(doc["devices"][0]["busy_ns"], 547656000);
    EXPECT_EQ(doc["devices"][1]["rank"], 1);
    EXPECT_EQ(doc["devices"][1]["span_ns"], 1231186000);
    EXPECT_EQ(doc["devices"][1]["idle_ns"], 651136000);
    EXPECT_EQ(doc["gaps"].size(), 3u);
    EXPECT_LE(doc["kernels"].size(), 3u);
}

TEST(ReportCommand, TextReportNamesWindowDeviceAndLongestGap)
{
    const RunResult r = report({ test::dataPath(kResnet) });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("window gpu"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("GPU 0 \u00b7 Tesla V100-DGXS-32GB"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("utilization 60.57 %"), std::string::npos) << r.out;
    // The longest gap of the demo: 62.34 ms waiting for the data loader.
    EXPECT_NE(r.out.find("62.34 ms"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("_SingleProcessDataLoaderIter.__next__"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Steps of "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(pid 25738)"), std::string::npos) << r.out;
}

TEST(ReportCommand, JsonEvidenceNamesEachLaneOnce)
{
    // The reader names the thread "thread 5555 (python)"; the report once printed "thread 5555 (thread 5555
    // (python))". Lanes are named by core/model/labels.h for every output.
    const RunResult r = report({ "--json", "--top", "3", test::dataPath(test::kResnet50Workers4Trace) });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc["gaps"].size(), 3u);
    for (const auto& gap : doc["gaps"]) {
        EXPECT_EQ(gap["evidence"]["launch"]["lane"], "thread 5555 (python)");
        EXPECT_EQ(gap["evidence"]["closing_op"]["lane"], "GPU 0 stream 7");
    }
}

TEST(ReportCommand, CpuOnlyTraceSaysNoGpuActivityAndSucceeds)
{
    const RunResult r = report({ test::dataPath("hta/rank_non_gpu/rank_non_gpu.json.gz") });
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("No GPU activity in this trace"), std::string::npos) << r.out;
    const RunResult j = report({ "--json", test::dataPath("hta/rank_non_gpu/rank_non_gpu.json.gz") });
    EXPECT_EQ(j.exitCode, 0);
    const auto doc = nlohmann::json::parse(j.out);
    EXPECT_EQ(doc["gpu_activity"], false);
    EXPECT_TRUE(doc["devices"].empty());
}

TEST(ReportCommand, BadFileNamesTheFileAndFails)
{
    const std::string missing = test::dataPath("no/such/trace.json");
    const RunResult r = report({ missing });
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find(missing), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
}

struct BadOption {
    const char* name;
    std::vector<std::string> args;
    const char* message;
};
class ReportOptionsReject : public ::testing::TestWithParam<BadOption> { };

TEST_P(ReportOptionsReject, WithAReason)
{
    const auto options = parseReportOptions(GetParam().args);
    ASSERT_FALSE(options.ok());
    EXPECT_EQ(options.error().message, GetParam().message);
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(runReport(GetParam().args, out, err), 2);
}

INSTANTIATE_TEST_SUITE_P(Cases, ReportOptionsReject,
    ::testing::Values(BadOption { "NoTrace", { "--json" }, "no trace given" },
        BadOption {
            "Activity", { "--activity", "copies", "t.json" }, "--activity must be all or kernels, got 'copies'" },
        BadOption { "Warmup", { "--warmup", "-1", "t.json" }, "--warmup must be a number of steps >= 0, got '-1'" },
        BadOption { "WindowMissingValue", { "t.json", "--window" }, "--window needs a value" },
        BadOption { "Unknown", { "--fast", "t.json" }, "unknown option '--fast'" }),
    [](const ::testing::TestParamInfo<BadOption>& info) { return std::string(info.param.name); });

struct TimeCase {
    const char* text;
    std::optional<TimeNs> ns;
};
class ParseTime : public ::testing::TestWithParam<TimeCase> { };
TEST_P(ParseTime, UnitsAndErrors)
{
    EXPECT_EQ(parseTime(GetParam().text), GetParam().ns);
}
INSTANTIATE_TEST_SUITE_P(Cases, ParseTime,
    ::testing::Values(TimeCase { "1500", 1500 }, TimeCase { "1500ns", 1500 }, TimeCase { "2.5us", 2500 },
        TimeCase { "3ms", 3000000 }, TimeCase { "1623142623.5s", 1623142623500000000 },
        TimeCase { "12x", std::nullopt }, TimeCase { "", std::nullopt },
        // Decimal text goes straight into int64 ns: through a double these were ...190080 ns and 176 ns off.
        TimeCase { "1694040009854190us", 1694040009854190000 },
        TimeCase { "1694040009854.190123ms", 1694040009854190123 },
        TimeCase { "1694040009.8541901234s", 1694040009854190123 }, TimeCase { "0.0005us", 1 },
        TimeCase { "0.0004us", 0 }, TimeCase { ".5us", 500 }, TimeCase { "-2.5us", -2500 }, TimeCase { "1.5ns", 2 },
        TimeCase { "9223372036854775808ns", std::nullopt }, TimeCase { "9223372036.854775808s", std::nullopt },
        TimeCase { "1.2.3ms", std::nullopt }, TimeCase { "1e3us", std::nullopt }, TimeCase { ".us", std::nullopt }));

TEST(ReportOptions, ExplicitWindowAndThreshold)
{
    const auto options
        = parseReportOptions({ "--window", "1ms:3ms", "--launch-threshold-us", "12.5", "--warmup", "2", "t.json" });
    ASSERT_TRUE(options.ok()) << options.error().message;
    EXPECT_EQ(options->analysis.window.kind, WindowKind::Explicit);
    EXPECT_EQ(options->analysis.window.explicitStart, 1000000);
    EXPECT_EQ(options->analysis.window.explicitEnd, 3000000);
    EXPECT_EQ(options->analysis.launchThresholdNs, 12500);
    EXPECT_EQ(options->analysis.window.warmupSteps, 2);
}

} // namespace
} // namespace gapscope::cli
