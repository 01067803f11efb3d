// SPDX-License-Identifier: MIT
#include "cli/commands.h"
#include "cli/diff_options.h"
#include "core/annotations/annotation_store.h"
#include "core/annotations/gap_explanation.h"
#include "core/io/trace_file.h"
#include "tests/cli/cli_run.h"
#include "tests/temp_dir.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>

namespace gapscope::cli {
namespace {

using test::RunResult;

RunResult diff(std::vector<std::string> args)
{
    return test::run(runDiff, std::move(args));
}

constexpr std::int64_t kUs = 1000;
const std::string kResnet0 = test::dataPath(test::kResnet50Trace);
const std::string kResnet4 = test::dataPath(test::kResnet50Workers4Trace);
const std::string kRank0 = test::dataPath("hta/trace_filter/sampled_rank-0.json.gz");
const std::string kRank1 = test::dataPath("hta/trace_filter/sampled_rank-1.json.gz");

std::int64_t ns(const nlohmann::json& value)
{
    return value.get<std::int64_t>();
}

TEST(DiffCommand, ResNet50WithDataLoaderWorkersIsFaster)
{
    const RunResult r = diff({ "--json", "--window", "steps", "--warmup", "1", kResnet0, kResnet4 });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["base"]["file"], kResnet0);
    EXPECT_EQ(doc["new"]["file"], kResnet4);
    EXPECT_EQ(doc["base"]["window"]["kind"], "steps");
    EXPECT_EQ(doc["base"]["window"]["warmup_steps"], 1);
    // Steps 6-10 of each run: the TensorBoard plugin's durations (num_workers_0: SOURCES.md; num_workers_4:
    // computed by the plugin's rule from the JSON), nearest-rank p50 175153 and 126183 µs.
    const auto& steps = doc["steps"];
    EXPECT_EQ(steps["base"]["count"], 5);
    EXPECT_EQ(steps["base"]["warmup"], 1);
    EXPECT_EQ(ns(steps["base"]["p50_ns"]), 175153 * kUs);
    EXPECT_EQ(ns(steps["new"]["p50_ns"]), 126183 * kUs);
    EXPECT_EQ(ns(steps["base"]["mean_ns"]), (175153 + 179733 + 174564 + 182172 + 165983) * kUs / 5);
    EXPECT_EQ(ns(steps["new"]["p95_ns"]), 163461 * kUs);
    EXPECT_EQ(ns(steps["delta_p50_ns"]), (126183 - 175153) * kUs);
    EXPECT_NEAR(steps["p_value"].get<double>(), 2.0 / 252.0, 1e-12);
    EXPECT_EQ(steps["test"], "exact");
    ASSERT_EQ(steps["ci95_ns"].size(), 2u);
    EXPECT_LT(ns(steps["ci95_ns"][1]), 0);
    EXPECT_EQ(steps["verdict"], "faster");
    EXPECT_TRUE(steps["run_medians_separate"].is_null());
    EXPECT_NE(steps["caveat"].get<std::string>().find("run-to-run noise"), std::string::npos);
    // Host idle falls on the GPU that worked (device 0), and the delta is NEW - BASE.
    bool seen = false;
    for (const auto& d : doc["devices"]) {
        if (d["base"].is_null() || ns(d["base"]["busy_ns"]) == 0)
            continue;
        seen = true;
        const std::int64_t before = ns(d["base"]["idle_by_cause_ns"]["host"]);
        const std::int64_t after = ns(d["new"]["idle_by_cause_ns"]["host"]);
        EXPECT_LT(after, before);
        EXPECT_EQ(ns(d["delta"]["idle_by_cause_ns"]["host"]), after - before);
        EXPECT_EQ(ns(d["delta"]["span_ns"]), ns(d["new"]["span_ns"]) - ns(d["base"]["span_ns"]));
    }
    EXPECT_TRUE(seen);
    EXPECT_TRUE(doc["kernels"].is_array());
    EXPECT_FALSE(doc["gaps"]["base"].empty());
    EXPECT_TRUE(doc["warnings"].is_array());

    const RunResult text = diff({ "--window", "steps", "--warmup", "1", kResnet0, kResnet4 });
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_EQ(text.out.rfind("Verdict: faster: step p50 175.2 ms -> 126.2 ms (-48.97 ms, -27.96 %)", 0), 0u)
        << text.out.substr(0, 300);
    EXPECT_NE(text.out.find("p = 0.0079 (Mann-Whitney U = 25, exact), n = 5 vs 5 steps"), std::string::npos);
    EXPECT_NE(text.out.find("caveat: one run per side"), std::string::npos);
    EXPECT_NE(text.out.find("Device 0"), std::string::npos);
    EXPECT_NE(text.out.find(", window steps"), std::string::npos);
}

TEST(DiffCommand, ATraceAgainstItselfHasNoDetectableChange)
{
    const RunResult r = diff({ "--json", "--window", "steps", "--warmup", "1", kResnet0, kResnet0 });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["steps"]["verdict"], "no detectable change");
    EXPECT_EQ(ns(doc["steps"]["delta_p50_ns"]), 0);
    EXPECT_DOUBLE_EQ(doc["steps"]["p_value"].get<double>(), 1.0);
    for (const auto& d : doc["devices"]) {
        for (const char* key : { "span_ns", "busy_ns", "idle_ns", "gap_count" })
            EXPECT_EQ(ns(d["delta"][key]), 0) << key;
        for (const auto& [cause, value] : d["delta"]["idle_by_cause_ns"].items())
            EXPECT_EQ(ns(value), 0) << cause;
        for (const auto& [kind, value] : d["delta"]["exposed_ns"].items())
            EXPECT_EQ(ns(value), 0) << kind;
    }
    for (const auto& k : doc["kernels"]) {
        EXPECT_EQ(k["status"], "both");
        EXPECT_EQ(ns(k["delta_count"]), 0);
        EXPECT_EQ(ns(k["delta_total_ns"]), 0);
    }
    EXPECT_TRUE(doc["warnings"].empty());
    const RunResult text = diff({ kResnet0, kResnet0 });
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_EQ(text.out.rfind("Verdict: no detectable change", 0), 0u) << text.out.substr(0, 200);
}

TEST(DiffCommand, SeveralRunsPerSideUseTheRunMedianRule)
{
    const RunResult r
        = diff({ "--json", "--window", "steps", "--warmup", "1", kResnet0, kResnet0, "--", kResnet4, kResnet4 });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    const auto& steps = doc["steps"];
    EXPECT_EQ(steps["base"]["runs"], 2);
    EXPECT_EQ(steps["base"]["count"], 10);
    EXPECT_EQ(steps["base"]["run_medians_ns"], nlohmann::json::array({ 175153 * kUs, 175153 * kUs }));
    EXPECT_DOUBLE_EQ(steps["base"]["run_spread"].get<double>(), 0.0);
    EXPECT_EQ(steps["run_medians_separate"], true);
    EXPECT_EQ(steps["verdict"], "faster");
    EXPECT_EQ(steps["caveat"], "");
    EXPECT_EQ(doc["base"]["runs"].size(), 2u);
}

TEST(DiffCommand, FailIfSlowerIsARegressionGate)
{
    // NEW = the host-bound run: 38.81 % slower in step p50 (175153 / 126183 - 1), and the verdict is `slower`.
    const RunResult gate = diff({ "--window", "steps", "--warmup", "1", "--fail-if-slower", "10", kResnet4, kResnet0 });
    EXPECT_EQ(gate.exitCode, 3) << gate.err;
    EXPECT_EQ(gate.out.rfind("Verdict: slower", 0), 0u);
    EXPECT_NE(gate.err.find("slower than BASE by 38.8"), std::string::npos) << gate.err;
    EXPECT_EQ(diff({ "--window", "steps", "--warmup", "1", "--fail-if-slower", "40", kResnet4, kResnet0 }).exitCode, 0);
    // Faster never trips it; nor does a difference the verdict does not call real.
    EXPECT_EQ(diff({ "--window", "steps", "--warmup", "1", "--fail-if-slower", "0", kResnet0, kResnet4 }).exitCode, 0);
    EXPECT_EQ(diff({ "--window", "steps", "--fail-if-slower", "0", kResnet0, kResnet0 }).exitCode, 0);
}

TEST(DiffCommand, FoldersAreJobsWithRanksMatchedByNumber)
{
    test::TempDir dir;
    std::filesystem::create_directories(dir.path() / "job");
    std::filesystem::create_directories(dir.path() / "half");
    std::filesystem::copy_file(kRank0, dir.path() / "job" / "rank-0.json.gz");
    std::filesystem::copy_file(kRank1, dir.path() / "job" / "rank-1.json.gz");
    std::filesystem::copy_file(kRank1, dir.path() / "half" / "rank-1.json.gz");
    const RunResult same = diff({ "--json", dir.file("job"), dir.file("job") });
    ASSERT_EQ(same.exitCode, 0) << same.err;
    const auto doc = nlohmann::json::parse(same.out);
    EXPECT_EQ(doc["base"]["runs"][0]["files"].size(), 2u);
    std::set<int> ranks;
    for (const auto& d : doc["devices"]) {
        ASSERT_FALSE(d["rank"].is_null());
        ranks.insert(d["rank"].get<int>());
        EXPECT_EQ(ns(d["delta"]["busy_ns"]), 0);
    }
    EXPECT_EQ(ranks, (std::set<int> { 0, 1 }));
    EXPECT_EQ(doc["steps"]["verdict"], "no detectable change");

    // Rank 1 alone against ranks 0 and 1: said, and rank 0's devices compare with nothing.
    const RunResult half = diff({ "--json", dir.file("job"), dir.file("half") });
    ASSERT_EQ(half.exitCode, 0) << half.err;
    const auto halfDoc = nlohmann::json::parse(half.out);
    std::string warnings = halfDoc["warnings"].dump();
    EXPECT_NE(warnings.find("ranks are matched by number, and they differ"), std::string::npos) << warnings;
    EXPECT_NE(warnings.find("different rank counts"), std::string::npos) << warnings;
    bool rank0Alone = false;
    for (const auto& d : halfDoc["devices"])
        rank0Alone = rank0Alone || (d["rank"] == 0 && d["new"].is_null() && !d["base"].is_null());
    EXPECT_TRUE(rank0Alone);

    // A folder holding one rank twice is not one job.
    std::filesystem::create_directories(dir.path() / "twice");
    std::filesystem::copy_file(kRank0, dir.path() / "twice" / "a.json.gz");
    std::filesystem::copy_file(kRank0, dir.path() / "twice" / "b.json.gz");
    const RunResult twice = diff({ dir.file("job"), dir.file("twice") });
    EXPECT_EQ(twice.exitCode, 1);
    EXPECT_NE(twice.err.find("NEW run " + dir.file("twice") + " holds rank 0 twice"), std::string::npos) << twice.err;
}

TEST(DiffCommand, OneRankAgainstAnotherRankComparesTheirDevicesAndSaysTheRanksDiffer)
{
    // Two single-rank traces of one job (HTA's sampled ranks 0 and 1, each on the GPU of its number): each side is
    // one process, so its devices are compared with the other side's whatever the rank and GPU numbers.
    const RunResult r = diff({ "--json", kRank0, kRank1 });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    const RunResult base = test::run(runReport, { "--json", kRank0 });
    const RunResult fresh = test::run(runReport, { "--json", kRank1 });
    ASSERT_EQ(base.exitCode, 0) << base.err;
    ASSERT_EQ(fresh.exitCode, 0) << fresh.err;
    const auto baseDevices = nlohmann::json::parse(base.out)["devices"];
    const auto newDevices = nlohmann::json::parse(fresh.out)["devices"];
    ASSERT_EQ(baseDevices.size(), 1u);
    ASSERT_EQ(newDevices.size(), 1u);
    ASSERT_EQ(doc["devices"].size(), 1u);
    const auto& device = doc["devices"][0];
    EXPECT_EQ(device["rank"], 0);
    EXPECT_EQ(device["new_rank"], 1);
    // Each rank ran on the GPU of its number: GPU 0 against GPU 1.
    EXPECT_EQ(baseDevices[0]["id"], 0);
    EXPECT_EQ(newDevices[0]["id"], 1);
    EXPECT_EQ(device["device"], 0);
    EXPECT_EQ(device["new_device"], 1);
    ASSERT_FALSE(device["base"].is_null());
    ASSERT_FALSE(device["new"].is_null());
    EXPECT_EQ(ns(device["base"]["busy_ns"]), ns(baseDevices[0]["busy_ns"]));
    EXPECT_EQ(ns(device["new"]["busy_ns"]), ns(newDevices[0]["busy_ns"]));
    EXPECT_EQ(ns(device["delta"]["busy_ns"]), ns(newDevices[0]["busy_ns"]) - ns(baseDevices[0]["busy_ns"]));
    const std::string said = "one rank on each side, and the ranks differ: BASE (" + kRank0 + ") is rank 0, NEW ("
        + kRank1 + ") is rank 1; compared with each other as one process each";
    EXPECT_NE(doc["warnings"].dump().find(said), std::string::npos) << doc["warnings"].dump();

    const RunResult text = diff({ kRank0, kRank1 });
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("Device 0 (NEW: device 1), rank 0 (NEW: rank 1)"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("only in BASE"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find(said), std::string::npos) << text.out;
}

TEST(DiffCommand, AnUnreadableSideIsNamed)
{
    const std::string missing = test::dataPath("no/such/trace.json");
    const RunResult base = diff({ missing, kResnet0 });
    EXPECT_EQ(base.exitCode, 1);
    EXPECT_NE(base.err.find("cannot read the BASE run: " + missing), std::string::npos) << base.err;
    const std::string notJson = test::dataPath("malformed/not_json.txt");
    const RunResult fresh = diff({ kResnet0, notJson });
    EXPECT_EQ(fresh.exitCode, 1);
    EXPECT_NE(fresh.err.find("cannot read the NEW run: " + notJson + ": not a trace"), std::string::npos) << fresh.err;
    // A truncated trace loads up to the cut with a warning: the diff goes on and lists it under NEW's import.
    const std::string truncated = test::dataPath("malformed/truncated.json");
    const RunResult cut = diff({ "--json", kResnet0, truncated });
    ASSERT_EQ(cut.exitCode, 0) << cut.err;
    const auto doc = nlohmann::json::parse(cut.out);
    EXPECT_TRUE(doc["import"]["base"].empty());
    ASSERT_FALSE(doc["import"]["new"].empty());
    EXPECT_EQ(doc["import"]["new"][0]["file"], truncated);
    test::TempDir empty;
    const RunResult folder = diff({ kResnet0, empty.path().string() });
    EXPECT_EQ(folder.exitCode, 1);
    EXPECT_NE(
        folder.err.find("NEW run: " + empty.path().string() + ": a folder with no trace files"), std::string::npos)
        << folder.err;
}

TEST(DiffCommand, BadOptionsExitTwo)
{
    for (const std::vector<std::string>& args :
        std::vector<std::vector<std::string>> { { kResnet0 }, { kResnet0, kResnet0, kResnet4 },
            { "--fail-if-slower", "abc", kResnet0, kResnet4 }, { "--fail-if-slower", "-3", kResnet0, kResnet4 },
            { "--window", "nope", kResnet0, kResnet4 }, { "--frobnicate", kResnet0, kResnet4 }, { kResnet0, "--" },
            { kResnet0, "--", kResnet4, "--", kResnet4 }, { "--top" } }) {
        const RunResult r = diff(args);
        EXPECT_EQ(r.exitCode, 2) << testing::PrintToString(args);
        EXPECT_NE(r.err.find("usage: gapscope diff"), std::string::npos);
    }
}

TEST(DiffOptions, TwoRunsOrTwoListsAroundTheSeparator)
{
    const auto two = parseDiffOptions({ "--top", "3", "a", "b" });
    ASSERT_TRUE(two) << two.error().message;
    EXPECT_EQ(two->baseRuns, std::vector<std::string> { "a" });
    EXPECT_EQ(two->newRuns, std::vector<std::string> { "b" });
    EXPECT_EQ(two->top, 3u);
    const auto lists = parseDiffOptions({ "a1", "a2", "--", "b1", "--fail-if-slower", "2.5", "b2", "b3" });
    ASSERT_TRUE(lists) << lists.error().message;
    EXPECT_EQ(lists->baseRuns, (std::vector<std::string> { "a1", "a2" }));
    EXPECT_EQ(lists->newRuns, (std::vector<std::string> { "b1", "b2", "b3" }));
    EXPECT_DOUBLE_EQ(*lists->failIfSlowerPercent, 2.5);
}

TEST(DiffCommand, HtaTraceDiffKernelsAndTop)
{
    const std::string control = test::dataPath("hta/trace_diff/control/control.json.gz");
    const std::string testRun = test::dataPath("hta/trace_diff/test/test.json.gz");
    const RunResult r = diff({ "--json", "--top", "4", control, testRun });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc["kernels"].size(), 4u);
    // Computed with a Python script over the gzip JSON (count and sum of dur per kernel name): the all-reduce
    // goes from 18 kernels / 32.880 ms to 21 / 92.082 ms, the second-largest change in total time.
    const auto& allReduce = doc["kernels"][1];
    EXPECT_EQ(allReduce["name"], "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)");
    EXPECT_EQ(allReduce["status"], "both");
    EXPECT_EQ(allReduce["base"]["count"], 18);
    EXPECT_EQ(allReduce["new"]["count"], 21);
    EXPECT_EQ(ns(allReduce["base"]["total_ns"]), 32880000);
    EXPECT_EQ(ns(allReduce["new"]["total_ns"]), 92082000);
    EXPECT_EQ(ns(allReduce["delta_total_ns"]), 59202000);
    EXPECT_EQ(doc["kernels"][0]["status"], "new");
    EXPECT_EQ(ns(doc["kernels"][0]["delta_total_ns"]), 60134000);
    // Six steps each, p50 76727 -> 116692 µs (the TensorBoard plugin's rule, computed with a Python script).
    EXPECT_EQ(doc["steps"]["verdict"], "slower");
    EXPECT_NEAR(doc["steps"]["p_value"].get<double>(), 2.0 / 924.0, 1e-12);
    const RunResult text = diff({ control, testRun });
    EXPECT_EQ(text.out.rfind("Verdict: slower: step p50 76.73 ms -> 116.7 ms (+39.97 ms, +52.09 %)", 0), 0u)
        << text.out.substr(0, 300);
    EXPECT_NE(text.out.find("different GPU models"), std::string::npos);
}

TEST(DiffCommand, WithoutStepsThereIsNoVerdict)
{
    const std::string simpleAdd
        = test::dataPath("hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz");
    const RunResult json = diff({ "--json", simpleAdd, simpleAdd });
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto doc = nlohmann::json::parse(json.out);
    EXPECT_EQ(doc["steps"]["verdict"], "no verdict");
    EXPECT_TRUE(doc["steps"]["p_value"].is_null());
    EXPECT_TRUE(doc["steps"]["ci95_ns"].is_null());
    EXPECT_EQ(ns(doc["devices"][0]["delta"]["busy_ns"]), 0);
    const RunResult text = diff({ simpleAdd, simpleAdd });
    EXPECT_EQ(text.out.rfind("Verdict: no verdict (no verdict is possible: neither side has counted steps", 0), 0u)
        << text.out.substr(0, 300);
}

TEST(DiffCommand, NoteMeasuredAgainstTheAfterTraceEndToEnd)
{
    // The user's path: a note on the longest gap of the host-bound run (as "Explain This Gap…" makes it),
    // `diff --note ID --accept` against the run with four workers, then `export --markdown`.
    test::TempDir dir;
    const std::string before = dir.file("before.json.gz");
    std::filesystem::copy_file(kResnet0, before);
    {
        auto trace = loadTraceFile(before);
        ASSERT_TRUE(trace);
        const AnalysisResult result = analyze(trace.value(), {});
        Annotation note = explainGap(trace.value(), result, result.gaps[longestDeviceGaps(result, 1).front()]);
        note.id = "host-gap";
        AnnotationStore store = AnnotationStore::openForTrace(before);
        store.add(note);
        ASSERT_TRUE(store.save());
    }
    const RunResult r = diff({ "--note", "host-gap", "--accept", before, kResnet4 });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("step p50 175.2 ms -> 126.2 ms"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Proposed status: supported (set)"), std::string::npos) << r.out;

    const AnnotationStore reread = AnnotationStore::openForTrace(before);
    const Annotation* note = reread.find("host-gap");
    ASSERT_NE(note, nullptr);
    EXPECT_EQ(note->status, AnnotationStatus::Supported);
    EXPECT_NE(note->record.performanceChange.find(": faster."), std::string::npos);
    EXPECT_NE(note->record.performanceChange.find("Host idle"), std::string::npos);
    EXPECT_EQ(
        std::filesystem::weakly_canonical(dir.path() / note->afterTrace), std::filesystem::weakly_canonical(kResnet4));

    std::ostringstream out;
    std::ostringstream err;
    ASSERT_EQ(runExport({ before, "--markdown", "-" }, out, err), 0) << err.str();
    const std::string markdown = out.str();
    EXPECT_NE(markdown.find("### Measured against the after trace"), std::string::npos) << markdown;
    EXPECT_NE(markdown.find("| step p50 | 175.2 ms | 126.2 ms |"), std::string::npos);
    EXPECT_NE(markdown.find("**Verdict:** faster"), std::string::npos);
    EXPECT_NE(markdown.find("the note's status is supported"), std::string::npos);

    EXPECT_EQ(diff({ "--note", "nope", before, kResnet4 }).exitCode, 1);
    EXPECT_EQ(diff({ "--accept", before, kResnet4 }).exitCode, 2);
}

} // namespace
} // namespace gapscope::cli
