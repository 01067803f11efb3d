// SPDX-License-Identifier: MIT
// Findings of the fuzz targets (tests/fuzz/), each with its input in tests/data/malformed/ and a hand-built
// case that shows what went wrong.

#include "core/analysis/analysis.h"
#include "core/io/chrome/chrome_trace_reader.h"
#include "core/io/native/native_trace_reader.h"
#include "tests/core/hand_trace.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace gapscope {
namespace {

using test::findEvent;

// A host range that covers a gap of more than 4.6e18 ns: `2 * overlap > length` overflowed an int64 (UBSan:
// signed integer overflow in GapEvidenceFinder::hostRangeCovering) and, wrapped to a negative number, hid the
// range from the gap's evidence.
TEST(FuzzRegression, HostRangeOfAGapLongerThanHalfTheInt64Range)
{
    test::HandTrace b;
    b.device(0)
        .runtime(1, 0.5, 0.9, "cudaLaunchKernel", 1)
        .kernel(7, 1.0, 2.0, "first", 1)
        .cpuOp(1, 2.0, 6.0e15, "data_prep") // 6e18 ns
        .runtime(1, 6.0e15, 6.0e15 + 1.0, "cudaLaunchKernel", 2)
        .kernel(7, 6.0e15 + 2.0, 6.0e15 + 3.0, "second", 2);
    const Trace trace = b.build();
    AnalysisOptions options;
    options.streamGaps = false;
    const AnalysisResult result = analyze(trace, options);
    ASSERT_EQ(result.gaps.size(), 1u);
    const Gap gap = result.gaps[0];
    EXPECT_EQ(gap.start, 2'000);
    EXPECT_EQ(gap.end, test::us(6.0e15 + 2.0));
    EXPECT_GT(gap.end - gap.start, TimeNs { 1 } << 62);
    EXPECT_EQ(gap.cause, GapCause::Host);
    EXPECT_EQ(gapEvidence(trace, gap).hostRange, findEvent(trace, "data_prep"));
}

// The fuzz inputs: converted Kineto traces with one event's start mutated far before the clock's zero (-6.1e18
// and -8.7e18 ns). Durations from there overflowed an int64 (UBSan in hostRangeCovering, then in
// Interval::length); the reader now skips events beyond 2^62 ns, with a warning naming the byte.
struct FarEventCase {
    const char* file;
    std::uint64_t skipped; // events the reader skips (the second file has other bad records too)
    std::optional<std::uint64_t> farOffset; // of the far event's warning, where it is one of the first 20
    bool spansSeconds; // the second file keeps another mutated event, 4.7e18 ns away but within the limit
};

class FuzzRegressionFarEvent : public ::testing::TestWithParam<FarEventCase> { };

TEST_P(FuzzRegressionFarEvent, IsSkippedAndTheRestAnalyzes)
{
    const std::string path = test::dataPath(std::string("malformed/") + GetParam().file);
    auto capture = NativeTraceReader::readFile(path);
    ASSERT_TRUE(capture) << capture.error().toString();
    const Trace& trace = capture.value();
    EXPECT_EQ(trace.skippedEvents(), GetParam().skipped);
    if (GetParam().farOffset) {
        ASSERT_FALSE(trace.warnings().empty());
        EXPECT_EQ(trace.warnings()[0].byteOffset, GetParam().farOffset);
        EXPECT_NE(trace.warnings()[0].message.find("beyond 2^62 ns"), std::string::npos) << trace.warnings()[0].message;
    }
    AnalysisOptions options;
    options.window.kind = WindowKind::Trace;
    const AnalysisResult result = analyze(trace, options);
    ASSERT_EQ(result.devices.size(), 1u);
    EXPECT_GT(result.devices[0].spanNs, 0);
    if (GetParam().spansSeconds)
        EXPECT_LT(result.devices[0].spanNs, 1'000'000'000'000); // seconds, not centuries
    EXPECT_EQ(result.devices[0].busyNs + result.devices[0].idleNs, result.devices[0].spanNs);
}

INSTANTIATE_TEST_SUITE_P(Inputs, FuzzRegressionFarEvent,
    ::testing::Values(FarEventCase { "fuzz_host_range_overflow.gapscope", 1, 14760, true },
        FarEventCase { "fuzz_duration_overflow.gapscope", 37, std::nullopt, false }));

// Found by the chrome_json fuzz target: a top-level object that closes early (`{..., "pid": 3727853, ...}, {...`).
// Read whole, it is "not a Chrome trace" at byte 0; read through a 64-byte window, the number 3727853 was cut at
// byte 64 and "853" failed as a syntax error there. Both readings must give the same error at the same byte
// (the hand-built case: TopLevelValueAcrossWindows in chrome_trace_reader_errors_test.cpp).
TEST(FuzzRegression, TopLevelNumberCutByTheWindowGivesTheSameErrorAsTheWholeFile)
{
    std::ifstream in(test::dataPath("malformed/fuzz_top_level_number_across_window.json"), std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    const std::string json = bytes.str();
    ASSERT_EQ(json.size(), 27148u);
    const auto whole = ChromeTraceReader::parse(json, "fuzz.json");
    for (const std::size_t window : { 16, 64, 100, 4096 }) {
        ChromeReadOptions options;
        options.windowBytes = window;
        const auto windowed = ChromeTraceReader::parse(json, "fuzz.json", options);
        ASSERT_FALSE(whole.ok());
        ASSERT_FALSE(windowed.ok()) << window;
        EXPECT_EQ(windowed.error().byteOffset, 0u) << window << ": " << windowed.error().toString();
        EXPECT_EQ(windowed.error().message, whole.error().message) << window;
    }
    EXPECT_EQ(whole.error().message, "not a Chrome trace: the top-level object has no \"traceEvents\" array");
}

} // namespace
} // namespace gapscope
