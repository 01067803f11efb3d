// SPDX-License-Identifier: MIT
// `gapscope report` counts a gap's start from the trace start, as the viewer's ruler,
// Gaps dock and details do, and lists the ranks of a job in rank order whatever order their files come in.
#include "cli/commands.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>

#include <sstream>

namespace gapscope::cli {
namespace {

std::string textReport(const std::vector<std::string>& args)
{
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(runReport(args, out, err), 0) << err.str();
    return out.str();
}

TEST(ReportOrigin, LongestGapStartsFromTheTraceStart)
{
    const std::string out = textReport({ test::dataPath(test::kResnet50Trace) });
    // The longest gap starts at ts 1623142624177.570 ms, the trace's first event at 1623142623460.016 ms (both
    // read from the JSON): +717.554 ms, the "+717.6 ms" the viewer's Gaps dock shows. Counted from the gpu
    // window's start it was "+648.3 ms".
    EXPECT_NE(out.find("62.34 ms    at +717.6 ms from trace start"), std::string::npos) << out;
    EXPECT_EQ(out.find("+648.3 ms"), std::string::npos) << out;
}

TEST(ReportOrigin, RanksInRankOrderWhateverTheArgumentOrder)
{
    const std::string out = textReport({ test::dataPath("hta/trace_filter/sampled_rank-1.json.gz"),
        test::dataPath("hta/trace_filter/sampled_rank-0.json.gz") });
    // pid 4037 is rank 0, pid 4045 rank 1 (distributedInfo.rank); rank 0 first in the header and the devices.
    const auto header0 = out.find("(pid 4037)");
    const auto header1 = out.find("(pid 4045)");
    ASSERT_NE(header0, std::string::npos) << out;
    EXPECT_LT(header0, header1) << out;
    const auto device0 = out.find(", rank 0 \u00b7");
    const auto device1 = out.find(", rank 1 \u00b7");
    ASSERT_NE(device0, std::string::npos) << out;
    ASSERT_NE(device1, std::string::npos) << out;
    EXPECT_LT(device0, device1) << out;
}

} // namespace
} // namespace gapscope::cli
