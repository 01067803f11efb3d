// SPDX-License-Identifier: MIT
// Findings of the fuzz targets (tests/fuzz/), each with its input in tests/data/malformed/ and a hand-built
// case that shows what went wrong.

#include "core/analysis/analysis.h"
#include "core/io/native/native_trace_reader.h"
#include "tests/core/trace_builder.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>

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
    test::TraceBuilder b;
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

// The fuzz input (a converted Kineto trace with one CPU event's start mutated to -6.1e18 ns): over the `trace`
// window the device and its stream are idle from that start to the first GPU op, 7.8e18 ns, while the launching
// thread runs aten::zeros over all of it.
TEST(FuzzRegression, NativeCaptureWithAHostRangeOverAHugeGap)
{
    auto capture = NativeTraceReader::readFile(test::dataPath("malformed/fuzz_host_range_overflow.gapscope"));
    ASSERT_TRUE(capture) << capture.error().toString();
    const Trace& trace = capture.value();
    AnalysisOptions options;
    options.window.kind = WindowKind::Trace;
    const AnalysisResult result = analyze(trace, options);
    std::vector<std::string> huge;
    for (const Gap gap : result.gaps) {
        if (gap.end - gap.start < 1'000'000'000'000'000'000)
            continue;
        const GapEvidence evidence = gapEvidence(trace, gap);
        huge.push_back(std::to_string(gap.start) + " " + std::to_string(gap.end) + " "
            + std::string(gapCauseName(gap.cause)) + " "
            + (evidence.hostRange ? std::string(trace.name(trace.event(*evidence.hostRange))) : "-"));
    }
    const std::string expected = "-6149225908451272128 1623142623529248000 host aten::zeros";
    EXPECT_EQ(huge, (std::vector<std::string> { expected, expected })); // the device gap, then the stream's
}

} // namespace
} // namespace gapscope
