// SPDX-License-Identifier: MIT
#include "core/experiment/runs_folder.h"

#include "core/experiment/runs_manifest.h"
#include "tests/temp_dir.h"

#include <gtest/gtest.h>

namespace gapscope {
namespace {

TEST(MedianRun, TheRunWhoseStepP50IsTheMedianOfTheRuns)
{
    // p50s (nearest rank): 30, 10, 20 -> sorted 10 (run 1), 20 (run 2), 30 (run 0): the median is run 2.
    EXPECT_EQ(medianRun({ { 30, 31, 29 }, { 10, 12, 8 }, { 20, 50, 5 } }), 2u);
    // An even count: the lower middle. p50s 40, 10, 30, 20 -> 10, 20, 30, 40: the 2nd, 20, is run 3.
    EXPECT_EQ(medianRun({ { 40 }, { 10 }, { 30 }, { 20 } }), 3u);
    // Ties keep run order; a run without steps counts as the longest.
    EXPECT_EQ(medianRun({ { 7 }, { 7 } }), 0u);
    EXPECT_EQ(medianRun({ {}, { 5 }, { 9 } }), 2u);
    EXPECT_EQ(medianRun({ { 3 } }), 0u);
}

TEST(RunsFolderRead, TheGoodRunsInRunOrderAndTheirNumbersAmongAll)
{
    const test::TempDir dir;
    RunsManifest manifest;
    manifest.runs.resize(4);
    manifest.runs[0].failed = true;
    manifest.runs[0].failure = "exit code 1";
    manifest.runs[1].file = "run-2.gapscope";
    manifest.runs[2].file = "run-3.gapscope";
    manifest.runs[3].file = "run-4.gapscope";
    ASSERT_TRUE(writeRunsManifest(dir.path().string(), manifest));
    const auto read = readRunsFolder(dir.path().string());
    ASSERT_TRUE(read) << read.error().toString();
    ASSERT_TRUE(read->has_value());
    const RunsFolder& runs = **read;
    EXPECT_EQ(runs.runFiles,
        (std::vector<std::string> {
            dir.file("run-2.gapscope"), dir.file("run-3.gapscope"), dir.file("run-4.gapscope") }));
    EXPECT_EQ(runs.runNumbers, (std::vector<std::size_t> { 2, 3, 4 }));
    EXPECT_EQ(runs.manifestRuns, 4u);
    EXPECT_EQ(medianRunText(runs, 1), "run 3 of 4, the median");

    // A trace file, or a folder without a manifest (one job's ranks), is no folder of runs.
    const test::TempDir plain;
    EXPECT_FALSE(readRunsFolder(plain.path().string())->has_value());
    EXPECT_FALSE(readRunsFolder(dir.file("run-2.gapscope"))->has_value());

    // Every run failed: an error that says so.
    for (ManifestRun& run : manifest.runs) {
        run.failed = true;
        run.file.clear();
    }
    ASSERT_TRUE(writeRunsManifest(dir.path().string(), manifest));
    const auto none = readRunsFolder(dir.path().string());
    ASSERT_FALSE(none);
    EXPECT_NE(none.error().toString().find("holds no run that did not fail"), std::string::npos)
        << none.error().toString();
}

} // namespace
} // namespace gapscope
