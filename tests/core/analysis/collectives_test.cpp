// SPDX-License-Identifier: MIT
// Collectives and skew (DESIGN.md §4) on hand-built cases whose answers are worked out in the comments.
#include "core/analysis/collectives.h"
#include "tests/core/hand_trace.h"

#include <gtest/gtest.h>

namespace gapscope {
namespace {

using test::us;

CollectiveOccurrence occurrence(std::string kernel, double startUs, double endUs, std::vector<Interval> exposed = {})
{
    CollectiveOccurrence o;
    o.kernel = std::move(kernel);
    o.start = us(startUs);
    o.end = us(endUs);
    o.exposed = std::move(exposed);
    return o;
}

CollectiveOccurrence sequenced(std::string group, std::int64_t seq, double startUs, double endUs)
{
    CollectiveOccurrence o = occurrence("ncclKernel_AllReduce", startUs, endUs);
    o.collective = std::string("allreduce");
    o.group = std::move(group);
    o.seq = seq;
    return o;
}

JobRankInput input(int rank, const std::vector<CollectiveOccurrence>& collectives, std::optional<int> worldSize = 3,
    TimeNs exposedCommunication = 0)
{
    return JobRankInput { rank, worldSize, "rank" + std::to_string(rank) + ".json", exposedCommunication,
        &collectives };
}

// Three ranks, two collectives each, matched by (kernel name, k-th occurrence):
//   A: arrivals 100, 130, 110 µs -> skew 30 µs, last rank 1, ends 200/201/199 -> end spread 2 µs;
//      waits 30, 0, 20 µs
//   B: arrivals 300, 310, 350 µs -> skew 50 µs, last rank 2, ends 400/401/402 -> end spread 2 µs;
//      waits 50, 40, 0 µs
// Per rank wait 80, 40, 20 µs (total 140); ranks 1 and 2 each last once: the straggler is the lower, rank 1,
// with half the collectives. Rank 0's exposed parts: A [150, 200) lies after its wait [100, 130): 0 µs of it in
// the wait; B [300, 400) holds its whole wait [300, 350): 50 µs. Its exposed communication of 180 µs splits into
// 50 µs of wait and 130 µs of transfer.
TEST(Collectives, ByOrderMatchesTheKthOccurrenceOfEachKernelName)
{
    const std::vector<CollectiveOccurrence> r0 { occurrence("A", 100, 200, { { us(150), us(200) } }),
        occurrence("B", 300, 400, { { us(300), us(400) } }) };
    const std::vector<CollectiveOccurrence> r1 { occurrence("A", 130, 201), occurrence("B", 310, 401) };
    const std::vector<CollectiveOccurrence> r2 { occurrence("A", 110, 199), occurrence("B", 350, 402) };
    const JobAnalysis job = analyzeJob({ input(0, r0, 3, us(180)), input(1, r1), input(2, r2) });

    EXPECT_EQ(job.matching, CollectiveMatching::ByOrder);
    EXPECT_EQ(job.ranks, (std::vector<int> { 0, 1, 2 }));
    EXPECT_TRUE(job.problems.empty());
    ASSERT_EQ(job.collectives.size(), 2u);
    const MatchedCollective& a = job.collectives[0];
    EXPECT_EQ(a.name, "A");
    EXPECT_EQ(a.seq, 0);
    EXPECT_EQ(a.skewNs, us(30));
    EXPECT_EQ(a.lastRank, 1);
    EXPECT_EQ(a.endSpreadNs, us(2));
    EXPECT_EQ(a.arrivals[2], us(110));
    const MatchedCollective& b = job.collectives[1];
    EXPECT_EQ(b.name, "B");
    EXPECT_EQ(b.skewNs, us(50));
    EXPECT_EQ(b.lastRank, 2);
    EXPECT_EQ(b.endSpreadNs, us(2));

    ASSERT_EQ(job.perRank.size(), 3u);
    EXPECT_EQ(job.perRank[0].waitNs, us(80));
    EXPECT_EQ(job.perRank[1].waitNs, us(40));
    EXPECT_EQ(job.perRank[2].waitNs, us(20));
    EXPECT_EQ(job.perRank[0].timesLast, 0u);
    EXPECT_EQ(job.perRank[1].timesLast, 1u);
    EXPECT_EQ(job.perRank[2].timesLast, 1u);
    EXPECT_EQ(job.perRank[0].matched, 2u);
    EXPECT_EQ(job.perRank[0].exposedWaitNs, us(50));
    EXPECT_EQ(job.perRank[0].exposedTransferNs, us(130));
    EXPECT_EQ(job.totalWaitNs, us(140));
    ASSERT_TRUE(job.straggler);
    EXPECT_EQ(job.straggler->rank, 1);
    EXPECT_EQ(job.straggler->timesLast, 1u);
    EXPECT_DOUBLE_EQ(job.straggler->share, 0.5);
    ASSERT_EQ(job.skewByName.size(), 2u);
    EXPECT_EQ(job.skewByName[0].name, "A");
    EXPECT_EQ(job.skewByName[0].maxNs, us(30));
}

// Two process groups whose collectives run in opposite orders on the two ranks: by kernel name and order they
// would pair wrongly; by (group, collective, seq) group 0 seq 1 arrives at 100 and 180 µs (skew 80, last rank 1)
// and group 1 seq 1 at 150 and 120 µs (skew 30, last rank 0).
TEST(Collectives, BySequenceWhenEveryOccurrenceCarriesIt)
{
    const std::vector<CollectiveOccurrence> r0 { sequenced("0", 1, 100, 200), sequenced("1", 1, 150, 250) };
    const std::vector<CollectiveOccurrence> r1 { sequenced("1", 1, 120, 251), sequenced("0", 1, 180, 201) };
    const JobAnalysis job = analyzeJob({ input(0, r0, 2), input(1, r1, 2) });
    EXPECT_EQ(job.matching, CollectiveMatching::BySequence);
    ASSERT_EQ(job.collectives.size(), 2u);
    // By first arrival: group 0 (100 µs), then group 1 (120 µs).
    EXPECT_EQ(job.collectives[0].group, "0");
    EXPECT_EQ(job.collectives[0].name, "allreduce");
    EXPECT_EQ(job.collectives[0].seq, 1);
    EXPECT_EQ(job.collectives[0].skewNs, us(80));
    EXPECT_EQ(job.collectives[0].lastRank, 1);
    EXPECT_EQ(job.collectives[0].endSpreadNs, us(1));
    EXPECT_EQ(job.collectives[1].group, "1");
    EXPECT_EQ(job.collectives[1].skewNs, us(30));
    EXPECT_EQ(job.collectives[1].lastRank, 0);
    EXPECT_EQ(job.perRank[0].waitNs, us(80));
    EXPECT_EQ(job.perRank[1].waitNs, us(30));
    // One occurrence without a sequence number sends the whole job back to matching by order.
    std::vector<CollectiveOccurrence> r1Unsequenced = r1;
    r1Unsequenced[0].seq.reset();
    EXPECT_EQ(analyzeJob({ input(0, r0, 2), input(1, r1Unsequenced, 2) }).matching, CollectiveMatching::ByOrder);
}

// A world of 4: rank 0 and 1, rank 1 again, a rank 0 of a 128-rank job, and a file without a rank. Kept: ranks 0
// and 1 (the first of each); missing: 2 and 3. Rank 0 has a collective no other rank has: unmatched.
TEST(Collectives, OtherJobsDuplicatesAndMissingRanksAreNamedAndLeftOut)
{
    const std::vector<CollectiveOccurrence> r0 { occurrence("A", 100, 200), occurrence("C", 500, 600) };
    const std::vector<CollectiveOccurrence> r1 { occurrence("A", 140, 200) };
    const std::vector<CollectiveOccurrence> other { occurrence("A", 0, 1) };
    JobRankInput duplicate = input(1, other, 4);
    duplicate.source = "copy.json";
    JobRankInput foreign = input(0, other, 128);
    foreign.source = "foreign.json";
    JobRankInput unranked { std::nullopt, std::nullopt, "unranked.json", 0, &other };
    const JobAnalysis job = analyzeJob({ input(0, r0, 4), input(1, r1, 4), duplicate, foreign, unranked });

    EXPECT_EQ(job.worldSize, 4);
    EXPECT_EQ(job.ranks, (std::vector<int> { 0, 1 }));
    EXPECT_EQ(job.missingRanks, (std::vector<int> { 2, 3 }));
    ASSERT_EQ(job.problems.size(), 4u);
    EXPECT_EQ(job.problems[0], "copy.json: rank 1 again (already from rank1.json): left out");
    EXPECT_EQ(
        job.problems[1], "foreign.json: rank 0 of a job of 128 ranks, not of this job of 4: another job, left out");
    EXPECT_EQ(
        job.problems[2], "unranked.json: no rank (distributedInfo.rank, or a launcher's rank variable): left out");
    EXPECT_EQ(job.problems[3], "missing ranks 2-3 (2 of 4 present): figures are for the ranks present");
    ASSERT_EQ(job.collectives.size(), 1u);
    EXPECT_EQ(job.collectives[0].skewNs, us(40));
    EXPECT_EQ(job.perRank[0].unmatched, 1u);
    EXPECT_EQ(job.perRank[0].matched, 1u);
    EXPECT_EQ(job.perRank[0].waitNs, us(40));
}

TEST(Collectives, RankListsAreWrittenAsRanges)
{
    EXPECT_EQ(formatRankList({ 0, 1, 2, 3, 5, 7, 8, 9 }), "0-3, 5, 7-9");
    EXPECT_EQ(formatRankList({ 4 }), "4");
    EXPECT_EQ(formatRankList({}), "");
}

// One rank's trace: an NCCL all-reduce [100, 200) µs on stream 7, launched by cudaLaunchKernel (correlation 5)
// inside record_param_comms with Kineto's collective args; a compute kernel [120, 150) µs on stream 8 overlaps it,
// so its exposed parts are [100, 120) and [150, 200). A kernel named "gemm_nccl_like" is not a collective (it
// does not start with nccl), and "rcclKernel" is (RCCL).
TEST(Collectives, FindsCollectiveKernelsWithTheirArgsAndExposedParts)
{
    test::HandTrace builder;
    builder.cpuOp(1, 90, 99, "record_param_comms")
        .args(R"({"External id": 9, "Collective name": "allreduce", "Process Group Name": "default_pg", "Seq": 7})")
        .runtime(1, 91, 95, "cudaLaunchKernel", 5)
        .kernel(7, 100, 200, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 5)
        .kernel(8, 120, 150, "gemm")
        .kernel(8, 300, 310, "gemm_nccl_like")
        .kernel(7, 400, 420, "rcclKernel_AllGather");
    const Trace trace = builder.build();
    const std::vector<CollectiveOccurrence> found = findCollectives(trace, ProcessIndex { 0 });
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].kernel, "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
    EXPECT_EQ(found[0].collective, "allreduce");
    EXPECT_EQ(found[0].group, "default_pg");
    EXPECT_EQ(found[0].seq, 7);
    EXPECT_EQ(found[0].start, us(100));
    EXPECT_EQ(found[0].end, us(200));
    EXPECT_EQ(found[0].exposed, (std::vector<Interval> { { us(100), us(120) }, { us(150), us(200) } }));
    EXPECT_EQ(found[1].kernel, "rcclKernel_AllGather");
    EXPECT_EQ(found[1].collective, "");
    EXPECT_FALSE(found[1].seq);
    EXPECT_EQ(found[1].exposed, (std::vector<Interval> { { us(400), us(420) } }));
}

} // namespace
} // namespace gapscope
