// SPDX-License-Identifier: MIT
// Rank summaries (core/summary/): what they hold, and that the JSON file gives back what was written.
#include "core/summary/summary_json.h"
#include "tests/core/hand_trace.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <numeric>

namespace gapscope {
namespace {

using test::us;

const std::string kDlrmRank0 = "multirank/param_dlrm/worker0_step_12.1694128201545.pt.trace.json.gz";

// DLRM rank 0 on its one GPU (device 0), window gpu. Union of its kernels, memcpys and memsets, computed
// independently with Python over the gzip JSON (exact decimals): span 13009 µs, busy 6590 µs, idle 6419 µs.
TEST(RankSummary, DlrmRankHoldsItsFiguresBinsAndCollectives)
{
    auto summarized = summarizeTraceFile(test::dataPath(kDlrmRank0), AnalysisOptions {});
    ASSERT_TRUE(summarized) << summarized.error().toString();
    ASSERT_EQ(summarized.value().size(), 1u);
    const RankSummary& s = summarized.value()[0];
    EXPECT_EQ(s.rank, 0);
    EXPECT_EQ(s.worldSize, 8);
    ASSERT_EQ(s.devices.size(), 1u);
    const DeviceSummary& d = s.devices[0];
    EXPECT_EQ(d.id, 0);
    EXPECT_EQ(d.spanNs, 13009 * 1000);
    EXPECT_EQ(d.busyNs, 6590 * 1000);
    EXPECT_EQ(d.idleNs, 6419 * 1000);
    EXPECT_DOUBLE_EQ(d.utilization, 6590.0 / 13009.0);
    // 256 bins of ceil(13009 µs / 256) = 50817 ns; their busy time adds up to the busy time.
    EXPECT_EQ(d.binWidthNs, 50817);
    EXPECT_EQ(d.busyPerBin.size(), 256u);
    EXPECT_EQ(std::accumulate(d.busyPerBin.begin(), d.busyPerBin.end(), TimeNs { 0 }), d.busyNs);
    for (const TimeNs busy : d.busyPerBin) {
        EXPECT_GE(busy, 0);
        EXPECT_LE(busy, d.binWidthNs);
    }
    EXPECT_EQ(s.collectives.size(), 8u);
    EXPECT_EQ(s.collectives[0].start, 1694128201429795 * 1000);
    EXPECT_EQ(s.collectives[0].end, (1694128201429795 + 2146) * 1000);
    EXPECT_EQ(s.longestGaps.size(), 10u);
    EXPECT_GE(s.longestGaps[0].end - s.longestGaps[0].start, s.longestGaps[9].end - s.longestGaps[9].start);
}

// Busy per bin, worked out: kernels [0, 10) and [25, 30) µs over the gpu window [0, 30) µs in 3 bins of 10 µs:
// 10, 0 and 5 µs.
TEST(RankSummary, BusyPerBinOfAHandBuiltDevice)
{
    test::HandTrace builder;
    builder.kernel(7, 0, 10).kernel(7, 25, 30);
    const Trace trace = builder.build();
    const AnalysisResult result = analyze(trace, summaryAnalysisOptions(AnalysisOptions {}));
    const RankSummary s = summarizeProcess(trace, result, ProcessIndex { 0 }, SummaryOptions { 3, 10 });
    ASSERT_EQ(s.devices.size(), 1u);
    EXPECT_EQ(s.devices[0].binWidthNs, us(10));
    EXPECT_EQ(s.devices[0].busyPerBin, (std::vector<TimeNs> { us(10), 0, us(5) }));
    ASSERT_EQ(s.longestGaps.size(), 1u);
    EXPECT_EQ(s.longestGaps[0].start, us(10));
    EXPECT_EQ(s.longestGaps[0].end, us(25));
}

TEST(RankSummary, JsonFileGivesBackWhatWasWritten)
{
    auto summarized = summarizeTraceFile(test::dataPath(kDlrmRank0), AnalysisOptions {});
    ASSERT_TRUE(summarized);
    const std::string path
        = (std::filesystem::temp_directory_path() / "gapscope_rank_summary_test.summary.json").string();
    ASSERT_TRUE(writeSummaryFile(path, summarized.value()));
    auto read = readSummaryFile(path);
    ASSERT_TRUE(read) << read.error().toString();
    ASSERT_EQ(read.value().size(), 1u);
    // Written again, the summary read back is the same text.
    EXPECT_EQ(summariesToJson(read.value()), summariesToJson(summarized.value()));
    const RankSummary& s = read.value()[0];
    EXPECT_EQ(s.rank, 0);
    EXPECT_EQ(s.devices[0].busyNs, 6590 * 1000);
    // The file keeps no utilization: it comes back as busy / span.
    EXPECT_DOUBLE_EQ(s.devices[0].utilization, 6590.0 / 13009.0);
    EXPECT_EQ(s.collectives.size(), 8u);
    EXPECT_EQ(s.collectives[7].kernel, summarized.value()[0].collectives[7].kernel);
    EXPECT_EQ(s.longestGaps[0].evidence, summarized.value()[0].longestGaps[0].evidence);
    std::filesystem::remove(path);
}

TEST(RankSummary, BadSummariesAreClearErrors)
{
    const auto notJson = summariesFromJson("{\"format\": ", "a.summary.json");
    ASSERT_FALSE(notJson);
    EXPECT_EQ(notJson.error().file, "a.summary.json");
    EXPECT_TRUE(notJson.error().byteOffset.has_value());
    const auto other = summariesFromJson("{\"traceEvents\": []}", "b.summary.json");
    ASSERT_FALSE(other);
    EXPECT_NE(other.error().message.find("not a GapScope summary"), std::string::npos);
    const auto newer = summariesFromJson(R"({"format": "gapscope-summary", "version": 99, "ranks": []})", "c");
    ASSERT_FALSE(newer);
    EXPECT_NE(newer.error().message.find("newer GapScope"), std::string::npos);
    const auto missing = summariesFromJson(R"({"format": "gapscope-summary", "version": 1, "ranks": [{}]})", "d");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("rank entry 1"), std::string::npos);
}

} // namespace
} // namespace gapscope
