// SPDX-License-Identifier: MIT
// The exported picture's header computes every figure over the one range it states. A view
// wider than the gpu window had busy and idle of the view but causes of the window only (host 380.1 +
// launch 9.5 + sync 3.3 ≠ idle 569.9 ms); the idle outside the window is now said as such.
#include "app/export/picture_header.h"
#include "app/timeline/timeline_data.h"
#include "core/io/trace_file.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace gapscope;

namespace {

TEST(PictureHeader, ViewWiderThanTheWindowAddsUpOverTheView)
{
    auto loaded = loadTraceFile(test::dataPath(test::kResnet50Trace));
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    const Trace& trace = loaded.value();
    const auto index = timeline::TimelineIndex::build(trace);
    const timeline::AnalysisSnapshot analysis
        = timeline::makeAnalysisSnapshot(trace, analyze(trace, AnalysisOptions {}));
    const DeviceFigures& window = analysis.result->devices.at(0);

    // The whole trace, as Fit Whole Trace shows it: 69.3 ms of CPU work before the first GPU activity.
    picture::PictureRequest request;
    request.trace = &trace;
    request.index = &index;
    request.analysis = analysis.result.get();
    request.gaps = analysis.gaps.get();
    request.start = trace.timeSpan()->first;
    request.end = trace.timeSpan()->second;
    request.origin = request.start;
    const auto devices = picture::summarizeDevices(request);
    ASSERT_EQ(devices.size(), 1u);
    const picture::DeviceSummary& d = devices[0];
    EXPECT_EQ(d.spanNs, request.end - request.start);
    // All GPU activity is inside the gpu window: the view's busy time is the window's.
    EXPECT_EQ(d.busyNs, window.busyNs);
    // Idle by cause is the window's, and the rest of the view's idle time is outside the window.
    const TimeNs byCause = std::accumulate(d.idleByCause.begin(), d.idleByCause.end(), TimeNs { 0 });
    EXPECT_EQ(byCause, window.idleNs);
    EXPECT_EQ(d.outsideWindowNs, d.spanNs - window.spanNs);
    EXPECT_EQ(byCause + d.outsideWindowNs, d.spanNs - d.busyNs);
    // The gpu window starts 69.3 ms after the trace (report: gap +717.6 ms from the trace, +648.3 ms from it).
    EXPECT_NEAR(static_cast<double>(window.window.start() - request.start), 69.3e6, 0.1e6);

    // Over exactly the gpu window, the analysis figures, nothing outside.
    request.start = window.window.start();
    request.end = window.window.end();
    const picture::DeviceSummary exact = picture::summarizeDevices(request).at(0);
    EXPECT_EQ(exact.spanNs, window.spanNs);
    EXPECT_EQ(exact.outsideWindowNs, 0);
    EXPECT_EQ(exact.gapCount, window.gapCount);
}

} // namespace
