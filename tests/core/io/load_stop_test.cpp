// SPDX-License-Identifier: MIT
// A stop request (the viewer's Cancel, or a newer load) ends a read at the next window of content and an
// analysis after the device it is measuring, instead of at the end of the work.
#include "core/analysis/analysis.h"
#include "core/io/trace_file.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace gapscope {
namespace {

const char* const kResNet = test::kResnet50Trace;

TEST(LoadStop, AStoppedReadEndsAtTheFirstWindowOfContent)
{
    std::stop_source stop;
    stop.request_stop();
    const auto loaded = loadTraceFile(test::dataPath(kResNet), stop.get_token());
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error().message, "canceled");
    EXPECT_EQ(loaded.error().file, test::dataPath(kResNet));
    // It stopped where the first window of decompressed JSON (1 MiB) ended, not after the whole file.
    ASSERT_TRUE(loaded.error().byteOffset.has_value());
    EXPECT_LE(*loaded.error().byteOffset, std::uint64_t { 1 } << 20);
    // Without a stop request the same file loads (44,666 complete events in the JSON).
    const auto whole = loadTraceFile(test::dataPath(kResNet), std::stop_source().get_token());
    ASSERT_TRUE(whole.ok()) << whole.error().toString();
    EXPECT_GT(whole.value().eventCount(), 40'000u);
}

TEST(LoadStop, AStoppedAnalysisSaysSoAndMeasuresNoDevice)
{
    const auto loaded = loadTraceFile(test::dataPath(kResNet));
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    AnalysisOptions options;
    std::stop_source stop;
    stop.request_stop();
    options.stop = stop.get_token();
    const AnalysisResult stopped = analyze(loaded.value(), options);
    EXPECT_TRUE(stopped.stopped);
    EXPECT_TRUE(stopped.devices.empty());
    EXPECT_EQ(stopped.gaps.size(), 0u);
    // Not asked to stop: the figures of `gapscope report` (utilization 60.57 %).
    const AnalysisResult full = analyze(loaded.value(), AnalysisOptions {});
    EXPECT_FALSE(full.stopped);
    ASSERT_EQ(full.devices.size(), 1u);
    EXPECT_NEAR(full.devices[0].utilization, 0.6057, 0.00005);
}

TEST(LoadStop, LoadTraceFilesNamesEachFileBeforeReadingItAndStopsWhenProgressSaysSo)
{
    const std::vector<std::string> paths { test::dataPath("hta/trace_filter/sampled_rank-0.json.gz"),
        test::dataPath("hta/trace_filter/sampled_rank-1.json.gz") };
    std::vector<std::pair<std::size_t, std::string>> seen;
    LoadOptions options;
    options.progress = [&](std::size_t i, std::size_t count, const std::string& path) {
        EXPECT_EQ(count, 2u);
        seen.emplace_back(i, path);
        return i == 0; // stop before the second file
    };
    const auto stopped = loadTraceFiles(paths, options);
    ASSERT_FALSE(stopped.ok());
    EXPECT_EQ(stopped.error().message, "canceled");
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[0], std::make_pair(std::size_t { 0 }, paths[0]));
    EXPECT_EQ(seen[1], std::make_pair(std::size_t { 1 }, paths[1]));

    // Let through, the progress changes nothing: the two ranks, as without it.
    seen.clear();
    options.progress = [&](std::size_t i, std::size_t, const std::string& path) {
        seen.emplace_back(i, path);
        return true;
    };
    const auto both = loadTraceFiles(paths, options);
    const auto plain = loadTraceFiles(paths);
    ASSERT_TRUE(both.ok()) << both.error().toString();
    ASSERT_TRUE(plain.ok()) << plain.error().toString();
    EXPECT_EQ(seen.size(), 2u);
    ASSERT_EQ(both.value().processes().size(), 2u);
    EXPECT_EQ(both.value().eventCount(), plain.value().eventCount());

    // A stop request before the first file: nothing is read.
    std::stop_source stop;
    stop.request_stop();
    seen.clear();
    options.stop = stop.get_token();
    const auto none = loadTraceFiles(paths, options);
    ASSERT_FALSE(none.ok());
    EXPECT_EQ(none.error().message, "canceled");
    EXPECT_TRUE(seen.empty());
}

} // namespace
} // namespace gapscope
