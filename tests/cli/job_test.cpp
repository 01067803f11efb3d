// SPDX-License-Identifier: MIT
// `gapscope job`, `gapscope summarize` and the Job section of `gapscope report` on the 8-rank param DLRM job.
// Expected figures: tests/tools/collective_skew.py (see tests/core/job_real_traces_test.cpp).
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

using test::run;
using test::RunResult;

const std::string kDlrmDir = "multirank/param_dlrm";

fs::path freshDir(const std::string& name)
{
    const fs::path dir = fs::temp_directory_path() / name;
    fs::remove_all(dir);
    return dir;
}

void expectDlrmJob(const nlohmann::json& job)
{
    EXPECT_EQ(job["ranks"], nlohmann::json({ 0, 1, 2, 3, 4, 5, 6, 7 }));
    EXPECT_EQ(job["world_size"], 8);
    EXPECT_EQ(job["matching"], "order");
    ASSERT_EQ(job["collectives"].size(), 8u);
    const std::int64_t skewsUs[] = { 7624, 1101, 168, 125, 223, 534, 584, 885 };
    const int last[] = { 7, 7, 7, 7, 7, 5, 5, 4 };
    for (std::size_t i = 0; i < 8; ++i) {
        const auto& c = job["collectives"][i];
        EXPECT_EQ(c["skew_ns"].get<std::int64_t>(), skewsUs[i] * 1000) << i;
        EXPECT_EQ(c["last_rank"], last[i]) << i;
        EXPECT_LT(c["end_spread_ns"].get<std::int64_t>(), 10'000) << i;
        ASSERT_EQ(c["arrivals_ns"].size(), 8u);
    }
    EXPECT_EQ(job["collectives"][0]["arrivals_ns"][7].get<std::int64_t>(), 1694128201431930 * 1000);
    EXPECT_EQ(job["straggler"]["rank"], 7);
    EXPECT_EQ(job["straggler"]["times_last"], 5);
    EXPECT_EQ(job["total_wait_ns"].get<std::int64_t>(), 46843 * 1000);
    ASSERT_EQ(job["per_rank"].size(), 8u);
    EXPECT_EQ(job["per_rank"][1]["wait_ns"].get<std::int64_t>(), 11125 * 1000);
    // DLRM rank 0: busy 6590 µs of a 13009 µs span (union computed independently, rank_summary_test.cpp).
    EXPECT_EQ(job["per_rank"][0]["busy_ns"].get<std::int64_t>(), 6590 * 1000);
    EXPECT_EQ(job["per_rank"][0]["span_ns"].get<std::int64_t>(), 13009 * 1000);
}

TEST(JobCommand, JsonOnTheDlrmFolderMatchesEveryCollective)
{
    const RunResult r = run(runJob, { "--json", "--threads", "2", test::dataPath(kDlrmDir) });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["files"], 8);
    expectDlrmJob(doc["job"]);
}

// The summaries `job -o DIR` writes are enough for the job: `job DIR` over them gives the same report.
TEST(JobCommand, SummariesAloneGiveTheSameJobReport)
{
    const fs::path dir = freshDir("gapscope_job_test_out");
    const RunResult first = run(runJob, { "-o", dir.string(), test::dataPath(kDlrmDir) });
    ASSERT_EQ(first.exitCode, 0) << first.err;
    EXPECT_NE(first.out.find("straggler    rank 7, last in 5 of 8 collectives (62.5 %)"), std::string::npos)
        << first.out;
    for (int r = 0; r < 8; ++r)
        EXPECT_TRUE(fs::exists(dir / ("rank-0000" + std::to_string(r) + ".summary.json"))) << r;
    ASSERT_TRUE(fs::exists(dir / "job.txt"));
    ASSERT_TRUE(fs::exists(dir / "job.json"));
    std::ifstream saved(dir / "job.txt");
    std::stringstream text;
    text << saved.rdbuf();
    EXPECT_EQ(text.str(), first.out);

    const RunResult again = run(runJob, { "--json", dir.string() });
    ASSERT_EQ(again.exitCode, 0) << again.err;
    const auto fromSummaries = nlohmann::json::parse(again.out);
    const auto fromTraces = nlohmann::json::parse(run(runJob, { "--json", test::dataPath(kDlrmDir) }).out);
    EXPECT_EQ(fromSummaries["job"]["collectives"], fromTraces["job"]["collectives"]);
    EXPECT_EQ(fromSummaries["job"]["straggler"], fromTraces["job"]["straggler"]);
    // Only the file names differ: the per-rank rows name the traces the summaries came from.
    EXPECT_EQ(fromSummaries["job"]["per_rank"], fromTraces["job"]["per_rank"]);
    fs::remove_all(dir);
}

TEST(JobCommand, UnreadableFileIsNamedAndTheRestReported)
{
    const fs::path dir = freshDir("gapscope_job_test_bad");
    fs::create_directories(dir);
    for (const auto& entry : fs::directory_iterator(test::dataPath(kDlrmDir)))
        fs::copy_file(entry.path(), dir / entry.path().filename());
    std::ofstream(dir / "worker8_broken.json") << "{\"traceEvents\": [";
    const RunResult r = run(runJob, { "--json", dir.string() });
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("worker8_broken.json"), std::string::npos) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc["errors"].size(), 1u);
    EXPECT_EQ(doc["job"]["ranks"].size(), 8u);
    EXPECT_EQ(doc["job"]["collectives"].size(), 8u);
    fs::remove_all(dir);
}

TEST(JobCommand, BadArgumentsExitTwo)
{
    EXPECT_EQ(run(runJob, {}).exitCode, 2);
    EXPECT_EQ(run(runJob, { "--threads", "x", "a" }).exitCode, 2);
    EXPECT_EQ(run(runJob, { "--nope", "a" }).exitCode, 2);
    const RunResult missing = run(runJob, { "/no/such/folder" });
    EXPECT_EQ(missing.exitCode, 1);
    EXPECT_NE(missing.err.find("/no/such/folder: no such file or folder"), std::string::npos);
}

TEST(ReportCommand, SeveralRanksGetAJobSection)
{
    std::vector<std::string> args { "--json" };
    for (const auto& entry : fs::directory_iterator(test::dataPath(kDlrmDir)))
        args.push_back(entry.path().string());
    const RunResult r = run(runReport, args);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    expectDlrmJob(nlohmann::json::parse(r.out)["job"]);

    args.erase(args.begin());
    const RunResult text = run(runReport, args);
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("Job: 8 ranks (0-7) of a world of 8; 8 collectives matched by (kernel name, order of "
                            "occurrence)"),
        std::string::npos)
        << text.out;
}

TEST(SummarizeCommand, WritesOneSummaryPerRank)
{
    const fs::path dir = freshDir("gapscope_summarize_test");
    fs::create_directories(dir);
    const std::string out = (dir / "two.summary.json").string();
    const RunResult r = run(runSummarize,
        { test::dataPath("hta/trace_filter/sampled_rank-0.json.gz"),
            test::dataPath("hta/trace_filter/sampled_rank-1.json.gz"), "-o", out });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::ifstream in(out);
    const auto doc = nlohmann::json::parse(in);
    EXPECT_EQ(doc["format"], "gapscope-summary");
    ASSERT_EQ(doc["ranks"].size(), 2u);
    EXPECT_EQ(doc["ranks"][1]["rank"], 1);
    EXPECT_EQ(doc["ranks"][1]["world_size"], 128);
    // The collectives are a text table, one row per kernel separated by ';': 10 NCCL kernels, the first
    // ncclKernel_SendRecv (name 1) of no known collective (0) or group (0), no seq, on device 0, starting at
    // 1682725898094377 µs, 30669 µs long, exposed from 0 to its end but for what compute overlaps.
    const std::string table = doc["ranks"][0]["collectives"];
    EXPECT_EQ(std::count(table.begin(), table.end(), ';'), 9);
    EXPECT_TRUE(table.starts_with("1 0 0 - 0 1682725898094377000 30669000 0 ")) << table.substr(0, 80);
    EXPECT_TRUE(doc["ranks"][0]["collective_names"][1].get<std::string>().starts_with("ncclKernel_SendRecv"));
    // HTA's rank 0, union computed independently (as in real_trace_figures_test.cpp): span 1222847 µs, busy 547656 µs.
    EXPECT_EQ(doc["ranks"][0]["devices"][0]["span_ns"].get<std::int64_t>(), 1222847 * 1000);
    EXPECT_EQ(doc["ranks"][0]["devices"][0]["busy_ns"].get<std::int64_t>(), 547656 * 1000);
    EXPECT_EQ(run(runSummarize, { "a.json" }).exitCode, 2);
    fs::remove_all(dir);
}

} // namespace
} // namespace gapscope::cli
