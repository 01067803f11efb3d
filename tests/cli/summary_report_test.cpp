// SPDX-License-Identifier: MIT
// `gapscope report` and `gapscope diff` on `.summary.json` files: the figures a summary keeps are the figures the
// traces give. The 8-rank param DLRM job and the ResNet-50 pair of the TensorBoard plugin (tests/data/NOTICE.md).
#include "cli/commands.h"
#include "tests/cli/cli_run.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace gapscope::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using test::run;
using test::RunResult;

constexpr std::int64_t kUs = 1000;
const std::string kResnet0 = test::dataPath(test::kResnet50Trace);
const std::string kResnet4 = test::dataPath(test::kResnet50Workers4Trace);

/// The DLRM ranks' files in rank order (worker0 ... worker7).
std::vector<std::string> dlrmFiles()
{
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(test::dataPath("multirank/param_dlrm")))
        files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

fs::path freshDir(const std::string& name)
{
    const fs::path dir = fs::temp_directory_path() / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

/// One summary file per trace, as each rank of a job would write its own: DIR/rank-N.summary.json.
std::vector<std::string> summarizeEach(
    const std::vector<std::string>& traces, const fs::path& dir, const std::vector<std::string>& options = {})
{
    std::vector<std::string> summaries;
    for (std::size_t i = 0; i < traces.size(); ++i) {
        const std::string out = (dir / ("rank-" + std::to_string(i) + ".summary.json")).string();
        std::vector<std::string> args = options;
        args.push_back(traces[i]);
        args.push_back("-o");
        args.push_back(out);
        const RunResult r = run(runSummarize, args);
        EXPECT_EQ(r.exitCode, 0) << r.err;
        summaries.push_back(out);
    }
    return summaries;
}

json reportJson(std::vector<std::string> inputs, const std::vector<std::string>& options = {})
{
    std::vector<std::string> args { "--json" };
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), inputs.begin(), inputs.end());
    const RunResult r = run(runReport, args);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return r.exitCode == 0 ? json::parse(r.out) : json();
}

/// A diff's gap lists without the name of the run each gap is from (a summary's path, or a trace's).
json withoutRunLabels(json gaps)
{
    for (auto& [side, list] : gaps.items()) {
        for (json& gap : list)
            gap.erase("run");
    }
    return gaps;
}

TEST(SummaryReport, TheDlrmFiguresFromSummariesEqualThoseFromTheTraces)
{
    const fs::path dir = freshDir("gapscope_summary_report_test");
    const std::vector<std::string> traces = dlrmFiles();
    const std::vector<std::string> summaries = summarizeEach(traces, dir);
    const json fromTraces = reportJson(traces);
    const json fromSummaries = reportJson(summaries, { "--top", "10" });
    ASSERT_TRUE(fromTraces.is_object());
    ASSERT_TRUE(fromSummaries.is_object());

    for (const char* key : { "activity", "launch_threshold_ns", "gpu_activity", "job" })
        EXPECT_EQ(fromSummaries[key], fromTraces[key]) << key;
    EXPECT_EQ(fromSummaries["window"], fromTraces["window"]);
    EXPECT_EQ(fromSummaries["import"]["skipped_events"], fromTraces["import"]["skipped_events"]);

    ASSERT_EQ(fromSummaries["processes"].size(), 8u);
    ASSERT_EQ(fromSummaries["processes"].size(), fromTraces["processes"].size());
    for (std::size_t p = 0; p < 8; ++p) {
        for (const char* key : { "pid", "name", "file", "rank", "step_summary" })
            EXPECT_EQ(fromSummaries["processes"][p][key], fromTraces["processes"][p][key]) << p << " " << key;
    }
    ASSERT_EQ(fromSummaries["devices"].size(), 8u);
    ASSERT_EQ(fromSummaries["devices"].size(), fromTraces["devices"].size());
    for (std::size_t d = 0; d < 8; ++d) {
        const json& s = fromSummaries["devices"][d];
        const json& t = fromTraces["devices"][d];
        for (const char* key : { "process", "rank", "id", "name", "span_ns", "busy_ns", "idle_ns", "utilization",
                 "gap_count", "idle_by_cause_ns", "exposed_ns" })
            EXPECT_EQ(s[key], t[key]) << d << " " << key;
        for (const char* key : { "kind", "start_ns", "end_ns" })
            EXPECT_EQ(s["window"][key], t["window"][key]) << d << " " << key;
    }
    // DLRM rank 0: busy 6590 µs of a 13009 µs span (the union computed independently, rank_summary_test.cpp).
    EXPECT_EQ(fromSummaries["devices"][0]["busy_ns"].get<std::int64_t>(), 6590 * kUs);
    EXPECT_EQ(fromSummaries["devices"][0]["span_ns"].get<std::int64_t>(), 13009 * kUs);

    // The job's 10 longest device gaps are among the ranks' 10 longest each: the same list as the traces' device
    // gaps (their list has the stream gaps too), evidence line included.
    json deviceGaps = json::array();
    for (const json& gap : fromTraces["gaps"]) {
        if (gap["stream"].is_null())
            deviceGaps.push_back(gap);
    }
    ASSERT_EQ(fromSummaries["gaps"].size(), 10u);
    ASSERT_GE(deviceGaps.size(), 10u);
    // Rank 3's 1.083 ms gap waiting on the data loader is the longest.
    EXPECT_EQ(fromSummaries["gaps"][0]["rank"], 3);
    EXPECT_EQ(fromSummaries["gaps"][0]["duration_ns"].get<std::int64_t>(), 1083 * kUs);
    EXPECT_EQ(fromSummaries["gaps"][0]["cause"], "host");
    for (std::size_t g = 0; g < 10; ++g) {
        const json& s = fromSummaries["gaps"][g];
        const json& t = deviceGaps[g];
        for (const char* key : { "process", "rank", "device", "stream", "start_ns", "end_ns", "duration_ns", "cause" })
            EXPECT_EQ(s[key], t[key]) << g << " " << key;
        EXPECT_EQ(s["evidence"]["summary"], t["evidence"]["summary"]) << g;
    }

    // The job section: all 8 collectives matched; rank 7 the straggler (tests/tools/collective_skew.py).
    EXPECT_EQ(fromSummaries["job"]["collectives"].size(), 8u);
    EXPECT_EQ(fromSummaries["job"]["straggler"]["rank"], 7);
    EXPECT_EQ(fromSummaries["job"]["total_wait_ns"].get<std::int64_t>(), 46843 * kUs);

    // What needs the events is said to be left out, not written empty.
    EXPECT_EQ(fromSummaries["source"], "summaries");
    EXPECT_FALSE(fromSummaries.contains("kernels"));
    EXPECT_FALSE(fromSummaries.contains("steps"));
    ASSERT_TRUE(fromSummaries["omitted"].is_array());
    EXPECT_NE(fromSummaries["omitted"].dump().find("the kernel table"), std::string::npos);
    fs::remove_all(dir);
}

TEST(SummaryReport, TextNamesWhatIsLeftOutAndPrintsTheJob)
{
    const fs::path dir = freshDir("gapscope_summary_report_text_test");
    // All eight ranks in one summary file, as `gapscope summarize TRACE... -o OUT` writes.
    std::vector<std::string> args = dlrmFiles();
    const std::string out = (dir / "dlrm.summary.json").string();
    args.push_back("-o");
    args.push_back(out);
    ASSERT_EQ(run(runSummarize, args).exitCode, 0);

    const RunResult r = run(runReport, { out });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(
        r.out.rfind("GapScope report from summaries: window gpu, activity all, launch threshold 30.00 µs\n", 0), 0u)
        << r.out.substr(0, 200);
    EXPECT_NE(r.out.find("Not in a summary (they need the traces):\n    the list of steps"), std::string::npos);
    EXPECT_NE(r.out.find("    the kernel table\n"), std::string::npos);
    EXPECT_NE(r.out.find("Longest device gaps\n"), std::string::npos);
    // The same Job section as from the traces.
    const RunResult fromTraces = run(runReport, dlrmFiles());
    const std::size_t jobAt = fromTraces.out.find("Job: 8 ranks");
    ASSERT_NE(jobAt, std::string::npos);
    EXPECT_NE(r.out.find(fromTraces.out.substr(jobAt)), std::string::npos) << r.out;
    fs::remove_all(dir);
}

TEST(SummaryReport, TracesAndSummariesTogetherOrUnreadableSummariesAreRefused)
{
    const fs::path dir = freshDir("gapscope_summary_report_bad_test");
    const std::vector<std::string> summaries = summarizeEach({ kResnet0 }, dir);
    const RunResult mixed = run(runReport, { summaries[0], kResnet4 });
    EXPECT_EQ(mixed.exitCode, 2);
    EXPECT_NE(mixed.err.find("not both"), std::string::npos) << mixed.err;

    const std::string broken = (dir / "broken.summary.json").string();
    std::ofstream(broken) << "{\"format\": \"gapscope-summary\", \"version\": 1, \"ranks\": [{}]}";
    const RunResult unreadable = run(runReport, { broken });
    EXPECT_EQ(unreadable.exitCode, 1);
    EXPECT_NE(unreadable.err.find(broken), std::string::npos) << unreadable.err;

    // Ranks summarized over different windows do not make one report.
    fs::create_directories(dir / "steps");
    const std::vector<std::string> steps = summarizeEach({ kResnet4 }, dir / "steps", { "--window", "steps" });
    const RunResult options = run(runReport, { summaries[0], steps[0] });
    EXPECT_EQ(options.exitCode, 1);
    EXPECT_NE(options.err.find("window steps"), std::string::npos) << options.err;
    fs::remove_all(dir);
}

TEST(SummaryDiff, ResNet50SummariesGiveTheTracesVerdictAndFigures)
{
    const fs::path dir = freshDir("gapscope_summary_diff_test");
    const std::vector<std::string> options { "--window", "steps", "--warmup", "1" };
    const std::vector<std::string> summaries = summarizeEach({ kResnet0, kResnet4 }, dir, options);
    const RunResult fromSummaries = run(runDiff, { "--json", summaries[0], summaries[1] });
    ASSERT_EQ(fromSummaries.exitCode, 0) << fromSummaries.err;
    std::vector<std::string> args { "--json" };
    args.insert(args.end(), options.begin(), options.end());
    args.push_back(kResnet0);
    args.push_back(kResnet4);
    const RunResult fromTraces = run(runDiff, args);
    ASSERT_EQ(fromTraces.exitCode, 0) << fromTraces.err;
    const json s = json::parse(fromSummaries.out);
    const json t = json::parse(fromTraces.out);

    // Steps 6-10 of each run (diff_test.cpp): p50 175153 µs against 126183 µs, faster.
    EXPECT_EQ(s["steps"]["base"]["count"], 5);
    EXPECT_EQ(s["steps"]["base"]["p50_ns"].get<std::int64_t>(), 175153 * kUs);
    EXPECT_EQ(s["steps"]["new"]["p50_ns"].get<std::int64_t>(), 126183 * kUs);
    EXPECT_EQ(s["steps"]["verdict"], "faster");
    EXPECT_NEAR(s["steps"]["p_value"].get<double>(), 2.0 / 252.0, 1e-12);
    EXPECT_EQ(s["steps"], t["steps"]);
    EXPECT_EQ(s["devices"], t["devices"]);
    EXPECT_EQ(withoutRunLabels(s["gaps"]), withoutRunLabels(t["gaps"]));
    EXPECT_EQ(s["activity"], t["activity"]);
    EXPECT_EQ(s["base"]["window"]["kind"], "steps");
    EXPECT_EQ(s["base"]["window"]["start_ns"], t["base"]["window"]["start_ns"]);
    EXPECT_EQ(s["base"]["window"]["end_ns"], t["base"]["window"]["end_ns"]);
    EXPECT_TRUE(s["kernels"].empty());
    EXPECT_NE(s["warnings"].dump().find("compared from summaries"), std::string::npos) << s["warnings"].dump();

    const RunResult text = run(runDiff, { summaries[0], summaries[1] });
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_EQ(text.out.rfind("Verdict: faster: step p50 175.2 ms -> 126.2 ms (-48.97 ms, -27.96 %)", 0), 0u)
        << text.out.substr(0, 300);

    const RunResult mixed = run(runDiff, { summaries[0], kResnet4 });
    EXPECT_EQ(mixed.exitCode, 2);
    EXPECT_NE(mixed.err.find("summaries with summaries"), std::string::npos) << mixed.err;
    fs::remove_all(dir);
}

TEST(SummaryDiff, AFolderOfRankSummariesIsOneRun)
{
    const fs::path dir = freshDir("gapscope_summary_diff_folder_test");
    const std::vector<std::string> traces = dlrmFiles();
    summarizeEach(traces, dir);
    const RunResult fromSummaries = run(runDiff, { "--json", dir.string(), dir.string() });
    ASSERT_EQ(fromSummaries.exitCode, 0) << fromSummaries.err;
    const RunResult fromTraces
        = run(runDiff, { "--json", test::dataPath("multirank/param_dlrm"), test::dataPath("multirank/param_dlrm") });
    ASSERT_EQ(fromTraces.exitCode, 0) << fromTraces.err;
    const json s = json::parse(fromSummaries.out);
    const json t = json::parse(fromTraces.out);
    ASSERT_EQ(s["devices"].size(), 8u);
    EXPECT_EQ(s["devices"], t["devices"]);
    EXPECT_EQ(s["steps"], t["steps"]);
    EXPECT_EQ(withoutRunLabels(s["gaps"]), withoutRunLabels(t["gaps"]));
    EXPECT_EQ(s["gaps"]["base"][0]["rank"], 3);
    EXPECT_EQ(s["base"]["runs"][0]["files"].size(), 8u);
    fs::remove_all(dir);
}

} // namespace
} // namespace gapscope::cli
