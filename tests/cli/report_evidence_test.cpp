// SPDX-License-Identifier: MIT
// `report --json`'s samples, counters and the samples and memory of a gap's evidence, on pipit's saxpy export and
// TraceLens' BERT trace (tests/data/NOTICE.md); figures from sqlite3 queries and a Python pass over the events.
#include "cli/commands.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

namespace gapscope::cli {
namespace {

nlohmann::json reportJson(const std::vector<std::string>& args)
{
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(runReport(args, out, err), 0) << err.str();
    return nlohmann::json::parse(out.str());
}

TEST(ReportEvidence, SamplesPerThreadAndTheSampledFunctionsOfAGap)
{
    const auto doc = reportJson({ "--json", test::dataPath("nsys/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite") });
    // SELECT count(*) FROM COMPOSITE_EVENTS GROUP BY globalTid: 5,451 on thread 1230493 of process 1230493.
    ASSERT_TRUE(doc.contains("samples"));
    EXPECT_EQ(doc["samples"]["window"], "trace");
    EXPECT_EQ(doc["samples"]["count"], 5451);
    ASSERT_EQ(doc["samples"]["by_thread"].size(), 1u);
    EXPECT_EQ(doc["samples"]["by_thread"][0]["pid"], 1230493);
    EXPECT_EQ(doc["samples"]["by_thread"][0]["tid"], 1230493);
    EXPECT_EQ(doc["samples"]["by_thread"][0]["count"], 5451);
    // The gap [962,467,264, 1,158,713,065): 968 samples of the launching thread, main first (605 self, 692 total).
    bool found = false;
    for (const auto& gap : doc["gaps"]) {
        if (gap["start_ns"] != 962467264 || !gap["stream"].is_null())
            continue;
        found = true;
        const auto& samples = gap["evidence"]["samples"];
        ASSERT_TRUE(samples.is_object()) << gap.dump();
        EXPECT_EQ(samples["count"], 968);
        EXPECT_EQ(samples["top"][0]["function"], "main");
        EXPECT_EQ(samples["top"][0]["self"], 605);
        EXPECT_EQ(samples["top"][0]["total"], 692);
        EXPECT_EQ(samples["top"][0]["module"], "/global/u2/o/ocankur/apps/chatterbug/saxpy-mpi-cuda/saxpy-mpi-cuda");
        EXPECT_TRUE(gap["evidence"]["memory"].is_null());
    }
    EXPECT_TRUE(found);
    EXPECT_TRUE(doc["counters"].empty());
}

TEST(ReportEvidence, CountersOverTheWindowWithTheirDevice)
{
    const auto doc = reportJson({ "--json", "--window", "trace",
        test::dataPath("tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz") });
    EXPECT_EQ(doc["samples"]["count"], 0);
    bool allocated = false;
    for (const auto& c : doc["counters"]) {
        if (c["name"] != "memory allocated")
            continue;
        allocated = true;
        EXPECT_EQ(c["unit"], "bytes");
        EXPECT_EQ(c["device"], 0);
        // Over the trace window, which holds every [memory] event: max and min of the GPU events' Total
        // Allocated, 101,305,344 and 91,360,768.
        EXPECT_EQ(c["max"], 101305344.0);
        EXPECT_EQ(c["min"], 91360768.0);
        EXPECT_GT(c["mean"].get<double>(), 91360768.0);
        EXPECT_LT(c["mean"].get<double>(), 101305344.0);
        EXPECT_EQ(c["window"]["kind"], "trace");
    }
    EXPECT_TRUE(allocated) << doc["counters"].dump();
}

} // namespace
} // namespace gapscope::cli
