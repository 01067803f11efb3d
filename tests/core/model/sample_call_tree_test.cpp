// SPDX-License-Identifier: MIT
// The top-down tree of CPU samples, level by level: on saxpy's samples in [1.0 s, 1.1 s) against what SQL counts
// on the export, and on hand-made chains (recursion, an empty chain).
#include "core/io/nsys/nsys_sqlite_reader.h"
#include "core/model/sample_call_tree.h"
#include "core/model/trace_builder.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace gapscope;

namespace {

std::string_view functionOf(const Trace& trace, const CallTreeNode& node)
{
    return trace.strings().view(node.frame.function);
}

TEST(SampleCallTree, SaxpysSamplesInARangeTopDownAsSqlCountsThem)
{
    auto loaded = NsysSqliteReader::readFile(
        std::string(GAPSCOPE_TEST_DATA_DIR) + "/nsys/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite");
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    const Trace& trace = loaded.value();
    ASSERT_EQ(trace.samples().threads().size(), 1u);
    const ThreadSamples& thread = trace.samples().threads()[0];
    const auto [first, last] = samplesIn(thread, 1'000'000'000, 1'100'000'000);
    ASSERT_EQ(last - first, 492u); // SELECT count(*) FROM COMPOSITE_EVENTS WHERE start >= 1e9 AND start < 1.1e9
    const std::vector<ChainCount> chains = chainCounts(thread, first, last);
    EXPECT_EQ(std::accumulate(
                  chains.begin(), chains.end(), 0u, [](std::uint32_t n, const ChainCount& c) { return n + c.count; }),
        492u);

    // The roots: each sample's SAMPLING_CALLCHAINS row of the largest stackDepth, grouped by symbol and module,
    // gives 18 functions, main 209 (all of them main's own: stackDepth 0 is their largest), _start 121,
    // std::abs(double) 36 ... [Broken backtraces] 2, MPID_ST_progress_irecv 1.
    const std::vector<CallTreeNode> roots = callTreeLevel(trace.samples(), chains, 0);
    ASSERT_EQ(roots.size(), 18u);
    EXPECT_EQ(std::accumulate(
                  roots.begin(), roots.end(), 0u, [](std::uint32_t n, const CallTreeNode& r) { return n + r.total; }),
        492u);
    EXPECT_EQ(functionOf(trace, roots[0]), "main");
    EXPECT_EQ(roots[0].total, 209u);
    EXPECT_EQ(roots[0].self, 209u);
    EXPECT_FALSE(roots[0].hasChildren());
    EXPECT_EQ(functionOf(trace, roots[1]), "_start");
    EXPECT_EQ(roots[1].total, 121u);
    EXPECT_EQ(roots[1].self, 0u);
    EXPECT_EQ(functionOf(trace, roots[2]), "std::abs(double)");
    EXPECT_EQ(roots[2].total, 36u);
    EXPECT_EQ(functionOf(trace, roots[16]), "[Broken backtraces]");
    EXPECT_EQ(roots[16].total, 2u);
    EXPECT_EQ(functionOf(trace, roots[17]), "MPID_ST_progress_irecv");
    EXPECT_EQ(roots[17].total, 1u);

    // Below _start (the rows one stackDepth under the largest): __libc_start_main 121; below it main 121, of which
    // 73 ran main itself (their stackDepth 0); below main MPI_Recv 42 (none of its own) and std::abs(double) 6
    // (all its own).
    const std::vector<CallTreeNode> libcStart = callTreeLevel(trace.samples(), roots[1].chains, 1);
    ASSERT_EQ(libcStart.size(), 1u);
    EXPECT_EQ(functionOf(trace, libcStart[0]), "__libc_start_main");
    EXPECT_EQ(libcStart[0].total, 121u);
    const std::vector<CallTreeNode> main = callTreeLevel(trace.samples(), libcStart[0].chains, 2);
    ASSERT_EQ(main.size(), 1u);
    EXPECT_EQ(functionOf(trace, main[0]), "main");
    EXPECT_EQ(main[0].total, 121u);
    EXPECT_EQ(main[0].self, 73u);
    const std::vector<CallTreeNode> callees = callTreeLevel(trace.samples(), main[0].chains, 3);
    ASSERT_EQ(callees.size(), 2u);
    EXPECT_EQ(functionOf(trace, callees[0]), "MPI_Recv");
    EXPECT_EQ(callees[0].total, 42u);
    EXPECT_EQ(callees[0].self, 0u);
    EXPECT_TRUE(callees[0].hasChildren());
    EXPECT_EQ(functionOf(trace, callees[1]), "std::abs(double)");
    EXPECT_EQ(callees[1].total, 6u);
    EXPECT_EQ(callees[1].self, 6u);
}

TEST(SampleCallTree, ARecursiveCallIsANodeOfItsOwnAndAnEmptyChainIsNoNode)
{
    TraceBuilder builder;
    const ProcessIndex p = builder.addProcess({ .pid = 1 });
    const StackFrame a { builder.strings().intern("a"), builder.strings().intern("m") };
    const StackFrame b { builder.strings().intern("b"), builder.strings().intern("m") };
    CpuSamples& samples = builder.samples();
    // Innermost first: a -> b -> a (a ran, called from b, called from a); a -> b (b ran); none.
    const std::vector<StackFrame> aba { a, b, a };
    const std::vector<StackFrame> ab { b, a };
    const std::uint32_t recursive = samples.addChain(aba);
    const std::uint32_t plain = samples.addChain(ab);
    const std::uint32_t none = samples.addChain({});
    samples.threads()[samples.thread(p, 7)].samples = { { .time = 1, .callchain = recursive },
        { .time = 2, .callchain = plain }, { .time = 3, .callchain = recursive }, { .time = 4, .callchain = none } };
    const Trace trace = std::move(builder).finish();
    const ThreadSamples& thread = trace.samples().threads()[0];
    const std::vector<ChainCount> chains = chainCounts(thread, 0, 4);
    ASSERT_EQ(chains.size(), 3u);

    const std::vector<CallTreeNode> roots = callTreeLevel(trace.samples(), chains, 0);
    ASSERT_EQ(roots.size(), 1u); // the empty chain's sample is under no root
    EXPECT_EQ(functionOf(trace, roots[0]), "a");
    EXPECT_EQ(roots[0].total, 3u);
    EXPECT_EQ(roots[0].self, 0u);
    const std::vector<CallTreeNode> level1 = callTreeLevel(trace.samples(), roots[0].chains, 1);
    ASSERT_EQ(level1.size(), 1u);
    EXPECT_EQ(functionOf(trace, level1[0]), "b");
    EXPECT_EQ(level1[0].total, 3u);
    EXPECT_EQ(level1[0].self, 1u);
    const std::vector<CallTreeNode> level2 = callTreeLevel(trace.samples(), level1[0].chains, 2);
    ASSERT_EQ(level2.size(), 1u);
    EXPECT_EQ(functionOf(trace, level2[0]), "a");
    EXPECT_EQ(level2[0].total, 2u);
    EXPECT_EQ(level2[0].self, 2u);
    EXPECT_FALSE(level2[0].hasChildren());
    EXPECT_TRUE(callTreeLevel(trace.samples(), level2[0].chains, 3).empty());
}

} // namespace
