// SPDX-License-Identifier: MIT
// The bookkeeping both recorders share for repeated runs: which runs failed and why, which left a trace, and the
// line that ends a series.

#include "capture/launcher/run_series.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>

using namespace gapscope;

namespace {

TEST(RunSeriesTest, RunsAreNamedInOrderAndStartNow)
{
    const ManifestRun first = capture::beginSeriesRun(1);
    const ManifestRun third = capture::beginSeriesRun(3);
    EXPECT_EQ(first.file, "run-1.gapscope");
    EXPECT_EQ(third.file, "run-3.gapscope");
    EXPECT_GE(third.startNs, first.startNs);
    // ISO 8601 UTC to the millisecond, the same instant as startNs.
    ASSERT_EQ(first.startTime.size(), 24u) << first.startTime;
    EXPECT_EQ(first.startTime.back(), 'Z');
    EXPECT_EQ(first.startTime.substr(20, 3), std::to_string(first.startNs / 1'000'000 % 1000 + 1000).substr(1));
}

TEST(RunSeriesTest, AZeroExitSucceedsAndAnyOtherEndFails)
{
    ManifestRun ok = capture::beginSeriesRun(1);
    capture::endSeriesRun(ok, capture::ProgramExit { 0, std::nullopt }, 1.25, "");
    EXPECT_FALSE(ok.failed);
    EXPECT_EQ(ok.exitCode, 0);
    EXPECT_EQ(ok.signal, std::nullopt);
    EXPECT_EQ(ok.wallSeconds, 1.25);
    EXPECT_EQ(ok.file, "run-1.gapscope");

    ManifestRun code = capture::beginSeriesRun(2);
    capture::endSeriesRun(code, capture::ProgramExit { 3, std::nullopt }, 0.5, "");
    EXPECT_TRUE(code.failed);
    EXPECT_EQ(code.failure, "exited with code 3");
    EXPECT_EQ(code.file, "run-2.gapscope"); // its trace was written and names what it did before it failed

    ManifestRun signal = capture::beginSeriesRun(3);
    capture::endSeriesRun(signal, capture::ProgramExit { std::nullopt, SIGABRT }, 0.5, "");
    EXPECT_TRUE(signal.failed);
    EXPECT_EQ(signal.signal, SIGABRT);
    EXPECT_EQ(signal.failure.rfind("was ended by signal 6", 0), 0u) << signal.failure;
}

TEST(RunSeriesTest, ARunWithoutATraceKeepsNoFileName)
{
    ManifestRun never = capture::beginSeriesRun(1);
    capture::endSeriesRun(never, std::nullopt, 0.0, "cannot run 'nope': not found");
    EXPECT_TRUE(never.failed);
    EXPECT_EQ(never.failure, "cannot run 'nope': not found");
    EXPECT_EQ(never.file, "");

    // The program ran but its trace could not be written: it ran, so its exit is kept with the reason.
    ManifestRun unwritten = capture::beginSeriesRun(2);
    capture::endSeriesRun(unwritten, capture::ProgramExit { 0, std::nullopt }, 2.0, "disk full");
    EXPECT_TRUE(unwritten.failed);
    EXPECT_EQ(unwritten.failure, "disk full");
    EXPECT_EQ(unwritten.exitCode, 0);
}

TEST(RunSeriesTest, TheLastLineCountsTheRunsAndNamesTheFailedOnes)
{
    RunsManifest manifest;
    manifest.runs.push_back(capture::beginSeriesRun(1));
    capture::endSeriesRun(manifest.runs.back(), capture::ProgramExit { 0, std::nullopt }, 1.0, "");
    EXPECT_EQ(capture::seriesSummaryLine(manifest, 3, "/r"),
        "Recorded 1 of 3 runs into /r (manifest gapscope-runs.json); compare two such folders with: gapscope diff "
        "BASE_DIR NEW_DIR");
    manifest.runs.push_back(capture::beginSeriesRun(2));
    capture::endSeriesRun(manifest.runs.back(), capture::ProgramExit { 2, std::nullopt }, 1.0, "");
    manifest.runs.push_back(capture::beginSeriesRun(3));
    capture::endSeriesRun(manifest.runs.back(), std::nullopt, 0.0, "no collector");
    EXPECT_EQ(capture::seriesSummaryLine(manifest, 3, "/r"),
        "Recorded 3 of 3 runs into /r (manifest gapscope-runs.json); 2 failed, left out of comparisons: run 2 "
        "(exited with code 2); run 3 (no collector);");
    EXPECT_EQ(manifest.goodRunFiles(), std::vector<std::string> { "run-1.gapscope" });
}

TEST(RunSeriesTest, EnvironmentChangesAreWhatDiffersFromOurOwn)
{
    ::setenv("GAPSCOPE_SERIES_SAME", "1", 1);
    ::setenv("GAPSCOPE_SERIES_CHANGED", "old", 1);
    ::setenv("GAPSCOPE_SERIES_GONE", "x", 1);
    std::vector<std::string> program;
    for (char** entry = environ; entry && *entry; ++entry) {
        const std::string text = *entry;
        if (text.rfind("GAPSCOPE_SERIES_", 0) != 0)
            program.push_back(text);
    }
    program.push_back("GAPSCOPE_SERIES_SAME=1");
    program.push_back("GAPSCOPE_SERIES_CHANGED=new");
    program.push_back("GAPSCOPE_SERIES_ADDED=a=b");
    using Change = std::pair<std::string, std::optional<std::string>>;
    EXPECT_EQ(capture::environmentChanges(program),
        (std::vector<Change> { { "GAPSCOPE_SERIES_CHANGED", "new" }, { "GAPSCOPE_SERIES_ADDED", "a=b" },
            { "GAPSCOPE_SERIES_GONE", std::nullopt } }));
    ::unsetenv("GAPSCOPE_SERIES_SAME");
    ::unsetenv("GAPSCOPE_SERIES_CHANGED");
    ::unsetenv("GAPSCOPE_SERIES_GONE");
}

} // namespace
