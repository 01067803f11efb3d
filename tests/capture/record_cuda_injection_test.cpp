// SPDX-License-Identifier: MIT
// The collector's CUDA start-up on a machine without an NVIDIA driver: tests/clients/inject_client.cpp
// calls InitializeInjection as the driver would. CUPTI refuses the subscription, which comes before
// anything is registered or enabled: the collector enables nothing, says why in
// the summary, and the program runs on.

#include "capture/launcher/program_lookup.h"
#include "tests/capture/record_test_support.h"

#include <gtest/gtest.h>

namespace gapscope::capture {
namespace {

TEST(RecordCudaInjectionTest, WithoutADriverCuptiRefusesTheSubscriptionAndNothingIsEnabled)
{
#ifndef GAPSCOPE_INJECT_HAS_CUPTI
    GTEST_SKIP() << "the collector was built without CUPTI: it has no InitializeInjection";
#endif
    if (nvidiaDriverPresent())
        GTEST_SKIP() << "an NVIDIA driver is present: CUPTI accepts the subscription here (the GPU tests cover it)";
    RecordOptions options = test::clientOptions(GAPSCOPE_INJECT_CLIENT);
    options.output = RecordOptions::Output::Capture;
    ProgramRecorder recorder(options);
    ASSERT_EQ(recorder.start(), std::nullopt);
    test::CollectingObserver observer;
    auto result = recorder.wait(&observer);
    ASSERT_TRUE(result) << result.error().toString();
    const RecordResult& r = result.value();
    EXPECT_EQ(r.exit.exitCode, 0);
    EXPECT_EQ(observer.out, "InitializeInjection: 1 1\n"); // the program is never failed by its profiler
    ASSERT_EQ(r.summary.processes.size(), 1u);
    const RecordedProcess& p = r.summary.processes[0];
    EXPECT_EQ(p.cuptiActive, false);
    const std::string refused = "cuptiSubscribe_v2 failed: CUPTI_ERROR_UNKNOWN (999). No usable CUDA driver or GPU: "
                                "only NVTX and CPU ranges were recorded";
    EXPECT_EQ(p.cuptiDetail, refused);
    // Said once (the second InitializeInjection does nothing), and nothing was registered or enabled
    // after the refusal: no cuptiActivityEnable error follows it.
    EXPECT_EQ(p.collectorErrors, (std::vector<std::string> { refused }));
    EXPECT_TRUE(p.closedCleanly);
    EXPECT_EQ(r.trace.eventCount(), r.summary.overheadEvents); // only the collector's own flushes
    const std::string text = formatSummary(r.summary, r.exit, r.wallSeconds);
    EXPECT_NE(text.find("CUDA: failed\n    CUPTI: " + refused + "\n"), std::string::npos) << text;
}

} // namespace
} // namespace gapscope::capture
