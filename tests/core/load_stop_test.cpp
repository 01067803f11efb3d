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

const char* const kResNet = "kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz";

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

} // namespace
} // namespace gapscope
