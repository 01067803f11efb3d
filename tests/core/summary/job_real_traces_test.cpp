// SPDX-License-Identifier: MIT
// Collectives matched across the ranks of real jobs, from their rank summaries (DESIGN.md §4 "Collectives and
// skew"). The expected figures were computed independently by tests/tools/collective_skew.py, which reads the gzip
// JSON with Python's json module (timestamps as exact decimals), takes the kernels whose names start with
// nccl/rccl, pairs the k-th occurrence of each name across ranks and applies the definitions:
//   python3 tests/tools/collective_skew.py tests/data/multirank/param_dlrm/*.gz
//   python3 tests/tools/collective_skew.py tests/data/hta/trace_filter/*.gz
#include "core/summary/rank_summary.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace gapscope {
namespace {

constexpr TimeNs kUs = 1000;

const char* const kDlrmFiles[] = {
    "worker0_step_12.1694128201545.pt.trace.json.gz",
    "worker1_step_12.1694128201556.pt.trace.json.gz",
    "worker2_step_12.1694128201554.pt.trace.json.gz",
    "worker3_step_12.1694128201557.pt.trace.json.gz",
    "worker4_step_12.1694128201547.pt.trace.json.gz",
    "worker5_step_12.1694128201549.pt.trace.json.gz",
    "worker6_step_12.1694128201553.pt.trace.json.gz",
    "worker7_step_12.1694128201553.pt.trace.json.gz",
};

std::string dlrm(int rank)
{
    return test::dataPath(std::string("multirank/param_dlrm/") + kDlrmFiles[rank]);
}

std::vector<RankSummary> summarize(const std::vector<std::string>& paths)
{
    std::vector<RankSummary> summaries;
    for (const std::string& path : paths) {
        auto summarized = summarizeTraceFile(path, AnalysisOptions {});
        if (!summarized)
            throw std::runtime_error(summarized.error().toString());
        for (RankSummary& s : summarized.value())
            summaries.push_back(std::move(s));
    }
    return summaries;
}

JobAnalysis analyze(const std::vector<RankSummary>& summaries)
{
    std::vector<JobRankInput> inputs;
    for (const RankSummary& s : summaries)
        inputs.push_back(s.jobInput());
    return analyzeJob(inputs);
}

std::vector<std::string> dlrmRanks(std::initializer_list<int> ranks)
{
    std::vector<std::string> paths;
    for (const int r : ranks)
        paths.push_back(dlrm(r));
    return paths;
}

// The 8 ranks of the param DLRM step: 5 SendRecv and 3 AllReduce kernels per rank, all matched, each ending on
// all ranks within 7 µs while their starts differ by up to 7.6 ms.
TEST(JobRealTraces, ParamDlrmEightRanksMatchEveryCollective)
{
    const std::vector<RankSummary> summaries = summarize(dlrmRanks({ 0, 1, 2, 3, 4, 5, 6, 7 }));
    ASSERT_EQ(summaries.size(), 8u);
    for (int r = 0; r < 8; ++r) {
        EXPECT_EQ(summaries[r].rank, r);
        EXPECT_EQ(summaries[r].worldSize, 8);
        EXPECT_EQ(summaries[r].collectives.size(), 8u) << "rank " << r;
    }
    const JobAnalysis job = analyze(summaries);
    EXPECT_EQ(job.ranks, (std::vector<int> { 0, 1, 2, 3, 4, 5, 6, 7 }));
    EXPECT_TRUE(job.missingRanks.empty());
    EXPECT_TRUE(job.problems.empty());
    EXPECT_EQ(job.matching, CollectiveMatching::ByOrder);
    ASSERT_EQ(job.collectives.size(), 8u);

    // In order of first arrival (collective_skew.py): kernel, k, skew (µs), last rank, end spread (µs).
    struct Expected {
        const char* prefix;
        std::int64_t k;
        TimeNs skewUs;
        int last;
        TimeNs endSpreadUs;
    };
    const Expected expected[] = {
        { "ncclKernel_SendRecv", 0, 7624, 7, 2 },
        { "ncclKernel_SendRecv", 1, 1101, 7, 2 },
        { "ncclKernel_SendRecv", 2, 168, 7, 1 },
        { "ncclKernel_SendRecv", 3, 125, 7, 2 },
        { "ncclKernel_AllReduce", 0, 223, 7, 5 },
        { "ncclKernel_SendRecv", 4, 534, 5, 3 },
        { "ncclKernel_AllReduce", 1, 584, 5, 5 },
        { "ncclKernel_AllReduce", 2, 885, 4, 7 },
    };
    for (std::size_t i = 0; i < 8; ++i) {
        const MatchedCollective& c = job.collectives[i];
        EXPECT_TRUE(c.name.starts_with(expected[i].prefix)) << i << ": " << c.name;
        EXPECT_EQ(c.seq, expected[i].k) << i;
        EXPECT_EQ(c.skewNs, expected[i].skewUs * kUs) << i;
        EXPECT_EQ(c.lastRank, expected[i].last) << i;
        EXPECT_EQ(c.endSpreadNs, expected[i].endSpreadUs * kUs) << i;
        EXPECT_LT(c.endSpreadNs, 10 * kUs) << i;
        for (int r = 0; r < 8; ++r)
            EXPECT_TRUE(c.arrivals[r].has_value()) << i << " rank " << r;
    }
    // The first SendRecv: rank 1 arrives first (…424306 µs), rank 7 last (…431930 µs).
    EXPECT_EQ(*job.collectives[0].arrivals[1], 1694128201424306 * kUs);
    EXPECT_EQ(*job.collectives[0].arrivals[7], 1694128201431930 * kUs);

    const TimeNs waitsUs[] = { 5580, 11125, 3280, 9571, 6370, 6041, 3342, 1534 };
    const std::size_t timesLast[] = { 0, 0, 0, 0, 1, 2, 0, 5 };
    for (int r = 0; r < 8; ++r) {
        EXPECT_EQ(job.perRank[r].waitNs, waitsUs[r] * kUs) << "rank " << r;
        EXPECT_EQ(job.perRank[r].timesLast, timesLast[r]) << "rank " << r;
        EXPECT_EQ(job.perRank[r].matched, 8u);
        EXPECT_EQ(job.perRank[r].unmatched, 0u);
        EXPECT_EQ(
            job.perRank[r].exposedWaitNs + job.perRank[r].exposedTransferNs, job.perRank[r].exposedCommunicationNs);
        EXPECT_LE(job.perRank[r].exposedWaitNs, job.perRank[r].waitNs);
    }
    EXPECT_EQ(job.totalWaitNs, 46843 * kUs);
    ASSERT_TRUE(job.straggler);
    EXPECT_EQ(job.straggler->rank, 7);
    EXPECT_EQ(job.straggler->timesLast, 5u);
    EXPECT_DOUBLE_EQ(job.straggler->share, 5.0 / 8.0);

    // Skew by name, nearest rank: AllReduce {223, 584, 885}: p50 584, p95 885; SendRecv {125, 168, 534, 1101,
    // 7624}: p50 534, p95 7624.
    ASSERT_EQ(job.skewByName.size(), 2u);
    EXPECT_TRUE(job.skewByName[0].name.starts_with("ncclKernel_AllReduce"));
    EXPECT_EQ(job.skewByName[0].count, 3u);
    EXPECT_EQ(job.skewByName[0].p50Ns, 584 * kUs);
    EXPECT_EQ(job.skewByName[0].p95Ns, 885 * kUs);
    EXPECT_EQ(job.skewByName[0].maxNs, 885 * kUs);
    EXPECT_EQ(job.skewByName[1].count, 5u);
    EXPECT_EQ(job.skewByName[1].p50Ns, 534 * kUs);
    EXPECT_EQ(job.skewByName[1].p95Ns, 7624 * kUs);
}

// Ranks 0-6 of the DLRM job, rank 3's file twice, and HTA's rank 0 of a 128-rank job: the copy and the other
// job's file are named and left out, rank 7 is reported missing, and the figures are those of ranks 0-6
// (collective_skew.py over the seven files): the first SendRecv's skew is 7119 µs with rank 6 last; total wait
// 36146 µs; ranks 4 and 5 are each last twice, so the straggler is rank 4.
TEST(JobRealTraces, MissingDuplicatedAndForeignRanksAreNamedAndTheRestMeasured)
{
    std::vector<std::string> paths = dlrmRanks({ 0, 1, 2, 3, 4, 5, 6, 3 });
    paths.push_back(test::dataPath("hta/trace_filter/sampled_rank-0.json.gz"));
    const std::vector<RankSummary> summaries = summarize(paths);
    const JobAnalysis job = analyze(summaries);
    EXPECT_EQ(job.worldSize, 8);
    EXPECT_EQ(job.ranks, (std::vector<int> { 0, 1, 2, 3, 4, 5, 6 }));
    EXPECT_EQ(job.missingRanks, (std::vector<int> { 7 }));
    ASSERT_EQ(job.problems.size(), 3u);
    EXPECT_EQ(job.problems[0], paths[7] + ": rank 3 again (already from " + paths[3] + "): left out");
    EXPECT_EQ(
        job.problems[1], paths[8] + ": rank 0 of a job of 128 ranks, not of this job of 8: another job, left out");
    EXPECT_EQ(job.problems[2], "missing rank 7 (7 of 8 present): figures are for the ranks present");
    ASSERT_EQ(job.collectives.size(), 8u);
    EXPECT_EQ(job.collectives[0].skewNs, 7119 * kUs);
    EXPECT_EQ(job.collectives[0].lastRank, 6);
    EXPECT_EQ(job.totalWaitNs, 36146 * kUs);
    const TimeNs waitsUs[] = { 4271, 9816, 1971, 8262, 5061, 4732, 2033 };
    for (int r = 0; r < 7; ++r)
        EXPECT_EQ(job.perRank[r].waitNs, waitsUs[r] * kUs) << "rank " << r;
    ASSERT_TRUE(job.straggler);
    EXPECT_EQ(job.straggler->rank, 4);
    EXPECT_EQ(job.straggler->timesLast, 2u);
}

// HTA's two sampled ranks of a 128-rank job: 10 NCCL SendRecv kernels each, matched by order (collective_skew.py):
// skews 35534, 109290, 3302, 164191, 84, 39645, 45308, 92521, 22328, 1292 µs. These files are samples of their
// ranks' traces, and the end spreads show where order matching pairs kernels of different collectives: the
// second rank-0 kernel ends at the same µs as rank 1's first (…187835), so the pairs are shifted by one there,
// and the end spread (87882 µs) says so, against 8 µs for the 9th pair.
TEST(JobRealTraces, HtaSampledRanksMatchTheirNcclKernels)
{
    const std::vector<RankSummary> summaries = summarize({ test::dataPath("hta/trace_filter/sampled_rank-0.json.gz"),
        test::dataPath("hta/trace_filter/sampled_rank-1.json.gz") });
    const JobAnalysis job = analyze(summaries);
    EXPECT_EQ(job.worldSize, 128);
    EXPECT_EQ(job.ranks, (std::vector<int> { 0, 1 }));
    EXPECT_EQ(job.missingRanks.size(), 126u);
    ASSERT_EQ(job.problems.size(), 2u);
    EXPECT_EQ(job.problems[0], "missing ranks 2-127 (2 of 128 present): figures are for the ranks present");
    // Pairs 0, 1, 3, 5, 6 and 7 end 13.9 to 134.2 ms apart.
    EXPECT_TRUE(job.problems[1].starts_with("6 of 10 matched collectives end more than 1 ms apart")) << job.problems[1];
    ASSERT_EQ(job.collectives.size(), 10u);
    const TimeNs skewsUs[] = { 35534, 109290, 3302, 164191, 84, 39645, 45308, 92521, 22328, 1292 };
    const int last[] = { 1, 1, 1, 1, 1, 0, 1, 0, 1, 1 };
    const TimeNs spreadsUs[] = { 62789, 87882, 55, 134153, 332, 67842, 28808, 13869, 8, 189 };
    for (std::size_t i = 0; i < 10; ++i) {
        EXPECT_EQ(job.collectives[i].skewNs, skewsUs[i] * kUs) << i;
        EXPECT_EQ(job.collectives[i].lastRank, last[i]) << i;
        EXPECT_EQ(job.collectives[i].endSpreadNs, spreadsUs[i] * kUs) << i;
    }
    EXPECT_EQ(job.perRank[0].waitNs, 381329 * kUs);
    EXPECT_EQ(job.perRank[1].waitNs, 132166 * kUs);
    ASSERT_TRUE(job.straggler);
    EXPECT_EQ(job.straggler->rank, 1);
    EXPECT_EQ(job.straggler->timesLast, 8u);
}

} // namespace
} // namespace gapscope
