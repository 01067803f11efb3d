// SPDX-License-Identifier: MIT
// GPU checks (ctest label `gpu`): tests/clients/cuda_client.cu recorded with CUPTI, checked for kinds,
// counts, streams, correlation and the gap causes its shape was built to have. Skipped, with a
// message, where there is no NVIDIA driver or no CUDA client; tests/gpu/run_gpu_checks.sh builds
// and runs them on a GPU machine.

#include "capture/launcher/program_lookup.h"
#include "capture/launcher/program_recorder.h"
#include "core/analysis/analysis.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

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

class GpuRecordTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        if (!nvidiaDriverPresent())
            GTEST_SKIP() << "no NVIDIA driver on this machine (/proc/driver/nvidia/version is missing): GPU checks "
                            "run on a GPU machine with tests/gpu/run_gpu_checks.sh";
        m_client = cudaClient();
        if (m_client.empty() || ::access(m_client.c_str(), X_OK) != 0)
            GTEST_SKIP() << "the CUDA test client was not built (configure with -DGAPSCOPE_BUILD_CUDA_CLIENT=ON or "
                            "set GAPSCOPE_CUDA_CLIENT)";
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
    const Trace& trace = r.trace;
    ASSERT_EQ(r.summary.processes.size(), 1u);
    EXPECT_EQ(r.summary.processes[0].cuptiActive, true) << r.summary.processes[0].cuptiDetail;
    EXPECT_TRUE(r.summary.processes[0].collectorErrors.empty());
    EXPECT_EQ(r.summary.droppedRecords, 0u);

    std::map<std::int64_t, int> kernelsPerStream;
    std::multiset<std::string> copies;
    int memsets = 0;
    int kernelsWithoutLaunch = 0;
    for (std::uint32_t l = 0; l < trace.lanes.size(); ++l) {
        const Lane& lane = trace.lanes[l];
        if (lane.kind != LaneKind::GpuStream)
            continue;
        for (std::uint32_t i = 0; i < lane.events.size(); ++i) {
            const Event& e = lane.events[i];
            if (e.kind == EventKind::Kernel) {
                ++kernelsPerStream[lane.stream];
                const auto launch = trace.launchOf(EventRef { LaneIndex { l }, i });
                if (!launch || trace.name(trace.event(*launch)) != "cudaLaunchKernel")
                    ++kernelsWithoutLaunch;
            } else if (e.kind == EventKind::Memcpy) {
                copies.insert(std::string(trace.name(e)));
                EXPECT_EQ(e.bytes, 8u << 20);
            } else if (e.kind == EventKind::Memset) {
                ++memsets;
            }
        }
    }
    // 203 kernels on s1 and 2 on s2 (see cuda_client.cu); stream ids are CUPTI's, not the client's.
    std::vector<int> counts;
    for (const auto& [stream, count] : kernelsPerStream)
        counts.push_back(count);
    std::sort(counts.begin(), counts.end());
    EXPECT_EQ(counts, (std::vector<int> { 2, 203 }));
    EXPECT_EQ(kernelsWithoutLaunch, 0);
    EXPECT_EQ(copies,
        (std::multiset<std::string> {
            "Memcpy DtoH (Device -> Pinned)", "Memcpy HtoD (Pageable -> Device)", "Memcpy HtoD (Pinned -> Device)" }));
    EXPECT_EQ(memsets, 1);
    EXPECT_GT(r.summary.eventsByKind[static_cast<int>(EventKind::RuntimeApi)], 205u);
    EXPECT_GT(r.summary.eventsByKind[static_cast<int>(EventKind::DriverApi)], 0u);
    EXPECT_GT(r.summary.eventsByKind[static_cast<int>(EventKind::Sync)], 0u);
    EXPECT_EQ(r.summary.eventsByKind[static_cast<int>(EventKind::NvtxRange)], 5u);
    ASSERT_EQ(trace.devices.size(), 1u);
    EXPECT_FALSE(trace.devices[0].name.empty());
}

TEST_F(GpuRecordTest, GapCausesAreTheOnesTheClientWasBuiltToHave)
{
    const RecordResult r = record(kAllRecordKinds);
    ASSERT_EQ(r.exit.exitCode, 0);
    const AnalysisResult analysis = analyze(r.trace, AnalysisOptions {});
    int hostGaps = 0;
    int syncGaps = 0;
    int launchGaps = 0;
    for (const Gap& gap : analysis.gaps) {
        if (gap.stream)
            continue; // device gaps only
        const double ms = static_cast<double>(gap.duration()) / 1e6;
        if (gap.cause == GapCause::Host && ms > 4.0 && ms < 8.0)
            ++hostGaps; // the 5 ms host sleep
        if (gap.cause == GapCause::Sync && ms > 2.0 && ms < 6.0)
            ++syncGaps; // the 3 ms of host work after cudaDeviceSynchronize
        if (gap.cause == GapCause::Launch)
            ++launchGaps; // between the burst's kernels
    }
    EXPECT_EQ(hostGaps, 1);
    EXPECT_EQ(syncGaps, 1);
    EXPECT_GE(launchGaps, 100);
}

TEST_F(GpuRecordTest, KindsSelectWhatIsRecorded)
{
    const RecordResult r = record(RecordKernels);
    ASSERT_EQ(r.exit.exitCode, 0);
    EXPECT_EQ(r.summary.eventsByKind[static_cast<int>(EventKind::Kernel)], 205u);
    EXPECT_EQ(r.summary.eventsByKind[static_cast<int>(EventKind::RuntimeApi)], 0u);
    EXPECT_EQ(r.summary.eventsByKind[static_cast<int>(EventKind::Memcpy)], 0u);
    EXPECT_EQ(r.summary.eventsByKind[static_cast<int>(EventKind::NvtxRange)], 0u);
}

TEST_F(GpuRecordTest, LoopReportsItsTimeAndEveryLaunchIsRecorded)
{
    const RecordResult r = record(kAllRecordKinds, { "kernel-loop", "1000", "20" });
    ASSERT_EQ(r.exit.exitCode, 0);
    // 100 warm-up kernels and the 1000 measured ones.
    EXPECT_EQ(r.summary.eventsByKind[static_cast<int>(EventKind::Kernel)], 1100u);
    EXPECT_EQ(r.summary.droppedRecords, 0u);
}

} // namespace
} // namespace gapscope::capture
