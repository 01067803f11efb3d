// SPDX-License-Identifier: MIT
// GPU checks (ctest label `gpu`): tests/clients/cuda_client.cu recorded with CUPTI, checked for kinds,
// counts, streams, correlation (kernels, copies and memsets to the calls that launched them, with
// and without driver records), synchronization records, CUDA graphs, two host threads, a fork, and
// the gap causes its shape was built to have. Skipped, with a message, where there is no NVIDIA
// driver or no CUDA client -- except under GAPSCOPE_REQUIRE_GPU=1, which
// tests/gpu/run_gpu_checks.sh sets: there a skip would hide that nothing was checked, so it fails.

#include "capture/launcher/program_lookup.h"
#include "capture/launcher/program_recorder.h"
#include "tests/capture/gpu_capture_checks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

namespace gapscope::capture {
namespace {

std::string cudaClient()
{
    if (const char* path = std::getenv("GAPSCOPE_CUDA_CLIENT"); path && *path)
        return path;
#ifdef GAPSCOPE_CUDA_CLIENT
    return GAPSCOPE_CUDA_CLIENT;
#else
    return {};
#endif
}

bool gpuRequired()
{
    const char* value = std::getenv("GAPSCOPE_REQUIRE_GPU");
    return value && *value && std::string(value) != "0";
}

class GpuRecordTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        if (!nvidiaDriverPresent()) {
            if (gpuRequired())
                FAIL()
                    << "GAPSCOPE_REQUIRE_GPU is set but neither /proc/driver/nvidia/version nor /dev/nvidiactl exists";
            GTEST_SKIP() << "no NVIDIA driver on this machine (neither /proc/driver/nvidia/version nor /dev/nvidiactl "
                            "exists): GPU checks run on a GPU machine with tests/gpu/run_gpu_checks.sh";
        }
        m_client = cudaClient();
        if (m_client.empty() || ::access(m_client.c_str(), X_OK) != 0) {
            if (gpuRequired())
                FAIL() << "GAPSCOPE_REQUIRE_GPU is set but the CUDA test client is missing: " << m_client;
            GTEST_SKIP() << "the CUDA test client was not built (configure with -DGAPSCOPE_BUILD_CUDA_CLIENT=ON or "
                            "set GAPSCOPE_CUDA_CLIENT)";
        }
    }

    RecordResult record(std::uint32_t kinds, std::vector<std::string> arguments = {})
    {
        RecordOptions options;
        options.program = m_client;
        options.arguments = std::move(arguments);
        options.injectionLibrary = GAPSCOPE_INJECT_LIBRARY;
        options.kinds = kinds;
        ProgramRecorder recorder(options);
        const auto error = recorder.start();
        EXPECT_EQ(error, std::nullopt);
        auto result = recorder.wait();
        EXPECT_TRUE(result) << (result ? "" : result.error().toString());
        return result ? std::move(result.value()) : RecordResult {};
    }

    std::string m_client;
};

TEST_F(GpuRecordTest, ShapeHasTheKindsCountsStreamsAndCorrelationsOfTheClient)
{
    const RecordResult r = record(kAllRecordKinds);
    ASSERT_EQ(r.exit.exitCode, 0);
    test::checkShape(r.trace, r.summary);
}

TEST_F(GpuRecordTest, GapCausesAreTheOnesTheClientWasBuiltToHave)
{
    const RecordResult r = record(kAllRecordKinds);
    ASSERT_EQ(r.exit.exitCode, 0);
    test::checkGapCauses(r.trace, r.summary);
}

TEST_F(GpuRecordTest, KindsSelectWhatIsRecorded)
{
    const RecordResult r = record(RecordKernels);
    ASSERT_EQ(r.exit.exitCode, 0);
    test::checkKernelsOnly(r.trace, r.summary);
}

TEST_F(GpuRecordTest, WithoutDriverRecordsGpuOpsStillLinkToTheRuntimeCalls)
{
    const RecordResult r = record(kAllRecordKinds & ~RecordDriver);
    ASSERT_EQ(r.exit.exitCode, 0);
    test::checkWithoutDriver(r.trace, r.summary);
}

TEST_F(GpuRecordTest, GraphLaunchesAreRecordedKernelByKernel)
{
    const RecordResult r = record(kAllRecordKinds, { "graph" });
    ASSERT_EQ(r.exit.exitCode, 0);
    test::checkGraph(r.trace, r.summary);
}

TEST_F(GpuRecordTest, TwoHostThreadsGetALaneEachWithTheirLaunches)
{
    const RecordResult r = record(kAllRecordKinds, { "threads" });
    ASSERT_EQ(r.exit.exitCode, 0);
    test::checkThreads(r.trace, r.summary);
}

TEST_F(GpuRecordTest, AForkedChildRecordsItsOwnCudaActivity)
{
    const RecordResult r = record(kAllRecordKinds, { "fork" });
    ASSERT_EQ(r.exit.exitCode, 0);
    test::checkFork(r.trace, r.summary);
}

TEST_F(GpuRecordTest, LoopReportsItsTimeAndEveryLaunchIsRecorded)
{
    const RecordResult r = record(kAllRecordKinds, { "kernel-loop", "1000", "20" });
    ASSERT_EQ(r.exit.exitCode, 0);
    test::checkLoop(r.trace, r.summary);
}

} // namespace
} // namespace gapscope::capture
