// SPDX-License-Identifier: MIT
#pragma once
// What the CUDA test client's recordings must hold (tests/clients/cuda_client.cu), as GoogleTest assertions over a
// gathered recording: run live by the GPU tests (gpu_record_test.cpp) and on the results a GPU machine sent back
// (recorded_gpu_results_test.cpp, tests/gpu/check_gpu_results.sh).

#include "capture/launcher/recording_summary.h"
#include "core/analysis/analysis.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace gapscope::capture::test {

/// CUPTI's API version from the collector's status ("CUPTI API version 130001, ..."), 0 if absent.
inline std::uint32_t cuptiVersion(const RecordingSummary& summary)
{
    for (const RecordedProcess& p : summary.processes) {
        const auto at = p.cuptiDetail.find("CUPTI API version ");
        if (at != std::string::npos)
            return static_cast<std::uint32_t>(std::strtoul(p.cuptiDetail.c_str() + at + 18, nullptr, 10));
    }
    return 0;
}

/// The API call a GPU op correlates with; for a driver call, the runtime call around it on its
/// thread (a memset correlates with the driver call cudaMemsetAsync makes).
inline std::string launchingCall(const Trace& trace, EventRef op)
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

/// Calls `visit(lane, ref, event)` for every event on a GPU stream lane.
template <typename Visit> void forEachGpuEvent(const Trace& trace, Visit visit)
{
    for (std::uint32_t l = 0; l < trace.lanes().size(); ++l) {
        const Lane& lane = trace.lanes()[l];
        for (std::uint32_t i = 0; lane.kind == LaneKind::GpuStream && i < lane.events.size(); ++i)
            visit(lane, EventRef { LaneIndex { l }, i }, lane.events[i]);
    }
}

/// The shape: kinds, counts per stream, copies and memsets linked to their calls, sync records, NVTX.
inline void checkShape([[maybe_unused]] const Trace& trace, [[maybe_unused]] const RecordingSummary& summary)
{
    ASSERT_EQ(summary.processes.size(), 1u);
    EXPECT_EQ(summary.processes[0].cuptiActive, true) << summary.processes[0].cuptiDetail;
    EXPECT_TRUE(summary.processes[0].collectorErrors.empty());
    EXPECT_EQ(summary.droppedRecords, 0u);

    std::map<std::int64_t, int> kernelsPerStream;
    std::multiset<std::string> copies;
    std::multiset<std::string> copyCalls;
    std::vector<std::string> memsetCalls;
    int memsets = 0;
    int kernelsWithoutLaunch = 0;
    std::map<std::string, int> syncs;
    forEachGpuEvent(trace, [&](const Lane& lane, EventRef ref, const Event& e) {
        if (e.kind == EventKind::Kernel) {
            ++kernelsPerStream[lane.stream];
            const auto launch = trace.launchOf(ref);
            if (!launch || trace.name(trace.event(*launch)) != "cudaLaunchKernel")
                ++kernelsWithoutLaunch;
        } else if (e.kind == EventKind::Memcpy) {
            copies.insert(std::string(trace.name(e)));
            copyCalls.insert(launchingCall(trace, ref));
            EXPECT_EQ(e.bytes, 8u << 20);
        } else if (e.kind == EventKind::Memset) {
            ++memsets;
            memsetCalls.push_back(launchingCall(trace, ref));
        } else if (e.kind == EventKind::Sync) {
            ++syncs[std::string(trace.name(e))];
        }
    });
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
    EXPECT_GT(summary.eventsByKind[static_cast<int>(EventKind::RuntimeApi)], 206u);
    EXPECT_GT(summary.eventsByKind[static_cast<int>(EventKind::DriverApi)], 0u);
    // cudaStreamSynchronize gives a stream sync record on every CUPTI 13.0; cudaDeviceSynchronize a
    // context sync record from 13.0 Update 1 (130001) on, which GapScope requires for `sync` gaps.
    const std::uint32_t version = cuptiVersion(summary);
    std::printf("CUPTI API version: %u; sync records:", version);
    for (const auto& [name, count] : syncs)
        std::printf(" %s %d", name.c_str(), count);
    std::printf("\n");
    EXPECT_GE(syncs["Stream Sync"], 1);
    ASSERT_GE(version, 130001u) << "CUPTI " << version
                                << " (CUDA 13.0 GA) emits no sync records for cudaDeviceSynchronize: install CUDA "
                                   "13.0 Update 1 or newer for the GPU checks";
    EXPECT_GE(syncs["Context Sync"], 4);
    EXPECT_EQ(summary.eventsByKind[static_cast<int>(EventKind::NvtxRange)], 6u);
    ASSERT_EQ(trace.devices().size(), 1u);
    EXPECT_FALSE(trace.devices()[0].name.empty());
}

/// The gap causes the shape was built to have: one `host`, one `sync`, at least 100 `launch`.
inline void checkGapCauses([[maybe_unused]] const Trace& trace, [[maybe_unused]] const RecordingSummary& summary)
{
    const AnalysisResult analysis = analyze(trace, AnalysisOptions {});
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

/// The shape recorded with kernels only.
inline void checkKernelsOnly([[maybe_unused]] const Trace& trace, [[maybe_unused]] const RecordingSummary& summary)
{
    EXPECT_EQ(summary.eventsByKind[static_cast<int>(EventKind::Kernel)], 206u);
    EXPECT_EQ(summary.eventsByKind[static_cast<int>(EventKind::RuntimeApi)], 0u);
    EXPECT_EQ(summary.eventsByKind[static_cast<int>(EventKind::Memcpy)], 0u);
    EXPECT_EQ(summary.eventsByKind[static_cast<int>(EventKind::NvtxRange)], 0u);
}

/// The shape without driver records: GPU ops still link to the runtime calls.
inline void checkWithoutDriver([[maybe_unused]] const Trace& trace, [[maybe_unused]] const RecordingSummary& summary)
{
    EXPECT_EQ(summary.eventsByKind[static_cast<int>(EventKind::DriverApi)], 0u);
    std::map<std::string, int> calls; // "kind <- call"
    forEachGpuEvent(trace, [&](const Lane&, EventRef ref, const Event& e) {
        if (e.kind == EventKind::Kernel || e.kind == EventKind::Memcpy || e.kind == EventKind::Memset)
            ++calls[std::string(eventKindName(e.kind)) + " <- " + launchingCall(trace, ref)];
    });
    EXPECT_EQ(calls,
        (std::map<std::string, int> { { "kernel <- cudaLaunchKernel", 206 }, { "memcpy <- cudaMemcpy", 1 },
            { "memcpy <- cudaMemcpyAsync", 2 }, { "memset <- cudaMemsetAsync", 1 } }));
}

/// `graph`: 5 launches of a 10-kernel graph, each kernel linked to cudaGraphLaunch.
inline void checkGraph([[maybe_unused]] const Trace& trace, [[maybe_unused]] const RecordingSummary& summary)
{
    std::map<std::string, int> calls;
    forEachGpuEvent(trace, [&](const Lane&, EventRef ref, const Event& e) {
        if (e.kind == EventKind::Kernel)
            ++calls[launchingCall(trace, ref)];
    });
    EXPECT_EQ(calls, (std::map<std::string, int> { { "cudaGraphLaunch", 50 } }));
}

/// `threads`: two host threads, 50 launches and a stream each.
inline void checkThreads([[maybe_unused]] const Trace& trace, [[maybe_unused]] const RecordingSummary& summary)
{
    std::vector<int> launchesPerThread;
    std::vector<int> kernelsPerStream;
    for (const Lane& lane : trace.lanes()) {
        int launches = 0;
        int kernels = 0;
        for (const Event& e : lane.events) {
            launches += e.kind == EventKind::RuntimeApi && trace.name(e) == "cudaLaunchKernel";
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

/// `fork`: parent and child, 20 kernels each, each file closed cleanly.
inline void checkFork([[maybe_unused]] const Trace& trace, [[maybe_unused]] const RecordingSummary& summary)
{
    ASSERT_EQ(summary.processes.size(), 2u);
    std::map<std::int64_t, int> kernelsPerPid;
    for (const Lane& lane : trace.lanes()) {
        for (const Event& e : lane.events)
            kernelsPerPid[trace.processes()[lane.process.value].pid] += e.kind == EventKind::Kernel;
    }
    for (const RecordedProcess& p : summary.processes) {
        EXPECT_EQ(p.cuptiActive, true) << p.pid << ": " << p.cuptiDetail;
        EXPECT_EQ(kernelsPerPid[p.pid], 20) << p.pid;
        EXPECT_TRUE(p.closedCleanly) << p.pid;
    }
}

/// `kernel-loop 1000 20`: 100 warm-up and 1,000 kernels, nothing dropped.
inline void checkLoop([[maybe_unused]] const Trace& trace, [[maybe_unused]] const RecordingSummary& summary)
{
    // 100 warm-up kernels and the 1000 measured ones.
    EXPECT_EQ(summary.eventsByKind[static_cast<int>(EventKind::Kernel)], 1100u);
    EXPECT_EQ(summary.droppedRecords, 0u);
}

} // namespace gapscope::capture::test
