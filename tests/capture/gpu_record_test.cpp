// SPDX-License-Identifier: MIT
// GPU checks (ctest label `gpu`): tests/clients/cuda_client.cu recorded with CUPTI, checked for kinds,
// counts, streams, correlation (kernels, copies and memsets to the calls that launched them, with
// and without driver records), synchronization records, CUDA graphs, two host threads, a fork, and
// the gap causes its shape was built to have. Skipped, with a message, where there is no NVIDIA
// driver or no CUDA client -- except under GAPSCOPE_REQUIRE_GPU=1, which
// tests/gpu/run_gpu_checks.sh sets: there a skip would hide that nothing was checked, so it fails.

#include "capture/launcher/program_lookup.h"
#include "capture/launcher/program_recorder.h"
#include "core/analysis/analysis.h"

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

/// CUPTI's API version from the collector's status ("CUPTI API version 130001, ..."), 0 if absent.
std::uint32_t cuptiVersion(const RecordResult& r)
{
    for (const RecordedProcess& p : r.summary.processes) {
        const auto at = p.cuptiDetail.find("CUPTI API version ");
        if (at != std::string::npos)
            return static_cast<std::uint32_t>(std::strtoul(p.cuptiDetail.c_str() + at + 18, nullptr, 10));
    }
    return 0;
}

/// The API call a GPU op correlates with; for a driver call, the runtime call around it on its
/// thread (a memset correlates with the driver call cudaMemsetAsync makes).
std::string launchingCall(const Trace& trace, EventRef op)
{
    const auto launch = trace.launchOf(op);
    if (!launch)
        return {};
    const Event& call = trace.event(*launch);
    if (call.kind != EventKind::DriverApi)
        return std::string(trace.name(call));
    for (const Event& e : trace.lanes()[launch->lane.value].events) {
        if (e.kind == EventKind::RuntimeApi && e.start <= call.start && e.end >= call.end)
            return std::string(trace.name(e));
    }
    return std::string(trace.name(call));
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
    const Trace& trace = r.trace;
    ASSERT_EQ(r.summary.processes.size(), 1u);
    EXPECT_EQ(r.summary.processes[0].cuptiActive, true) << r.summary.processes[0].cuptiDetail;
    EXPECT_TRUE(r.summary.processes[0].collectorErrors.empty());
    EXPECT_EQ(r.summary.droppedRecords, 0u);

    std::map<std::int64_t, int> kernelsPerStream;
    std::multiset<std::string> copies;
    std::multiset<std::string> copyCalls;
    std::vector<std::string> memsetCalls;
    int memsets = 0;
    int kernelsWithoutLaunch = 0;
    std::map<std::string, int> syncs;
    for (std::uint32_t l = 0; l < trace.lanes().size(); ++l) {
        const Lane& lane = trace.lanes()[l];
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
                copyCalls.insert(launchingCall(trace, EventRef { LaneIndex { l }, i }));
                EXPECT_EQ(e.bytes, 8u << 20);
            } else if (e.kind == EventKind::Memset) {
                ++memsets;
                memsetCalls.push_back(launchingCall(trace, EventRef { LaneIndex { l }, i }));
            } else if (e.kind == EventKind::Sync) {
                ++syncs[std::string(trace.name(e))];
            }
        }
    }
    // 203 kernels on s1 and 3 on s2 (see cuda_client.cu); stream ids are CUPTI's, not the client's.
    std::vector<int> counts;
    for (const auto& [stream, count] : kernelsPerStream)
        counts.push_back(count);
    std::sort(counts.begin(), counts.end());
    EXPECT_EQ(counts, (std::vector<int> { 3, 203 }));
    EXPECT_EQ(kernelsWithoutLaunch, 0);
    EXPECT_EQ(copies,
        (std::multiset<std::string> {
            "Memcpy DtoH (Device -> Pinned)", "Memcpy HtoD (Pageable -> Device)", "Memcpy HtoD (Pinned -> Device)" }));
    EXPECT_EQ(copyCalls, (std::multiset<std::string> { "cudaMemcpy", "cudaMemcpyAsync", "cudaMemcpyAsync" }));
    EXPECT_EQ(memsets, 1);
    EXPECT_EQ(memsetCalls, (std::vector<std::string> { "cudaMemsetAsync" }));
    EXPECT_GT(r.summary.eventsByKind[static_cast<int>(EventKind::RuntimeApi)], 206u);
    EXPECT_GT(r.summary.eventsByKind[static_cast<int>(EventKind::DriverApi)], 0u);
    // cudaStreamSynchronize gives a stream sync record on every CUPTI 13.0; cudaDeviceSynchronize a
    // context sync record from 13.0 Update 1 (130001) on, which GapScope requires for `sync` gaps.
    const std::uint32_t version = cuptiVersion(r);
    std::printf("CUPTI API version: %u; sync records:", version);
    for (const auto& [name, count] : syncs)
        std::printf(" %s %d", name.c_str(), count);
    std::printf("\n");
    EXPECT_GE(syncs["Stream Sync"], 1);
    ASSERT_GE(version, 130001u) << "CUPTI " << version
                                << " (CUDA 13.0 GA) emits no sync records for cudaDeviceSynchronize: install CUDA "
                                   "13.0 Update 1 or newer for the GPU checks";
    EXPECT_GE(syncs["Context Sync"], 4);
    EXPECT_EQ(r.summary.eventsByKind[static_cast<int>(EventKind::NvtxRange)], 6u);
    ASSERT_EQ(trace.devices().size(), 1u);
    EXPECT_FALSE(trace.devices()[0].name.empty());
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
    EXPECT_EQ(r.summary.eventsByKind[static_cast<int>(EventKind::Kernel)], 206u);
    EXPECT_EQ(r.summary.eventsByKind[static_cast<int>(EventKind::RuntimeApi)], 0u);
    EXPECT_EQ(r.summary.eventsByKind[static_cast<int>(EventKind::Memcpy)], 0u);
    EXPECT_EQ(r.summary.eventsByKind[static_cast<int>(EventKind::NvtxRange)], 0u);
}

TEST_F(GpuRecordTest, WithoutDriverRecordsGpuOpsStillLinkToTheRuntimeCalls)
{
    const RecordResult r = record(kAllRecordKinds & ~RecordDriver);
    ASSERT_EQ(r.exit.exitCode, 0);
    EXPECT_EQ(r.summary.eventsByKind[static_cast<int>(EventKind::DriverApi)], 0u);
    std::map<std::string, int> calls; // "kind <- call"
    for (std::uint32_t l = 0; l < r.trace.lanes().size(); ++l) {
        const Lane& lane = r.trace.lanes()[l];
        if (lane.kind != LaneKind::GpuStream)
            continue;
        for (std::uint32_t i = 0; i < lane.events.size(); ++i) {
            const Event& e = lane.events[i];
            if (e.kind == EventKind::Kernel || e.kind == EventKind::Memcpy || e.kind == EventKind::Memset)
                ++calls[std::string(eventKindName(e.kind)) + " <- " + launchingCall(r.trace, { LaneIndex { l }, i })];
        }
    }
    EXPECT_EQ(calls,
        (std::map<std::string, int> { { "kernel <- cudaLaunchKernel", 206 }, { "memcpy <- cudaMemcpy", 1 },
            { "memcpy <- cudaMemcpyAsync", 2 }, { "memset <- cudaMemsetAsync", 1 } }));
}

TEST_F(GpuRecordTest, GraphLaunchesAreRecordedKernelByKernel)
{
    const RecordResult r = record(kAllRecordKinds, { "graph" });
    ASSERT_EQ(r.exit.exitCode, 0);
    std::map<std::string, int> calls;
    for (std::uint32_t l = 0; l < r.trace.lanes().size(); ++l) {
        const Lane& lane = r.trace.lanes()[l];
        for (std::uint32_t i = 0; lane.kind == LaneKind::GpuStream && i < lane.events.size(); ++i) {
            if (lane.events[i].kind == EventKind::Kernel)
                ++calls[launchingCall(r.trace, { LaneIndex { l }, i })];
        }
    }
    EXPECT_EQ(calls, (std::map<std::string, int> { { "cudaGraphLaunch", 50 } }));
}

TEST_F(GpuRecordTest, TwoHostThreadsGetALaneEachWithTheirLaunches)
{
    const RecordResult r = record(kAllRecordKinds, { "threads" });
    ASSERT_EQ(r.exit.exitCode, 0);
    std::vector<int> launchesPerThread;
    std::vector<int> kernelsPerStream;
    for (const Lane& lane : r.trace.lanes()) {
        int launches = 0;
        int kernels = 0;
        for (const Event& e : lane.events) {
            launches += e.kind == EventKind::RuntimeApi && r.trace.name(e) == "cudaLaunchKernel";
            kernels += e.kind == EventKind::Kernel;
        }
        if (launches > 0)
            launchesPerThread.push_back(launches);
        if (kernels > 0)
            kernelsPerStream.push_back(kernels);
    }
    EXPECT_EQ(launchesPerThread, (std::vector<int> { 50, 50 }));
    EXPECT_EQ(kernelsPerStream, (std::vector<int> { 50, 50 }));
}

TEST_F(GpuRecordTest, AForkedChildRecordsItsOwnCudaActivity)
{
    const RecordResult r = record(kAllRecordKinds, { "fork" });
    ASSERT_EQ(r.exit.exitCode, 0);
    ASSERT_EQ(r.summary.processes.size(), 2u);
    std::map<std::int64_t, int> kernelsPerPid;
    for (const Lane& lane : r.trace.lanes()) {
        for (const Event& e : lane.events)
            kernelsPerPid[r.trace.processes()[lane.process.value].pid] += e.kind == EventKind::Kernel;
    }
    for (const RecordedProcess& p : r.summary.processes) {
        EXPECT_EQ(p.cuptiActive, true) << p.pid << ": " << p.cuptiDetail;
        EXPECT_EQ(kernelsPerPid[p.pid], 20) << p.pid;
        EXPECT_TRUE(p.closedCleanly) << p.pid;
    }
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
