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

/// Records a client that starts the collector's CUDA side on a machine without a driver.
class RecordCudaInjectionTest : public ::testing::Test {
protected:
    void SetUp() override
    {
#ifndef GAPSCOPE_INJECT_HAS_CUPTI
        GTEST_SKIP() << "the collector was built without CUPTI: it has no InitializeInjection";
#endif
        if (nvidiaDriverPresent())
            GTEST_SKIP() << "an NVIDIA driver is present: CUPTI accepts the subscription here (the GPU tests cover it)";
    }

    /// The recording of `client`, which must have run and exited 0; empty on failure.
    std::optional<RecordResult> record(const std::string& client)
    {
        RecordOptions options = test::clientOptions(client);
        options.output = RecordOptions::Output::Capture;
        ProgramRecorder recorder(options);
        EXPECT_EQ(recorder.start(), std::nullopt);
        auto result = recorder.wait(&observer);
        EXPECT_TRUE(result) << result.error().toString();
        if (!result)
            return std::nullopt;
        EXPECT_EQ(result.value().exit.exitCode, 0);
        return std::move(result.value());
    }

    test::CollectingObserver observer;
};

TEST_F(RecordCudaInjectionTest, WithoutADriverCuptiRefusesTheSubscriptionAndNothingIsEnabled)
{
    const std::optional<RecordResult> recorded = record(GAPSCOPE_INJECT_CLIENT);
    ASSERT_TRUE(recorded);
    const RecordResult& r = *recorded;
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

TEST_F(RecordCudaInjectionTest, NvtxFirstThenTheDriverCallingInitializeInjectionInsideTheCollectorsStartIsSafe)
{
    const std::optional<RecordResult> recorded = record(GAPSCOPE_NVTX_FIRST_CLIENT);
    ASSERT_TRUE(recorded);
    const RecordResult& r = *recorded;
    // The collector's start called the fake cuptiGetTimestamp, which entered InitializeInjection on the
    // same thread; the CUDA start-up ran once the collector existed, not "CUDA injection failed".
    EXPECT_EQ(observer.out, "reentered InitializeInjection: 1\ndone\n");
    EXPECT_EQ(observer.err.find("CUDA injection failed"), std::string::npos) << observer.err;
    ASSERT_EQ(r.summary.processes.size(), 1u);
    const RecordedProcess& p = r.summary.processes[0];
    EXPECT_EQ(p.cuptiActive, false);
    EXPECT_EQ(p.cuptiDetail,
        "cuptiSubscribe_v2 failed: CUPTI_ERROR_UNKNOWN (999). No usable CUDA driver or GPU: only NVTX and CPU "
        "ranges were recorded");
    EXPECT_TRUE(p.closedCleanly);
    EXPECT_EQ(r.trace.eventCount(), r.summary.overheadEvents + 1); // the "setup" range and the collector's flushes
}

} // namespace
} // namespace gapscope::capture
